/* Time in a mix: weight curves, clip time of a layer (wrap modes), the phase of sync groups. */
#include <math.h>

#include "mix/mix_internal.h"

double ossa_mix_curve(const ossa_mix_point *points, uint32_t count, double clock) {
    if (count == 0) return 1.0;
    if (clock <= points[0].time) return points[0].weight;
    if (clock >= points[count - 1].time) return points[count - 1].weight;
    uint32_t lo = 0, hi = count - 1; /* points[lo].time < clock < points[hi].time */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (points[mid].time <= clock)
            lo = mid;
        else
            hi = mid;
    }
    double u = (clock - points[lo].time) / (points[hi].time - points[lo].time);
    return points[lo].weight + (points[hi].weight - points[lo].weight) * u;
}

/* x mod m with the sign of m (floor modulo), in [0, m). */
static double floor_mod(double x, double m) {
    double r = fmod(x, m);
    if (r < 0) r += m;
    return r < m ? r : 0.0; /* r + m can round up to m */
}

double ossa_mix_wrap_time(double x, double start, double duration, ossa_mix_wrap wrap) {
    if (!(duration > 0)) return start;
    switch (wrap) {
    case OSSA_MIX_CLAMP:
        return x < start ? start : (x > start + duration ? start + duration : x);
    case OSSA_MIX_PING_PONG: {
        double u = floor_mod(x - start, 2 * duration);
        return start + (u <= duration ? u : 2 * duration - u);
    }
    case OSSA_MIX_LOOP:
    default:
        return start + floor_mod(x - start, duration);
    }
}

/* Sum of the group's weights (W) and of weight * duration (N) at a clock. */
static void group_sums(const ossa_mix *mix, const mix_sync_group *group, double clock, double *w,
                       double *n) {
    *w = *n = 0;
    for (uint32_t i = 0; i < group->layer_count; i++) {
        const mix_layer *layer = &mix->layers[group->layers[i]];
        double wk = ossa_mix_curve(layer->weights, layer->weight_count, clock);
        *w += wk;
        *n += wk * (double)ossa_clip_duration(layer->clip);
    }
}

/* log1p(z) / z and (1 - log1p(z) / z) / z, by their series near 0. */
static void log_ratios(double z, double *l, double *m) {
    if (fabs(z) < 1e-4) {
        *l = 1 - z * (1.0 / 2 - z * (1.0 / 3 - z / 4));
        *m = 1.0 / 2 - z * (1.0 / 3 - z * (1.0 / 4 - z / 5));
    } else {
        *l = log1p(z) / z;
        *m = (1 - *l) / z;
    }
}

double ossa_mix_ratio_integral(double wa, double na, double wb, double nb, double span) {
    if (!(span > 0)) return 0;
    /* Weights are linear and >= 0 on the piece: when they all vanish at one end they are all
     * proportional to the distance from it, so D (and 1 / D) is constant; all zero: no motion. */
    if (!(na > 0) && !(nb > 0)) return 0;
    if (!(na > 0)) return span * wb / nb;
    if (!(nb > 0)) return span * wa / na;
    /* integral_0^1 (wa + dw x) / (na + dn x) dx = (wa L(z) + dw M(z)) / na, z = dn / na. */
    double z = (nb - na) / na, l, m;
    log_ratios(z, &l, &m);
    return span * (wa * l + (wb - wa) * m) / na;
}

double ossa_mix_piece_integral(const ossa_mix *mix, const mix_sync_group *group, double a,
                               double b) {
    if (!(b > a)) return 0;
    double wa, na, wb, nb;
    group_sums(mix, group, a, &wa, &na);
    group_sums(mix, group, b, &wb, &nb);
    return ossa_mix_ratio_integral(wa, na, wb, nb, b - a);
}

/* integral from breaks[0] (or from 0 without breaks) to clock. */
static double from_first_break(const ossa_mix *mix, const mix_sync_group *group, double clock) {
    double origin = group->break_count ? group->breaks[0] : 0.0;
    if (clock < origin) return -ossa_mix_piece_integral(mix, group, clock, origin);
    if (group->break_count == 0) return ossa_mix_piece_integral(mix, group, origin, clock);
    uint32_t lo = 0, hi = group->break_count - 1; /* largest i with breaks[i] <= clock */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (group->breaks[mid] <= clock)
            lo = mid;
        else
            hi = mid - 1;
    }
    return group->integral[lo] + ossa_mix_piece_integral(mix, group, group->breaks[lo], clock);
}

double ossa_mix_group_integral(const ossa_mix *mix, const mix_sync_group *group, double clock) {
    return from_first_break(mix, group, clock) - group->integral_at_zero;
}

double ossa_mix_group_phase(const ossa_mix *mix, const mix_sync_group *group, double clock) {
    const mix_layer *first = &mix->layers[group->first_layer];
    double start = ossa_clip_start(first->clip), duration = ossa_clip_duration(first->clip);
    double cycles = (first->offset - start) / duration +
                    first->speed * ossa_mix_group_integral(mix, group, clock);
    double phase = cycles - floor(cycles);
    return phase < 1 ? phase : 0.0;
}

double ossa_mix_layer_weight(const ossa_mix *mix, uint32_t layer, double clock) {
    if (layer >= mix->layer_count) return 0;
    const mix_layer *l = &mix->layers[layer];
    return ossa_mix_curve(l->weights, l->weight_count, clock);
}

double ossa_mix_layer_time(const ossa_mix *mix, uint32_t layer, double clock) {
    if (layer >= mix->layer_count) return 0;
    const mix_layer *l = &mix->layers[layer];
    double start = ossa_clip_start(l->clip), duration = ossa_clip_duration(l->clip);
    if (l->sync >= 0)
        return start + ossa_mix_group_phase(mix, &mix->groups[l->sync], clock) * duration;
    return ossa_mix_wrap_time(l->offset + l->speed * clock, start, duration, l->wrap);
}

double ossa_mix_sync_integral(const ossa_mix *mix, uint32_t layer, double clock) {
    if (layer >= mix->layer_count || mix->layers[layer].sync < 0) return 0;
    return ossa_mix_group_integral(mix, &mix->groups[mix->layers[layer].sync], clock);
}
