/* The normal-layer blending rules of mix_blend.c, a node at a time in two registers
 * (mix_internal.h): translation, rotation and scale x in one of 256 bits, scale y and z in one
 * of 128. The scalar code's multiplies and adds in the same order, its dot products computed
 * as it computes them, no FMA: every value has the scalar code's bits. */
#include "mix/mix_internal.h"

#ifdef OSSA_MIX_AVX512
#include <math.h>

#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,avx512vl")
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <immintrin.h>

#define ROTATION 0x78 /* lanes 3-6 of the first register */

int ossa_mix_avx512_supported(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
}

static inline float rotation_dot(const ossa_trs *a, const ossa_trs *b) {
    const float *p = a->rotation, *q = b->rotation;
    return p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
}

/* trs times `rest` in lanes 0-2 and 7-9, times `rotation` in lanes 3-6 (plus add, when not
 * NULL: x times those factors is added to trs instead). */
static inline void scale_trs(ossa_trs *trs, const ossa_trs *add, float rest, float rotation) {
    float *f = trs->translation;
    __m256 factor = _mm256_mask_blend_ps(ROTATION, _mm256_set1_ps(rest), _mm256_set1_ps(rotation));
    __m256 head = _mm256_loadu_ps(f);
    __m128 tail = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(f + 8));
    if (add) {
        const float *x = add->translation;
        __m128 x_tail = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(x + 8));
        head = _mm256_add_ps(head, _mm256_mul_ps(factor, _mm256_loadu_ps(x)));
        tail = _mm_add_ps(tail, _mm_mul_ps(_mm_set1_ps(rest), x_tail));
    } else {
        head = _mm256_mul_ps(head, factor);
        tail = _mm_mul_ps(tail, _mm_set1_ps(rest));
    }
    _mm256_storeu_ps(f, head);
    _mm_storel_pi((__m64 *)(f + 8), tail);
}

/* mix_blend.c's add_weighted: acc += e x, the rotation with e's sign flipped when the dot
 * product of acc's and x's rotations is negative. */
static inline void add_weighted(ossa_trs *acc, const ossa_trs *x, float e) {
    scale_trs(acc, x, e, e * (float)(1 - 2 * (rotation_dot(acc, x) < 0)));
}

void ossa_mix_blend_normal_avx512(const ossa_rig *rig, const ossa_pose *layer, double weight,
                                  const float *mask, float *sums, ossa_pose *out) {
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float e = (float)(mask ? weight * mask[j] : weight);
        if (!(e > 0)) continue;
        add_weighted(&out->local[j], &layer->local[j], e);
        ossa_mix_add_weights(rig, j, out->weights, layer->weights, e);
        sums[j] += e;
    }
}

void ossa_mix_blend_finish_avx512(const ossa_rig *rig, float threshold, const float *sums,
                                  ossa_pose *out) {
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float sum = sums[j];
        float r = sum < threshold ? threshold - sum : 0.0f;
        float total = sum + r;
        ossa_trs *trs = &out->local[j];
        uint32_t first = rig->weight_offset[j], count = rig->weight_count[j];
        if (!(total > 0)) { /* no layer and no threshold: the rest values */
            *trs = rig->rest[j];
            for (uint32_t k = first; k < first + count; k++)
                out->weights[k] = rig->rest_weights[k];
            continue;
        }
        if (r > 0) {
            add_weighted(trs, &rig->rest[j], r);
            ossa_mix_add_weights(rig, j, out->weights, rig->rest_weights, r);
        }
        float inverse = 1.0f / total;
        scale_trs(trs, NULL, inverse, 1.0f / sqrtf(rotation_dot(trs, trs)));
        for (uint32_t k = first; k < first + count; k++)
            out->weights[k] *= inverse;
    }
}

OSSA_TARGET_END
#else
typedef int ossa_mix_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
