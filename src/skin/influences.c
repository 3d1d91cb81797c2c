/* Decoding and normalising influences (influences.h). */
#include "influences.h"

#include "io/error.h"

uint32_t skin_gather_influences(const ossa_skin_input *input, size_t v, uint32_t joint_count,
                                uint32_t *joints, float *weights, int *out_of_range) {
    uint32_t n = 0;
    float sum = 0.0f;
    for (uint32_t s = 0; s < input->set_count; s++) {
        uint32_t sj[4];
        float sw[4];
        skin_decode_set(&input->sets[s], v, sj, sw);
        for (int i = 0; i < 4; i++) {
            float w = sw[i];
            if (!(w > 0.0f)) continue; /* zero (and invalid negative/NaN) weights add nothing */
            uint32_t j = sj[i];
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

/* Vertices decoded per step through the stack buffers below. */
#define DECODE_CHUNK 256

ossa_result skin_decode_influences(const ossa_document *doc, const ossa_primitive *prim,
                                   uint32_t sets, size_t n, uint16_t *joints, float *weights,
                                   ossa_error *error) {
    uint32_t raw[4 * DECODE_CHUNK];
    float decoded[4 * DECODE_CHUNK];
    size_t per_vertex = 4 * (size_t)sets;
    for (uint32_t s = 0; s < sets; s++) {
        const ossa_accessor *ja = &doc->accessors[prim->joints[s]];
        const ossa_accessor *wa = &doc->accessors[prim->weights[s]];
        if (ja->components != 4 || wa->components != 4 || ja->count < n || wa->count < n)
            return ossa_error_set(error, OSSA_ERROR_INVALID, NULL, NULL,
                                  "JOINTS_%u/WEIGHTS_%u must be VEC4 with one element per vertex",
                                  s, s);
        for (size_t first = 0; first < n; first += DECODE_CHUNK) {
            size_t count = n - first < DECODE_CHUNK ? n - first : DECODE_CHUNK;
            ossa_result r = ossa_accessor_read_uint(doc, prim->joints[s], first, count, raw);
            if (r == OSSA_OK)
                r = ossa_accessor_read_float(doc, prim->weights[s], first, count, decoded);
            if (r != OSSA_OK)
                return ossa_error_set(error, r, NULL, NULL, "JOINTS_%u/WEIGHTS_%u cannot be read",
                                      s, s);
            for (size_t v = 0; v < count; v++) {
                uint16_t *jv = joints + (first + v) * per_vertex + 4 * s;
                float *wv = weights + (first + v) * per_vertex + 4 * s;
                for (int i = 0; i < 4; i++) {
                    uint32_t j = raw[4 * v + i];
                    jv[i] = j > 65535 ? 65535 : (uint16_t)j;
                    wv[i] = decoded[4 * v + i];
                }
            }
        }
    }
    return OSSA_OK;
}
