/* Palette matrix <-> unit dual quaternion (+ uniform scale) conversions for DQS. */
#include "dual_quat.h"

#include <math.h>

#include "ossa/skin.h"

/* 1 / cbrt(d) for d > 0. Joint matrices are mostly rigid (d near 1): there Newton's iteration
 * for d^(-1/3) from the first-order guess (within 0.3%; each step squares the relative error,
 * doubled) reaches double precision in three steps of multiplies, several times faster than
 * the library's cbrt and a division. */
static double inverse_cube_root(double d) {
    if (!(d > 0.9 && d < 1.1)) return 1.0 / cbrt(d);
    double y = (4.0 - d) / 3.0;
    for (int i = 0; i < 3; i++)
        y *= (4.0 - d * y * y * y) * (1.0 / 3.0);
    return y;
}

/* The unit quaternion of a rotation matrix (row-major 3x3), with the branches of
 * xf_quat_from_rotation3 (the GPU shader mirrors them), by reciprocals rather than divisions. */
static void quat_of_rotation(const double *r, double *q) {
    double trace = r[0] + r[4] + r[8];
    if (trace > r[0] && trace > r[4] && trace > r[8]) {
        double s = 2.0 * sqrt(1.0 + trace), inv = 1.0 / s;
        q[0] = (r[7] - r[5]) * inv, q[1] = (r[2] - r[6]) * inv, q[2] = (r[3] - r[1]) * inv;
        q[3] = 0.25 * s;
    } else if (r[0] >= r[4] && r[0] >= r[8]) {
        double s = 2.0 * sqrt(1.0 + r[0] - r[4] - r[8]), inv = 1.0 / s;
        q[0] = 0.25 * s, q[1] = (r[1] + r[3]) * inv, q[2] = (r[2] + r[6]) * inv;
        q[3] = (r[7] - r[5]) * inv;
    } else if (r[4] >= r[8]) {
        double s = 2.0 * sqrt(1.0 + r[4] - r[0] - r[8]), inv = 1.0 / s;
        q[0] = (r[1] + r[3]) * inv, q[1] = 0.25 * s, q[2] = (r[5] + r[7]) * inv;
        q[3] = (r[2] - r[6]) * inv;
    } else {
        double s = 2.0 * sqrt(1.0 + r[8] - r[0] - r[4]), inv = 1.0 / s;
        q[0] = (r[2] + r[6]) * inv, q[1] = (r[5] + r[7]) * inv, q[2] = 0.25 * s;
        q[3] = (r[3] - r[1]) * inv;
    }
    double inv_n = 1.0 / sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] *= inv_n;
}

/* 1 / the uniform scale of joint matrix m: 1 / cbrt(|det|) of its 3x3 part, 1 when the
 * determinant is 0 or not finite (degenerate: keep the translation only). */
static double inverse_scale(const float *m) {
    double det = (double)m[0] * ((double)m[5] * m[10] - (double)m[6] * m[9]) -
                 (double)m[1] * ((double)m[4] * m[10] - (double)m[6] * m[8]) +
                 (double)m[2] * ((double)m[4] * m[9] - (double)m[5] * m[8]);
    return det != 0.0 && isfinite(det) ? inverse_cube_root(fabs(det)) : 1.0;
}

/* The dual quaternion and scale of joint matrix m, given inverse_scale(m). */
static void dq_from_scaled(const float *m, double inv_scale, float *dq) {
    double a[9] = {m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]};
    double scale = 1.0 / inv_scale;
    for (int i = 0; i < 9; i++)
        a[i] *= inv_scale;
    double q[4];
    quat_of_rotation(a, q);
    double t[3] = {m[3], m[7], m[11]};
    /* dual = 0.5 * (t, 0) * real */
    double d[4] = {0.5 * (t[0] * q[3] + t[1] * q[2] - t[2] * q[1]),
                   0.5 * (-t[0] * q[2] + t[1] * q[3] + t[2] * q[0]),
                   0.5 * (t[0] * q[1] - t[1] * q[0] + t[2] * q[3]),
                   -0.5 * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2])};
    for (int i = 0; i < 4; i++) {
        dq[i] = (float)q[i];
        dq[4 + i] = (float)d[i];
    }
    dq[8] = (float)scale;
    dq[9] = dq[10] = dq[11] = 0.0f;
}

void skin_dq_from_matrix(const float *m, float *dq) {
    dq_from_scaled(m, inverse_scale(m), dq);
}

void skin_dq_to_matrix(const float *b, float *m) {
    float n2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
    if (!(n2 > 0.0f)) {
        static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        for (int i = 0; i < 12; i++)
            m[i] = identity[i];
        return;
    }
    float inv = 1.0f / sqrtf(n2);
    float x = b[0] * inv, y = b[1] * inv, z = b[2] * inv, w = b[3] * inv;
    float dx = b[4] * inv, dy = b[5] * inv, dz = b[6] * inv, dw = b[7] * inv;
    float s = b[8];
    /* t = 2 * (w * d.xyz - dw * r.xyz + r.xyz x d.xyz) */
    float tx = 2.0f * (w * dx - dw * x + (y * dz - z * dy));
    float ty = 2.0f * (w * dy - dw * y + (z * dx - x * dz));
    float tz = 2.0f * (w * dz - dw * z + (x * dy - y * dx));
    m[0] = s * (1.0f - 2.0f * (y * y + z * z));
    m[1] = s * (2.0f * (x * y - z * w));
    m[2] = s * (2.0f * (x * z + y * w));
    m[3] = tx;
    m[4] = s * (2.0f * (x * y + z * w));
    m[5] = s * (1.0f - 2.0f * (x * x + z * z));
    m[6] = s * (2.0f * (y * z - x * w));
    m[7] = ty;
    m[8] = s * (2.0f * (x * z - y * w));
    m[9] = s * (2.0f * (y * z + x * w));
    m[10] = s * (1.0f - 2.0f * (x * x + y * y));
    m[11] = tz;
}

/* Joints converted per round of the two loops below. */
#define DQ_CHUNK 16

void ossa_skin_dual_quats(const float *palette, uint32_t joint_count, float *out) {
#ifdef OSSA_SKIN_DQ_AVX512
    if (skin_dq_avx512_supported()) {
        skin_dual_quats_avx512(palette, joint_count, out);
        return;
    }
#endif
    /* Two short loops instead of one long chain per joint (determinant, cube root, square roots
     * and divisions, each waiting on the last): the processor overlaps many joints of each. */
    double inv_scale[DQ_CHUNK];
    for (uint32_t first = 0; first < joint_count; first += DQ_CHUNK) {
        uint32_t n = joint_count - first < DQ_CHUNK ? joint_count - first : DQ_CHUNK;
        const float *m = palette + 12 * (size_t)first;
        for (uint32_t j = 0; j < n; j++)
            inv_scale[j] = inverse_scale(m + 12 * (size_t)j);
        for (uint32_t j = 0; j < n; j++)
            dq_from_scaled(m + 12 * (size_t)j, inv_scale[j], out + 12 * ((size_t)first + j));
    }
}
