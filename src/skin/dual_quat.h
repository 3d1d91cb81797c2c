/* Dual quaternions for DQS: conversion from 3x4 joint matrices and back. */
#ifndef OSSA_SKIN_DUAL_QUAT_H
#define OSSA_SKIN_DUAL_QUAT_H

#include <stdint.h>

/* m: 3x4 row-major; dq: real xyzw, dual xyzw, uniform scale, 0, 0, 0 (12 floats). */
void skin_dq_from_matrix(const float *m, float *dq);

/*
 * Turns a blended (not yet normalised) dual quaternion + blended scale (9 floats, as above)
 * into a 3x4 row-major matrix: scale * rotation, translation. A zero real part gives identity.
 */
void skin_dq_to_matrix(const float *blend, float *m);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSSA_SKIN_DQ_AVX512 1
/* 1 when this CPU runs skin_dual_quats_avx512 (AVX-512F). */
int skin_dq_avx512_supported(void);

/* ossa_skin_dual_quats sixteen joints at a time, in float (dual_quat_avx512.c): within 1e-6 of
 * skin_dq_from_matrix's double-precision steps, the same quaternion sign. */
void skin_dual_quats_avx512(const float *palette, uint32_t joint_count, float *out);
#endif

#endif
