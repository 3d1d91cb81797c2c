/* Sixteen slerps at once with AVX-512 (track_batch.h): the steps of ossa_quat_slerp in
 * slerp.c, one lane per track. The keys come four quaternions (x, y, z, w) per register from
 * ossa_clip::batch_keys: register j holds tracks 4j to 4j + 3, one per 128-bit block, so an
 * in-block 4x4 transpose of the four registers gives component vectors (lane 4g + j: track
 * 4j + g), and the result is written back one block per track. No FMA: each lane must round as
 * the scalar code does. */
#include "anim/track_batch.h"

#ifdef OSSA_ANIM_AVX512
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f")
/* compilers would fuse the intrinsics' multiplies and adds */
OSSA_FP_CONTRACT_OFF
#include <immintrin.h>

int ossa_anim_avx512_supported(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
}

/* Group j of four tracks (x, y, z, w each), whole: in a last group of fewer than four tracks,
 * the lanes past `count` hold whatever follows (finite keys or the zero slack, never stored);
 * groups past count are unit quaternions. */
static inline __m512 load_group(const float *keys, uint32_t count, uint32_t j) {
    return 4 * j < count ? _mm512_loadu_ps(keys + 16 * j)
                         : _mm512_broadcast_f32x4(_mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f));
}

/* The half-arc terms of slerp.c for dot products d: the sign that takes the shorter arc, the
 * midpoint's factor 0.5 / cos(a / 2) and the series' variable cos(a / 2) - 1. */
static inline void half_arc(__m512 d, __m512 *sign, __m512 *to_mid, __m512 *xm1) {
    __m512 one = _mm512_set1_ps(1.0f), half = _mm512_set1_ps(0.5f);
    __mmask16 negative = _mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_LT_OQ);
    *sign = _mm512_mask_blend_ps(negative, one, _mm512_set1_ps(-1.0f));
    __m512 x = _mm512_min_ps(one, _mm512_abs_ps(d)); /* x > 1 gives 1, NaN stays NaN */
    __m512 half_cos = _mm512_sqrt_ps(_mm512_add_ps(half, _mm512_mul_ps(half, x)));
    *to_mid = _mm512_div_ps(half, half_cos);
    *xm1 = _mm512_sub_ps(half_cos, one);
}

/* The weights of a and b from the series' results: rq, the one in q = 1 - s (towards a in the
 * first half, the midpoint in the second), and rs, the one in s. */
static inline void slerp_weights(__m512 rq, __m512 rs, __m512 to_mid, __m512 sign, int first_half,
                                 __m512 *w0, __m512 *w1) {
    if (first_half) {
        *w0 = _mm512_add_ps(rq, _mm512_mul_ps(rs, to_mid));
        *w1 = _mm512_mul_ps(rs, to_mid);
    } else {
        *w0 = _mm512_mul_ps(rq, to_mid);
        *w1 = _mm512_add_ps(_mm512_mul_ps(rq, to_mid), rs);
    }
    *w1 = _mm512_mul_ps(*w1, sign);
}

/* The tracks first to first + 3 (those below count), one per 128-bit block of o, stored to
 * their rotations. */
static inline void store_group(__m512 o, const ossa_track *tracks, uint32_t count, uint32_t first,
                               float *local) {
    if (first < count)
        _mm_storeu_ps(local + tracks[first].target_offset, _mm512_castps512_ps128(o));
    if (first + 1 < count)
        _mm_storeu_ps(local + tracks[first + 1].target_offset, _mm512_extractf32x4_ps(o, 1));
    if (first + 2 < count)
        _mm_storeu_ps(local + tracks[first + 2].target_offset, _mm512_extractf32x4_ps(o, 2));
    if (first + 3 < count)
        _mm_storeu_ps(local + tracks[first + 3].target_offset, _mm512_extractf32x4_ps(o, 3));
}

/* out = w0 a + w1 b for the tracks of group j, stored to their rotations. */
static inline void blend_store(__m512 w0, __m512 w1, __m512 a, __m512 b, const ossa_track *tracks,
                               uint32_t count, uint32_t j, float *local) {
    /* Track 4j + g sits in block g of the group's register and in lane 4g + j of w0, w1. */
    __m512i lanes =
        _mm512_add_epi32(_mm512_set1_epi32((int)j),
                         _mm512_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12));
    __m512 o = _mm512_add_ps(_mm512_mul_ps(_mm512_permutexvar_ps(lanes, w0), a),
                             _mm512_mul_ps(_mm512_permutexvar_ps(lanes, w1), b));
    store_group(o, tracks, count, 4 * j, local);
}

/* One Horner step of the series (slerp.c's SERIES_STEP) for term i, t2 the squared parameter. */
#define SERIES_STEP16(acc, t2, i)                                                                  \
    ((acc) = _mm512_add_ps(                                                                        \
         one, _mm512_mul_ps(                                                                       \
                  _mm512_mul_ps(xm1, _mm512_set1_ps((t2) * (1.0f / ((i) * (2.0f * (i) + 1.0f))) -  \
                                                    (i) / (2.0f * (i) + 1.0f))),                   \
                  (acc))))

void ossa_slerp_tracks16(const float *keys, uint32_t stride, const ossa_track *tracks,
                         uint32_t count, float t, float *local) {
    const float *next = keys + stride;
    __m512 a0 = load_group(keys, count, 0), b0 = load_group(next, count, 0);
    __m512 a1 = load_group(keys, count, 1), b1 = load_group(next, count, 1);
    __m512 a2 = load_group(keys, count, 2), b2 = load_group(next, count, 2);
    __m512 a3 = load_group(keys, count, 3), b3 = load_group(next, count, 3);
    __m512 p0 = _mm512_mul_ps(a0, b0), p1 = _mm512_mul_ps(a1, b1);
    __m512 p2 = _mm512_mul_ps(a2, b2), p3 = _mm512_mul_ps(a3, b3);
    /* Transpose the products: lane 4g + j of px is a.x * b.x of track 4j + g, and so on. */
    __m512 t0 = _mm512_unpacklo_ps(p0, p1), t1 = _mm512_unpackhi_ps(p0, p1);
    __m512 t2 = _mm512_unpacklo_ps(p2, p3), t3 = _mm512_unpackhi_ps(p2, p3);
    __m512 px = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    __m512 py = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    __m512 pz = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    __m512 pw = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    __m512 d = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(px, py), pz), pw);

    __m512 one = _mm512_set1_ps(1.0f), sign, to_mid, xm1;
    half_arc(d, &sign, &to_mid, &xm1);
    int first_half = t <= 0.5f;
    float s = first_half ? 2.0f * t : 2.0f * t - 1.0f;
    float q = 1.0f - s, q2 = q * q, s2 = s * s;
    __m512 aq = one, as = one;
    SERIES_STEP16(aq, q2, 7.0f);
    SERIES_STEP16(as, s2, 7.0f);
    SERIES_STEP16(aq, q2, 6.0f);
    SERIES_STEP16(as, s2, 6.0f);
    SERIES_STEP16(aq, q2, 5.0f);
    SERIES_STEP16(as, s2, 5.0f);
    SERIES_STEP16(aq, q2, 4.0f);
    SERIES_STEP16(as, s2, 4.0f);
    SERIES_STEP16(aq, q2, 3.0f);
    SERIES_STEP16(as, s2, 3.0f);
    SERIES_STEP16(aq, q2, 2.0f);
    SERIES_STEP16(as, s2, 2.0f);
    SERIES_STEP16(aq, q2, 1.0f);
    SERIES_STEP16(as, s2, 1.0f);
    __m512 w0, w1;
    slerp_weights(_mm512_mul_ps(_mm512_set1_ps(q), aq), _mm512_mul_ps(_mm512_set1_ps(s), as),
                  to_mid, sign, first_half, &w0, &w1);
    blend_store(w0, w1, a0, b0, tracks, count, 0, local);
    blend_store(w0, w1, a1, b1, tracks, count, 1, local);
    blend_store(w0, w1, a2, b2, tracks, count, 2, local);
    blend_store(w0, w1, a3, b3, tracks, count, 3, local);
}

/* One Horner step of both series at once (slerp.c's SERIES_STEP) for term i: lanes 0 and 1 of a
 * block carry the series in q (u2 = q^2 there), lanes 2 and 3 the series in s. The factor
 * u2 / (i (2i + 1)) - i / (2i + 1) is computed per lane as the scalar code computes it. */
#define SERIES_STEP_PAIR(acc, u2, i)                                                               \
    ((acc) = _mm512_add_ps(                                                                        \
         one,                                                                                      \
         _mm512_mul_ps(                                                                            \
             _mm512_mul_ps(                                                                        \
                 xm1, _mm512_sub_ps(                                                               \
                          _mm512_mul_ps((u2), _mm512_set1_ps(1.0f / ((i) * (2.0f * (i) + 1.0f)))), \
                          _mm512_set1_ps((i) / (2.0f * (i) + 1.0f)))),                             \
             (acc))))

void ossa_slerp_tracks4_avx512(const float *keys, uint32_t stride, const ossa_track *tracks,
                               uint32_t count, float t, float *local) {
    /* Track g in block g; lanes past count hold whatever follows (finite keys or the zero
     * slack), never stored. */
    __m512 a = _mm512_loadu_ps(keys), b = _mm512_loadu_ps(keys + stride);
    __m512 p = _mm512_mul_ps(a, b);
    /* The dot product in the scalar code's order, in every lane of the track's block. */
    __m512 d = _mm512_add_ps(
        _mm512_add_ps(_mm512_add_ps(_mm512_permute_ps(p, 0x00), _mm512_permute_ps(p, 0x55)),
                      _mm512_permute_ps(p, 0xaa)),
        _mm512_permute_ps(p, 0xff));
    __m512 one = _mm512_set1_ps(1.0f), sign, to_mid, xm1;
    half_arc(d, &sign, &to_mid, &xm1);
    int first_half = t <= 0.5f;
    float s = first_half ? 2.0f * t : 2.0f * t - 1.0f;
    float q = 1.0f - s;
    __m512 u = _mm512_broadcast_f32x4(_mm_setr_ps(q, q, s, s));
    __m512 u2 = _mm512_mul_ps(u, u);
    __m512 acc = one;
    SERIES_STEP_PAIR(acc, u2, 7.0f);
    SERIES_STEP_PAIR(acc, u2, 6.0f);
    SERIES_STEP_PAIR(acc, u2, 5.0f);
    SERIES_STEP_PAIR(acc, u2, 4.0f);
    SERIES_STEP_PAIR(acc, u2, 3.0f);
    SERIES_STEP_PAIR(acc, u2, 2.0f);
    SERIES_STEP_PAIR(acc, u2, 1.0f);
    __m512 r = _mm512_mul_ps(u, acc);
    __m512 w0, w1;
    slerp_weights(_mm512_permute_ps(r, 0x00), _mm512_permute_ps(r, 0xaa), to_mid, sign, first_half,
                  &w0, &w1);
    __m512 o = _mm512_add_ps(_mm512_mul_ps(w0, a), _mm512_mul_ps(w1, b));
    store_group(o, tracks, count, 0, local);
}

OSSA_TARGET_END
#else
typedef int ossa_slerp_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
