/* Dual quaternions for DQS: conversion from 3x4 joint matrices and back. */
#ifndef OSSA_SKIN_DUAL_QUAT_H
#define OSSA_SKIN_DUAL_QUAT_H

/* m: 3x4 row-major; dq: real xyzw, dual xyzw, uniform scale, 0, 0, 0 (12 floats). */
void skin_dq_from_matrix(const float *m, float *dq);

/*
 * Turns a blended (not yet normalised) dual quaternion + blended scale (9 floats, as above)
 * into a 3x4 row-major matrix: scale * rotation, translation. A zero real part gives identity.
 */
void skin_dq_to_matrix(const float *blend, float *m);

#endif
