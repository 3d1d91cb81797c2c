/* GPU models: every primitive of an ossa_model uploaded, and the per-instance data layout. */
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "gpu_model.h"
#include "mesh_texture.h"

/* The palette section of a primitive: its skin's, or its node's world matrices when unskinned
 * (cpu: the section that places its CPU-skinned vertices, for instanced nodes). */
static uint32_t palette_section(ossa_gpu_model *gpu, const ossa_model_primitive *info, int cpu) {
    for (uint32_t s = 0; s < gpu->palette_count; s++) {
        const gpu_palette_section *section = &gpu->palettes[s];
        if (info->skin >= 0
                ? section->skin == info->skin
                : section->skin < 0 && section->node == info->node && section->cpu == cpu)
            return s;
    }
    gpu_palette_section *section = &gpu->palettes[gpu->palette_count];
    section->skin = info->skin;
    section->node = info->node;
    section->cpu = cpu;
    section->joint_count = info->skin >= 0 ? info->joint_count : 1;
    if (info->skin < 0 && info->instance_count) {
        uint32_t count = 0;
        section->instances = ossa_model_node_instances(gpu->model, (uint32_t)info->node, &count);
        section->joint_count = count;
    }
    return gpu->palette_count++;
}

/* The weight section of a morphed primitive: its node's weights, once per static instance. */
static uint32_t weight_section(ossa_gpu_model *gpu, const ossa_model_primitive *info,
                               uint32_t copies) {
    if (!info->target_count) return GPU_NO_SECTION;
    for (uint32_t s = 0; s < gpu->weight_count; s++)
        if (gpu->weights[s].source == info->weight_offset) return s;
    gpu_weight_section *section = &gpu->weights[gpu->weight_count];
    section->source = info->weight_offset;
    section->targets = info->target_count;
    uint64_t count = (uint64_t)info->target_count * copies; /* past 32 bits: refused below */
    section->count = count < UINT32_MAX ? (uint32_t)count : UINT32_MAX;
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

/* The base colour (emissive 0) or emissive (1) texture of a material with an image, decoded once
 * per material; the table keys are 2 * material + emissive. */
static GLuint material_texture(ossa_gpu_model *gpu, int32_t material, int emissive) {
    int32_t key = 2 * material + emissive;
    for (uint32_t t = 0; t < gpu->texture_count; t++)
        if (gpu->texture_materials[t] == key) return gpu->textures[t];
    ossa_model_material info = ossa_model_material_info(gpu->model, material);
    const uint8_t *image = emissive ? info.emissive_image : info.image;
    if (!image) return 0;
    GLuint texture =
        gpu_texture_from_image(image, emissive ? info.emissive_image_size : info.image_size);
    gpu->texture_materials[gpu->texture_count] = key;
    gpu->textures[gpu->texture_count++] = texture;
    return texture;
}

/* The slot of an animated material (one per material), -1 for a material no clip animates. */
static int32_t material_slot(ossa_gpu_model *gpu, int32_t material) {
    if (!ossa_model_material_animated(gpu->model, material)) return -1;
    uint32_t slot = 0;
    while (slot < gpu->material_slot_count && gpu->slot_materials[slot] != material)
        slot++;
    if (slot == gpu->material_slot_count)
        gpu->slot_materials[gpu->material_slot_count++] = material;
    return (int32_t)slot;
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
        gpu->palettes = calloc(2 * (size_t)count + 1, sizeof *gpu->palettes);
        gpu->weights = calloc((size_t)count + 1, sizeof *gpu->weights);
        gpu->textures = calloc(2 * (size_t)count + 1, sizeof *gpu->textures);
        gpu->texture_materials = calloc(2 * (size_t)count + 1, sizeof *gpu->texture_materials);
        gpu->slot_materials = calloc((size_t)count + 1, sizeof *gpu->slot_materials);
    }
    if (!gpu || !gpu->primitives || !gpu->palettes || !gpu->weights || !gpu->textures ||
        !gpu->texture_materials || !gpu->slot_materials) {
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
        p->copies = info->skin < 0 && info->instance_count ? info->instance_count : 1;
        p->palette_section = palette_section(gpu, info, 0);
        p->cpu_section =
            info->skin < 0 && info->instance_count ? palette_section(gpu, info, 1) : GPU_NO_SECTION;
        p->weight_section = weight_section(gpu, info, p->copies);
        p->gl.texture = material_texture(gpu, info->material, 0);
        p->gl.emissive_texture = material_texture(gpu, info->material, 1);
        p->material_slot = material_slot(gpu, info->material);
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
    free(gpu->slot_materials);
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
