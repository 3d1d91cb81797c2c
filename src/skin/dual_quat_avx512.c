/* Joint matrices to dual quaternions sixteen at a time (dual_quat.h), in float: one joint per
 * lane, the matrices transposed in and the dual quaternions out. The steps are those of
 * dual_quat.c (scale from the determinant's cube root, Shepperd's branches, the dual part from the
 * translation) without its branches: every lane computes the four candidates' inputs and keeps
 * its own. The conversion is one chain of dependent steps, so it is arranged to be short (see
 * convert16); the results agree with dual_quat.c's to float rounding, not bit for bit. Lanes
 * whose determinant is 0, not finite or outside the normal floats are done again by dual_quat.c.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,fma,prfchw")
#include <float.h>
#include <immintrin.h>
#include <stdint.h>

#include "dual_quat.h"
#include "joint_rows_avx512.h"

int skin_dq_avx512_supported(void) {
    return __builtin_cpu_supports("avx512f");
}

/* One Newton step y (4 - d y^3) / 3 towards d^(-1/3): it squares the relative error and doubles
 * it. */
static OSSA_SIMD_INLINE __m512 newton_step(__m512 d, __m512 y) {
    __m512 y3 = _mm512_mul_ps(_mm512_mul_ps(y, y), y);
    return _mm512_mul_ps(_mm512_mul_ps(y, _mm512_set1_ps(1.0f / 3.0f)),
                         _mm512_fnmadd_ps(d, y3, _mm512_set1_ps(4.0f)));
}

/* d^(-1/3) for normal floats d > 0. The conversion is one long chain of dependent operations, in
 * which each step costs its latency: when every lane is within 2% of 1 (rigid joints, nearly all of
 * them), the first-order guess (4 - d) / 3 is within 2 (d - 1)^2 / 9 < 9e-5 and one step reaches
 * float precision; otherwise an estimate from d's bits (within 4%) takes four. */
static OSSA_SIMD_INLINE __m512 inverse_cube_root(__m512 d) {
    __m512 third = _mm512_set1_ps(1.0f / 3.0f);
    __mmask16 near_one = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_sub_ps(d, _mm512_set1_ps(1.0f))),
                                            _mm512_set1_ps(0.02f), _CMP_LT_OQ);
    if (near_one == 0xffff)
        return newton_step(d, _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(4.0f), d), third));
    /* the bits of d^(-1/3) are about 4/3 of 1.0's minus a third of d's */
    __m512 bits = _mm512_cvtepi32_ps(_mm512_castps_si512(d));
    __m512i guess = _mm512_sub_epi32(_mm512_set1_epi32(0x54a2fa8c),
                                     _mm512_cvtps_epi32(_mm512_mul_ps(bits, third)));
    __m512 y = _mm512_castsi512_ps(guess);
    OSSA_SIMD_UNROLL
    for (int i = 0; i < 4; i++)
        y = newton_step(d, y);
    return y;
}

/* Sixteen joints' dual quaternions (12 floats each) from their matrices; returns the lanes that
 * need dual_quat.c. */
static __mmask16 convert16(const float *palette, uint32_t n, float *out) {
    __mmask16 live = n >= 16 ? 0xffff : (__mmask16)((1u << n) - 1u);
    __m512 rows[16], m[12];
    load_joint_rows(palette, n, rows);
    rows_to_elements(rows, m); /* m[e]: element e of every joint */
    __m512 det = _mm512_sub_ps(
        _mm512_fmadd_ps(
            m[0], _mm512_fmsub_ps(m[5], m[10], _mm512_mul_ps(m[6], m[9])),
            _mm512_mul_ps(m[2], _mm512_fmsub_ps(m[4], m[9], _mm512_mul_ps(m[5], m[8])))),
        _mm512_mul_ps(m[1], _mm512_fmsub_ps(m[4], m[10], _mm512_mul_ps(m[6], m[8]))));
    __m512 abs_det = _mm512_abs_ps(det);
    __mmask16 normal = _mm512_cmp_ps_mask(abs_det, _mm512_set1_ps(FLT_MIN), _CMP_GE_OQ) &
                       _mm512_cmp_ps_mask(abs_det, _mm512_set1_ps(FLT_MAX), _CMP_LE_OQ);
    __m512 one = _mm512_set1_ps(1.0f);
    __m512 inv_scale = _mm512_mask_blend_ps(
        normal, one, inverse_cube_root(_mm512_mask_blend_ps(normal, one, abs_det)));
    /* Shepperd's branches as quat_of_rotation (dual_quat.c) takes them, chosen on the unscaled
     * 3x3 part (its diagonal and trace scale with it) while the scale is being computed */
    __m512 d0 = m[0], d1 = m[5], d2 = m[10];
    __m512 trace = _mm512_add_ps(_mm512_add_ps(d0, d1), d2);
    __mmask16 w_case = _mm512_cmp_ps_mask(trace, d0, _CMP_GT_OQ) &
                       _mm512_cmp_ps_mask(trace, d1, _CMP_GT_OQ) &
                       _mm512_cmp_ps_mask(trace, d2, _CMP_GT_OQ);
    __mmask16 x_case =
        ~w_case & _mm512_cmp_ps_mask(d0, d1, _CMP_GE_OQ) & _mm512_cmp_ps_mask(d0, d2, _CMP_GE_OQ);
    __mmask16 y_case = ~w_case & ~x_case & _mm512_cmp_ps_mask(d1, d2, _CMP_GE_OQ);
    __m512 big = _mm512_mask_blend_ps(
        w_case,
        _mm512_mask_blend_ps(x_case,
                             _mm512_mask_blend_ps(y_case, _mm512_sub_ps(_mm512_sub_ps(d2, d0), d1),
                                                  _mm512_sub_ps(_mm512_sub_ps(d1, d0), d2)),
                             _mm512_sub_ps(_mm512_sub_ps(d0, d1), d2)),
        trace);
    /* Shepperd's quaternion times its s = 2 sqrt(1 + big), which the normalisation below takes
     * out again, so neither the square root nor the division by s is waited for: the leading
     * component s / 4 becomes 1 + big, the others the sums and differences of the scaled
     * off-diagonal entries */
    __m512 lead = _mm512_fmadd_ps(inv_scale, big, one);
    __m512 dx = _mm512_mul_ps(_mm512_sub_ps(m[9], m[6]), inv_scale);
    __m512 dy = _mm512_mul_ps(_mm512_sub_ps(m[2], m[8]), inv_scale);
    __m512 dz = _mm512_mul_ps(_mm512_sub_ps(m[4], m[1]), inv_scale);
    __m512 s1 = _mm512_mul_ps(_mm512_add_ps(m[1], m[4]), inv_scale);
    __m512 s2 = _mm512_mul_ps(_mm512_add_ps(m[2], m[8]), inv_scale);
    __m512 s3 = _mm512_mul_ps(_mm512_add_ps(m[6], m[9]), inv_scale);
    __m512 q[4];
    q[0] = _mm512_mask_blend_ps(w_case | x_case, _mm512_mask_blend_ps(y_case, s2, s1),
                                _mm512_mask_blend_ps(x_case, dx, lead));
    q[1] = _mm512_mask_blend_ps(w_case | x_case, _mm512_mask_blend_ps(y_case, s3, lead),
                                _mm512_mask_blend_ps(x_case, dy, s1));
    q[2] = _mm512_mask_blend_ps(w_case | x_case, _mm512_mask_blend_ps(y_case, lead, s3),
                                _mm512_mask_blend_ps(x_case, dz, s2));
    q[3] = _mm512_mask_blend_ps(w_case | x_case, _mm512_mask_blend_ps(y_case, dz, dy),
                                _mm512_mask_blend_ps(x_case, lead, dx));
    __m512 len2 = _mm512_fmadd_ps(
        q[0], q[0],
        _mm512_fmadd_ps(q[1], q[1], _mm512_fmadd_ps(q[2], q[2], _mm512_mul_ps(q[3], q[3]))));
    /* dual = 0.5 (t, 0) q, from the quaternion before its normalisation (computed meanwhile) */
    __m512 half = _mm512_set1_ps(0.5f);
    __m512 tx = _mm512_mul_ps(half, m[3]), ty = _mm512_mul_ps(half, m[7]),
           tz = _mm512_mul_ps(half, m[11]);
    __m512 x = q[0], y = q[1], z = q[2], w = q[3];
    __m512 dual[4] = {
        _mm512_fnmadd_ps(tz, y, _mm512_fmadd_ps(ty, z, _mm512_mul_ps(tx, w))),
        _mm512_fmadd_ps(tz, x, _mm512_fnmadd_ps(tx, z, _mm512_mul_ps(ty, w))),
        _mm512_fnmadd_ps(ty, x, _mm512_fmadd_ps(tx, y, _mm512_mul_ps(tz, w))),
        _mm512_sub_ps(_mm512_setzero_ps(),
                      _mm512_fmadd_ps(tx, x, _mm512_fmadd_ps(ty, y, _mm512_mul_ps(tz, z))))};
    __m512 inv_len = _mm512_div_ps(one, _mm512_sqrt_ps(len2));
    __m512 dq[12];
    OSSA_SIMD_UNROLL
    for (int i = 0; i < 4; i++) {
        dq[i] = _mm512_mul_ps(q[i], inv_len);
        dq[4 + i] = _mm512_mul_ps(dual[i], inv_len);
    }
    dq[8] = _mm512_div_ps(one, inv_scale);
    dq[9] = dq[10] = dq[11] = _mm512_setzero_ps();
    elements_to_rows(dq, rows);
    OSSA_SIMD_UNROLL
    for (uint32_t c = 0; c < 16; c++)
        if (c < n) _mm512_mask_storeu_ps(out + 12 * (size_t)c, 0x0fff, rows[c]);
    return (__mmask16)(live & ~normal);
}

void skin_dual_quats_avx512(const float *palette, uint32_t joint_count, float *out) {
    /* A palette converted long after it was computed (a crowd posed, then skinned) comes from
     * memory: asking for all of its lines, and the table's for writing, first makes one wait
     * of them instead of one per sixteen joints. */
    const char *from = (const char *)palette;
    char *to = (char *)out;
    for (size_t at = 0; at < 48 * (size_t)joint_count; at += 64) {
        __builtin_prefetch(from + at, 0, 3);
        __builtin_prefetch(to + at, 1, 3); /* prefetchw: for writing */
    }
    for (uint32_t first = 0; first < joint_count; first += 16) {
        uint32_t n = joint_count - first < 16 ? joint_count - first : 16;
        __mmask16 redo = convert16(palette + 12 * (size_t)first, n, out + 12 * (size_t)first);
        for (uint32_t c = 0; redo; c++, redo >>= 1)
            if (redo & 1)
                skin_dq_from_matrix(palette + 12 * ((size_t)first + c),
                                    out + 12 * ((size_t)first + c));
    }
}

OSSA_TARGET_END
#else
typedef int skin_dq_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
