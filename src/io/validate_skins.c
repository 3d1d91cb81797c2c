/* Skins: inverse bind matrices, joint uniqueness and roots, JOINTS values of skinned meshes. */
#include <math.h>
#include <stdio.h>

#include "io/accessor_decode.h"
#include "io/loader.h"

static void check_ibms(ossa_io_loader *L, uint32_t index, float *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_skin *s = &doc->skins[index];
    if (s->inverse_bind_matrices < 0 || !ossa_io_accessor_has_data(L, s->inverse_bind_matrices))
        return;
    ossa_io_path_set(L, "skins[%u].inverseBindMatrices", index);
    for (uint64_t first = 0; first < s->joint_count; first += 64) {
        uint64_t n = s->joint_count - first < 64 ? s->joint_count - first : 64;
        ossa_io_decode(doc, s->inverse_bind_matrices, first, n, chunk, OSSA_IO_OUT_FLOAT);
        for (uint64_t j = 0; j < n; j++) {
            const float *m = chunk + j * 16;
            for (int k = 0; k < 16; k++)
                if (!isfinite(m[k]))
                    ossa_io_fail(L, OSSA_ERROR_INVALID,
                                 "matrix %llu (joint %llu) contains a non-finite number",
                                 (unsigned long long)(first + j), (unsigned long long)(first + j));
            if (fabsf(m[3]) > 1e-5f || fabsf(m[7]) > 1e-5f || fabsf(m[11]) > 1e-5f ||
                fabsf(m[15] - 1.0f) > 1e-5f)
                ossa_io_fail(L, OSSA_ERROR_INVALID,
                             "matrix %llu is not affine: its last row is (%g, %g, %g, %g), not "
                             "(0, 0, 0, 1)",
                             (unsigned long long)(first + j), (double)m[3], (double)m[7],
                             (double)m[11], (double)m[15]);
        }
    }
}

/* The root of every node, iteratively with memoization (the hierarchy is a forest). */
static int32_t *compute_roots(ossa_io_loader *L) {
    const ossa_document *doc = L->doc;
    int32_t *root = ossa_io_alloc_array(L, doc->node_count, sizeof *root);
    for (uint32_t i = 0; i < doc->node_count; i++)
        root[i] = -1;
    for (uint32_t i = 0; i < doc->node_count; i++) {
        int32_t r = (int32_t)i;
        while (root[r] < 0 && doc->nodes[r].parent >= 0)
            r = doc->nodes[r].parent;
        int32_t found = root[r] >= 0 ? root[r] : r;
        for (int32_t k = (int32_t)i; root[k] < 0; k = doc->nodes[k].parent) {
            root[k] = found;
            if (doc->nodes[k].parent < 0) break;
        }
    }
    return root;
}

static void check_joints_of_skin(ossa_io_loader *L, uint32_t index, const int32_t *root,
                                 uint8_t *mark) {
    const ossa_document *doc = L->doc;
    const ossa_skin *s = &doc->skins[index];
    for (uint32_t j = 0; j < s->joint_count; j++) {
        if (mark[s->joints[j]]) {
            ossa_io_path_set2(L, "skins[%u].joints[%u]", index, j);
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "node %d is listed twice as a joint (joints must be unique)",
                         s->joints[j]);
        }
        mark[s->joints[j]] = 1;
    }
    for (uint32_t j = 0; j < s->joint_count; j++)
        mark[s->joints[j]] = 0;
    for (uint32_t j = 1; j < s->joint_count; j++)
        if (root[s->joints[j]] != root[s->joints[0]]) {
            ossa_io_path_set(L, "skins[%u].joints", index);
            ossa_io_warn(L, "the joints do not share a common root (nodes %d and %d)", s->joints[0],
                         s->joints[j]);
            break;
        }
    if (s->skeleton < 0) return;
    /* The skeleton should be an ancestor (or self) of every joint; the walk is bounded. */
    uint64_t budget = 10000000;
    for (uint32_t j = 0; j < s->joint_count && budget; j++) {
        int32_t k = s->joints[j];
        while (k >= 0 && k != s->skeleton && budget) {
            k = doc->nodes[k].parent;
            budget--;
        }
        if (k < 0) {
            ossa_io_path_set(L, "skins[%u].skeleton", index);
            ossa_io_warn(L, "node %d is not an ancestor of joint node %d", s->skeleton,
                         s->joints[j]);
            return;
        }
    }
}

/* JOINTS values of a primitive drawn with a skin must index the skin's joints. */
static void check_joint_values(ossa_io_loader *L, uint32_t node, const ossa_primitive *p,
                               uint32_t prim, uint32_t *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_node *n = &doc->nodes[node];
    uint32_t joints = doc->skins[n->skin].joint_count;
    for (uint32_t s = 0; s < p->influence_sets; s++) {
        const ossa_accessor *a = &doc->accessors[p->joints[s]];
        if (!ossa_io_accessor_has_data(L, p->joints[s])) continue;
        if (ossa_io_accessor_uint_max(L, p->joints[s]) < joints) continue; /* all valid */
        for (uint64_t first = 0; first < a->count; first += OSSA_IO_DECODE_CHUNK) {
            uint64_t count =
                a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
            ossa_io_decode(doc, p->joints[s], first, count, chunk, OSSA_IO_OUT_UINT);
            for (uint64_t i = 0; i < count * 4; i++)
                if (chunk[i] >= joints) {
                    ossa_io_path_set(L, "meshes[%d].primitives[%u].attributes.JOINTS_%u", n->mesh,
                                     prim, s);
                    ossa_io_fail(L, OSSA_ERROR_INVALID,
                                 "vertex %llu uses joint %u, but skin %d of node %u has %u "
                                 "joints",
                                 (unsigned long long)(first + i / 4), chunk[i], n->skin, node,
                                 joints);
                }
        }
    }
}

static void check_skinned_nodes(ossa_io_loader *L, uint32_t *chunk) {
    const ossa_document *doc = L->doc;
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const ossa_node *n = &doc->nodes[i];
        if (n->mesh < 0) continue;
        const ossa_mesh *m = &doc->meshes[n->mesh];
        int skinned_mesh = 0;
        for (uint32_t k = 0; k < m->primitive_count; k++)
            skinned_mesh |= m->primitives[k].influence_sets > 0;
        ossa_io_path_set1(L, "nodes[%u]", i);
        if (n->skin < 0) {
            if (skinned_mesh)
                ossa_io_warn(L,
                             "mesh %d has JOINTS/WEIGHTS but the node has no skin; drawn "
                             "unskinned",
                             n->mesh);
            continue;
        }
        if (!skinned_mesh)
            ossa_io_warn(L, "the node has skin %d but mesh %d has no JOINTS/WEIGHTS", n->skin,
                         n->mesh);
        int identity_trs = n->translation[0] == 0 && n->translation[1] == 0 &&
                           n->translation[2] == 0 && n->rotation[0] == 0 && n->rotation[1] == 0 &&
                           n->rotation[2] == 0 && n->scale[0] == 1 && n->scale[1] == 1 &&
                           n->scale[2] == 1;
        const float *mm = n->matrix;
        int identity_m = 1;
        for (int k = 0; k < 16; k++)
            identity_m &= mm[k] == ((k % 5 == 0) ? 1.0f : 0.0f);
        if (!identity_trs || !identity_m)
            ossa_io_warn(L, "the local transform of a skinned mesh node is ignored");
        if (n->parent >= 0)
            ossa_io_warn(L, "the skinned mesh node is not a root; its parents' transforms are "
                            "ignored");
        for (uint32_t k = 0; k < m->primitive_count; k++)
            check_joint_values(L, i, &m->primitives[k], k, chunk);
    }
}

/* A scene showing a skinned mesh node should also hold that skin's joints; the runtime keeps
 * every node anyway, so this is warned. */
static void check_joints_in_scenes(ossa_io_loader *L, const int32_t *root) {
    const ossa_document *doc = L->doc;
    if (!doc->skin_count) return;
    uint32_t *scene_of_root = ossa_io_alloc_array(L, doc->node_count, sizeof *scene_of_root);
    for (uint32_t s = 0; s < doc->scene_count; s++) {
        const ossa_scene *scene = &doc->scenes[s];
        for (uint32_t k = 0; k < scene->node_count; k++)
            scene_of_root[scene->nodes[k]] = s + 1;
        for (uint32_t i = 0; i < doc->node_count; i++) {
            const ossa_node *n = &doc->nodes[i];
            if (n->skin < 0 || scene_of_root[root[i]] != s + 1) continue;
            const ossa_skin *skin = &doc->skins[n->skin];
            for (uint32_t j = 0; j < skin->joint_count; j++)
                if (scene_of_root[root[skin->joints[j]]] != s + 1) {
                    ossa_io_path_set1(L, "nodes[%u]", i);
                    ossa_io_warn(L, "scene %u shows this skinned mesh node but not joint node %d",
                                 s, skin->joints[j]);
                    break;
                }
        }
    }
    ossa_io_release(L->storage, scene_of_root);
}

void ossa_io_validate_skins(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    float *chunk = ossa_io_alloc_uninit(L, OSSA_IO_DECODE_CHUNK * 4, sizeof *chunk);
    int32_t *root = compute_roots(L);
    uint8_t *mark = ossa_io_alloc_array(L, doc->node_count, 1);
    for (uint32_t s = 0; s < doc->skin_count; s++) {
        check_ibms(L, s, chunk);
        check_joints_of_skin(L, s, root, mark);
    }
    check_skinned_nodes(L, (uint32_t *)chunk);
    check_joints_in_scenes(L, root);
    ossa_io_release(L->storage, mark);
    ossa_io_release(L->storage, root);
    ossa_io_release(L->storage, chunk);
}
