/* Compact clips (clip.h): the layout their sampler reads and the builder that makes them from
 * plain clips. Internal, like clip_internal.h. */
#ifndef OSSA_CLIP_COMPACT_H
#define OSSA_CLIP_COMPACT_H

#include <math.h>
#include <stdint.h>

#include "clip/clip_internal.h"

/* A timeline of a compact clip: the keys its tracks kept (shared by all of them), as rows of
 * quantized values, one row per key, each track at its key_at. */
typedef struct ossa_compact_timeline {
    uint32_t key_count;      /* >= 2 */
    uint32_t time_offset;    /* first key time in ossa_compact::times */
    uint32_t first_track;    /* tracks [first_track, first_track + track_count) */
    uint32_t rotation_count; /* its first tracks are rotations, the rest translations, scales */
    uint32_t track_count;
    uint32_t key_offset; /* first uint16 of its rows in ossa_compact::keys */
    uint32_t key_stride; /* uint16 per row */
} ossa_compact_timeline;

/* How one LINEAR translation, rotation or scale track is stored: value = offset + q * step for
 * each stored component q. Rotations store the three components other than `dropped` (made
 * non-negative when quantized, rebuilt as sqrt(1 - sum of squares)), or all four over [-1, 1]
 * when no component stays large enough over the track (dropped = 4, renormalised after
 * decoding). 32 bytes. */
typedef struct ossa_compact_track {
    float offset[3];
    float step[3];
    uint32_t target_offset; /* as ossa_track::target_offset */
    uint16_t key_at;        /* first uint16 of the track in a row */
    uint8_t path;           /* ossa_path */
    uint8_t dropped;
} ossa_compact_track;

#define OSSA_COMPACT_FULL_STEP (2.0f / 65535.0f) /* four-component rotations: [-1, 1] */

/* The compact part of a clip (ossa_clip::compact); its STEP, CUBICSPLINE and weights tracks stay
 * in the plain part of the same ossa_clip. Cursor entries: the plain timelines, then these. */
struct ossa_compact {
    float budget; /* world-space error the clip was built for (model units) */
    float error;  /* the largest world-space error measured against the plain clip */
    uint32_t timeline_count;
    const ossa_compact_timeline *timelines;
    const ossa_compact_track *tracks;
    const float *times;
    const uint16_t *keys;
};

/* What a compact clip set is built with. */
typedef struct ossa_compact_params {
    float budget; /* largest world-space distance a joint or vertex may move (model units) */
    /* Per rig node: the farthest point it moves rigidly (skinned vertices of its joint in joint
     * space, its mesh's vertices in node space), 0 for none. */
    const float *vertex_radius;
    /* Smallest lever arm assumed for a node's rotation and scale while reducing keys, so that
     * joints moving nothing keep a sensible orientation. */
    float min_radius;
} ossa_compact_params;

/* Builds the compact form of every clip of a plain set (same rig), each within params->budget
 * as measured at its key times and three times between each pair. The plain set may be freed
 * afterwards. */
ossa_result ossa_clip_set_compact(const ossa_clip_set *plain, const ossa_compact_params *params,
                                  const ossa_allocator *allocator, ossa_clip_set **out,
                                  ossa_error *error);

/* Samples the compact tracks of a clip into a pose (sample_compact.c). cursor: NULL, or the
 * clip's compact cursor entries (after its plain timelines'). */
void ossa_compact_sample(const struct ossa_compact *compact, float time, uint32_t *cursor, int wide,
                         ossa_pose *pose);

/* The value of one track in one row: 3 floats (translation, scale) or a unit quaternion. */
static inline void ossa_compact_decode(const ossa_compact_track *track, const uint16_t *row,
                                       float *out) {
    const uint16_t *q = row + track->key_at;
    if (track->path != OSSA_PATH_ROTATION) {
        for (int c = 0; c < 3; c++)
            out[c] = track->offset[c] + (float)q[c] * track->step[c];
        return;
    }
    if (track->dropped == 4) {
        float len2 = 0.0f;
        for (int c = 0; c < 4; c++) {
            out[c] = -1.0f + (float)q[c] * OSSA_COMPACT_FULL_STEP;
            len2 += out[c] * out[c];
        }
        float s = len2 > 0.0f ? 1.0f / sqrtf(len2) : 1.0f;
        for (int c = 0; c < 4; c++)
            out[c] *= s;
        return;
    }
    float x = track->offset[0] + (float)q[0] * track->step[0];
    float y = track->offset[1] + (float)q[1] * track->step[1];
    float z = track->offset[2] + (float)q[2] * track->step[2];
    float sum = x * x + y * y + z * z;
    float w = sum < 1.0f ? sqrtf(1.0f - sum) : 0.0f;
    switch (track->dropped) { /* the stored three keep their order around the rebuilt one */
    case 0:
        out[0] = w, out[1] = x, out[2] = y, out[3] = z;
        break;
    case 1:
        out[0] = x, out[1] = w, out[2] = y, out[3] = z;
        break;
    case 2:
        out[0] = x, out[1] = y, out[2] = w, out[3] = z;
        break;
    default:
        out[0] = x, out[1] = y, out[2] = z, out[3] = w;
        break;
    }
}

#endif
