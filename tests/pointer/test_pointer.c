/* KHR_animation_pointer on files written here: node translation / rotation / scale / weights
 * pointers and a mesh's weights sample bit for bit as the same file written with ordinary
 * channels (library and `ossa sample --json`); material and camera pointers are named float
 * tracks sampled at key and mid-key times (STEP, LINEAR, CUBICSPLINE), also in compact clips,
 * and characters draw the animated material values (also when the program samples its clips
 * itself); malformed pointers are refused naming the
 * JSON path; a pointer to a property ossa does not model is a warning naming it, and the rest of
 * the clip plays. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "ossa/model.h"
#include "pointer_files.h"
#include "test_support.h"

#define JSON_SIZE    16384
#define POINTER_PATH "animations[0].channels[0].target.extensions.KHR_animation_pointer.pointer"

static const char *const used = "'KHR_animation_pointer','KHR_texture_transform'";

static ossa_result load(const char *json, ossa_document **doc, ossa_error *error) {
    size_t size;
    const uint8_t *bin = pointer_bin(&size);
    return io_load_json(json, bin, size, NULL, doc, error);
}

/* The node channels as pointers (and the mesh's weights), plus material and camera pointers. */
static void pointer_channels(char *out, size_t size) {
    static const struct {
        int sampler;
        const char *pointer;
    } list[] = {{S_TRANSLATION, "/nodes/0/translation"},
                {S_ROTATION, "/nodes/0/rotation"},
                {S_SCALE, "/nodes/0/scale"},
                {S_NODE_WEIGHTS, "/nodes/0/weights"},
                {S_MESH_WEIGHTS, "/meshes/0/weights"},
                {S_BASE_COLOR, "/materials/0/pbrMetallicRoughness/baseColorFactor"},
                {S_UV_OFFSET, "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/"
                              "KHR_texture_transform/offset"},
                {S_YFOV, "/cameras/0/perspective/yfov"},
                {S_EMISSIVE, "/materials/0/emissiveFactor"}};
    out[0] = '\0';
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        char channel[512];
        pointer_channel(channel, sizeof channel, list[i].sampler, list[i].pointer);
        if (i) strncat(out, ",", size - strlen(out) - 1);
        strncat(out, channel, size - strlen(out) - 1);
    }
}

/* The same node animation written with ordinary channels: the mesh's weights animate node 1
 * only (node 0's weights have their own channel, node 2 has its own weights). */
static const char ordinary_channels[] = "{'sampler':0,'target':{'node':0,'path':'translation'}},"
                                        "{'sampler':1,'target':{'node':0,'path':'rotation'}},"
                                        "{'sampler':2,'target':{'node':0,'path':'scale'}},"
                                        "{'sampler':3,'target':{'node':0,'path':'weights'}},"
                                        "{'sampler':4,'target':{'node':1,'path':'weights'}}";

typedef struct loaded {
    ossa_document *doc;
    ossa_model *model;
} loaded;

static int open_file(loaded *l, const char *json, int compact) {
    ossa_error error;
    l->doc = NULL;
    l->model = NULL;
    ossa_result r = load(json, &l->doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    if (r != OSSA_OK) return 0;
    ossa_model_desc desc = {0};
    desc.compact_clips = compact;
    r = ossa_model_create(l->doc, &desc, &l->model, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    return r == OSSA_OK;
}

static void close_file(loaded *l) {
    ossa_model_free(l->model);
    ossa_document_free(l->doc);
}

/* Poses of both files at key, mid-key and outside times: identical bytes. */
static void check_same_as_ordinary(void) {
    static char pointer_json_text[JSON_SIZE], ordinary_json[JSON_SIZE], channels[8192];
    pointer_channels(channels, sizeof channels);
    pointer_json(pointer_json_text, sizeof pointer_json_text, channels, used, "");
    pointer_json(ordinary_json, sizeof ordinary_json, ordinary_channels, "'KHR_texture_transform'",
                 "");
    loaded a, b;
    if (!open_file(&a, pointer_json_text, 0) || !open_file(&b, ordinary_json, 0)) return;
    CHECK(a.doc->warning_count == 0);
    for (uint32_t w = 0; w < a.doc->warning_count; w++)
        fprintf(stderr, "warning: %s: %s\n", a.doc->warnings[w].path, a.doc->warnings[w].message);
    const ossa_rig *rig = ossa_model_rig(a.model);
    CHECK(rig->node_count == 4 && rig->weight_total == 6);
    const ossa_clip *ca = ossa_model_clip(a.model, 0), *cb = ossa_model_clip(b.model, 0);
    CHECK(ossa_clip_track_count(ca) == ossa_clip_track_count(cb));
    CHECK(ossa_clip_track_count(ca) == 5);
    CHECK(ossa_clip_start(ca) == 0.0f && ossa_clip_end(ca) == 1.0f);
    ossa_trs la[4], lb[4];
    float wa[6], wb[6];
    ossa_pose pa = {la, wa}, pb = {lb, wb};
    const float times[] = {-1.0f, 0.0f, 0.25f, 0.5f, 0.7f, 1.0f, 3.0f};
    for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
        CHECK(ossa_clip_sample(rig, ca, times[t], NULL, &pa) == OSSA_OK);
        CHECK(ossa_clip_sample(ossa_model_rig(b.model), cb, times[t], NULL, &pb) == OSSA_OK);
        CHECKF(memcmp(la, lb, sizeof la) == 0, "TRS at t=%g", times[t]);
        CHECKF(memcmp(wa, wb, sizeof wa) == 0, "weights at t=%g", times[t]);
    }
    /* the values themselves at t = 0.5: node 0 weights (0.5, 0.5), node 1 (0.25, 0.25), node 2
     * its own (0.25, 0.75) */
    CHECK(ossa_clip_sample(rig, ca, 0.5f, NULL, &pa) == OSSA_OK);
    int32_t nodes[3] = {rig->rig_from_gltf[0], rig->rig_from_gltf[1], rig->rig_from_gltf[2]};
    const float expected[3][2] = {{0.5f, 0.5f}, {0.25f, 0.25f}, {0.25f, 0.75f}};
    for (int n = 0; n < 3; n++)
        for (int k = 0; k < 2; k++)
            CHECK_NEAR(wa[rig->weight_offset[nodes[n]] + k], expected[n][k], 1e-6);
    CHECK_NEAR(la[nodes[0]].translation[1], 1.0, 1e-6);
    close_file(&a);
    close_file(&b);

    /* `ossa sample --json` prints the same numbers for both files */
    pointer_write_glb("pointer_nodes.glb", pointer_json_text);
    pointer_write_glb("ordinary_nodes.glb", ordinary_json);
    char *out_a = NULL, *out_b = NULL;
    int ra = ossa_test_run_cli("sample pointer_nodes.glb --json --time 0 --time 0.3 --time 1",
                               &out_a, NULL);
    int rb = ossa_test_run_cli("sample ordinary_nodes.glb --json --time 0 --time 0.3 --time 1",
                               &out_b, NULL);
    CHECK(ra == 0 && rb == 0 && out_a && out_b);
    if (out_a && out_b) {
        const char *sa = strstr(out_a, "\"samples\""), *sb = strstr(out_b, "\"samples\"");
        CHECK(sa && sb && strcmp(sa, sb) == 0);
        CHECK(sa && strstr(sa, "morph_weights"));
    }
    free(out_a);
    free(out_b);
    /* `ossa info` says what each pointer became */
    char *info = NULL;
    CHECK(ossa_test_run_cli("info pointer_nodes.glb", &info, NULL) == 0 && info);
    if (info) {
        CHECK(strstr(info, "pointer     /nodes/0/rotation: node 0 rotation, LINEAR\n"));
        CHECK(strstr(info, "pointer     /meshes/0/weights: weights of mesh 0 (2 per key), "
                           "LINEAR\n"));
        CHECK(strstr(info, "pointer     /cameras/0/perspective/yfov: float track (1 float), "
                           "CUBICSPLINE\n"));
        CHECK(strstr(info, "/materials/0/pbrMetallicRoughness/baseColorFactor: float track "
                           "(4 floats), LINEAR\n"));
    }
    free(info);
}

/* The float tracks: names, sizes, values at key and mid-key times; the same in compact clips. */
static void check_float_tracks(int compact) {
    static char json[JSON_SIZE], channels[8192];
    pointer_channels(channels, sizeof channels);
    pointer_json(json, sizeof json, channels, used, "");
    loaded l;
    if (!open_file(&l, json, compact)) return;
    const ossa_clip *clip = ossa_model_clip(l.model, 0);
    CHECK(ossa_clip_is_compact(clip) == compact);
    CHECK(ossa_clip_float_track_count(clip) == 4);
    int32_t color = ossa_clip_find_float_track(clip, "/materials/0/pbrMetallicRoughness/"
                                                     "baseColorFactor");
    int32_t yfov = ossa_clip_find_float_track(clip, "/cameras/0/perspective/yfov");
    int32_t uv = ossa_clip_find_float_track(clip, "/materials/0/pbrMetallicRoughness/"
                                                  "baseColorTexture/extensions/"
                                                  "KHR_texture_transform/offset");
    CHECK(color >= 0 && yfov >= 0 && uv >= 0);
    CHECK(ossa_clip_find_float_track(clip, "/nodes/0/rotation") == -1);
    if (color < 0 || yfov < 0 || uv < 0) {
        close_file(&l);
        return;
    }
    ossa_float_track_info info = ossa_clip_float_track(clip, (uint32_t)color);
    CHECK(info.target == OSSA_POINTER_BASE_COLOR && info.index == 0 && info.components == 4 &&
          info.key_count == 2 && info.interpolation == OSSA_INTERP_LINEAR);
    info = ossa_clip_float_track(clip, (uint32_t)yfov);
    CHECK(info.target == OSSA_POINTER_CAMERA_YFOV && info.components == 1 &&
          info.interpolation == OSSA_INTERP_CUBICSPLINE);
    info = ossa_clip_float_track(clip, 99);
    CHECK(info.name == NULL && info.index == -1 && info.components == 0);
    float v[4] = {-1, -1, -1, -1};
    CHECK(ossa_clip_float_track_sample(clip, 99, 0.0f, v) == 0 && v[0] == -1);
    /* LINEAR: keys, the middle, clamped outside */
    const struct {
        float time, rgba[4];
    } colors[] = {{0.0f, {1, 0, 0, 1}}, {0.25f, {0.75f, 0, 0.25f, 1}}, {0.5f, {0.5f, 0, 0.5f, 1}},
                  {1.0f, {0, 0, 1, 1}}, {-2.0f, {1, 0, 0, 1}},         {7.0f, {0, 0, 1, 1}}};
    for (size_t i = 0; i < sizeof colors / sizeof colors[0]; i++) {
        CHECK(ossa_clip_float_track_sample(clip, (uint32_t)color, colors[i].time, v) == 4);
        for (int k = 0; k < 4; k++)
            CHECK_NEAR(v[k], colors[i].rgba[k], 1e-6);
    }
    /* CUBICSPLINE with zero tangents: smoothstep between 0.5 and 1 */
    CHECK(ossa_clip_float_track_sample(clip, (uint32_t)yfov, 0.0f, v) == 1 && v[0] == 0.5f);
    CHECK(ossa_clip_float_track_sample(clip, (uint32_t)yfov, 0.5f, v) == 1);
    CHECK_NEAR(v[0], 0.75, 1e-6);
    CHECK(ossa_clip_float_track_sample(clip, (uint32_t)yfov, 0.25f, v) == 1);
    CHECK_NEAR(v[0], 0.5 + 0.5 * (3 * 0.0625 - 2 * 0.015625), 1e-6);
    CHECK(ossa_clip_float_track_sample(clip, (uint32_t)yfov, 1.0f, v) == 1 && v[0] == 1.0f);
    /* STEP: the earlier key until the next one */
    CHECK(ossa_clip_float_track_sample(clip, (uint32_t)uv, 0.99f, v) == 2 && v[0] == 0 &&
          v[1] == 0);
    CHECK(ossa_clip_float_track_sample(clip, (uint32_t)uv, 1.0f, v) == 2 && v[0] == 0.5f &&
          v[1] == 0.25f);

    /* characters draw the animated material values */
    CHECK(ossa_model_material_animated(l.model, 0) == 1);
    CHECK(ossa_model_material_animated(l.model, 1) == 0);
    ossa_character *c = NULL;
    CHECK(ossa_character_create(l.model, &c, NULL) == OSSA_OK);
    if (c) {
        ossa_model_material m = ossa_character_material(c, 0); /* rest: the document's */
        CHECK(m.base_color[0] == 1 && m.base_color[2] == 0 && m.uv_transform[2] == 0);
        CHECK(ossa_character_update(c, clip, 0.5, OSSA_WRAP_CLAMP, NULL) == OSSA_OK);
        m = ossa_character_material(c, 0);
        CHECK_NEAR(m.base_color[0], 0.5, 1e-6);
        CHECK_NEAR(m.base_color[2], 0.5, 1e-6);
        CHECK_NEAR(m.emissive[1], 0.5, 1e-6);
        CHECK(m.uv_transform[2] == 0 && m.uv_transform[5] == 0);
        CHECK(ossa_character_update(c, clip, 1.0, OSSA_WRAP_CLAMP, NULL) == OSSA_OK);
        m = ossa_character_material(c, 0);
        CHECK(m.base_color[0] == 0 && m.base_color[2] == 1);
        CHECK(m.uv_transform[2] == 0.5f && m.uv_transform[5] == 0.25f);
        CHECK(m.uv_transform[0] == 1 && m.uv_transform[4] == 1);
        CHECK(ossa_character_update(c, NULL, 0.0, OSSA_WRAP_CLAMP, NULL) == OSSA_OK);
        m = ossa_character_material(c, 0);
        CHECK(m.base_color[0] == 1 && m.base_color[2] == 0);
        /* programs that write the pose themselves set the materials from their clips */
        const ossa_clip *clips[2] = {NULL, clip};
        const float at[2] = {0.0f, 0.25f};
        ossa_character_sample_materials(c, clips, at, 2);
        m = ossa_character_material(c, 0);
        CHECK(m.base_color[0] == 0.75f && m.base_color[2] == 0.25f);
        ossa_character_sample_materials(c, clips, at, 0);
        m = ossa_character_material(c, 0);
        CHECK(m.base_color[0] == 1 && m.base_color[2] == 0);
        ossa_character_free(c);
    }
    close_file(&l);
}

/* A pointer to metallicFactor (not modelled): a warning naming it; the rest plays. */
static void check_unknown_pointer(void) {
    static char json[JSON_SIZE];
    char channels[2048], second[512];
    /* metallicFactor is a float: give it the yfov keys; the base colour itself plays */
    pointer_channel(channels, sizeof channels, S_YFOV,
                    "/materials/0/pbrMetallicRoughness/metallicFactor");
    pointer_channel(second, sizeof second, S_BASE_COLOR,
                    "/materials/0/pbrMetallicRoughness/baseColorFactor");
    strcat(channels, ",");
    strcat(channels, second);
    strcat(channels, ",{'sampler':0,'target':{'node':0,'path':'translation'}}");
    pointer_json(json, sizeof json, channels, used, "");
    loaded l;
    if (!open_file(&l, json, 0)) return;
    CHECK(l.doc->warning_count == 1);
    CHECK(io_has_warning(l.doc, POINTER_PATH,
                         "'/materials/0/pbrMetallicRoughness/metallicFactor' animates a property "
                         "ossa does not model"));
    const ossa_clip *clip = ossa_model_clip(l.model, 0);
    CHECK(ossa_clip_float_track_count(clip) == 1 && ossa_clip_track_count(clip) == 1);
    float v[4];
    CHECK(ossa_clip_float_track_sample(clip, 0, 1.0f, v) == 4 && v[2] == 1.0f);
    close_file(&l);
    /* so is a pointer into another extension's object, and one outside any collection */
    const char *others[] = {"/nodes/0/extensions/EXT_other/value", "/animations/0/x", "/asset"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        pointer_channel(channels, sizeof channels, S_YFOV, others[i]);
        pointer_json(json, sizeof json, channels, used, "");
        if (!open_file(&l, json, 0)) continue;
        CHECKF(io_has_warning(l.doc, POINTER_PATH, others[i]), "%s", others[i]);
        close_file(&l);
    }
}

/* Refusals: (channels, expected path, phrase of the message). */
static void check_refused(const char *channels, const char *extensions_used, const char *path,
                          const char *phrase) {
    static char json[JSON_SIZE];
    pointer_json(json, sizeof json, channels, extensions_used, "");
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = load(json, &doc, &error);
    CHECKF(r == OSSA_ERROR_INVALID, "%s: loads (%s)", channels, ossa_result_name(r));
    if (r == OSSA_OK) {
        ossa_document_free(doc);
        return;
    }
    CHECKF(!strcmp(error.path, path), "%s: path %s, expected %s", channels, error.path, path);
    CHECKF(strstr(error.message, phrase) != NULL, "%s: message '%s' lacks '%s'", channels,
           error.message, phrase);
}

static void refused_pointer(int sampler, const char *pointer, const char *path,
                            const char *phrase) {
    char channels[1024];
    pointer_channel(channels, sizeof channels, sampler, pointer);
    check_refused(channels, used, path, phrase);
}

static void check_malformed(void) {
    refused_pointer(S_TRANSLATION, "nodes/0/translation", POINTER_PATH, "must start with '/'");
    refused_pointer(S_TRANSLATION, "/nodes/0/transl~2ation", POINTER_PATH,
                    "'~' must be followed by 0 or 1");
    refused_pointer(S_TRANSLATION, "/nodes/4/translation", POINTER_PATH,
                    "index 4 is out of range (the array has 4 elements)");
    refused_pointer(S_TRANSLATION, "/nodes/01/translation", POINTER_PATH,
                    "'01' is not an array index");
    refused_pointer(S_TRANSLATION, "/nodes/one/translation", POINTER_PATH,
                    "'one' is not an array index");
    refused_pointer(S_BASE_COLOR, "/materials/1/pbrMetallicRoughness/baseColorFactor", POINTER_PATH,
                    "out of range");
    refused_pointer(S_YFOV, "/cameras/0/perspective/zfar", POINTER_PATH,
                    "does not define ('zfar' is absent)");
    refused_pointer(S_YFOV, "/cameras/0/orthographic/xmag", POINTER_PATH,
                    "('orthographic' is absent)");
    refused_pointer(S_UV_OFFSET,
                    "/materials/0/emissiveTexture/extensions/KHR_texture_transform/"
                    "offset",
                    POINTER_PATH, "('emissiveTexture' is absent)");
    refused_pointer(S_YFOV, "/extensions/KHR_lights_punctual/lights/0/intensity", POINTER_PATH,
                    "out of range (the array has 0 elements)");
    /* output type and count */
    refused_pointer(S_TRANSLATION, "/materials/0/pbrMetallicRoughness/baseColorFactor",
                    "animations[0].samplers[0].output", "is VEC3, but");
    refused_pointer(S_NODE_WEIGHTS, "/cameras/0/perspective/yfov",
                    "animations[0].samplers[3].output", "has 4 values, but 2 keys");
    refused_pointer(S_YFOV, "/meshes/0/weights", "animations[0].samplers[7].output",
                    "has 6 values, but 2 keys x morph targets x 3 (CUBICSPLINE) need 12");
    /* node pointers follow the rules of node channels */
    refused_pointer(S_TRANSLATION, "/nodes/0/rotation", "animations[0].samplers[0].output",
                    "not a valid format for rotation");
    /* node set, pointer absent, extension object on a non-pointer path, duplicates */
    check_refused("{'sampler':0,'target':{'node':0,'path':'pointer','extensions':{"
                  "'KHR_animation_pointer':{'pointer':'/nodes/0/translation'}}}}",
                  used, "animations[0].channels[0].target.node", "must not be set");
    check_refused("{'sampler':0,'target':{'path':'pointer'}}", used,
                  "animations[0].channels[0].target.path", "without a KHR_animation_pointer");
    check_refused("{'sampler':0,'target':{'node':0,'path':'translation','extensions':{"
                  "'KHR_animation_pointer':{'pointer':'/nodes/0/translation'}}}}",
                  used, "animations[0].channels[0].target.extensions.KHR_animation_pointer",
                  "needs the target's path to be 'pointer'");
    char twice[2048], one[512];
    pointer_channel(twice, sizeof twice, S_BASE_COLOR,
                    "/materials/0/pbrMetallicRoughness/baseColorFactor");
    pointer_channel(one, sizeof one, S_ROTATION_AS_BASE_COLOR,
                    "/materials/0/pbrMetallicRoughness/baseColorFactor");
    strcat(twice, ",");
    strcat(twice, one);
    check_refused(twice, used, "animations[0].channels[1].target",
                  "channel 0 already animates the same property");
    /* a node property by pointer and by an ordinary target */
    pointer_channel(twice, sizeof twice, S_TRANSLATION, "/nodes/0/translation");
    strcat(twice, ",{'sampler':0,'target':{'node':0,'path':'translation'}}");
    check_refused(twice, used, "animations[0].channels[1].target",
                  "already animates the same node and path");
    /* without extensionsUsed, 'pointer' is an unknown path: a warning, ignored */
    static char json[JSON_SIZE];
    pointer_json(json, sizeof json, "{'sampler':0,'target':{'path':'pointer'}}",
                 "'KHR_texture_transform'", "");
    ossa_document *doc = NULL;
    CHECK(load(json, &doc, NULL) == OSSA_OK);
    if (doc)
        CHECK(io_has_warning(doc, "animations[0].channels[0].target.path",
                             "extensionsUsed does not list"));
    ossa_document_free(doc);
}

/* A CUBICSPLINE VEC4 float track: with zero tangents, the middle is the keys' average. */
static void check_cubic_vec4(void) {
    static char json[JSON_SIZE];
    char channels[1024];
    pointer_channel(channels, sizeof channels, S_ROTATION_AS_BASE_COLOR,
                    "/materials/0/pbrMetallicRoughness/baseColorFactor");
    pointer_json(json, sizeof json, channels, used, "");
    loaded l;
    if (!open_file(&l, json, 0)) return;
    const ossa_clip *clip = ossa_model_clip(l.model, 0);
    float v[4];
    CHECK(ossa_clip_float_track_sample(clip, 0, 0.5f, v) == 4);
    CHECK_NEAR(v[1], 0.70710677 / 2, 1e-6);
    CHECK_NEAR(v[3], (1 + 0.70710677) / 2, 1e-6);
    close_file(&l);
}

/* KHR_lights_punctual pointers: float tracks where the property has a default and its object is
 * there; range (no default) is refused when the light does not give it. */
static void check_light_pointers(void) {
    static char json[JSON_SIZE], with_light[JSON_SIZE];
    char channels[2048], second[512];
    pointer_channel(channels, sizeof channels, S_YFOV,
                    "/extensions/KHR_lights_punctual/lights/0/intensity");
    pointer_channel(second, sizeof second, S_EMISSIVE,
                    "/extensions/KHR_lights_punctual/lights/0/color");
    strcat(channels, ",");
    strcat(channels, second);
    pointer_channel(second, sizeof second, S_YFOV,
                    "/extensions/KHR_lights_punctual/lights/0/spot/outerConeAngle");
    strcat(channels, ",");
    strcat(channels, second);
    pointer_json(json, sizeof json, channels, "'KHR_animation_pointer','KHR_lights_punctual'", "");
    /* the lights, at the top level */
    const char *at = strstr(json, "'asset'");
    snprintf(with_light, sizeof with_light,
             "{'extensions':{'KHR_lights_punctual':{'lights':[{'type':'spot','spot':{}}]}},%s", at);
    loaded l;
    if (!open_file(&l, with_light, 0)) return;
    const ossa_clip *clip = ossa_model_clip(l.model, 0);
    CHECK(ossa_clip_float_track_count(clip) == 3);
    CHECK(ossa_clip_find_float_track(
              clip, "/extensions/KHR_lights_punctual/lights/0/spot/outerConeAngle") >= 0);
    int32_t intensity =
        ossa_clip_find_float_track(clip, "/extensions/KHR_lights_punctual/lights/0/intensity");
    int32_t color =
        ossa_clip_find_float_track(clip, "/extensions/KHR_lights_punctual/lights/0/color");
    CHECK(intensity >= 0 && color >= 0);
    float v[3];
    if (intensity >= 0) {
        CHECK(ossa_clip_float_track(clip, (uint32_t)intensity).target ==
              OSSA_POINTER_LIGHT_INTENSITY);
        CHECK(ossa_clip_float_track_sample(clip, (uint32_t)intensity, 1.0f, v) == 1 && v[0] == 1);
    }
    if (color >= 0) {
        CHECK(ossa_clip_float_track(clip, (uint32_t)color).index == 0);
        CHECK(ossa_clip_float_track_sample(clip, (uint32_t)color, 0.5f, v) == 3 && v[1] == 0.5f);
    }
    close_file(&l);
    /* range has no default: refused when the light does not give it */
    pointer_channel(channels, sizeof channels, S_YFOV,
                    "/extensions/KHR_lights_punctual/lights/0/range");
    pointer_json(json, sizeof json, channels, "'KHR_animation_pointer','KHR_lights_punctual'", "");
    snprintf(with_light, sizeof with_light,
             "{'extensions':{'KHR_lights_punctual':{'lights':[{'type':'spot','spot':{}}]}},%s",
             strstr(json, "'asset'"));
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(load(with_light, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!doc && !strcmp(error.path, POINTER_PATH) && strstr(error.message, "'range' is absent"));
    ossa_document_free(doc);
}

int main(void) {
    check_same_as_ordinary();
    check_float_tracks(0);
    check_float_tracks(1);
    check_unknown_pointer();
    check_malformed();
    check_cubic_vec4();
    check_light_pointers();
    return ossa_test_finish("pointer");
}
