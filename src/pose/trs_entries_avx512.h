/* The entries of T * R * S from the fields of a TRS, for the AVX-512 kernels of pose_avx512.c
 * and pose4_avx512.c: included inside their AVX-512 target region, after <immintrin.h>. */
#ifndef OSSA_TRS_ENTRIES_AVX512_H
#define OSSA_TRS_ENTRIES_AVX512_H

/* Entry (r, c) of the rotation is C + K (A1 A2 + B1 B2) as in xf_rows_from_trs (pose/xform.h),
 * e.g. 1 - 2 (yy + zz), 2 (xy - wz), with column 3 set to 1 (products of w, finite, times
 * K = 0, plus 1); then each entry is multiplied by s_c, or in column 3 by t_r. q holds
 * (qx qy qz qw), t (tx ty tz qx) and s (qw sx sy sz) in each 128-bit block: the index vectors
 * a1, a2, b1, b2 pick each lane's operands inside its block (cheap in-block shuffles), and
 * `factor` picks s_c from s and t_r from t (one two-source permute). Each lane of the result
 * is the entry its constants describe. */
static OSSA_SIMD_INLINE __m512 trs_entries(__m512 q, __m512 t, __m512 s, __m512i a1, __m512i a2,
                                           __m512i b1, __m512i b2, __m512 flip, __m512 k, __m512 c,
                                           __m512i factor) {
    __m512 ab = _mm512_mul_ps(_mm512_permutevar_ps(q, a1), _mm512_permutevar_ps(q, a2));
    __m512 bb = _mm512_castsi512_ps(_mm512_xor_si512(
        _mm512_castps_si512(_mm512_permutevar_ps(q, b2)), _mm512_castps_si512(flip)));
    ab = _mm512_fmadd_ps(_mm512_permutevar_ps(q, b1), bb, ab);
    __m512 rot = _mm512_fmadd_ps(k, ab, c);
    return _mm512_mul_ps(rot, _mm512_permutex2var_ps(s, factor, t));
}

#endif
