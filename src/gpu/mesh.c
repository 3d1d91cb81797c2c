/* Uploads a glTF mesh: vertex arrays per primitive, morph targets, materials. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"
#include "geometry.h"
#include "influence_upload.h"
#include "mesh_texture.h"

typedef struct upload_state {
    const ossa_document *document;
    ossa_gpu_mesh *mesh;
    ossa_error *error;
    const char *where; /* JSON path prefix for messages */
} upload_state;

static ossa_result fail_at(upload_state *s, ossa_result code, const char *message) {
    gpu_fail(s->error, code, "%s", message);
    if (s->error) {
        snprintf(s->error->file, sizeof s->error->file, "%s",
                 s->document->file ? s->document->file : "");
        snprintf(s->error->path, sizeof s->error->path, "%s", s->where);
    }
    return code;
}

static void *alloc_array(uint64_t count, size_t size) {
    return count ? calloc((size_t)count, size) : malloc(size);
}

/* Reads a float accessor (components floats per element) into a fresh array. */
static float *read_floats(upload_state *s, int32_t accessor, uint64_t count, uint32_t components) {
    float *out = alloc_array(count * components, sizeof(float));
    if (!out) fail_at(s, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    if (!out) return NULL;
    if (ossa_accessor_read_float(s->document, accessor, 0, count, out) != OSSA_OK) {
        free(out);
        fail_at(s, OSSA_ERROR_INVALID, "an accessor of the primitive cannot be read");
        return NULL;
    }
    return out;
}

static uint32_t *read_uints(upload_state *s, int32_t accessor, uint64_t count,
                            uint32_t components) {
    uint32_t *out = alloc_array(count * components, sizeof(uint32_t));
    if (!out) fail_at(s, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    if (!out) return NULL;
    if (ossa_accessor_read_uint(s->document, accessor, 0, count, out) != OSSA_OK) {
        free(out);
        fail_at(s, OSSA_ERROR_INVALID, "an accessor of the primitive cannot be read");
        return NULL;
    }
    return out;
}

static GLuint make_buffer(GLenum target, const void *data, size_t size) {
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(target, buffer);
    glBufferData(target, (GLsizeiptr)size, data, GL_STATIC_DRAW);
    return buffer;
}

/* Every JOINTS_n/WEIGHTS_n set decoded into the layout of ossa_model_streams (4 * sets joints
 * and weights per vertex), then packed and uploaded by gpu_influences_upload. */
static ossa_result upload_influences(upload_state *s, const ossa_primitive *source,
                                     gpu_primitive *p) {
    uint32_t sets = source->influence_sets, n = p->vertex_count;
    uint64_t stride = 4 * (uint64_t)sets;
    uint16_t *joints = alloc_array(stride * n, sizeof(uint16_t));
    float *weights = alloc_array(stride * n, sizeof(float));
    ossa_result result = joints && weights ? OSSA_OK : OSSA_ERROR_OUT_OF_MEMORY;
    if (result != OSSA_OK) fail_at(s, result, "out of memory");
    for (uint32_t set = 0; set < sets && result == OSSA_OK; set++) {
        uint32_t *j = read_uints(s, source->joints[set], n, 4);
        float *w = j ? read_floats(s, source->weights[set], n, 4) : NULL;
        for (uint64_t v = 0; w && v < n; v++)
            for (int k = 0; k < 4; k++) {
                joints[stride * v + 4 * set + k] = (uint16_t)j[4 * v + k]; /* u8 or u16 */
                weights[stride * v + 4 * set + k] = w[4 * v + k];
            }
        if (!w) result = s->error->code;
        free(j);
        free(w);
    }
    gpu_influence_streams streams = {joints, weights, sets, n};
    if (result == OSSA_OK && gpu_influences_upload(&streams, &p->influences, s->error)) {
        char message[sizeof s->error->message];
        snprintf(message, sizeof message, "%s", s->error->message);
        result = fail_at(s, s->error->code, message);
    }
    free(joints);
    free(weights);
    return result;
}

/* Morph displacements as 2 RGBA32F texels (position, normal) per target and vertex. */
static ossa_result upload_targets(upload_state *s, const ossa_primitive *source, gpu_primitive *p) {
    uint64_t texels = (uint64_t)source->target_count * p->vertex_count * 2;
    float *data = alloc_array(texels * 4, sizeof(float));
    float *scratch = alloc_array((uint64_t)p->vertex_count * 3, sizeof(float));
    ossa_result result = OSSA_OK;
    if (!data || !scratch) result = fail_at(s, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t t = 0; t < source->target_count && result == OSSA_OK; t++) {
        int32_t accessors[2] = {source->targets[t].position, source->targets[t].normal};
        for (int k = 0; k < 2 && result == OSSA_OK; k++) {
            if (accessors[k] < 0) continue;
            if (ossa_accessor_read_float(s->document, accessors[k], 0, p->vertex_count, scratch) !=
                OSSA_OK)
                result = fail_at(s, OSSA_ERROR_INVALID, "a morph target cannot be read");
            for (uint32_t v = 0; v < p->vertex_count && result == OSSA_OK; v++)
                memcpy(data + 4 * (2 * ((uint64_t)t * p->vertex_count + v) + k), scratch + 3 * v,
                       3 * sizeof(float));
        }
    }
    if (result == OSSA_OK) {
        p->targets_buffer = make_buffer(GL_TEXTURE_BUFFER, data, texels * 4 * sizeof(float));
        glGenTextures(1, &p->targets_texture);
        glBindTexture(GL_TEXTURE_BUFFER, p->targets_texture);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, p->targets_buffer);
        glBindTexture(GL_TEXTURE_BUFFER, 0);
    }
    free(data);
    free(scratch);
    return result;
}

static void set_material(upload_state *s, const ossa_primitive *source, gpu_primitive *p,
                         uint32_t *uv_set) {
    *uv_set = 0;
    if (source->material < 0) {
        gpu_material_set(&p->material, NULL);
        return;
    }
    const ossa_material *material = &s->document->materials[source->material];
    /* the document's material as the model would carry it (its image is not needed here) */
    ossa_model_material as_model;
    memset(&as_model, 0, sizeof as_model);
    memcpy(as_model.base_color, material->base_color_factor, sizeof as_model.base_color);
    for (int k = 0; k < 3; k++)
        as_model.emissive[k] = material->emissive_factor[k] * material->emissive_strength;
    as_model.unlit = material->unlit;
    as_model.double_sided = material->double_sided;
    as_model.alpha_mode = material->alpha_mode;
    as_model.alpha_cutoff = material->alpha_cutoff;
    const ossa_texture_ref *base = &material->base_color_texture,
                           *glow = &material->emissive_texture;
    ossa_texture_transform_matrix(base->index >= 0 ? &base->transform : NULL,
                                  as_model.uv_transform);
    ossa_texture_transform_matrix(glow->index >= 0 ? &glow->transform : NULL,
                                  as_model.emissive_uv_transform);
    gpu_material_set(&p->material, &as_model);
    /* one set of texture coordinates: the base colour texture's, else the emissive one's */
    *uv_set = base->index >= 0 ? base->texcoord : glow->index >= 0 ? glow->texcoord : 0;
    if (glow->index >= 0 && glow->texcoord == *uv_set)
        p->emissive_texture = gpu_mesh_texture(s->mesh, s->document, glow->index);
    if (base->index >= 0) p->texture = gpu_mesh_texture(s->mesh, s->document, base->index);
}

static ossa_result upload_primitive(upload_state *s, const ossa_primitive *source,
                                    gpu_primitive *p) {
    if (source->position < 0 || source->vertex_count > UINT32_MAX / 8)
        return fail_at(s, OSSA_ERROR_UNSUPPORTED, "primitive without POSITION or too large");
    p->vertex_count = (uint32_t)source->vertex_count;

    uint32_t *given = NULL, given_count = p->vertex_count;
    if (source->indices >= 0) {
        given_count = (uint32_t)s->document->accessors[source->indices].count;
        given = read_uints(s, source->indices, given_count, 1);
        if (!given) return s->error->code;
    }
    uint32_t *indices = gpu_triangle_indices(given, given_count, source->mode, &p->index_count);
    free(given);
    float *positions = read_floats(s, source->position, p->vertex_count, 3);
    float *normals = alloc_array((uint64_t)p->vertex_count * 3, sizeof(float));
    ossa_result result = OSSA_OK;
    if (!indices || !positions || !normals)
        result =
            s->error->code ? s->error->code : fail_at(s, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < p->index_count && result == OSSA_OK; i++)
        if (indices[i] >= p->vertex_count)
            result = fail_at(s, OSSA_ERROR_INVALID, "index out of range of the vertices");
    if (result == OSSA_OK && source->normal >= 0) {
        if (ossa_accessor_read_float(s->document, source->normal, 0, p->vertex_count, normals) !=
            OSSA_OK)
            result = fail_at(s, OSSA_ERROR_INVALID, "NORMAL cannot be read");
    } else if (result == OSSA_OK) {
        gpu_compute_normals(positions, p->vertex_count, indices, p->index_count, normals);
    }

    glGenVertexArrays(1, &p->vao);
    glBindVertexArray(p->vao);
    if (result == OSSA_OK) {
        size_t bytes3 = sizeof(float) * 3 * p->vertex_count;
        p->buffers[BUF_POSITION] = make_buffer(GL_ARRAY_BUFFER, positions, bytes3);
        glEnableVertexAttribArray(GPU_ATTR_POSITION);
        glVertexAttribPointer(GPU_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 0, NULL);
        p->buffers[BUF_NORMAL] = make_buffer(GL_ARRAY_BUFFER, normals, bytes3);
        glEnableVertexAttribArray(GPU_ATTR_NORMAL);
        glVertexAttribPointer(GPU_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 0, NULL);
        p->buffers[BUF_INDEX] =
            make_buffer(GL_ELEMENT_ARRAY_BUFFER, indices, sizeof(uint32_t) * (p->index_count + 1));
    }
    free(indices);
    free(positions);
    free(normals);

    uint32_t uv_set = 0;
    if (result == OSSA_OK) set_material(s, source, p, &uv_set);
    for (uint32_t a = 0; a < source->attribute_count && result == OSSA_OK; a++) {
        const ossa_attribute *attribute = &source->attributes[a];
        if (attribute->semantic != OSSA_SEMANTIC_TEXCOORD || attribute->set != uv_set) continue;
        float *uv = read_floats(s, attribute->accessor, p->vertex_count, 2);
        if (!uv) {
            result = s->error->code;
            break;
        }
        p->buffers[BUF_UV] = make_buffer(GL_ARRAY_BUFFER, uv, sizeof(float) * 2 * p->vertex_count);
        free(uv);
        glEnableVertexAttribArray(GPU_ATTR_UV);
        glVertexAttribPointer(GPU_ATTR_UV, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    }
    if (result == OSSA_OK && source->influence_sets) result = upload_influences(s, source, p);
    if (result == OSSA_OK && source->target_count) result = upload_targets(s, source, p);
    glBindVertexArray(0);
    return result;
}

ossa_result ossa_gpu_mesh_create(ossa_gpu_context *context, const ossa_document *document,
                                 int32_t mesh_index, ossa_gpu_mesh **out, ossa_error *error) {
    *out = NULL;
    ossa_error local;
    if (!error) error = &local;
    memset(error, 0, sizeof *error);
    if (mesh_index < 0 || (uint32_t)mesh_index >= document->mesh_count)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "no mesh %d", (int)mesh_index);
    const ossa_mesh *source = &document->meshes[mesh_index];
    ossa_gpu_mesh *mesh = calloc(1, sizeof *mesh);
    if (mesh) mesh->primitives = calloc(source->primitive_count + 1, sizeof(gpu_primitive));
    if (mesh) mesh->textures = calloc(document->texture_count + 1, sizeof(GLuint));
    if (!mesh || !mesh->primitives || !mesh->textures) {
        ossa_gpu_mesh_destroy(mesh);
        return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    mesh->context = context;
    mesh->target_count = source->target_count;
    mesh->texture_count = document->texture_count;
    char where[64];
    upload_state state = {document, mesh, error, where};
    for (uint32_t i = 0; i < source->primitive_count; i++) {
        snprintf(where, sizeof where, "meshes[%d].primitives[%u]", (int)mesh_index, i);
        ossa_result result = upload_primitive(&state, &source->primitives[i],
                                              &mesh->primitives[mesh->primitive_count++]);
        if (result != OSSA_OK) {
            ossa_gpu_mesh_destroy(mesh);
            return result;
        }
    }
    *out = mesh;
    return OSSA_OK;
}

void ossa_gpu_mesh_destroy(ossa_gpu_mesh *mesh) {
    if (!mesh) return;
    for (uint32_t i = 0; mesh->primitives && i < mesh->primitive_count; i++)
        gpu_primitive_release(&mesh->primitives[i]);
    if (mesh->textures) glDeleteTextures((GLsizei)mesh->texture_count, mesh->textures);
    free(mesh->primitives);
    free(mesh->textures);
    free(mesh);
}

uint32_t ossa_gpu_mesh_primitive_count(const ossa_gpu_mesh *mesh) {
    return mesh->primitive_count;
}

uint32_t ossa_gpu_mesh_vertex_count(const ossa_gpu_mesh *mesh, uint32_t primitive) {
    return primitive < mesh->primitive_count ? mesh->primitives[primitive].vertex_count : 0;
}

uint32_t ossa_gpu_mesh_target_count(const ossa_gpu_mesh *mesh) {
    return mesh->target_count;
}

void ossa_gpu_mesh_update_vertices(ossa_gpu_mesh *mesh, uint32_t primitive, const float *positions,
                                   const float *normals) {
    if (primitive >= mesh->primitive_count) return;
    gpu_primitive_set_vertices(&mesh->primitives[primitive], positions, normals);
}
