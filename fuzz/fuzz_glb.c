/* libFuzzer target: GLB containers loaded from memory, then the whole pipeline
 * (fuzz_pipeline.h). Inputs without the GLB magic are left to fuzz_gltf. */
#include <string.h>

#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4 || memcmp(data, "glTF", 4) != 0) return -1; /* not added to the corpus */
    fuzz_pipeline_run(data, size, NULL, 0);
    return 0;
}
