/* Builds the runtime rig (rig.h) from a document. */
#include "ossa/rig.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/error.h"
#include "pose/xform.h"
#include "rig/owned.h"

typedef struct rig_impl {
    ossa_rig rig; /* first: the public pointer is the impl pointer */
    ossa_owned owned;
} rig_impl;

static ossa_result fail(ossa_error *error, const ossa_document *doc, ossa_result code,
                        const char *path, const char *message) {
    return ossa_error_set(error, code, doc->file, path, "%s", message);
}

/* Splits a column-major 4x4 into TRS; returns 1 when T*R*S rebuilds it (no shear). */
static int decompose_matrix(const float *column_major, ossa_trs *trs, float *rows) {
    xf_matrix_from_column_major(column_major, rows);
    float axis[3][3];
    float scale[3];
    for (int c = 0; c < 3; c++) {
        for (int r = 0; r < 3; r++)
            axis[c][r] = rows[4 * r + c];
        scale[c] =
            sqrtf(axis[c][0] * axis[c][0] + axis[c][1] * axis[c][1] + axis[c][2] * axis[c][2]);
    }
    float det = axis[0][0] * (axis[1][1] * axis[2][2] - axis[1][2] * axis[2][1]) -
                axis[1][0] * (axis[0][1] * axis[2][2] - axis[0][2] * axis[2][1]) +
                axis[2][0] * (axis[0][1] * axis[1][2] - axis[0][2] * axis[1][1]);
    if (det < 0.0f) scale[0] = -scale[0];
    float rot[12] = {0};
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            rot[4 * r + c] = scale[c] != 0.0f ? axis[c][r] / scale[c] : (r == c);
    for (int k = 0; k < 3; k++) {
        trs->translation[k] = rows[4 * k + 3];
        trs->scale[k] = scale[k];
    }
    xf_quat_from_rotation(rot, trs->rotation);
    float rebuilt[12];
    xf_matrix_from_trs(trs->translation, trs->rotation, trs->scale, rebuilt);
    float largest = 0.0f, worst = 0.0f;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            largest = fmaxf(largest, fabsf(rows[4 * r + c]));
            worst = fmaxf(worst, fabsf(rows[4 * r + c] - rebuilt[4 * r + c]));
        }
    return worst <= 1e-5f * largest;
}

/* Depth-first order with parents first; returns the number of nodes placed. */
static uint32_t order_nodes(const ossa_document *doc, int32_t *order, int32_t *stack) {
    uint32_t placed = 0, top = 0;
    for (uint32_t root = doc->node_count; root-- > 0;)
        if (doc->nodes[root].parent < 0) stack[top++] = (int32_t)root;
    while (top > 0) {
        int32_t node = stack[--top];
        if (placed == doc->node_count) return placed + 1; /* a node reached twice */
        order[placed++] = node;
        const ossa_node *n = &doc->nodes[node];
        for (uint32_t c = n->child_count; c-- > 0;) {
            if (top == doc->node_count) return doc->node_count + 1;
            stack[top++] = n->children[c];
        }
    }
    return placed;
}

/* Every float array sized by the rig (12 * node_count world floats, weight_total morph weights,
 * 12 floats per joint of all skins together) must be indexable with a uint32_t. Totals are
 * summed in 64 bits and refused past this. */
#define RIG_MAX_FLOATS UINT32_MAX

/* Where build_nodes refused a total (OSSA_ERROR_LIMIT), for the error's path. */
typedef struct limit_failure {
    char path[64];
    char message[160];
} limit_failure;

static ossa_result build_nodes(const ossa_document *doc, rig_impl *impl, int *failed,
                               limit_failure *limit) {
    ossa_rig *rig = &impl->rig;
    ossa_owned *owned = &impl->owned;
    uint32_t n = doc->node_count;
    int32_t *parent = ossa_owned_alloc(owned, n, sizeof *parent);
    int32_t *gltf_from_rig = ossa_owned_alloc(owned, n, sizeof *gltf_from_rig);
    int32_t *rig_from_gltf = ossa_owned_alloc(owned, n, sizeof *rig_from_gltf);
    int32_t *stack = ossa_owned_alloc(owned, n, sizeof *stack);
    const char **names = ossa_owned_alloc(owned, n, sizeof *names);
    ossa_trs *rest = ossa_owned_alloc(owned, n, sizeof *rest);
    uint8_t *fixed = ossa_owned_alloc(owned, n, 1);
    float *fixed_local = ossa_owned_alloc(owned, n, 12 * sizeof(float));
    int32_t *mesh = ossa_owned_alloc(owned, n, sizeof *mesh);
    int32_t *skin = ossa_owned_alloc(owned, n, sizeof *skin);
    uint32_t *weight_offset = ossa_owned_alloc(owned, n, sizeof *weight_offset);
    uint32_t *weight_count = ossa_owned_alloc(owned, n, sizeof *weight_count);
    if (!parent || !gltf_from_rig || !rig_from_gltf || !stack || !names || !rest || !fixed ||
        !fixed_local || !mesh || !skin || !weight_offset || !weight_count) {
        *failed = 1;
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    if (12 * (uint64_t)n > RIG_MAX_FLOATS) {
        snprintf(limit->path, sizeof limit->path, "nodes");
        snprintf(limit->message, sizeof limit->message,
                 "%u nodes: their world matrices would need more than 2^32 floats", n);
        return OSSA_ERROR_LIMIT;
    }
    if (order_nodes(doc, gltf_from_rig, stack) != n) return OSSA_ERROR_INVALID;
    for (uint32_t i = 0; i < n; i++)
        rig_from_gltf[gltf_from_rig[i]] = (int32_t)i;
    uint64_t weight_total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ossa_node *node = &doc->nodes[gltf_from_rig[i]];
        parent[i] = node->parent < 0 ? -1 : rig_from_gltf[node->parent];
        if (parent[i] >= (int32_t)i) return OSSA_ERROR_INVALID;
        names[i] = ossa_owned_strdup(owned, node->name, failed);
        mesh[i] = node->mesh;
        skin[i] = node->mesh >= 0 ? node->skin : -1;
        if (node->has_matrix) {
            fixed[i] =
                (uint8_t)!decompose_matrix(node->matrix, &rest[i], &fixed_local[12 * (size_t)i]);
        } else {
            memcpy(rest[i].translation, node->translation, sizeof rest[i].translation);
            memcpy(rest[i].rotation, node->rotation, sizeof rest[i].rotation);
            memcpy(rest[i].scale, node->scale, sizeof rest[i].scale);
            xf_quat_normalize(rest[i].rotation);
        }
        weight_offset[i] = (uint32_t)weight_total;
        if (node->mesh >= 0 && (uint32_t)node->mesh < doc->mesh_count)
            weight_count[i] = doc->meshes[node->mesh].target_count;
        weight_total += weight_count[i];
        if (weight_total > RIG_MAX_FLOATS) {
            snprintf(limit->path, sizeof limit->path, "nodes[%d].mesh", (int)gltf_from_rig[i]);
            snprintf(limit->message, sizeof limit->message,
                     "the morph weights of all nodes add up to more than 2^32 - 1 floats "
                     "(%llu with this node's mesh)",
                     (unsigned long long)weight_total);
            return OSSA_ERROR_LIMIT;
        }
    }
    float *rest_weights = ossa_owned_alloc(owned, (size_t)weight_total, sizeof *rest_weights);
    if (!rest_weights) {
        *failed = 1;
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!weight_count[i]) continue;
        const ossa_node *node = &doc->nodes[gltf_from_rig[i]];
        const ossa_mesh *m = &doc->meshes[node->mesh];
        const float *source = node->weights ? node->weights : m->weights;
        uint32_t source_count = node->weights ? node->weight_count : m->weight_count;
        for (uint32_t k = 0; k < weight_count[i] && k < source_count; k++)
            rest_weights[weight_offset[i] + k] = source[k];
    }
    rig->node_count = n;
    rig->parent = parent;
    rig->gltf_from_rig = gltf_from_rig;
    rig->rig_from_gltf = rig_from_gltf;
    rig->names = names;
    rig->rest = rest;
    rig->fixed = fixed;
    rig->fixed_local = fixed_local;
    rig->mesh = mesh;
    rig->skin = skin;
    rig->weight_total = (uint32_t)weight_total;
    rig->weight_offset = weight_offset;
    rig->weight_count = weight_count;
    rig->rest_weights = rest_weights;
    return *failed ? OSSA_ERROR_OUT_OF_MEMORY : OSSA_OK;
}

static ossa_result build_skin(const ossa_document *doc, rig_impl *impl, uint32_t s,
                              ossa_rig_skin *out) {
    ossa_owned *owned = &impl->owned;
    const ossa_skin *skin = &doc->skins[s];
    uint32_t count = skin->joint_count;
    int32_t *joints = ossa_owned_alloc(owned, count, sizeof *joints);
    float *inverse_bind = ossa_owned_alloc(owned, count, 12 * sizeof(float));
    float *column_major = ossa_owned_alloc(owned, count, 16 * sizeof(float));
    if (!joints || !inverse_bind || !column_major) return OSSA_ERROR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < count; j++)
        joints[j] = impl->rig.rig_from_gltf[skin->joints[j]];
    if (skin->inverse_bind_matrices >= 0 && count > 0) {
        ossa_result r =
            ossa_accessor_read_float(doc, skin->inverse_bind_matrices, 0, count, column_major);
        if (r != OSSA_OK) return r;
        for (uint32_t j = 0; j < count; j++)
            xf_matrix_from_column_major(column_major + 16 * (size_t)j,
                                        inverse_bind + 12 * (size_t)j);
    } else {
        for (uint32_t j = 0; j < count; j++)
            xf_matrix_identity(inverse_bind + 12 * (size_t)j);
    }
    uint32_t users = 0;
    for (uint32_t i = 0; i < impl->rig.node_count; i++)
        users += impl->rig.skin[i] == (int32_t)s;
    int32_t *mesh_nodes = ossa_owned_alloc(owned, users, sizeof *mesh_nodes);
    if (!mesh_nodes) return OSSA_ERROR_OUT_OF_MEMORY;
    users = 0;
    for (uint32_t i = 0; i < impl->rig.node_count; i++)
        if (impl->rig.skin[i] == (int32_t)s) mesh_nodes[users++] = (int32_t)i;
    out->joint_count = count;
    out->joints = joints;
    out->inverse_bind = inverse_bind;
    out->mesh_node_count = users;
    out->mesh_nodes = mesh_nodes;
    return OSSA_OK;
}

ossa_result ossa_rig_build(const ossa_document *doc, const ossa_allocator *allocator,
                           ossa_rig **out, ossa_error *error) {
    *out = NULL;
    ossa_owned owned;
    ossa_owned_init(&owned, allocator);
    rig_impl *impl = owned.allocator.alloc(owned.allocator.user, sizeof *impl);
    if (!impl) return fail(error, doc, OSSA_ERROR_OUT_OF_MEMORY, "", "out of memory");
    memset(impl, 0, sizeof *impl);
    impl->owned = owned;
    int failed = 0;
    limit_failure limit;
    ossa_result r = build_nodes(doc, impl, &failed, &limit);
    if (r == OSSA_ERROR_INVALID) {
        ossa_rig_free(&impl->rig);
        return fail(error, doc, r, "nodes",
                    "the node hierarchy is not a forest (cycle or shared child)");
    }
    if (r == OSSA_ERROR_LIMIT) {
        ossa_rig_free(&impl->rig);
        return fail(error, doc, r, limit.path, limit.message);
    }
    uint64_t joint_total = 0; /* palettes of every skin, one after another */
    for (uint32_t s = 0; r == OSSA_OK && s < doc->skin_count; s++) {
        joint_total += doc->skins[s].joint_count;
        if (12 * joint_total > RIG_MAX_FLOATS) {
            char path[64];
            snprintf(path, sizeof path, "skins[%u].joints", s);
            ossa_rig_free(&impl->rig);
            return fail(error, doc, OSSA_ERROR_LIMIT, path,
                        "the palettes of all skins would need more than 2^32 floats");
        }
    }
    ossa_rig_skin *skins = NULL;
    if (r == OSSA_OK) {
        skins = ossa_owned_alloc(&impl->owned, doc->skin_count, sizeof *skins);
        if (!skins) r = OSSA_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t s = 0; r == OSSA_OK && s < doc->skin_count; s++) {
        r = build_skin(doc, impl, s, &skins[s]);
        if (skins[s].joint_count > impl->rig.max_joint_count)
            impl->rig.max_joint_count = skins[s].joint_count;
        if (r != OSSA_OK && r != OSSA_ERROR_OUT_OF_MEMORY) {
            char path[64];
            snprintf(path, sizeof path, "skins[%u].inverseBindMatrices", s);
            ossa_rig_free(&impl->rig);
            return fail(error, doc, r, path, "the inverse bind matrices cannot be read");
        }
    }
    if (r != OSSA_OK) {
        ossa_rig_free(&impl->rig);
        return fail(error, doc, OSSA_ERROR_OUT_OF_MEMORY, "", "out of memory");
    }
    impl->rig.skin_count = doc->skin_count;
    impl->rig.skins = skins;
    *out = &impl->rig;
    return OSSA_OK;
}

void ossa_rig_free(ossa_rig *rig) {
    if (!rig) return;
    rig_impl *impl = (rig_impl *)rig;
    ossa_allocator allocator = impl->owned.allocator;
    ossa_owned_release(&impl->owned);
    allocator.free(allocator.user, impl);
}
