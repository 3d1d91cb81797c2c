/* The fuzz pipeline (fuzz_pipeline.h): every layer of ossa on one input, contracts checked. */
#include "fuzz_pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip/clip_internal.h"
#include "fuzz_contract.h"
#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/model.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"

/* Work per input at most, in elements touched (nodes, tracks, vertices, decoded floats): a
 * small file can describe much work (many clips over many nodes, nodes sharing a big mesh, data-
 * less accessors); past the budget the remaining steps are skipped so every run stays fast. */
#define WORK_BUDGET (1ll << 24)

const char *fuzz_outcome_name(fuzz_outcome outcome) {
    switch (outcome) {
    case FUZZ_REFUSED_BY_LOADER:
        return "refused by loader";
    case FUZZ_REFUSED_BY_RIG:
        return "refused by rig";
    case FUZZ_REFUSED_BY_CLIPS:
        return "refused by clips";
    default:
        return "animated";
    }
}

/* malloc that never returns NULL for a zero size, so buffers of empty models are valid. */
static void *xcalloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    REQUIRE(p != NULL, "harness out of memory (%zu x %zu)", count, size);
    return p;
}

static void check_rig(const ossa_document *doc, const ossa_rig *rig) {
    REQUIRE(rig->node_count == doc->node_count, "rig has %u nodes, document %u", rig->node_count,
            doc->node_count);
    for (uint32_t i = 0; i < rig->node_count; i++) {
        int32_t g = rig->gltf_from_rig[i];
        REQUIRE(g >= 0 && (uint32_t)g < doc->node_count, "rig node %u maps to glTF %d", i, g);
        REQUIRE(rig->rig_from_gltf[g] == (int32_t)i, "node maps disagree at rig node %u", i);
        REQUIRE(rig->parent[i] >= -1 && rig->parent[i] < (int32_t)i, "parent[%u] = %d", i,
                rig->parent[i]);
        int32_t doc_parent = doc->nodes[g].parent;
        int32_t expected = doc_parent < 0 ? -1 : rig->rig_from_gltf[doc_parent];
        REQUIRE(rig->parent[i] == expected, "rig node %u: parent %d, document says %d", i,
                rig->parent[i], expected);
    }
    REQUIRE(rig->skin_count == doc->skin_count, "rig has %u skins, document %u", rig->skin_count,
            doc->skin_count);
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        const ossa_rig_skin *skin = &rig->skins[s];
        REQUIRE(skin->joint_count <= rig->max_joint_count, "skin %u exceeds max_joint_count", s);
        for (uint32_t j = 0; j < skin->joint_count; j++)
            REQUIRE(skin->joints[j] >= 0 && (uint32_t)skin->joints[j] < rig->node_count,
                    "skin %u joint %u is rig node %d", s, j, skin->joints[j]);
    }
}

static void check_clips(const ossa_document *doc, const ossa_rig *rig, const ossa_clip_set *set) {
    REQUIRE(ossa_clip_set_count(set) == doc->animation_count, "%u clips for %u animations",
            ossa_clip_set_count(set), doc->animation_count);
    for (uint32_t c = 0; c < ossa_clip_set_count(set); c++) {
        const ossa_clip *clip = ossa_clip_set_clip(set, c);
        for (uint32_t t = 0; t < clip->track_count; t++)
            REQUIRE(clip->tracks[t].node >= 0 && (uint32_t)clip->tracks[t].node < rig->node_count,
                    "clip %u track %u targets rig node %d", c, t, clip->tracks[t].node);
        for (uint32_t l = 0; l < clip->timeline_count; l++) {
            const ossa_timeline *tl = &clip->timelines[l];
            const float *times = clip->times + tl->time_offset;
            REQUIRE(tl->key_count >= 2, "clip %u timeline %u has %u keys", c, l, tl->key_count);
            for (uint32_t k = 1; k < tl->key_count; k++)
                REQUIRE(times[k] > times[k - 1], "clip %u timeline %u: key %u does not increase", c,
                        l, k);
        }
    }
}

/* Per-frame buffers sized from the rig. */
typedef struct frame_buffers {
    ossa_pose pose, cursor_pose;
    float *world, *rigid, *similarity, *palette, *dual_quats, *skin_dual_quats, *palettes;
    uint32_t *cursor_keys, cursor_capacity;
    long long budget; /* work left, see WORK_BUDGET */
} frame_buffers;

/* Takes `cost` from the budget; 0 when there is not enough left (nothing is taken then). */
static int spend(long long *budget, long long cost) {
    if (cost > *budget) return 0;
    *budget -= cost;
    return 1;
}

static void buffers_open(const ossa_rig *rig, const ossa_clip_set *set, frame_buffers *b) {
    size_t n = rig->node_count, joints = rig->max_joint_count, all_joints = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++)
        all_joints += rig->skins[s].joint_count;
    uint32_t timelines = 0;
    for (uint32_t c = 0; c < ossa_clip_set_count(set); c++)
        if (ossa_cursor_size(ossa_clip_set_clip(set, c)) > timelines)
            timelines = ossa_cursor_size(ossa_clip_set_clip(set, c));
    b->pose.local = xcalloc(n, sizeof(ossa_trs));
    b->pose.weights = xcalloc(rig->weight_total, sizeof(float));
    b->cursor_pose.local = xcalloc(n, sizeof(ossa_trs));
    b->cursor_pose.weights = xcalloc(rig->weight_total, sizeof(float));
    b->world = xcalloc(n, OSSA_MATRIX_FLOATS * sizeof(float));
    b->rigid = xcalloc(n, OSSA_RIGID_FLOATS * sizeof(float));
    b->similarity = xcalloc(n, OSSA_SIMILARITY_FLOATS * sizeof(float));
    b->palette = xcalloc(joints, OSSA_MATRIX_FLOATS * sizeof(float));
    b->skin_dual_quats = xcalloc(joints, 12 * sizeof(float));
    b->palettes = xcalloc(all_joints, OSSA_MATRIX_FLOATS * sizeof(float));
    b->cursor_keys = xcalloc(timelines, sizeof(uint32_t));
    b->cursor_capacity = timelines;
}

static void buffers_close(frame_buffers *b) {
    free(b->pose.local), free(b->pose.weights);
    free(b->cursor_pose.local), free(b->cursor_pose.weights);
    free(b->world), free(b->rigid), free(b->similarity), free(b->palette);
    free(b->skin_dual_quats), free(b->palettes), free(b->cursor_keys);
}

/* Forward kinematics in every form, and every palette of every skin. */
static void run_poses(const ossa_rig *rig, frame_buffers *b) {
    if (!spend(&b->budget, 8ll * rig->node_count + 4ll * rig->max_joint_count * rig->skin_count))
        return;
    float local[OSSA_MATRIX_FLOATS];
    for (uint32_t i = 0; i < rig->node_count; i++)
        REQUIRE(ossa_local_matrix(rig, &b->pose, i, local, NULL) == OSSA_OK, "local matrix %u", i);
    ossa_fk_matrices(rig, &b->pose, b->world);
    ossa_fk_rigid(rig, &b->pose, b->rigid);
    ossa_fk_similarity(rig, &b->pose, b->similarity);
    ossa_fk_palettes_world(rig, &b->pose, b->world, b->palettes);
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        const ossa_rig_skin *skin = &rig->skins[s];
        REQUIRE(ossa_palette_floats(rig, s) == OSSA_MATRIX_FLOATS * skin->joint_count,
                "skin %u: palette_floats %u for %u joints", s, ossa_palette_floats(rig, s),
                skin->joint_count);
        REQUIRE(ossa_palette_world(rig, s, b->world, b->palette, NULL) == OSSA_OK, "skin %u", s);
        for (uint32_t m = 0; m < skin->mesh_node_count; m++)
            REQUIRE(ossa_palette_mesh(rig, s, skin->mesh_nodes[m], b->world, b->palette, NULL) ==
                        OSSA_OK,
                    "skin %u", s);
        REQUIRE(ossa_palette_mesh(rig, s, -1, b->world, b->palette, NULL) == OSSA_OK, "skin %u", s);
        ossa_skin_dual_quats(b->palette, skin->joint_count, b->skin_dual_quats);
    }
}

/* Samples a clip at a sequence of times, statelessly and with a cursor: both must agree to the
 * bit (sample.h promises it), then runs the poses. */
static void run_clip(const ossa_rig *rig, const ossa_clip *clip, frame_buffers *b) {
    float d = clip->duration;
    float times[] = {clip->start - 1.0f,
                     clip->start,
                     clip->start + 0.37f * d,
                     clip->start + 0.5f * d,
                     clip->end,
                     clip->end + 1.0f,
                     clip->start + 0.1f * d,
                     ossa_clip_time(clip, 12345.678, OSSA_WRAP_LOOP),
                     ossa_clip_time(clip, -7.25, OSSA_WRAP_PING_PONG),
                     ossa_clip_time(clip, NAN, OSSA_WRAP_CLAMP),
                     NAN,
                     INFINITY};
    ossa_cursor cursor = {b->cursor_keys, b->cursor_capacity};
    ossa_cursor_reset(clip, &cursor);
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        if (!spend(&b->budget, 2ll * (rig->node_count + rig->weight_total + clip->track_count)))
            return;
        ossa_clip_sample(rig, clip, times[i], NULL, &b->pose);
        ossa_clip_sample(rig, clip, times[i], &cursor, &b->cursor_pose);
        REQUIRE(!memcmp(b->pose.local, b->cursor_pose.local, rig->node_count * sizeof(ossa_trs)),
                "cursor and stateless sampling differ at time %g", (double)times[i]);
        REQUIRE(!rig->weight_total || !memcmp(b->pose.weights, b->cursor_pose.weights,
                                              rig->weight_total * sizeof(float)),
                "cursor and stateless weights differ at time %g", (double)times[i]);
        if (i % 3 == 2) run_poses(rig, b);
        /* named float tracks (KHR_animation_pointer): at most 4 finite-in, any-time values */
        for (uint32_t t = 0; t < ossa_clip_float_track_count(clip); t++) {
            float value[4];
            uint32_t n = ossa_clip_float_track_sample(clip, t, times[i], value);
            REQUIRE(n >= 1 && n <= 4 && n == ossa_clip_float_track(clip, t).components,
                    "float track %u wrote %u floats", t, n);
        }
    }
}

/* Prepares one primitive and skins it with every supported backend, both modes and orders. */
static void run_skin(const ossa_document *doc, const ossa_rig *rig, uint32_t node,
                     uint32_t primitive, frame_buffers *b) {
    int32_t mesh = rig->mesh[node], skin = rig->skin[node];
    if (!spend(&b->budget, (long long)doc->meshes[mesh].primitives[primitive].vertex_count)) return;
    ossa_skin_mesh *prepared = NULL;
    ossa_error error;
    memset(&error, 0, sizeof error);
    ossa_result r =
        ossa_skin_mesh_from_document(doc, (uint32_t)mesh, primitive, skin, NULL, &prepared, &error);
    if (r != OSSA_OK) {
        check_refusal("ossa_skin_mesh_from_document", r, &error, prepared);
        return;
    }
    REQUIRE(prepared != NULL, "skin mesh: OK without a mesh");
    size_t vertices = ossa_skin_mesh_vertex_count(prepared);
    size_t slots = ossa_skin_mesh_slot_count(prepared);
    REQUIRE(slots % 16 == 0 && slots >= vertices, "%zu slots for %zu vertices", slots, vertices);
    const uint32_t *order = ossa_skin_mesh_order(prepared);
    for (size_t i = 0; i < slots; i++)
        REQUIRE(order[i] < vertices, "order[%zu] = %u of %zu vertices", i, order[i], vertices);
    size_t room = slots > vertices ? slots : vertices;
    float *positions = xcalloc(room, 3 * sizeof(float));
    float *normals = xcalloc(room, 3 * sizeof(float));
    float *tangents = xcalloc(room, 4 * sizeof(float));
    ossa_skin_output out = {positions,
                            0,
                            ossa_skin_mesh_has_normals(prepared) ? normals : NULL,
                            0,
                            ossa_skin_mesh_has_tangents(prepared) ? tangents : NULL,
                            0};

    ossa_skin_frame frame;
    memset(&frame, 0, sizeof frame);
    if (skin >= 0) {
        REQUIRE(ossa_palette_mesh(rig, (uint32_t)skin, (int32_t)node, b->world, b->palette, NULL) ==
                    OSSA_OK,
                "palette of node %u", node);
        frame.palette = b->palette;
        frame.joint_count = rig->skins[skin].joint_count;
        ossa_skin_dual_quats(b->palette, frame.joint_count, b->skin_dual_quats);
        frame.dual_quats = b->skin_dual_quats;
    } else {
        frame.transform = b->world + (size_t)OSSA_MATRIX_FLOATS * node;
    }
    frame.morph_weights = b->pose.weights + rig->weight_offset[node];
    frame.morph_weight_count = rig->weight_count[node];
    for (int backend = OSSA_SKIN_BACKEND_AUTO;
         backend < OSSA_SKIN_BACKEND_COUNT && spend(&b->budget, 6ll * (long long)slots);
         backend++) {
        if (!ossa_skin_backend_supported((ossa_skin_backend)backend)) continue;
        frame.backend = (ossa_skin_backend)backend;
        for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++) {
            frame.mode = (ossa_skin_mode)mode;
            frame.order = OSSA_SKIN_ORDER_PREPARED;
            ossa_result run = ossa_skin_mesh_run(prepared, &frame, &out, room, 0, slots, &error);
            /* Odd ranges, and a range past the end (clamped). */
            if (run == OSSA_OK)
                run =
                    ossa_skin_mesh_run(prepared, &frame, &out, room, slots / 3, slots + 17, &error);
            frame.order = OSSA_SKIN_ORDER_ORIGINAL;
            if (run == OSSA_OK)
                run = ossa_skin_mesh_run(prepared, &frame, &out, room, 0, slots, &error);
            REQUIRE(run == OSSA_OK, "skinning valid inputs failed: %s", error.message);
        }
    }
    free(positions), free(normals), free(tangents);
    ossa_skin_mesh_free(prepared);
}

static void run_meshes(const ossa_document *doc, const ossa_rig *rig, frame_buffers *b) {
    for (uint32_t node = 0; node < rig->node_count; node++) {
        int32_t mesh = rig->mesh[node];
        if (mesh < 0) continue;
        REQUIRE((uint32_t)mesh < doc->mesh_count, "rig node %u has mesh %d", node, mesh);
        REQUIRE(rig->skin[node] < (int32_t)rig->skin_count, "rig node %u has skin %d", node,
                rig->skin[node]);
        for (uint32_t p = 0; p < doc->meshes[mesh].primitive_count; p++) {
            run_skin(doc, rig, node, p, b);
        }
    }
}

/* 1 when every value of a local transform is finite. */
static int trs_finite(const ossa_trs *t) {
    return all_finite(t->translation, sizeof *t / sizeof(float));
}

/* The model API with compact clips, built from the same document: it may refuse (consistently),
 * else each compact clip declares a finite error, samples the same with and without a cursor
 * and is finite wherever the plain clip is, and a character plays it. */
static void run_compact_model(const ossa_document *doc, const ossa_rig *rig,
                              const ossa_clip_set *plain, frame_buffers *b) {
    long long keys = 0;
    for (uint32_t c = 0; c < ossa_clip_set_count(plain); c++) {
        const ossa_clip *clip = ossa_clip_set_clip(plain, c);
        for (uint32_t l = 0; l < clip->timeline_count; l++)
            keys += clip->timelines[l].key_count;
    }
    long long vertices = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t p = 0; p < doc->meshes[m].primitive_count; p++)
            vertices += doc->meshes[m].primitives[p].vertex_count;
    /* the builder samples and measures each clip at four times per key, a few times over */
    if (!spend(&b->budget, 32ll * keys * (rig->node_count + rig->weight_total + 1) +
                               8ll * vertices * rig->node_count))
        return;
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.compact_clips = 1;
    desc.dual_quaternions = 1;
    desc.skip_cpu_skinning = 1; /* run_skin prepared every primitive already */
    ossa_model *model = NULL;
    ossa_error error;
    memset(&error, 0, sizeof error);
    ossa_result r = ossa_model_create(doc, &desc, &model, &error);
    if (r != OSSA_OK) {
        check_refusal("ossa_model_create", r, &error, model);
        return;
    }
    const ossa_rig *mrig = ossa_model_rig(model);
    REQUIRE(mrig->node_count == rig->node_count && mrig->weight_total == rig->weight_total &&
                ossa_model_clip_count(model) == ossa_clip_set_count(plain),
            "the model's rig or clips differ from the pipeline's");
    ossa_character *character = NULL;
    REQUIRE(ossa_character_create(model, &character, &error) == OSSA_OK, "character: %s",
            error.message);
    ossa_trs *plain_local = xcalloc(rig->node_count, sizeof *plain_local);
    float *plain_weights = xcalloc(rig->weight_total, sizeof *plain_weights);
    ossa_pose plain_pose = {plain_local, plain_weights};
    for (uint32_t c = 0; c < ossa_model_clip_count(model); c++) {
        const ossa_clip *clip = ossa_model_clip(model, c),
                        *reference = ossa_clip_set_clip(plain, c);
        REQUIRE(ossa_clip_is_compact(clip), "clip %u of a compact model is not compact", c);
        float declared = ossa_clip_compact_error(clip);
        REQUIRE(declared >= 0.0f && isfinite(declared), "clip %u declares error %g", c,
                (double)declared);
        uint32_t *keys = xcalloc(ossa_cursor_size(clip), sizeof *keys);
        ossa_cursor cursor = {keys, ossa_cursor_size(clip)};
        ossa_cursor_reset(clip, &cursor);
        float d = clip->duration;
        const float times[] = {clip->start, clip->start + 0.37f * d, clip->start + 0.5f * d,
                               clip->end, clip->start + 0.1f * d};
        for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
            if (!spend(&b->budget, 3ll * (rig->node_count + rig->weight_total + clip->track_count)))
                break;
            ossa_clip_sample(mrig, clip, times[i], NULL, &b->pose);
            ossa_clip_sample(mrig, clip, times[i], &cursor, &b->cursor_pose);
            REQUIRE(
                !memcmp(b->pose.local, b->cursor_pose.local, rig->node_count * sizeof(ossa_trs)),
                "clip %u: compact cursor and stateless sampling differ at %g", c, (double)times[i]);
            ossa_clip_sample(rig, reference, times[i], NULL, &plain_pose);
            for (uint32_t g = 0; g < rig->node_count; g++) {
                const ossa_trs *p = &plain_local[rig->rig_from_gltf[g]];
                const ossa_trs *q = &b->pose.local[mrig->rig_from_gltf[g]];
                REQUIRE(!trs_finite(p) || trs_finite(q),
                        "clip %u at %g: glTF node %u finite in the plain clip, not the compact one",
                        c, (double)times[i], g);
            }
            REQUIRE(ossa_character_update(character, clip, times[i], OSSA_WRAP_LOOP, &error) ==
                        OSSA_OK,
                    "character update: %s", error.message);
        }
        free(keys);
    }
    free(plain_local), free(plain_weights);
    ossa_character_free(character);
    ossa_model_free(model);
}

/* Reads every accessor whole through the public decoder. */
static void read_accessors(const ossa_document *doc, uint64_t max_elements, long long *budget) {
    for (uint32_t a = 0; a < doc->accessor_count; a++) {
        const ossa_accessor *acc = &doc->accessors[a];
        REQUIRE(acc->count <= max_elements, "accessor %u: count %llu over the limit", a,
                (unsigned long long)acc->count);
        if (!spend(budget, (long long)acc->count * acc->components)) return;
        float *values = xcalloc((size_t)acc->count, acc->components * sizeof(float));
        ossa_result r = ossa_accessor_read_float(doc, (int32_t)a, 0, acc->count, values);
        REQUIRE(r == OSSA_OK, "accessor %u of a loaded document cannot be read (%s)", a,
                ossa_result_name(r));
        free(values);
    }
}

fuzz_outcome fuzz_pipeline_run(const uint8_t *data, size_t size, char *error_text,
                               size_t error_size) {
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "fuzz.glb";
    options.max_elements = FUZZ_MAX_ELEMENTS;
    options.max_buffer_bytes = FUZZ_MAX_BUFFER_BYTES;
    return fuzz_pipeline_run_with(data, size, &options, error_text, error_size);
}

fuzz_outcome fuzz_pipeline_run_with(const uint8_t *data, size_t size,
                                    const ossa_load_options *options, char *error_text,
                                    size_t error_size) {
    if (error_text && error_size) error_text[0] = '\0';
    uint64_t max_elements = options && options->max_elements ? options->max_elements : 1u << 28;
    ossa_error error;
    memset(&error, 0, sizeof error);
    ossa_document *doc = NULL;
    ossa_result r = ossa_document_load_memory(data, size, options, &doc, &error);
    fuzz_outcome outcome = FUZZ_REFUSED_BY_LOADER;
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    if (r != OSSA_OK) {
        check_refusal("ossa_document_load_memory", r, &error, doc);
        goto done;
    }
    REQUIRE(doc != NULL, "load: OK without a document");
    long long budget = WORK_BUDGET;
    read_accessors(doc, max_elements, &budget);

    outcome = FUZZ_REFUSED_BY_RIG;
    r = ossa_rig_build(doc, NULL, &rig, &error);
    if (r != OSSA_OK) {
        check_refusal("ossa_rig_build", r, &error, rig);
        goto done;
    }
    check_rig(doc, rig);

    outcome = FUZZ_REFUSED_BY_CLIPS;
    r = ossa_clip_set_build(doc, rig, NULL, &clips, &error);
    if (r != OSSA_OK) {
        check_refusal("ossa_clip_set_build", r, &error, clips);
        goto done;
    }
    check_clips(doc, rig, clips);

    outcome = FUZZ_ANIMATED;
    frame_buffers b;
    buffers_open(rig, clips, &b);
    b.budget = budget;
    ossa_pose_set_rest(rig, &b.pose);
    run_poses(rig, &b);
    run_meshes(doc, rig, &b);
    for (uint32_t c = 0; c < ossa_clip_set_count(clips); c++) {
        run_clip(rig, ossa_clip_set_clip(clips, c), &b);
        run_meshes(doc, rig, &b);
    }
    run_compact_model(doc, rig, clips, &b);
    buffers_close(&b);
done:
    if (r != OSSA_OK && error_text && error_size) ossa_error_format(&error, error_text, error_size);
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    ossa_document_free(doc);
    return outcome;
}
