/* Decoding and normalising a vertex's influences from its JOINTS_n/WEIGHTS_n sets. */
#include "influences.h"

#include <string.h>

static float decode_weight(const void *p, ossa_component_type type, int i) {
    switch (type) {
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        return (float)((const uint8_t *)p)[i] / 255.0f;
    case OSSA_COMPONENT_UNSIGNED_SHORT:
        return (float)((const uint16_t *)p)[i] / 65535.0f;
    default: {
        float w;
        memcpy(&w, (const uint8_t *)p + 4 * i, sizeof w);
        return w;
    }
    }
}

static uint32_t decode_joint(const void *p, ossa_component_type type, int i) {
    if (type == OSSA_COMPONENT_UNSIGNED_BYTE) return ((const uint8_t *)p)[i];
    uint16_t j;
    memcpy(&j, (const uint8_t *)p + 2 * i, sizeof j);
    return j;
}

uint32_t skin_gather_influences(const ossa_skin_input *input, size_t v, uint32_t joint_count,
                                uint32_t *joints, float *weights, int *out_of_range) {
    uint32_t n = 0;
    float sum = 0.0f;
    for (uint32_t s = 0; s < input->set_count; s++) {
        const ossa_influence_set *set = &input->sets[s];
        size_t jsize = set->joints_type == OSSA_COMPONENT_UNSIGNED_BYTE ? 4 : 8;
        size_t wsize = 4 * ossa_component_size(set->weights_type);
        const void *jp = skin_element(set->joints, set->joints_stride, jsize, v);
        const void *wp = skin_element(set->weights, set->weights_stride, wsize, v);
        for (int i = 0; i < 4; i++) {
            float w = decode_weight(wp, set->weights_type, i);
            if (!(w > 0.0f)) continue; /* zero (and invalid negative/NaN) weights add nothing */
            uint32_t j = decode_joint(jp, set->joints_type, i);
            if (j >= joint_count) {
                if (out_of_range) *out_of_range = 1;
                continue;
            }
            uint32_t k = 0;
            while (k < n && joints[k] != j)
                k++;
            if (k == n) {
                joints[n] = j;
                weights[n++] = 0.0f;
            }
            weights[k] += w;
            sum += w;
        }
    }
    if (n == 0) return 0;
    float inv = 1.0f / sum;
    for (uint32_t k = 0; k < n; k++)
        weights[k] *= inv;
    return n;
}
