/**
 * @file clip.h
 * @brief Animation clips: one per glTF animation, as flat read-only arrays ready to sample.
 *
 * Built once from a document and its ::ossa_rig; read-only afterwards and shareable between
 * threads. Key values are decoded to float at build time (normalized integer outputs included)
 * and rotation keys are normalised.
 *
 * Tracks whose key-time accessor is the same, or holds identical times, share one timeline,
 * so the key interval is found once per timeline and frame. Tracks whose value
 * never changes (one key, or every key equal with zero tangents) are not kept as tracks: their
 * value is folded into the clip's base pose (rest pose plus constant tracks), which sampling
 * copies before it evaluates the animated tracks.
 */
#ifndef OSSA_CLIP_H
#define OSSA_CLIP_H

#include <stddef.h>
#include <stdint.h>

#include "document.h"
#include "result.h"
#include "rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One clip (a glTF animation): opaque, read through the functions below. */
typedef struct ossa_clip ossa_clip;

/** The clips of a document, indexed by glTF animation index (opaque). */
typedef struct ossa_clip_set ossa_clip_set;

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

/** Number of clips in a set. */
uint32_t ossa_clip_set_count(const ossa_clip_set *clips);

/** Clip `index` of a set (glTF animation index), NULL when out of range. */
const ossa_clip *ossa_clip_set_clip(const ossa_clip_set *clips, uint32_t index);

/** The rig a clip was built for: it samples into poses of this rig only. */
const ossa_rig *ossa_clip_rig(const ossa_clip *clip);

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

/**
 * Bytes of memory sampling this clip reads: its key times and values in every form it keeps
 * them, track and timeline descriptions, base pose. Compact clips count their compact form.
 */
size_t ossa_clip_runtime_bytes(const ossa_clip *clip);

/**
 * 1 for a compact clip (see ::ossa_model_desc::compact_clips): its LINEAR translations,
 * rotations and scales are stored as reduced, 16-bit quantized keys and sampled from them
 * directly; 0 for a plain clip (every key as float).
 */
int ossa_clip_is_compact(const ossa_clip *clip);

/**
 * The world-space error budget a compact clip was built with (model units), 0 for plain clips.
 */
float ossa_clip_compact_budget(const ossa_clip *clip);

/**
 * A compact clip's declared error: the largest distance, in model units, that any node or
 * skinned vertex of the model is moved from where the plain clip puts it, measured at every key
 * time of the clip and three times between each pair of consecutive key times. At most the
 * budget unless quantization alone exceeds it. 0 for plain clips, which are exact, and for a
 * compact clip that keeps every track plain (keys near the float range, which would overflow).
 */
float ossa_clip_compact_error(const ossa_clip *clip);

/* ---- named float tracks ---------------------------------------------------------------- */

/**
 * A named float track: a KHR_animation_pointer channel to a material, camera or light property
 * (ozz's float tracks are the model). Its values are sampled at clip time like node tracks:
 * clamped to the first and last key, STEP, LINEAR (per component) or CUBICSPLINE. Material tracks
 * are also applied by ::ossa_character_update (see ::ossa_character_material); camera and light
 * tracks are for the program to use.
 */
typedef struct ossa_float_track_info {
    const char *name;                 /**< the JSON pointer, e.g. "/cameras/0/perspective/yfov" */
    ossa_pointer_target target;       /**< the property it animates */
    int32_t index;                    /**< material, camera or light index (-1: no such track) */
    uint32_t components;              /**< floats per value (4 for a base colour, 1 for yfov) */
    uint32_t key_count;               /**< keys */
    ossa_interpolation interpolation; /**< the sampler's interpolation */
} ossa_float_track_info;

/** Number of named float tracks of a clip. */
uint32_t ossa_clip_float_track_count(const ossa_clip *clip);

/** Float track `track` of a clip; zeroed (index -1, name NULL) when out of range. */
ossa_float_track_info ossa_clip_float_track(const ossa_clip *clip, uint32_t track);

/** The float track named `name` (the pointer as written), -1 when the clip has none. */
int32_t ossa_clip_find_float_track(const ossa_clip *clip, const char *name);

/**
 * Samples float track `track` at clip time `time` into out (its `components` floats).
 * Allocates nothing. Returns the number of floats written: 0 when track is out of range.
 */
uint32_t ossa_clip_float_track_sample(const ossa_clip *clip, uint32_t track, float time,
                                      float *out);

#ifdef __cplusplus
}
#endif

#endif
