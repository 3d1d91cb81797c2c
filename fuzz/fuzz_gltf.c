/* libFuzzer target: glTF JSON text loaded from memory, then the whole pipeline
 * (fuzz_pipeline.h). GLB inputs are left to fuzz_glb so that this target's mutations stay
 * on JSON.
 *
 * First the loader's JSON parser (src/io/json_tree.c) is checked against cJSON's own parse of
 * the same text: what both accept must give the same tree, and what it accepts cJSON must accept
 * too (but for numbers of more than 63 characters, which cJSON cannot read). It may refuse more
 * than cJSON: text after the root value, a NUL byte inside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_pipeline.h"
#include "io/json_tree.h"
#include "json_same.h"
#include "rig/owned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_json_tree(const char *text, size_t size) {
    const ossa_allocator heap = ossa_allocator_resolve(NULL); /* malloc and free */
    const ossa_allocator *allocator = &heap;
    ossa_json_tree tree;
    ossa_json_failure failure;
    int parsed = ossa_json_tree_parse(text, size, allocator, &tree, &failure);
    cJSON *reference = json_parse_cjson(text, size);
    if (parsed && !reference && !json_has_long_number(text, size)) {
        fprintf(stderr, "fuzz_gltf: the loader's JSON parser accepts what cJSON refuses\n");
        abort();
    }
    char why[256];
    if (parsed && reference && !json_same(tree.root, reference, why, sizeof why)) {
        fprintf(stderr, "fuzz_gltf: the loader's JSON tree differs from cJSON's: %s\n", why);
        abort();
    }
    cJSON_Delete(reference);
    if (parsed) ossa_json_tree_free(&tree, allocator);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 4 && !memcmp(data, "glTF", 4)) return -1; /* not added to the corpus */
    check_json_tree((const char *)data, size);
    fuzz_pipeline_run(data, size, NULL, 0);
    return 0;
}
