/* Compact clips (ossa_model_desc::compact_clips): every golden file played by a character of a
 * compact model puts every node and every listed skinned vertex within the golden tolerance plus
 * the clip's declared error; the declared error is within budget; compact clips are smaller;
 * cursor sampling equals stateless sampling bit for bit, and the portable path the AVX-512 one;
 * misuse is refused; `ossa sample --compact` samples them. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "anim/track_batch.h"
#include "clip/clip_compact.h"
#include "ossa/model.h"
#include "test_support.h"

static int golden_files = 0;

static ossa_model *load_model(const char *path, int compact, float budget) {
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, NULL, &doc, &error) != OSSA_OK) {
        CHECKF(0, "%s loads: %s", path, error.message);
        return NULL;
    }
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.compact_clips = compact;
    desc.compact_error = budget;
    ossa_model *model = NULL;
    ossa_result r = ossa_model_create(doc, &desc, &model, &error);
    CHECKF(r == OSSA_OK, "%s: model: %s", path, error.message);
    ossa_document_free(doc);
    return model;
}

static double distance3(const float *a, const cJSON *b) {
    double d2 = 0.0;
    for (int c = 0; c < 3; c++) {
        double d = a[c] - cJSON_GetArrayItem(b, c)->valuedouble;
        d2 += d * d;
    }
    return sqrt(d2);
}

/* Index of the model primitive drawn by glTF node `node` for mesh primitive `p`, -1 if none. */
static int32_t find_primitive(const ossa_model *model, int32_t rig_node, uint32_t p) {
    for (uint32_t i = 0; i < ossa_model_primitive_count(model); i++) {
        const ossa_model_primitive *info = ossa_model_primitive_info(model, i);
        if (info->node == rig_node && info->primitive == p) return (int32_t)i;
    }
    return -1;
}

/* The largest distance between the character and the golden sample, nodes and vertices. */
static double sample_error(const ossa_model *model, const ossa_character *ch, const cJSON *sample,
                           float *positions) {
    const ossa_rig *rig = ossa_model_rig(model);
    const float *world = ossa_character_world(ch);
    double worst = 0.0;
    const cJSON *node;
    int g = 0;
    cJSON_ArrayForEach(node, cJSON_GetObjectItem(sample, "node_world")) {
        const float *m = world + 12 * (size_t)rig->rig_from_gltf[g++];
        float t[3] = {m[3], m[7], m[11]};
        cJSON *col3 = cJSON_CreateArray();
        for (int c = 0; c < 3; c++)
            cJSON_AddItemToArray(col3,
                                 cJSON_CreateNumber(cJSON_GetArrayItem(node, 12 + c)->valuedouble));
        double d = distance3(t, col3);
        cJSON_Delete(col3);
        if (d > worst) worst = d;
    }
    const cJSON *prim;
    cJSON_ArrayForEach(prim, cJSON_GetObjectItem(sample, "primitives")) {
        int32_t gltf_node = cJSON_GetObjectItem(prim, "node")->valueint;
        uint32_t p = (uint32_t)cJSON_GetObjectItem(prim, "primitive")->valueint;
        int32_t index = find_primitive(model, rig->rig_from_gltf[gltf_node], p);
        CHECKF(index >= 0, "primitive of node %d found", gltf_node);
        if (index < 0) continue;
        ossa_skin_output out = {positions, 0, NULL, 0, NULL, 0};
        ossa_error error;
        ossa_result r = ossa_character_skin(ch, (uint32_t)index, OSSA_SKIN_LBS, &out,
                                            ossa_model_max_vertex_count(model), &error);
        CHECKF(r == OSSA_OK, "skin: %s", error.message);
        const cJSON *vertices = cJSON_GetObjectItem(prim, "vertices");
        const cJSON *expected = cJSON_GetObjectItem(prim, "positions");
        for (int v = 0; v < cJSON_GetArraySize(vertices); v++) {
            int vi = cJSON_GetArrayItem(vertices, v)->valueint;
            double d = distance3(positions + 3 * (size_t)vi, cJSON_GetArrayItem(expected, v));
            if (d > worst) worst = d;
        }
    }
    return worst;
}

/* A time on the key k of compact timeline i, or halfway to the next key. */
static float compact_key_time(const struct ossa_compact *c, uint32_t i, uint32_t k, int half) {
    const ossa_compact_timeline *tl = &c->timelines[i];
    const float *times = c->times + tl->time_offset;
    if (k + 1 >= tl->key_count) half = 0;
    if (tl->flags & OSSA_COMPACT_UNIFORM)
        return times[0] + ((float)k + 0.5f * (float)half) / times[2];
    return half ? 0.5f * (times[k] + times[k + 1]) : times[k];
}

/* The portable path samples a compact clip bit for bit as the AVX-512 one (where it runs): on
 * every key, between keys and at random times. */
static void check_portable(const ossa_model *model, const ossa_clip *clip) {
    const ossa_rig *rig = ossa_model_rig(model);
    size_t nodes = rig->node_count, weights = rig->weight_total + 1;
    ossa_trs *a = calloc(nodes, sizeof *a), *b = calloc(nodes, sizeof *b);
    float *wa = calloc(weights, sizeof *wa), *wb = calloc(weights, sizeof *wb);
    ossa_pose pa = {a, wa}, pb = {b, wb};
    const struct ossa_compact *c = clip->compact;
    int mismatches = 0, samples = 0;
    for (uint32_t i = 0; c && i < c->timeline_count; i++)
        for (uint32_t k = 0; k < c->timelines[i].key_count; k++)
            for (int half = 0; half < 2; half++) {
                float t = compact_key_time(c, i, k, half);
                CHECK(ossa_clip_sample(rig, clip, t, NULL, &pa) == OSSA_OK);
                ossa_anim_force_portable(1);
                CHECK(ossa_clip_sample(rig, clip, t, NULL, &pb) == OSSA_OK);
                ossa_anim_force_portable(0);
                mismatches += memcmp(a, b, nodes * sizeof *a) || memcmp(wa, wb, weights * 4);
                samples++;
            }
    for (int i = 0; i < 300; i++) {
        float t = ossa_clip_start(clip) + ossa_clip_duration(clip) * ((float)i / 250.0f - 0.1f);
        CHECK(ossa_clip_sample(rig, clip, t, NULL, &pa) == OSSA_OK);
        ossa_anim_force_portable(1);
        CHECK(ossa_clip_sample(rig, clip, t, NULL, &pb) == OSSA_OK);
        ossa_anim_force_portable(0);
        mismatches += memcmp(a, b, nodes * sizeof *a) || memcmp(wa, wb, weights * 4);
        samples++;
    }
    CHECKF(mismatches == 0,
           "%d of %d compact samples differ between the portable and the "
           "AVX-512 path",
           mismatches, samples);
    free(a);
    free(b);
    free(wa);
    free(wb);
}

/* Cursor sampling of a compact clip equals stateless sampling bit for bit, forward, backward and
 * jumping. */
static void check_cursor(const ossa_model *model, const ossa_clip *clip) {
    const ossa_rig *rig = ossa_model_rig(model);
    size_t nodes = rig->node_count, weights = rig->weight_total + 1;
    ossa_trs *a = calloc(nodes, sizeof *a), *b = calloc(nodes, sizeof *b);
    float *wa = calloc(weights, sizeof *wa), *wb = calloc(weights, sizeof *wb);
    uint32_t *keys = calloc(ossa_cursor_size(clip) + 1, sizeof *keys);
    ossa_cursor cursor = {keys, ossa_cursor_size(clip)};
    ossa_pose pa = {a, wa}, pb = {b, wb};
    float start = ossa_clip_start(clip), span = ossa_clip_duration(clip);
    int same = 1;
    for (int i = 0; i < 200; i++) {
        float f = i < 120 ? (float)i / 100.0f : (float)((i * 37) % 83) / 70.0f - 0.1f;
        float t = start + span * f;
        ossa_clip_sample(rig, clip, t, &cursor, &pa);
        ossa_clip_sample(rig, clip, t, NULL, &pb);
        same &= !memcmp(a, b, nodes * sizeof *a) && !memcmp(wa, wb, weights * sizeof *wa);
    }
    CHECKF(same, "cursor and stateless compact sampling agree bit for bit");
    /* A cursor's keys are hints: any values, even out of range, leave the result as it is. */
    for (int i = 0; i < 50; i++) {
        for (uint32_t k = 0; k < ossa_cursor_size(clip); k++)
            keys[k] = (uint32_t)(i * 7 + (int)k) % 5 == 0 ? UINT32_MAX : (uint32_t)(i * 3 + (int)k);
        float t = start + span * (float)i / 49.0f;
        ossa_clip_sample(rig, clip, t, &cursor, &pa);
        ossa_clip_sample(rig, clip, t, NULL, &pb);
        same &= !memcmp(a, b, nodes * sizeof *a) && !memcmp(wa, wb, weights * sizeof *wa);
    }
    CHECKF(same, "sampling with a cursor of arbitrary keys equals stateless sampling");
    if (ossa_cursor_size(clip) > 0) {
        ossa_cursor small = {keys, ossa_cursor_size(clip) - 1};
        CHECK(ossa_clip_sample(rig, clip, start, &small, &pa) == OSSA_ERROR_ARGUMENT);
    }
    free(a);
    free(b);
    free(wa);
    free(wb);
    free(keys);
}

/* The builder measures its error by sampling, so a sampling path that differs would make other
 * clips (or fall back to plain tracks, which check_portable cannot see): the compact clip built
 * on the portable path has the same bytes and declared error. */
static void check_portable_build(const char *file, int anim, const ossa_clip *clip) {
    ossa_anim_force_portable(1);
    ossa_model *model = load_model(ossa_test_shared_path(file), 1, 0.0f);
    ossa_anim_force_portable(0);
    if (!model) return;
    const ossa_clip *other = ossa_model_clip(model, (uint32_t)anim);
    CHECKF(ossa_clip_runtime_bytes(other) == ossa_clip_runtime_bytes(clip) &&
               ossa_clip_compact_error(other) == ossa_clip_compact_error(clip),
           "%s animation %d built on the portable path: %zu bytes, error %g; on this CPU's: %zu, "
           "%g",
           file, anim, ossa_clip_runtime_bytes(other), (double)ossa_clip_compact_error(other),
           ossa_clip_runtime_bytes(clip), (double)ossa_clip_compact_error(clip));
    ossa_model_free(model);
}

static void check_golden(const char *path, void *user) {
    (void)user;
    if (strstr(path, "CROSSCHECK")) return;
    size_t size = 0;
    char *text = (char *)ossa_test_read_file(path, &size);
    cJSON *golden = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECKF(golden != NULL, "%s parses", path);
    if (!golden) return;
    golden_files++;
    int anim = cJSON_GetObjectItem(golden, "animation")->valueint;
    double tol = cJSON_GetObjectItem(golden, "tolerance")->valuedouble;
    double diagonal = cJSON_GetObjectItem(golden, "bbox_diagonal")->valuedouble;
    const char *file = cJSON_GetObjectItem(golden, "model")->valuestring;
    ossa_model *compact = load_model(ossa_test_shared_path(file), 1, 0.0f);
    ossa_model *plain = load_model(ossa_test_shared_path(file), 0, 0.0f);
    if (compact && plain) {
        const ossa_clip *clip = ossa_model_clip(compact, (uint32_t)anim);
        const ossa_clip *plain_clip = ossa_model_clip(plain, (uint32_t)anim);
        float declared = ossa_clip_compact_error(clip), budget = ossa_clip_compact_budget(clip);
        CHECKF(ossa_clip_is_compact(clip) && !ossa_clip_is_compact(plain_clip), "%s", path);
        CHECKF(declared <= budget, "%s: declared error %g within budget %g", path, declared,
               budget);
        /* The default budget is 1e-4 of the model size; the goldens' bounding box is the same
         * measure taken over what they list (animated, so they differ a little). */
        CHECKF(budget > 0.25e-4 * diagonal && budget < 4e-4 * diagonal,
               "%s: budget %g for a diagonal of %g", path, budget, diagonal);
        /* Clips with nothing to compact (weights, STEP, CUBICSPLINE) pay a small header. */
        CHECKF(ossa_clip_runtime_bytes(clip) <= ossa_clip_runtime_bytes(plain_clip) + 64,
               "%s: compact %zu bytes, plain %zu", path, ossa_clip_runtime_bytes(clip),
               ossa_clip_runtime_bytes(plain_clip));
        ossa_character *ch = NULL;
        ossa_error error;
        CHECK(ossa_character_create(compact, &ch, &error) == OSSA_OK);
        float *positions = calloc(3 * (size_t)ossa_model_max_vertex_count(compact) + 3, 4);
        double worst = 0.0;
        const cJSON *sample;
        cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
            double t = cJSON_GetObjectItem(sample, "time")->valuedouble;
            CHECK(ossa_character_update(ch, clip, t, OSSA_WRAP_CLAMP, &error) == OSSA_OK);
            double e = sample_error(compact, ch, sample, positions);
            if (e > worst) worst = e;
        }
        CHECKF(worst <= tol + declared, "%s: worst distance %g > tolerance %g + declared %g", path,
               worst, tol, declared);
        printf("%-45s plain %6zu B compact %6zu B  error %.3g (budget %.3g) golden %.3g\n",
               path + strlen(ossa_test_shared_dir()) + 1, ossa_clip_runtime_bytes(plain_clip),
               ossa_clip_runtime_bytes(clip), declared, budget, worst);
        check_cursor(compact, clip);
        check_portable(compact, clip);
        check_portable_build(file, anim, clip);
        /* A compact clip belongs to its model only. */
        ossa_character *other = NULL;
        CHECK(ossa_character_create(plain, &other, &error) == OSSA_OK);
        CHECK(ossa_character_update(other, clip, 0.0, OSSA_WRAP_CLAMP, &error) ==
              OSSA_ERROR_ARGUMENT);
        ossa_character_free(other);
        ossa_character_free(ch);
        free(positions);
    }
    ossa_model_free(compact);
    ossa_model_free(plain);
    cJSON_Delete(golden);
}

/* The goal, and a guard against a build that silently keeps clips plain (one whose
 * compact sampling misses its budget falls back to plain tracks): compact clips no larger than
 * ozz's optimized .ozz files of the same clips (../shared/anchors/ozz/). */
static void check_sizes(void) {
    static const struct {
        const char *model, *clip;
        size_t ozz_bytes;
    } clips[] = {{"models/CesiumMan/glTF-Binary/CesiumMan.glb", NULL, 6792},
                 {"models/Fox/Fox.glb", "Run", 5448},
                 {"models/Fox/Fox.glb", "Walk", 4350}};
    for (size_t i = 0; i < sizeof clips / sizeof clips[0]; i++) {
        ossa_model *model = load_model(ossa_test_shared_path(clips[i].model), 1, 0.0f);
        int32_t index = !model          ? -1
                        : clips[i].clip ? ossa_model_find_clip(model, clips[i].clip)
                                        : 0;
        CHECKF(model && index >= 0, "%s %s", clips[i].model, clips[i].clip ? clips[i].clip : "");
        if (model && index >= 0) {
            size_t bytes = ossa_clip_runtime_bytes(ossa_model_clip(model, (uint32_t)index));
            CHECKF(bytes <= clips[i].ozz_bytes, "%s %s: compact %zu bytes, ozz %zu", clips[i].model,
                   clips[i].clip ? clips[i].clip : "0", bytes, clips[i].ozz_bytes);
        }
        ossa_model_free(model);
    }
}

/* 1 when key times are evenly spaced (the builder's test: to 1e-4 of the spacing). */
static int evenly_spaced(const float *times, uint64_t count) {
    double step = ((double)times[count - 1] - times[0]) / (double)(count - 1);
    for (uint64_t k = 1; k < count; k++)
        if (fabs(times[k] - (times[0] + (double)k * step)) > 1e-4 * step) return 0;
    return 1;
}

/* Fox's clips each have one plain timeline. Where it is evenly spaced, a compact timeline keeps a
 * subset of its keys, with their times, only where that takes fewer bytes than every key with
 * three floats for the times (OSSA_COMPACT_UNIFORM). Survey's one timeline keeps every key. */
static void check_uniform(void) {
    ossa_model *plain = load_model(ossa_test_shared_path("models/Fox/Fox.glb"), 0, 0.0f);
    ossa_model *compact = load_model(ossa_test_shared_path("models/Fox/Fox.glb"), 1, 0.0f);
    for (uint32_t i = 0; plain && compact && i < ossa_model_clip_count(plain); i++) {
        const ossa_clip *p = ossa_model_clip(plain, i);
        const struct ossa_compact *c = ossa_model_clip(compact, i)->compact;
        CHECKF(p->timeline_count == 1 && c, "Fox clip %u: one plain timeline, a compact form", i);
        if (p->timeline_count != 1 || !c) continue;
        uint64_t n = p->timelines[0].key_count;
        if (!evenly_spaced(p->times + p->timelines[0].time_offset, n)) continue;
        for (uint32_t t = 0; t < c->timeline_count; t++) {
            const ossa_compact_timeline *tl = &c->timelines[t];
            uint64_t stride = ossa_compact_stride(tl), kept = tl->key_count;
            if (tl->flags & OSSA_COMPACT_UNIFORM) continue;
            CHECKF(kept * (stride + 2) < n * stride + 6,
                   "Fox clip %u timeline %u: %llu of %llu keys with their times", i, t,
                   (unsigned long long)kept, (unsigned long long)n);
        }
        if (i == 0) /* its split would not pay (see check_split) */
            CHECKF(c->timeline_count == 1 && (c->timelines[0].flags & OSSA_COMPACT_UNIFORM) &&
                       c->timelines[0].key_count == n,
                   "Survey's one compact timeline keeps all %llu keys", (unsigned long long)n);
    }
    ossa_model_free(plain);
    ossa_model_free(compact);
}

/* A model of a glTF document given as JSON text (plain, or compact within `budget`); `what`
 * names it in failures. */
static ossa_model *model_from_json(const char *json, int compact, float budget, const char *what) {
    ossa_document *doc = NULL;
    ossa_model *model = NULL;
    ossa_error error;
    if (ossa_document_load_memory(json, strlen(json), NULL, &doc, &error) == OSSA_OK) {
        ossa_model_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.compact_clips = compact;
        desc.compact_error = budget;
        CHECKF(ossa_model_create(doc, &desc, &model, &error) == OSSA_OK, "%s model: %s", what,
               error.message);
    } else {
        CHECKF(0, "%s document loads: %s %s", what, error.path, error.message);
    }
    ossa_document_free(doc);
    return model;
}

enum { SPLIT_KEYS = 60, SPLIT_BUSY = 16, SPLIT_CALM = 16 };

/* A root with SPLIT_BUSY + SPLIT_CALM children, one clip of SPLIT_KEYS evenly spaced keys
 * rotating each child about z: the busy ones wiggle (every key needed), the calm ones turn
 * at a steady 0.1 rad over the clip (two keys enough). */
static ossa_model *split_model(void) {
    enum { NODES = SPLIT_BUSY + SPLIT_CALM };
    size_t floats = SPLIT_KEYS + (size_t)NODES * SPLIT_KEYS * 4;
    float *data = calloc(floats, sizeof *data);
    char *b64 = malloc(4 * ((floats * 4 + 2) / 3) + 1), *json = malloc(65536 + 2 * floats * 4);
    if (!data || !b64 || !json) {
        free(data), free(b64), free(json);
        return NULL;
    }
    for (int k = 0; k < SPLIT_KEYS; k++)
        data[k] = (float)k / 30.0f;
    for (int n = 0; n < NODES; n++)
        for (int k = 0; k < SPLIT_KEYS; k++) {
            double angle = n < SPLIT_BUSY ? 0.3 * sin(1.7 * k + n) : 0.1 * k / (SPLIT_KEYS - 1);
            float *q = data + SPLIT_KEYS + ((size_t)n * SPLIT_KEYS + (size_t)k) * 4;
            q[2] = (float)sin(angle / 2), q[3] = (float)cos(angle / 2);
        }
    ossa_test_base64((const unsigned char *)data, floats * 4, b64);
    size_t at =
        (size_t)sprintf(json, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[");
    for (int n = 0; n < NODES; n++)
        at += (size_t)sprintf(json + at, "%s%d", n ? "," : "", n + 1);
    at += (size_t)sprintf(json + at, "]}");
    for (int n = 0; n < NODES; n++)
        at += (size_t)sprintf(json + at, ",{\"translation\":[1,%d,0]}", n);
    at += (size_t)sprintf(json + at,
                          "],\"buffers\":[{\"byteLength\":%zu,\"uri\":"
                          "\"data:application/octet-stream;base64,%s\"}],\"bufferViews\":["
                          "{\"buffer\":0,\"byteLength\":%d}",
                          floats * 4, b64, SPLIT_KEYS * 4);
    for (int n = 0; n < NODES; n++)
        at += (size_t)sprintf(json + at, ",{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":%d}",
                              (SPLIT_KEYS + n * SPLIT_KEYS * 4) * 4, SPLIT_KEYS * 16);
    at += (size_t)sprintf(json + at,
                          "],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
                          "\"count\":%d,\"type\":\"SCALAR\",\"min\":[0],\"max\":[%.9g]}",
                          SPLIT_KEYS, (double)data[SPLIT_KEYS - 1]);
    for (int n = 0; n < NODES; n++)
        at += (size_t)sprintf(json + at,
                              ",{\"bufferView\":%d,\"componentType\":5126,\"count\":%d,"
                              "\"type\":\"VEC4\"}",
                              n + 1, SPLIT_KEYS);
    at += (size_t)sprintf(json + at, "],\"animations\":[{\"samplers\":[");
    for (int n = 0; n < NODES; n++)
        at += (size_t)sprintf(json + at, "%s{\"input\":0,\"output\":%d}", n ? "," : "", n + 1);
    at += (size_t)sprintf(json + at, "],\"channels\":[");
    for (int n = 0; n < NODES; n++)
        at += (size_t)sprintf(json + at,
                              "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"rotation\"}}",
                              n ? "," : "", n, n + 1);
    sprintf(json + at, "]}]}");
    ossa_model *model = model_from_json(json, 1, 0.001f, "split");
    free(data), free(b64), free(json);
    return model;
}

/* Tracks that need few keys next to tracks that need many get their own compact timeline where
 * that pays: here it halves the bytes for one key search more. Sampling two timelines (cursor
 * entries, the portable path) is checked as on the shared models. Survey's split does not pay
 * (check_uniform). */
static void check_split(void) {
    ossa_model *model = split_model();
    if (!model) return;
    const ossa_clip *clip = ossa_model_clip(model, 0);
    const struct ossa_compact *c = clip->compact;
    CHECKF(c && c->timeline_count == 2, "the calm and the busy tracks split: %u compact timelines",
           c ? c->timeline_count : 0);
    for (uint32_t i = 0; c && i < c->timeline_count; i++) {
        const ossa_compact_timeline *tl = &c->timelines[i];
        uint32_t tracks = tl->rot3 + tl->rot4 + tl->vec;
        CHECKF(tracks == 16 && (tl->key_count <= 3 || tl->key_count == SPLIT_KEYS),
               "timeline %u: %u tracks at %u keys", i, tracks, tl->key_count);
    }
    CHECK(ossa_clip_compact_error(clip) <= 0.001f);
    check_portable(model, clip);
    check_cursor(model, clip);
    ossa_model_free(model);
}

/* ossa_test_two_track_gltf as a compact model or a plain one. */
static ossa_model *two_track_model(const float translation[3][3], const float rotation[3][4],
                                   int compact) {
    char json[2048];
    ossa_test_two_track_gltf(translation, rotation, json, sizeof json);
    return model_from_json(json, compact, 0.0f, "two-track");
}

/* Node 1's local TRS in the model's first clip at time t. */
static ossa_trs node1_at(const ossa_model *model, float t) {
    const ossa_rig *rig = ossa_model_rig(model);
    ossa_trs local[3];
    float weights[1];
    ossa_pose pose = {local, weights};
    ossa_clip_sample(rig, ossa_model_clip(model, 0), t, NULL, &pose);
    return local[rig->rig_from_gltf[1]];
}

/* Keys near the float range overflow a quantized range (and a lerp): such a clip stays exact
 * (plain) rather than sampling NaN with a declared error of 0. */
static void check_overflow(void) {
    const float t[3][3] = {{-3e38f, 0, 0}, {3e38f, 1, 0}, {0, 0, 0}};
    const float r[3][4] = {{0, 0, 0, 1}, {0, 0.6f, 0, 0.8f}, {0, 0, 0, 1}};
    ossa_model *plain = two_track_model(t, r, 0), *compact = two_track_model(t, r, 1);
    if (!plain || !compact) {
        ossa_model_free(plain), ossa_model_free(compact);
        return;
    }
    CHECK(ossa_clip_compact_error(ossa_model_clip(compact, 0)) == 0.0f);
    for (int k = 0; k < 3; k++) {
        ossa_trs a = node1_at(plain, (float)k), b = node1_at(compact, (float)k);
        CHECKF(!memcmp(&a, &b, sizeof a), "key %d: compact (%g %g %g) as plain (%g %g %g)", k,
               (double)b.translation[0], (double)b.translation[1], (double)b.translation[2],
               (double)a.translation[0], (double)a.translation[1], (double)a.translation[2]);
    }
    ossa_model_free(plain), ossa_model_free(compact);
}

/* A model with no extent at rest (every node at the origin, no mesh) still keeps its joints'
 * orientation: node 1 turns half a turn and back, which moves no node, and its compact clip
 * must turn it too. */
static void check_no_extent(void) {
    const float t[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 0}};
    const float r[3][4] = {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 0, 0, 1}};
    ossa_model *plain = two_track_model(t, r, 0), *compact = two_track_model(t, r, 1);
    if (!plain || !compact) {
        ossa_model_free(plain), ossa_model_free(compact);
        return;
    }
    const float times[] = {0.5f, 1.0f, 1.25f};
    for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
        ossa_trs a = node1_at(plain, times[i]), b = node1_at(compact, times[i]);
        float dot = 0.0f;
        for (int c = 0; c < 4; c++)
            dot += a.rotation[c] * b.rotation[c];
        CHECKF(fabsf(dot) > 0.999f, "t %g: compact rotation (%g %g %g %g), plain (%g %g %g %g)",
               (double)times[i], (double)b.rotation[0], (double)b.rotation[1],
               (double)b.rotation[2], (double)b.rotation[3], (double)a.rotation[0],
               (double)a.rotation[1], (double)a.rotation[2], (double)a.rotation[3]);
    }
    ossa_model_free(plain), ossa_model_free(compact);
}

/* A tighter budget is honoured too (and gives larger clips); bad budgets are refused. */
static void check_budgets(void) {
    const char *fox = ossa_test_shared_path("models/Fox/Fox.glb");
    ossa_model *loose = load_model(fox, 1, 0.0f), *tight = load_model(fox, 1, 0.0005f);
    if (loose && tight) { /* Run: its keys are reduced (Survey keeps all of them) */
        const ossa_clip *a = ossa_model_clip(loose, 2), *b = ossa_model_clip(tight, 2);
        CHECK(ossa_clip_compact_budget(b) == 0.0005f);
        CHECK(ossa_clip_compact_error(b) <= 0.0005f);
        CHECK(ossa_clip_compact_budget(a) > 0.01f); /* Fox is about 176 units across */
        CHECKF(ossa_clip_runtime_bytes(b) > ossa_clip_runtime_bytes(a),
               "Run: %zu bytes within 0.0005, %zu within the default budget",
               ossa_clip_runtime_bytes(b), ossa_clip_runtime_bytes(a));
    }
    ossa_model_free(loose);
    ossa_model_free(tight);
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(ossa_document_load_file(fox, NULL, &doc, &error) == OSSA_OK);
    float bad[3] = {-1.0f, NAN, INFINITY};
    for (int i = 0; doc && i < 3; i++) {
        ossa_model_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.compact_clips = 1;
        desc.compact_error = bad[i];
        ossa_model *model = (ossa_model *)&desc; /* must be reset to NULL */
        CHECK(ossa_model_create(doc, &desc, &model, &error) == OSSA_ERROR_ARGUMENT);
        CHECK(model == NULL);
        CHECK(strstr(error.message, "compact_error") != NULL);
    }
    ossa_document_free(doc);
}

/* Node translations of `ossa sample --json` output (node_world is column-major 4x4): the
 * largest distance between two outputs of the same times, or -1 when they do not match up. */
static double node_distance(const char *a_json, const char *b_json) {
    cJSON *a = cJSON_Parse(a_json), *b = cJSON_Parse(b_json);
    cJSON *sa = cJSON_GetObjectItem(a, "samples"), *sb = cJSON_GetObjectItem(b, "samples");
    double worst =
        cJSON_GetArraySize(sa) > 0 && cJSON_GetArraySize(sa) == cJSON_GetArraySize(sb) ? 0.0 : -1.0;
    for (int i = 0; worst >= 0 && i < cJSON_GetArraySize(sa); i++) {
        cJSON *na = cJSON_GetObjectItem(cJSON_GetArrayItem(sa, i), "node_world");
        cJSON *nb = cJSON_GetObjectItem(cJSON_GetArrayItem(sb, i), "node_world");
        for (int n = 0; n < cJSON_GetArraySize(na); n++) {
            double d2 = 0.0;
            for (int c = 12; c < 15; c++) {
                double d = cJSON_GetArrayItem(cJSON_GetArrayItem(na, n), c)->valuedouble -
                           cJSON_GetArrayItem(cJSON_GetArrayItem(nb, n), c)->valuedouble;
                d2 += d * d;
            }
            if (sqrt(d2) > worst) worst = sqrt(d2);
        }
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
    return worst;
}

/* `ossa sample --compact` samples the compact clips: it names them on stderr with their
 * declared error, and Fox's Run puts every node within about that error of the plain output. */
static void check_sample_cli(void) {
    const char *fox = ossa_test_shared_path("models/Fox/Fox.glb");
    char args[4096], *plain = NULL, *compact = NULL, *err = NULL, *err2 = NULL;
    const char *times = "--time 0.05 --time 0.3 --time 0.71 --time 1.1";
    snprintf(args, sizeof args, "sample '%s' --anim 2 %s --json", fox, times);
    CHECK(ossa_test_run_cli(args, &plain, &err) == 0);
    snprintf(args, sizeof args, "sample '%s' --anim 2 %s --json --compact", fox, times);
    CHECK(ossa_test_run_cli(args, &compact, &err2) == 0);
    const char *line = err2 ? strstr(err2, "compact clip 2 \"Run\": ") : NULL;
    const char *at = line ? strstr(line, "error ") : NULL;
    double declared = -1.0;
    CHECKF(at && sscanf(at, "error %lf", &declared) == 1, "--compact names the clips: %s",
           err2 ? err2 : "");
    double moved = plain && compact ? node_distance(plain, compact) : -1.0;
    printf("sample --compact: Run's nodes moved up to %g, declared %g\n", moved, declared);
    CHECKF(moved > 0.0 && declared > 0.0 && moved <= 1.5 * declared, "moved %g, declared %g", moved,
           declared);
    free(plain), free(compact), free(err), free(err2);
}

int main(void) {
    char golden_dir[4096];
    snprintf(golden_dir, sizeof golden_dir, "%s", ossa_test_shared_path("golden"));
    ossa_test_walk(golden_dir, ".json", check_golden, NULL);
    CHECKF(golden_files >= 30, "found %d golden files", golden_files);
    check_sizes();
    check_uniform();
    check_split();
    check_overflow();
    check_no_extent();
    check_budgets();
    check_sample_cli();
    return ossa_test_finish("compact_clips");
}
