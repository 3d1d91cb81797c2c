/* The per-instance palettes and morph weights of N characters, written into mapped GL buffers. */
#include <stdlib.h>
#include <string.h>

#include "gpu_model.h"

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

ossa_result ossa_gpu_instances_create(const ossa_gpu_model *gpu, ossa_gpu_instances **out,
                                      ossa_error *error) {
    *out = NULL;
    if (!gpu) return gpu_fail(error, OSSA_ERROR_ARGUMENT, "no GPU model");
    ossa_gpu_instances *instances = calloc(1, sizeof *instances);
    if (!instances) return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    instances->model = gpu;
    gpu_frame_data_init(&instances->frame, gpu->context);
    *out = instances;
    return OSSA_OK;
}

void ossa_gpu_instances_destroy(ossa_gpu_instances *instances) {
    if (!instances) return;
    gpu_frame_data_release(&instances->frame);
    free(instances);
}

uint32_t ossa_gpu_instances_count(const ossa_gpu_instances *instances) {
    return instances->count;
}

/* out = placement * m for `count` 3x4 row matrices (placement NULL: a copy). */
static void place(float *out, const float *m, uint32_t count, const float *placement) {
    if (!placement) {
        memcpy(out, m, sizeof(float) * 12 * count);
        return;
    }
    const float *p = placement;
    for (uint32_t j = 0; j < count; j++, out += 12, m += 12) {
        float row[12];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                row[4 * r + c] = p[4 * r] * m[c] + p[4 * r + 1] * m[4 + c] +
                                 p[4 * r + 2] * m[8 + c] + (c == 3 ? p[4 * r + 3] : 0.0f);
        memcpy(out, row, sizeof row);
    }
}

/* Orphans the buffer's storage, gives it `bytes` and maps it for writing (NULL on failure). */
static void *map_fresh(GLuint buffer, size_t bytes) {
    glBindBuffer(GL_TEXTURE_BUFFER, buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    return glMapBufferRange(GL_TEXTURE_BUFFER, 0, (GLsizeiptr)bytes,
                            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
}

static int unmap(void) {
    GLboolean ok = glUnmapBuffer(GL_TEXTURE_BUFFER);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    return ok == GL_TRUE;
}

static void write_palettes(const ossa_gpu_model *gpu, ossa_character *const *characters,
                           uint32_t count, const float *placements, float *out) {
    for (uint32_t s = 0; s < gpu->palette_count; s++) {
        const gpu_palette_section *section = &gpu->palettes[s];
        for (uint32_t i = 0; i < count; i++) {
            const float *source =
                section->skin >= 0
                    ? ossa_character_palette(characters[i], (uint32_t)section->skin)
                    : ossa_character_world(characters[i]) + 12 * (size_t)section->node;
            size_t joint = (size_t)count * section->offset + (size_t)i * section->joint_count;
            place(out + 12 * joint, source, section->joint_count,
                  placements ? placements + 12 * (size_t)i : NULL);
        }
    }
    /* the placement section: what CPU-skinned vertices are drawn with */
    float *placement_joints = out + 12 * (size_t)count * (gpu->joints_per_instance - 1);
    for (uint32_t i = 0; i < count; i++)
        memcpy(placement_joints + 12 * (size_t)i,
               placements ? placements + 12 * (size_t)i : identity, sizeof identity);
}

static void write_weights(const ossa_gpu_model *gpu, ossa_character *const *characters,
                          uint32_t count, float *out) {
    for (uint32_t s = 0; s < gpu->weight_count; s++) {
        const gpu_weight_section *section = &gpu->weights[s];
        for (uint32_t i = 0; i < count; i++)
            memcpy(out + (size_t)count * section->offset + (size_t)i * section->count,
                   ossa_character_weights(characters[i]) + section->source,
                   sizeof(float) * section->count);
    }
}

ossa_result ossa_gpu_instances_upload(ossa_gpu_instances *instances,
                                      ossa_character *const *characters, uint32_t count,
                                      const float *placements, ossa_error *error) {
    const ossa_gpu_model *gpu = instances->model;
    if (count && !characters) return gpu_fail(error, OSSA_ERROR_ARGUMENT, "characters is NULL");
    uint64_t joints = (uint64_t)count * gpu->joints_per_instance;
    uint64_t weights = (uint64_t)count * gpu->weights_per_instance;
    uint64_t limit = (uint64_t)gpu->context->max_texture_buffer_texels;
    if (joints * 3 > limit || weights > limit)
        return gpu_fail(error, OSSA_ERROR_LIMIT,
                        "%u instances need %llu palette texels and %llu weights; the GL buffer "
                        "texture size is %llu texels",
                        count, (unsigned long long)(joints * 3), (unsigned long long)weights,
                        (unsigned long long)limit);
    for (uint32_t i = 0; i < count; i++) {
        if (!characters[i]) return gpu_fail(error, OSSA_ERROR_ARGUMENT, "character %u is NULL", i);
        if (ossa_character_model(characters[i]) != gpu->model)
            return gpu_fail(error, OSSA_ERROR_ARGUMENT,
                            "character %u belongs to another model than the GPU model's", i);
    }
    instances->count = 0;
    if (!count) return OSSA_OK;
    float *palette =
        map_fresh(instances->frame.palette_buffer, (size_t)joints * 12 * sizeof(float));
    if (palette) write_palettes(gpu, characters, count, placements, palette);
    int ok = palette && unmap();
    if (ok && weights) {
        float *out = map_fresh(instances->frame.weights_buffer, (size_t)weights * sizeof(float));
        if (out) write_weights(gpu, characters, count, out);
        ok = out && unmap();
    }
    if (!ok)
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "OpenGL error 0x%04x mapping the buffers",
                        (unsigned)glGetError());
    instances->count = count;
    return OSSA_OK;
}
