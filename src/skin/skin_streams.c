/* The reference stream kernel: one vertex at a time, straight from the caller's buffers. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dual_quat.h"
#include "influences.h"
#include "io/error.h"
#include "ossa/skin.h"

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

/* Blends vertex v's joint transforms into m (3x4); identity when it has no usable weight. */
static void blend_vertex(const ossa_skin_input *in, const float *palette, uint32_t joint_count,
                         ossa_skin_mode mode, size_t v, float *m) {
    float acc[12] = {0}, first[4] = {0}, sum = 0.0f;
    for (uint32_t s = 0; s < in->set_count; s++) {
        uint32_t joints[4];
        float weights[4];
        skin_decode_set(&in->sets[s], v, joints, weights);
        for (int i = 0; i < 4; i++) {
            float w = weights[i];
            if (!(w > 0.0f)) continue;
            uint32_t j = joints[i];
            if (j >= joint_count) continue;
            const float *jm = palette + 12 * (size_t)j;
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

/* A float stream: 4-byte aligned, stride 0 or a multiple of 4 no smaller than the element. */
static int bad_stream(const float *p, size_t stride, size_t packed) {
    return p && (((uintptr_t)p % sizeof(float)) != 0 || (stride && stride < packed) ||
                 stride % sizeof(float) != 0);
}

static ossa_result refuse(ossa_error *error, const char *message) {
    return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL, "ossa_skin_streams: %s", message);
}

static ossa_result check_streams(const ossa_skin_input *in, const float *palette,
                                 uint32_t joint_count, ossa_skin_mode mode,
                                 const ossa_skin_output *out, size_t begin, size_t end,
                                 ossa_error *error) {
    if (!in || !out) return refuse(error, "input and output are required");
    if (mode != OSSA_SKIN_LBS && mode != OSSA_SKIN_DQS)
        return refuse(error, "unknown skinning mode");
    if (begin > end) return refuse(error, "begin is after end");
    if (!in->positions || !out->positions)
        return refuse(error, "input and output positions are required");
    if ((out->normals && !in->normals) || (out->tangents && !in->tangents))
        return refuse(error, "output normals or tangents asked for that the input lacks");
    if (bad_stream(in->positions, in->positions_stride, 12) ||
        bad_stream(in->normals, in->normals_stride, 12) ||
        bad_stream(in->tangents, in->tangents_stride, 16) ||
        bad_stream(out->positions, out->positions_stride, 12) ||
        bad_stream(out->normals, out->normals_stride, 12) ||
        bad_stream(out->tangents, out->tangents_stride, 16))
        return refuse(error, "a stream is not 4-byte aligned or its stride is smaller than its "
                             "element or not a multiple of 4");
    if (in->set_count && !in->sets) return refuse(error, "set_count is not 0 but sets is NULL");
    if (in->set_count && joint_count && !palette) return refuse(error, "the palette is NULL");
    for (uint32_t s = 0; s < in->set_count; s++) {
        const ossa_influence_set *set = &in->sets[s];
        if (!set->joints || !set->weights)
            return refuse(error, "an influence set lacks joints or weights");
        if ((set->joints_type != OSSA_COMPONENT_UNSIGNED_BYTE &&
             set->joints_type != OSSA_COMPONENT_UNSIGNED_SHORT) ||
            (set->weights_type != OSSA_COMPONENT_FLOAT &&
             set->weights_type != OSSA_COMPONENT_UNSIGNED_BYTE &&
             set->weights_type != OSSA_COMPONENT_UNSIGNED_SHORT))
            return refuse(error, "an influence set has an unknown component type");
        if ((set->joints_stride && set->joints_stride < skin_joints_bytes(set)) ||
            (set->weights_stride && set->weights_stride < skin_weights_bytes(set)))
            return refuse(error, "an influence set's stride is smaller than its 4 components");
    }
    return OSSA_OK;
}

ossa_result ossa_skin_streams(const ossa_skin_input *in, const float *palette, uint32_t joint_count,
                              ossa_skin_mode mode, const ossa_skin_output *out, size_t begin,
                              size_t end, ossa_error *error) {
    ossa_result r = check_streams(in, palette, joint_count, mode, out, begin, end, error);
    if (r != OSSA_OK) return r;
    for (size_t v = begin; v < end; v++) {
        float m[12];
        if (in->set_count && palette)
            blend_vertex(in, palette, joint_count, mode, v, m);
        else
            memcpy(m, identity, sizeof m);
        const float *p = skin_element(in->positions, in->positions_stride, 12, v);
        float *o = out_element(out->positions, out->positions_stride, 12, v);
        float x = p[0], y = p[1], z = p[2];
        o[0] = m[0] * x + m[1] * y + m[2] * z + m[3];
        o[1] = m[4] * x + m[5] * y + m[6] * z + m[7];
        o[2] = m[8] * x + m[9] * y + m[10] * z + m[11];
        if (out->normals) {
            const float *n = skin_element(in->normals, in->normals_stride, 12, v);
            float r3[3];
            transform_direction(m, n, r3);
            memcpy(out_element(out->normals, out->normals_stride, 12, v), r3, sizeof r3);
        }
        if (out->tangents) {
            const float *t = skin_element(in->tangents, in->tangents_stride, 16, v);
            float r4[4];
            transform_direction(m, t, r4);
            r4[3] = t[3];
            memcpy(out_element(out->tangents, out->tangents_stride, 16, v), r4, sizeof r4);
        }
    }
    return OSSA_OK;
}
