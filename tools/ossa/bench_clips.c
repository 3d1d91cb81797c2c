/* Clip benchmark (bench_clips.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_clips.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "cli_report.h"
#include "ossa/model.h"

typedef struct clip_crowd {
    int count;
    ossa_pose *poses;
    uint32_t *cursors;
    uint32_t cursor_size;
} clip_crowd;

static void crowd_free(clip_crowd *c) {
    for (int i = 0; c->poses && i < c->count; i++)
        free(c->poses[i].local), free(c->poses[i].weights);
    free(c->poses), free(c->cursors);
}

static int crowd_alloc(clip_crowd *c, const ossa_rig *rig, uint32_t cursor_size, int count) {
    memset(c, 0, sizeof *c);
    c->count = count;
    c->cursor_size = cursor_size;
    c->poses = calloc((size_t)count, sizeof *c->poses);
    c->cursors = calloc((size_t)count * cursor_size + 1, sizeof *c->cursors);
    if (!c->poses || !c->cursors) return 0;
    for (int i = 0; i < count; i++) {
        c->poses[i].local = malloc((rig->node_count + 1) * sizeof(ossa_trs));
        c->poses[i].weights = malloc((rig->weight_total + 1) * sizeof(float));
        if (!c->poses[i].local || !c->poses[i].weights) return 0;
    }
    return 1;
}

/* One slice: frames for about `seconds` of thread time; nanoseconds per character. */
static double slice(clip_crowd *c, const ossa_rig *rig, const ossa_clip *clip, double seconds,
                    double *clock) {
    double start = bench_thread_ns();
    long frames = 0;
    do {
        for (int i = 0; i < c->count; i++) {
            double t = *clock + 2.0 * i / c->count;
            ossa_cursor cursor = {c->cursors + (size_t)i * c->cursor_size, c->cursor_size};
            ossa_clip_sample(rig, clip, ossa_clip_time(clip, t, OSSA_WRAP_LOOP), &cursor,
                             &c->poses[i]);
        }
        *clock += 1.0 / 60.0;
        frames++;
    } while (bench_thread_ns() - start < seconds * 1e9);
    return (bench_thread_ns() - start) / (double)frames / c->count;
}

static ossa_model *load(const char *path, int compact) {
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skip_cpu_skinning = 1;
    desc.compact_clips = compact;
    return cli_load_model(path, &desc);
}

int bench_clips(const char *model_path, int characters, double seconds, bench_clip_result *out,
                int max) {
    ossa_model *plain = load(model_path, 0), *compact = plain ? load(model_path, 1) : NULL;
    if (!compact) {
        ossa_model_free(plain);
        return -1;
    }
    const char *base = strrchr(model_path, '/');
    const ossa_rig *rig = ossa_model_rig(plain), *compact_rig = ossa_model_rig(compact);
    if (characters < 1) characters = 1;
    int rows = 0;
    for (uint32_t i = 0; i < ossa_model_clip_count(plain) && rows < max; i++) {
        const ossa_clip *p = ossa_model_clip(plain, i), *c = ossa_model_clip(compact, i);
        bench_clip_result *row = &out[rows];
        memset(row, 0, sizeof *row);
        snprintf(row->model, sizeof row->model, "%s", base ? base + 1 : model_path);
        if (ossa_clip_name(p))
            snprintf(row->clip, sizeof row->clip, "%s", ossa_clip_name(p));
        else
            snprintf(row->clip, sizeof row->clip, "%u", i);
        row->plain_bytes = ossa_clip_runtime_bytes(p);
        row->compact_bytes = ossa_clip_runtime_bytes(c);
        row->error = ossa_clip_compact_error(c);
        row->budget = ossa_clip_compact_budget(c);
        clip_crowd a, b;
        int ok = crowd_alloc(&a, rig, ossa_cursor_size(p), characters) &&
                 crowd_alloc(&b, compact_rig, ossa_cursor_size(c), characters);
        if (ok) {
            double clock_a = 0, clock_b = 0;
            slice(&a, rig, p, seconds * 0.05, &clock_a); /* warm-up */
            slice(&b, compact_rig, c, seconds * 0.05, &clock_b);
            row->ns_plain = row->ns_compact = -1;
            for (int s = 0; s < BENCH_SLICES; s++) {
                double x = slice(&a, rig, p, seconds / BENCH_SLICES, &clock_a);
                double y = slice(&b, compact_rig, c, seconds / BENCH_SLICES, &clock_b);
                if (row->ns_plain < 0 || x < row->ns_plain) row->ns_plain = x;
                if (row->ns_compact < 0 || y < row->ns_compact) row->ns_compact = y;
            }
            rows++;
        } else {
            fprintf(stderr, "error: out of memory for %d characters\n", characters);
        }
        crowd_free(&a);
        crowd_free(&b);
        if (!ok) break;
    }
    ossa_model_free(compact);
    ossa_model_free(plain);
    return rows;
}
