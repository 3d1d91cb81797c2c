/* The layout of clips, which sampling's kernels depend on: internal, so that a kernel change
 * is no ABI break. Built by clip_build.c, read by sample.c. */
#ifndef OSSA_CLIP_INTERNAL_H
#define OSSA_CLIP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/clip.h"
#include "ossa/sample.h"
#include "rig/owned.h"

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

/** A named float track (a KHR_animation_pointer to a material, camera or light property). */
typedef struct ossa_float_track {
    const char *name;      /**< the JSON pointer */
    uint8_t target;        /**< ::ossa_pointer_target */
    uint8_t interpolation; /**< ::ossa_interpolation */
    uint16_t components;   /**< floats per value */
    int32_t index;         /**< material, camera or light */
    uint32_t key_count;    /**< >= 1 */
    const float *times;
    const float *values; /**< per key `components` floats (CUBICSPLINE: in, value, out) */
} ossa_float_track;

/* One clip (a glTF animation). */
struct ossa_clip {
    const ossa_rig *rig; /* the rig it was built for */
    const char *name;    /**< NULL when unnamed */
    float start, end;    /**< first and last key time over every channel (0, 0 without keys) */
    float duration;      /**< end - start */
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
    /** Per rig node, bit `1 << ossa_path` for each path a channel of the clip targets (animated
     *  or constant): what ossa_clips_sample lets the clip write. */
    const uint8_t *node_paths;
    /** Compact clips (clip_compact.h): their LINEAR translations, rotations and scales,
     *  quantized and reduced; NULL for plain clips. */
    const struct ossa_compact *compact;
    size_t bytes; /**< what sampling reads: this struct and its arrays */
    uint32_t time_count, value_count, batch_key_count; /**< floats in times, values, batch_keys */
    uint32_t float_track_count; /**< material, camera and light pointers (clip_float.c) */
    const ossa_float_track *float_tracks;
    /** Plain clips: pairs (first node, node count), the runs of nodes that sampling copies from
     *  base_local, those whose translation, rotation and scale are not all written by animated
     *  tracks (the others are overwritten whole). NULL (clips made by hand): every node.
     *  Compact clips start as a copy of their plain clip, fold tracks into their base and copy
     *  every node's base: they ignore these. */
    const uint32_t *base_spans;
    uint32_t base_span_count;
};

/* The clips of a document, indexed by glTF animation index. */
struct ossa_clip_set {
    uint32_t clip_count;
    const ossa_clip *clips;
};

/* A clip set with the allocations it owns (plain and compact sets alike). */
typedef struct clip_set_impl {
    ossa_clip_set set; /* first: the public pointer is the impl pointer */
    ossa_owned owned;
} clip_set_impl;

/* Cursor entries a clip needs: its plain timelines, then its compact ones. */
uint32_t ossa_clip_cursor_entries(const ossa_clip *clip);

/* Bytes of the plain arrays of a clip whose tracks, timelines and base pose are filled:
 * struct, timelines, tracks, times, values, batched keys, base pose, node paths, base spans
 * (plain clips). */
size_t ossa_clip_plain_bytes(const ossa_clip *clip, uint32_t time_count, uint32_t value_count,
                             uint32_t batch_key_count);

/* Builds the float tracks of a document animation into `clip` (clip_float.c); widens
 * [*start, *end] (set when *have_range is 0) by their key times. */
ossa_result ossa_clip_build_float_tracks(const ossa_document *doc, const ossa_animation *anim,
                                         ossa_owned *owned, ossa_clip *clip, float *start,
                                         float *end, int *have_range);

/* Bytes of a clip's float tracks (counted by ossa_clip_plain_bytes). */
size_t ossa_clip_float_track_bytes(const ossa_clip *clip);

/* Gives `to` its own copy of the float tracks of `from` (compact clips copy plain ones). */
ossa_result ossa_clip_copy_float_tracks(const ossa_clip *from, ossa_owned *owned, ossa_clip *to);

/* ossa_clip_sample without its checks (the caller has made them: the model API). */
void ossa_clip_sample_unchecked(const ossa_clip *clip, float time, ossa_cursor *cursor,
                                ossa_pose *pose);

#endif
