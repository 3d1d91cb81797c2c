/* The mixed root motion of a mix from clock 0 to any clock (motion.h): deltas of the layers over
 * steps on a fixed grid, mixed with the pose mix's root weights, composed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mix/mix_internal.h"
#include "motion/motion_internal.h"

/* The unwrapped clip position of a layer at a clock: synced layers by their group's cycles. */
static double layer_position(const ossa_mix *mix, uint32_t index, double clock) {
    const mix_layer *layer = &mix->layers[index];
    double start = ossa_clip_start(layer->clip), duration = ossa_clip_duration(layer->clip);
    if (layer->sync < 0) return layer->offset + layer->speed * clock;
    const mix_sync_group *group = &mix->groups[layer->sync];
    const mix_layer *first = &mix->layers[group->first_layer];
    double cycles =
        (first->offset - ossa_clip_start(first->clip)) / ossa_clip_duration(first->clip) +
        first->speed * ossa_mix_group_integral(mix, group, clock);
    return start + cycles * duration;
}

static void mix_step(const ossa_mix *mix, const motion_root *root, double a, double b,
                     ossa_motion *out) {
    motion_blend blend;
    ossa_motion_blend_begin(&blend);
    double middle = 0.5 * (a + b);
    for (uint32_t i = 0; i < mix->layer_count; i++) {
        const mix_layer *layer = &mix->layers[i];
        if (layer->mode != OSSA_MIX_NORMAL) continue;
        double e = ossa_mix_curve(layer->weights, layer->weight_count, middle);
        if (layer->mask) e *= layer->mask[root->node];
        if (!(e > 0)) continue;
        ossa_mix_wrap wrap = layer->sync >= 0 ? OSSA_MIX_LOOP : layer->wrap;
        ossa_motion_blend_add(&blend, root, layer->clip, wrap, layer_position(mix, i, a),
                              layer_position(mix, i, b), e);
    }
    ossa_motion_blend_finish(&blend, mix->threshold, out);
}

ossa_result ossa_mix_root_motion(const ossa_mix *mix, const ossa_root_motion_desc *desc,
                                 double clock, double step, ossa_motion *accumulated,
                                 ossa_error *error) {
    const char *problem = NULL;
    if (!mix || !accumulated)
        problem = "mix and accumulated must not be NULL";
    else if (!isfinite(clock))
        problem = "the clock must be finite";
    else if (!isfinite(step) || step < 0)
        problem = "the step must be finite and >= 0";
    if (problem) {
        if (error) {
            memset(error, 0, sizeof *error);
            error->code = OSSA_ERROR_ARGUMENT;
            snprintf(error->message, sizeof error->message, "%s", problem);
        }
        return OSSA_ERROR_ARGUMENT;
    }
    motion_root root;
    ossa_result r = ossa_motion_root_resolve(mix->rig, desc, &root, error);
    if (r != OSSA_OK) return r;
    if (step == 0) step = 1.0 / 60;
    ossa_motion_identity(accumulated);
    double steps = ceil(fabs(clock) / step);
    double sign = clock < 0 ? -1 : 1;
    for (double k = 1; k <= steps; k++) {
        double a = sign * (k - 1) * step, b = k == steps ? clock : sign * k * step;
        ossa_motion delta;
        mix_step(mix, &root, a, b, &delta);
        ossa_motion_compose(accumulated, &delta, accumulated);
    }
    return OSSA_OK;
}
