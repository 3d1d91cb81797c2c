/* Skinning throughput for `ossa bench`: a prepared mesh, one or many threads, LBS or DQS. */
#ifndef OSSA_TOOL_BENCH_SKINNING_H
#define OSSA_TOOL_BENCH_SKINNING_H

#include <stddef.h>

#include "ossa/skin.h"
#include "ossa/thread_pool.h"

typedef struct bench_skin_result {
    double mverts_per_s;     /* best over the repetitions, original vertices per second / 1e6 */
    double bytes_per_vertex; /* the kernel's streams (ossa_skin_mesh_bytes_per_vertex): the
                                prepared inputs read and the outputs written, per vertex */
    double output_bytes_per_vertex; /* of which written */
    double rfo_bytes_per_vertex;    /* outputs written with ordinary stores, which read each
                                       line before writing it (read for ownership) */
    int nontemporal;                /* 1: every output went through non-temporal stores */
} bench_skin_result;

/*
 * Skins `instances` copies of the meshes (separate outputs, prepared order, positions and
 * normals) with a backend (AUTO: the best) repeatedly for about `seconds`; with a pool, the blocks
 * of all instances are spread over its threads (wall clock), else the calling thread's CPU clock
 * times the passes. Palettes: one per mesh. DQS converts each
 * instance's palettes to dual quaternions (ossa_skin_dual_quats) on the calling thread in every
 * pass, inside the timed part: a game converts every frame. Returns 0 on success.
 */
int bench_skinning(ossa_skin_mesh *const *meshes, const float *const *palettes,
                   const uint32_t *joint_counts, int mesh_count, ossa_skin_mode mode,
                   ossa_skin_backend backend, int instances, double seconds, ossa_thread_pool *pool,
                   bench_skin_result *out);

/* 1 when ossa_skin_mesh_run writes this mesh's packed, 64-byte aligned prepared-order outputs
 * with non-temporal stores on this backend with frame->stores = `stores` (the library's rule:
 * AVX-512 fast path, and STREAM, or AUTO with outputs of SKIN_NONTEMPORAL_BYTES or more). */
int bench_skin_nontemporal(const ossa_skin_mesh *mesh, const ossa_skin_output *out,
                           ossa_skin_backend backend, ossa_skin_stores stores);

/*
 * A synthetic mesh like a character's: `vertices` vertices with positions, normals and 4
 * non-zero influences over `joints` joints (each vertex's joints near one another, as bones
 * of one limb), float weights summing to one. Returns NULL when out of memory.
 */
ossa_skin_mesh *bench_synthetic_mesh(size_t vertices, uint32_t joints);

/* A palette of joint_count rigid transforms (rotation + translation) for a synthetic mesh. */
void bench_synthetic_palette(uint32_t joint_count, float *palette);

#endif
