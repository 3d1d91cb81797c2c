/* The hostile-file suite: inputs built to break a loader (overflowing sizes, lying containers,
 * truncation, bad base64, escaping URIs, deep or cyclic hierarchies, deep JSON, NaN and Inf,
 * odd quaternions and keys, huge skins, unknown extensions), each generated here from one small
 * valid model. Every case says what must happen: an error of a given kind at a given JSON path,
 * or a load whose result then goes through the whole runtime (rig, clips, sampling, FK,
 * palettes, skinning: fuzz/fuzz_pipeline.c, which aborts on a broken contract) with a bounded,
 * documented result. A table of case, outcome and message is printed. */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_pipeline.h"
#include "hostile_cases.h"
#include "hostile_model.h"
#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "test_support.h"

int hostile_case_count;

/* One table row, and the check of what happened against what must. `expect` OSSA_OK means the
 * file loads and then runs through every stage of the pipeline. */
void hostile_report(const char *name, ossa_result got, const ossa_error *error, ossa_result expect,
                    const char *path) {
    hostile_case_count++;
    char text[OSSA_PATH_MAX + OSSA_MESSAGE_MAX + 8] = "";
    if (got != OSSA_OK) snprintf(text, sizeof text, "%s: %s", error->path, error->message);
    printf("| %-44s | %-24s | %.110s\n", name, ossa_result_name(got), text);
    CHECKF(got == expect, "%s: %s, expected %s (%s)", name, ossa_result_name(got),
           ossa_result_name(expect), text);
    if (got != OSSA_OK && got == expect) {
        CHECKF(error->message[0] != '\0', "%s: no message", name);
        if (path)
            CHECKF(!strncmp(error->path, path, strlen(path)), "%s: path '%s', expected '%s...'",
                   name, error->path, path);
    }
}

/* Loads bytes; when they load, runs the whole pipeline (which must go all the way). */
ossa_result hostile_load_and_run(const char *name, const unsigned char *data, size_t size,
                                 const ossa_load_options *options, ossa_error *error) {
    ossa_document *doc = NULL;
    memset(error, 0, sizeof *error);
    ossa_result r = ossa_document_load_memory(data, size, options, &doc, error);
    CHECKF((r == OSSA_OK) == (doc != NULL), "%s: result and document disagree", name);
    ossa_document_free(doc);
    if (r == OSSA_OK) {
        char message[1024];
        fuzz_outcome outcome = fuzz_pipeline_run_with(data, size, options, message, sizeof message);
        CHECKF(outcome == FUZZ_ANIMATED, "%s: loads, then %s: %s", name, fuzz_outcome_name(outcome),
               message);
    }
    return r;
}

void hostile_run_bytes(const char *name, const unsigned char *data, size_t size,
                       const ossa_load_options *options, ossa_result expect, const char *path) {
    ossa_error error;
    ossa_result r = hostile_load_and_run(name, data, size, options, &error);
    hostile_report(name, r, &error, expect, path);
}

/* ---- edits of the base model -------------------------------------------------------------- */

#define NO_PATCH (-1)

typedef struct edit {
    const char *name;
    const char *find, *replace; /* JSON edit (NULL: none) */
    int offset;                 /* binary patch: a float at this byte offset (NO_PATCH: none) */
    float value;
    int raise_limits; /* 1: max_elements 2^63, so size checks, not the limit, must refuse */
    ossa_result expect;
    const char *path;
    const char *find2, *replace2; /* a second JSON edit (NULL: none) */
} edit;

static void run_edit(const edit *e) {
    unsigned char *bin = malloc(BASE_BIN_SIZE);
    if (!bin) return;
    base_bin(bin);
    if (e->offset != NO_PATCH) bin_set_float(bin, (size_t)e->offset, e->value);
    char *json = e->find ? json_replace(base_json(), e->find, e->replace) : NULL;
    if (e->find2) {
        char *twice = json_replace(json, e->find2, e->replace2);
        free(json);
        json = twice;
    }
    hbytes glb = {0};
    glb_pack(&glb, json ? json : base_json(), bin, BASE_BIN_SIZE);
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "hostile.glb";
    if (e->raise_limits) options.max_elements = (uint64_t)1 << 63;
    hostile_run_bytes(e->name, glb.data, glb.size, &options, e->expect, e->path);
    hb_free(&glb);
    free(json);
    free(bin);
}

#define ACC0      "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
#define ACC6      "{\"bufferView\":6,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}"
#define BV0       "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36,\"target\":34962}"
#define BV6       "{\"buffer\":0,\"byteOffset\":284,\"byteLength\":36}"
#define NODE_TIP  "{\"name\":\"tip\",\"translation\":[0,1,0]}"
#define NODE_ROOT "{\"name\":\"root\",\"children\":[1]}"
#define SAMPLER0  "{\"input\":4,\"output\":5}"

/* Table rows: EDIT(name, find, replace, offset, value, raise_limits, expect, path), EDIT2(...)
 * with a second JSON edit. */
#define EDIT(n, f, r, o, v, l, e, p)                                                               \
    { n, f, r, o, v, l, e, p, NULL, NULL }
#define EDIT2(n, f, r, o, v, l, e, p, f2, r2)                                                      \
    { n, f, r, o, v, l, e, p, f2, r2 }

static const edit edits[] = {
    EDIT("baseline (the unedited model)", NULL, NULL, NO_PATCH, 0, 0, OSSA_OK, NULL),
    /* Sizes that overflow. */
    EDIT("count*stride wraps 32 bits (2^30+1 x 12)", ACC0,
         "{\"bufferView\":0,\"componentType\":5126,"
         "\"count\":1073741825,\"type\":\"VEC3\",",
         NO_PATCH, 0, 1, OSSA_ERROR_INVALID, "accessors[0]"),
    /* JSON integers over 2^53 are refused as too large: no count * stride can wrap 64 bits. */
    EDIT("count 2^62+1024 (count*12 wraps 64 bits)", ACC0,
         "{\"bufferView\":0,\"componentType\":"
         "5126,\"count\":4611686018427388928,\"type\":\"VEC3\",",
         NO_PATCH, 0, 1, OSSA_ERROR_LIMIT, "accessors[0].count"),
    EDIT2("count 2^53 x byteStride 252 in a 16 KiB view", ACC0,
          "{\"bufferView\":0,\"componentType\":"
          "5126,\"count\":9007199254740992,\"type\":\"VEC3\",",
          NO_PATCH, 0, 1, OSSA_ERROR_INVALID, "accessors[0]", BV0,
          "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":16384,"
          "\"byteStride\":252,\"target\":34962}"),
    EDIT("accessor count 2^31 (default limits)", ACC6,
         "{\"bufferView\":6,\"componentType\":5126,"
         "\"count\":2147483648,\"type\":\"VEC3\"}",
         NO_PATCH, 0, 0, OSSA_ERROR_LIMIT, "accessors[6]"),
    EDIT("accessor count 2^31 (limits raised)", ACC6,
         "{\"bufferView\":6,\"componentType\":5126,"
         "\"count\":2147483648,\"type\":\"VEC3\"}",
         NO_PATCH, 0, 1, OSSA_ERROR_INVALID, "accessors[6]"),
    EDIT("accessor count 2^64 (not a uint64)", ACC6,
         "{\"bufferView\":6,\"componentType\":5126,"
         "\"count\":18446744073709551616,\"type\":\"VEC3\"}",
         NO_PATCH, 0, 1, OSSA_ERROR_LIMIT, "accessors[6].count"),
    EDIT(
        "sparse count 2^31", ACC6,
        "{\"bufferView\":6,\"componentType\":5126,\"count\":3,\"type\":"
        "\"VEC3\",\"sparse\":{\"count\":2147483648,\"indices\":{\"bufferView\":4,\"componentType\":"
        "5125},\"values\":{\"bufferView\":6}}}",
        NO_PATCH, 0, 1, OSSA_ERROR_INVALID, "accessors[6].sparse"),
    EDIT(
        "sparse indices out of range", ACC6,
        "{\"bufferView\":6,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\",\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":4,\"componentType\":"
        "5125},\"values\":{\"bufferView\":6}}}",
        NO_PATCH, 0, 0, OSSA_ERROR_INVALID, "accessors[6].sparse"),
    EDIT("node mesh index 2^31", "\"mesh\":0,", "\"mesh\":2147483648,", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "nodes[2].mesh"),
    EDIT("node mesh index -1", "\"mesh\":0,", "\"mesh\":-1,", NO_PATCH, 0, 0, OSSA_ERROR_INVALID,
         "nodes[2].mesh"),
    EDIT("byteOffset 1e300", BV6, "{\"buffer\":0,\"byteOffset\":1e300,\"byteLength\":36}", NO_PATCH,
         0, 0, OSSA_ERROR_LIMIT, "bufferViews[6].byteOffset"),
    EDIT("byteOffset -4", BV6, "{\"buffer\":0,\"byteOffset\":-4,\"byteLength\":36}", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "bufferViews[6].byteOffset"),
    EDIT("count 2.5 (not an integer)", ACC6,
         "{\"bufferView\":6,\"componentType\":5126,\"count\":2.5,"
         "\"type\":\"VEC3\"}",
         NO_PATCH, 0, 0, OSSA_ERROR_INVALID, "accessors[6].count"),
    /* Offsets past the end. */
    EDIT("accessor byteOffset past its view", ACC6,
         "{\"bufferView\":6,\"byteOffset\":36,"
         "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
         NO_PATCH, 0, 0, OSSA_ERROR_INVALID, "accessors[6]"),
    EDIT("view past the end of its buffer", BV6,
         "{\"buffer\":0,\"byteOffset\":16380,\"byteLength\":36}", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "bufferViews[6]"),
    EDIT("view byteLength 2^64-1", BV6,
         "{\"buffer\":0,\"byteOffset\":284,\"byteLength\":18446744073709551615}", NO_PATCH, 0, 0,
         OSSA_ERROR_LIMIT, "bufferViews[6].byteLength"),
    EDIT("buffer byteLength past the BIN chunk", "{\"byteLength\":16384}", "{\"byteLength\":16388}",
         NO_PATCH, 0, 0, OSSA_ERROR_GLB, "buffers[0].byteLength"),
    EDIT("byteStride 2^32+12", BV6,
         "{\"buffer\":0,\"byteOffset\":284,\"byteLength\":36,"
         "\"byteStride\":4294967308}",
         NO_PATCH, 0, 0, OSSA_ERROR_INVALID, "bufferViews[6]"),
    /* Hierarchy. */
    /* Reported where the cycle meets a scene: its root turns out to have a parent. */
    EDIT("cycle: root <-> tip", NODE_TIP, "{\"name\":\"tip\",\"children\":[0]}", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "scenes[0].nodes[0]"),
    EDIT("cycle: node is its own child", NODE_TIP, "{\"name\":\"tip\",\"children\":[1]}", NO_PATCH,
         0, 0, OSSA_ERROR_INVALID, "nodes[1].children"),
    EDIT("shared child (two parents)", "\"mesh\":0,", "\"children\":[1],\"mesh\":0,", NO_PATCH, 0,
         0, OSSA_ERROR_INVALID, "nodes"),
    EDIT("child listed twice", NODE_ROOT, "{\"name\":\"root\",\"children\":[1,1]}", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "nodes[0].children"),
    EDIT("child index out of range", NODE_ROOT, "{\"name\":\"root\",\"children\":[3]}", NO_PATCH, 0,
         0, OSSA_ERROR_INVALID, "nodes[0].children[0]"),
    /* NaN and Inf in the data. */
    EDIT("NaN key time", NULL, NULL, BASE_TIMES + 4, NAN, 0, OSSA_ERROR_INVALID, "animations[0]"),
    EDIT("+Inf key time", NULL, NULL, BASE_TIMES + 8, INFINITY, 0, OSSA_ERROR_INVALID,
         "animations[0]"),
    EDIT("negative key time", NULL, NULL, BASE_TIMES, -1.0f, 0, OSSA_ERROR_INVALID,
         "animations[0]"),
    EDIT("zero-length key interval (0, 1, 1)", NULL, NULL, BASE_TIMES + 8, 1.0f, 0,
         OSSA_ERROR_INVALID, "animations[0]"),
    EDIT("decreasing key times (0, 1, 0.5)", NULL, NULL, BASE_TIMES + 8, 0.5f, 0,
         OSSA_ERROR_INVALID, "animations[0]"),
    EDIT("NaN rotation key value", NULL, NULL, BASE_ROTATIONS + 16, NAN, 0, OSSA_ERROR_INVALID,
         "animations[0]"),
    EDIT("+Inf translation key value", NULL, NULL, BASE_TRANSLATIONS + 12, INFINITY, 0,
         OSSA_ERROR_INVALID, "animations[0]"),
    EDIT("NaN inverse bind matrix", NULL, NULL, BASE_IBM + 64 + 52, NAN, 0, OSSA_ERROR_INVALID,
         "skins[0]"),
    EDIT("-Inf inverse bind matrix", NULL, NULL, BASE_IBM, -INFINITY, 0, OSSA_ERROR_INVALID,
         "skins[0]"),
    EDIT("NaN vertex weight", NULL, NULL, BASE_WEIGHTS + 4, NAN, 0, OSSA_ERROR_INVALID,
         "meshes[0]"),
    EDIT("+Inf vertex weight", NULL, NULL, BASE_WEIGHTS, INFINITY, 0, OSSA_ERROR_INVALID,
         "meshes[0]"),
    EDIT("NaN position", NULL, NULL, BASE_POSITIONS + 4, NAN, 0, OSSA_ERROR_INVALID, NULL),
    EDIT("node translation 1e39 (float overflow)", NODE_TIP,
         "{\"name\":\"tip\",\"translation\":[0,1e39,0]}", NO_PATCH, 0, 0, OSSA_ERROR_INVALID,
         "nodes[1].translation"),
    /* Quaternions. */
    EDIT("non-unit rotation keys (|q| = 2)", NULL, NULL, BASE_ROTATIONS + 12, 2.0f, 0, OSSA_OK,
         NULL),
    EDIT("zero rotation key (0, 0, 0, 0)", NULL, NULL, BASE_ROTATIONS + 12, 0.0f, 0,
         OSSA_ERROR_INVALID, "animations[0]"),
    EDIT("non-unit node rotation (|q| = 2)", NODE_TIP, "{\"name\":\"tip\",\"rotation\":[0,0,0,2]}",
         NO_PATCH, 0, 0, OSSA_OK, NULL),
    EDIT("zero node rotation", NODE_TIP, "{\"name\":\"tip\",\"rotation\":[0,0,0,0]}", NO_PATCH, 0,
         0, OSSA_ERROR_INVALID, "nodes[1].rotation"),
    /* Skins and animations that disagree with their data. */
    EDIT("joint index >= joint count", "\"joints\":[0,1],", "\"joints\":[0],", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "meshes[0]"),
    EDIT("skin joints repeated", "\"joints\":[0,1],", "\"joints\":[1,1],", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "skins[0].joints[1]"),
    EDIT("fewer inverse bind matrices than joints", "\"joints\":[0,1],", "\"joints\":[0,1,2],",
         NO_PATCH, 0, 0, OSSA_ERROR_INVALID, "skins[0]"),
    EDIT("output count != input count", SAMPLER0, "{\"input\":4,\"output\":3}", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "animations[0].samplers[0]"),
    EDIT("CUBICSPLINE output not 3 x input", SAMPLER0,
         "{\"input\":4,\"output\":5,\"interpolation\":\"CUBICSPLINE\"}", NO_PATCH, 0, 0,
         OSSA_ERROR_INVALID, "animations[0].samplers[0]"),
    EDIT("channel target node out of range", "\"node\":1,\"path\"", "\"node\":9,\"path\"", NO_PATCH,
         0, 0, OSSA_ERROR_INVALID, "animations[0].channels[0]"),
    /* Extensions. */
    EDIT("unknown required extension", "\"asset\":",
         "\"extensionsUsed\":[\"EXT_unknown\"],"
         "\"extensionsRequired\":[\"EXT_unknown\"],\"asset\":",
         NO_PATCH, 0, 0, OSSA_ERROR_UNSUPPORTED, "extensionsRequired[0]"),
    EDIT("required extension not in extensionsUsed",
         "\"asset\":", "\"extensionsRequired\":[\"EXT_unknown\"],\"asset\":", NO_PATCH, 0, 0,
         OSSA_ERROR_UNSUPPORTED, "extensionsRequired[0]"),
    EDIT("unknown used (not required) extension", "\"asset\":",
         "\"extensionsUsed\":[\"EXT_unknown\"],\"asset\":", NO_PATCH, 0, 0, OSSA_OK, NULL),
};

/* ---- the GLB container ------------------------------------------------------------------ */

static void put_u32_at(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void base_glb(hbytes *glb) {
    unsigned char *bin = malloc(BASE_BIN_SIZE);
    if (!bin) abort();
    base_bin(bin);
    glb_pack(glb, base_json(), bin, BASE_BIN_SIZE);
    free(bin);
}

/* Where a GLB's BIN chunk header starts. */
static size_t bin_chunk_at(const hbytes *glb) {
    uint32_t json_len = (uint32_t)glb->data[12] | (uint32_t)glb->data[13] << 8 |
                        (uint32_t)glb->data[14] << 16 | (uint32_t)glb->data[15] << 24;
    return 20 + json_len;
}

typedef struct glb_lie {
    const char *name;
    int field; /* 0 version, 1 total length, 2 JSON length, 3 JSON type, 4 BIN length, 5 BIN type */
    int64_t delta;  /* added to the true value (fields 1, 2, 4), or */
    uint32_t value; /* used as the value when delta is 0 */
} glb_lie;

static const glb_lie lies[] = {
    {"GLB version 1", 0, 0, 1},
    {"GLB version 3", 0, 0, 3},
    {"GLB total length > file", 1, 4, 0},
    {"GLB total length < file", 1, -4, 0},
    {"GLB total length 0xffffffff", 1, 0, 0xffffffffu},
    {"GLB total length 0", 1, 0, 0},
    {"GLB JSON chunk length > file", 2, 1 << 20, 0},
    {"GLB JSON chunk length 0xffffffff", 2, 0, 0xffffffffu},
    {"GLB JSON chunk length 0", 2, 0, 0},
    {"GLB JSON chunk length not a multiple of 4", 2, -1, 0},
    {"GLB first chunk not JSON", 3, 0, 0x4e4f534bu},
    {"GLB BIN chunk length > file", 4, 4, 0},
    {"GLB BIN chunk length 0xfffffff0", 4, 0, 0xfffffff0u},
    {"GLB BIN chunk length 0", 4, 0, 0},
    {"GLB BIN chunk of unknown type (reads zeros)", 5, 0, 0x58585858u},
};

static void run_lie(const glb_lie *lie) {
    hbytes glb = {0};
    base_glb(&glb);
    static const size_t at[6] = {4, 8, 12, 16, 0, 4};
    size_t offset = lie->field >= 4 ? bin_chunk_at(&glb) + at[lie->field] : at[lie->field];
    unsigned char *p = glb.data + offset;
    uint32_t truth =
        (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    put_u32_at(p, lie->delta ? (uint32_t)((int64_t)truth + lie->delta) : lie->value);
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "hostile.glb";
    /* An unknown chunk after the JSON is skipped, as the spec says; buffer 0 then has no bytes
     * and reads as zeros (warned). The model's rotation keys are then zero quaternions, which
     * would poison every transform: refused. */
    int unknown_chunk = lie->field == 5;
    hostile_run_bytes(lie->name, glb.data, glb.size, &options,
                      unknown_chunk ? OSSA_ERROR_INVALID : OSSA_ERROR_GLB,
                      unknown_chunk ? "animations[0].samplers[0].output" : "");
    hb_free(&glb);
}

/* Every proper prefix of a small GLB (the base model without its zero padding) is refused. */
static void truncations(void) {
    unsigned char *bin = malloc(BASE_BIN_SIZE);
    if (!bin) return;
    base_bin(bin);
    char *json = json_replace(base_json(), "{\"byteLength\":16384}", "{\"byteLength\":320}");
    hbytes glb = {0};
    glb_pack(&glb, json, bin, 320);
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "truncated.glb";
    long refused = 0, by_code[OSSA_ERROR_ARGUMENT + 1] = {0};
    for (size_t n = 0; n < glb.size; n++) {
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = ossa_document_load_memory(glb.data, n, &options, &doc, &error);
        ossa_document_free(doc);
        CHECKF(r != OSSA_OK, "the first %zu of %zu bytes load", n, glb.size);
        if (r != OSSA_OK && (int)r <= OSSA_ERROR_ARGUMENT) refused++, by_code[r]++;
    }
    ossa_error error;
    ossa_result whole =
        hostile_load_and_run("truncations (whole file)", glb.data, glb.size, &options, &error);
    CHECK(whole == OSSA_OK);
    hostile_case_count++;
    char text[64];
    snprintf(text, sizeof text, "refused %ld of %zu", refused, glb.size);
    printf("| %-44s | %-24s | glb errors %ld, io errors %ld, other %ld\n",
           "GLB truncated at every byte (0..size-1)", text, by_code[OSSA_ERROR_GLB],
           by_code[OSSA_ERROR_IO], refused - by_code[OSSA_ERROR_GLB] - by_code[OSSA_ERROR_IO]);
    hb_free(&glb);
    free(json);
    free(bin);
}

/* ---- base64 data URIs ------------------------------------------------------------------- */

static void run_data_uri(const char *name, const char *uri_text, int byte_length,
                         ossa_result expect) {
    char buffer[512];
    snprintf(buffer, sizeof buffer, "{\"byteLength\":%d,\"uri\":\"%s\"}", byte_length, uri_text);
    /* A .gltf whose only data is this buffer (no views use it). */
    hbytes json = {0};
    hb_printf(&json, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[%s]}", buffer);
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "hostile.gltf";
    hostile_run_bytes(name, json.data, json.size, &options, expect,
                      expect == OSSA_OK ? NULL : "buffers[0]");
    hb_free(&json);
}

static void data_uris(void) {
    const char *p = "data:application/octet-stream;base64,";
    char uri[256];
    snprintf(uri, sizeof uri, "%sQUJD", p);
    run_data_uri("base64: valid (ABC)", uri, 3, OSSA_OK);
    snprintf(uri, sizeof uri, "%sQU@D", p);
    run_data_uri("base64: garbage character", uri, 3, OSSA_ERROR_INVALID);
    snprintf(uri, sizeof uri, "%sQQ=A", p);
    run_data_uri("base64: padding in the middle", uri, 1, OSSA_ERROR_INVALID);
    snprintf(uri, sizeof uri, "%sQUJDR", p);
    run_data_uri("base64: length not a multiple of 4", uri, 3, OSSA_ERROR_INVALID);
    snprintf(uri, sizeof uri, "%sQU\\u0000JD", p);
    run_data_uri("base64: NUL inside", uri, 3, OSSA_ERROR_INVALID);
    snprintf(uri, sizeof uri, "%sQUJD", p);
    run_data_uri("base64: decodes shorter than byteLength", uri, 4, OSSA_ERROR_INVALID);
    run_data_uri("data URI percent-encoded (A%42C)", "data:application/octet-stream,A%42C", 3,
                 OSSA_OK);
    run_data_uri("data URI percent-encoded, bad escape", "data:application/octet-stream,A%4", 2,
                 OSSA_ERROR_INVALID);
    run_data_uri("data URI without a comma", "data:application/octet-stream;base64", 3,
                 OSSA_ERROR_INVALID);
}

/* ---- URIs that leave the model's folder ------------------------------------------------- */

static char tmp_root[256];

/* A .gltf in tmp_root/model/ whose buffer has this URI; the buffer file exists at
 * tmp_root/outside.bin and tmp_root/model/inside.bin. */
static void run_uri(const char *name, const char *uri, int unsafe, ossa_result expect) {
    char path[512], json[1024];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"%s\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,"
             "\"type\":\"SCALAR\"}]}",
             uri);
    snprintf(path, sizeof path, "%s/model/model.gltf", tmp_root);
    ossa_test_write_file(path, json, strlen(json));
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.allow_unsafe_paths = unsafe;
    ossa_document *doc = NULL;
    ossa_error error;
    memset(&error, 0, sizeof error);
    ossa_result r = ossa_document_load_file(path, &options, &doc, &error);
    if (doc) {
        float value = 0;
        CHECK(ossa_accessor_read_float(doc, 0, 0, 1, &value) == OSSA_OK);
        CHECKF(value == 42.0f, "%s: read %g, expected the file's 42", name, (double)value);
    }
    ossa_document_free(doc);
    hostile_report(name, r, &error, expect, expect == OSSA_OK ? NULL : "buffers[0]");
}

static void uris(void) {
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ossa-hostile-XXXXXX");
    if (!mkdtemp(tmp_root)) {
        CHECKF(0, "cannot create a temporary folder");
        return;
    }
    char path[512], abs_uri[512];
    float value = 42.0f;
    snprintf(path, sizeof path, "%s/model", tmp_root);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/outside.bin", tmp_root);
    ossa_test_write_file(path, &value, sizeof value);
    snprintf(path, sizeof path, "%s/model/inside.bin", tmp_root);
    ossa_test_write_file(path, &value, sizeof value);
    run_uri("uri: relative, inside the folder", "inside.bin", 0, OSSA_OK);
    run_uri("uri: ../", "../outside.bin", 0, OSSA_ERROR_INVALID);
    run_uri("uri: a/../../", "model/../../outside.bin", 0, OSSA_ERROR_INVALID);
    run_uri("uri: a/../ staying inside", "no-such-folder/../inside.bin", 0, OSSA_OK);
    run_uri("uri: percent-encoded ..", "%2e%2e/outside.bin", 0, OSSA_ERROR_INVALID);
    /* A backslash is no separator on POSIX: the name is a file that does not exist. */
    run_uri("uri: ..\\\\ (backslash)", "..\\\\outside.bin", 0, OSSA_ERROR_IO);
    snprintf(abs_uri, sizeof abs_uri, "%s/outside.bin", tmp_root);
    run_uri("uri: absolute path", abs_uri, 0, OSSA_ERROR_INVALID);
    snprintf(abs_uri, sizeof abs_uri, "file://%s/outside.bin", tmp_root);
    /* Other schemes are never fetched: the buffer cannot be loaded. */
    run_uri("uri: file:", abs_uri, 0, OSSA_ERROR_IO);
    run_uri("uri: http:", "http://example.com/outside.bin", 0, OSSA_ERROR_IO);
    run_uri("uri: ../ with allow_unsafe_paths", "../outside.bin", 1, OSSA_OK);
    run_uri("uri: missing file", "missing.bin", 0, OSSA_ERROR_IO);
    snprintf(path, sizeof path, "%s/model/model.gltf", tmp_root);
    unlink(path);
    snprintf(path, sizeof path, "%s/model/inside.bin", tmp_root);
    unlink(path);
    snprintf(path, sizeof path, "%s/outside.bin", tmp_root);
    unlink(path);
    snprintf(path, sizeof path, "%s/model", tmp_root);
    rmdir(path);
    rmdir(tmp_root);
}

/* ---- not glTF at all -------------------------------------------------------------------- */

typedef struct raw_case {
    const char *name, *text;
    ossa_result expect;
    const char *path;
} raw_case;

static const raw_case raws[] = {
    {"empty file", "", OSSA_ERROR_JSON, ""},
    {"JSON null", "null", OSSA_ERROR_JSON, ""},
    {"JSON array at the top", "[{\"asset\":{\"version\":\"2.0\"}}]", OSSA_ERROR_JSON, ""},
    {"JSON cut short", "{\"asset\":{\"version\":\"2.0\"}", OSSA_ERROR_JSON, ""},
    {"binary garbage", "\x01\xff\xfe\x80garbage", OSSA_ERROR_JSON, ""},
    {"no asset", "{\"nodes\":[]}", OSSA_ERROR_INVALID, "asset"},
    {"asset version 1.0", "{\"asset\":{\"version\":\"1.0\"}}", OSSA_ERROR_UNSUPPORTED,
     "asset.version"},
    {"asset minVersion 2.1", "{\"asset\":{\"version\":\"2.0\",\"minVersion\":\"2.1\"}}",
     OSSA_ERROR_UNSUPPORTED, "asset.minVersion"},
    {"smallest valid file", "{\"asset\":{\"version\":\"2.0\"}}", OSSA_OK, NULL},
};

int main(void) {
    printf("| %-44s | %-24s | %s\n", "case", "outcome", "path: message");
    for (size_t i = 0; i < sizeof raws / sizeof raws[0]; i++) {
        ossa_load_options options;
        memset(&options, 0, sizeof options);
        options.name = "hostile.gltf";
        hostile_run_bytes(raws[i].name, (const unsigned char *)raws[i].text, strlen(raws[i].text),
                          &options, raws[i].expect, raws[i].path);
    }
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++)
        run_edit(&edits[i]);
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++)
        run_lie(&lies[i]);
    truncations();
    data_uris();
    uris();
    hostile_big_cases();
    printf("hostile: %d cases\n", hostile_case_count);
    return ossa_test_finish("hostile");
}
