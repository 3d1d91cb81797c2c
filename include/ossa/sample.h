/**
 * @file sample.h
 * @brief Sampling clips into poses: key search (stateless or with a cursor), interpolation,
 * playback wrap modes.
 *
 * A pose is local TRS per rig node plus the morph weights of every node, in buffers the caller
 * owns (sizes: ossa_rig::node_count transforms, ossa_rig::weight_total floats). Sampling
 * writes the whole pose: the clip's base pose (rest + constant tracks), then every animated
 * track (::ossa_clips_sample plays several clips into one pose). Nothing here allocates or
 * can fail.
 *
 * Interpolation follows glTF 2.0: STEP holds the key at or before the time; LINEAR lerps, and
 * slerps rotations along the shortest arc; CUBICSPLINE is the Hermite spline with tangents
 * scaled by the key interval, rotations renormalised. Times at or before a track's first key
 * give the first key, at or after its last key the last key, and exactly at a key time that
 * key's value.
 *
 * Slerp is evaluated with a polynomial (no acos/sin): the arc is halved first and
 * sin(t a)/sin(a) comes from its series in cos(a) - 1 (7 terms). Its largest component error
 * against double-precision slerp, measured by the anim_math suite over 200,000 random and
 * nearly equal key pairs, is 2.4e-7 (float rounding level; golden tolerances are >= 1e-4).
 */
#ifndef OSSA_ANIM_H
#define OSSA_ANIM_H

#include <stdint.h>

#include "clip.h"
#include "rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A pose: caller-owned buffers, see the file comment for their sizes. */
typedef struct ossa_pose {
    ossa_trs *local; /**< rig->node_count local transforms, rig order */
    float *weights;  /**< rig->weight_total morph weights (see ossa_rig::weight_offset) */
} ossa_pose;

/** Copies the rest pose of the rig into a pose. */
void ossa_pose_set_rest(const ossa_rig *rig, ossa_pose *pose);

/**
 * A per-playback cursor: the key interval last found on each timeline of one clip, so that
 * forward playback finds its keys in O(1). Any time sequence is allowed (jumps, backward):
 * results are bit-identical to the stateless search. `keys` is caller-owned with
 * ::ossa_cursor_size entries.
 */
typedef struct ossa_cursor {
    uint32_t *keys;
    uint32_t capacity; /**< entries of keys; sampling refuses a cursor smaller than the clip's */
} ossa_cursor;

/** Number of uint32_t a cursor for this clip needs (its timeline count; may be 0). */
uint32_t ossa_cursor_size(const ossa_clip *clip);

/** Sets a cursor to the clip's first keys (any state is valid; this one is cheapest at 0). */
void ossa_cursor_reset(const ossa_clip *clip, ossa_cursor *cursor);

/**
 * Samples a clip at a time (in the clip's own seconds, see ::ossa_clip_time) into a pose.
 * @param rig the rig the clip was built for (::ossa_clip_rig); the pose holds its sizes.
 * @param cursor NULL for the stateless binary search, else a cursor of this clip.
 * @return OSSA_ERROR_ARGUMENT, with nothing written, when the clip was built for another rig or
 *         the cursor is smaller than ::ossa_cursor_size; OSSA_OK otherwise.
 */
ossa_result ossa_clip_sample(const ossa_rig *rig, const ossa_clip *clip, float time,
                             ossa_cursor *cursor, ossa_pose *pose);

/**
 * Samples several clips of one rig together into one pose, each at its own time: the rest
 * pose, then for each clip in order only what it animates (its animated tracks and its
 * constant channels), so clips that animate different nodes all play at once (a file with one
 * clip per object, a face clip over a body clip). Where two clips animate the same property
 * the later one in the list wins. Unlike ::ossa_clip_sample, which writes the whole pose
 * (each clip's base pose included), no clip overwrites what another animates unless it has a
 * channel for the same property (a channel that holds one value counts). Allocates nothing.
 * @param clips count clips of `rig`.
 * @param times count clip times, times[i] for clips[i] (see ::ossa_clip_time).
 * @param cursors NULL for the stateless search, else count cursors, cursors[i] of clips[i].
 * @return OSSA_ERROR_ARGUMENT, with nothing written, when a clip is NULL or of another rig or
 *         a cursor is smaller than its clip's ::ossa_cursor_size; OSSA_OK otherwise (count 0
 *         writes the rest pose).
 */
ossa_result ossa_clips_sample(const ossa_rig *rig, const ossa_clip *const *clips,
                              const float *times, uint32_t count, ossa_cursor *cursors,
                              ossa_pose *pose);

/** How a caller's clock maps onto a clip's time range [start, end]. */
typedef enum ossa_wrap {
    OSSA_WRAP_CLAMP,    /**< hold the first / last key outside the range */
    OSSA_WRAP_LOOP,     /**< repeat: start + (clock - start) mod duration */
    OSSA_WRAP_PING_PONG /**< forward, then backward, then forward again, ... */
} ossa_wrap;

/** Clip time for a clock value (seconds); a clip of zero duration always gives its start, and so
 *  do a NaN clock and, looping or ping-ponging, an infinite one. A wrap value outside the enum
 *  clamps. */
float ossa_clip_time(const ossa_clip *clip, double clock, ossa_wrap wrap);

#ifdef __cplusplus
}
#endif

#endif
