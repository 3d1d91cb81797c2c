/* Double-precision math of the IK jobs: 3-vectors, affine 3x4 matrices (rows, the palette
 * layout), rotations as quaternions (x, y, z, w) and as 3x3 matrices (rows). The jobs solve in
 * double so that the rounding left is the float of the pose and of forward kinematics. */
#ifndef OSSA_IK_MATH_H
#define OSSA_IK_MATH_H

#include <math.h>

/* Lengths below this (relative to the chain's size where it matters) count as zero. */
#define IK_EPSILON 1e-12
#define IK_PI      3.14159265358979323846

typedef struct ik_vec {
    double x, y, z;
} ik_vec;

/* An affine map: rows of [linear | translation]. */
typedef struct ik_affine {
    double m[12];
} ik_affine;

static inline ik_vec ik_v(double x, double y, double z) {
    ik_vec v = {x, y, z};
    return v;
}
static inline ik_vec ik_vf(const float *f) {
    return ik_v(f[0], f[1], f[2]);
}
static inline ik_vec ik_add(ik_vec a, ik_vec b) {
    return ik_v(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline ik_vec ik_sub(ik_vec a, ik_vec b) {
    return ik_v(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline ik_vec ik_scale(ik_vec a, double s) {
    return ik_v(a.x * s, a.y * s, a.z * s);
}
static inline double ik_dot(ik_vec a, ik_vec b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline double ik_length(ik_vec a) {
    return sqrt(ik_dot(a, a));
}
static inline ik_vec ik_cross(ik_vec a, ik_vec b) {
    return ik_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

/* a / |a|; *ok (when given) says whether |a| was above `tiny`. A too short vector gives 0. */
static inline ik_vec ik_normalize(ik_vec a, double tiny, int *ok) {
    double n = ik_length(a);
    int good = n > tiny;
    if (ok) *ok = good;
    return good ? ik_scale(a, 1.0 / n) : ik_v(0.0, 0.0, 0.0);
}

/* The part of a perpendicular to the unit vector u. */
static inline ik_vec ik_reject(ik_vec a, ik_vec u) {
    return ik_sub(a, ik_scale(u, ik_dot(a, u)));
}

/* A unit vector perpendicular to the unit vector u. */
static inline ik_vec ik_any_perpendicular(ik_vec u) {
    ik_vec axis = fabs(u.x) < 0.6 ? ik_v(1, 0, 0) : ik_v(0, 1, 0);
    return ik_normalize(ik_reject(axis, u), 0.0, NULL);
}

static inline ik_affine ik_affine_from_floats(const float *f) {
    ik_affine a;
    for (int i = 0; i < 12; i++)
        a.m[i] = f[i];
    return a;
}

static inline ik_affine ik_affine_identity(void) {
    ik_affine a = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
    return a;
}

static inline ik_affine ik_affine_mul(const ik_affine *a, const ik_affine *b) {
    ik_affine r;
    for (int row = 0; row < 3; row++) {
        const double *ar = a->m + 4 * row;
        for (int col = 0; col < 4; col++)
            r.m[4 * row + col] = ar[0] * b->m[col] + ar[1] * b->m[4 + col] + ar[2] * b->m[8 + col];
        r.m[4 * row + 3] += ar[3];
    }
    return r;
}

static inline ik_vec ik_affine_point(const ik_affine *a, ik_vec p) {
    const double *m = a->m;
    return ik_v(m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3],
                m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]);
}

static inline ik_vec ik_affine_vector(const ik_affine *a, ik_vec v) {
    const double *m = a->m;
    return ik_v(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[4] * v.x + m[5] * v.y + m[6] * v.z,
                m[8] * v.x + m[9] * v.y + m[10] * v.z);
}

static inline ik_vec ik_affine_origin(const ik_affine *a) {
    return ik_v(a->m[3], a->m[7], a->m[11]);
}

/* Inverse of an affine map; 0 when its linear part is singular. */
static inline int ik_affine_invert(const ik_affine *a, ik_affine *out) {
    const double *m = a->m;
    double c00 = m[5] * m[10] - m[6] * m[9], c01 = m[6] * m[8] - m[4] * m[10];
    double c02 = m[4] * m[9] - m[5] * m[8];
    double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
    if (!(fabs(det) > 0.0) || !isfinite(det)) return 0;
    double k = 1.0 / det;
    double *r = out->m;
    r[0] = c00 * k;
    r[1] = (m[2] * m[9] - m[1] * m[10]) * k;
    r[2] = (m[1] * m[6] - m[2] * m[5]) * k;
    r[4] = c01 * k;
    r[5] = (m[0] * m[10] - m[2] * m[8]) * k;
    r[6] = (m[2] * m[4] - m[0] * m[6]) * k;
    r[8] = c02 * k;
    r[9] = (m[1] * m[8] - m[0] * m[9]) * k;
    r[10] = (m[0] * m[5] - m[1] * m[4]) * k;
    for (int row = 0; row < 3; row++)
        r[4 * row + 3] = -(r[4 * row] * m[3] + r[4 * row + 1] * m[7] + r[4 * row + 2] * m[11]);
    return 1;
}

/* ---- rotations ---------------------------------------------------------------------------- */

typedef struct ik_quat {
    double x, y, z, w;
} ik_quat;

static inline ik_quat ik_quat_identity(void) {
    ik_quat q = {0, 0, 0, 1};
    return q;
}

static inline ik_quat ik_quat_axis_angle(ik_vec unit_axis, double angle) {
    double s = sin(0.5 * angle);
    ik_quat q = {unit_axis.x * s, unit_axis.y * s, unit_axis.z * s, cos(0.5 * angle)};
    return q;
}

/* a * b: b first, then a. */
static inline ik_quat ik_quat_mul(ik_quat a, ik_quat b) {
    ik_quat q = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                 a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return q;
}

static inline ik_vec ik_quat_rotate(ik_quat q, ik_vec v) {
    ik_vec u = ik_v(q.x, q.y, q.z);
    ik_vec t = ik_scale(ik_cross(u, v), 2.0);
    return ik_add(ik_add(v, ik_scale(t, q.w)), ik_cross(u, t));
}

/* Rows of the rotation matrix of a unit quaternion. */
static inline void ik_quat_to_matrix(ik_quat q, double r[9]) {
    double x = q.x, y = q.y, z = q.z, w = q.w;
    r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y - w * z), r[2] = 2 * (x * z + w * y);
    r[3] = 2 * (x * y + w * z), r[4] = 1 - 2 * (x * x + z * z), r[5] = 2 * (y * z - w * x);
    r[6] = 2 * (x * z - w * y), r[7] = 2 * (y * z + w * x), r[8] = 1 - 2 * (x * x + y * y);
}

/* Unit quaternion of a proper rotation matrix (rows). */
static inline ik_quat ik_quat_from_matrix(const double r[9]) {
    ik_quat q;
    double trace = r[0] + r[4] + r[8];
    if (trace > 0.0) {
        double s = 2.0 * sqrt(trace + 1.0);
        q.w = 0.25 * s, q.x = (r[7] - r[5]) / s, q.y = (r[2] - r[6]) / s, q.z = (r[3] - r[1]) / s;
    } else if (r[0] > r[4] && r[0] > r[8]) {
        double s = 2.0 * sqrt(1.0 + r[0] - r[4] - r[8]);
        q.w = (r[7] - r[5]) / s, q.x = 0.25 * s, q.y = (r[1] + r[3]) / s, q.z = (r[2] + r[6]) / s;
    } else if (r[4] > r[8]) {
        double s = 2.0 * sqrt(1.0 + r[4] - r[0] - r[8]);
        q.w = (r[2] - r[6]) / s, q.x = (r[1] + r[3]) / s, q.y = 0.25 * s, q.z = (r[5] + r[7]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + r[8] - r[0] - r[4]);
        q.w = (r[3] - r[1]) / s, q.x = (r[2] + r[6]) / s, q.y = (r[5] + r[7]) / s, q.z = 0.25 * s;
    }
    double n = 1.0 / sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    q.x *= n, q.y *= n, q.z *= n, q.w *= n;
    return q;
}

/* The rotation taking the orthonormal right-handed frame (x1, y1, z1) onto (x2, y2, z2). */
static inline ik_quat ik_quat_from_frames(ik_vec x1, ik_vec y1, ik_vec z1, ik_vec x2, ik_vec y2,
                                          ik_vec z2) {
    /* R = F2 * F1^T with the frames as columns */
    double r[9] = {x2.x * x1.x + y2.x * y1.x + z2.x * z1.x, x2.x * x1.y + y2.x * y1.y + z2.x * z1.y,
                   x2.x * x1.z + y2.x * y1.z + z2.x * z1.z, x2.y * x1.x + y2.y * y1.x + z2.y * z1.x,
                   x2.y * x1.y + y2.y * y1.y + z2.y * z1.y, x2.y * x1.z + y2.y * y1.z + z2.y * z1.z,
                   x2.z * x1.x + y2.z * y1.x + z2.z * z1.x, x2.z * x1.y + y2.z * y1.y + z2.z * z1.y,
                   x2.z * x1.z + y2.z * y1.z + z2.z * z1.z};
    return ik_quat_from_matrix(r);
}

/* The shortest rotation taking unit vector a onto unit vector b. */
static inline ik_quat ik_quat_between(ik_vec a, ik_vec b) {
    double d = ik_dot(a, b);
    if (d < -1.0 + 1e-14) return ik_quat_axis_angle(ik_any_perpendicular(a), IK_PI);
    ik_vec c = ik_cross(a, b);
    /* half-way quaternion: (a x b, 1 + a.b) normalised */
    double w = 1.0 + d, n = 1.0 / sqrt(ik_dot(c, c) + w * w);
    ik_quat q = {c.x * n, c.y * n, c.z * n, w * n};
    return q;
}

/* The rotation q scaled by weight along its shortest arc from the identity: slerp(1, q, w). */
static inline ik_quat ik_quat_weighted(ik_quat q, double weight) {
    if (weight >= 1.0) return q;
    if (q.w < 0.0) q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w;
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (s < 1e-300) return ik_quat_identity();
    double angle = 2.0 * atan2(s, q.w);
    return ik_quat_axis_angle(ik_v(q.x / s, q.y / s, q.z / s), angle * weight);
}

/* The rotation part of a linear map (rows of an affine map's linear part): its columns
 * orthonormalised in order (Gram-Schmidt), the third negated for a mirror. Exact (the map's own
 * orthogonal factor) when the map is a rotation times a uniform scale, possibly mirrored. */
static inline void ik_rotation_part(const ik_affine *a, double o[9]) {
    const double *m = a->m;
    ik_vec c0 = ik_v(m[0], m[4], m[8]), c1 = ik_v(m[1], m[5], m[9]), c2 = ik_v(m[2], m[6], m[10]);
    double det = ik_dot(c0, ik_cross(c1, c2));
    ik_vec x = ik_normalize(c0, 0.0, NULL);
    ik_vec y = ik_normalize(ik_reject(c1, x), 0.0, NULL);
    ik_vec z = ik_cross(x, y);
    if (det < 0.0) z = ik_scale(z, -1.0);
    o[0] = x.x, o[1] = y.x, o[2] = z.x;
    o[3] = x.y, o[4] = y.y, o[5] = z.y;
    o[6] = x.z, o[7] = y.z, o[8] = z.z;
}

/* O^T * R(q) * O for an orthogonal O (rows), as a quaternion: the rotation q seen from the
 * frame whose axes are O's columns. A mirror O gives a proper rotation too. */
static inline ik_quat ik_quat_conjugate_by(ik_quat q, const double o[9]) {
    double r[9], t[9], out[9];
    ik_quat_to_matrix(q, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = r[3 * i] * o[j] + r[3 * i + 1] * o[3 + j] + r[3 * i + 2] * o[6 + j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = o[i] * t[j] + o[3 + i] * t[3 + j] + o[6 + i] * t[6 + j];
    return ik_quat_from_matrix(out);
}

/* local = q * local, normalised, written back as floats. */
static inline void ik_rotate_local(float *rotation, ik_quat q) {
    ik_quat r = {rotation[0], rotation[1], rotation[2], rotation[3]};
    r = ik_quat_mul(q, r);
    double n = 1.0 / sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    rotation[0] = (float)(r.x * n);
    rotation[1] = (float)(r.y * n);
    rotation[2] = (float)(r.z * n);
    rotation[3] = (float)(r.w * n);
}

/* The affine map "rotate by q about the point p". */
static inline ik_affine ik_affine_rotation_about(ik_quat q, ik_vec p) {
    double r[9];
    ik_quat_to_matrix(q, r);
    ik_vec t = ik_sub(p, ik_quat_rotate(q, p));
    ik_affine a = {{r[0], r[1], r[2], t.x, r[3], r[4], r[5], t.y, r[6], r[7], r[8], t.z}};
    return a;
}

#endif
