/* Uploads one primitive of a model from its decoded streams (the document may be gone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "gpu_model.h"
#include "influence_upload.h"

static ossa_result fail_at(ossa_error *error, const ossa_model *model, uint32_t index,
                           ossa_result code, const char *message) {
    gpu_fail(error, code, "%s", message);
    const ossa_model_primitive *info = ossa_model_primitive_info(model, index);
    if (error && info) {
        snprintf(error->file, sizeof error->file, "%s", ossa_model_file(model));
        snprintf(error->path, sizeof error->path, "meshes[%u].primitives[%u]", info->mesh,
                 info->primitive);
    }
    return code;
}

static void float_attribute(GLuint location, GLint size) {
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, 0, NULL);
}

/* Morph displacements as 2 RGBA32F texels (position, normal) per target and vertex. */
static int upload_targets(gpu_primitive *p, const ossa_model_streams *s, uint32_t targets) {
    size_t texels = (size_t)targets * p->vertex_count * 2;
    float *data = calloc(texels * 4, sizeof(float));
    if (!data) return 0;
    for (size_t t = 0; t < targets; t++)
        for (size_t v = 0; v < p->vertex_count; v++) {
            size_t from = 3 * (t * p->vertex_count + v), to = 8 * (t * p->vertex_count + v);
            if (s->target_positions) memcpy(data + to, s->target_positions + from, 12);
            if (s->target_normals) memcpy(data + to + 4, s->target_normals + from, 12);
        }
    p->targets_buffer =
        gpu_make_buffer(GL_TEXTURE_BUFFER, data, texels * 4 * sizeof(float), GL_STATIC_DRAW);
    free(data);
    glGenTextures(1, &p->targets_texture);
    glBindTexture(GL_TEXTURE_BUFFER, p->targets_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, p->targets_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    return 1;
}

/* Positions, normals (computed when absent), TEXCOORD_0 and the triangle list. */
static ossa_result upload_vertices(gpu_primitive *p, const ossa_model_primitive *info,
                                   const ossa_model_streams *s, GLenum usage) {
    uint32_t given = s->indices ? info->index_count : info->vertex_count;
    uint32_t *indices =
        gpu_triangle_indices(s->indices, given, (ossa_primitive_mode)info->mode, &p->index_count);
    float *computed = s->normals ? NULL : malloc(sizeof(float) * 3 * ((size_t)p->vertex_count + 1));
    if (!indices || (!s->normals && !computed)) {
        free(indices);
        free(computed);
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < p->index_count; i++)
        if (indices[i] >= p->vertex_count) {
            free(indices);
            free(computed);
            return OSSA_ERROR_INVALID;
        }
    if (computed)
        gpu_compute_normals(s->positions, p->vertex_count, indices, p->index_count, computed);
    size_t bytes3 = sizeof(float) * 3 * p->vertex_count;
    p->buffers[BUF_POSITION] = gpu_make_buffer(GL_ARRAY_BUFFER, s->positions, bytes3, usage);
    float_attribute(GPU_ATTR_POSITION, 3);
    p->buffers[BUF_NORMAL] =
        gpu_make_buffer(GL_ARRAY_BUFFER, computed ? computed : s->normals, bytes3, usage);
    float_attribute(GPU_ATTR_NORMAL, 3);
    if (s->material_texcoords) { /* the set the base colour texture reads */
        p->buffers[BUF_UV] = gpu_make_buffer(GL_ARRAY_BUFFER, s->material_texcoords,
                                             sizeof(float) * 2 * p->vertex_count, GL_STATIC_DRAW);
        float_attribute(GPU_ATTR_UV, 2);
    }
    p->buffers[BUF_INDEX] = gpu_make_buffer(
        GL_ELEMENT_ARRAY_BUFFER, indices, sizeof(uint32_t) * (p->index_count + 1), GL_STATIC_DRAW);
    free(indices);
    free(computed);
    return OSSA_OK;
}

ossa_result gpu_model_upload_primitive(const ossa_model *model, uint32_t index,
                                       const ossa_gpu_model_desc *desc, gpu_primitive *p,
                                       ossa_error *error) {
    const ossa_model_primitive *info = ossa_model_primitive_info(model, index);
    ossa_model_streams s = ossa_model_primitive_streams(model, index);
    if (!info || !s.positions || info->vertex_count > UINT32_MAX / 8)
        return fail_at(error, model, index, OSSA_ERROR_UNSUPPORTED,
                       "primitive without POSITION or too large");
    p->vertex_count = info->vertex_count;
    ossa_model_material material = ossa_model_material_info(model, info->material);
    gpu_material_set(&p->material, &material);

    glGenVertexArrays(1, &p->vao);
    glBindVertexArray(p->vao);
    ossa_result result =
        upload_vertices(p, info, &s, desc->dynamic_vertices ? GL_DYNAMIC_DRAW : GL_STATIC_DRAW);
    /* every JOINTS_n/WEIGHTS_n set, as the streams hold them (the shader renormalises) */
    gpu_influence_streams influences = {s.joints, s.weights, info->set_count, info->vertex_count};
    ossa_error refused;
    if (result == OSSA_OK && info->skin >= 0 && s.joints && s.weights &&
        gpu_influences_upload(&influences, &p->influences, &refused) != OSSA_OK) {
        glBindVertexArray(0);
        return fail_at(error, model, index, refused.code, refused.message);
    }
    if (result == OSSA_OK && info->target_count && !upload_targets(p, &s, info->target_count))
        result = OSSA_ERROR_OUT_OF_MEMORY;
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (result == OSSA_ERROR_INVALID)
        return fail_at(error, model, index, result, "index out of range of the vertices");
    if (result != OSSA_OK) return fail_at(error, model, index, result, "out of memory");
    return OSSA_OK;
}

ossa_result ossa_gpu_model_set_vertices(ossa_gpu_model *gpu, uint32_t primitive,
                                        const float *positions, const float *normals,
                                        uint32_t vertex_count, ossa_error *error) {
    if (primitive >= gpu->primitive_count)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "no primitive %u (the model has %u)", primitive,
                        gpu->primitive_count);
    gpu_primitive *p = &gpu->primitives[primitive].gl;
    if (!positions || vertex_count != p->vertex_count)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "primitive %u has %u vertices, %u given%s",
                        primitive, p->vertex_count, vertex_count,
                        positions ? "" : " (positions NULL)");
    gpu_primitive_set_vertices(p, positions, normals);
    return OSSA_OK;
}
