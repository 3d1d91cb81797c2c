/* The blending rules of mix_blend.c in vector registers (mix_internal.h). Normal layers and the
 * finishing division take a node at a time in two registers: translation, rotation and scale x
 * in one of 256 bits, scale y and z in one of 128. Additive layers take their quaternion
 * products one component per lane. The scalar code's multiplies and adds in the same order, its
 * dot products computed as it computes them, no FMA: every value has the scalar code's bits. */
#include "mix/mix_internal.h"

#ifdef OSSA_MIX_AVX512
#include <math.h>
#include <string.h>

#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,avx512vl")
OSSA_FP_CONTRACT_OFF
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

/* Hamilton product a * b of (x, y, z, w) quaternions: mix_blend.c's quat_mul, each component's
 * four products summed left to right with its signs, one component per lane. */
static inline __m128 quat_mul(__m128 a, __m128 b) {
    const __m128 s2 = _mm_setr_ps(0.0f, -0.0f, 0.0f, -0.0f),
                 s3 = _mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f);
    const __m128 s4 = _mm_setr_ps(-0.0f, 0.0f, 0.0f, -0.0f);
    __m128 t1 = _mm_mul_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 3, 3, 3)), b);
    __m128 t2 = _mm_mul_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(0, 0, 0, 0)),
                           _mm_shuffle_ps(b, b, _MM_SHUFFLE(0, 1, 2, 3)));
    __m128 t3 = _mm_mul_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 1, 1, 1)),
                           _mm_shuffle_ps(b, b, _MM_SHUFFLE(1, 0, 3, 2)));
    __m128 t4 = _mm_mul_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 2, 2, 2)),
                           _mm_shuffle_ps(b, b, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_add_ps(_mm_add_ps(_mm_add_ps(t1, _mm_xor_ps(t2, s2)), _mm_xor_ps(t3, s3)),
                      _mm_xor_ps(t4, s4));
}

/* mix_blend.c's add_rotation_difference, the quaternion products in registers. */
static inline void add_rotation_difference(ossa_trs *out, const ossa_trs *x, const ossa_trs *ref,
                                           float e) {
    __m128 conj = _mm_xor_ps(_mm_loadu_ps(ref->rotation), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
    float d[4], m[4];
    _mm_storeu_ps(d, quat_mul(conj, _mm_loadu_ps(x->rotation)));
    float es = e * (d[3] < 0 ? -1.0f : 1.0f);
    m[0] = es * d[0], m[1] = es * d[1], m[2] = es * d[2], m[3] = (1 - e) + es * d[3];
    float inverse_length = 1.0f / sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
    __m128 unit = _mm_mul_ps(_mm_loadu_ps(m), _mm_set1_ps(inverse_length));
    _mm_storeu_ps(out->rotation, quat_mul(_mm_loadu_ps(out->rotation), unit));
}

/* mix_blend.c's divide_node. */
static inline void divide_node(ossa_trs *trs, float inverse) {
    scale_trs(trs, NULL, inverse, 1.0f / sqrtf(rotation_dot(trs, trs)));
}

#define MIX_LOOP(name) ossa_mix_blend_##name##_avx512
#define MIX_LOOP_STORAGE
#include "mix/mix_blend_loops.h"

OSSA_TARGET_END
#else
typedef int ossa_mix_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
