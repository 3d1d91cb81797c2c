/* Decoding a document primitive into the model's streams (one decoder for the CPU and the GPU),
 * and preparing them for the CPU skinning kernels. */
#include <stdio.h>
#include <string.h>

#include "model/model_internal.h"
#include "skin/influences.h"

static ossa_result out_of_memory(ossa_error *error, const char *path) {
    return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, path, "out of memory");
}

/* Reads `count` elements of accessor `index` as `components` floats each into owned memory;
 * *out stays NULL when index is -1. */
static ossa_result read_floats(const ossa_document *doc, int32_t index, uint64_t count,
                               uint32_t components, ossa_owned *owned, const float **out,
                               const char *path, ossa_error *error) {
    *out = NULL;
    if (index < 0) return OSSA_OK;
    const ossa_accessor *a = &doc->accessors[index];
    if (a->components != components || a->count < count)
        return ossa_model_fail(error, OSSA_ERROR_INVALID, NULL, path,
                               "a vertex stream has the wrong type or count");
    float *data = ossa_owned_alloc(owned, (size_t)count * components, sizeof(float));
    if (!data) return out_of_memory(error, path);
    *out = data;
    return ossa_accessor_read_float(doc, index, 0, count, data);
}

/* Joints and weights of every set, interleaved per vertex: set 0's four, set 1's four, ... */
static ossa_result read_influences(const ossa_document *doc, const ossa_primitive *prim, uint64_t n,
                                   ossa_owned *owned, ossa_model_streams *streams, const char *path,
                                   ossa_error *error) {
    uint32_t sets = prim->influence_sets;
    size_t per_vertex = 4 * (size_t)sets;
    uint16_t *joints = ossa_owned_alloc(owned, (size_t)n * per_vertex, sizeof *joints);
    float *weights = ossa_owned_alloc(owned, (size_t)n * per_vertex, sizeof *weights);
    if (!joints || !weights) return out_of_memory(error, path);
    ossa_error decoding; /* the one decoder (skin/influences.h) says what is wrong */
    ossa_result r = skin_decode_influences(doc, prim, sets, (size_t)n, joints, weights, &decoding);
    if (r != OSSA_OK) return ossa_model_fail(error, r, NULL, path, decoding.message);
    streams->joints = joints;
    streams->weights = weights;
    return OSSA_OK;
}

/* Displacements of every target, target after target; a target without a stream reads 0. */
static ossa_result read_targets(const ossa_document *doc, const ossa_primitive *prim, uint64_t n,
                                ossa_owned *owned, ossa_model_streams *streams, const char *path,
                                ossa_error *error) {
    const float **dst[3] = {&streams->target_positions, &streams->target_normals,
                            &streams->target_tangents};
    for (int k = 0; k < 3; k++) {
        int used = 0;
        for (uint32_t t = 0; t < prim->target_count; t++) {
            const ossa_morph_target *mt = &prim->targets[t];
            used |= (k == 0 ? mt->position : k == 1 ? mt->normal : mt->tangent) >= 0;
        }
        if (!used) continue;
        float *all = ossa_owned_alloc(owned, (size_t)n * 3 * prim->target_count, sizeof(float));
        if (!all) return out_of_memory(error, path);
        for (uint32_t t = 0; t < prim->target_count; t++) {
            const ossa_morph_target *mt = &prim->targets[t];
            int32_t index = k == 0 ? mt->position : k == 1 ? mt->normal : mt->tangent;
            if (index < 0) continue;
            const ossa_accessor *a = &doc->accessors[index];
            if (a->components != 3 || a->count < n)
                return ossa_model_fail(error, OSSA_ERROR_INVALID, NULL, path,
                                       "a morph target stream is not VEC3 with a value per vertex");
            ossa_result r = ossa_accessor_read_float(doc, index, 0, n, all + (size_t)t * n * 3);
            if (r != OSSA_OK)
                return ossa_model_fail(error, r, NULL, path, "a morph target cannot be read");
        }
        *dst[k] = all;
    }
    return OSSA_OK;
}

static ossa_result read_indices(const ossa_document *doc, const ossa_primitive *prim,
                                uint64_t vertex_count, ossa_owned *owned,
                                ossa_model_streams *streams, const char *path, ossa_error *error) {
    if (prim->indices < 0) return OSSA_OK;
    uint64_t count = doc->accessors[prim->indices].count;
    uint32_t *indices = ossa_owned_alloc(owned, (size_t)count, sizeof *indices);
    if (!indices) return out_of_memory(error, path);
    ossa_result r = ossa_accessor_read_uint(doc, prim->indices, 0, count, indices);
    if (r != OSSA_OK) return ossa_model_fail(error, r, NULL, path, "the indices cannot be read");
    for (uint64_t i = 0; i < count; i++)
        if (indices[i] >= vertex_count)
            return ossa_model_fail(error, OSSA_ERROR_INVALID, NULL, path,
                                   "an index is past the last vertex");
    streams->indices = indices;
    return OSSA_OK;
}

ossa_result ossa_model_decode_primitive(const ossa_document *doc, uint32_t mesh, uint32_t primitive,
                                        ossa_owned *owned, ossa_model_streams *streams,
                                        ossa_error *error) {
    char path[64];
    snprintf(path, sizeof path, "meshes[%u].primitives[%u]", mesh, primitive);
    const ossa_primitive *prim = &doc->meshes[mesh].primitives[primitive];
    uint64_t n = prim->vertex_count;
    memset(streams, 0, sizeof *streams);
    ossa_result r = read_floats(doc, prim->position, n, 3, owned, &streams->positions, path, error);
    if (r == OSSA_OK)
        r = read_floats(doc, prim->normal, n, 3, owned, &streams->normals, path, error);
    if (r == OSSA_OK)
        r = read_floats(doc, prim->tangent, n, 4, owned, &streams->tangents, path, error);
    if (r == OSSA_OK)
        r = read_floats(doc, prim->texcoord0, n, 2, owned, &streams->texcoords, path, error);
    if (r == OSSA_OK && prim->influence_sets)
        r = read_influences(doc, prim, n, owned, streams, path, error);
    if (r == OSSA_OK && prim->target_count)
        r = read_targets(doc, prim, n, owned, streams, path, error);
    if (r == OSSA_OK) r = read_indices(doc, prim, n, owned, streams, path, error);
    return r;
}

ossa_result ossa_model_prepare_skin_mesh(const ossa_model_primitive *info,
                                         const ossa_model_streams *streams, ossa_owned *owned,
                                         ossa_skin_mesh **out, ossa_error *error) {
    uint32_t set_count = info->skin >= 0 ? info->set_count : 0;
    ossa_influence_set *sets = ossa_owned_alloc(owned, set_count, sizeof *sets);
    ossa_morph_target_streams *targets =
        ossa_owned_alloc(owned, info->target_count, sizeof *targets);
    if (!sets || !targets) return out_of_memory(error, "");
    size_t n = info->vertex_count, stride = 4 * (size_t)info->set_count;
    for (uint32_t s = 0; s < set_count; s++)
        sets[s] = (ossa_influence_set){streams->joints + 4 * s,       stride * sizeof(uint16_t),
                                       OSSA_COMPONENT_UNSIGNED_SHORT, streams->weights + 4 * s,
                                       stride * sizeof(float),        OSSA_COMPONENT_FLOAT};
    for (uint32_t t = 0; t < info->target_count; t++) {
        size_t at = (size_t)t * n * 3;
        targets[t] = (ossa_morph_target_streams){
            streams->target_positions ? streams->target_positions + at : NULL, 0,
            streams->target_normals ? streams->target_normals + at : NULL,     0,
            streams->target_tangents ? streams->target_tangents + at : NULL,   0};
    }
    ossa_skin_mesh_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.input.positions = streams->positions;
    desc.input.normals = streams->normals;
    desc.input.tangents = streams->tangents;
    desc.input.sets = sets;
    desc.input.set_count = set_count;
    desc.vertex_count = n;
    desc.joint_count = info->joint_count;
    desc.targets = info->target_count ? targets : NULL;
    desc.target_count = info->target_count;
    desc.allocator = owned->allocator;
    return ossa_skin_mesh_create(&desc, out, error);
}
