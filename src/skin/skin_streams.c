/* The reference stream kernel: one vertex at a time, straight from the caller's buffers. */
#include <math.h>
#include <string.h>

#include "dual_quat.h"
#include "influences.h"
#include "ossa/skin.h"

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

static float load_weight(const void *p, ossa_component_type type, int i) {
    if (type == OSSA_COMPONENT_UNSIGNED_BYTE) return (float)((const uint8_t *)p)[i] / 255.0f;
    if (type == OSSA_COMPONENT_UNSIGNED_SHORT) {
        uint16_t u;
        memcpy(&u, (const uint8_t *)p + 2 * i, sizeof u);
        return (float)u / 65535.0f;
    }
    float w;
    memcpy(&w, (const uint8_t *)p + 4 * i, sizeof w);
    return w;
}

static uint32_t load_joint(const void *p, ossa_component_type type, int i) {
    if (type == OSSA_COMPONENT_UNSIGNED_BYTE) return ((const uint8_t *)p)[i];
    uint16_t j;
    memcpy(&j, (const uint8_t *)p + 2 * i, sizeof j);
    return j;
}

/* Blends vertex v's joint transforms into m (3x4); identity when it has no usable weight. */
static void blend_vertex(const ossa_skin_input *in, const float *palette, uint32_t joint_count,
                         ossa_skin_mode mode, size_t v, float *m) {
    float acc[12] = {0}, first[4] = {0}, sum = 0.0f;
    for (uint32_t s = 0; s < in->set_count; s++) {
        const ossa_influence_set *set = &in->sets[s];
        const void *jp = skin_element(set->joints, set->joints_stride,
                                      set->joints_type == OSSA_COMPONENT_UNSIGNED_BYTE ? 4 : 8, v);
        const void *wp = skin_element(set->weights, set->weights_stride,
                                      4 * ossa_component_size(set->weights_type), v);
        for (int i = 0; i < 4; i++) {
            float w = load_weight(wp, set->weights_type, i);
            if (!(w > 0.0f)) continue;
            uint32_t j = load_joint(jp, set->joints_type, i);
            if (j >= joint_count) continue;
            const float *jm = palette + 12 * j;
            if (mode == OSSA_SKIN_LBS) {
                for (int e = 0; e < 12; e++)
                    acc[e] += w * jm[e];
            } else {
                float dq[12];
                skin_dq_from_matrix(jm, dq);
                if (sum == 0.0f) memcpy(first, dq, sizeof first);
                float dot =
                    dq[0] * first[0] + dq[1] * first[1] + dq[2] * first[2] + dq[3] * first[3];
                float sw = dot < 0.0f ? -w : w; /* antipodality: blend in one hemisphere */
                for (int e = 0; e < 8; e++)
                    acc[e] += sw * dq[e];
                acc[8] += w * dq[8];
            }
            sum += w;
        }
    }
    if (sum == 0.0f) {
        memcpy(m, identity, sizeof identity);
        return;
    }
    float inv = 1.0f / sum;
    if (mode == OSSA_SKIN_LBS) {
        for (int e = 0; e < 12; e++)
            m[e] = acc[e] * inv;
    } else {
        acc[8] *= inv; /* the dual quaternion itself is normalised by skin_dq_to_matrix */
        skin_dq_to_matrix(acc, m);
    }
}

static float *out_element(float *base, size_t stride, size_t packed, size_t v) {
    return (float *)((uint8_t *)base + v * (stride ? stride : packed));
}

static void transform_direction(const float *m, const float *d, float *out) {
    float x = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
    float y = m[4] * d[0] + m[5] * d[1] + m[6] * d[2];
    float z = m[8] * d[0] + m[9] * d[1] + m[10] * d[2];
    float len2 = x * x + y * y + z * z;
    float inv = len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f;
    out[0] = x * inv;
    out[1] = y * inv;
    out[2] = z * inv;
}

void ossa_skin_streams(const ossa_skin_input *in, const float *palette, uint32_t joint_count,
                       ossa_skin_mode mode, const ossa_skin_output *out, size_t begin, size_t end) {
    for (size_t v = begin; v < end; v++) {
        float m[12];
        if (in->set_count && palette)
            blend_vertex(in, palette, joint_count, mode, v, m);
        else
            memcpy(m, identity, sizeof m);
        if (out->positions) {
            const float *p = skin_element(in->positions, in->positions_stride, 12, v);
            float *o = out_element(out->positions, out->positions_stride, 12, v);
            float x = p[0], y = p[1], z = p[2];
            o[0] = m[0] * x + m[1] * y + m[2] * z + m[3];
            o[1] = m[4] * x + m[5] * y + m[6] * z + m[7];
            o[2] = m[8] * x + m[9] * y + m[10] * z + m[11];
        }
        if (out->normals && in->normals) {
            const float *n = skin_element(in->normals, in->normals_stride, 12, v);
            float r[3];
            transform_direction(m, n, r);
            memcpy(out_element(out->normals, out->normals_stride, 12, v), r, sizeof r);
        }
        if (out->tangents && in->tangents) {
            const float *t = skin_element(in->tangents, in->tangents_stride, 16, v);
            float r[4];
            transform_direction(m, t, r);
            r[3] = t[3];
            memcpy(out_element(out->tangents, out->tangents_stride, 16, v), r, sizeof r);
        }
    }
}
