/* The runtime API (model.h) on every shared model: characters give bit for bit what the layer
 * functions give (sampling, FK, palettes, skinning), in library or caller memory, alone or as a
 * crowd over a thread pool, after the document is freed. */
#include <stdlib.h>
#include <string.h>

#include "ossa/model.h"
#include "ossa/palette.h"
#include "test_support.h"

typedef struct counting_allocator {
    long allocs, frees;
} counting_allocator;

static void *count_alloc(void *user, size_t size) {
    ((counting_allocator *)user)->allocs++;
    return malloc(size);
}

static void count_free(void *user, void *ptr) {
    if (ptr) ((counting_allocator *)user)->frees++;
    free(ptr);
}

/* The model of a shared file, built with a counting allocator; the document is freed. */
static ossa_model *load_model(const char *path, counting_allocator *counter, int dual_quats) {
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, NULL, &doc, &error) != OSSA_OK) {
        CHECKF(0, "%s loads: %s", path, error.message);
        return NULL;
    }
    ossa_model_desc desc = {{count_alloc, count_free, counter}, dual_quats, 0, 0, 0.0f};
    ossa_model *model = NULL;
    ossa_result r = ossa_model_create(doc, &desc, &model, &error);
    CHECKF(r == OSSA_OK, "%s: model: %s", path, error.message);
    ossa_document_free(doc);
    return model;
}

/* Sampling, FK and palettes by the layer functions, into plain buffers. */
typedef struct reference {
    ossa_pose pose;
    float *world, *palettes, *dual_quats;
    uint32_t *keys;
} reference;

static uint32_t all_joints(const ossa_rig *rig) {
    uint32_t joints = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++)
        joints += rig->skins[s].joint_count;
    return joints;
}

static reference reference_open(const ossa_rig *rig) {
    reference r;
    r.pose.local = calloc(rig->node_count + 1, sizeof(ossa_trs));
    r.pose.weights = calloc(rig->weight_total + 1, sizeof(float));
    r.world = calloc(12 * (size_t)rig->node_count + 1, sizeof(float));
    r.palettes = calloc(12 * (size_t)all_joints(rig) + 1, sizeof(float));
    r.dual_quats = calloc(12 * (size_t)all_joints(rig) + 1, sizeof(float));
    return r;
}

static void reference_close(reference *r) {
    free(r->pose.local), free(r->pose.weights), free(r->world), free(r->palettes);
    free(r->dual_quats);
}

static void reference_eval(const ossa_rig *rig, const ossa_clip *clip, double clock, reference *r) {
    if (clip)
        CHECK(ossa_clip_sample(rig, clip, ossa_clip_time(clip, clock, OSSA_WRAP_LOOP), NULL,
                               &r->pose) == OSSA_OK);
    else
        ossa_pose_set_rest(rig, &r->pose);
    ossa_fk_palettes_world(rig, &r->pose, r->world, r->palettes);
    size_t at = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        ossa_skin_dual_quats(r->palettes + at, rig->skins[s].joint_count, r->dual_quats + at);
        at += 12 * (size_t)rig->skins[s].joint_count;
    }
}

/* The character's state equals the reference bit for bit. */
static int same_state(const ossa_model *model, const ossa_character *c, const reference *r) {
    const ossa_rig *rig = ossa_model_rig(model);
    int same = !memcmp(ossa_character_world(c), r->world, 12 * sizeof(float) * rig->node_count);
    same &= !memcmp(ossa_character_weights(c), r->pose.weights, sizeof(float) * rig->weight_total);
    size_t at = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        size_t n = 12 * (size_t)rig->skins[s].joint_count;
        same &= !memcmp(ossa_character_palette(c, s), r->palettes + at, n * sizeof(float));
        const float *dq = ossa_character_dual_quats(c, s);
        if (dq) same &= !memcmp(dq, r->dual_quats + at, n * sizeof(float));
        at += n;
    }
    return same;
}

/* Every clip at clocks before, inside, past the end (looping), forward and backward. */
static void check_updates(const char *name, const ossa_model *model, ossa_character *c) {
    const ossa_rig *rig = ossa_model_rig(model);
    reference r = reference_open(rig);
    static const double clocks[] = {-0.3, 0.0, 0.01, 0.4, 0.41, 1.0, 2.7, 0.2, 13.9};
    int mismatches = 0;
    for (uint32_t k = 0; k <= ossa_model_clip_count(model); k++) {
        const ossa_clip *clip = ossa_model_clip(model, k); /* NULL past the end: rest pose */
        for (size_t t = 0; t < sizeof clocks / sizeof clocks[0]; t++) {
            CHECK(ossa_character_update(c, clip, clocks[t], OSSA_WRAP_LOOP, NULL) == OSSA_OK);
            reference_eval(rig, clip, clocks[t], &r);
            mismatches += !same_state(model, c, &r);
        }
    }
    CHECKF(mismatches == 0, "%s: %d updates differ from the layer functions", name, mismatches);
    reference_close(&r);
}

/* Skinning every primitive equals the prepared mesh run with the character's palette. */
static void check_skinning(const char *name, const ossa_model *model, const ossa_character *c) {
    size_t n = ossa_model_max_vertex_count(model);
    float *got = calloc(3 * n + 1, sizeof(float)), *want = calloc(3 * n + 1, sizeof(float));
    float *got_n = calloc(3 * n + 1, sizeof(float)), *want_n = calloc(3 * n + 1, sizeof(float));
    int mismatches = 0;
    for (uint32_t p = 0; p < ossa_model_primitive_count(model); p++) {
        const ossa_model_primitive *info = ossa_model_primitive_info(model, p);
        for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++) {
            ossa_skin_output out = {got, 0, info->has_normals ? got_n : NULL, 0, NULL, 0};
            ossa_error error;
            ossa_result r = ossa_character_skin(c, p, (ossa_skin_mode)mode, &out, n, &error);
            CHECKF(r == OSSA_OK, "%s primitive %u: %s", name, p, error.message);
            ossa_skin_frame frame = {0};
            frame.mode = (ossa_skin_mode)mode;
            frame.order = OSSA_SKIN_ORDER_ORIGINAL;
            if (info->skin >= 0) {
                frame.palette = ossa_character_palette(c, (uint32_t)info->skin);
                frame.dual_quats = ossa_character_dual_quats(c, (uint32_t)info->skin);
                frame.joint_count = info->joint_count;
            } else {
                frame.transform = ossa_character_world(c) + 12 * (size_t)info->node;
            }
            frame.morph_weights = ossa_character_weights(c) + info->weight_offset;
            frame.morph_weight_count = info->target_count;
            ossa_skin_output ref = {want, 0, info->has_normals ? want_n : NULL, 0, NULL, 0};
            const ossa_skin_mesh *mesh = ossa_model_skin_mesh(model, p);
            CHECK(ossa_skin_mesh_run(mesh, &frame, &ref, n, 0, ossa_skin_mesh_slot_count(mesh),
                                     NULL) == OSSA_OK);
            mismatches += memcmp(got, want, 3 * sizeof(float) * info->vertex_count) != 0;
            if (info->has_normals)
                mismatches += memcmp(got_n, want_n, 3 * sizeof(float) * info->vertex_count) != 0;
        }
    }
    CHECKF(mismatches == 0, "%s: %d skinned primitives differ", name, mismatches);
    free(got), free(want), free(got_n), free(want_n);
}

/* Two characters of one model have the same world matrices, palettes and dual quaternions. */
static int same_outputs(const ossa_model *model, const ossa_character *a, const ossa_character *b) {
    const ossa_rig *rig = ossa_model_rig(model);
    int same = !memcmp(ossa_character_world(a), ossa_character_world(b),
                       12 * sizeof(float) * rig->node_count);
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        size_t n = 12 * (size_t)rig->skins[s].joint_count;
        same &=
            !memcmp(ossa_character_palette(a, s), ossa_character_palette(b, s), n * sizeof(float));
        const float *dq = ossa_character_dual_quats(a, s);
        if (dq) same &= !memcmp(dq, ossa_character_dual_quats(b, s), n * sizeof(float));
    }
    return same;
}

/* Updates `alone` one character at a time and `crowd` (the same models, clips and clocks) through
 * ossa_characters_update; returns how many crowd characters differ from their single update. */
static int crowd_mismatches(ossa_character **crowd, ossa_character **alone, uint32_t count,
                            const ossa_clip **clips, const double *clocks, ossa_wrap wrap,
                            ossa_thread_pool *pool) {
    for (uint32_t i = 0; i < count; i++)
        CHECK(ossa_character_update(alone[i], clips[i], clocks[i], wrap, NULL) == OSSA_OK);
    CHECK(ossa_characters_update(crowd, count, clips, clocks, wrap, pool, NULL) == OSSA_OK);
    int mismatches = 0;
    for (uint32_t i = 0; i < count; i++)
        mismatches += !same_outputs(ossa_character_model(crowd[i]), crowd[i], alone[i]);
    return mismatches;
}

/* A crowd over a pool (four characters at a time through FK and palettes) equals one update
 * per character. */
static void check_crowd(const char *name, const ossa_model *model) {
    enum { COUNT = 37 };
    ossa_character *crowd[COUNT], *alone[COUNT];
    const ossa_clip *clips[COUNT];
    double clocks[COUNT];
    ossa_thread_pool *pool = NULL;
    CHECK(ossa_thread_pool_create(2, &pool) == OSSA_OK);
    uint32_t clip_count = ossa_model_clip_count(model);
    for (int i = 0; i < COUNT; i++) {
        CHECK(ossa_character_create(model, &crowd[i], NULL) == OSSA_OK);
        CHECK(ossa_character_create(model, &alone[i], NULL) == OSSA_OK);
        clips[i] = ossa_model_clip(model, clip_count ? (uint32_t)i % (clip_count + 1) : 0);
        clocks[i] = 0.037 * i;
    }
    int mismatches =
        crowd_mismatches(crowd, alone, COUNT, clips, clocks, OSSA_WRAP_PING_PONG, pool);
    CHECKF(mismatches == 0, "%s: %d crowd characters differ from single updates", name, mismatches);
    for (int i = 0; i < COUNT; i++)
        ossa_character_free(crowd[i]), ossa_character_free(alone[i]);
    ossa_thread_pool_free(pool);
}

static void check_model(const char *path, void *user) {
    (void)user;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    counting_allocator counter = {0, 0};
    ossa_model *model = load_model(path, &counter, 1);
    if (!model) return;
    CHECKF(counter.allocs > 0, "%s: the model used the given allocator", name);
    /* A character in caller memory. */
    size_t size = ossa_character_size(model);
    void *memory =
        aligned_alloc(ossa_character_alignment(),
                      (size + ossa_character_alignment() - 1) & ~(ossa_character_alignment() - 1));
    ossa_character *c = NULL;
    CHECK(ossa_character_init(model, memory, size, &c, NULL) == OSSA_OK && c);
    if (c) {
        check_updates(name, model, c);
        check_skinning(name, model, c);
    }
    free(memory);
    check_crowd(name, model);
    ossa_model_free(model);
    CHECKF(counter.allocs == counter.frees, "%s: %ld allocations, %ld frees", name, counter.allocs,
           counter.frees);
}

/* Names and counts read through the model, on Fox (three named clips, one skin). */
static void check_fox_lookup(void) {
    counting_allocator counter = {0, 0};
    ossa_model *model = load_model(ossa_test_shared_path("models/Fox/Fox.glb"), &counter, 0);
    if (!model) return;
    CHECK(ossa_model_clip_count(model) == 3);
    CHECK(ossa_model_find_clip(model, "Survey") == 0);
    CHECK(ossa_model_find_clip(model, "Run") == 2);
    CHECK(ossa_model_find_clip(model, "Swim") == -1);
    CHECK(ossa_model_find_clip(model, NULL) == -1);
    int32_t head = ossa_model_find_node(model, "b_Head_05");
    CHECK(head >= 0 && !strcmp(ossa_model_rig(model)->names[head], "b_Head_05"));
    CHECK(ossa_model_find_node(model, "no such node") == -1);
    CHECK(ossa_model_primitive_count(model) == 1);
    const ossa_model_primitive *p = ossa_model_primitive_info(model, 0);
    CHECK(p && p->vertex_count == 1728 && p->skin == 0 && p->joint_count == 24 &&
          p->set_count == 1);
    CHECK(ossa_model_primitive_info(model, 1) == NULL);
    ossa_model_streams s = ossa_model_primitive_streams(model, 0);
    CHECK(s.positions && s.joints && s.weights && s.texcoords && !s.target_positions);
    CHECK(ossa_model_primitive_streams(model, 7).positions == NULL);
    ossa_model_material m = ossa_model_material_info(model, p->material);
    CHECK(m.image && m.image_size > 0 && m.image_mime && !strcmp(m.image_mime, "image/png"));
    CHECK(ossa_model_material_info(model, -1).base_color[0] == 1.0f);
    CHECK(!strcmp(ossa_model_file(model), "Fox.glb"));
    ossa_model_free(model);
}

/* A crowd of two models in an irregular order (runs of one to five characters of a model, so
 * that groups of four break at every position) equals one update per character. */
static void check_mixed_crowd(void) {
    enum { COUNT = 41 };
    counting_allocator counter = {0, 0};
    ossa_model *models[2] = {
        load_model(ossa_test_shared_path("models/Fox/Fox.glb"), &counter, 1),
        load_model(ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb"), &counter,
                   0)};
    if (!models[0] || !models[1]) {
        ossa_model_free(models[0]), ossa_model_free(models[1]);
        return;
    }
    ossa_character *crowd[COUNT], *alone[COUNT];
    const ossa_clip *clips[COUNT];
    double clocks[COUNT];
    static const int runs[] = {1, 4, 2, 5, 3, 1, 1, 4, 4, 2, 3, 5, 1, 2, 3};
    int which = 0, left = runs[0], run = 0;
    for (int i = 0; i < COUNT; i++) {
        if (left == 0) {
            which ^= 1;
            run = (run + 1) % (int)(sizeof runs / sizeof *runs);
            left = runs[run];
        }
        left--;
        const ossa_model *model = models[which];
        CHECK(ossa_character_create(model, &crowd[i], NULL) == OSSA_OK);
        CHECK(ossa_character_create(model, &alone[i], NULL) == OSSA_OK);
        clips[i] = ossa_model_clip(model, (uint32_t)i % ossa_model_clip_count(model));
        clocks[i] = 0.051 * i;
    }
    int mismatches = crowd_mismatches(crowd, alone, COUNT, clips, clocks, OSSA_WRAP_LOOP, NULL);
    CHECKF(mismatches == 0, "%d characters of a mixed crowd differ from single updates",
           mismatches);
    for (int i = 0; i < COUNT; i++)
        ossa_character_free(crowd[i]), ossa_character_free(alone[i]);
    ossa_model_free(models[0]);
    ossa_model_free(models[1]);
}

int main(void) {
    ossa_test_walk(ossa_test_shared_path("models"), ".glb", check_model, NULL);
    ossa_test_walk(ossa_test_shared_path("models"), ".gltf", check_model, NULL);
    check_fox_lookup();
    check_mixed_crowd();
    return ossa_test_finish("model_runtime");
}
