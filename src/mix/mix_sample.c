/* The mixed pose at a clock (ossa_mix_sample): normal layers as a weighted mean completed by the
 * rest pose below the threshold, then additive layers. Per frame: allocates nothing. */
#include <math.h>
#include <string.h>

#include "mix/mix_internal.h"

/* The scratch block: one layer pose, the weight sum per node, every layer's cursor. */
typedef struct mix_scratch {
    ossa_pose layer;
    float *sums;
    uint32_t *cursors;
} mix_scratch;

static size_t round16(size_t bytes) {
    return (bytes + 15) & ~(size_t)15;
}

static mix_scratch scratch_layout(const ossa_mix *mix, void *memory) {
    const ossa_rig *rig = mix->rig;
    char *p = memory;
    mix_scratch s;
    s.layer.local = (ossa_trs *)p;
    p += round16(rig->node_count * sizeof(ossa_trs));
    s.layer.weights = (float *)p;
    p += round16(rig->weight_total * sizeof(float));
    s.sums = (float *)p;
    p += round16(rig->node_count * sizeof(float));
    s.cursors = (uint32_t *)p;
    return s;
}

size_t ossa_mix_scratch_size(const ossa_mix *mix) {
    const ossa_rig *rig = mix->rig;
    return round16(rig->node_count * sizeof(ossa_trs)) +
           round16(rig->weight_total * sizeof(float)) + round16(rig->node_count * sizeof(float)) +
           round16(mix->cursor_total * sizeof(uint32_t));
}

static void sample_layer(const ossa_mix *mix, uint32_t index, double clock, mix_scratch *s) {
    const mix_layer *layer = &mix->layers[index];
    ossa_cursor cursor = {s->cursors + layer->cursor_offset, ossa_cursor_size(layer->clip)};
    float time = (float)ossa_mix_layer_time(mix, index, clock);
    /* Cannot fail: ossa_mix_create checked that the clip is of this rig. */
    (void)ossa_clip_sample(mix->rig, layer->clip, time, &cursor, &s->layer);
}

/* a += e * (dot(a, q) >= 0 ? q : -q) */
static void add_rotation(float *a, const float *q, float e) {
    float dot = a[0] * q[0] + a[1] * q[1] + a[2] * q[2] + a[3] * q[3];
    float f = dot >= 0 ? e : -e;
    for (int c = 0; c < 4; c++)
        a[c] += f * q[c];
}

static void add_weighted(ossa_trs *acc, const ossa_trs *x, float e) {
    for (int c = 0; c < 3; c++) {
        acc->translation[c] += e * x->translation[c];
        acc->scale[c] += e * x->scale[c];
    }
    add_rotation(acc->rotation, x->rotation, e);
}

static void add_weights(const ossa_rig *rig, uint32_t node, float *acc, const float *x, float e) {
    uint32_t first = rig->weight_offset[node], count = rig->weight_count[node];
    for (uint32_t k = first; k < first + count; k++)
        acc[k] += e * x[k];
}

static void normal_layer(const ossa_mix *mix, uint32_t index, double clock, mix_scratch *s,
                         ossa_pose *pose) {
    const mix_layer *layer = &mix->layers[index];
    double w = ossa_mix_curve(layer->weights, layer->weight_count, clock);
    if (!(w > 0)) return;
    sample_layer(mix, index, clock, s);
    const ossa_rig *rig = mix->rig;
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float e = (float)(layer->mask ? w * layer->mask[j] : w);
        if (!(e > 0)) continue;
        add_weighted(&pose->local[j], &s->layer.local[j], e);
        add_weights(rig, j, pose->weights, s->layer.weights, e);
        s->sums[j] += e;
    }
}

/* Completes the weighted sums with the rest share r and divides by W = S + r. */
static void finish_normal(const ossa_mix *mix, const mix_scratch *s, ossa_pose *pose) {
    const ossa_rig *rig = mix->rig;
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float sum = s->sums[j];
        float r = sum < mix->threshold ? mix->threshold - sum : 0.0f;
        float total = sum + r;
        ossa_trs *out = &pose->local[j];
        uint32_t first = rig->weight_offset[j], count = rig->weight_count[j];
        if (!(total > 0)) {
            *out = rig->rest[j];
            for (uint32_t k = first; k < first + count; k++)
                pose->weights[k] = rig->rest_weights[k];
            continue;
        }
        if (r > 0) {
            add_weighted(out, &rig->rest[j], r);
            add_weights(rig, j, pose->weights, rig->rest_weights, r);
        }
        for (int c = 0; c < 3; c++) {
            out->translation[c] /= total;
            out->scale[c] /= total;
        }
        for (uint32_t k = first; k < first + count; k++)
            pose->weights[k] /= total;
        float *a = out->rotation;
        float length = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
        for (int c = 0; c < 4; c++)
            a[c] /= length;
    }
}

/* Hamilton product a * b of (x, y, z, w) quaternions. */
static void quat_mul(const float *a, const float *b, float *out) {
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* One node of an additive layer: x the layer's value, ref the reference's, e its weight. */
static void add_difference(ossa_trs *out, const ossa_trs *x, const ossa_trs *ref, float e) {
    for (int c = 0; c < 3; c++) {
        out->translation[c] += e * (x->translation[c] - ref->translation[c]);
        if (ref->scale[c] != 0) out->scale[c] *= 1 + e * (x->scale[c] / ref->scale[c] - 1);
    }
    const float *qr = ref->rotation;
    float conj[4] = {-qr[0], -qr[1], -qr[2], qr[3]}, d[4];
    quat_mul(conj, x->rotation, d);
    float sign = d[3] < 0 ? -1.0f : 1.0f;
    float m[4] = {e * sign * d[0], e * sign * d[1], e * sign * d[2], (1 - e) + e * sign * d[3]};
    float length = sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
    for (int c = 0; c < 4; c++)
        m[c] /= length;
    float q[4];
    memcpy(q, out->rotation, sizeof q);
    quat_mul(q, m, out->rotation);
}

static void additive_layer(const ossa_mix *mix, uint32_t index, double clock, mix_scratch *s,
                           ossa_pose *pose) {
    const mix_layer *layer = &mix->layers[index];
    double w = ossa_mix_curve(layer->weights, layer->weight_count, clock);
    if (!(w > 0)) return;
    sample_layer(mix, index, clock, s);
    const ossa_rig *rig = mix->rig;
    const ossa_trs *ref_local = layer->reference_local ? layer->reference_local : rig->rest;
    const float *ref_weights =
        layer->reference_local ? layer->reference_weights : rig->rest_weights;
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float e = (float)(layer->mask ? w * layer->mask[j] : w);
        if (!(e > 0)) continue;
        add_difference(&pose->local[j], &s->layer.local[j], &ref_local[j], e);
        uint32_t first = rig->weight_offset[j], count = rig->weight_count[j];
        for (uint32_t k = first; k < first + count; k++)
            pose->weights[k] += e * (s->layer.weights[k] - ref_weights[k]);
    }
}

void ossa_mix_sample(const ossa_mix *mix, double clock, void *scratch, ossa_pose *pose) {
    const ossa_rig *rig = mix->rig;
    mix_scratch s = scratch_layout(mix, scratch);
    memset(pose->local, 0, rig->node_count * sizeof *pose->local);
    if (rig->weight_total) memset(pose->weights, 0, rig->weight_total * sizeof *pose->weights);
    memset(s.sums, 0, rig->node_count * sizeof *s.sums);
    for (uint32_t i = 0; i < mix->layer_count; i++)
        if (mix->layers[i].mode == OSSA_MIX_NORMAL) normal_layer(mix, i, clock, &s, pose);
    finish_normal(mix, &s, pose);
    for (uint32_t i = 0; i < mix->layer_count; i++)
        if (mix->layers[i].mode == OSSA_MIX_ADDITIVE) additive_layer(mix, i, clock, &s, pose);
}
