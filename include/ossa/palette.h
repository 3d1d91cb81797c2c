/**
 * @file palette.h
 * @brief Forward kinematics and joint palettes.
 *
 * World transforms are 3x4 matrices in rows (12 floats: m[0..3] row 0, m[4..7] row 1,
 * m[8..11] row 2), one per rig node, computed in one forward pass over the rig
 * (`world[i] = world[parent[i]] * local[i]`, parents come first). Palettes use the same layout
 * per joint in the skin's joint order. Every function here writes caller-owned buffers of the
 * sizes given and allocates nothing. Functions that take a node or skin index check it and
 * return ::OSSA_ERROR_ARGUMENT (nothing written) when it is out of range; with valid indices
 * they cannot fail. Buffer sizes follow from the rig and cannot be checked: a pose or buffer
 * sized for another rig is the caller's error.
 */
#ifndef OSSA_POSE_H
#define OSSA_POSE_H

#include <stdint.h>

#include "result.h"
#include "sample.h"
#include "rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Floats per 3x4 matrix. */
#define OSSA_MATRIX_FLOATS 12
/** Floats per rigid transform: rotation quaternion (x, y, z, w), translation (x, y, z). */
#define OSSA_RIGID_FLOATS 7
/** Floats per similarity transform: rotation (4), translation (3), uniform scale (1). */
#define OSSA_SIMILARITY_FLOATS 8

/**
 * Local 3x4 matrix of one rig node in a pose (T * R * S, or the fixed matrix).
 * @return OSSA_ERROR_ARGUMENT when node >= rig->node_count.
 */
ossa_result ossa_local_matrix(const ossa_rig *rig, const ossa_pose *pose, uint32_t node, float *out,
                              ossa_error *error);

/** World matrices of every rig node: `world` holds 12 * rig->node_count floats. */
void ossa_fk_matrices(const ossa_rig *rig, const ossa_pose *pose, float *world);

/**
 * Rigid forward kinematics: `Q_i = Q_p q_i`, `t_i = t_p + Q_p t_local_i`, 7 floats per rig node.
 * Scales are ignored: equal to the matrix path when every scale is 1. Fixed-matrix nodes
 * (see rig.h) contribute their decomposed rest rotation and translation.
 */
void ossa_fk_rigid(const ossa_rig *rig, const ossa_pose *pose, float *out);

/**
 * Forward kinematics as translation + rotation + uniform scale, 8 floats per rig node:
 * `Q_i = Q_p q_i`, `s_i = s_p s_i`, `t_i = t_p + s_p Q_p t_local_i`. Each node's scale is taken
 * from its x scale: equal to the matrix path when every scale is uniform.
 */
void ossa_fk_similarity(const ossa_rig *rig, const ossa_pose *pose, float *out);

/** Floats of a matrix palette of one skin (12 per joint); 0 when skin >= rig->skin_count. */
uint32_t ossa_palette_floats(const ossa_rig *rig, uint32_t skin);

/**
 * Skinning palette for a mesh node:
 * `jointMatrix_j = inverse(world(mesh_node)) * world(joint_j) * IBM_j` (3x4 rows per joint).
 * @param mesh_node rig node that draws the skinned mesh (its transform is cancelled, as glTF
 *        requires); -1 gives the world-space palette. When the mesh node's world matrix is
 *        exactly the identity the world-space palette is written (the same values, one matrix
 *        product less per joint).
 * @param palette ::ossa_palette_floats floats.
 * @return OSSA_ERROR_ARGUMENT when skin >= rig->skin_count or mesh_node is not -1 or a rig
 *         node.
 */
ossa_result ossa_palette_mesh(const ossa_rig *rig, uint32_t skin, int32_t mesh_node,
                              const float *world, float *palette, ossa_error *error);

/**
 * World-space palette: `world(joint_j) * IBM_j` (3x4 rows per joint).
 * @param palette ::ossa_palette_floats floats.
 * @return OSSA_ERROR_ARGUMENT when skin >= rig->skin_count.
 */
ossa_result ossa_palette_world(const ossa_rig *rig, uint32_t skin, const float *world,
                               float *palette, ossa_error *error);

/**
 * Forward kinematics and the world-space palettes of every skin in one call: writes `world`
 * (12 * node_count floats) and `palettes` (the skins' palettes one after another, skin order,
 * 12 * sum(joint_count) floats). Same values as ::ossa_fk_matrices then ::ossa_palette_world.
 */
void ossa_fk_palettes_world(const ossa_rig *rig, const ossa_pose *pose, float *world,
                            float *palettes);

/**
 * ::ossa_fk_palettes_world for `count` poses of one rig: pose k writes `worlds[k]` and
 * `palettes[k]`. The same values bit for bit as one call per pose; with AVX-512, rigs of at
 * most 256 nodes go four poses at a time through each vector operation, about a fifth less
 * time per pose; that path keeps every node's world rows on the stack (192 bytes a node, at most
 * 48 KiB). ::ossa_characters_update uses it for the characters of one model.
 */
void ossa_fk_palettes_world_many(const ossa_rig *rig, const ossa_pose *poses, uint32_t count,
                                 float *const *worlds, float *const *palettes);

#ifdef __cplusplus
}
#endif

#endif
