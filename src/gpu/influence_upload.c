/* Packing and uploading a primitive's influences for the skinning shader. */
#include "influence_upload.h"

#include <stdlib.h>
#include <string.h>

/* Positive weights of vertex v (the CPU skips the others: zero, negative, NaN). */
static uint32_t positive_weights(const gpu_influence_streams *s, size_t v) {
    const float *w = s->weights + (size_t)4 * s->set_count * v;
    uint32_t count = 0;
    for (uint32_t i = 0; i < 4 * s->set_count; i++)
        count += w[i] > 0.0f;
    return count;
}

uint32_t gpu_influence_texels_per_vertex(const gpu_influence_streams *streams) {
    uint32_t most = 0;
    for (size_t v = 0; streams->set_count && v < streams->vertex_count; v++) {
        uint32_t count = positive_weights(streams, v);
        if (count > most) most = count;
    }
    return (most + 1) / 2;
}

void gpu_influence_pack(const gpu_influence_streams *streams, uint32_t texels_per_vertex,
                        float *texels) {
    size_t stride = (size_t)4 * streams->set_count, slots = (size_t)2 * texels_per_vertex;
    for (size_t v = 0; v < streams->vertex_count; v++) {
        float *out = texels + 2 * slots * v;
        const uint16_t *j = streams->joints + stride * v;
        const float *w = streams->weights + stride * v;
        size_t n = 0;
        for (size_t i = 0; i < stride && n < slots; i++) {
            if (!(w[i] > 0.0f)) continue;
            out[2 * n] = (float)j[i]; /* exact: joints are below 2^16 */
            out[2 * n + 1] = w[i];
            n++;
        }
        memset(out + 2 * n, 0, (slots - n) * 2 * sizeof(float));
    }
}

ossa_result gpu_influences_upload(const gpu_influence_streams *streams, gpu_influences *out,
                                  ossa_error *error) {
    memset(out, 0, sizeof *out);
    out->set_count = streams->set_count;
    uint32_t per_vertex = gpu_influence_texels_per_vertex(streams);
    uint64_t texels = (uint64_t)per_vertex * streams->vertex_count;
    if (texels == 0) return OSSA_OK;
    GLint limit = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &limit);
    if (texels > (uint64_t)(limit > 0 ? limit : 0))
        return gpu_fail(error, OSSA_ERROR_LIMIT,
                        "the influences need %llu texels (%u per vertex), more than "
                        "GL_MAX_TEXTURE_BUFFER_SIZE (%d)",
                        (unsigned long long)texels, per_vertex, (int)limit);
    size_t bytes = (size_t)texels * 4 * sizeof(float); /* texels <= INT32_MAX: no wrap */
    float *packed = malloc(bytes);
    if (!packed) return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    gpu_influence_pack(streams, per_vertex, packed);
    out->texels_per_vertex = per_vertex;
    glGenBuffers(1, &out->buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, out->buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)bytes, packed, GL_STATIC_DRAW);
    free(packed);
    glGenTextures(1, &out->texture);
    glBindTexture(GL_TEXTURE_BUFFER, out->texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, out->buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    return OSSA_OK;
}

void gpu_influences_release(gpu_influences *influences) {
    if (influences->texture) glDeleteTextures(1, &influences->texture);
    if (influences->buffer) glDeleteBuffers(1, &influences->buffer);
    memset(influences, 0, sizeof *influences);
}

void gpu_influences_bind(const ossa_gpu_context *context, const gpu_program *program,
                         const gpu_influences *influences) {
    glUniform1i(program->influence_texels, (GLint)influences->texels_per_vertex);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_INFLUENCES);
    glBindTexture(GL_TEXTURE_BUFFER,
                  influences->texture ? influences->texture : context->empty_texture);
}
