/* Joints' 3x4 matrices (12 floats each, one after another) to and from one vector per element,
 * sixteen joints at a time, by in-register transposes. Included after OSSA_TARGET_BEGIN of an
 * AVX-512 file (dual_quat_avx512.c, skin_kernel_avx512.c). */
#ifndef OSSA_SKIN_JOINT_ROWS_AVX512_H
#define OSSA_SKIN_JOINT_ROWS_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "simd_target.h"

/* The first two steps of a 16x16 transpose of rows r (`groups` groups of four rows):
 * u[4 g + k] block b holds element 4 b + k of rows 4 g .. 4 g + 3. */
static OSSA_SIMD_INLINE void transpose_blocks(const __m512 *r, int groups, __m512 *u) {
    OSSA_SIMD_UNROLL
    for (int g = 0; g < groups; g++) {
        const __m512 *q = r + 4 * g;
        __m512 t0 = _mm512_unpacklo_ps(q[0], q[1]), t1 = _mm512_unpackhi_ps(q[0], q[1]);
        __m512 t2 = _mm512_unpacklo_ps(q[2], q[3]), t3 = _mm512_unpackhi_ps(q[2], q[3]);
        u[4 * g + 0] = _mm512_shuffle_ps(t0, t2, 0x44);
        u[4 * g + 1] = _mm512_shuffle_ps(t0, t2, 0xee);
        u[4 * g + 2] = _mm512_shuffle_ps(t1, t3, 0x44);
        u[4 * g + 3] = _mm512_shuffle_ps(t1, t3, 0xee);
    }
}

/* Joints [0, n) of `joints` (n <= 16; the rest read as zero, never touched) into rows[c] lanes
 * 0-11 (12-15 zero). */
static OSSA_SIMD_INLINE void load_joint_rows(const float *joints, uint32_t n, __m512 *rows) {
    OSSA_SIMD_UNROLL
    for (uint32_t c = 0; c < 16; c++)
        rows[c] = _mm512_maskz_loadu_ps(c < n ? 0x0fff : 0, joints + 12 * (size_t)c);
}

/* Sixteen rows of twelve floats (a joint's matrix each) to twelve vectors: out[e] lane c is
 * element e of row c. */
static OSSA_SIMD_INLINE void rows_to_elements(const __m512 *rows, __m512 *out) {
    __m512 u[16];
    transpose_blocks(rows, 4, u);
    OSSA_SIMD_UNROLL
    for (int k = 0; k < 4; k++) {
        /* blocks 0 and 2 (a), 1 and 3 (b) of groups 0, 1 and of groups 2, 3 */
        __m512 a01 = _mm512_shuffle_f32x4(u[k], u[4 + k], 0x88);
        __m512 a23 = _mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0x88);
        __m512 b01 = _mm512_shuffle_f32x4(u[k], u[4 + k], 0xdd);
        __m512 b23 = _mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0xdd);
        out[k] = _mm512_shuffle_f32x4(a01, a23, 0x88);
        out[k + 8] = _mm512_shuffle_f32x4(a01, a23, 0xdd);
        out[k + 4] = _mm512_shuffle_f32x4(b01, b23, 0x88);
    }
}

/* Twelve vectors (element e of sixteen joints in lanes) to sixteen rows: rows[c] lanes 0-11 are
 * joint c's twelve floats (12-15 undefined). */
static OSSA_SIMD_INLINE void elements_to_rows(const __m512 *in, __m512 *rows) {
    __m512 u[12];
    transpose_blocks(in, 3, u);
    OSSA_SIMD_UNROLL
    for (int k = 0; k < 4; k++) {
        /* blocks b of groups 0, 1 and 2: a for b = 0, 2; c for b = 1, 3 */
        __m512 a = _mm512_shuffle_f32x4(u[k], u[4 + k], 0x88);
        __m512 c = _mm512_shuffle_f32x4(u[k], u[4 + k], 0xdd);
        rows[k] = _mm512_shuffle_f32x4(a, u[8 + k], 0x08);      /* a0 a2 u0 - */
        rows[k + 8] = _mm512_shuffle_f32x4(a, u[8 + k], 0x2d);  /* a1 a3 u2 - */
        rows[k + 4] = _mm512_shuffle_f32x4(c, u[8 + k], 0x18);  /* c0 c2 u1 - */
        rows[k + 12] = _mm512_shuffle_f32x4(c, u[8 + k], 0x3d); /* c1 c3 u3 - */
    }
}

#endif
