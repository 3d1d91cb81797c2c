/* Small vector and quaternion helpers for generating the demo model. */
#ifndef OSSA_DEMO_MATH_H
#define OSSA_DEMO_MATH_H

#include <math.h>

#define DEMO_PI 3.14159265358979323846

static inline void demo_sub3(const float a[3], const float b[3], float out[3]) {
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static inline void demo_cross3(const float a[3], const float b[3], float out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static inline float demo_dot3(const float a[3], const float b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Normalizes in double precision so the float result is unit length to rounding. */
static inline void demo_normalize3(float v[3]) {
    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    if (len > 0) {
        v[0] = (float)(v[0] / len);
        v[1] = (float)(v[1] / len);
        v[2] = (float)(v[2] / len);
    }
}

/* q = a * b for quaternions stored x, y, z, w (glTF order), in double precision. */
static inline void demo_quat_mul(const double a[4], const double b[4], double out[4]) {
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* The rotation by angle (radians) about coordinate axis 0 (x), 1 (y) or 2 (z). */
static inline void demo_quat_axis(int axis, double angle, double out[4]) {
    out[0] = out[1] = out[2] = 0;
    out[axis] = sin(angle / 2);
    out[3] = cos(angle / 2);
}

/* d/dt of demo_quat_axis(axis, angle(t)) given angle and its rate. */
static inline void demo_quat_axis_rate(int axis, double angle, double rate, double out[4]) {
    out[0] = out[1] = out[2] = 0;
    out[axis] = 0.5 * rate * cos(angle / 2);
    out[3] = -0.5 * rate * sin(angle / 2);
}

#endif
