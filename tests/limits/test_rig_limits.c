/* Rig sizes are summed in 64 bits and refused past what a uint32 index reaches: glTF files
 * written here, one small (the totals and offsets) and one whose morph weights add up to more
 * than 2^32 - 1 floats (66,000 nodes drawing a mesh of 66,000 morph targets), which a 32-bit sum
 * would wrap to a small number and under-allocate. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/document.h"
#include "ossa/rig.h"
#include "test_support.h"

/* Three float positions (0,0,0) (1,0,0) (0,1,0), base64. */
static const char *const triangle =
    "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA";

/* A glTF with `nodes` root nodes that all draw mesh 0, which has `targets` morph targets. */
static int write_gltf(const char *path, unsigned nodes, unsigned targets) {
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36,\"uri\":\"%s\"}],",
            triangle);
    fputs("\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
          "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
          "\"min\":[0,0,0],\"max\":[1,1,0]}],"
          "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[",
          f);
    for (unsigned t = 0; t < targets; t++)
        fprintf(f, "%s{\"POSITION\":0}", t ? "," : "");
    fputs("]}]}],\"nodes\":[", f);
    for (unsigned n = 0; n < nodes; n++)
        fprintf(f, "%s{\"mesh\":0}", n ? "," : "");
    fputs("]}", f);
    return fclose(f) == 0;
}

static ossa_result build(const char *path, ossa_rig **rig, ossa_error *error) {
    ossa_document *doc = NULL;
    *rig = NULL;
    ossa_result r = ossa_document_load_file(path, NULL, &doc, error);
    CHECKF(r == OSSA_OK, "%s: %s", path, error->message);
    if (r == OSSA_OK) r = ossa_rig_build(doc, NULL, rig, error);
    ossa_document_free(doc);
    return r;
}

int main(void) {
    char dir[] = "/tmp/ossa-rig-limits-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECKF(0, "no temporary folder");
        return ossa_test_finish("rig_limits");
    }
    char path[64];
    ossa_rig *rig = NULL;
    ossa_error error;

    /* Small: totals and offsets. */
    snprintf(path, sizeof path, "%s/small.gltf", dir);
    CHECK(write_gltf(path, 3, 5));
    CHECK(build(path, &rig, &error) == OSSA_OK);
    if (rig) {
        CHECK(rig->weight_total == 15);
        for (uint32_t i = 0; i < 3; i++)
            CHECK(rig->weight_count[i] == 5 && rig->weight_offset[i] == 5 * i);
    }
    ossa_rig_free(rig);
    remove(path);

    /* 66,000 x 66,000 = 4,356,000,000 weights: past 2^32 - 1 at node 65,075 (65,076 nodes hold
     * 4,295,016,000). A 32-bit total would have wrapped to 61,032,704. */
    snprintf(path, sizeof path, "%s/wrap.gltf", dir);
    CHECK(write_gltf(path, 66000, 66000));
    CHECK(build(path, &rig, &error) == OSSA_ERROR_LIMIT);
    CHECK(rig == NULL);
    CHECKF(strcmp(error.path, "nodes[65075].mesh") == 0, "path %s", error.path);
    CHECKF(strcmp(error.file, "wrap.gltf") == 0, "file %s", error.file);
    CHECKF(strstr(error.message, "4295016000") != NULL, "%s", error.message);
    ossa_rig_free(rig);
    remove(path);
    rmdir(dir);
    return ossa_test_finish("rig_limits");
}
