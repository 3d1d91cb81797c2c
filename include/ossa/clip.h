/**
 * @file clip.h
 * @brief Animation clips: one per glTF animation, as flat read-only arrays ready to sample.
 *
 * Built once from a document and its ::ossa_rig; read-only afterwards and shareable between
 * threads. Key values are decoded to float at build time (normalized integer outputs included)
 * and rotation keys are normalised.
 *
 * Tracks whose key-time accessor is the same, or holds identical times, share one
 * ::ossa_timeline, so the key interval is found once per timeline and frame. Tracks whose value
 * never changes (one key, or every key equal with zero tangents) are not kept as tracks: their
 * value is folded into the clip's base pose (rest pose plus constant tracks), which sampling
 * copies before it evaluates the animated tracks.
 */
#ifndef OSSA_CLIP_H
#define OSSA_CLIP_H

#include <stdint.h>

#include "document.h"
#include "result.h"
#include "rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A key-time array shared by one or more tracks; its tracks are contiguous. */
typedef struct ossa_timeline {
    uint32_t key_count;   /**< >= 2 (one-key tracks are constant) */
    uint32_t time_offset; /**< first key time in ossa_clip::times */
    uint32_t first_track; /**< tracks [first_track, first_track + track_count) use it */
    uint32_t track_count;
    uint32_t slerp_track_count; /**< its first tracks that are LINEAR rotations (batched slerp) */
    uint32_t lerp_track_count;  /**< the next ones: LINEAR translations and scales */
    uint32_t slerp_key_offset;  /**< first float of its slerped tracks in ossa_clip::batch_keys */
    uint32_t lerp_key_offset;   /**< first float of its lerped tracks in ossa_clip::batch_keys */
} ossa_timeline;

/** One animated channel. */
typedef struct ossa_track {
    int32_t node;          /**< target rig node */
    uint8_t path;          /**< ::ossa_path */
    uint8_t interpolation; /**< ::ossa_interpolation */
    uint16_t components;   /**< 3 (T, S), 4 (R) or the node's weight count */
    uint32_t timeline;
    uint32_t value_offset;  /**< first float in ossa_clip::values; per key `components` floats,
                                 or for CUBICSPLINE in-tangent, value, out-tangent */
    uint32_t target_offset; /**< weights: the node's first weight in ossa_pose::weights;
                                 translation, rotation, scale: the first float of the target in
                                 ossa_pose::local seen as floats (10 per node: T, R, S) */
} ossa_track;

/** One clip (a glTF animation). */
typedef struct ossa_clip {
    const char *name; /**< NULL when unnamed */
    float start, end; /**< first and last key time over every channel (0, 0 without keys) */
    float duration;   /**< end - start */
    uint32_t timeline_count;
    const ossa_timeline *timelines;
    uint32_t track_count;
    const ossa_track *tracks;
    uint32_t constant_track_count; /**< channels folded into the base pose */
    const float *times;
    const float *values;
    /** The keys of the LINEAR rotations, translations and scales again, laid out for SIMD. Per
     *  timeline, key by key: the quaternions of its slerped tracks; then, key by key,
     *  (x, y, z, 0) of its lerped tracks. 16 zero floats follow the last timeline. */
    const float *batch_keys;
    const ossa_trs *base_local; /**< rest TRS with constant tracks applied, one per rig node */
    const float *base_weights;  /**< rest weights with constant tracks applied (weight_total) */
} ossa_clip;

/** The clips of a document, indexed by glTF animation index. */
typedef struct ossa_clip_set {
    uint32_t clip_count;
    const ossa_clip *clips;
} ossa_clip_set;

/**
 * Builds every clip of a document for a rig built from the same document.
 * Channels without a target node are skipped; a weights channel on a node whose mesh has no
 * morph targets is skipped.
 * @param allocator may be NULL for malloc/free; it must outlive the clips.
 * @param error filled on failure (out of memory, unreadable accessor, output count that does
 *        not match the input); may be NULL.
 */
ossa_result ossa_clip_set_build(const ossa_document *document, const ossa_rig *rig,
                                const ossa_allocator *allocator, ossa_clip_set **out,
                                ossa_error *error);

/** Frees clips. NULL is allowed. */
void ossa_clip_set_free(ossa_clip_set *clips);

/** The clip's name (the glTF animation's), NULL when unnamed. */
const char *ossa_clip_name(const ossa_clip *clip);

/** First key time over every channel of the clip (0 without keys). */
float ossa_clip_start(const ossa_clip *clip);

/** Last key time over every channel of the clip (0 without keys). */
float ossa_clip_end(const ossa_clip *clip);

/** end - start. */
float ossa_clip_duration(const ossa_clip *clip);

/** Animated tracks (channels whose value changes). */
uint32_t ossa_clip_track_count(const ossa_clip *clip);

/** Channels whose value never changes, folded into the clip's base pose. */
uint32_t ossa_clip_constant_track_count(const ossa_clip *clip);

#ifdef __cplusplus
}
#endif

#endif
