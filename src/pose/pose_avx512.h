/* AVX-512 forward kinematics and palettes (pose_avx512.c; four poses at once: pose4_avx512.c),
 * chosen at run time by fk.c and palette.c. Same meaning as the portable code; FMAs round
 * differently (float rounding level), but every node and joint goes through the same operations
 * whatever its place in the rig. */
#ifndef OSSA_POSE_AVX512_H
#define OSSA_POSE_AVX512_H

#include "ossa/palette.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSSA_POSE_AVX512 1
/* 1 when this CPU runs the functions below (AVX-512F). */
int ossa_pose_avx512_supported(void);

/* ossa_fk_matrices. */
void ossa_fk_matrices_avx512(const ossa_rig *rig, const ossa_pose *pose, float *world);

/* The palette of one skin: `to_mesh * world(joint_j) * IBM_j`, or without to_mesh (NULL)
 * `world(joint_j) * IBM_j`. */
void ossa_palette_avx512(const ossa_rig_skin *skin, const float *to_mesh, const float *world,
                         float *palette);

/* The largest rig ossa_fk_palettes4_avx512 takes: its scratch of every node's world rows (192
 * bytes a node) lives on the stack. */
#define OSSA_FK4_MAX_NODES 256

/* ossa_fk_palettes_world of poses[0..3] (pose_avx512.c's values, bit for bit), pose k writing
 * worlds[k] and palettes[k]. The rig has at most OSSA_FK4_MAX_NODES nodes. */
void ossa_fk_palettes4_avx512(const ossa_rig *rig, const ossa_pose *poses, float *const *worlds,
                              float *const *palettes);
#endif

#endif
