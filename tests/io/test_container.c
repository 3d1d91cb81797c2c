/* Containers and resources: base64, GLB framing (hand-built files), data URIs, external files
 * relative to the model (and refused paths), loading from memory and from a path. */
#include <stdlib.h>
#include <string.h>

#include "io/loader.h"
#include "io_test_util.h"
#include "ossa/document.h"
#include "test_support.h"

static void test_base64(void) {
    uint8_t out[16];
    CHECK(ossa_io_base64_decode("", 0, out) == 0);
    CHECK(ossa_io_base64_decode("TWFu", 4, out) == 3 && !memcmp(out, "Man", 3));
    CHECK(ossa_io_base64_decode("TWE=", 4, out) == 2 && !memcmp(out, "Ma", 2));
    CHECK(ossa_io_base64_decode("TQ==", 4, out) == 1 && out[0] == 'M');
    CHECK(ossa_io_base64_decode("TQ", 2, out) == 1 && out[0] == 'M');
    CHECK(ossa_io_base64_decode("AAECA/7/", 8, out) == 6);
    CHECK(out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 3 && out[4] == 0xFE &&
          out[5] == 0xFF);
    CHECK(ossa_io_base64_decode("+/+/", 4, NULL) == 3);
    CHECK(ossa_io_base64_decode("TWF", 3, out) == 2);
    CHECK(ossa_io_base64_decode("T", 1, out) == -1);
    CHECK(ossa_io_base64_decode("TW!u", 4, out) == -1);
    CHECK(ossa_io_base64_decode("TW=u", 4, out) == -1);
    CHECK(ossa_io_base64_decode("TQ===", 5, out) == -1);
}

static const char *scene_json =
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":8}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],\"accessors\":[{\"bufferView\":0,"
    "\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}]}";

static ossa_result load_bytes(const uint8_t *data, size_t size, ossa_document **doc,
                              ossa_error *error) {
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "framed.glb";
    return ossa_document_load_memory(data, size, &options, doc, error);
}

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void test_glb(void) {
    const float values[2] = {1.5f, -2.0f};
    size_t size;
    uint8_t *glb = io_make_glb(scene_json, values, sizeof values, &size);
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(load_bytes(glb, size, &doc, &error) == OSSA_OK);
    if (doc) {
        float f[2];
        CHECK(ossa_accessor_read_float(doc, 0, 0, 2, f) == OSSA_OK);
        CHECK(f[0] == 1.5f && f[1] == -2.0f);
        CHECK(doc->buffers[0].uri == NULL && doc->buffers[0].byte_length == 8);
        CHECK(!strcmp(doc->file, "framed.glb"));
        CHECK(doc->warning_count == 0);
    }
    ossa_document_free(doc);
    uint8_t *bad = malloc(size + 16);

    /* Truncations anywhere are refused, never read past the end. */
    for (size_t n = 0; n < size; n++) {
        ossa_result r = load_bytes(glb, n, &doc, &error);
        CHECKF(r == OSSA_ERROR_GLB || r == OSSA_ERROR_JSON, "truncated to %zu: %s", n,
               ossa_result_name(r));
        CHECK(doc == NULL);
    }
    /* Declared length larger than the file. */
    memcpy(bad, glb, size);
    put_u32(bad + 8, (uint32_t)size + 4);
    CHECK(load_bytes(bad, size, &doc, &error) == OSSA_ERROR_GLB);
    CHECK(strstr(error.message, "declares") != NULL);
    /* Bytes after the declared end are ignored with a warning. */
    memcpy(bad, glb, size);
    memset(bad + size, 0xAB, 8);
    CHECK(load_bytes(bad, size + 8, &doc, &error) == OSSA_OK);
    CHECK(io_has_warning(doc, "", "8 bytes after the end of the GLB data"));
    ossa_document_free(doc);
    /* Version 1. */
    memcpy(bad, glb, size);
    put_u32(bad + 4, 1);
    CHECK(load_bytes(bad, size, &doc, &error) == OSSA_ERROR_GLB);
    CHECK(strstr(error.message, "version 1") != NULL);
    /* A JSON chunk longer than the file. */
    memcpy(bad, glb, size);
    put_u32(bad + 12, 0x7FFFFFF0u);
    CHECK(load_bytes(bad, size, &doc, &error) == OSSA_ERROR_GLB);
    CHECK(strstr(error.message, "remain") != NULL);
    /* BIN first. */
    memcpy(bad, glb, size);
    memcpy(bad + 16, "BIN\0", 4);
    CHECK(load_bytes(bad, size, &doc, &error) == OSSA_ERROR_GLB);
    CHECK(strstr(error.message, "first chunk must be JSON") != NULL);
    /* A BIN chunk shorter than the buffer's byteLength. */
    free(glb);
    glb = io_make_glb(scene_json, values, 4, &size);
    CHECK(load_bytes(glb, size, &doc, &error) == OSSA_ERROR_GLB);
    CHECK(!strcmp(error.path, "buffers[0].byteLength"));
    /* Padding beyond byteLength is tolerated (with a warning past 3 bytes). */
    free(glb);
    const float padded[4] = {1.5f, -2.0f, 0, 0};
    glb = io_make_glb(scene_json, padded, sizeof padded, &size);
    CHECK(load_bytes(glb, size, &doc, &error) == OSSA_OK);
    CHECK(io_has_warning(doc, "buffers[0]", "8 bytes beyond byteLength"));
    ossa_document_free(doc);
    /* An unknown chunk after BIN is skipped with a warning. */
    free(bad);
    bad = malloc(size + 12);
    memcpy(bad, glb, size);
    put_u32(bad + size, 4);
    memcpy(bad + size + 4, "XTRA", 4);
    memset(bad + size + 8, 0, 4);
    put_u32(bad + 8, (uint32_t)size + 12);
    CHECK(load_bytes(bad, size + 12, &doc, &error) == OSSA_OK);
    CHECK(doc && doc->warning_count >= 1 && strstr(doc->warnings[0].message, "unknown type"));
    ossa_document_free(doc);
    free(bad);
    free(glb);
}

static void test_data_uris(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    /* 1.5f = 0x3FC00000, -2.0f = 0xC0000000, little endian. */
    const char *mimes[2] = {"application/octet-stream", "application/gltf-buffer"};
    for (int m = 0; m < 2; m++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{'asset':{'version':'2.0'},'buffers':[{'byteLength':8,'uri':"
                 "'data:%s;base64,AADAPwAAAMA='}],'bufferViews':[{'buffer':0,'byteLength':8}],"
                 "'accessors':[{'bufferView':0,'componentType':5126,'count':2,'type':'SCALAR'}]}",
                 mimes[m]);
        CHECK(io_load_json(json, NULL, 0, NULL, &doc, &error) == OSSA_OK);
        float f[2] = {0, 0};
        if (doc) CHECK(ossa_accessor_read_float(doc, 0, 0, 2, f) == OSSA_OK);
        CHECK(f[0] == 1.5f && f[1] == -2.0f);
        CHECK(doc && doc->warning_count == 0);
        ossa_document_free(doc);
    }
    CHECK(io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':9,'uri':"
                       "'data:application/octet-stream;base64,AADAPwAAAMA='}],"
                       "'bufferViews':[{'buffer':0,'byteLength':8}]}",
                       NULL, 0, NULL, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "buffers[0].byteLength"));
    CHECK(io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':8,'uri':"
                       "'data:application/octet-stream;base64,AA*APwAAAMA='}]}",
                       NULL, 0, NULL, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "buffers[0].uri") && strstr(error.message, "base64"));
}

static void test_external_files(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    /* From a path: relative URIs resolve against the model's folder. */
    CHECK(ossa_document_load_file(ossa_test_shared_path("models/SimpleMorph/SimpleMorph.gltf"),
                                  NULL, &doc, &error) == OSSA_OK);
    CHECK(doc && doc->buffer_count == 2 && doc->buffers[0].data && doc->buffers[1].data);
    ossa_document_free(doc);
    /* From memory with base_dir, and without it (then relative URIs cannot load). */
    size_t size;
    unsigned char *text =
        ossa_test_read_file(ossa_test_shared_path("models/SimpleMorph/SimpleMorph.gltf"), &size);
    CHECK(text != NULL);
    if (!text) return;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", ossa_test_shared_path("models/SimpleMorph"));
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "SimpleMorph.gltf";
    options.base_dir = dir;
    CHECK(ossa_document_load_memory(text, size, &options, &doc, &error) == OSSA_OK);
    ossa_document_free(doc);
    options.base_dir = NULL;
    CHECK(ossa_document_load_memory(text, size, &options, &doc, &error) == OSSA_ERROR_IO);
    CHECK(!strcmp(error.file, "SimpleMorph.gltf") && !strcmp(error.path, "buffers[0].uri"));
    free(text);
    /* Absolute paths and '..' are refused unless allowed. */
    options.base_dir = dir;
    const char *unsafe[2] = {
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":"
        "\"../SimpleMorph/simpleMorphGeometry.bin\"}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":"
        "\"/etc/hostname\"}]}"};
    for (int i = 0; i < 2; i++) {
        options.allow_unsafe_paths = 0;
        CHECK(ossa_document_load_memory(unsafe[i], strlen(unsafe[i]), &options, &doc, &error) ==
              OSSA_ERROR_INVALID);
        CHECK(!strcmp(error.path, "buffers[0].uri") && strstr(error.message, "allow_unsafe_paths"));
    }
    options.allow_unsafe_paths = 1;
    CHECK(ossa_document_load_memory(unsafe[0], strlen(unsafe[0]), &options, &doc, &error) ==
          OSSA_OK);
    ossa_document_free(doc);
    /* A missing buffer file is an error naming it. */
    const char *missing = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,"
                          "\"uri\":\"no%20such.bin\"}],\"bufferViews\":[{\"buffer\":0,"
                          "\"byteLength\":4}]}";
    options.allow_unsafe_paths = 0;
    CHECK(ossa_document_load_memory(missing, strlen(missing), &options, &doc, &error) ==
          OSSA_ERROR_IO);
    CHECK(strstr(error.message, "no%20such.bin") != NULL);
}

/* Loading the same GLB from memory and from its path gives the same document. */
static void test_memory_equals_file(void) {
    const char *path = ossa_test_shared_path("models/Fox/Fox.glb");
    size_t size;
    unsigned char *bytes = ossa_test_read_file(path, &size);
    CHECK(bytes != NULL);
    if (!bytes) return;
    ossa_document *a = NULL, *b = NULL;
    ossa_error error;
    CHECK(ossa_document_load_file(path, NULL, &a, &error) == OSSA_OK);
    CHECK(ossa_document_load_memory(bytes, size, NULL, &b, &error) == OSSA_OK);
    free(bytes);
    if (a && b) {
        CHECK(a->buffers[0].byte_length == b->buffers[0].byte_length);
        CHECK(!memcmp(a->buffers[0].data, b->buffers[0].data, a->buffers[0].byte_length));
        CHECK(a->node_count == b->node_count && a->accessor_count == b->accessor_count);
        CHECK(!strcmp(a->file, "Fox.glb") && !strcmp(b->file, ""));
        CHECK(a->images[0].data != NULL && a->images[0].byte_length > 8);
        CHECK(!memcmp(a->images[0].data, "\x89PNG", 4));
    }
    ossa_document_free(a);
    ossa_document_free(b);
}

int main(void) {
    test_base64();
    test_glb();
    test_data_uris();
    test_external_files();
    test_memory_equals_file();
    return ossa_test_finish("io_container");
}
