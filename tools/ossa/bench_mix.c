/* Mixing benchmark (bench_mix.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_report.h"
#include "bench_mix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "ossa/mix.h"

typedef struct mix_crowd {
    int count;
    ossa_pose *poses;
    uint32_t *cursors; /* cursor_size per character */
    unsigned char *scratch;
    size_t scratch_stride;
    uint32_t cursor_size;
    double *phase;
} mix_crowd;

static void crowd_free(mix_crowd *c) {
    for (int i = 0; c->poses && i < c->count; i++)
        free(c->poses[i].local), free(c->poses[i].weights);
    free(c->poses), free(c->cursors), free(c->scratch), free(c->phase);
}

static int crowd_alloc(mix_crowd *c, const ossa_rig *rig, const ossa_clip *clip,
                       const ossa_mix *mix, int count) {
    memset(c, 0, sizeof *c);
    c->count = count;
    c->cursor_size = ossa_cursor_size(clip);
    c->scratch_stride = (ossa_mix_scratch_size(mix) + 63) & ~(size_t)63;
    c->poses = calloc((size_t)count, sizeof *c->poses);
    c->cursors = calloc((size_t)count * c->cursor_size + 1, sizeof *c->cursors);
    c->scratch = aligned_alloc(64, (size_t)count * c->scratch_stride);
    c->phase = malloc((size_t)count * sizeof *c->phase);
    if (!c->poses || !c->cursors || !c->scratch || !c->phase) return 0;
    memset(c->scratch, 0, (size_t)count * c->scratch_stride);
    for (int i = 0; i < count; i++) {
        c->poses[i].local = malloc((rig->node_count + 1) * sizeof(ossa_trs));
        c->poses[i].weights = malloc((rig->weight_total + 1) * sizeof(float));
        if (!c->poses[i].local || !c->poses[i].weights) return 0;
        c->phase[i] = 2.0 * i / count;
    }
    return 1;
}

/* Frames for about `seconds`; returns nanoseconds per character. */
static double run(mix_crowd *c, const ossa_rig *rig, const ossa_clip *clip, const ossa_mix *mix,
                  double seconds, double *clock) {
    double start = bench_now_ns();
    long frames = 0;
    do {
        for (int i = 0; i < c->count; i++) {
            double t = *clock + c->phase[i];
            if (mix) {
                ossa_mix_sample(mix, t, c->scratch + (size_t)i * c->scratch_stride, &c->poses[i]);
            } else {
                ossa_cursor cursor = {c->cursors + (size_t)i * c->cursor_size, c->cursor_size};
                ossa_clip_sample(rig, clip, ossa_clip_time(clip, t, OSSA_WRAP_LOOP), &cursor,
                                 &c->poses[i]);
            }
        }
        *clock += 1.0 / 60.0;
        frames++;
    } while (bench_now_ns() - start < seconds * 1e9);
    return (bench_now_ns() - start) / (double)frames / c->count;
}

static double fastest(mix_crowd *c, const ossa_rig *rig, const ossa_clip *clip, const ossa_mix *mix,
                      double seconds) {
    double clock = 0, best = -1;
    run(c, rig, clip, mix, seconds * 0.1, &clock); /* warm-up */
    for (int slice = 0; slice < BENCH_SLICES; slice++) {
        double ns = run(c, rig, clip, mix, seconds / BENCH_SLICES, &clock);
        if (best < 0 || ns < best) best = ns;
    }
    return best;
}

int bench_mix(const char *model_path, int characters, double seconds, bench_mix_result *out) {
    memset(out, 0, sizeof *out);
    const char *base = strrchr(model_path, '/');
    snprintf(out->model, sizeof out->model, "%s", base ? base + 1 : model_path);
    ossa_model_desc desc = {.skip_cpu_skinning = 1};
    ossa_model *model = cli_load_model(model_path, &desc);
    if (!model) return 1;
    uint32_t n = ossa_model_clip_count(model);
    if (n == 0) {
        ossa_model_free(model);
        fprintf(stderr, "error: %s: no animation to mix\n", out->model);
        return 1;
    }
    const ossa_rig *rig = ossa_model_rig(model);
    ossa_mix_mask_entry entry = {(uint32_t)rig->gltf_from_rig[rig->node_count / 3], 1};
    ossa_mix_mask mask = {.default_value = 0, .entry_count = 1, .entries = &entry};
    ossa_mix_point w06 = {0, 0.6}, w04 = {0, 0.4}, w05 = {0, 0.5};
    ossa_mix_layer layers[4] = {
        {.clip = ossa_model_clip(model, 0), .weight_count = 1, .weights = &w06},
        {.clip = ossa_model_clip(model, 1 % n), .weight_count = 1, .weights = &w04},
        {.clip = ossa_model_clip(model, 2 % n), .mask = &mask},
        {.clip = ossa_model_clip(model, 0),
         .mode = OSSA_MIX_ADDITIVE,
         .weight_count = 1,
         .weights = &w05}};
    ossa_mix_desc mix_desc = {.layer_count = 4, .layers = layers};
    ossa_mix *mix = NULL;
    ossa_error error;
    if (ossa_mix_create(rig, &mix_desc, &mix, &error) != OSSA_OK) {
        cli_report_error(model_path, &error);
        ossa_model_free(model);
        return 1;
    }
    if (characters < 1) characters = 1;
    const ossa_clip *clip = ossa_model_clip(model, 0);
    mix_crowd c;
    int ok = crowd_alloc(&c, rig, clip, mix, characters);
    if (ok) {
        out->characters = characters;
        out->ns_sample = fastest(&c, rig, clip, NULL, seconds);
        out->ns_mix = fastest(&c, rig, clip, mix, seconds);
    } else {
        fprintf(stderr, "error: %s: out of memory for %d characters\n", out->model, characters);
    }
    crowd_free(&c);
    ossa_mix_free(mix);
    ossa_model_free(model);
    return ok ? 0 : 1;
}
