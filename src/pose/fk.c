/* Forward kinematics (palette.h): one forward pass over the rig, parents first. */
#include "ossa/palette.h"

#include <string.h>

#include "io/error.h"
#include "pose/pose_avx512.h"
#include "pose/xform.h"

static inline void local_matrix(const ossa_rig *rig, const ossa_pose *pose, uint32_t node,
                                float *out) {
    if (rig->fixed[node]) {
        memcpy(out, rig->fixed_local + 12 * (size_t)node, 12 * sizeof(float));
        return;
    }
    const ossa_trs *l = &pose->local[node];
    xf_matrix_from_trs(l->translation, l->rotation, l->scale, out);
}

ossa_result ossa_local_matrix(const ossa_rig *rig, const ossa_pose *pose, uint32_t node, float *out,
                              ossa_error *error) {
    if (node >= rig->node_count)
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL,
                              "node %u does not exist: the rig has %u nodes", node,
                              rig->node_count);
    local_matrix(rig, pose, node, out);
    return OSSA_OK;
}

void ossa_fk_matrices(const ossa_rig *rig, const ossa_pose *pose, float *world) {
#ifdef OSSA_POSE_AVX512
    if (ossa_pose_avx512_supported()) {
        ossa_fk_matrices_avx512(rig, pose, world);
        return;
    }
#endif
    const int32_t *parent = rig->parent;
#if defined(__SSE__) || defined(_M_X64)
    /* The previous node's world rows stay in registers: in chains of joints the parent is
     * usually the previous node, and its rows need not travel through memory. */
    __m128 p0 = _mm_setzero_ps(), p1 = p0, p2 = p0;
    for (uint32_t i = 0; i < rig->node_count; i++) {
        float *w = world + 12 * (size_t)i;
        int32_t pi = parent[i];
        if (pi >= 0 && !rig->fixed[i]) {
            const ossa_trs *l = &pose->local[i];
            __m128 l0, l1, l2;
            xf_rows_from_trs(l->translation, l->rotation, l->scale, &l0, &l1, &l2);
            if (pi != (int32_t)i - 1) {
                const float *pw = world + 12 * (size_t)pi;
                p0 = _mm_loadu_ps(pw);
                p1 = _mm_loadu_ps(pw + 4);
                p2 = _mm_loadu_ps(pw + 8);
            }
            xf_matrix_mul_regs(p0, p1, p2, l0, l1, l2, &p0, &p1, &p2);
        } else {
            local_matrix(rig, pose, i, w);
            if (pi >= 0) xf_matrix_mul(world + 12 * (size_t)pi, w, w);
            p0 = _mm_loadu_ps(w);
            p1 = _mm_loadu_ps(w + 4);
            p2 = _mm_loadu_ps(w + 8);
        }
        _mm_storeu_ps(w, p0);
        _mm_storeu_ps(w + 4, p1);
        _mm_storeu_ps(w + 8, p2);
    }
#else
    for (uint32_t i = 0; i < rig->node_count; i++) {
        float *w = world + 12 * (size_t)i;
        local_matrix(rig, pose, i, w);
        if (parent[i] >= 0) xf_matrix_mul(world + 12 * (size_t)parent[i], w, w);
    }
#endif
}

void ossa_fk_rigid(const ossa_rig *rig, const ossa_pose *pose, float *out) {
    for (uint32_t i = 0; i < rig->node_count; i++) {
        const ossa_trs *l = rig->fixed[i] ? &rig->rest[i] : &pose->local[i];
        float *o = out + 7 * (size_t)i;
        int32_t p = rig->parent[i];
        if (p < 0) {
            memcpy(o, l->rotation, 4 * sizeof(float));
            memcpy(o + 4, l->translation, 3 * sizeof(float));
            continue;
        }
        const float *po = out + 7 * (size_t)p;
        float moved[3];
        xf_quat_rotate(po, l->translation, moved);
        xf_quat_mul(po, l->rotation, o);
        for (int k = 0; k < 3; k++)
            o[4 + k] = po[4 + k] + moved[k];
    }
}

void ossa_fk_similarity(const ossa_rig *rig, const ossa_pose *pose, float *out) {
    for (uint32_t i = 0; i < rig->node_count; i++) {
        const ossa_trs *l = rig->fixed[i] ? &rig->rest[i] : &pose->local[i];
        float *o = out + 8 * (size_t)i;
        int32_t p = rig->parent[i];
        if (p < 0) {
            memcpy(o, l->rotation, 4 * sizeof(float));
            memcpy(o + 4, l->translation, 3 * sizeof(float));
            o[7] = l->scale[0];
            continue;
        }
        const float *po = out + 8 * (size_t)p;
        float moved[3];
        xf_quat_rotate(po, l->translation, moved);
        xf_quat_mul(po, l->rotation, o);
        for (int k = 0; k < 3; k++)
            o[4 + k] = po[4 + k] + po[7] * moved[k];
        o[7] = po[7] * l->scale[0];
    }
}
