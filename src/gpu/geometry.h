/* Vertex data shared by the uploads of document meshes and of models: triangle lists, normals,
 * GL buffers, and freeing a primitive's GL objects. */
#ifndef OSSA_GPU_GEOMETRY_H
#define OSSA_GPU_GEOMETRY_H

#include "gpu_internal.h"

/* Triangle list indices for any triangle mode (points and lines give none: they are skinned,
 * never drawn); `source` NULL means 0..n-1. Returns a malloc'ed array (never of 0 bytes) and the
 * count through *count; NULL when out of memory. */
uint32_t *gpu_triangle_indices(const uint32_t *source, uint32_t n, ossa_primitive_mode mode,
                               uint32_t *count);

/* Smooth normals from the triangles, for primitives that come without NORMAL. */
void gpu_compute_normals(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                         uint32_t index_count, float *normals);

/* A new buffer object of `size` bytes bound to target, filled from data. */
GLuint gpu_make_buffer(GLenum target, const void *data, size_t size, GLenum usage);

/* Frees the GL objects of a primitive (not its texture, which its owner frees). */
void gpu_primitive_release(gpu_primitive *primitive);

/* Replaces a primitive's positions and normals (3 floats per vertex; normals NULL: kept). */
void gpu_primitive_set_vertices(gpu_primitive *p, const float *positions, const float *normals);

#endif
