/* EXT_meshopt_compression on a small mesh written here: the decoded views hold what
 * libmeshoptimizer's own decoders give, every rule of the extension is refused with the JSON path
 * of the extension object (or its member), corrupt streams (truncated, bad header byte, a count
 * that lies, random byte flips) are refused or decode without a crash, and a fallback buffer is
 * never loaded; an allocator failing at every N leaves nothing behind. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <meshoptimizer.h>

#include "io_test_util.h"
#include "test_support.h"

#define VERTICES 24
#define INDICES  36
#define EXT_PATH "bufferViews[0].extensions.EXT_meshopt_compression"

static float positions[VERTICES * 3];
static uint16_t indices[INDICES];
static uint8_t bin[1024];
static size_t bin_size, vtx_at, vtx_len, idx_at, idx_len;

/* A strip of quads, its vertices compressed at vtx_at and its triangles at idx_at. */
static void make_data(void) {
    for (int i = 0; i < VERTICES; i++) {
        positions[3 * i + 0] = (float)(i % 2);
        positions[3 * i + 1] = (float)(i / 2);
        positions[3 * i + 2] = (float)(i % 3);
    }
    for (int q = 0; q < INDICES / 6; q++) {
        uint16_t a = (uint16_t)(2 * q), t[6] = {a,
                                                (uint16_t)(a + 1),
                                                (uint16_t)(a + 2),
                                                (uint16_t)(a + 1),
                                                (uint16_t)(a + 3),
                                                (uint16_t)(a + 2)};
        memcpy(indices + 6 * q, t, sizeof t);
    }
    vtx_at = 0;
    vtx_len = meshopt_encodeVertexBuffer(bin, sizeof bin, positions, VERTICES, 12);
    idx_at = (vtx_len + 3) & ~(size_t)3;
    unsigned wide[INDICES];
    for (int i = 0; i < INDICES; i++)
        wide[i] = indices[i];
    idx_len = meshopt_encodeIndexBuffer(bin + idx_at, sizeof bin - idx_at, wide, INDICES);
    bin_size = (idx_at + idx_len + 3) & ~(size_t)3;
}

/* The document's JSON ('' for ""): view 0 holds positions, view 1 indices; ext0 and ext1 are
 * their extension objects (NULL: none), buffer1 the fallback buffer's members. */
static char *make_json(const char *ext0, const char *ext1, const char *buffer1) {
    static char json[8192];
    char view0[600] = "", view1[600] = ""; /* room for any extension text of this file */
    if (ext0) snprintf(view0, sizeof view0, ",'extensions':{'EXT_meshopt_compression':%s}", ext0);
    if (ext1) snprintf(view1, sizeof view1, ",'extensions':{'EXT_meshopt_compression':%s}", ext1);
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'extensionsUsed':['EXT_meshopt_compression'],"
             "'extensionsRequired':['EXT_meshopt_compression'],"
             "'buffers':[{'byteLength':%zu},%s],"
             "'bufferViews':[{'buffer':1,'byteLength':288,'byteStride':12%s},"
             "{'buffer':1,'byteOffset':288,'byteLength':72%s}],"
             "'accessors':[{'bufferView':0,'componentType':5126,'count':24,'type':'VEC3',"
             "'min':[0,0,0],'max':[1,11,2]},"
             "{'bufferView':1,'componentType':5123,'count':36,'type':'SCALAR'}],"
             "'meshes':[{'primitives':[{'attributes':{'POSITION':0},'indices':1}]}],"
             "'nodes':[{'mesh':0}]}",
             bin_size, buffer1, view0, view1);
    return json;
}

static const char *fallback_buffer =
    "{'byteLength':360,'extensions':{'EXT_meshopt_compression':{'fallback':true}}}";

static char ext0_text[256], ext1_text[256];

static const char *vertex_ext(void) {
    snprintf(ext0_text, sizeof ext0_text,
             "{'buffer':0,'byteOffset':%zu,'byteLength':%zu,'byteStride':12,'count':24,"
             "'mode':'ATTRIBUTES'}",
             vtx_at, vtx_len);
    return ext0_text;
}

static const char *index_ext(void) {
    snprintf(ext1_text, sizeof ext1_text,
             "{'buffer':0,'byteOffset':%zu,'byteLength':%zu,'byteStride':2,'count':36,"
             "'mode':'TRIANGLES'}",
             idx_at, idx_len);
    return ext1_text;
}

static ossa_result load(const char *json, const uint8_t *data, ossa_document **doc,
                        ossa_error *error) {
    return io_load_json(json, data, bin_size, NULL, doc, error);
}

/* The document loads, and its views hold libmeshoptimizer's decoding of the same bytes. */
static void check_valid(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = load(make_json(vertex_ext(), index_ext(), fallback_buffer), bin, &doc, &error);
    CHECKF(r == OSSA_OK, "the compressed mesh loads: %s at %s", error.message, error.path);
    if (r != OSSA_OK) return;
    const uint8_t *fb = doc->buffers[1].data;
    CHECKF(!memcmp(fb, positions, sizeof positions), "ATTRIBUTES: the positions, exactly");
    uint16_t expect[INDICES];
    CHECK(meshopt_decodeIndexBuffer(expect, INDICES, 2, bin + idx_at, idx_len) == 0);
    CHECKF(!memcmp(fb + 288, expect, sizeof expect), "TRIANGLES: meshoptimizer's decoding");
    float p[3];
    CHECK(ossa_accessor_read_float(doc, 0, 23, 1, p) == OSSA_OK);
    CHECK(p[0] == 1 && p[1] == 11 && p[2] == 2);
    CHECKF(!io_has_warning(doc, "bufferViews[0].extensions.EXT_meshopt_compression", ""),
           "no warning about the extension object");
    CHECKF(!io_has_warning(doc, "buffers[1]", ""), "no placeholder warning for the fallback");
    ossa_document_free(doc);

    /* INDICES on the same indices, and a fallback buffer whose file does not exist. */
    unsigned wide[INDICES];
    for (int i = 0; i < INDICES; i++)
        wide[i] = indices[i];
    uint8_t data[1024];
    memcpy(data, bin, bin_size);
    size_t n = meshopt_encodeIndexSequence(data + idx_at, sizeof data - idx_at, wide, INDICES);
    CHECKF(idx_at + n <= bin_size + 64, "index sequence fits (%zu)", n);
    char ext1[256];
    snprintf(ext1, sizeof ext1,
             "{'buffer':0,'byteOffset':%zu,'byteLength':%zu,'byteStride':2,'count':36,"
             "'mode':'INDICES'}",
             idx_at, n);
    size_t saved = bin_size;
    bin_size = (idx_at + n + 3) & ~(size_t)3;
    r = load(make_json(vertex_ext(), ext1,
                       "{'byteLength':360,'uri':'no_such_file.bin',"
                       "'extensions':{'EXT_meshopt_compression':{'fallback':true}}}"),
             data, &doc, &error);
    CHECKF(r == OSSA_OK, "INDICES with a missing fallback file loads: %s", error.message);
    if (r == OSSA_OK)
        CHECKF(!memcmp(doc->buffers[1].data + 288, indices, sizeof indices),
               "INDICES: the indices, exactly");
    ossa_document_free(doc);
    bin_size = saved;
}

/* A view decoding into a buffer with bytes of its own, over its own compressed bytes. */
static void check_decoding_over_source(void) {
    char json[8192];
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'extensionsUsed':['EXT_meshopt_compression'],"
             "'buffers':[{'byteLength':%zu}],"
             "'bufferViews':[{'buffer':0,'byteLength':288,'byteStride':12,"
             "'extensions':{'EXT_meshopt_compression':%s}}],"
             "'accessors':[{'bufferView':0,'componentType':5126,'count':24,'type':'VEC3'}]}",
             sizeof bin, vertex_ext());
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, bin, sizeof bin, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "a view decoded over its compressed bytes loads: %s", error.message);
    if (r == OSSA_OK)
        CHECKF(!memcmp(doc->buffers[0].data, positions, sizeof positions),
               "the positions replace the compressed bytes");
    ossa_document_free(doc);
}

/* Loads and expects a refusal whose path starts with `path` and message contains `phrase`. */
static void expect_refusal(const char *label, const char *json, const uint8_t *data,
                           const ossa_load_options *options, const char *path, const char *phrase) {
    ossa_document *doc = NULL;
    ossa_error error;
    memset(&error, 0, sizeof error);
    ossa_result r = io_load_json(json, data, bin_size, options, &doc, &error);
    CHECKF(r != OSSA_OK, "%s: refused", label);
    CHECKF(!strncmp(error.path, path, strlen(path)), "%s: path '%s' starts with '%s'", label,
           error.path, path);
    CHECKF(strstr(error.message, phrase) != NULL, "%s: message '%s' has '%s'", label, error.message,
           phrase);
    ossa_document_free(doc);
}

static const char *ext_with(const char *members) {
    static char text[512];
    snprintf(text, sizeof text, "{'buffer':0,'byteOffset':%zu,%s}", vtx_at, members);
    return text;
}

static void check_rules(void) {
    char members[256];
    const char *idx = index_ext();
    snprintf(members, sizeof members,
             "'byteLength':%zu,'byteStride':12,'count':24,'mode':'ATTRIBUTES'", vtx_len - 1);
    expect_refusal("truncated", make_json(ext_with(members), idx, fallback_buffer), bin, NULL,
                   EXT_PATH, "does not decode");
    uint8_t data[1024];
    memcpy(data, bin, sizeof bin);
    data[vtx_at] = 0x00;
    expect_refusal("bad vertex header byte", make_json(vertex_ext(), idx, fallback_buffer), data,
                   NULL, EXT_PATH, "does not decode");
    memcpy(data, bin, sizeof bin);
    data[idx_at] = 0xd1; /* INDICES' header in a TRIANGLES stream */
    expect_refusal("bad index header byte", make_json(vertex_ext(), idx, fallback_buffer), data,
                   NULL, "bufferViews[1].extensions.EXT_meshopt_compression", "does not decode");

    /* A count that lies, with a view sized to match: the stream holds fewer elements. */
    const char *lying =
        "{'asset':{'version':'2.0'},'extensionsUsed':['EXT_meshopt_compression'],"
        "'buffers':[{'byteLength':%zu},{'byteLength':1000,"
        "'extensions':{'EXT_meshopt_compression':{'fallback':true}}}],"
        "'bufferViews':[{'buffer':1,'byteLength':%d,'extensions':{'EXT_meshopt_compression':"
        "{'buffer':0,'byteOffset':%zu,'byteLength':%zu,'byteStride':%d,'count':%d,'mode':'%s'}}}]}";
    char json[2048];
    /* ATTRIBUTES stores groups of 16 elements, so the stream only tells counts of a different
     * number of header bytes apart (17..64 elements read the same bytes, as zero deltas past the
     * stored groups). */
    snprintf(json, sizeof json, lying, bin_size, 80 * 12, vtx_at, vtx_len, 12, 80, "ATTRIBUTES");
    expect_refusal("ATTRIBUTES count 80 for 24", json, bin, NULL, EXT_PATH, "does not decode");
    snprintf(json, sizeof json, lying, bin_size, 16 * 12, vtx_at, vtx_len, 12, 16, "ATTRIBUTES");
    expect_refusal("ATTRIBUTES count 16 for 24", json, bin, NULL, EXT_PATH, "does not decode");
    snprintf(json, sizeof json, lying, bin_size, 39 * 2, idx_at, idx_len, 2, 39, "TRIANGLES");
    expect_refusal("TRIANGLES count 39 for 36", json, bin, NULL, EXT_PATH, "does not decode");

    static const struct {
        const char *label, *members, *key, *phrase;
    } rules[] = {
        {"count not matching the view", "'byteStride':12,'count':25,'mode':'ATTRIBUTES'", ".count",
         "do not make"},
        {"stride not the view's", "'byteStride':16,'count':18,'mode':'ATTRIBUTES'", ".byteStride",
         "the buffer view's byteStride is 12"},
        {"ATTRIBUTES stride 6", "'byteStride':6,'count':48,'mode':'ATTRIBUTES'", ".byteStride",
         "multiple of 4"},
        {"stride 0", "'byteStride':0,'count':24,'mode':'ATTRIBUTES'", ".byteStride", "between"},
        {"stride 260", "'byteStride':260,'count':24,'mode':'ATTRIBUTES'", ".byteStride", "between"},
        {"count 0", "'byteStride':12,'count':0,'mode':'ATTRIBUTES'", ".count", "at least 1"},
        {"unknown mode", "'byteStride':12,'count':24,'mode':'LINES'", ".mode", "not a mode"},
        {"unknown filter", "'byteStride':12,'count':24,'mode':'ATTRIBUTES','filter':'ZIP'",
         ".filter", "not a filter"},
        {"OCTAHEDRAL stride 12",
         "'byteStride':12,'count':24,'mode':'ATTRIBUTES','filter':'OCTAHEDRAL'", ".byteStride",
         "4 or 8"},
        {"QUATERNION stride 12",
         "'byteStride':12,'count':24,'mode':'ATTRIBUTES','filter':'QUATERNION'", ".byteStride",
         "needs 8"},
        {"TRIANGLES stride 12", "'byteStride':12,'count':24,'mode':'TRIANGLES'", ".byteStride",
         "2 or 4"},
        {"mode missing", "'byteStride':12,'count':24", ".mode", "required"},
        {"count missing", "'byteStride':12,'mode':'ATTRIBUTES'", ".count", "required"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s%s", EXT_PATH, rules[i].key);
        snprintf(members, sizeof members, "'byteLength':%zu,%s", vtx_len, rules[i].members);
        expect_refusal(rules[i].label, make_json(ext_with(members), idx, fallback_buffer), bin,
                       NULL, path, rules[i].phrase);
    }
    /* Index rules on view 1 (72 bytes). */
    char ext1[256];
    snprintf(ext1, sizeof ext1,
             "{'buffer':0,'byteOffset':%zu,'byteLength':%zu,'byteStride':4,'count':18,"
             "'mode':'TRIANGLES','filter':'EXPONENTIAL'}",
             idx_at, idx_len);
    expect_refusal("TRIANGLES with a filter", make_json(vertex_ext(), ext1, fallback_buffer), bin,
                   NULL, "bufferViews[1].extensions.EXT_meshopt_compression.filter",
                   "only to ATTRIBUTES");
    snprintf(json, sizeof json, lying, bin_size, 35 * 2, idx_at, idx_len, 2, 35, "TRIANGLES");
    expect_refusal("TRIANGLES count 35", json, bin, NULL, EXT_PATH ".count", "multiple of 3");

    /* Buffers. */
    expect_refusal("source buffer out of range",
                   make_json("{'buffer':7,'byteLength':10,'byteStride':12,'count':24,"
                             "'mode':'ATTRIBUTES'}",
                             idx, fallback_buffer),
                   bin, NULL, EXT_PATH ".buffer", "");
    expect_refusal("source is the fallback buffer",
                   make_json("{'buffer':1,'byteLength':10,'byteStride':12,'count':24,"
                             "'mode':'ATTRIBUTES'}",
                             idx, fallback_buffer),
                   bin, NULL, EXT_PATH ".buffer", "fallback");
    snprintf(members, sizeof members,
             "'byteLength':%zu,'byteStride':12,'count':24,'mode':'ATTRIBUTES'", bin_size + 1);
    expect_refusal("source outside its buffer", make_json(ext_with(members), idx, fallback_buffer),
                   bin, NULL, EXT_PATH ".byteLength", "outside buffer 0");
    expect_refusal("a plain view of the fallback buffer",
                   make_json(vertex_ext(), NULL, fallback_buffer), bin, NULL,
                   "bufferViews[1].buffer", "fallback buffer");
    expect_refusal("source buffer without data",
                   make_json("{'buffer':2,'byteLength':10,'byteStride':12,'count':24,"
                             "'mode':'ATTRIBUTES'}",
                             idx, "{'byteLength':360},{'byteLength':64}"),
                   bin, NULL, EXT_PATH ".buffer", "no data");
    expect_refusal("source is a buffer only decoded into",
                   make_json("{'buffer':1,'byteLength':10,'byteStride':12,'count':24,"
                             "'mode':'ATTRIBUTES'}",
                             idx, "{'byteLength':360}"),
                   bin, NULL, EXT_PATH ".buffer", "no data of its own");
}

/* A buffer without uri that only compressed views use is a fallback without the flag. */
static void check_unflagged_fallback(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r =
        load(make_json(vertex_ext(), index_ext(), "{'byteLength':360}"), bin, &doc, &error);
    CHECKF(r == OSSA_OK, "an unflagged fallback buffer: loads (%s)", error.message);
    if (r == OSSA_OK) {
        CHECKF(!memcmp(doc->buffers[1].data, positions, sizeof positions), "decoded into it");
        CHECKF(!io_has_warning(doc, "buffers[1]", "read as zeros"), "no placeholder warning");
    }
    ossa_document_free(doc);
}

/* max_buffer_bytes counts decoded bytes: two views decode the same 288 bytes. */
static void check_limit(void) {
    char json[4096];
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'extensionsUsed':['EXT_meshopt_compression'],"
             "'buffers':[{'byteLength':%zu},{'byteLength':288,"
             "'extensions':{'EXT_meshopt_compression':{'fallback':true}}}],"
             "'bufferViews':[{'buffer':1,'byteLength':288,'extensions':"
             "{'EXT_meshopt_compression':%s}},{'buffer':1,'byteLength':288,'extensions':"
             "{'EXT_meshopt_compression':%s}}]}",
             bin_size, vertex_ext(), vertex_ext());
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.max_buffer_bytes = bin_size + 288;
    CHECKF(bin_size < 288, "the compressed data (%zu bytes) is smaller than a view", bin_size);
    expect_refusal("decoded bytes over max_buffer_bytes", json, bin, &options,
                   "bufferViews[1].extensions.EXT_meshopt_compression", "over the limit");
    options.max_buffer_bytes = bin_size + 2 * 288;
    ossa_document *doc = NULL;
    ossa_error error;
    CHECKF(io_load_json(json, bin, bin_size, &options, &doc, &error) == OSSA_OK,
           "within the limit it loads: %s", error.message);
    ossa_document_free(doc);
}

/* Undeclared, the extension is ignored with a warning and the fallback reads as zeros. */
static void check_undeclared(void) {
    char json[8192];
    snprintf(json, sizeof json, "%s", make_json(vertex_ext(), index_ext(), fallback_buffer));
    char *used = strstr(json, "'extensionsUsed'");
    const char *after = strstr(json, "'buffers'");
    memmove(used, after, strlen(after) + 1);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = load(json, bin, &doc, &error);
    CHECKF(r == OSSA_OK, "undeclared extension: loads (%s)", error.message);
    if (r == OSSA_OK)
        CHECK(io_has_warning(doc, "bufferViews[0].extensions.EXT_meshopt_compression",
                             "not listed in extensionsUsed"));
    ossa_document_free(doc);
}

/* Random byte flips in the compressed streams: refused or decoded, never a crash (ASan runs). */
static void check_flips(void) {
    uint32_t seed = 12345, refused = 0, loaded = 0;
    const char *json = make_json(vertex_ext(), index_ext(), fallback_buffer);
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", json);
    for (int round = 0; round < 400; round++) {
        uint8_t data[1024];
        memcpy(data, bin, sizeof bin);
        for (int k = 0; k <= round % 4; k++) {
            seed = seed * 1664525u + 1013904223u;
            size_t at = (seed >> 8) % bin_size;
            data[at] ^= (uint8_t)(1u << ((seed >> 4) % 8));
        }
        ossa_document *doc = NULL;
        ossa_error error;
        if (load(copy, data, &doc, &error) == OSSA_OK) {
            loaded++;
        } else {
            refused++;
            CHECKF(!strncmp(error.path, "bufferViews[", 12) ||
                       !strncmp(error.path, "accessors", 9) || !strncmp(error.path, "meshes", 6),
                   "a flipped stream is refused at a view, accessor or mesh, not '%s' (%s)",
                   error.path, error.message);
        }
        ossa_document_free(doc);
    }
    CHECKF(refused > 0, "some flipped streams are refused (%u of 400; %u load)", refused, loaded);
    printf("meshopt_refusals: 400 streams with flipped bits: %u refused, %u decode\n", refused,
           loaded);
}

/* An allocator failing at its Nth call, for every N until the load succeeds: always out of
 * memory with nothing left allocated (the decoding state and views decoded aside included). */
static void exhaust(const char *label, const char *json, const uint8_t *data, size_t size) {
    ossa_test_counting c;
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.allocator.alloc = ossa_test_counting_alloc;
    options.allocator.free = ossa_test_counting_free;
    options.allocator.user = &c;
    long wrong = 0, n;
    for (n = 1; n < 10000; n++) {
        memset(&c, 0, sizeof c);
        c.fail_at = n;
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = io_load_json(json, data, size, &options, &doc, &error);
        if (r == OSSA_OK) {
            ossa_document_free(doc);
            CHECKF(c.live == 0, "%s: %ld blocks left after free", label, c.live);
            break;
        }
        if (r != OSSA_ERROR_OUT_OF_MEMORY || doc != NULL || c.live != 0) wrong++;
    }
    /* small objects come from arena blocks: a few calls per load, more than the fixed ones */
    CHECKF(wrong == 0 && n > 5 && n < 10000, "%s: %ld of %ld failed allocations wrong", label,
           wrong, n - 1);
}

static void check_allocation_failures(void) {
    char json[8192];
    snprintf(json, sizeof json, "%s", make_json(vertex_ext(), index_ext(), fallback_buffer));
    exhaust("compressed mesh", json, bin, bin_size);
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'extensionsUsed':['EXT_meshopt_compression'],"
             "'buffers':[{'byteLength':%zu}],"
             "'bufferViews':[{'buffer':0,'byteLength':288,'byteStride':12,"
             "'extensions':{'EXT_meshopt_compression':%s}}]}",
             sizeof bin, vertex_ext());
    exhaust("decoded aside", json, bin, sizeof bin);
}

/* Draco stays refused by name, pointing at the compression ossa reads. */
static void check_draco(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json("{'asset':{'version':'2.0'},"
                                 "'extensionsUsed':['KHR_draco_mesh_compression'],"
                                 "'extensionsRequired':['KHR_draco_mesh_compression']}",
                                 NULL, 0, NULL, &doc, &error);
    CHECK(r == OSSA_ERROR_UNSUPPORTED && doc == NULL);
    CHECK(!strcmp(error.path, "extensionsRequired[0]"));
    CHECKF(strstr(error.message, "'KHR_draco_mesh_compression'") &&
               strstr(error.message, "EXT_meshopt_compression"),
           "the refusal names Draco and the alternative: %s", error.message);
}

int main(void) {
    make_data();
    CHECK(vtx_len > 0 && idx_len > 0);
    check_valid();
    check_decoding_over_source();
    check_rules();
    check_unflagged_fallback();
    check_limit();
    check_undeclared();
    check_flips();
    check_draco();
    check_allocation_failures();
    return ossa_test_finish("meshopt_refusals");
}
