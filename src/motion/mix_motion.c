/* The mixed root motion of a mix from clock 0 to any clock (motion.h): deltas of the layers over
 * steps on a fixed grid, mixed with the pose mix's root weights, composed. Runs of steps where
 * one layer alone moves the root are one delta (they telescope), so a one-clip mix costs two
 * root samples at any clock, plus a weight look-up per step. */
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

/* A layer's weight at the root at a clock (normal layers; 0 for additive ones). */
static double root_weight(const ossa_mix *mix, const motion_root *root, uint32_t index,
                          double clock) {
    const mix_layer *layer = &mix->layers[index];
    if (layer->mode != OSSA_MIX_NORMAL) return 0;
    double e = ossa_mix_curve(layer->weights, layer->weight_count, clock);
    return layer->mask ? e * layer->mask[root->node] : e;
}

static ossa_mix_wrap layer_wrap(const mix_layer *layer) {
    return layer->sync >= 0 ? OSSA_MIX_LOOP : layer->wrap;
}

/* The only layer moving the root over a step and carrying all its weight (no rest share), or
 * -1: over a run of such steps its deltas telescope into one. */
static int32_t sole_layer(const ossa_mix *mix, const motion_root *root, double middle) {
    int32_t sole = -1;
    for (uint32_t i = 0; i < mix->layer_count; i++) {
        double e = root_weight(mix, root, i, middle);
        if (!(e > OSSA_MIX_MIN_WEIGHT)) continue;
        if (sole >= 0 || e < mix->threshold) return -1;
        sole = (int32_t)i;
    }
    return sole;
}

static void mix_step(const ossa_mix *mix, const motion_root *root, double a, double b,
                     ossa_motion *out) {
    motion_blend blend;
    ossa_motion_blend_begin(&blend);
    for (uint32_t i = 0; i < mix->layer_count; i++) {
        double e = root_weight(mix, root, i, 0.5 * (a + b));
        if (e > OSSA_MIX_MIN_WEIGHT)
            ossa_motion_blend_add(&blend, root, mix->layers[i].clip, layer_wrap(&mix->layers[i]),
                                  layer_position(mix, i, a), layer_position(mix, i, b), e);
    }
    ossa_motion_blend_finish(&blend, mix->threshold, out);
}

/* Composes a run of one layer's steps from clock `from` to `to` onto the motion. */
static void flush_run(const ossa_mix *mix, const motion_root *root, int32_t layer, double from,
                      double to, ossa_motion *accumulated) {
    if (layer < 0) return;
    ossa_motion delta;
    const mix_layer *l = &mix->layers[layer];
    ossa_motion_clip_delta(root, l->clip, layer_position(mix, (uint32_t)layer, from),
                           layer_position(mix, (uint32_t)layer, to), layer_wrap(l), &delta);
    ossa_motion_compose(accumulated, &delta, accumulated);
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
    double steps = ceil(fabs(clock) / step);
    if (!(steps <= 1e8)) { /* also a step of 1e-320 */
        if (error) {
            memset(error, 0, sizeof *error);
            error->code = OSSA_ERROR_ARGUMENT;
            snprintf(error->message, sizeof error->message,
                     "%g s in steps of %g s is more than 1e8 steps", clock, step);
        }
        return OSSA_ERROR_ARGUMENT;
    }
    ossa_motion_identity(accumulated);
    double sign = clock < 0 ? -1 : 1;
    int32_t run = -1; /* the sole layer of the steps since run_from, -1: none */
    double run_from = 0, a = 0;
    for (double k = 1; k <= steps; k++, a = sign * (k - 1) * step) {
        double b = k == steps ? clock : sign * k * step;
        int32_t sole = sole_layer(mix, &root, 0.5 * (a + b));
        if (sole >= 0 && sole == run) continue; /* the run goes on */
        flush_run(mix, &root, run, run_from, a, accumulated);
        run = sole, run_from = a;
        if (sole >= 0) continue;
        ossa_motion delta;
        mix_step(mix, &root, a, b, &delta);
        ossa_motion_compose(accumulated, &delta, accumulated);
    }
    flush_run(mix, &root, run, run_from, clock, accumulated);
    return OSSA_OK;
}
