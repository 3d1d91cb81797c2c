/* glTF 2.0 rules the Khronos validator's cases showed ossa applying wrongly (issue 14), each on
 * a document written here: matrix padding without a trailing pad, index accessors without a
 * bufferView, percent-encoded data URIs, byteStride bounds, '..' segments that stay inside the
 * model's folder, accessors of unknown type. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_test_util.h"
#include "ossa/document.h"
#include "ossa/model.h"
#include "test_support.h"

/* Matrices of 1- and 2-byte components: every column starts on a 4-byte boundary of the
 * view, the last column of the last element needs no padding after it, and the view itself may
 * start at any multiple of the component size (the validator's get_elements_matrix layout:
 * views at bytes 0, 14, 30 and 54). Padding bytes hold 0x7F so that reading them would show. */
typedef struct matrix_case {
    int component_type, component_size, rows, view_offset, view_length;
} matrix_case;

static const matrix_case matrices[4] = {
    {5120, 1, 2, 0, 14},  /* MAT2 BYTE: 2 + 2 padding per column, 8 + 6 bytes */
    {5122, 2, 2, 14, 16}, /* MAT2 SHORT: columns of 4 bytes, no padding */
    {5121, 1, 3, 30, 23}, /* MAT3 UNSIGNED_BYTE: 3 + 1 per column, 12 + 11 bytes */
    {5123, 2, 3, 54, 46}, /* MAT3 UNSIGNED_SHORT: 6 + 2 per column, 24 + 22 bytes */
};

/* The matrices' JSON, view `shorten_view` one byte short (-1: none). */
static void matrix_json(char *json, size_t size, int shorten_view) {
    int n = snprintf(json, size,
                     "{'asset':{'version':'2.0'},'buffers':[{'byteLength':100}],"
                     "'bufferViews':[");
    for (int m = 0; m < 4; m++)
        n += snprintf(json + n, size - (size_t)n, "%s{'buffer':0,'byteOffset':%d,'byteLength':%d}",
                      m ? "," : "", matrices[m].view_offset,
                      matrices[m].view_length - (m == shorten_view));
    n += snprintf(json + n, size - (size_t)n, "],'accessors':[");
    for (int m = 0; m < 4; m++)
        n += snprintf(json + n, size - (size_t)n,
                      "%s{'bufferView':%d,'componentType':%d,'count':2,'type':'MAT%d'}",
                      m ? "," : "", m, matrices[m].component_type, matrices[m].rows);
    snprintf(json + n, size - (size_t)n, "]}");
}

static void test_matrix_padding(void) {
    uint8_t bin[100];
    memset(bin, 0x7F, sizeof bin);
    for (int m = 0; m < 4; m++) {
        const matrix_case *c = &matrices[m];
        int column = (c->rows * c->component_size + 3) / 4 * 4;
        for (int e = 0, k = 0; e < 2; e++)
            for (int col = 0; col < c->rows; col++)
                for (int r = 0; r < c->rows; r++, k++) {
                    uint8_t *p =
                        bin + c->view_offset + (e * c->rows + col) * column + r * c->component_size;
                    uint16_t v = (uint16_t)(10 * m + k + 1);
                    if (c->component_size == 1)
                        *p = (uint8_t)v;
                    else
                        memcpy(p, &v, 2);
                }
    }
    char json[2048];
    matrix_json(json, sizeof json, -1);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, bin, sizeof bin, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "matrices ending after their last column: %s: %s", error.path,
           error.message);
    for (int m = 0; doc && m < 4; m++) {
        float values[18];
        int components = matrices[m].rows * matrices[m].rows;
        CHECK(ossa_accessor_read_float(doc, m, 0, 2, values) == OSSA_OK);
        for (int k = 0; k < 2 * components; k++)
            CHECKF(values[k] == (float)(10 * m + k + 1), "matrix %d component %d is %g", m, k,
                   (double)values[k]);
    }
    ossa_document_free(doc);
    /* One byte less is still refused, for each accessor. */
    for (int m = 0; m < 4; m++) {
        matrix_json(json, sizeof json, m);
        CHECK(io_load_json(json, bin, sizeof bin, NULL, &doc, &error) == OSSA_ERROR_INVALID);
        char path[32];
        snprintf(path, sizeof path, "accessors[%d]", m);
        CHECKF(!strcmp(error.path, path), "view %d one byte short: path %s", m, error.path);
        CHECK(strstr(error.message, "do not fit") != NULL);
    }
    /* Sparse matrix values end after their last column too (MAT2 BYTE: 4 + 2 bytes). */
    const char *sparse =
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':100}],'bufferViews':["
        "{'buffer':0,'byteOffset':8,'byteLength':6},{'buffer':0,'byteOffset':53,'byteLength':1}],"
        "'accessors':[{'componentType':5120,'count':3,'type':'MAT2','sparse':{'count':1,"
        "'indices':{'bufferView':1,'componentType':5121},'values':{'bufferView':0}}}]}";
    bin[53] = 2; /* the sparse index (a byte no view above uses): element 2 */
    r = io_load_json(sparse, bin, sizeof bin, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "sparse matrix values: %s: %s", error.path, error.message);
    if (doc) {
        float m[12];
        CHECK(ossa_accessor_read_float(doc, 0, 0, 3, m) == OSSA_OK);
        const float expect[12] = {0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7, 8}; /* element 1 above */
        CHECK(!memcmp(m, expect, sizeof m));
    }
    ossa_document_free(doc);
}

/* An index accessor without a bufferView reads as zeros (sparse values over them allowed); the
 * values are checked against the vertex count like stored ones. */
static void test_indices_without_buffer_view(void) {
    float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint8_t bin[48];
    memcpy(bin, positions, 36);
    const uint16_t sparse_indices[2] = {1, 2}, sparse_values[2] = {1, 2};
    memcpy(bin + 36, sparse_indices, 4);
    memcpy(bin + 40, sparse_values, 4);
    const char *format =
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':48}],'bufferViews':["
        "{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':4},"
        "{'buffer':0,'byteOffset':40,'byteLength':4}],'accessors':["
        "{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3','min':[0,0,0],"
        "'max':[1,1,0]},"
        "{'componentType':5123,'count':3,'type':'SCALAR'},"
        "{'componentType':5123,'count':3,'type':'SCALAR','sparse':{'count':2,'indices':"
        "{'bufferView':1,'componentType':5123},'values':{'bufferView':2}}}],"
        "'nodes':[{'mesh':0}],'scenes':[{'nodes':[0]}],'scene':0,"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0},'indices':%d}]}]}";
    for (int accessor = 1; accessor <= 2; accessor++) {
        char json[2048];
        snprintf(json, sizeof json, format, accessor);
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = io_load_json(json, bin, sizeof bin, NULL, &doc, &error);
        CHECKF(r == OSSA_OK, "indices without bufferView (accessor %d): %s: %s", accessor,
               error.path, error.message);
        if (!doc) continue;
        ossa_model *model = NULL;
        r = ossa_model_create(doc, NULL, &model, &error);
        CHECKF(r == OSSA_OK, "model: %s: %s", error.path, error.message);
        if (model) {
            const ossa_model_primitive *info = ossa_model_primitive_info(model, 0);
            ossa_model_streams streams = ossa_model_primitive_streams(model, 0);
            CHECK(info && info->index_count == 3 && streams.indices);
            if (info && streams.indices)
                for (uint32_t i = 0; i < 3; i++)
                    CHECKF(streams.indices[i] == (accessor == 1 ? 0 : i), "index %u is %u", i,
                           streams.indices[i]);
        }
        ossa_model_free(model);
        ossa_document_free(doc);
    }
    /* A sparse index past the vertices is refused like a stored one. */
    uint16_t big = 7;
    memcpy(bin + 42, &big, 2);
    char json[2048];
    snprintf(json, sizeof json, format, 2);
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(io_load_json(json, bin, sizeof bin, NULL, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "meshes[0].primitives[0].indices"));
    CHECK(strstr(error.message, "index 2 is 7") != NULL);
}

/* Data URIs without ";base64" hold their bytes percent-encoded (RFC 2397). */
static void test_percent_encoded_data_uris(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    /* 1.5f = 0x3FC00000 little endian; '?' is 0x3F written as itself. */
    ossa_result r =
        io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':4,'uri':"
                     "'data:application/gltf-buffer,%00%00%C0?'}],'bufferViews':[{'buffer':0,"
                     "'byteLength':4}],'accessors':[{'bufferView':0,'componentType':5126,'count':1,"
                     "'type':'SCALAR'}]}",
                     NULL, 0, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    if (doc) {
        float f = 0;
        CHECK(ossa_accessor_read_float(doc, 0, 0, 1, &f) == OSSA_OK && f == 1.5f);
        CHECK(doc->warning_count == 0);
    }
    ossa_document_free(doc);
    /* The validator's data_uri.glb: a one-byte buffer "0" in a GLB's JSON. */
    r = io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':1,"
                     "'uri':'data:application/gltf-buffer,0'}]}",
                     NULL, 0, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    if (doc) CHECK(doc->buffers[0].byte_length == 1 && doc->buffers[0].data[0] == '0');
    ossa_document_free(doc);
    /* Malformed escapes are refused at the URI; so is data shorter than byteLength. */
    const char *bad[2] = {"data:application/gltf-buffer,%0G%00", "data:application/gltf-buffer,%"};
    for (int i = 0; i < 2; i++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{'asset':{'version':'2.0'},'buffers':[{'byteLength':1,'uri':'%s'}]}", bad[i]);
        CHECK(io_load_json(json, NULL, 0, NULL, &doc, &error) == OSSA_ERROR_INVALID);
        CHECK(!strcmp(error.path, "buffers[0].uri"));
        CHECK(strstr(error.message, "two hex digits") != NULL);
    }
    CHECK(io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':3,'uri':"
                       "'data:application/gltf-buffer,%41B'}]}",
                       NULL, 0, NULL, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "buffers[0].byteLength"));
    CHECK(strstr(error.message, "holds only 2 bytes") != NULL);
}

/* byteStride: a multiple of 4 from 4 to 252 (the schema); above the view's byteLength is the
 * validator's error, harmless here: warned. */
static void test_byte_stride(void) {
    static uint8_t bin[512];
    const struct {
        int stride;
        ossa_result code;
    } cases[] = {{256, OSSA_ERROR_INVALID},
                 {254, OSSA_ERROR_INVALID},
                 {6, OSSA_ERROR_INVALID},
                 {2, OSSA_ERROR_INVALID},
                 {0, OSSA_ERROR_INVALID},
                 {252, OSSA_OK},
                 {4, OSSA_OK}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{'asset':{'version':'2.0'},'buffers':[{'byteLength':512}],'bufferViews':["
                 "{'buffer':0,'byteLength':512,'byteStride':%d,'target':34962}]}",
                 cases[i].stride);
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = io_load_json(json, bin, sizeof bin, NULL, &doc, &error);
        CHECKF(r == cases[i].code, "byteStride %d: %s (%s)", cases[i].stride, ossa_result_name(r),
               error.message);
        if (r != OSSA_OK) {
            CHECK(!strcmp(error.path, "bufferViews[0].byteStride"));
            CHECK(strstr(error.message, "multiple of 4 between 4 and 252") != NULL);
        }
        ossa_document_free(doc);
    }
    /* The validator's invalid_stride_too_big: byteStride 4 over a 1-byte view. */
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':512}],'bufferViews':["
                       "{'buffer':0,'byteLength':1,'byteStride':4}]}",
                       bin, sizeof bin, NULL, &doc, &error) == OSSA_OK);
    CHECK(io_has_warning(doc, "bufferViews[0].byteStride",
                         "4 is greater than the view's byteLength 1"));
    ossa_document_free(doc);
}

/* Loads dir/model.gltf whose buffer has this URI; returns the first float read, or -1. */
static ossa_result load_uri(const char *dir, const char *uri, float *value, ossa_error *error) {
    char path[512], json[1024];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"%s\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],\"accessors\":[{\"bufferView\":0,"
             "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}]}",
             uri);
    snprintf(path, sizeof path, "%s/model.gltf", dir);
    ossa_test_write_file(path, json, strlen(json));
    ossa_document *doc = NULL;
    ossa_result r = ossa_document_load_file(path, NULL, &doc, error);
    *value = -1;
    if (doc) CHECK(ossa_accessor_read_float(doc, 0, 0, 1, value) == OSSA_OK);
    ossa_document_free(doc);
    unlink(path);
    return r;
}

/* A '..' that stays inside the model's folder resolves like a URI (RFC 3986: the segment before
 * it is dropped, whether or not it exists); only climbing out of the folder is refused. */
static void test_dot_segments(void) {
    char root[64], dir[128], path[192];
    snprintf(root, sizeof root, "/tmp/ossa-spec-rules-XXXXXX");
    if (!mkdtemp(root)) {
        CHECKF(0, "cannot create a temporary folder");
        return;
    }
    snprintf(dir, sizeof dir, "%s/model", root);
    CHECK(mkdir(dir, 0700) == 0);
    float inside = 7.0f, outside = 9.0f;
    snprintf(path, sizeof path, "%s/x.bin", dir);
    ossa_test_write_file(path, &inside, 4);
    snprintf(path, sizeof path, "%s/x.bin", root);
    ossa_test_write_file(path, &outside, 4);
    const char *fine[] = {"sub/../x.bin", "./sub/./deeper/../../x.bin", "sub%2F..%2Fx.bin"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        float value;
        ossa_error error;
        ossa_result r = load_uri(dir, fine[i], &value, &error);
        CHECKF(r == OSSA_OK && value == 7.0f, "'%s': %s, read %g (%s)", fine[i],
               ossa_result_name(r), (double)value, error.message);
    }
    const char *escaping[] = {"../x.bin", "sub/../../x.bin", "./../x.bin", "sub/%2E%2E/../x.bin"};
    for (size_t i = 0; i < sizeof escaping / sizeof escaping[0]; i++) {
        float value;
        ossa_error error;
        ossa_result r = load_uri(dir, escaping[i], &value, &error);
        CHECKF(r == OSSA_ERROR_INVALID, "'%s' escapes but gives %s", escaping[i],
               ossa_result_name(r));
        CHECK(!strcmp(error.path, "buffers[0].uri"));
        CHECK(strstr(error.message, "leaves the model's folder") != NULL);
    }
    unlink(path);
    snprintf(path, sizeof path, "%s/x.bin", dir);
    unlink(path);
    rmdir(dir);
    rmdir(root);
}

/* An unknown accessor type is the validator's warning, not an error (the schema lets the list
 * grow): unused, it loads with a warning at `type` and its min/max are not judged by a component
 * count; used, it is refused, naming the type. The validator's unknown_type.gltf. */
static void test_unknown_type(void) {
    const char *accessors =
        "'accessors':[{'componentType':5126,'count':24,'max':[1,1,1],'min':[-1,-1,-1],"
        "'type':'NotaVEC3'},{'componentType':5125,'count':24,'max':[1,1,1],'min':[-1,-1,-1],"
        "'type':'NotaVEC3'}]";
    char json[1024];
    snprintf(json, sizeof json, "{'asset':{'version':'2.0'},%s}", accessors);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, NULL, 0, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    CHECK(io_has_warning(doc, "accessors[0].type", "'NotaVEC3' is not an accessor type"));
    CHECK(io_has_warning(doc, "accessors[1].type", "'NotaVEC3' is not an accessor type"));
    for (uint32_t w = 0; doc && w < doc->warning_count; w++)
        CHECKF(!strstr(doc->warnings[w].path, "min") && !strstr(doc->warnings[w].path, "max"),
               "warning at %s: %s", doc->warnings[w].path, doc->warnings[w].message);
    ossa_document_free(doc);
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},%s,'meshes':[{'primitives':[{'attributes':"
             "{'POSITION':0}}]}]}",
             accessors);
    CHECK(io_load_json(json, NULL, 0, NULL, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "meshes[0].primitives[0].attributes.POSITION"));
    CHECK(strstr(error.message, "unknown type (see accessors[0].type)") != NULL);
}

int main(void) {
    test_matrix_padding();
    test_indices_without_buffer_view();
    test_percent_encoded_data_uris();
    test_byte_stride();
    test_dot_segments();
    test_unknown_type();
    return ossa_test_finish("io_spec_rules");
}
