/* Property of sync groups: over a long run (10 minutes of mix clock at 60 frames per second)
 * with weights changing all the time (random piecewise-linear curves with stretches of zero,
 * fixed seeds) and a positive speed, each synced layer's clip time moves forward modulo its
 * duration and never jumps: per frame it advances by v * D_k * integral dt / D(t), which lies
 * between v dt D_k / max D and v dt D_k / min D while some weight is positive, and is 0 while
 * all are 0. The phase summed frame by frame also matches the closed form at the end. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "mix_fixture.h"
#include "test_support.h"

static uint32_t rng_state;

static double uniform(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) / 16777216.0;
}

/* Random weight points over [0, span]: steps of 0.2-3 s, a quarter of them at weight 0, and
 * every layer at 0 from 60 k + 20 to 60 k + 23 s (the whole group holds still there). */
static uint32_t random_curve(ossa_mix_point *points, uint32_t capacity, double span) {
    uint32_t n = 0;
    for (double t = -0.5; t < span && n + 2 < capacity; t += 0.2 + 2.8 * uniform()) {
        double window = 60 * floor(t / 60) + 20;
        if (t >= window - 0.1 && t < window + 23.1 - 20) {
            if (n && points[n - 1].time >= window - 0.1) continue; /* in the window already */
            points[n++] = (ossa_mix_point){window - 0.1, 0};
            points[n++] = (ossa_mix_point){window + 3.1, 0};
            t = window + 3.1;
            continue;
        }
        points[n].time = t;
        points[n].weight = uniform() < 0.25 ? 0 : 2 * uniform();
        n++;
    }
    return n;
}

static void run(const mix_model *m, uint32_t seed, double speed) {
    enum { LAYERS = 3, POINTS = 600 };
    const double span = 600, dt = 1.0 / 60;
    rng_state = seed;
    static ossa_mix_point points[LAYERS][POINTS];
    ossa_mix_layer layers[LAYERS];
    double dmin = INFINITY, dmax = 0;
    for (int l = 0; l < LAYERS; l++) {
        layers[l] = (ossa_mix_layer){.clip = mix_model_clip_at(m, l % m->clip_count),
                                     .weights = points[l],
                                     .weight_count = random_curve(points[l], POINTS, span),
                                     .sync = "loco"};
        double d = ossa_clip_duration(layers[l].clip);
        dmin = fmin(dmin, d), dmax = fmax(dmax, d);
    }
    layers[0].speed = speed, layers[0].has_speed = 1, layers[0].offset = 0.3;
    ossa_mix_desc desc = {.layer_count = LAYERS, .layers = layers};
    ossa_mix *mix;
    if (ossa_mix_create(m->rig, &desc, &mix, NULL) != OSSA_OK) {
        CHECK(0);
        return;
    }
    double previous[LAYERS], cycles = 0;
    for (int l = 0; l < LAYERS; l++)
        previous[l] = ossa_mix_layer_time(mix, (uint32_t)l, 0);
    int frames = (int)(span / dt), bad = 0, still = 0, moving = 0;
    for (int f = 1; f <= frames; f++) {
        double t0 = (f - 1) * dt, t1 = f * dt;
        /* Do all weights vanish over the whole frame, or is one positive throughout? */
        int all_zero = 1, some_positive = 0;
        for (int l = 0; l < LAYERS; l++) {
            double w0 = ossa_mix_layer_weight(mix, (uint32_t)l, t0);
            double w1 = ossa_mix_layer_weight(mix, (uint32_t)l, t1);
            double wm = ossa_mix_layer_weight(mix, (uint32_t)l, (t0 + t1) / 2);
            all_zero &= w0 == 0 && w1 == 0 && wm == 0;
            some_positive |= w0 > 0 && w1 > 0;
        }
        for (int l = 0; l < LAYERS; l++) {
            double d = ossa_clip_duration(layers[l].clip);
            double now = ossa_mix_layer_time(mix, (uint32_t)l, t1);
            double step = fmod(now - previous[l] + 2 * d, d); /* forward distance modulo D */
            if (step > d - 1e-9 * d) step -= d;               /* rounding just below a loop */
            double lo = speed * dt * d / dmax, hi = speed * dt * d / dmin;
            int ok = step >= -1e-9 && step <= hi * (1 + 1e-6) + 1e-12;
            if (some_positive) ok &= step >= lo * (1 - 1e-6) - 1e-12;
            if (all_zero) ok &= fabs(step) <= 1e-12;
            if (!ok && bad++ < 5)
                fprintf(stderr, "seed %u layer %d frame %d: step %g outside [%g, %g]%s\n", seed, l,
                        f, step, lo, hi, all_zero ? " (all weights 0)" : "");
            if (l == 0) cycles += step / d;
            previous[l] = now;
        }
        still += all_zero, moving += some_positive;
    }
    CHECKF(bad == 0, "seed %u: %d frames jumped or went backward", seed, bad);
    CHECKF(still > 60 && moving > frames / 2, "seed %u: %d still, %d moving frames", seed, still,
           moving);
    /* Frame by frame, the phase adds up to the closed-form integral (in whole cycles too). */
    double integral = speed * ossa_mix_sync_integral(mix, 0, frames * dt);
    CHECKF(fabs(cycles - integral) < 1e-6, "seed %u: %.9f cycles by frames, %.9f closed form", seed,
           cycles, integral);
    /* ... and the closed form matches the numeric reference to 1e-7 of a cycle. */
    for (int k = 1; k <= 4; k++) {
        double T = 100.0 * k / 4.1;
        double d = ossa_clip_duration(layers[1].clip);
        double diff = fabs(ossa_mix_layer_time(mix, 1, T) - mix_reference_layer_time(&desc, 1, T));
        diff /= d;
        CHECKF(fmin(diff, 1 - diff) < 1e-7, "seed %u at %g: %g cycles from the reference", seed, T,
               fmin(diff, 1 - diff));
    }
    ossa_mix_free(mix);
}

int main(void) {
    mix_model fox, cesium;
    if (mix_model_load("models/Fox/Fox.glb", &fox) ||
        mix_model_load("models/CesiumMan/glTF-Binary/CesiumMan.glb", &cesium))
        return 1;
    run(&fox, 1, 1.0);
    run(&fox, 2, 0.37);
    run(&fox, 3, 2.5);
    run(&cesium, 4, 1.3); /* one clip three times: D constant */
    mix_model_free(&fox);
    mix_model_free(&cesium);
    return ossa_test_finish("mix_sync");
}
