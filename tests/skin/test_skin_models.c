/*
 * Every shared model's skinned (and morphed) primitives, loaded with the document API and
 * skinned with a random palette: every backend equals the scalar kernel within 1e-6 relative,
 * for LBS and DQS, and N threads equal one thread bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "ossa/document.h"
#include "ossa/skin.h"
#include "skin_test_util.h"
#include "test_support.h"

static int primitives_checked;

static float *aligned_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
    float *p = aligned_alloc(64, bytes ? bytes : 64);
    memset(p, 0, bytes);
    return p;
}

static void check_primitive(const char *what, const ossa_skin_mesh *mesh, uint32_t joints,
                            uint64_t seed) {
    size_t slots = ossa_skin_mesh_slot_count(mesh);
    float *palette = malloc(12 * sizeof(float) * (joints ? joints : 1));
    float *dq = malloc(12 * sizeof(float) * (joints ? joints : 1));
    float transform[12];
    skin_test_random_palette(&seed, joints, 2.0f, palette);
    skin_test_random_palette(&seed, 1, 2.0f, transform);
    ossa_skin_dual_quats(palette, joints, dq);
    uint32_t targets = ossa_skin_mesh_target_count(mesh);
    float weights[16];
    for (int i = 0; i < 16; i++)
        weights[i] = skin_test_uniform(&seed, -0.5f, 1.0f);
    int has_t = ossa_skin_mesh_has_tangents(mesh), has_n = ossa_skin_mesh_has_normals(mesh);
    for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++) {
        ossa_skin_frame frame = {0};
        frame.palette = palette;
        frame.dual_quats = dq;
        frame.joint_count = joints;
        frame.transform = transform;
        frame.morph_weights = weights;
        frame.morph_weight_count = targets < 16 ? targets : 16;
        frame.mode = (ossa_skin_mode)mode;
        frame.order = OSSA_SKIN_ORDER_PREPARED;
        frame.backend = OSSA_SKIN_BACKEND_SCALAR;
        float *sp = aligned_floats(3 * slots), *sn = aligned_floats(3 * slots),
              *st = aligned_floats(4 * slots);
        ossa_skin_output so = {sp, 0, has_n ? sn : NULL, 0, has_t ? st : NULL, 0};
        CHECK(ossa_skin_mesh_run(mesh, &frame, &so, slots, 0, slots, NULL) == OSSA_OK);
        for (int b = OSSA_SKIN_BACKEND_SSE2; b < OSSA_SKIN_BACKEND_COUNT; b++) {
            if (!ossa_skin_backend_supported((ossa_skin_backend)b)) continue;
            char w[600];
            snprintf(w, sizeof w, "%s %s %s", what, mode ? "dqs" : "lbs",
                     ossa_skin_backend_name((ossa_skin_backend)b));
            float *bp = aligned_floats(3 * slots), *bn = aligned_floats(3 * slots),
                  *bt = aligned_floats(4 * slots);
            ossa_skin_output bo = {bp, 0, has_n ? bn : NULL, 0, has_t ? bt : NULL, 0};
            frame.backend = (ossa_skin_backend)b;
            CHECK(ossa_skin_mesh_run(mesh, &frame, &bo, slots, 0, slots, NULL) == OSSA_OK);
            skin_test_compare(w, bp, sp, slots, 3, 1e-6);
            if (ossa_skin_mesh_has_normals(mesh)) skin_test_compare(w, bn, sn, slots, 3, 1e-6);
            if (has_t) skin_test_compare(w, bt, st, slots, 4, 1e-6);
            float *tp = aligned_floats(3 * slots), *tn = aligned_floats(3 * slots),
                  *tt = aligned_floats(4 * slots);
            ossa_skin_output to = {tp, 0, has_n ? tn : NULL, 0, has_t ? tt : NULL, 0};
            skin_test_run_threads(mesh, &frame, &to, slots, 2, 32);
            CHECKF(!memcmp(tp, bp, 12 * slots) && !memcmp(tn, bn, 12 * slots) &&
                       !memcmp(tt, bt, 16 * slots),
                   "%s: 2 threads differ from 1", w);
            free(tp);
            free(tn);
            free(tt);
            free(bp);
            free(bn);
            free(bt);
        }
        free(sp);
        free(sn);
        free(st);
    }
    free(palette);
    free(dq);
}

static void check_model(const char *path, void *user) {
    (void)user;
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, NULL, &doc, &error) != OSSA_OK) {
        CHECKF(0, "%s does not load: %s", path, error.message);
        return;
    }
    for (uint32_t n = 0; n < doc->node_count; n++) {
        const ossa_node *node = &doc->nodes[n];
        if (node->mesh < 0) continue;
        const ossa_mesh *m = &doc->meshes[node->mesh];
        if (node->skin < 0 && m->target_count == 0) continue;
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            ossa_skin_mesh *mesh = NULL;
            ossa_result r = ossa_skin_mesh_from_document(doc, (uint32_t)node->mesh, p, node->skin,
                                                         NULL, &mesh, &error);
            CHECKF(r == OSSA_OK, "%s node %u primitive %u: %s", path, n, p, error.message);
            if (!mesh) continue;
            CHECK(ossa_skin_mesh_vertex_count(mesh) == m->primitives[p].vertex_count);
            CHECK(ossa_skin_mesh_target_count(mesh) == m->primitives[p].target_count);
            if (node->skin >= 0) CHECK(ossa_skin_mesh_max_influences(mesh) > 0);
            char what[512];
            snprintf(what, sizeof what, "%s node %u primitive %u", path, n, p);
            uint32_t joints = node->skin >= 0 ? doc->skins[node->skin].joint_count : 0;
            check_primitive(what, mesh, joints, 1234 + n * 31 + p);
            primitives_checked++;
            ossa_skin_mesh_free(mesh);
        }
    }
    ossa_document_free(doc);
}

/* Bad arguments are refused with the primitive's path; skin -1 makes a skinned primitive rigid. */
static void check_document_arguments(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(ossa_test_shared_path("models/Fox/Fox.glb"), NULL, &doc, &error) !=
        OSSA_OK) {
        CHECKF(0, "Fox.glb loads: %s", error.message);
        return;
    }
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_from_document(doc, 0, 7, 0, NULL, &mesh, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(mesh == NULL);
    CHECK(strcmp(error.path, "meshes[0].primitives[7]") == 0);
    CHECK(ossa_skin_mesh_from_document(doc, 0, 0, 5, NULL, &mesh, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_skin_mesh_from_document(doc, 0, 0, -1, NULL, &mesh, &error) == OSSA_OK);
    if (mesh) {
        CHECK(ossa_skin_mesh_max_influences(mesh) == 0);
        CHECK(ossa_skin_mesh_influence_histogram(mesh, 0) == 1728);
        /* rigid: the transform moves every vertex by (1, 2, 3) */
        const float move[12] = {1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3};
        float *out = calloc(3 * 1728, sizeof(float)), *rest = calloc(3 * 1728, sizeof(float));
        ossa_accessor_read_float(doc, doc->meshes[0].primitives[0].position, 0, 1728, rest);
        ossa_skin_frame frame = {0};
        frame.transform = move;
        frame.order = OSSA_SKIN_ORDER_ORIGINAL;
        ossa_skin_output o = {out, 0, NULL, 0, NULL, 0};
        CHECK(ossa_skin_mesh_run(mesh, &frame, &o, 1728, 0, ossa_skin_mesh_slot_count(mesh),
                                 NULL) == OSSA_OK);
        int bad = 0;
        for (int i = 0; i < 1728; i++)
            for (int c = 0; c < 3; c++)
                if (out[3 * i + c] != rest[3 * i + c] + (float)(c + 1)) bad++;
        CHECKF(bad == 0, "%d moved coordinates wrong", bad);
        free(out);
        free(rest);
        ossa_skin_mesh_free(mesh);
    }
    ossa_document_free(doc);
}

int main(void) {
    check_document_arguments();
    char models[1024];
    snprintf(models, sizeof models, "%s/models", ossa_test_shared_dir());
    ossa_test_walk(models, ".gltf", check_model, NULL);
    ossa_test_walk(models, ".glb", check_model, NULL);
    CHECKF(primitives_checked >= 20, "only %d primitives checked", primitives_checked);
    return ossa_test_finish("skin_models");
}
