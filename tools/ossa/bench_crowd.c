/* Crowd benchmark of the runtime API (bench_crowd.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_report.h"
#include "bench_crowd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "ossa/model.h"

typedef struct crowd {
    ossa_character **characters;
    const ossa_clip **clips;
    double *phase, *clocks;
    unsigned char *memory; /* every character, one after another */
} crowd;

static void crowd_free(crowd *c) {
    free(c->characters), free(c->clips), free(c->phase), free(c->clocks), free(c->memory);
}

/* Characters in one block of caller memory, as a game would lay out a crowd. */
static int crowd_alloc(crowd *c, const ossa_model *model, int count) {
    memset(c, 0, sizeof *c);
    size_t align = ossa_character_alignment();
    size_t stride = (ossa_character_size(model) + align - 1) & ~(align - 1);
    size_t n = (size_t)count;
    c->characters = malloc(n * sizeof *c->characters);
    c->clips = malloc(n * sizeof *c->clips);
    c->phase = malloc(n * sizeof *c->phase);
    c->clocks = malloc(n * sizeof *c->clocks);
    c->memory = aligned_alloc(align, n * stride);
    if (!c->characters || !c->clips || !c->phase || !c->clocks || !c->memory) return 0;
    const ossa_clip *clip = ossa_model_clip(model, 0);
    for (size_t i = 0; i < n; i++) {
        if (ossa_character_init(model, c->memory + i * stride, stride, &c->characters[i], NULL))
            return 0;
        c->clips[i] = clip;
        c->phase[i] = clip ? ossa_clip_duration(clip) * (double)i / (double)n : 0.0;
    }
    return 1;
}

/* Frames for about `seconds`; returns nanoseconds per frame. */
static double run_frames(crowd *c, int count, ossa_thread_pool *pool, double seconds,
                         double *clock) {
    double start = bench_now_ns();
    long frames = 0;
    do {
        for (int i = 0; i < count; i++)
            c->clocks[i] = *clock + c->phase[i];
        ossa_characters_update(c->characters, (uint32_t)count, c->clips, c->clocks, OSSA_WRAP_LOOP,
                               pool, NULL);
        *clock += 1.0 / 60.0;
        frames++;
    } while (bench_now_ns() - start < seconds * 1e9);
    return (bench_now_ns() - start) / (double)frames;
}

int bench_crowd(const char *model_path, int characters, double seconds, ossa_thread_pool *pool,
                bench_crowd_result *out) {
    memset(out, 0, sizeof *out);
    const char *base = strrchr(model_path, '/');
    snprintf(out->model, sizeof out->model, "%s", base ? base + 1 : model_path);
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skip_cpu_skinning = 1; /* only the update is measured */
    ossa_model *model = cli_load_model(model_path, &desc);
    if (!model) return 1;
    if (characters < 1) characters = 1;
    crowd c;
    int ok = crowd_alloc(&c, model, characters);
    if (ok) {
        double clock = 0.0;
        run_frames(&c, characters, pool, seconds * 0.1, &clock); /* warm-up */
        double best = -1.0;
        for (int slice = 0; slice < BENCH_SLICES; slice++) {
            double ns = run_frames(&c, characters, pool, seconds / BENCH_SLICES, &clock);
            if (best < 0.0 || ns < best) best = ns;
        }
        out->characters = characters;
        out->threads = pool ? ossa_thread_pool_threads(pool) : 1;
        out->ms_per_frame = best / 1e6;
        out->ns_per_character = best / characters;
    } else {
        fprintf(stderr, "error: %s: out of memory for %d characters\n", out->model, characters);
    }
    crowd_free(&c);
    ossa_model_free(model);
    return ok ? 0 : 1;
}
