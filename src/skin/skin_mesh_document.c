/* A prepared mesh from a document primitive: every stream decoded to float / uint16 first, in
 * scratch memory from the caller's allocator. */
#include <stdio.h>
#include <string.h>

#include "influences.h"
#include "io/error.h"
#include "ossa/skin.h"
#include "rig/owned.h"

typedef struct decoded {
    float *positions, *normals, *tangents;
    uint16_t *joints; /* 4 per set per vertex, vertex by vertex (skin_decode_influences) */
    float *weights;   /* same layout */
    float *targets;   /* per target: positions, normals, tangents (3 floats each) */
    ossa_influence_set *sets;
    ossa_morph_target_streams *streams;
} decoded;

static void decoded_free(const ossa_allocator *a, decoded *d) {
    ossa_free(a, d->positions);
    ossa_free(a, d->normals);
    ossa_free(a, d->tangents);
    ossa_free(a, d->joints);
    ossa_free(a, d->weights);
    ossa_free(a, d->targets);
    ossa_free(a, d->sets);
    ossa_free(a, d->streams);
}

/* count * per_vertex elements of `size` bytes, or NULL when the product overflows. */
static void *alloc_streams(const ossa_allocator *a, size_t count, size_t per_vertex, size_t size) {
    if (per_vertex && count > SIZE_MAX / per_vertex) return NULL;
    return ossa_alloc_array(a, count * per_vertex, size);
}

/* Reads `count` elements of accessor `index` as `components` floats each (a fresh array). */
static ossa_result read_floats(const ossa_document *doc, const ossa_allocator *alloc, int32_t index,
                               size_t count, uint32_t components, float **out, ossa_error *error) {
    *out = NULL;
    if (index < 0) return OSSA_OK;
    const ossa_accessor *a = &doc->accessors[index];
    if (a->components != components || a->count < count)
        return ossa_error_set(error, OSSA_ERROR_INVALID, NULL, NULL,
                              "a vertex stream has the wrong type or count");
    *out = alloc_streams(alloc, count, components, sizeof(float));
    if (!*out) return ossa_error_set(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    ossa_result r = ossa_accessor_read_float(doc, index, 0, count, *out);
    if (r != OSSA_OK)
        return ossa_error_set(error, r, NULL, NULL, "accessors[%d] cannot be read", (int)index);
    return OSSA_OK;
}

static ossa_result decode_influences(const ossa_document *doc, const ossa_allocator *alloc,
                                     const ossa_primitive *prim, uint32_t sets, size_t n,
                                     decoded *d, ossa_error *error) {
    if (sets > SKIN_MAX_SETS)
        return ossa_error_set(error, OSSA_ERROR_LIMIT, NULL, NULL,
                              "more than 63 JOINTS_n/WEIGHTS_n sets (252 influences per vertex)");
    d->joints = alloc_streams(alloc, n, 4 * (size_t)sets, sizeof *d->joints);
    d->weights = alloc_streams(alloc, n, 4 * (size_t)sets, sizeof *d->weights);
    d->sets = ossa_alloc_array(alloc, sets, sizeof *d->sets);
    if (!d->joints || !d->weights || !d->sets)
        return ossa_error_set(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    ossa_result r = skin_decode_influences(doc, prim, sets, n, d->joints, d->weights, error);
    for (uint32_t s = 0; r == OSSA_OK && s < sets; s++)
        d->sets[s] = (ossa_influence_set){
            d->joints + 4 * s,  8 * (size_t)sets,  OSSA_COMPONENT_UNSIGNED_SHORT,
            d->weights + 4 * s, 16 * (size_t)sets, OSSA_COMPONENT_FLOAT};
    return r;
}

static ossa_result decode_targets(const ossa_document *doc, const ossa_allocator *alloc,
                                  const ossa_primitive *prim, size_t n, decoded *d,
                                  ossa_error *error) {
    uint32_t tc = prim->target_count;
    d->targets = alloc_streams(alloc, n, 9 * (size_t)tc, sizeof(float));
    d->streams = ossa_alloc_array(alloc, tc, sizeof *d->streams);
    if (!d->targets || !d->streams)
        return ossa_error_set(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    memset(d->streams, 0, tc * sizeof *d->streams);
    for (uint32_t t = 0; t < tc; t++) {
        const ossa_morph_target *mt = &prim->targets[t];
        float *base = d->targets + (size_t)t * n * 9;
        int32_t acc[3] = {mt->position, mt->normal, mt->tangent};
        const float **dst[3] = {&d->streams[t].positions, &d->streams[t].normals,
                                &d->streams[t].tangents};
        for (int k = 0; k < 3; k++) {
            if (acc[k] < 0) continue;
            const ossa_accessor *a = &doc->accessors[acc[k]];
            if (a->components != 3 || a->count < n)
                return ossa_error_set(error, OSSA_ERROR_INVALID, NULL, NULL,
                                      "morph target %u has a stream that is not VEC3 with one "
                                      "element per vertex",
                                      t);
            ossa_result r = ossa_accessor_read_float(doc, acc[k], 0, n, base + (size_t)k * n * 3);
            if (r != OSSA_OK)
                return ossa_error_set(error, r, NULL, NULL, "morph target %u cannot be read", t);
            *dst[k] = base + (size_t)k * n * 3;
        }
    }
    return OSSA_OK;
}

ossa_result ossa_skin_mesh_from_document(const ossa_document *doc, uint32_t mesh_index,
                                         uint32_t primitive_index, int32_t skin,
                                         const ossa_allocator *allocator, ossa_skin_mesh **out,
                                         ossa_error *error) {
    if (out) *out = NULL;
    if (!doc || !out)
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL,
                              "the document and out must not be NULL");
    char path[64];
    snprintf(path, sizeof path, "meshes[%u].primitives[%u]", mesh_index, primitive_index);
    if (mesh_index >= doc->mesh_count ||
        primitive_index >= doc->meshes[mesh_index].primitive_count ||
        (skin >= 0 && (uint32_t)skin >= doc->skin_count))
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, doc->file, path,
                              "no such primitive or skin");
    const ossa_primitive *prim = &doc->meshes[mesh_index].primitives[primitive_index];
    if (prim->position < 0)
        return ossa_error_set(error, OSSA_ERROR_INVALID, doc->file, path, "no POSITION");
    const ossa_allocator alloc = ossa_allocator_resolve(allocator);
    size_t n = (size_t)prim->vertex_count;
    uint32_t sets = skin >= 0 ? prim->influence_sets : 0;
    decoded d;
    memset(&d, 0, sizeof d);
    ossa_result r = read_floats(doc, &alloc, prim->position, n, 3, &d.positions, error);
    if (r == OSSA_OK) r = read_floats(doc, &alloc, prim->normal, n, 3, &d.normals, error);
    if (r == OSSA_OK) r = read_floats(doc, &alloc, prim->tangent, n, 4, &d.tangents, error);
    if (r == OSSA_OK && sets) r = decode_influences(doc, &alloc, prim, sets, n, &d, error);
    if (r == OSSA_OK && prim->target_count) r = decode_targets(doc, &alloc, prim, n, &d, error);
    if (r == OSSA_OK) {
        ossa_skin_mesh_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.input.positions = d.positions;
        desc.input.normals = d.normals;
        desc.input.tangents = d.tangents;
        desc.input.sets = d.sets;
        desc.input.set_count = sets;
        desc.vertex_count = n;
        desc.joint_count = skin >= 0 ? doc->skins[skin].joint_count : 0;
        desc.targets = d.streams;
        desc.target_count = prim->target_count;
        desc.allocator = alloc;
        r = ossa_skin_mesh_create(&desc, out, error);
    }
    if (r != OSSA_OK && error) {
        /* The helpers above name the problem; the primitive and file say where. */
        char message[OSSA_MESSAGE_MAX];
        memcpy(message, error->message, sizeof message);
        ossa_error_set(error, r, doc->file, path, "%s", message);
    }
    decoded_free(&alloc, &d);
    return r;
}
