/* Decoding JOINTS_n/WEIGHTS_n sets into compact (joint, weight) lists for the prepared mesh
 * builder, with the same rules as the stream kernel (zero weights dropped, sum renormalised). */
#ifndef OSSA_SKIN_INFLUENCES_H
#define OSSA_SKIN_INFLUENCES_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/skin.h"

/*
 * Collects vertex v's influences with a positive weight and a joint < joint_count (others are
 * skipped) into joints/weights (capacity 4 * set_count), merging repeats of one joint, and
 * renormalises the weights to sum to one. Returns how many there are (0: none).
 * *out_of_range is set when a positive weight names a joint >= joint_count.
 */
uint32_t skin_gather_influences(const ossa_skin_input *input, size_t v, uint32_t joint_count,
                                uint32_t *joints, float *weights, int *out_of_range);

/* Address of element v of a strided stream (stride 0: packed elements of `packed` bytes). */
static inline const void *skin_element(const void *base, size_t stride, size_t packed, size_t v) {
    return (const uint8_t *)base + v * (stride ? stride : packed);
}

#endif
