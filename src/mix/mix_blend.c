/* The blending rules of mix.h on sampled poses, shared by the stateless mix and the player:
 * normal layers as a weighted mean completed by the rest pose below the threshold, additive
 * layers against a reference. Per frame: allocates nothing. */
#include <math.h>
#include <string.h>

#include "mix/mix_internal.h"

static int force_portable; /* ossa_mix_force_portable */

void ossa_mix_force_portable(int portable) {
    force_portable = portable;
}

void ossa_mix_blend_begin(const ossa_rig *rig, float *sums, ossa_pose *out) {
    memset(out->local, 0, rig->node_count * sizeof *out->local);
    if (rig->weight_total) memset(out->weights, 0, rig->weight_total * sizeof *out->weights);
    memset(sums, 0, rig->node_count * sizeof *sums);
}

/* acc += e * x, the rotation as a += e * (dot(a, q) >= 0 ? q : -q). Everything is loaded
 * before anything is stored (in place, each store had to reach memory before the next load, as
 * the poses may alias), and the sign is taken without a branch: it is as good as random from
 * node to node. */
static inline void add_weighted(ossa_trs *acc, const ossa_trs *x, float e) {
    const float *q = x->rotation;
    float a0 = acc->rotation[0], a1 = acc->rotation[1], a2 = acc->rotation[2];
    float a3 = acc->rotation[3];
    float t0 = acc->translation[0] + e * x->translation[0];
    float t1 = acc->translation[1] + e * x->translation[1];
    float t2 = acc->translation[2] + e * x->translation[2];
    float s0 = acc->scale[0] + e * x->scale[0], s1 = acc->scale[1] + e * x->scale[1];
    float s2 = acc->scale[2] + e * x->scale[2];
    float dot = a0 * q[0] + a1 * q[1] + a2 * q[2] + a3 * q[3];
    float f = e * (float)(1 - 2 * (dot < 0));
    float r0 = a0 + f * q[0], r1 = a1 + f * q[1], r2 = a2 + f * q[2], r3 = a3 + f * q[3];
    acc->translation[0] = t0, acc->translation[1] = t1, acc->translation[2] = t2;
    acc->rotation[0] = r0, acc->rotation[1] = r1, acc->rotation[2] = r2, acc->rotation[3] = r3;
    acc->scale[0] = s0, acc->scale[1] = s1, acc->scale[2] = s2;
}

/* Translation and scale times inverse, the rotation normalised. */
static inline void divide_node(ossa_trs *trs, float inverse) {
    float *a = trs->rotation;
    float inverse_length = 1.0f / sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
    for (int c = 0; c < 3; c++) {
        trs->translation[c] *= inverse;
        trs->scale[c] *= inverse;
    }
    for (int c = 0; c < 4; c++)
        a[c] *= inverse_length;
}

/* Hamilton product a * b of (x, y, z, w) quaternions. */
static inline void quat_mul(const float *a, const float *b, float *out) {
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* out's rotation times the normalised e-weighted difference ref^-1 x (the shorter way). */
static inline void add_rotation_difference(ossa_trs *out, const ossa_trs *x, const ossa_trs *ref,
                                           float e) {
    const float *qr = ref->rotation;
    float conj[4] = {-qr[0], -qr[1], -qr[2], qr[3]}, d[4];
    quat_mul(conj, x->rotation, d);
    float sign = d[3] < 0 ? -1.0f : 1.0f;
    float m[4] = {e * sign * d[0], e * sign * d[1], e * sign * d[2], (1 - e) + e * sign * d[3]};
    float inverse_length = 1.0f / sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
    for (int c = 0; c < 4; c++)
        m[c] *= inverse_length;
    float q[4];
    memcpy(q, out->rotation, sizeof q);
    quat_mul(q, m, out->rotation);
}

#define MIX_LOOP(name)   name##_portable
#define MIX_LOOP_STORAGE static
#include "mix/mix_blend_loops.h"

#ifdef OSSA_MIX_AVX512
/* The AVX-512 loops where the CPU runs them (unless a test forces the portable ones). */
static int wide(void) {
    return !force_portable && ossa_mix_avx512_supported();
}
#endif

void ossa_mix_blend_normal(const ossa_rig *rig, const ossa_pose *layer, double weight,
                           const float *mask, float *sums, ossa_pose *out) {
#ifdef OSSA_MIX_AVX512
    if (wide()) {
        ossa_mix_blend_normal_avx512(rig, layer, weight, mask, sums, out);
        return;
    }
#endif
    normal_portable(rig, layer, weight, mask, sums, out);
}

void ossa_mix_blend_finish(const ossa_rig *rig, float threshold, const float *sums,
                           ossa_pose *out) {
#ifdef OSSA_MIX_AVX512
    if (wide()) {
        ossa_mix_blend_finish_avx512(rig, threshold, sums, out);
        return;
    }
#endif
    finish_portable(rig, threshold, sums, out);
}

void ossa_mix_blend_additive(const ossa_rig *rig, const ossa_pose *layer,
                             const ossa_pose *reference, double weight, const float *mask,
                             ossa_pose *out) {
#ifdef OSSA_MIX_AVX512
    if (wide()) {
        ossa_mix_blend_additive_avx512(rig, layer, reference, weight, mask, out);
        return;
    }
#endif
    additive_portable(rig, layer, reference, weight, mask, out);
}
