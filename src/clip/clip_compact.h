/* Compact clips (clip.h): the layout their sampler reads and the builder that makes them from
 * plain clips. Internal, like clip_internal.h. */
#ifndef OSSA_CLIP_COMPACT_H
#define OSSA_CLIP_COMPACT_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "anim/track_batch.h"
#include "clip/clip_internal.h"

/* A timeline of a compact clip: the keys its tracks kept (shared by all of them). Its tracks come
 * in three classes, in this order: rotations stored as three components (rot3), rotations stored
 * as four (rot4), translations and scales (vec). A row (one key) holds the classes in that order,
 * each component by component, one uint16 per track of the class: so sixteen tracks' component
 * is one load, and rows carry no padding. */
typedef struct ossa_compact_timeline {
    uint32_t key_count;       /* >= 2 */
    uint32_t time_offset;     /* first of its key times in ossa_compact::times */
    uint32_t key_offset;      /* first uint16 of its rows in ossa_compact::keys */
    uint32_t first_track;     /* its tracks in ossa_compact::targets and ::dropped */
    uint32_t range_offset;    /* first float of its ranges in ossa_compact::ranges */
    uint16_t rot3, rot4, vec; /* tracks per class */
    uint16_t flags;           /* OSSA_COMPACT_UNIFORM */
} ossa_compact_timeline;

/* The timeline's keys are evenly spaced and its times are three floats: the first and last key
 * time and (key_count - 1) / (last - first); else key_count times. */
#define OSSA_COMPACT_UNIFORM 1u
/* uint16 per row of a timeline. */
static inline uint32_t ossa_compact_stride(const ossa_compact_timeline *tl) {
    return 3u * tl->rot3 + 4u * tl->rot4 + 3u * tl->vec;
}

/* Stored component q of a rot3 or vec track decodes to offset + q * step, offset and step per
 * track and component. A rot3 track stores the three components other than `dropped` (made
 * non-negative when quantized, rebuilt as sqrt(1 - sum of squares)); a rot4 track, chosen when
 * no component stays large enough over the track, stores all four over [-1, 1]. */
#define OSSA_COMPACT_FULL_STEP (2.0f / 65535.0f) /* rot4: [-1, 1] */

/* Zeroed elements after ranges, dropped and keys (not counted in a clip's bytes: no sample uses
 * them), so that the AVX-512 path reads sixteen lanes from any track of a row or a range array
 * with a plain load and zeroes the lanes it does not use. On an Intel Xeon masked loads made
 * compact sampling 3-8% slower; sampling there also depends on where poses sit within their
 * pages relative to the clip's data (see README, Compact clips), which suggests loads held back
 * behind the pose's stores in flight, something masked loads suffer more from. */
#define OSSA_COMPACT_SLACK 16u

/* The compact part of a clip (ossa_clip::compact); its STEP, CUBICSPLINE and weights tracks stay
 * in the plain part of the same ossa_clip. Cursor entries: the plain timelines, then these. */
struct ossa_compact {
    float budget; /* world-space error the clip was built for (model units) */
    float error;  /* the largest world-space error measured against the plain clip */
    uint32_t timeline_count;
    const ossa_compact_timeline *timelines;
    /* Per timeline: its rot3 tracks' offsets (3 arrays of rot3 floats, one per component) and
     * steps (3 more), then its vec tracks' likewise. */
    const float *ranges;
    const uint16_t *targets; /* per track: ossa_track::target_offset */
    const uint8_t *dropped;  /* per track: the rebuilt component of a rot3 track (0 otherwise) */
    const float *times;
    const uint16_t *keys;
    /* Channels held at a value other than the rest pose's (the clip's base pose is the rig's
     * rest pose): first const3 translations and scales, then const4 rotations; written before
     * the timelines' tracks. */
    uint32_t const3, const4;
    const uint16_t *const_targets; /* as ossa_track::target_offset */
    const float *const_values;     /* 3 floats each, then 4 each */
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

/* Decoding one key of one track, the scalar reference of every sampling path (the AVX-512 one
 * does the same operations in the same order). q: its stored components, q_stride apart;
 * offset, step: its ranges, range_stride apart. */
static inline void ossa_compact_decode_vec(const uint16_t *q, ptrdiff_t q_stride,
                                           const float *offset, const float *step,
                                           ptrdiff_t range_stride, float *out) {
    for (int c = 0; c < 3; c++)
        out[c] = offset[c * range_stride] + (float)q[c * q_stride] * step[c * range_stride];
}

/* A rot3 key in stored order: the three stored components, then the rebuilt one, whichever
 * component it is (ossa_compact_rot3_order puts it in place). Sampling interpolates in this
 * order, the same for both keys of a track, and reorders the result. */
static inline void ossa_compact_decode_rot3(const uint16_t *q, ptrdiff_t q_stride,
                                            const float *offset, const float *step,
                                            ptrdiff_t range_stride, float *out) {
    ossa_compact_decode_vec(q, q_stride, offset, step, range_stride, out);
    float sum = out[0] * out[0] + out[1] * out[1] + out[2] * out[2];
    out[3] = sum < 1.0f ? sqrtf(1.0f - sum) : 0.0f;
}

/* A rotation in stored order as (x, y, z, w): the stored three keep their order around the
 * rebuilt one. */
static inline void ossa_compact_rot3_order(const float *stored, uint8_t dropped, float *out) {
    float v[4] = {stored[0], stored[1], stored[2], stored[3]};
    for (int c = 0, i = 0; c < 4; c++)
        out[c] = c == dropped ? v[3] : v[i++];
}

/* A rot4 key as stored, not unit length: between keys the normalized lerp makes the result
 * unit (and its input lengths, 1 within a step, move its pace far less than the budget allows);
 * at a key, ossa_compact_normalize does. */
static inline void ossa_compact_decode_rot4(const uint16_t *q, ptrdiff_t q_stride, float *out) {
    for (int c = 0; c < 4; c++)
        out[c] = -1.0f + (float)q[c * q_stride] * OSSA_COMPACT_FULL_STEP;
}

/* Scales q to unit length. sqrt(l) * (1 / l) rather than 1 / sqrt(l): the division does not wait
 * for the square root (both are on the latency path of a timeline's sample). Lengths too small
 * to invert stay as they are. */
static inline void ossa_compact_normalize(float *q) {
    float len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
    float s = len2 >= FLT_MIN ? sqrtf(len2) * (1.0f / len2) : 1.0f;
    for (int c = 0; c < 4; c++)
        q[c] *= s;
}

/* Compact rotations interpolate by normalized lerp, a + (b' - a) v scaled to unit length, b' being
 * b or -b, whichever is nearer a. A normalized lerp moves along slerp's arc but at the wrong
 * pace; v = u + u (u - 1/2) (u - 1) (A + B (u - 1/2)^2), with A and B cubics in x = 1 - |a.b|
 * fitted to the exact pace sin(u t) / (sin(u t) + sin((1 - u) t)), t the angle between a and b,
 * corrects it to within 1e-6 rad up to 0.2 rad between keys, 8e-5 rad up to 2.4 rad (against
 * 2e-3 and 0.06 uncorrected), at a fraction of slerp's cost. The builder measures the error of
 * what this gives (its key reduction and its world-space check both sample it), so the declared
 * error holds. The reference of every sampling path, operation by operation. */
#define OSSA_NLERP_A1 0.672002f
#define OSSA_NLERP_A2 0.110299f
#define OSSA_NLERP_A3 0.0655997f
#define OSSA_NLERP_B1 0.0855781f
#define OSSA_NLERP_B2 0.152854f
#define OSSA_NLERP_B3 0.797186f

/* v as one cubic in x, v = (u + x c1) + x^2 (c2 + x c3), its coefficients c_i = ga A_i + gb B_i
 * depending on u only (ga = u (u - 1/2) (u - 1), gb = ga (u - 1/2)^2): so a sample computes
 * them once for all its tracks, and x reaches v in four operations. */
static inline void ossa_compact_nlerp_factors(float u, float c[3]) {
    float h = u - 0.5f;
    float ga = u * h * (u - 1.0f), gb = ga * (h * h);
    c[0] = ga * OSSA_NLERP_A1 + gb * OSSA_NLERP_B1;
    c[1] = ga * OSSA_NLERP_A2 + gb * OSSA_NLERP_B2;
    c[2] = ga * OSSA_NLERP_A3 + gb * OSSA_NLERP_B3;
}

/* a and b in the same component order (quaternion order, or a rot3 track's stored order: the
 * last product is the rebuilt components', summed last so that the others need not wait for
 * its square roots). c: ossa_compact_nlerp_factors(u). */
static inline void ossa_compact_nlerp(const float *a, const float *b, float u, const float *c,
                                      float *out) {
    float d = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) + a[3] * b[3];
    float sign = d < 0.0f ? -1.0f : 1.0f;
    float x = 1.0f - fabsf(d), x2 = x * x;
    float v = (u + x * c[0]) + x2 * (c[1] + x * c[2]);
    for (int i = 0; i < 4; i++)
        out[i] = a[i] + (sign * b[i] - a[i]) * v;
    ossa_compact_normalize(out);
}

#ifdef OSSA_ANIM_AVX512
/* 1 when this CPU runs the two functions below (AVX-512F, VL and BW). */
int ossa_compact_avx512_supported(void);

/* Every track of a timeline between its keys k and k + 1 at fraction u, sixteen tracks per
 * register (sample_compact_avx512.c); equal bit for bit to the portable path. */
void ossa_compact_between_avx512(const struct ossa_compact *compact,
                                 const ossa_compact_timeline *tl, uint32_t k, float u,
                                 float *local);

/* Every track of a timeline at its key k. */
void ossa_compact_at_avx512(const struct ossa_compact *compact, const ossa_compact_timeline *tl,
                            uint32_t k, float *local);
#endif

#endif
