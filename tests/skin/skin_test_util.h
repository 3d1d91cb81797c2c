/* Helpers shared by the skinning suites: random numbers, palettes, comparisons. */
#ifndef OSSA_SKIN_TEST_UTIL_H
#define OSSA_SKIN_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/skin.h"

/* A small deterministic generator (xorshift). */
uint32_t skin_test_rand(uint64_t *state);
/* Uniform in [lo, hi). */
float skin_test_uniform(uint64_t *state, float lo, float hi);

/* joint_count random joint matrices: rotation (within ~55 degrees of identity) * uniform scale (in
 * [0.5, 2)) + translation (components in [-t, t)), 3x4 row-major. */
void skin_test_random_palette(uint64_t *state, uint32_t joint_count, float t, float *out);

/*
 * Compares n xyz(w) elements: |a - b| <= rel * (1 + |b|) per component, |b| being the length
 * of b's xyz. Counts a check per call and reports the first mismatch with `what`.
 */
void skin_test_compare(const char *what, const float *a, const float *b, size_t n, int components,
                       double rel);

/* Runs ossa_skin_mesh_run over [0, slots) on `threads` threads of a pool in chunks of grain
 * (outputs of `capacity` elements); every range must succeed. */
void skin_test_run_threads(const ossa_skin_mesh *mesh, const ossa_skin_frame *frame,
                           const ossa_skin_output *out, size_t capacity, unsigned threads,
                           size_t grain);

#endif
