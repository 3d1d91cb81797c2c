/* A primitive's influences (every JOINTS_n/WEIGHTS_n set, any number of them) as the skinning
 * shader reads them: a buffer texture of (joint, weight) pairs, a fixed number per vertex,
 * indexed by gl_VertexID. The shader applies the rules of ossa/skin.h to them. */
#ifndef OSSA_GPU_INFLUENCE_UPLOAD_H
#define OSSA_GPU_INFLUENCE_UPLOAD_H

#include "gpu_internal.h"

/*
 * The input, as ossa_model_streams holds it: per vertex 4 * set_count joints (set 0's four,
 * then set 1's, ...) and as many weights, decoded (normalized integers per the glTF spec) but
 * not renormalised.
 */
typedef struct gpu_influence_streams {
    const uint16_t *joints;
    const float *weights;
    uint32_t set_count;
    uint32_t vertex_count;
} gpu_influence_streams;

/* Texels per vertex the packed form needs: half the largest number of positive weights of
 * any vertex, rounded up (0 when no vertex has one). */
uint32_t gpu_influence_texels_per_vertex(const gpu_influence_streams *streams);

/*
 * Packs the influences into vertex_count * texels_per_vertex RGBA32F texels: vertex v's pairs
 * (joint, weight) with a positive weight, in set order, two per texel from texel
 * v * texels_per_vertex on, then (0, 0) pairs. Weights that are zero, negative or NaN are
 * dropped here, as the CPU drops them; the shader stops at the first zero weight.
 */
void gpu_influence_pack(const gpu_influence_streams *streams, uint32_t texels_per_vertex,
                        float *texels);

/*
 * Packs and uploads the influences into out (zeroed first). A primitive without sets, or
 * whose weights are all zero, gets no texture (every vertex keeps its input position).
 * @return OSSA_ERROR_LIMIT when the texels exceed GL_MAX_TEXTURE_BUFFER_SIZE (the message
 *         names it), OSSA_ERROR_OUT_OF_MEMORY.
 */
ossa_result gpu_influences_upload(const gpu_influence_streams *streams, gpu_influences *out,
                                  ossa_error *error);

/* Deletes the GL objects and zeroes the struct. */
void gpu_influences_release(gpu_influences *influences);

/* Binds the texture (or the context's empty one) and sets the program's per-vertex count. */
void gpu_influences_bind(const ossa_gpu_context *context, const gpu_program *program,
                         const gpu_influences *influences);

#endif
