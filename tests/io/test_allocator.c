/* The allocator callbacks: every allocation goes through them, and an allocator failing on its
 * Nth call, for every N until a load succeeds, always gives OSSA_ERROR_OUT_OF_MEMORY with
 * nothing left allocated (never a crash or a leak). */
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "ossa/document.h"
#include "test_support.h"

static void exhaust(const char *relative) {
    ossa_test_counting c;
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.allocator.alloc = ossa_test_counting_alloc;
    options.allocator.free = ossa_test_counting_free;
    options.allocator.user = &c;
    const char *path = ossa_test_shared_path(relative);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", path);
    long failures = 0, wrong = 0;
    for (long n = 1;; n++) {
        memset(&c, 0, sizeof c);
        c.fail_at = n;
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = ossa_document_load_file(copy, &options, &doc, &error);
        if (r == OSSA_OK) {
            CHECKF(c.calls < n, "%s: loaded although allocation %ld failed", relative, n);
            CHECK(c.live > 0);
            ossa_document_free(doc);
            CHECKF(c.live == 0, "%s: %ld blocks left after free", relative, c.live);
            break;
        }
        failures++;
        if (r != OSSA_ERROR_OUT_OF_MEMORY || doc != NULL || c.live != 0) wrong++;
        if (n > 100000) break;
    }
    CHECKF(wrong == 0, "%s: %ld of %ld failed allocations gave a wrong result or leaked", relative,
           wrong, failures);
    /* the document's objects come from a few arena blocks, so a load makes few calls, but
     * the storage, the loader, the file and at least one arena block are always among them */
    CHECKF(failures > 5, "%s: only %ld allocations", relative, failures);
    printf("%s: %ld allocations, each failure reported as out of memory\n", relative, failures);
}

int main(void) {
    exhaust("models/SimpleSkin/SimpleSkin.gltf");
    exhaust("models/SimpleMorph/SimpleMorph.gltf");
    exhaust("models/Fox/Fox.glb");
    exhaust("models/OracleSynth/Synth.gltf");
    return ossa_test_finish("io_allocator");
}
