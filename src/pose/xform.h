/* Small inline math shared by the runtime model, sampling and poses: quaternions (x, y, z, w)
 * and affine 3x4 matrices stored as three rows of four floats (the palette layout). */
#ifndef OSSA_XFORM_H
#define OSSA_XFORM_H

#include <math.h>

/* q = a * b (Hamilton product; applies b first, then a). */
static inline void xf_quat_mul(const float *a, const float *b, float *q) {
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    q[0] = x;
    q[1] = y;
    q[2] = z;
    q[3] = w;
}

/* out = q * v * conj(q) for a unit quaternion q. */
static inline void xf_quat_rotate(const float *q, const float *v, float *out) {
    /* t = 2 (q.xyz x v); v' = v + w t + q.xyz x t */
    float tx = 2.0f * (q[1] * v[2] - q[2] * v[1]);
    float ty = 2.0f * (q[2] * v[0] - q[0] * v[2]);
    float tz = 2.0f * (q[0] * v[1] - q[1] * v[0]);
    float x = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
    float y = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
    float z = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* Normalises q in place; a zero quaternion becomes the identity. */
static inline void xf_quat_normalize(float *q) {
    float n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (n > 0.0f) {
        float s = 1.0f / sqrtf(n);
        q[0] *= s;
        q[1] *= s;
        q[2] *= s;
        q[3] *= s;
    } else {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
    }
}

#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>

/* The rows of T * R * S (the rotation used as given). Row r is C + K * (A + B) scaled by
 * (sx, sy, sz, 1), where A + B is the pair of quaternion products of each entry (e.g.
 * yy + zz, xy - wz), K is -2 on the diagonal and 2 elsewhere and C is the identity row with
 * the translation in the last lane: the scalar formula 1 - 2 (yy + zz), 2 (xy - wz), ... */
static inline void xf_rows_from_trs(const float *t, const float *q, const float *s, __m128 *r0,
                                    __m128 *r1, __m128 *r2) {
    __m128 v = _mm_loadu_ps(q); /* x y z w */
    __m128 scale = _mm_setr_ps(s[0], s[1], s[2], 1.0f);
    /* lane 3 of A and B is finite (products of components) and K's lane 3 is 0 */
    __m128 a0 = _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 0, 1)),  /* y x x w */
                           _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 2, 1, 1))); /* y y z w */
    __m128 b0 = _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 3, 2)),  /* z w w w */
                           _mm_xor_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 2, 2)),
                                      _mm_setr_ps(0.0f, -0.0f, 0.0f, 0.0f))); /* z -z y w */
    __m128 a1 = _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 0, 0)),     /* x x y w */
                           _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 2, 0, 1)));    /* y x z w */
    __m128 b1 = _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 2, 3)),     /* w z w w */
                           _mm_xor_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 2, 2)),
                                      _mm_setr_ps(0.0f, 0.0f, -0.0f, 0.0f))); /* z z -x w */
    __m128 a2 = _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 1, 0)),     /* x y x w */
                           _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 2, 2)));    /* z z x w */
    __m128 b2 = _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 3, 3)),     /* w w y w */
                           _mm_xor_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 1, 0, 1)),
                                      _mm_setr_ps(-0.0f, 0.0f, 0.0f, 0.0f))); /* -y x y w */
    __m128 k0 = _mm_setr_ps(-2.0f, 2.0f, 2.0f, 0.0f), k1 = _mm_setr_ps(2.0f, -2.0f, 2.0f, 0.0f);
    __m128 k2 = _mm_setr_ps(2.0f, 2.0f, -2.0f, 0.0f);
    *r0 = _mm_mul_ps(
        _mm_add_ps(_mm_setr_ps(1.0f, 0.0f, 0.0f, t[0]), _mm_mul_ps(k0, _mm_add_ps(a0, b0))), scale);
    *r1 = _mm_mul_ps(
        _mm_add_ps(_mm_setr_ps(0.0f, 1.0f, 0.0f, t[1]), _mm_mul_ps(k1, _mm_add_ps(a1, b1))), scale);
    *r2 = _mm_mul_ps(
        _mm_add_ps(_mm_setr_ps(0.0f, 0.0f, 1.0f, t[2]), _mm_mul_ps(k2, _mm_add_ps(a2, b2))), scale);
}

/* m = T * R * S as 3x4 rows. The rotation need not be unit: it is used as given. */
static inline void xf_matrix_from_trs(const float *t, const float *q, const float *s, float *m) {
    __m128 r0, r1, r2;
    xf_rows_from_trs(t, q, s, &r0, &r1, &r2);
    _mm_storeu_ps(m, r0);
    _mm_storeu_ps(m + 4, r1);
    _mm_storeu_ps(m + 8, r2);
}
#else
/* m = T * R * S as 3x4 rows. The rotation need not be unit: it is used as given. */
static inline void xf_matrix_from_trs(const float *t, const float *q, const float *s, float *m) {
    /* Inputs into locals first: out may alias them as far as the compiler knows. */
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float sx = s[0], sy = s[1], sz = s[2], tx = t[0], ty = t[1], tz = t[2];
    float xx = x * x, yy = y * y, zz = z * z;
    float xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
    m[0] = (1.0f - 2.0f * (yy + zz)) * sx;
    m[1] = 2.0f * (xy - wz) * sy;
    m[2] = 2.0f * (xz + wy) * sz;
    m[3] = tx;
    m[4] = 2.0f * (xy + wz) * sx;
    m[5] = (1.0f - 2.0f * (xx + zz)) * sy;
    m[6] = 2.0f * (yz - wx) * sz;
    m[7] = ty;
    m[8] = 2.0f * (xz - wy) * sx;
    m[9] = 2.0f * (yz + wx) * sy;
    m[10] = (1.0f - 2.0f * (xx + yy)) * sz;
    m[11] = tz;
}
#endif

#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
/* out = a * b for affine 3x4 matrices, b given as its three rows (out may alias a). Each output
 * row is
 * a[r][0] * b_row0 + a[r][1] * b_row1 + a[r][2] * b_row2 (+ a[r][3] in the last column), summed
 * in that order, as the scalar version below does. */
static inline void xf_matrix_mul_rows(const float *a, __m128 b0, __m128 b1, __m128 b2, float *out) {
    __m128 last = _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
    __m128 r0 = _mm_mul_ps(_mm_set1_ps(a[0]), b0), r1 = _mm_mul_ps(_mm_set1_ps(a[4]), b0);
    __m128 r2 = _mm_mul_ps(_mm_set1_ps(a[8]), b0);
    r0 = _mm_add_ps(r0, _mm_mul_ps(_mm_set1_ps(a[1]), b1));
    r1 = _mm_add_ps(r1, _mm_mul_ps(_mm_set1_ps(a[5]), b1));
    r2 = _mm_add_ps(r2, _mm_mul_ps(_mm_set1_ps(a[9]), b1));
    r0 = _mm_add_ps(r0, _mm_mul_ps(_mm_set1_ps(a[2]), b2));
    r1 = _mm_add_ps(r1, _mm_mul_ps(_mm_set1_ps(a[6]), b2));
    r2 = _mm_add_ps(r2, _mm_mul_ps(_mm_set1_ps(a[10]), b2));
    r0 = _mm_add_ps(r0, _mm_mul_ps(_mm_set1_ps(a[3]), last));
    r1 = _mm_add_ps(r1, _mm_mul_ps(_mm_set1_ps(a[7]), last));
    r2 = _mm_add_ps(r2, _mm_mul_ps(_mm_set1_ps(a[11]), last));
    _mm_storeu_ps(out, r0);
    _mm_storeu_ps(out + 4, r1);
    _mm_storeu_ps(out + 8, r2);
}

/* As xf_matrix_mul_rows with a also in registers (three rows); same operations, same order. */
static inline void xf_matrix_mul_regs(__m128 a0, __m128 a1, __m128 a2, __m128 b0, __m128 b1,
                                      __m128 b2, __m128 *o0, __m128 *o1, __m128 *o2) {
    __m128 last = _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
#define XF_LANE(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(i, i, i, i))
    __m128 r0 = _mm_mul_ps(XF_LANE(a0, 0), b0), r1 = _mm_mul_ps(XF_LANE(a1, 0), b0);
    __m128 r2 = _mm_mul_ps(XF_LANE(a2, 0), b0);
    r0 = _mm_add_ps(r0, _mm_mul_ps(XF_LANE(a0, 1), b1));
    r1 = _mm_add_ps(r1, _mm_mul_ps(XF_LANE(a1, 1), b1));
    r2 = _mm_add_ps(r2, _mm_mul_ps(XF_LANE(a2, 1), b1));
    r0 = _mm_add_ps(r0, _mm_mul_ps(XF_LANE(a0, 2), b2));
    r1 = _mm_add_ps(r1, _mm_mul_ps(XF_LANE(a1, 2), b2));
    r2 = _mm_add_ps(r2, _mm_mul_ps(XF_LANE(a2, 2), b2));
    *o0 = _mm_add_ps(r0, _mm_mul_ps(XF_LANE(a0, 3), last));
    *o1 = _mm_add_ps(r1, _mm_mul_ps(XF_LANE(a1, 3), last));
    *o2 = _mm_add_ps(r2, _mm_mul_ps(XF_LANE(a2, 3), last));
#undef XF_LANE
}

static inline void xf_matrix_mul(const float *a, const float *b, float *out) {
    xf_matrix_mul_rows(a, _mm_loadu_ps(b), _mm_loadu_ps(b + 4), _mm_loadu_ps(b + 8), out);
}
#else
/* out = a * b for affine 3x4 matrices. Operands are read into locals first, so out may alias
 * a or b and the compiler need not reload after each store. */
static inline void xf_matrix_mul(const float *a, const float *b, float *out) {
    float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
    float a6 = a[6], a7 = a[7], a8 = a[8], a9 = a[9], a10 = a[10], a11 = a[11];
    float b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4], b5 = b[5];
    float b6 = b[6], b7 = b[7], b8 = b[8], b9 = b[9], b10 = b[10], b11 = b[11];
    out[0] = a0 * b0 + a1 * b4 + a2 * b8;
    out[1] = a0 * b1 + a1 * b5 + a2 * b9;
    out[2] = a0 * b2 + a1 * b6 + a2 * b10;
    out[3] = a0 * b3 + a1 * b7 + a2 * b11 + a3;
    out[4] = a4 * b0 + a5 * b4 + a6 * b8;
    out[5] = a4 * b1 + a5 * b5 + a6 * b9;
    out[6] = a4 * b2 + a5 * b6 + a6 * b10;
    out[7] = a4 * b3 + a5 * b7 + a6 * b11 + a7;
    out[8] = a8 * b0 + a9 * b4 + a10 * b8;
    out[9] = a8 * b1 + a9 * b5 + a10 * b9;
    out[10] = a8 * b2 + a9 * b6 + a10 * b10;
    out[11] = a8 * b3 + a9 * b7 + a10 * b11 + a11;
}
#endif

static inline void xf_matrix_identity(float *m) {
    for (int i = 0; i < 12; i++)
        m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
}

/* Inverse of an affine 3x4 matrix; a singular linear part gives the identity linear part. */
static inline void xf_matrix_invert(const float *m, float *out) {
    double a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9],
           i = m[10];
    double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    double r[9];
    if (det == 0.0) {
        r[0] = r[4] = r[8] = 1.0;
        r[1] = r[2] = r[3] = r[5] = r[6] = r[7] = 0.0;
    } else {
        double k = 1.0 / det;
        r[0] = A * k;
        r[1] = -(b * i - c * h) * k;
        r[2] = (b * f - c * e) * k;
        r[3] = B * k;
        r[4] = (a * i - c * g) * k;
        r[5] = -(a * f - c * d) * k;
        r[6] = C * k;
        r[7] = -(a * h - b * g) * k;
        r[8] = (a * e - b * d) * k;
    }
    for (int row = 0; row < 3; row++) {
        const double *rr = r + 3 * row;
        out[4 * row + 0] = (float)rr[0];
        out[4 * row + 1] = (float)rr[1];
        out[4 * row + 2] = (float)rr[2];
        out[4 * row + 3] = (float)-(rr[0] * m[3] + rr[1] * m[7] + rr[2] * m[11]);
    }
}

/* Inverse of an affine 3x4 matrix in float, for the per-frame paths: adjugate over
 * determinant, the adjugate's columns being cross products of the rows. A zero determinant gives
 * the identity linear part, as xf_matrix_invert does; otherwise it agrees with xf_matrix_invert
 * to float rounding. */
#if defined(__SSE__) || defined(_M_X64)
static inline __m128 xf_cross(__m128 a, __m128 b) {
    __m128 a_yzx = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1));
    __m128 b_yzx = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 0, 2, 1));
    __m128 c = _mm_sub_ps(_mm_mul_ps(a, b_yzx), _mm_mul_ps(a_yzx, b)); /* (a x b).zxy */
    return _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 0, 2, 1));
}

static inline void xf_matrix_invert_float(const float *m, float *out) {
    __m128 r0 = _mm_loadu_ps(m), r1 = _mm_loadu_ps(m + 4), r2 = _mm_loadu_ps(m + 8);
    __m128 c0 = xf_cross(r1, r2), c1 = xf_cross(r2, r0), c2 = xf_cross(r0, r1);
    __m128 p = _mm_mul_ps(r0, c0); /* lanes 0-2: the determinant's terms (lane 3 is 0) */
    float det = _mm_cvtss_f32(p) + _mm_cvtss_f32(_mm_shuffle_ps(p, p, 1)) +
                _mm_cvtss_f32(_mm_shuffle_ps(p, p, 2));
    __m128 scale = _mm_set1_ps(det == 0.0f ? 1.0f : 1.0f / det);
    if (det == 0.0f) {
        c0 = _mm_setr_ps(1.0f, 0.0f, 0.0f, 0.0f);
        c1 = _mm_setr_ps(0.0f, 1.0f, 0.0f, 0.0f);
        c2 = _mm_setr_ps(0.0f, 0.0f, 1.0f, 0.0f);
    }
    c0 = _mm_mul_ps(c0, scale);
    c1 = _mm_mul_ps(c1, scale);
    c2 = _mm_mul_ps(c2, scale);
    /* column 3: -(inverse * t), with t the last column of m */
    __m128 t = _mm_sub_ps(
        _mm_setzero_ps(),
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(m[3])), _mm_mul_ps(c1, _mm_set1_ps(m[7]))),
                   _mm_mul_ps(c2, _mm_set1_ps(m[11]))));
    _MM_TRANSPOSE4_PS(c0, c1, c2, t); /* rows of the inverse */
    _mm_storeu_ps(out, c0);
    _mm_storeu_ps(out + 4, c1);
    _mm_storeu_ps(out + 8, c2);
}
#else
static inline void xf_matrix_invert_float(const float *m, float *out) {
    xf_matrix_invert(m, out);
}
#endif

/* Rotation (3x3 row-major, in double) to a unit quaternion (x, y, z, w), Shepperd's way: divide
 * by the largest of 4w^2, 4x^2, 4y^2, 4z^2 so the square root is well away from zero. The
 * library's one rotation-to-quaternion conversion: rig decomposition (below) and the dual
 * quaternions of DQS (skin/dual_quat.c) both use it. */
static inline void xf_quat_from_rotation3(const double r[9], double q[4]) {
    double trace = r[0] + r[4] + r[8];
    if (trace > r[0] && trace > r[4] && trace > r[8]) {
        double s = 2.0 * sqrt(1.0 + trace);
        q[3] = 0.25 * s;
        q[0] = (r[7] - r[5]) / s;
        q[1] = (r[2] - r[6]) / s;
        q[2] = (r[3] - r[1]) / s;
    } else if (r[0] >= r[4] && r[0] >= r[8]) {
        double s = 2.0 * sqrt(1.0 + r[0] - r[4] - r[8]);
        q[3] = (r[7] - r[5]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[1] + r[3]) / s;
        q[2] = (r[2] + r[6]) / s;
    } else if (r[4] >= r[8]) {
        double s = 2.0 * sqrt(1.0 + r[4] - r[0] - r[8]);
        q[3] = (r[2] - r[6]) / s;
        q[0] = (r[1] + r[3]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[5] + r[7]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + r[8] - r[0] - r[4]);
        q[3] = (r[3] - r[1]) / s;
        q[0] = (r[2] + r[6]) / s;
        q[1] = (r[5] + r[7]) / s;
        q[2] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

/* The rotation of a 3x4 matrix whose 3x3 part is a rotation, as a float quaternion. */
static inline void xf_quat_from_rotation(const float *m, float *q) {
    const double r[9] = {m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]};
    double d[4];
    xf_quat_from_rotation3(r, d);
    for (int i = 0; i < 4; i++)
        q[i] = (float)d[i];
}

/* 3x4 rows from a glTF column-major 4x4 (the last row is dropped). */
static inline void xf_matrix_from_column_major(const float *c, float *m) {
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++)
            m[4 * r + k] = c[4 * k + r];
}

#endif
