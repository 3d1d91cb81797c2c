/* Robustness: shared models with bytes changed at random (fixed seeds) in the GLB container, the
 * JSON text (digits, so indices, counts and offsets change) and the binary data. Every load
 * either succeeds or returns an error with a message; under ASan/UBSan nothing reads out of
 * bounds or leaks. */
#include <stdlib.h>
#include <string.h>

#include "ossa/document.h"
#include "test_support.h"

static uint32_t rng_state;

static uint32_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

typedef struct outcome {
    int loaded, refused;
} outcome;

static void load_mutant(const uint8_t *data, size_t size, const char *name, const char *dir,
                        outcome *o) {
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = name;
    options.base_dir = dir;
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = ossa_document_load_memory(data, size, &options, &doc, &error);
    if (r == OSSA_OK) {
        o->loaded++;
        /* Decode everything the document offers: validated data must read back safely. */
        for (uint32_t a = 0; a < doc->accessor_count; a++) {
            const ossa_accessor *acc = &doc->accessors[a];
            float *out = malloc(acc->count * acc->components * sizeof *out);
            CHECK(out && ossa_accessor_read_float(doc, (int32_t)a, 0, acc->count, out) == OSSA_OK);
            free(out);
        }
    } else {
        o->refused++;
        CHECKF(error.message[0] != '\0', "%s: refused (%s) without a message", name,
               ossa_result_name(r));
        CHECK(doc == NULL);
    }
    ossa_document_free(doc);
}

/* Mutates `rounds` copies of a file: kind 0 any byte, kind 1 digits of the text only. */
static void mutate(const char *relative, int rounds, int digits_only, outcome *o) {
    size_t size;
    uint8_t *original = ossa_test_read_file(ossa_test_shared_path(relative), &size);
    CHECK(original != NULL);
    if (!original) return;
    uint8_t *copy = malloc(size);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", ossa_test_shared_path(relative));
    *strrchr(dir, '/') = '\0';
    for (int round = 0; round < rounds; round++) {
        rng_state = 0x9E3779B9u ^ (uint32_t)(round * 2654435761u) ^ (uint32_t)size;
        memcpy(copy, original, size);
        int changes = 1 + (int)(next_random() % 4);
        for (int c = 0; c < changes; c++) {
            size_t at = next_random() % size;
            if (digits_only) {
                for (size_t k = 0; k < size && !(copy[at] >= '0' && copy[at] <= '9'); k++)
                    at = (at + 1) % size;
                copy[at] = (uint8_t)('0' + next_random() % 10);
            } else {
                copy[at] = (uint8_t)next_random();
            }
        }
        /* Sometimes cut the file short too. */
        size_t n = (next_random() % 8 == 0) ? next_random() % size : size;
        load_mutant(copy, n, relative, dir, o);
    }
    free(copy);
    free(original);
}

int main(void) {
    outcome o = {0, 0};
    mutate("models/Fox/Fox.glb", 300, 0, &o);
    mutate("models/SimpleSkin/SimpleSkin.gltf", 300, 1, &o);
    mutate("models/RiggedSimple/RiggedSimple.gltf", 200, 1, &o);
    mutate("models/AnimatedMorphCube/AnimatedMorphCube.gltf", 200, 1, &o);
    printf("io_mutations: %d mutants loaded, %d refused\n", o.loaded, o.refused);
    CHECK(o.refused > 0 && o.loaded > 0);
    return ossa_test_finish("io_mutations");
}
