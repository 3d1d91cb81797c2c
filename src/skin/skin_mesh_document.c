/* A prepared mesh from a document primitive: every stream decoded to float / uint16 first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/skin.h"

typedef struct decoded {
    float *positions, *normals, *tangents;
    uint16_t *joints; /* 4 per vertex per set */
    float *weights;   /* 4 per vertex per set */
    float *targets;   /* per target: positions, normals, tangents (3 floats each) */
    ossa_influence_set *sets;
    ossa_morph_target_streams *streams;
} decoded;

static void decoded_free(decoded *d) {
    free(d->positions);
    free(d->normals);
    free(d->tangents);
    free(d->joints);
    free(d->weights);
    free(d->targets);
    free(d->sets);
    free(d->streams);
}

static ossa_result fail(ossa_error *error, ossa_result code, const char *path, const char *msg) {
    if (error) {
        memset(error, 0, sizeof *error);
        error->code = code;
        snprintf(error->path, sizeof error->path, "%s", path);
        snprintf(error->message, sizeof error->message, "%s", msg);
    }
    return code;
}

/* Reads `count` elements of accessor `index` as `components` floats each (a fresh array). */
static ossa_result read_floats(const ossa_document *doc, int32_t index, size_t count,
                               uint32_t components, float **out, ossa_error *error) {
    *out = NULL;
    if (index < 0) return OSSA_OK;
    const ossa_accessor *a = &doc->accessors[index];
    if (a->components != components || a->count < count)
        return fail(error, OSSA_ERROR_INVALID, "", "a vertex stream has the wrong type or count");
    *out = malloc((count ? count : 1) * components * sizeof(float));
    if (!*out) return fail(error, OSSA_ERROR_OUT_OF_MEMORY, "", "out of memory");
    return ossa_accessor_read_float(doc, index, 0, count, *out);
}

ossa_result ossa_skin_mesh_from_document(const ossa_document *doc, uint32_t mesh_index,
                                         uint32_t primitive_index, int32_t skin,
                                         const ossa_allocator *allocator, ossa_skin_mesh **out,
                                         ossa_error *error) {
    *out = NULL;
    char path[64];
    snprintf(path, sizeof path, "meshes[%u].primitives[%u]", mesh_index, primitive_index);
    if (mesh_index >= doc->mesh_count ||
        primitive_index >= doc->meshes[mesh_index].primitive_count ||
        (skin >= 0 && (uint32_t)skin >= doc->skin_count))
        return fail(error, OSSA_ERROR_ARGUMENT, path, "no such primitive or skin");
    const ossa_primitive *prim = &doc->meshes[mesh_index].primitives[primitive_index];
    if (prim->position < 0) return fail(error, OSSA_ERROR_INVALID, path, "no POSITION");
    size_t n = (size_t)prim->vertex_count;
    uint32_t sets = skin >= 0 ? prim->influence_sets : 0;
    decoded d;
    memset(&d, 0, sizeof d);
    ossa_result r = read_floats(doc, prim->position, n, 3, &d.positions, error);
    if (r == OSSA_OK) r = read_floats(doc, prim->normal, n, 3, &d.normals, error);
    if (r == OSSA_OK) r = read_floats(doc, prim->tangent, n, 4, &d.tangents, error);
    if (r == OSSA_OK && sets) {
        d.joints = malloc(n * 4 * sets * sizeof *d.joints + 1);
        d.weights = malloc(n * 4 * sets * sizeof *d.weights + 1);
        d.sets = calloc(sets, sizeof *d.sets);
        uint32_t *raw = malloc(n * 4 * sizeof *raw + 1);
        if (!d.joints || !d.weights || !d.sets || !raw)
            r = fail(error, OSSA_ERROR_OUT_OF_MEMORY, path, "out of memory");
        for (uint32_t s = 0; r == OSSA_OK && s < sets; s++) {
            const ossa_accessor *ja = &doc->accessors[prim->joints[s]];
            const ossa_accessor *wa = &doc->accessors[prim->weights[s]];
            if (ja->components != 4 || wa->components != 4 || ja->count < n || wa->count < n) {
                r = fail(error, OSSA_ERROR_INVALID, path, "JOINTS_n/WEIGHTS_n must be VEC4");
                break;
            }
            r = ossa_accessor_read_uint(doc, prim->joints[s], 0, n, raw);
            if (r == OSSA_OK)
                r = ossa_accessor_read_float(doc, prim->weights[s], 0, n, d.weights + s * n * 4);
            uint16_t *js = d.joints + s * n * 4;
            for (size_t i = 0; r == OSSA_OK && i < n * 4; i++)
                js[i] = raw[i] > 65535 ? 65535 : (uint16_t)raw[i];
            d.sets[s] = (ossa_influence_set){js,
                                             0,
                                             OSSA_COMPONENT_UNSIGNED_SHORT,
                                             d.weights + s * n * 4,
                                             0,
                                             OSSA_COMPONENT_FLOAT};
        }
        free(raw);
    }
    uint32_t tc = prim->target_count;
    if (r == OSSA_OK && tc) {
        d.targets = calloc(n * 9 * tc + 1, sizeof(float));
        d.streams = calloc(tc, sizeof *d.streams);
        if (!d.targets || !d.streams)
            r = fail(error, OSSA_ERROR_OUT_OF_MEMORY, path, "out of memory");
        for (uint32_t t = 0; r == OSSA_OK && t < tc; t++) {
            const ossa_morph_target *mt = &prim->targets[t];
            float *base = d.targets + (size_t)t * n * 9;
            int32_t acc[3] = {mt->position, mt->normal, mt->tangent};
            const float **dst[3] = {&d.streams[t].positions, &d.streams[t].normals,
                                    &d.streams[t].tangents};
            for (int k = 0; r == OSSA_OK && k < 3; k++) {
                if (acc[k] < 0) continue;
                const ossa_accessor *a = &doc->accessors[acc[k]];
                if (a->components != 3 || a->count < n) {
                    r = fail(error, OSSA_ERROR_INVALID, path, "a morph target stream is not VEC3");
                    break;
                }
                r = ossa_accessor_read_float(doc, acc[k], 0, n, base + (size_t)k * n * 3);
                *dst[k] = base + (size_t)k * n * 3;
            }
        }
    }
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
        desc.target_count = tc;
        if (allocator) desc.allocator = *allocator;
        r = ossa_skin_mesh_create(&desc, out, error);
        if (r != OSSA_OK && error) snprintf(error->path, sizeof error->path, "%s", path);
    } else if (error && !error->path[0]) {
        snprintf(error->path, sizeof error->path, "%s", path);
    }
    if (r != OSSA_OK && error && doc->file)
        snprintf(error->file, sizeof error->file, "%s", doc->file);
    decoded_free(&d);
    return r;
}
