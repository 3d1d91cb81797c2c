/* The one decoder of JOINTS_n/WEIGHTS_n: per vertex from strided streams (skinning kernels and
 * the prepared mesh builder), and whole primitives from a document (prepared meshes, models,
 * the GPU upload). Weights follow glTF: float, or normalized unsigned byte / short. */
#ifndef OSSA_SKIN_INFLUENCES_H
#define OSSA_SKIN_INFLUENCES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ossa/skin.h"

/* Largest number of JOINTS_n/WEIGHTS_n sets a prepared mesh takes: a vertex's influence count
 * is stored in a byte (63 sets * 4 = 252 influences). */
#define SKIN_MAX_SETS 63

/* Address of element v of a strided stream (stride 0: packed elements of `packed` bytes). */
static inline const void *skin_element(const void *base, size_t stride, size_t packed, size_t v) {
    return (const uint8_t *)base + v * (stride ? stride : packed);
}

/* Bytes of one vertex's 4 joints / 4 weights of a set (the packed strides). */
static inline size_t skin_joints_bytes(const ossa_influence_set *set) {
    return set->joints_type == OSSA_COMPONENT_UNSIGNED_BYTE ? 4 : 8;
}
static inline size_t skin_weights_bytes(const ossa_influence_set *set) {
    return set->weights_type == OSSA_COMPONENT_FLOAT            ? 16
           : set->weights_type == OSSA_COMPONENT_UNSIGNED_SHORT ? 8
                                                                : 4;
}

/* Vertex v's 4 joints and 4 weights of one set, decoded (weights not renormalised). */
static inline void skin_decode_set(const ossa_influence_set *set, size_t v, uint32_t joints[4],
                                   float weights[4]) {
    const uint8_t *jp = skin_element(set->joints, set->joints_stride, skin_joints_bytes(set), v);
    const uint8_t *wp = skin_element(set->weights, set->weights_stride, skin_weights_bytes(set), v);
    for (int i = 0; i < 4; i++) {
        if (set->joints_type == OSSA_COMPONENT_UNSIGNED_BYTE) {
            joints[i] = jp[i];
        } else {
            uint16_t j;
            memcpy(&j, jp + 2 * i, sizeof j);
            joints[i] = j;
        }
        if (set->weights_type == OSSA_COMPONENT_UNSIGNED_BYTE) {
            weights[i] = (float)wp[i] / 255.0f;
        } else if (set->weights_type == OSSA_COMPONENT_UNSIGNED_SHORT) {
            uint16_t u;
            memcpy(&u, wp + 2 * i, sizeof u);
            weights[i] = (float)u / 65535.0f;
        } else {
            memcpy(&weights[i], wp + 4 * i, sizeof weights[i]);
        }
    }
}

/*
 * Collects vertex v's influences with a positive weight and a joint < joint_count (others are
 * skipped) into joints/weights (capacity 4 * set_count), merging repeats of one joint, and
 * renormalises the weights to sum to one. Returns how many there are (0: none).
 * *out_of_range is set when a positive weight names a joint >= joint_count.
 */
uint32_t skin_gather_influences(const ossa_skin_input *input, size_t v, uint32_t joint_count,
                                uint32_t *joints, float *weights, int *out_of_range);

/*
 * Decodes the first `sets` JOINTS_n/WEIGHTS_n pairs of a document primitive for vertices
 * [0, vertex_count): `joints` and `weights` get 4 * sets values per vertex, vertex by vertex
 * (set 0's four, then set 1's, ...), joints as uint16 (larger stored values become 65535),
 * weights as floats per glTF (not renormalised). As an ossa_influence_set, set s is at
 * joints + 4 * s with stride 8 * sets and weights + 4 * s with stride 16 * sets.
 * Allocates nothing. Returns OSSA_ERROR_INVALID (error->message only) for an accessor that is
 * not VEC4 or holds fewer than vertex_count elements.
 */
ossa_result skin_decode_influences(const ossa_document *document, const ossa_primitive *primitive,
                                   uint32_t sets, size_t vertex_count, uint16_t *joints,
                                   float *weights, ossa_error *error);

#endif
