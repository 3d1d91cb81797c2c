/* Batched slerps and lerps at one shared parameter t (the tracks of one timeline), bit-identical
 * to calls of ossa_quat_slerp and to a + (b - a) t: the same operations in the same order, one
 * lane per quaternion or vector component. */
#ifndef OSSA_TRACK_BATCH_H
#define OSSA_TRACK_BATCH_H

#include <stdint.h>

#include "clip/clip_internal.h"

/* Floats per key of one section of ossa_clip::batch_keys holding `count` tracks: four per track.
 * A group of four tracks loads as one 512-bit vector, a last shorter group too: the array ends
 * with OSSA_BATCH_KEY_SLACK zero floats so that such a load stays inside it. */
#define OSSA_BATCH_KEY_STRIDE(count) (4u * (count))
#define OSSA_BATCH_KEY_SLACK         16u

/* Tests: 1 makes ossa_clip_sample take the portable batches below even where the AVX-512 ones
 * run, 0 (the default) lets it choose. Not for use while other threads sample. */
void ossa_anim_force_portable(int portable);

/* Slerps `count` (1 to 4) LINEAR rotation tracks at t into their targets, one lane per track
 * (SSE where there is SSE). keys: their quaternions at key k in ossa_clip::batch_keys; key k + 1
 * is `stride` floats further. local: ossa_pose::local seen as floats. */
void ossa_slerp_tracks4(const float *keys, uint32_t stride, const ossa_track *tracks,
                        uint32_t count, float t, float *local);

/* Lerps `count` LINEAR translation or scale tracks at t into their targets, one track at a time
 * (lerp.c). keys: their vectors (x, y, z, 0) at key k in ossa_clip::batch_keys; key k + 1 is
 * OSSA_BATCH_KEY_STRIDE(count) floats further. local: ossa_pose::local seen as floats. */
void ossa_lerp_tracks(const float *keys, const ossa_track *tracks, uint32_t count, float t,
                      float *local);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define OSSA_ANIM_AVX512 1
/* 1 when this CPU runs the two functions below (AVX-512F and VL). */
int ossa_anim_avx512_supported(void);

/* Slerps `count` (1 to 16) LINEAR rotation tracks at t into their targets, sixteen lanes at once
 * (slerp_avx512.c). keys: their quaternions at key k in ossa_clip::batch_keys; key k + 1 is
 * `stride` floats further. local: ossa_pose::local seen as floats. */
void ossa_slerp_tracks16(const float *keys, uint32_t stride, const ossa_track *tracks,
                         uint32_t count, float t, float *local);

/* The same for `count` 1 to 4 tracks, one per 128-bit block, the two series of each slerp in
 * one register: about half the operations of the sixteen-lane kernel for a short last group. */
void ossa_slerp_tracks4_avx512(const float *keys, uint32_t stride, const ossa_track *tracks,
                               uint32_t count, float t, float *local);

/* ossa_lerp_tracks, four tracks per register (lerp_avx512.c). */
void ossa_lerp_tracks_avx512(const float *keys, const ossa_track *tracks, uint32_t count, float t,
                             float *local);
#endif

#endif
