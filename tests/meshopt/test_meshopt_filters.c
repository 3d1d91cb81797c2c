/* EXT_meshopt_compression filters (OCTAHEDRAL, QUATERNION, EXPONENTIAL), checked against
 * libmeshoptimizer's own decoding (meshopt_decodeVertexBuffer + meshopt_decodeFilter*) of the
 * same bytes:
 * - an animation and normals written here with libmeshoptimizer's filter encoders: the views
 *   equal the reference decoding and the sampled animation the values encoded;
 * - gltfpack's output (npm `gltfpack`, installed at test time into the build folder when node
 *   and npm are present, else skipped with a message) for CesiumMan and Fox: every compressed
 *   view equals the reference decoding, each filter occurs, the fallback file of `-cf` output is
 *   never read, and the joints move as the golden values say within what gltfpack's quantization
 *   and 30 Hz resampling change, and within the goldens' tolerance at its finest settings (nodes
 *   matched by name). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <meshoptimizer.h>

#include "anim_fixture.h"
#include "io_test_util.h"
#include "ossa/clip.h"
#include "ossa/rig.h"
#include "ossa/sample.h"
#include "test_support.h"

enum { NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL };
static const char *const filter_names[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};

/* The reference: libmeshoptimizer's decoding of one compressed view. NULL when it fails. */
static uint8_t *reference_decode(const uint8_t *src, size_t size, const char *mode, int filter,
                                 size_t count, size_t stride) {
    uint8_t *out = malloc(count * stride + 1);
    int rc;
    if (!strcmp(mode, "TRIANGLES"))
        rc = meshopt_decodeIndexBuffer(out, count, stride, src, size);
    else if (!strcmp(mode, "INDICES"))
        rc = meshopt_decodeIndexSequence(out, count, stride, src, size);
    else
        rc = meshopt_decodeVertexBuffer(out, count, stride, src, size);
    if (rc) {
        free(out);
        return NULL;
    }
    if (filter == OCTAHEDRAL) meshopt_decodeFilterOct(out, count, stride);
    if (filter == QUATERNION) meshopt_decodeFilterQuat(out, count, stride);
    if (filter == EXPONENTIAL) meshopt_decodeFilterExp(out, count, stride);
    return out;
}

/* ---- Part 1: data encoded here with the filter encoders ---- */

#define KEYS    8
#define NORMALS 20

typedef struct stream {
    const char *mode;
    int filter;
    size_t stride, count, at, size;
} stream;

static uint8_t bin[8192];
static size_t bin_size;

static void add_stream(stream *s, const void *data, size_t count, size_t stride, int filter) {
    s->mode = "ATTRIBUTES";
    s->filter = filter;
    s->stride = stride;
    s->count = count;
    s->at = (bin_size + 3) & ~(size_t)3;
    s->size = meshopt_encodeVertexBuffer(bin + s->at, sizeof bin - s->at, data, count, stride);
    bin_size = s->at + s->size;
}

static void check_encoded_here(void) {
    float times[KEYS], rotations[KEYS * 4], translations[KEYS * 3], normals[NORMALS * 4];
    for (int k = 0; k < KEYS; k++) {
        times[k] = 0.25f * (float)k;
        double angle = 0.4 * k, axis[3] = {0.48, 0.6, 0.64}; /* unit */
        for (int c = 0; c < 3; c++)
            rotations[4 * k + c] = (float)(axis[c] * sin(angle / 2));
        rotations[4 * k + 3] = (float)cos(angle / 2);
        translations[3 * k + 0] = 1.5f * (float)k;
        translations[3 * k + 1] = -0.003f * (float)(k * k);
        translations[3 * k + 2] = 250.0f + (float)k;
    }
    for (int i = 0; i < NORMALS; i++) {
        double a = 0.7 * i, b = 0.3 * i - 2.5;
        normals[4 * i + 0] = (float)(cos(a) * cos(b));
        normals[4 * i + 1] = (float)(sin(a) * cos(b));
        normals[4 * i + 2] = (float)sin(b);
        normals[4 * i + 3] = 1.0f;
    }
    int16_t quat[KEYS * 4], oct16[NORMALS * 4];
    int8_t oct8[NORMALS * 4];
    uint32_t exp[KEYS * 3];
    meshopt_encodeFilterQuat(quat, KEYS, 8, 12, rotations);
    meshopt_encodeFilterExp(exp, KEYS, 12, 15, translations);
    meshopt_encodeFilterOct(oct8, NORMALS, 4, 8, normals);
    meshopt_encodeFilterOct(oct16, NORMALS, 8, 12, normals);
    stream s[5];
    bin_size = 0;
    add_stream(&s[0], times, KEYS, 4, NONE);
    add_stream(&s[1], quat, KEYS, 8, QUATERNION);
    add_stream(&s[2], exp, KEYS, 12, EXPONENTIAL);
    add_stream(&s[3], oct8, NORMALS, 4, OCTAHEDRAL);
    add_stream(&s[4], oct16, NORMALS, 8, OCTAHEDRAL);
    bin_size = (bin_size + 3) & ~(size_t)3;

    char views[4096] = "";
    size_t offset = 0, len = 0;
    for (int i = 0; i < 5; i++) {
        len += (size_t)snprintf(
            views + len, sizeof views - len,
            "%s{'buffer':1,'byteOffset':%zu,'byteLength':%zu,'extensions':{"
            "'EXT_meshopt_compression':{'buffer':0,'byteOffset':%zu,'byteLength':%zu,"
            "'byteStride':%zu,'count':%zu,'mode':'ATTRIBUTES','filter':'%s'}}}",
            i ? "," : "", offset, s[i].count * s[i].stride, s[i].at, s[i].size, s[i].stride,
            s[i].count, filter_names[s[i].filter]);
        offset += s[i].count * s[i].stride;
    }
    char json[8192];
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'extensionsUsed':['EXT_meshopt_compression'],"
             "'extensionsRequired':['EXT_meshopt_compression'],"
             "'buffers':[{'byteLength':%zu},{'byteLength':%zu,"
             "'extensions':{'EXT_meshopt_compression':{'fallback':true}}}],"
             "'bufferViews':[%s],"
             "'accessors':[{'bufferView':0,'componentType':5126,'count':%d,'type':'SCALAR',"
             "'min':[0],'max':[%g]},"
             "{'bufferView':1,'componentType':5122,'normalized':true,'count':%d,'type':'VEC4'},"
             "{'bufferView':2,'componentType':5126,'count':%d,'type':'VEC3'},"
             "{'bufferView':3,'componentType':5120,'normalized':true,'count':%d,'type':'VEC4'},"
             "{'bufferView':4,'componentType':5122,'normalized':true,'count':%d,'type':'VEC4'}],"
             "'nodes':[{'name':'spinner'}],'scenes':[{'nodes':[0]}],"
             "'animations':[{'samplers':[{'input':0,'output':1},{'input':0,'output':2}],"
             "'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}},"
             "{'sampler':1,'target':{'node':0,'path':'translation'}}]}]}",
             bin_size, offset, views, KEYS, (double)times[KEYS - 1], KEYS, KEYS, NORMALS, NORMALS);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, bin, bin_size, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "filtered data loads: %s at %s", error.message, error.path);
    if (r != OSSA_OK) return;

    /* Each view is exactly libmeshoptimizer's decoding, and not the unfiltered bytes. */
    for (int i = 0; i < 5; i++) {
        const ossa_buffer_view *v = &doc->buffer_views[i];
        uint8_t *ref = reference_decode(bin + s[i].at, s[i].size, s[i].mode, s[i].filter,
                                        s[i].count, s[i].stride);
        uint8_t *raw =
            reference_decode(bin + s[i].at, s[i].size, s[i].mode, NONE, s[i].count, s[i].stride);
        CHECK(ref && raw);
        const uint8_t *ours = doc->buffers[v->buffer].data + v->byte_offset;
        CHECKF(ref && !memcmp(ours, ref, s[i].count * s[i].stride),
               "view %d (%s, stride %zu): meshoptimizer's decoding", i, filter_names[s[i].filter],
               s[i].stride);
        if (s[i].filter != NONE)
            CHECKF(raw && memcmp(ours, raw, s[i].count * s[i].stride),
                   "view %d: the filter was applied", i);
        free(ref);
        free(raw);
    }
    /* The normals read back close to the encoded ones (8 and 12 bits). */
    float n8[NORMALS * 4], n16[NORMALS * 4];
    CHECK(ossa_accessor_read_float(doc, 3, 0, NORMALS, n8) == OSSA_OK);
    CHECK(ossa_accessor_read_float(doc, 4, 0, NORMALS, n16) == OSSA_OK);
    for (int i = 0; i < NORMALS * 4; i++) {
        if (i % 4 == 3) continue;
        CHECK_NEAR(n8[i], normals[i], 0.02);
        CHECK_NEAR(n16[i], normals[i], 0.002);
    }

    /* The animation samples to the encoded keys. */
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    CHECK(ossa_rig_build(doc, NULL, &rig, &error) == OSSA_OK);
    CHECK(rig && ossa_clip_set_build(doc, rig, NULL, &clips, &error) == OSSA_OK);
    if (rig && clips) {
        ossa_pose pose;
        pose.local = calloc(rig->node_count + 1, sizeof *pose.local);
        pose.weights = calloc(rig->weight_total + 1, sizeof(float));
        const ossa_trs *trs = &pose.local[rig->rig_from_gltf[0]];
        for (int k = 0; k < KEYS; k++) {
            CHECK(ossa_clip_sample(rig, ossa_clip_set_clip(clips, 0), times[k], NULL, &pose) ==
                  OSSA_OK);
            double dot = 0;
            for (int c = 0; c < 4; c++)
                dot += (double)trs->rotation[c] * rotations[4 * k + c];
            CHECKF(fabs(dot) > 1 - 1e-5, "key %d: rotation within 12 bits (dot %.9f)", k, dot);
            /* The exponent is shared by the vector: precision follows its largest component. */
            double largest = 0;
            for (int c = 0; c < 3; c++)
                largest = fmax(largest, fabs(translations[3 * k + c]));
            for (int c = 0; c < 3; c++)
                CHECK_NEAR(trs->translation[c], translations[3 * k + c], 1e-4 * largest);
        }
        free(pose.local);
        free(pose.weights);
    }
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    ossa_document_free(doc);
}

/* ---- Part 2: gltfpack's output ---- */

static uint32_t filters_seen[4], triangles_seen, views_checked;

/* gltfpack quantizes (12-bit rotations, 16-bit translations) and resamples at 30 Hz: the
 * distance to the golden joints it may add, relative to the model's size. */
#define GLTFPACK_TOLERANCE 0.01

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Every compressed view of a gltfpack GLB against the reference decoding. */
static void check_packed(const char *path) {
    size_t size;
    uint8_t *file = ossa_test_read_file(path, &size);
    CHECKF(file && size > 28 && !memcmp(file, "glTF", 4), "%s is a GLB", path);
    if (!file || size <= 28) {
        free(file);
        return;
    }
    uint32_t json_len = read_u32(file + 12);
    const uint8_t *chunk = file + 20 + json_len;
    const uint8_t *bin_chunk = chunk + 8 <= file + size ? chunk + 8 : NULL;
    cJSON *root = cJSON_ParseWithLength((const char *)file + 20, json_len);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = ossa_document_load_file(path, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "%s loads: %s at %s", path, error.message, error.path);
    int i = 0;
    const cJSON *views = r == OSSA_OK ? cJSON_GetObjectItem(root, "bufferViews") : NULL, *view;
    cJSON_ArrayForEach(view, views) {
        const cJSON *ext =
            cJSON_GetObjectItem(cJSON_GetObjectItem(view, "extensions"), "EXT_meshopt_compression");
        int index = i++;
        if (!ext) continue;
        CHECKF(cJSON_GetObjectItem(ext, "buffer")->valueint == 0, "%s: data in the BIN chunk",
               path);
        const char *mode = cJSON_GetObjectItem(ext, "mode")->valuestring;
        const cJSON *f = cJSON_GetObjectItem(ext, "filter");
        int filter = NONE;
        for (int k = 0; f && k < 4; k++)
            if (!strcmp(filter_names[k], f->valuestring)) filter = k;
        size_t at = (size_t)cJSON_GetObjectItem(ext, "byteOffset")->valuedouble;
        size_t length = (size_t)cJSON_GetObjectItem(ext, "byteLength")->valuedouble;
        size_t stride = (size_t)cJSON_GetObjectItem(ext, "byteStride")->valuedouble;
        size_t count = (size_t)cJSON_GetObjectItem(ext, "count")->valuedouble;
        uint8_t *ref = reference_decode(bin_chunk + at, length, mode, filter, count, stride);
        const ossa_buffer_view *v = &doc->buffer_views[index];
        CHECKF(ref && v->byte_length == count * stride &&
                   !memcmp(doc->buffers[v->buffer].data + v->byte_offset, ref, count * stride),
               "%s view %d (%s, %s, stride %zu): meshoptimizer's decoding", path, index, mode,
               filter_names[filter], stride);
        free(ref);
        filters_seen[filter]++;
        triangles_seen += !strcmp(mode, "TRIANGLES");
        views_checked++;
    }
    /* It animates: a rig and clips build and sample. */
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    if (r == OSSA_OK) {
        CHECKF(ossa_rig_build(doc, NULL, &rig, &error) == OSSA_OK, "%s: rig", path);
        CHECKF(rig && ossa_clip_set_build(doc, rig, NULL, &clips, &error) == OSSA_OK &&
                   ossa_clip_set_count(clips) > 0,
               "%s: clips", path);
    }
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    ossa_document_free(doc);
    cJSON_Delete(root);
    free(file);
}

/* The largest distance, relative to the model's size, between a node's world position in the
 * gltfpack output and in the golden file, over the golden times; nodes matched by name. */
static double golden_distance(const char *packed, const char *golden_path) {
    size_t size;
    char *text = (char *)ossa_test_read_file(ossa_test_shared_path(golden_path), &size);
    cJSON *golden = text ? cJSON_Parse(text) : NULL;
    free(text);
    anim_fixture f, original;
    int ok = golden && anim_fixture_load(&f, packed, NULL);
    if (ok && !anim_fixture_load(
                  &original,
                  ossa_test_shared_path(cJSON_GetObjectItem(golden, "model")->valuestring), NULL)) {
        anim_fixture_free(&f);
        ok = 0;
    }
    CHECKF(ok, "%s and %s load", packed, golden_path);
    if (!ok) {
        cJSON_Delete(golden);
        return 1e30;
    }
    /* The animation of the same name (gltfpack keeps names, not necessarily the order). */
    const char *name = cJSON_GetObjectItem(golden, "animation_name")->valuestring;
    int anim = cJSON_GetObjectItem(golden, "animation")->valueint;
    for (uint32_t a = 0; *name && a < f.doc->animation_count; a++)
        if (f.doc->animations[a].name && !strcmp(f.doc->animations[a].name, name)) anim = (int)a;
    double diagonal = cJSON_GetObjectItem(golden, "bbox_diagonal")->valuedouble, worst = 0;
    uint32_t compared = 0;
    const cJSON *samples = cJSON_GetObjectItem(golden, "samples"), *sample;
    cJSON_ArrayForEach(sample, samples) {
        float t = (float)cJSON_GetObjectItem(sample, "time")->valuedouble;
        anim_fixture_eval(&f, ossa_clip_set_clip(f.clips, (uint32_t)anim), t, NULL);
        const cJSON *worlds = cJSON_GetObjectItem(sample, "node_world");
        for (uint32_t g = 0; g < original.doc->node_count; g++) {
            const char *node = original.doc->nodes[g].name;
            int32_t match = -1;
            for (uint32_t k = 0; node && k < f.doc->node_count; k++)
                if (f.doc->nodes[k].name && !strcmp(f.doc->nodes[k].name, node)) match = (int32_t)k;
            if (match < 0) continue;
            const float *m = f.world + 12 * (size_t)f.rig->rig_from_gltf[match];
            const cJSON *w = cJSON_GetArrayItem(worlds, (int)g);
            double d = 0;
            for (int c = 0; c < 3; c++) {
                double e = m[4 * c + 3] - cJSON_GetArrayItem(w, 12 + c)->valuedouble;
                d += e * e;
            }
            worst = fmax(worst, sqrt(d) / diagonal);
            compared++;
        }
    }
    CHECKF(compared > 100, "%s: %u node positions compared", packed, compared);
    anim_fixture_free(&original);
    anim_fixture_free(&f);
    cJSON_Delete(golden);
    return worst;
}

static int run(const char *command) {
    int rc = system(command);
    return rc == 0;
}

static void check_gltfpack(void) {
    if (!run("command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1")) {
        printf("meshopt_filters: skipped gltfpack's output: node and npm are not installed\n");
        return;
    }
    /* Installed once into the build folder; later runs reuse it. The version is pinned so that
     * the files checked stay the same (1.3 is the first with `-ce ext|khr`). */
    if (access("gltfpack_npm/node_modules/gltfpack/cli.js", R_OK) != 0 &&
        !run("mkdir -p gltfpack_npm && cd gltfpack_npm && npm install --no-audit --no-fund "
             "--silent --fetch-timeout=60000 --fetch-retries=1 gltfpack@1.3.0 >npm.log 2>&1")) {
        printf("meshopt_filters: skipped gltfpack's output: `npm install gltfpack` failed (see "
               "gltfpack_npm/npm.log)\n");
        return;
    }
    static const struct {
        const char *model, *out, *options;
    } runs[] = {
        {"models/CesiumMan/glTF-Binary/CesiumMan.glb", "gp_cesiumman_cc.glb", "-cc"},
        {"models/Fox/Fox.glb", "gp_fox_cc.glb", "-cc"},
        {"models/CesiumMan/glTF-Binary/CesiumMan.glb", "gp_cesiumman_vpf.glb", "-c -vpf"},
        {"models/CesiumMan/glTF-Binary/CesiumMan.glb", "gp_cesiumman_cf.glb", "-cf"},
        {"models/Fox/Fox.glb", "gp_fox_fine.glb", "-cc -af 0 -ar 16 -at 24 -as 24"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char command[8192];
        snprintf(command, sizeof command,
                 "node gltfpack_npm/node_modules/gltfpack/cli.js -i '%s' -o '%s' %s -ce ext "
                 ">/dev/null",
                 ossa_test_shared_path(runs[i].model), runs[i].out, runs[i].options);
        CHECKF(run(command), "gltfpack %s runs on %s", runs[i].options, runs[i].model);
        if (strstr(runs[i].options, "-cf")) {
            /* The uncompressed fallback file: ossa decodes instead of reading it. */
            char fallback[256];
            snprintf(fallback, sizeof fallback, "%.*s.fallback.bin", (int)(strlen(runs[i].out) - 4),
                     runs[i].out);
            CHECKF(remove(fallback) == 0, "gltfpack -cf wrote %s", fallback);
        }
        check_packed(runs[i].out);
    }
    /* Default settings move joints by up to 1% of the size; without resampling and at the
     * finest quantization, within the goldens' own tolerance (1e-4 of the size). */
    static const struct {
        const char *packed, *golden;
        double tolerance;
    } goldens[] = {{"gp_cesiumman_cc.glb", "golden/CesiumMan/anim0.json", GLTFPACK_TOLERANCE},
                   {"gp_fox_cc.glb", "golden/Fox/anim0.json", GLTFPACK_TOLERANCE},
                   {"gp_fox_cc.glb", "golden/Fox/anim1.json", GLTFPACK_TOLERANCE},
                   {"gp_fox_cc.glb", "golden/Fox/anim2.json", GLTFPACK_TOLERANCE},
                   {"gp_fox_fine.glb", "golden/Fox/anim0.json", 1e-4},
                   {"gp_fox_fine.glb", "golden/Fox/anim1.json", 1e-4},
                   {"gp_fox_fine.glb", "golden/Fox/anim2.json", 1e-4}};
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        double d = golden_distance(goldens[i].packed, goldens[i].golden);
        CHECKF(d < goldens[i].tolerance, "%s against %s: joints within %g of the size (%.3g)",
               goldens[i].packed, goldens[i].golden, goldens[i].tolerance, d);
        printf("meshopt_filters: %s against %s: joints within %.3g of the model's size\n",
               goldens[i].packed, goldens[i].golden, d);
    }
    CHECKF(filters_seen[OCTAHEDRAL] && filters_seen[QUATERNION] && filters_seen[EXPONENTIAL] &&
               triangles_seen,
           "gltfpack's output has every filter: OCTAHEDRAL %u, QUATERNION %u, EXPONENTIAL %u, "
           "TRIANGLES %u",
           filters_seen[OCTAHEDRAL], filters_seen[QUATERNION], filters_seen[EXPONENTIAL],
           triangles_seen);
    printf("meshopt_filters: gltfpack: %u compressed views checked (NONE %u, OCTAHEDRAL %u, "
           "QUATERNION %u, EXPONENTIAL %u; TRIANGLES %u)\n",
           views_checked, filters_seen[NONE], filters_seen[OCTAHEDRAL], filters_seen[QUATERNION],
           filters_seen[EXPONENTIAL], triangles_seen);
}

int main(void) {
    check_encoded_here();
    check_gltfpack();
    return ossa_test_finish("meshopt_filters");
}
