/* Joint palettes (palette.h): matrices and dual quaternions per joint. */
#include "ossa/palette.h"

#include <math.h>

#include "pose/pose_avx512.h"
#include "pose/xform.h"

uint32_t ossa_palette_floats(const ossa_rig *rig, uint32_t skin) {
    return 12 * rig->skins[skin].joint_count;
}

static int is_identity(const float *m) {
    for (int k = 0; k < 12; k++)
        if (m[k] != ((k % 5 == 0) ? 1.0f : 0.0f)) return 0;
    return 1;
}

void ossa_palette_world(const ossa_rig *rig, uint32_t skin, const float *world, float *palette) {
    const ossa_rig_skin *s = &rig->skins[skin];
#ifdef OSSA_POSE_AVX512
    if (ossa_pose_avx512_supported()) {
        ossa_palette_avx512(s, NULL, world, palette);
        return;
    }
#endif
    for (uint32_t j = 0; j < s->joint_count; j++)
        xf_matrix_mul(world + 12 * (size_t)s->joints[j], s->inverse_bind + 12 * (size_t)j,
                      palette + 12 * (size_t)j);
}

void ossa_palette_mesh(const ossa_rig *rig, uint32_t skin, int32_t mesh_node, const float *world,
                       float *palette) {
    if (mesh_node < 0 || is_identity(world + 12 * (size_t)mesh_node)) {
        ossa_palette_world(rig, skin, world, palette); /* the same values, one product less */
        return;
    }
    float to_mesh[12];
    xf_matrix_invert(world + 12 * (size_t)mesh_node, to_mesh);
    const ossa_rig_skin *s = &rig->skins[skin];
#ifdef OSSA_POSE_AVX512
    if (ossa_pose_avx512_supported()) {
        ossa_palette_avx512(s, to_mesh, world, palette);
        return;
    }
#endif
    for (uint32_t j = 0; j < s->joint_count; j++) {
        float joint_world[12];
        xf_matrix_mul(to_mesh, world + 12 * (size_t)s->joints[j], joint_world);
        xf_matrix_mul(joint_world, s->inverse_bind + 12 * (size_t)j, palette + 12 * (size_t)j);
    }
}

void ossa_fk_palettes_world(const ossa_rig *rig, const ossa_pose *pose, float *world,
                            float *palettes) {
    ossa_fk_matrices(rig, pose, world);
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        ossa_palette_world(rig, s, world, palettes);
        palettes += 12 * (size_t)rig->skins[s].joint_count;
    }
}

void ossa_palette_dual_quat(const float *palette, uint32_t count, float *dual_quats) {
    for (uint32_t j = 0; j < count; j++) {
        const float *m = palette + 12 * (size_t)j;
        float *dq = dual_quats + 8 * (size_t)j;
        /* Orthonormalise the columns' directions (drops scale) before reading the rotation. */
        float rot[12] = {0};
        for (int c = 0; c < 3; c++) {
            float len = sqrtf(m[c] * m[c] + m[4 + c] * m[4 + c] + m[8 + c] * m[8 + c]);
            float inv = len > 0.0f ? 1.0f / len : 0.0f;
            for (int r = 0; r < 3; r++)
                rot[4 * r + c] = m[4 * r + c] * inv;
        }
        float q[4];
        xf_quat_from_rotation(rot, q);
        if (q[3] < 0.0f)
            for (int k = 0; k < 4; k++)
                q[k] = -q[k];
        /* dual = 0.5 * (t, 0) * q */
        float t[4] = {m[3], m[7], m[11], 0.0f}, d[4];
        xf_quat_mul(t, q, d);
        for (int k = 0; k < 4; k++) {
            dq[k] = q[k];
            dq[4 + k] = 0.5f * d[k];
        }
    }
}
