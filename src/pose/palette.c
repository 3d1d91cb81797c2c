/* Joint palettes (palette.h). Dual quaternions of a palette: ossa_skin_dual_quats (skin.h). */
#include "ossa/palette.h"

#include "io/error.h"
#include "pose/pose_avx512.h"
#include "pose/xform.h"

uint32_t ossa_palette_floats(const ossa_rig *rig, uint32_t skin) {
    return skin < rig->skin_count ? 12 * rig->skins[skin].joint_count : 0;
}

static ossa_result no_skin(const ossa_rig *rig, uint32_t skin, ossa_error *error) {
    return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL,
                          "skin %u does not exist: the rig has %u skins", skin, rig->skin_count);
}

static int is_identity(const float *m) {
    for (int k = 0; k < 12; k++)
        if (m[k] != ((k % 5 == 0) ? 1.0f : 0.0f)) return 0;
    return 1;
}

/* The world-space palette of a skin that exists. */
static void palette_world(const ossa_rig *rig, uint32_t skin, const float *world, float *palette) {
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

ossa_result ossa_palette_world(const ossa_rig *rig, uint32_t skin, const float *world,
                               float *palette, ossa_error *error) {
    if (skin >= rig->skin_count) return no_skin(rig, skin, error);
    palette_world(rig, skin, world, palette);
    return OSSA_OK;
}

ossa_result ossa_palette_mesh(const ossa_rig *rig, uint32_t skin, int32_t mesh_node,
                              const float *world, float *palette, ossa_error *error) {
    if (skin >= rig->skin_count) return no_skin(rig, skin, error);
    if (mesh_node < -1 || (mesh_node >= 0 && (uint32_t)mesh_node >= rig->node_count))
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL,
                              "mesh node %d is neither -1 nor one of the rig's %u nodes",
                              (int)mesh_node, rig->node_count);
    if (mesh_node < 0 || is_identity(world + 12 * (size_t)mesh_node)) {
        palette_world(rig, skin, world, palette); /* the same values, one product less */
        return OSSA_OK;
    }
    float to_mesh[12];
    xf_matrix_invert_float(world + 12 * (size_t)mesh_node, to_mesh);
    const ossa_rig_skin *s = &rig->skins[skin];
#ifdef OSSA_POSE_AVX512
    if (ossa_pose_avx512_supported()) {
        ossa_palette_avx512(s, to_mesh, world, palette);
        return OSSA_OK;
    }
#endif
    for (uint32_t j = 0; j < s->joint_count; j++) {
        float joint_world[12];
        xf_matrix_mul(to_mesh, world + 12 * (size_t)s->joints[j], joint_world);
        xf_matrix_mul(joint_world, s->inverse_bind + 12 * (size_t)j, palette + 12 * (size_t)j);
    }
    return OSSA_OK;
}

void ossa_fk_palettes_world(const ossa_rig *rig, const ossa_pose *pose, float *world,
                            float *palettes) {
    ossa_fk_matrices(rig, pose, world);
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        palette_world(rig, s, world, palettes);
        palettes += 12 * (size_t)rig->skins[s].joint_count;
    }
}

void ossa_fk_palettes_world_many(const ossa_rig *rig, const ossa_pose *poses, uint32_t count,
                                 float *const *worlds, float *const *palettes) {
    uint32_t k = 0;
#ifdef OSSA_POSE_AVX512
    if (rig->node_count <= OSSA_FK4_MAX_NODES && ossa_pose_avx512_supported())
        for (; k + 4 <= count; k += 4)
            ossa_fk_palettes4_avx512(rig, poses + k, worlds + k, palettes + k);
#endif
    for (; k < count; k++)
        ossa_fk_palettes_world(rig, &poses[k], worlds[k], palettes[k]);
}
