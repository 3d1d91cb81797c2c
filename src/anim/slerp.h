/* Spherical linear interpolation of one quaternion pair (slerp.c; the batch kernels in
 * track_batch.h perform the same operations in the same order). */
#ifndef OSSA_ANIM_SLERP_H
#define OSSA_ANIM_SLERP_H

/*
 * Slerp of unit quaternions (x, y, z, w) along the shortest arc, by the polynomial evaluation
 * described in sample.h and slerp.c. t = 0 gives a exactly; t = 1 gives b or -b.
 */
void ossa_quat_slerp(const float *a, const float *b, float t, float *out);

#endif
