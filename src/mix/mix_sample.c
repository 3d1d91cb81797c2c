/* The mixed pose at a clock (ossa_mix_sample): every layer sampled at its clip time, blended by
 * the rules of mix_blend.c. Per frame: allocates nothing. */
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

static void normal_layer(const ossa_mix *mix, uint32_t index, double clock, mix_scratch *s,
                         ossa_pose *pose) {
    const mix_layer *layer = &mix->layers[index];
    double w = ossa_mix_curve(layer->weights, layer->weight_count, clock);
    if (!(w > 0)) return;
    sample_layer(mix, index, clock, s);
    ossa_mix_blend_normal(mix->rig, &s->layer, w, layer->mask, s->sums, pose);
}

static void additive_layer(const ossa_mix *mix, uint32_t index, double clock, mix_scratch *s,
                           ossa_pose *pose) {
    const mix_layer *layer = &mix->layers[index];
    double w = ossa_mix_curve(layer->weights, layer->weight_count, clock);
    if (!(w > 0)) return;
    sample_layer(mix, index, clock, s);
    const ossa_rig *rig = mix->rig;
    ossa_pose reference = {(ossa_trs *)rig->rest, (float *)rig->rest_weights}; /* read only */
    if (layer->reference_local) {
        reference.local = (ossa_trs *)layer->reference_local;
        reference.weights = (float *)layer->reference_weights;
    }
    ossa_mix_blend_additive(rig, &s->layer, &reference, w, layer->mask, pose);
}

void ossa_mix_sample(const ossa_mix *mix, double clock, void *scratch, ossa_pose *pose) {
    mix_scratch s = scratch_layout(mix, scratch);
    ossa_mix_blend_begin(mix->rig, s.sums, pose);
    for (uint32_t i = 0; i < mix->layer_count; i++)
        if (mix->layers[i].mode == OSSA_MIX_NORMAL) normal_layer(mix, i, clock, &s, pose);
    ossa_mix_blend_finish(mix->rig, mix->threshold, s.sums, pose);
    for (uint32_t i = 0; i < mix->layer_count; i++)
        if (mix->layers[i].mode == OSSA_MIX_ADDITIVE) additive_layer(mix, i, clock, &s, pose);
}
