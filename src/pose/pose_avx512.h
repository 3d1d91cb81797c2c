/* AVX-512 forward kinematics and palettes (pose_avx512.c), chosen at run time by fk.c and
 * palette.c. Same meaning as the portable code; FMAs round differently (float rounding level),
 * but every node and joint goes through the same operations whatever its place in the rig. */
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
#endif

#endif
