/* The per-instance palettes and morph weights of N characters, written into mapped GL buffers. */
#include <math.h>
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

/* out = a * b for 3x4 row matrices (out may not alias them). */
static void compose(const float *a, const float *b, float *out) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            out[4 * r + c] = a[4 * r] * b[c] + a[4 * r + 1] * b[4 + c] + a[4 * r + 2] * b[8 + c] +
                             (c == 3 ? a[4 * r + 3] : 0.0f);
}

/* The inverse of a 3x4 affine matrix; the identity when it is singular. */
static void invert(const float *m, float *out) {
    double a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9],
           i = m[10];
    double co[9] = {e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g,
                    c * d - a * f, d * h - e * g, b * g - a * h, a * e - b * d};
    double det = a * co[0] + b * co[3] + c * co[6];
    if (det == 0 || !isfinite(det)) {
        memcpy(out, identity, sizeof identity);
        return;
    }
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++)
            out[4 * r + k] = (float)(co[3 * r + k] / det);
        out[4 * r + 3] = -(out[4 * r] * m[3] + out[4 * r + 1] * m[7] + out[4 * r + 2] * m[11]);
    }
}

/* The joints of an instanced node's section for one character: world * instance k, or for the
 * CPU section world * instance k * world^-1; then the placement. */
static void write_instances(const gpu_palette_section *section, const float *world,
                            const float *placement, float *out) {
    float inverse[12];
    if (section->cpu) invert(world, inverse);
    for (uint32_t k = 0; k < section->joint_count; k++) {
        float m[12], moved[12];
        compose(world, section->instances + 12 * (size_t)k, m);
        if (section->cpu) {
            compose(m, inverse, moved);
            memcpy(m, moved, sizeof m);
        }
        place(out + 12 * (size_t)k, m, 1, placement);
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
            const float *placement = placements ? placements + 12 * (size_t)i : NULL;
            if (section->instances)
                write_instances(section, source, placement, out + 12 * joint);
            else
                place(out + 12 * joint, source, section->joint_count, placement);
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
        for (uint32_t i = 0; i < count; i++) /* once per static instance of the node */
            for (uint32_t copy = 0; copy < section->count; copy += section->targets)
                memcpy(out + (size_t)count * section->offset + (size_t)i * section->count + copy,
                       ossa_character_weights(characters[i]) + section->source,
                       sizeof(float) * section->targets);
    }
}

/* Each animated material of each character (slot by slot): GPU_MATERIAL_TEXELS texels. */
static void write_materials(const ossa_gpu_model *gpu, ossa_character *const *characters,
                            uint32_t count, float *out) {
    for (uint32_t s = 0; s < gpu->material_slot_count; s++)
        for (uint32_t i = 0; i < count; i++, out += 4 * GPU_MATERIAL_TEXELS) {
            ossa_model_material m = ossa_character_material(characters[i], gpu->slot_materials[s]);
            memcpy(out, m.base_color, 4 * sizeof(float));
            memcpy(out + 4, m.emissive, 3 * sizeof(float));
            out[7] = m.alpha_cutoff;
            for (int row = 0; row < 2; row++) {
                memcpy(out + 8 + 4 * row, m.uv_transform + 3 * row, 3 * sizeof(float));
                out[11 + 4 * row] = 0.0f;
                memcpy(out + 16 + 4 * row, m.emissive_uv_transform + 3 * row, 3 * sizeof(float));
                out[19 + 4 * row] = 0.0f;
            }
        }
}

ossa_result ossa_gpu_instances_upload(ossa_gpu_instances *instances,
                                      ossa_character *const *characters, uint32_t count,
                                      const float *placements, ossa_error *error) {
    const ossa_gpu_model *gpu = instances->model;
    if (count && !characters) return gpu_fail(error, OSSA_ERROR_ARGUMENT, "characters is NULL");
    uint64_t joints = (uint64_t)count * gpu->joints_per_instance;
    uint64_t weights = (uint64_t)count * gpu->weights_per_instance;
    uint64_t material_texels = (uint64_t)count * gpu->material_slot_count * GPU_MATERIAL_TEXELS;
    uint64_t limit = (uint64_t)gpu->context->max_texture_buffer_texels;
    if (joints * 3 > limit || weights > limit || material_texels > limit)
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
    if (ok && material_texels) {
        float *out = map_fresh(instances->frame.material_buffer,
                               (size_t)material_texels * 4 * sizeof(float));
        if (out) write_materials(gpu, characters, count, out);
        ok = out && unmap();
    }
    if (!ok)
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "OpenGL error 0x%04x mapping the buffers",
                        (unsigned)glGetError());
    instances->count = count;
    return OSSA_OK;
}
