/* Compact clips sampled sixteen tracks per register (clip_compact.h). A row holds each
 * component of a class's tracks contiguously, so one masked load of sixteen uint16 and a
 * conversion give sixteen tracks' component; decoding, normalized lerp (ossa_compact_nlerp) and
 * lerp run on component vectors, and a 4x4 transpose per 128-bit block writes each track's
 * quaternion or vector to its target. No FMA: each lane rounds as the portable path does. */
#include "clip/clip_compact.h"

#include <float.h>

#ifdef OSSA_ANIM_AVX512
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,avx512vl,avx512bw")
OSSA_FP_CONTRACT_OFF
#include <immintrin.h>

/* One function per timeline, so that the blocks' latency chains overlap, its helpers inlined and
 * its loops over components and tracks unrolled (OSSA_SIMD_INLINE, OSSA_SIMD_UNROLL): left as
 * loops, they keep vectors in memory and read parts of them back, which can stall for the length
 * of a store (a fifth of CesiumMan's sample time on Zen 4). */

int ossa_compact_avx512_supported(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw");
}

/* Lanes [0, n) of a block of min(n, 16) tracks; the others load zeros. */
static OSSA_SIMD_INLINE __mmask16 lanes(uint32_t n) {
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* Sixteen stored components from q, lanes outside m zero; plain loads, as OSSA_COMPACT_SLACK
 * says why and lets them read past the last track. */
static OSSA_SIMD_INLINE __m512 load_q(const uint16_t *q, __mmask16 m) {
    return _mm512_maskz_cvtepi32_ps(
        m, _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)q)));
}

/* Sixteen floats of a range array from r, lanes outside m zero. */
static OSSA_SIMD_INLINE __m512 load_range(const float *r, __mmask16 m) {
    return _mm512_maskz_mov_ps(m, _mm512_loadu_ps(r));
}

/* Square root and reciprocal of lanes [0, n), narrower where n allows: the divider they share
 * takes a time proportional to the width, and blocks are often partly empty. Other lanes: 0. */
static OSSA_SIMD_INLINE __m512 sqrt_lanes(__m512 x, uint32_t n) {
    if (n <= 4) return _mm512_zextps128_ps512(_mm_sqrt_ps(_mm512_castps512_ps128(x)));
    if (n <= 8) return _mm512_zextps256_ps512(_mm256_sqrt_ps(_mm512_castps512_ps256(x)));
    return _mm512_sqrt_ps(x);
}

static OSSA_SIMD_INLINE __m512 recip_lanes(__m512 x, uint32_t n) {
    if (n <= 4)
        return _mm512_zextps128_ps512(_mm_div_ps(_mm_set1_ps(1.0f), _mm512_castps512_ps128(x)));
    if (n <= 8)
        return _mm512_zextps256_ps512(
            _mm256_div_ps(_mm256_set1_ps(1.0f), _mm512_castps512_ps256(x)));
    return _mm512_div_ps(_mm512_set1_ps(1.0f), x);
}

/* Components of vec tracks (or of rot3 tracks before the rebuild): offset + q * step. q: the
 * class's first component in a row, r: its ranges, n: tracks in the class, j: first lane. */
static OSSA_SIMD_INLINE void decode3(const uint16_t *q, const float *r, uint32_t n, uint32_t j,
                                     __mmask16 m, __m512 *out) {
    OSSA_SIMD_UNROLL
    for (uint32_t c = 0; c < 3; c++)
        out[c] = _mm512_add_ps(
            load_range(r + c * n + j, m),
            _mm512_mul_ps(load_q(q + c * n + j, m), load_range(r + (3 + c) * n + j, m)));
}

/* A timeline's only vec track in lanes 0-2 (lane 3 unused): its components and its ranges are
 * contiguous, so one narrow load each instead of the sixteen-lane path and its transpose. */
static OSSA_SIMD_INLINE __m128 decode_vec1(const uint16_t *q, const float *r) {
    __m128i q4 = _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(const void *)q));
    return _mm_add_ps(_mm_loadu_ps(r), _mm_mul_ps(_mm_cvtepi32_ps(q4), _mm_loadu_ps(r + 3)));
}

/* In stored order (ossa_compact_decode_rot3), lanes [0, used) of the block at rot3 track j. */
static OSSA_SIMD_INLINE void decode_rot3(const uint16_t *q, const float *r, uint32_t n, uint32_t j,
                                         uint32_t used, __m512 *out) {
    decode3(q, r, n, j, lanes(used), out);
    __m512 one = _mm512_set1_ps(1.0f);
    __m512 sum =
        _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(out[0], out[0]), _mm512_mul_ps(out[1], out[1])),
                      _mm512_mul_ps(out[2], out[2]));
    out[3] = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(sum, one, _CMP_LT_OQ),
                                 sqrt_lanes(_mm512_sub_ps(one, sum), used));
}

/* ossa_compact_rot3_order for the rot3 tracks of a block starting at rot3 track j; lanes past
 * them (merged rot4 tracks) are in (x, y, z, w) order already. */
static OSSA_SIMD_INLINE void rot3_order(__m512 *v, const uint8_t *dropped, uint32_t r3,
                                        uint32_t j) {
    __mmask16 m = lanes(r3 - j);
    __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(dropped + j)); /* lanes in m */
    __mmask16 d0 = _mm_mask_cmpeq_epi8_mask(m, d, _mm_setzero_si128());
    __mmask16 d1 = _mm_mask_cmpeq_epi8_mask(m, d, _mm_set1_epi8(1));
    __mmask16 d2 = _mm_mask_cmpeq_epi8_mask(m, d, _mm_set1_epi8(2));
    __m512 s0 = v[0], s1 = v[1], s2 = v[2], w = v[3];
    /* dropped 0: (w, s0, s1, s2), 1: (s0, w, s1, s2), 2: (s0, s1, w, s2), 3: (s0, s1, s2, w) */
    v[0] = _mm512_mask_blend_ps(d0, s0, w);
    v[1] = _mm512_mask_blend_ps(d0, _mm512_mask_blend_ps(d1, s1, w), s0);
    v[2] = _mm512_mask_blend_ps(d0 | d1, _mm512_mask_blend_ps(d2, s2, w), s1);
    v[3] = _mm512_mask_blend_ps(d0 | d1 | d2, w, s2);
}

/* As stored (ossa_compact_decode_rot4): not unit length. */
static OSSA_SIMD_INLINE void decode_rot4(const uint16_t *q, uint32_t n, uint32_t j, __mmask16 m,
                                         __m512 *out) {
    __m512 step = _mm512_set1_ps(OSSA_COMPACT_FULL_STEP), minus_one = _mm512_set1_ps(-1.0f);
    OSSA_SIMD_UNROLL
    for (uint32_t c = 0; c < 4; c++)
        out[c] = _mm512_add_ps(minus_one, _mm512_mul_ps(load_q(q + c * n + j, m), step));
}

/* ossa_compact_normalize lane by lane. */
static OSSA_SIMD_INLINE void normalize(__m512 *q, uint32_t n) {
    __m512 len2 =
        _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(q[0], q[0]), _mm512_mul_ps(q[1], q[1])),
                      _mm512_add_ps(_mm512_mul_ps(q[2], q[2]), _mm512_mul_ps(q[3], q[3])));
    __m512 one = _mm512_set1_ps(1.0f);
    __m512 s = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(len2, _mm512_set1_ps(FLT_MIN), _CMP_GE_OQ),
                                    one, _mm512_mul_ps(sqrt_lanes(len2, n), recip_lanes(len2, n)));
    OSSA_SIMD_UNROLL
    for (int c = 0; c < 4; c++)
        q[c] = _mm512_mul_ps(q[c], s);
}

/* One track's value (see store). */
static OSSA_SIMD_INLINE void store1(float *local, uint32_t target, __m128 v, __mmask8 mask) {
    float *out = local + target;
    if (mask == 0xf) {
        _mm_storeu_ps(out, v);
    } else { /* 8 bytes and 4: a masked store is slower (Zen 4) */
        _mm_storel_pi((__m64 *)out, v);
        _mm_store_ss(out + 2, _mm_movehl_ps(v, v));
    }
}

/* Writes lanes [0, n) of component vectors (x, y, z, w) to their targets: all four floats of a
 * rotation (mask 0xf); three (mask 0x7) of a translation or scale. */
static OSSA_SIMD_INLINE void store(const __m512 *v, const uint16_t *targets, uint32_t n,
                                   __mmask8 mask, float *local) {
    __m512 t0 = _mm512_unpacklo_ps(v[0], v[1]), t1 = _mm512_unpackhi_ps(v[0], v[1]);
    __m512 t2 = _mm512_unpacklo_ps(v[2], v[3]), t3 = _mm512_unpackhi_ps(v[2], v[3]);
    /* Block b of qi is track 4b + i. */
    __m512 q0 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    __m512 q1 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    __m512 q2 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    __m512 q3 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
#define STORE_LANE(k, q, block)                                                                    \
    if (n > (k)) store1(local, targets[k], _mm512_extractf32x4_ps(q, block), mask)
    STORE_LANE(0, q0, 0);
    STORE_LANE(1, q1, 0);
    STORE_LANE(2, q2, 0);
    STORE_LANE(3, q3, 0);
    STORE_LANE(4, q0, 1);
    STORE_LANE(5, q1, 1);
    STORE_LANE(6, q2, 1);
    STORE_LANE(7, q3, 1);
    STORE_LANE(8, q0, 2);
    STORE_LANE(9, q1, 2);
    STORE_LANE(10, q2, 2);
    STORE_LANE(11, q3, 2);
    STORE_LANE(12, q0, 3);
    STORE_LANE(13, q1, 3);
    STORE_LANE(14, q2, 3);
    STORE_LANE(15, q3, 3);
#undef STORE_LANE
}

/* ossa_compact_nlerp lane by lane on component vectors, for `blocks` (1 or 2) blocks of sixteen
 * tracks, a, b, out holding four vectors per block; u and c (its factors) in every lane. */
static OSSA_SIMD_INLINE void nlerp16(const __m512 *a, const __m512 *b, __m512 u, const __m512 *c,
                                     __m512 *out, int blocks, const uint32_t *n) {
    __m512 one = _mm512_set1_ps(1.0f);
    OSSA_SIMD_UNROLL
    for (int h = 0; h < blocks; h++) {
        const __m512 *p = a + 4 * h, *q = b + 4 * h;
        __m512 *r = out + 4 * h;
        __m512 d = _mm512_add_ps(
            _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(p[0], q[0]), _mm512_mul_ps(p[1], q[1])),
                          _mm512_mul_ps(p[2], q[2])),
            _mm512_mul_ps(p[3], q[3]));
        __mmask16 negative = _mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_LT_OQ);
        __m512 sign = _mm512_mask_blend_ps(negative, one, _mm512_set1_ps(-1.0f));
        __m512 x = _mm512_sub_ps(one, _mm512_abs_ps(d)), x2 = _mm512_mul_ps(x, x);
        __m512 v = _mm512_add_ps(_mm512_add_ps(u, _mm512_mul_ps(x, c[0])),
                                 _mm512_mul_ps(x2, _mm512_add_ps(c[1], _mm512_mul_ps(x, c[2]))));
        OSSA_SIMD_UNROLL
        for (int i = 0; i < 4; i++)
            r[i] = _mm512_add_ps(p[i],
                                 _mm512_mul_ps(_mm512_sub_ps(_mm512_mul_ps(sign, q[i]), p[i]), v));
        normalize(r, n[h]);
    }
}

/* The rotations of a block starting at rot3 track j of a row, in stored order: up to sixteen
 * rot3 tracks and, in a last block with room, the `merged` rot4 tracks after them (one nlerp
 * instead of two). Returns the lanes used; lane i is track j + i of the timeline's rotations. */
static OSSA_SIMD_INLINE uint32_t decode_rotations(const uint16_t *row, const float *range,
                                                  uint32_t r3, uint32_t r4, uint32_t merged,
                                                  uint32_t j, __m512 *out) {
    uint32_t n = r3 - j < 16 ? r3 - j : 16;
    decode_rot3(row, range, r3, j, n, out);
    if (n < 16 && merged) {
        __m512 q[4];
        __mmask16 m4 = (__mmask16)(lanes(n + merged) & ~lanes(n));
        decode_rot4(row + 3 * r3 - n, r4, 0, m4, q); /* lane n reads the first rot4 track */
        OSSA_SIMD_UNROLL
        for (int c = 0; c < 4; c++)
            out[c] = _mm512_mask_blend_ps(m4, out[c], q[c]);
        n += merged;
    }
    return n;
}

/* rot4 tracks that fit in the last rot3 block's free lanes, else 0. */
static OSSA_SIMD_INLINE uint32_t merged_rot4(const ossa_compact_timeline *tl) {
    uint32_t tail = tl->rot3 % 16u;
    return tail && tl->rot4 <= 16u - tail ? tl->rot4 : 0;
}

void ossa_compact_between_avx512(const struct ossa_compact *compact,
                                 const ossa_compact_timeline *tl, uint32_t k, float u,
                                 float *local) {
    const uint16_t *row0 = compact->keys + tl->key_offset + (size_t)k * ossa_compact_stride(tl);
    const uint16_t *row1 = row0 + ossa_compact_stride(tl);
    const float *range = compact->ranges + tl->range_offset;
    const uint16_t *targets = compact->targets + tl->first_track;
    const uint8_t *dropped = compact->dropped + tl->first_track;
    __m512 a[8], b[8], out[8];
    const uint16_t *vec_targets = targets + tl->rot3 + tl->rot4;
    __m512 vu = _mm512_set1_ps(u), vc[3];
    float c[3];
    ossa_compact_nlerp_factors(u, c);
    for (int i = 0; i < 3; i++)
        vc[i] = _mm512_set1_ps(c[i]);
    if (tl->rot3 + tl->rot4) {
        uint32_t merged = merged_rot4(tl);
        for (uint32_t j = 0; j < tl->rot3; j += 32) { /* two blocks at a time */
            uint32_t n = decode_rotations(row0, range, tl->rot3, tl->rot4, merged, j, a);
            decode_rotations(row1, range, tl->rot3, tl->rot4, merged, j, b);
            if (j + 16 < tl->rot3) {
                uint32_t n1 =
                    decode_rotations(row0, range, tl->rot3, tl->rot4, merged, j + 16, a + 4);
                decode_rotations(row1, range, tl->rot3, tl->rot4, merged, j + 16, b + 4);
                uint32_t ns[2] = {n, n1};
                nlerp16(a, b, vu, vc, out, 2, ns);
                rot3_order(out + 4, dropped, tl->rot3, j + 16);
                store(out + 4, targets + j + 16, n1, 0xf, local);
            } else {
                nlerp16(a, b, vu, vc, out, 1, &n);
            }
            rot3_order(out, dropped, tl->rot3, j);
            store(out, targets + j, n, 0xf, local);
        }
        row0 += 3 * tl->rot3, row1 += 3 * tl->rot3, targets += tl->rot3;
        for (uint32_t j = 0; !merged && j < tl->rot4; j += 16) {
            uint32_t n = tl->rot4 - j < 16 ? tl->rot4 - j : 16;
            decode_rot4(row0, tl->rot4, j, lanes(n), a);
            decode_rot4(row1, tl->rot4, j, lanes(n), b);
            nlerp16(a, b, vu, vc, out, 1, &n);
            store(out, targets + j, n, 0xf, local);
        }
        row0 += 4 * tl->rot4, row1 += 4 * tl->rot4, targets += tl->rot4;
    }
    if (tl->vec == 1) {
        const float *r = range + 6 * tl->rot3;
        __m128 va = decode_vec1(row0, r), vb = decode_vec1(row1, r);
        store1(local, vec_targets[0],
               _mm_add_ps(va, _mm_mul_ps(_mm_sub_ps(vb, va), _mm_set1_ps(u))), 0x7);
        return;
    }
    out[3] = _mm512_setzero_ps();
    for (uint32_t j = 0; j < tl->vec; j += 16) { /* rows past the rotations */
        __mmask16 m = lanes(tl->vec - j);
        decode3(row0, range + 6 * tl->rot3, tl->vec, j, m, a);
        decode3(row1, range + 6 * tl->rot3, tl->vec, j, m, b);
        OSSA_SIMD_UNROLL
        for (int c = 0; c < 3; c++)
            out[c] = _mm512_add_ps(a[c], _mm512_mul_ps(_mm512_sub_ps(b[c], a[c]), vu));
        store(out, vec_targets + j, tl->vec - j, 0x7, local);
    }
}

void ossa_compact_at_avx512(const struct ossa_compact *compact, const ossa_compact_timeline *tl,
                            uint32_t k, float *local) {
    const uint16_t *row = compact->keys + tl->key_offset + (size_t)k * ossa_compact_stride(tl);
    const float *range = compact->ranges + tl->range_offset;
    const uint16_t *targets = compact->targets + tl->first_track;
    const uint8_t *dropped = compact->dropped + tl->first_track;
    __m512 v[4];
    for (uint32_t j = 0; j < tl->rot3; j += 16) {
        decode_rot3(row, range, tl->rot3, j, tl->rot3 - j, v);
        rot3_order(v, dropped, tl->rot3, j);
        store(v, targets + j, tl->rot3 - j, 0xf, local);
    }
    row += 3 * tl->rot3, targets += tl->rot3;
    for (uint32_t j = 0; j < tl->rot4; j += 16) {
        decode_rot4(row, tl->rot4, j, lanes(tl->rot4 - j), v);
        normalize(v, tl->rot4 - j);
        store(v, targets + j, tl->rot4 - j, 0xf, local);
    }
    row += 4 * tl->rot4, targets += tl->rot4;
    range += 6 * tl->rot3;
    if (tl->vec == 1) {
        store1(local, targets[0], decode_vec1(row, range), 0x7);
        return;
    }
    v[3] = _mm512_setzero_ps();
    for (uint32_t j = 0; j < tl->vec; j += 16) {
        decode3(row, range, tl->vec, j, lanes(tl->vec - j), v);
        store(v, targets + j, tl->vec - j, 0x7, local);
    }
}

OSSA_TARGET_END
#else
typedef int ossa_compact_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
