/* The prepared mix (mix.h): layers with their masks resolved per rig node, additive references
 * sampled, sync groups with their phase integral tabulated at the weight points. */
#ifndef OSSA_MIX_INTERNAL_H
#define OSSA_MIX_INTERNAL_H

#include <math.h>

#include "ossa/mix.h"
#include "rig/owned.h"

/* A sync group: its layers and the union of their weight points, with the phase integral
 * integral_{breaks[0]}^{breaks[i]} dt / D(t) at each (breaks[0] is the origin of `integral`). */
typedef struct mix_sync_group {
    uint32_t first_layer;
    uint32_t layer_count;
    const uint32_t *layers; /* layer indices, in layer order */
    uint32_t break_count;
    const double *breaks;
    const double *integral;
    double integral_at_zero; /* integral from breaks[0] (or 0 without breaks) to clock 0 */
} mix_sync_group;

typedef struct mix_layer {
    const ossa_clip *clip;
    uint32_t weight_count;
    const ossa_mix_point *weights; /* weight_count == 0: constant 1 */
    double speed, offset;
    ossa_mix_wrap wrap;
    ossa_mix_mode mode;
    const float *mask; /* per rig node; NULL: 1 everywhere */
    /* Additive layers: the reference pose (NULL local: the rig's rest pose). */
    const ossa_trs *reference_local;
    const float *reference_weights;
    int32_t sync;           /* sync group, -1 when not synced */
    uint32_t cursor_offset; /* first uint32_t of its cursor in the scratch block */
} mix_layer;

struct ossa_mix {
    ossa_owned owned;
    const ossa_rig *rig;
    float threshold;
    uint32_t layer_count;
    mix_layer *layers;
    uint32_t group_count;
    mix_sync_group *groups;
    uint32_t cursor_total; /* uint32_t of all layers' cursors */
};

/* Weight of a curve at a clock: linear between points, held outside; no points: 1. */
double ossa_mix_curve(const ossa_mix_point *points, uint32_t count, double clock);

/* Absolute clip time of x (clip seconds) under a wrap, as mix.h says. */
double ossa_mix_wrap_time(double x, double start, double duration, ossa_mix_wrap wrap);

/* integral_a^b dt / D(t) over a group, a and b in one linear piece of its weight curves
 * (or outside all its points), a <= b. */
double ossa_mix_piece_integral(const ossa_mix *mix, const mix_sync_group *group, double a,
                               double b);

/* integral_0^clock dt / D(t) of a group (uses the tabulated breaks). */
double ossa_mix_group_integral(const ossa_mix *mix, const mix_sync_group *group, double clock);

/* The group's phase in [0, 1) at a clock. */
double ossa_mix_group_phase(const ossa_mix *mix, const mix_sync_group *group, double clock);

/* The blending rules (mix_blend.c). begin zeroes the output and the per-node weight sums; each
 * normal layer adds weight * mask[j] (mask NULL: 1) of its pose; finish completes with the rest
 * share below the threshold and divides; additive layers then add their difference to a
 * reference pose. */
void ossa_mix_blend_begin(const ossa_rig *rig, float *sums, ossa_pose *out);
void ossa_mix_blend_normal(const ossa_rig *rig, const ossa_pose *layer, double weight,
                           const float *mask, float *sums, ossa_pose *out);
void ossa_mix_blend_finish(const ossa_rig *rig, float threshold, const float *sums, ossa_pose *out);
void ossa_mix_blend_additive(const ossa_rig *rig, const ossa_pose *layer,
                             const ossa_pose *reference, double weight, const float *mask,
                             ossa_pose *out);

/* 1 for a weight, mask value or threshold the float blend can take: finite, >= 0 and at most
 * OSSA_MIX_MAX_WEIGHT (mix.h). */
static inline int ossa_mix_valid_factor(double v) {
    return isfinite(v) && v >= 0 && v <= OSSA_MIX_MAX_WEIGHT;
}

/* acc += e * x over the morph weights of one node (blend rules). */
static inline void ossa_mix_add_weights(const ossa_rig *rig, uint32_t node, float *acc,
                                        const float *x, float e) {
    uint32_t first = rig->weight_offset[node], count = rig->weight_count[node];
    for (uint32_t k = first; k < first + count; k++)
        acc[k] += e * x[k];
}

/* Tests: 1 makes the blending rules take the portable code even where the AVX-512 code runs, 0
 * (the default) lets them choose. Not for use while other threads mix. */
void ossa_mix_force_portable(int portable);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSSA_MIX_AVX512 1
/* 1 when this CPU runs the three functions below (AVX-512F and VL). */
int ossa_mix_avx512_supported(void);

/* ossa_mix_blend_normal, _finish and _additive in vector registers (mix_blend_avx512.c): the same
 * operations in the same order, the same bits. */
void ossa_mix_blend_normal_avx512(const ossa_rig *rig, const ossa_pose *layer, double weight,
                                  const float *mask, float *sums, ossa_pose *out);
void ossa_mix_blend_finish_avx512(const ossa_rig *rig, float threshold, const float *sums,
                                  ossa_pose *out);
void ossa_mix_blend_additive_avx512(const ossa_rig *rig, const ossa_pose *layer,
                                    const ossa_pose *reference, double weight, const float *mask,
                                    ossa_pose *out);
#endif

/* integral_0^span of W(s) / N(s) ds for W and N linear from (wa, na) to (wb, nb), N >= 0 and
 * W / N the inverse of a weighted mean of positive durations; 0 where both vanish. */
double ossa_mix_ratio_integral(double wa, double na, double wb, double nb, double span);

#endif
