/* GPU models: every primitive of an ossa_model uploaded, and the per-instance data layout. */
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "gpu_model.h"
#include "mesh_texture.h"

/* The palette section of a primitive: its skin's, or its node's world matrix when unskinned. */
static uint32_t palette_section(ossa_gpu_model *gpu, const ossa_model_primitive *info) {
    for (uint32_t s = 0; s < gpu->palette_count; s++) {
        const gpu_palette_section *section = &gpu->palettes[s];
        if (info->skin >= 0 ? section->skin == info->skin
                            : section->skin < 0 && section->node == info->node)
            return s;
    }
    gpu_palette_section *section = &gpu->palettes[gpu->palette_count];
    section->skin = info->skin;
    section->node = info->node;
    section->joint_count = info->skin >= 0 ? info->joint_count : 1;
    return gpu->palette_count++;
}

/* The weight section of a morphed primitive: its node's weights. */
static uint32_t weight_section(ossa_gpu_model *gpu, const ossa_model_primitive *info) {
    if (!info->target_count) return GPU_NO_SECTION;
    for (uint32_t s = 0; s < gpu->weight_count; s++)
        if (gpu->weights[s].source == info->weight_offset) return s;
    gpu_weight_section *section = &gpu->weights[gpu->weight_count];
    section->source = info->weight_offset;
    section->count = info->target_count;
    return gpu->weight_count++;
}

/* Offsets of the sections inside one instance's data; refuses sums past 32 bits. */
static int lay_out_sections(ossa_gpu_model *gpu) {
    uint64_t joints = 0, weights = 0;
    for (uint32_t s = 0; s < gpu->palette_count; s++) {
        gpu->palettes[s].offset = (uint32_t)joints;
        joints += gpu->palettes[s].joint_count;
        if (joints >= UINT32_MAX) return 0;
    }
    for (uint32_t s = 0; s < gpu->weight_count; s++) {
        gpu->weights[s].offset = (uint32_t)weights;
        weights += gpu->weights[s].count;
        if (weights >= UINT32_MAX) return 0;
    }
    gpu->joints_per_instance = (uint32_t)joints + 1; /* + the placement joint */
    gpu->weights_per_instance = (uint32_t)weights;
    return 1;
}

/* The texture of a material with an image, decoded once per material. */
static GLuint material_texture(ossa_gpu_model *gpu, int32_t material) {
    for (uint32_t t = 0; t < gpu->texture_count; t++)
        if (gpu->texture_materials[t] == material) return gpu->textures[t];
    ossa_model_material info = ossa_model_material_info(gpu->model, material);
    if (!info.image) return 0;
    GLuint texture = gpu_texture_from_image(info.image, info.image_size);
    gpu->texture_materials[gpu->texture_count] = material;
    gpu->textures[gpu->texture_count++] = texture;
    return texture;
}

ossa_result ossa_gpu_model_create(ossa_gpu_context *context, const ossa_model *model,
                                  const ossa_gpu_model_desc *desc, ossa_gpu_model **out,
                                  ossa_error *error) {
    *out = NULL;
    if (!context || !model) return gpu_fail(error, OSSA_ERROR_ARGUMENT, "no context or model");
    ossa_gpu_model_desc defaults = {0};
    if (!desc) desc = &defaults;
    uint32_t count = ossa_model_primitive_count(model);
    ossa_gpu_model *gpu = calloc(1, sizeof *gpu);
    if (gpu) {
        gpu->context = context;
        gpu->model = model;
        gpu->primitives = calloc((size_t)count + 1, sizeof *gpu->primitives);
        gpu->palettes = calloc((size_t)count + 1, sizeof *gpu->palettes);
        gpu->weights = calloc((size_t)count + 1, sizeof *gpu->weights);
        gpu->textures = calloc((size_t)count + 1, sizeof *gpu->textures);
        gpu->texture_materials = calloc((size_t)count + 1, sizeof *gpu->texture_materials);
    }
    if (!gpu || !gpu->primitives || !gpu->palettes || !gpu->weights || !gpu->textures ||
        !gpu->texture_materials) {
        ossa_gpu_model_destroy(gpu);
        return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < count; i++) {
        const ossa_model_primitive *info = ossa_model_primitive_info(model, i);
        gpu_model_primitive *p = &gpu->primitives[gpu->primitive_count++];
        uint64_t target_texels = (uint64_t)info->target_count * info->vertex_count * 2;
        ossa_result result =
            target_texels > (uint64_t)context->max_texture_buffer_texels
                ? gpu_fail(error, OSSA_ERROR_LIMIT,
                           "primitive %u: %u morph targets of %u vertices exceed the GL buffer "
                           "texture size (%lld texels)",
                           i, info->target_count, info->vertex_count,
                           (long long)context->max_texture_buffer_texels)
                : gpu_model_upload_primitive(model, i, desc, &p->gl, error);
        if (result != OSSA_OK) {
            ossa_gpu_model_destroy(gpu);
            return result;
        }
        p->target_count = info->target_count;
        p->palette_section = palette_section(gpu, info);
        p->weight_section = weight_section(gpu, info);
        p->gl.texture = material_texture(gpu, info->material);
    }
    if (!lay_out_sections(gpu)) {
        ossa_gpu_model_destroy(gpu);
        return gpu_fail(error, OSSA_ERROR_LIMIT, "more than 2^32 joints or weights per instance");
    }
    *out = gpu;
    return OSSA_OK;
}

void ossa_gpu_model_destroy(ossa_gpu_model *gpu) {
    if (!gpu) return;
    for (uint32_t i = 0; gpu->primitives && i < gpu->primitive_count; i++)
        gpu_primitive_release(&gpu->primitives[i].gl);
    for (uint32_t t = 0; t < gpu->texture_count; t++)
        if (gpu->textures[t]) glDeleteTextures(1, &gpu->textures[t]);
    free(gpu->primitives);
    free(gpu->palettes);
    free(gpu->weights);
    free(gpu->textures);
    free(gpu->texture_materials);
    free(gpu);
}

const ossa_model *ossa_gpu_model_source(const ossa_gpu_model *gpu) {
    return gpu->model;
}

uint32_t ossa_gpu_model_joints_per_instance(const ossa_gpu_model *gpu) {
    return gpu->joints_per_instance;
}

uint32_t ossa_gpu_model_weights_per_instance(const ossa_gpu_model *gpu) {
    return gpu->weights_per_instance;
}
