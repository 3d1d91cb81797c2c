/* Forward kinematics (pose.h): one forward pass over the rig, parents first. */
#include "ossa/pose.h"

#include <string.h>

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

void ossa_local_matrix(const ossa_rig *rig, const ossa_pose *pose, uint32_t node, float *out) {
    local_matrix(rig, pose, node, out);
}

void ossa_fk_matrices(const ossa_rig *rig, const ossa_pose *pose, float *world) {
    const int32_t *parent = rig->parent;
    for (uint32_t i = 0; i < rig->node_count; i++) {
        float *w = world + 12 * (size_t)i;
        local_matrix(rig, pose, i, w);
        if (parent[i] >= 0) xf_matrix_mul(world + 12 * (size_t)parent[i], w, w);
    }
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
