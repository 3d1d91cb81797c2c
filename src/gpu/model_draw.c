/* Instanced drawing (and transform feedback) of the characters of a GPU model. */
#include "gpu_model.h"

/* Checks the instances and the range of desc; the number of instances drawn in *drawn. */
static ossa_result check_draw(const ossa_gpu_model *gpu, const ossa_gpu_instances *instances,
                              const ossa_gpu_draw_desc *desc, uint32_t *drawn, ossa_error *error) {
    if (!gpu || !instances || instances->model != gpu)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "the instances are not of this GPU model");
    uint64_t first = desc->first_instance, count = instances->count;
    uint64_t wanted =
        desc->instance_count ? desc->instance_count : count - (first < count ? first : count);
    if (first + wanted > count)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "instances %llu..%llu asked, %u uploaded",
                        (unsigned long long)first, (unsigned long long)(first + wanted),
                        instances->count);
    if (desc->path == OSSA_GPU_PALETTE_SSBO) {
        const ossa_gpu_context *context = gpu->context;
        if (!context->info.has_ssbo)
            return gpu_fail(error, OSSA_ERROR_UNSUPPORTED,
                            "shader storage buffers need OpenGL 4.3, this is %d.%d",
                            context->info.major, context->info.minor);
        uint64_t bytes = count * gpu->joints_per_instance * 12 * sizeof(float);
        if (bytes > (uint64_t)context->max_ssbo_bytes)
            return gpu_fail(error, OSSA_ERROR_LIMIT,
                            "%llu bytes of palettes exceed the GL shader storage block size (%lld)",
                            (unsigned long long)bytes, (long long)context->max_ssbo_bytes);
    }
    *drawn = (uint32_t)wanted;
    return OSSA_OK;
}

/* Where the instances of desc find the data of primitive p. */
static ossa_gpu_skinning primitive_skinning(const ossa_gpu_model *gpu, const gpu_model_primitive *p,
                                            const ossa_gpu_instances *instances,
                                            const ossa_gpu_draw_desc *desc, uint32_t drawn) {
    uint32_t n = instances->count, first = desc->first_instance;
    ossa_gpu_skinning k = {0};
    k.path = desc->path;
    k.method = desc->method;
    /* a node's static instances are consecutive draw instances: character c, instance s is
     * draw instance c * copies + s, with one joint each (see gpu_palette_section) */
    k.instance_count = drawn * p->copies;
    if (desc->vertices_skinned && p->cpu_section == GPU_NO_SECTION) {
        /* the placement joint; no skinning, no morphing */
        k.palette_base = n * (gpu->joints_per_instance - 1) + first;
        k.joint_count = 1;
        k.unskinned = 1;
        k.skip_morph = 1;
        return k;
    }
    uint32_t section = desc->vertices_skinned ? p->cpu_section : p->palette_section;
    const gpu_palette_section *palette = &gpu->palettes[section];
    k.palette_base = n * palette->offset + first * palette->joint_count;
    k.joint_count = palette->instances ? 1 : palette->joint_count;
    k.unskinned = palette->skin < 0;
    k.skip_morph = desc->vertices_skinned;
    if (p->weight_section != GPU_NO_SECTION) {
        const gpu_weight_section *weights = &gpu->weights[p->weight_section];
        k.weights_base = n * weights->offset + first * weights->count;
    }
    return k;
}

ossa_result ossa_gpu_renderer_draw_model(ossa_gpu_renderer *renderer, const ossa_gpu_model *gpu,
                                         const ossa_gpu_instances *instances,
                                         const ossa_gpu_draw_desc *desc, ossa_error *error) {
    ossa_gpu_draw_desc defaults = {0};
    if (!desc) desc = &defaults;
    uint32_t drawn = 0;
    ossa_result result = check_draw(gpu, instances, desc, &drawn, error);
    if (result != OSSA_OK || !drawn) return result;
    /* opaque and masked primitives first, then the blended ones over them */
    for (int blended = 0; blended < 2; blended++)
        for (uint32_t i = 0; i < gpu->primitive_count; i++) {
            const gpu_model_primitive *p = &gpu->primitives[i];
            if ((p->gl.material.alpha_mode == OSSA_ALPHA_BLEND) != blended) continue;
            ossa_gpu_skinning k = primitive_skinning(gpu, p, instances, desc, drawn);
            /* slot s of character c: texels from (s * count + c) * GPU_MATERIAL_TEXELS */
            gpu_instance_materials materials = {-1, 1};
            if (p->material_slot >= 0)
                materials.base = (int32_t)(((uint64_t)p->material_slot * instances->count +
                                            desc->first_instance) *
                                           GPU_MATERIAL_TEXELS);
            materials.copies = p->copies;
            gpu_renderer_draw_primitive(renderer, &p->gl, p->target_count, &instances->frame, &k,
                                        &materials);
        }
    return OSSA_OK;
}

ossa_result ossa_gpu_model_skin_feedback(ossa_gpu_context *context, const ossa_gpu_model *gpu,
                                         uint32_t primitive, const ossa_gpu_instances *instances,
                                         const ossa_gpu_draw_desc *desc, float *positions,
                                         float *normals, size_t vertex_capacity,
                                         ossa_error *error) {
    ossa_gpu_draw_desc defaults = {0};
    if (!desc) desc = &defaults;
    uint32_t drawn = 0;
    ossa_result result = check_draw(gpu, instances, desc, &drawn, error);
    if (result != OSSA_OK) return result;
    if (primitive >= gpu->primitive_count)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "no primitive %u (the model has %u)", primitive,
                        gpu->primitive_count);
    const gpu_model_primitive *p = &gpu->primitives[primitive];
    uint64_t needed = (uint64_t)drawn * p->copies * p->gl.vertex_count;
    if (needed > vertex_capacity)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT,
                        "%u instances (%u copies each) of %u vertices need %llu, the outputs hold "
                        "%zu",
                        drawn, p->copies, p->gl.vertex_count, (unsigned long long)needed,
                        vertex_capacity);
    if (!drawn) return OSSA_OK;
    ossa_gpu_skinning k = primitive_skinning(gpu, p, instances, desc, drawn);
    return gpu_feedback_primitive(context, &p->gl, p->target_count, &instances->frame, &k,
                                  positions, normals, error);
}
