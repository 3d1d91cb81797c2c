/* Reading golden files (shared/golden) into the palettes and weights the GPU layer takes. */
#ifndef OSSA_TEST_GOLDEN_PALETTE_H
#define OSSA_TEST_GOLDEN_PALETTE_H

#include <cjson/cJSON.h>
#include <stdint.h>

/* Converts a column-major 4x4 JSON array into 3x4 rows (12 floats). */
void golden_rows_from_json(const cJSON *matrix, float rows[12]);

/* The palette of a primitive entry of a sample: the joint matrices of the node's skin, or the
 * node's world matrix as a one-joint palette when unskinned (skin < 0). Returns the joint count
 * written into rows (at most capacity joints), 0 when the sample lacks them. */
uint32_t golden_palette(const cJSON *sample, int skin, int node, float *rows, uint32_t capacity);

/* The morph weights of a node in a sample; returns how many (at most capacity). */
uint32_t golden_weights(const cJSON *sample, int node, float *weights, uint32_t capacity);

#endif
