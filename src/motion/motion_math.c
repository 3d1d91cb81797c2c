/* Rigid transforms (motion.h): identity, composition, inverse, powers; double precision. */
#include <string.h>

#include "motion/motion_internal.h"

void ossa_motion_identity(ossa_motion *out) {
    memset(out, 0, sizeof *out);
    out->rotation[3] = 1;
}

static void quat_mul(const double *a, const double *b, double *out) {
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* q v q^-1 for a unit q. */
static void quat_rotate(const double *q, const double *v, double *out) {
    /* t = 2 (q.xyz x v); v + w t + q.xyz x t */
    double tx = 2 * (q[1] * v[2] - q[2] * v[1]);
    double ty = 2 * (q[2] * v[0] - q[0] * v[2]);
    double tz = 2 * (q[0] * v[1] - q[1] * v[0]);
    double x = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
    double y = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
    double z = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
    out[0] = x, out[1] = y, out[2] = z;
}

void ossa_motion_compose(const ossa_motion *a, const ossa_motion *b, ossa_motion *out) {
    double t[3], q[4];
    quat_rotate(a->rotation, b->translation, t);
    for (int c = 0; c < 3; c++)
        t[c] += a->translation[c];
    quat_mul(a->rotation, b->rotation, q);
    memcpy(out->translation, t, sizeof t);
    memcpy(out->rotation, q, sizeof q);
}

void ossa_motion_inverse(const ossa_motion *a, ossa_motion *out) {
    double q[4] = {-a->rotation[0], -a->rotation[1], -a->rotation[2], a->rotation[3]}, t[3];
    quat_rotate(q, a->translation, t);
    for (int c = 0; c < 3; c++)
        out->translation[c] = -t[c];
    memcpy(out->rotation, q, sizeof q);
}

void ossa_motion_power(const ossa_motion *a, int64_t n, ossa_motion *out) {
    ossa_motion base = *a, result;
    ossa_motion_identity(&result);
    /* |n| without overflow at INT64_MIN: count on the unsigned magnitude. */
    uint64_t m = n < 0 ? (uint64_t)(-(n + 1)) + 1 : (uint64_t)n;
    if (n < 0) ossa_motion_inverse(&base, &base);
    while (m) {
        if (m & 1) ossa_motion_compose(&result, &base, &result);
        m >>= 1;
        if (m) ossa_motion_compose(&base, &base, &base);
    }
    *out = result;
}
