/* A CPU-skinned crowd of real characters for `ossa bench`: every character of a model with its
 * own pose, palette and outputs, skinned through the model's prepared meshes on a thread pool. */
#ifndef OSSA_TOOL_BENCH_SKIN_CROWD_H
#define OSSA_TOOL_BENCH_SKIN_CROWD_H

#include <stddef.h>

#include "bench_skinning.h"
#include "ossa/skin.h"
#include "ossa/thread_pool.h"

typedef struct bench_skin_crowd bench_skin_crowd;

/*
 * Loads the model (ossa_model), lays out `characters` characters in one block and poses each
 * with ossa_characters_update at its own time of clip 0 (staggered over the clip; the rest pose
 * without clips), then allocates every character's outputs: positions and, where present,
 * normals of every skinned primitive, prepared order. Returns NULL (a message on stderr) when
 * the model cannot be loaded or memory runs out; a model without skinned primitives gives a
 * crowd of 0 vertices (bench_skin_crowd_vertices), which has nothing to run.
 */
bench_skin_crowd *bench_skin_crowd_create(const char *model_path, int characters);

void bench_skin_crowd_free(bench_skin_crowd *crowd);

/* Skinned vertices of one frame: characters x the vertices of the skinned primitives. */
size_t bench_skin_crowd_vertices(const bench_skin_crowd *crowd);

/* Bytes of one frame's outputs (positions, and normals where the meshes have them). */
size_t bench_skin_crowd_output_bytes(const bench_skin_crowd *crowd);

/*
 * Skins every character (LBS from its palette, or DQS after converting its palettes with
 * ossa_skin_dual_quats inside the timed pass) repeatedly for about `seconds`; with a pool,
 * characters are spread over its threads. The shared prepared meshes stay in cache; what goes to
 * memory is each character's palette (read) and its outputs (written, with frame->stores =
 * `stores`). out: best pass; bytes_per_vertex counts the palette (or dual quaternion source)
 * reads, the outputs and, for DQS, the dual quaternion tables written; rfo_bytes_per_vertex
 * what was written with ordinary stores. Returns 0 on success.
 */
int bench_skin_crowd_run(bench_skin_crowd *crowd, ossa_skin_mode mode, ossa_skin_backend backend,
                         ossa_skin_stores stores, double seconds, ossa_thread_pool *pool,
                         bench_skin_result *out);

#endif
