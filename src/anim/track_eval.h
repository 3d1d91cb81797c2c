/* One animation track's value at a key or between two keys, by the glTF rules: the evaluation
 * sample.c, the named float tracks and root motion share (the batched LINEAR rotations,
 * translations and scales of sample.c have their own SIMD paths). */
#ifndef OSSA_ANIM_TRACK_EVAL_H
#define OSSA_ANIM_TRACK_EVAL_H

#include <math.h>
#include <stdint.h>

/* CUBICSPLINE between values a and b (n components) at fraction u of an interval dt, the
 * tangents scaled by dt as the spec says. */
static inline void ossa_hermite(const float *a, const float *out_tangent, const float *b,
                                const float *in_tangent, uint32_t n, float u, float dt,
                                float *out) {
    float u2 = u * u, u3 = u2 * u;
    float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = (u3 - 2.0f * u2 + u) * dt;
    float h01 = -2.0f * u3 + 3.0f * u2, h11 = (u3 - u2) * dt;
    for (uint32_t c = 0; c < n; c++)
        out[c] = h00 * a[c] + h10 * out_tangent[c] + h01 * b[c] + h11 * in_tangent[c];
}

/* Scales a quaternion to unit length; a zero one stays as it is. */
static inline void ossa_quat_normalize(float *q) {
    float len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (len2 > 0.0f) {
        float s = 1.0f / sqrtf(len2);
        for (int c = 0; c < 4; c++)
            q[c] *= s;
    }
}

/* LINEAR between a and b (n components) at fraction u: component by component (rotations are
 * slerped by the caller). */
static inline void ossa_lerp_components(const float *a, const float *b, uint32_t n, float u,
                                        float *out) {
    for (uint32_t c = 0; c < n; c++)
        out[c] = a[c] + (b[c] - a[c]) * u;
}

#endif
