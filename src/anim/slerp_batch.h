/* Batched slerps at one shared parameter t (the tracks of one timeline), bit-identical to
 * calls of ossa_quat_slerp: the same operations in the same order, one lane per quaternion. */
#ifndef OSSA_SLERP_BATCH_H
#define OSSA_SLERP_BATCH_H

#include <stdint.h>

#include "ossa/clip.h"

void ossa_quat_slerp4(const float *const a[4], const float *const b[4], float t,
                      float *const out[4]);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSSA_ANIM_AVX512 1
/* 1 when this CPU runs ossa_slerp_tracks16 (AVX-512F). */
int ossa_slerp16_supported(void);

/* Slerps `count` (1 to 16) LINEAR rotation tracks between their keys k and k + 1 at t into
 * local[track.node].rotation, sixteen lanes at once (slerp_avx512.c). */
void ossa_slerp_tracks16(const float *values, const ossa_track *tracks, uint32_t count, uint32_t k,
                         float t, ossa_trs *local);
#endif

#endif
