/* Everything ossa does with a model, run on bytes from anywhere: load from memory, then for
 * what loads build the rig and clips, sample every clip at several times (with and without a
 * cursor), run every forward kinematics and palette function, prepare and skin every mesh
 * primitive, build a model with compact clips and play them. Shared by the fuzz targets and the
 * regression replay test.
 *
 * Besides memory safety (left to the sanitizers) it checks the contracts of the API and aborts
 * when one is broken: a refusal comes with a consistent error (code, message, NULL output), a
 * rig keeps parents before children and its node maps inverse of each other. */
#ifndef OSSA_FUZZ_PIPELINE_H
#define OSSA_FUZZ_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/document.h"

/* How far an input got. */
typedef enum fuzz_outcome {
    FUZZ_REFUSED_BY_LOADER, /* ossa_document_load_memory gave an error */
    FUZZ_REFUSED_BY_RIG,    /* loaded, but ossa_rig_build gave an error */
    FUZZ_REFUSED_BY_CLIPS,  /* loaded, but ossa_clip_set_build gave an error */
    FUZZ_ANIMATED           /* every stage ran (skin preparation may still refuse a primitive) */
} fuzz_outcome;

/* Limits the harness loads with: small enough that no input can make a run slow or large. */
#define FUZZ_MAX_ELEMENTS     (1u << 16)
#define FUZZ_MAX_BUFFER_BYTES (16u << 20)

/* Runs the whole pipeline on one input; aborts (with a message on stderr) on a broken contract.
 * `error_text` (may be NULL) receives the refusal's formatted message, if any. */
fuzz_outcome fuzz_pipeline_run(const uint8_t *data, size_t size, char *error_text,
                               size_t error_size);

/* The same with the caller's load options (NULL: the library defaults) instead of the fuzz
 * limits above. */
fuzz_outcome fuzz_pipeline_run_with(const uint8_t *data, size_t size,
                                    const ossa_load_options *options, char *error_text,
                                    size_t error_size);

/* A short name for an outcome. */
const char *fuzz_outcome_name(fuzz_outcome outcome);

#endif
