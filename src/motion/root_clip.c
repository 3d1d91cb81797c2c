/* A clip's root motion (motion.h): the root's channels sampled alone, the motion accumulated
 * over loops, and the mix of layer deltas over one step. Per frame: allocates nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/key_search.h"
#include "anim/slerp.h"
#include "anim/track_eval.h"
#include "clip/clip_internal.h"
#include "mix/mix_internal.h"
#include "motion/motion_internal.h"

/* One track at a clip time, as sample.c evaluates it (slerp for LINEAR rotations). */
static void sample_track(const ossa_clip *clip, const ossa_timeline *tl, const ossa_track *track,
                         float time, float *out) {
    const float *times = clip->times + tl->time_offset;
    uint32_t n = track->components, last = tl->key_count - 1, k;
    const float *v = clip->values + track->value_offset;
    int cubic = track->interpolation == OSSA_INTERP_CUBICSPLINE;
    if (!(time > times[0]))
        k = 0;
    else if (time >= times[last])
        k = last;
    else
        k = ossa_find_key_stateless(times, tl->key_count, time);
    if (k == last || time <= times[k] || track->interpolation == OSSA_INTERP_STEP) {
        memcpy(out, v + (size_t)k * (cubic ? 3 * n : n) + (cubic ? n : 0), n * sizeof(float));
        return;
    }
    float dt = times[k + 1] - times[k], u = (time - times[k]) / dt;
    if (!cubic) {
        const float *a = v + (size_t)k * n, *b = a + n;
        if (track->path == OSSA_PATH_ROTATION)
            ossa_quat_slerp(a, b, u, out);
        else
            ossa_lerp_components(a, b, n, u, out);
        return;
    }
    const float *k0 = v + (size_t)k * 3 * n, *k1 = k0 + 3 * n; /* in-tangent, value, out-tangent */
    ossa_hermite(k0 + n, k0 + 2 * n, k1 + n, k1, n, u, dt, out);
    if (track->path == OSSA_PATH_ROTATION) ossa_quat_normalize(out);
}

void ossa_motion_sample_root(const ossa_clip *clip, int32_t node, float time, ossa_trs *out) {
    *out = clip->base_local[node];
    for (uint32_t i = 0; i < clip->timeline_count; i++) {
        const ossa_timeline *tl = &clip->timelines[i];
        const ossa_track *track = clip->tracks + tl->first_track;
        for (uint32_t t = 0; t < tl->track_count; t++) {
            if (track[t].node != node || track[t].path == OSSA_PATH_WEIGHTS) continue;
            float *target = track[t].path == OSSA_PATH_TRANSLATION ? out->translation
                            : track[t].path == OSSA_PATH_ROTATION  ? out->rotation
                                                                   : out->scale;
            sample_track(clip, tl, &track[t], time, target);
        }
    }
}

static void motion_at(const motion_root *root, const ossa_clip *clip, double time,
                      ossa_motion *out) {
    ossa_trs local;
    ossa_motion_sample_root(clip, root->node, (float)time, &local);
    ossa_motion_root_split(root, &local, out, NULL);
}

/* The loop count and clip time of an unwrapped position (loop wrap, duration > 0). */
static double loop_split(double position, double start, double duration, double *tau) {
    /* A position that is not a number (a synced layer whose group's integral overflowed in an
     * extreme mix) counts no loop and stays at the start, as the pose's phase does. */
    if (isnan(position)) {
        *tau = start;
        return 0;
    }
    /* 2^53 loops bound the count (a double past it has no fraction left anyway). */
    double cycles = floor((position - start) / duration);
    if (cycles > 9007199254740992.0) cycles = 9007199254740992.0;
    if (cycles < -9007199254740992.0) cycles = -9007199254740992.0;
    *tau = position - start - cycles * duration;
    if (*tau >= duration) *tau = 0, cycles += 1; /* rounding */
    if (*tau < 0) *tau = 0;
    *tau += start;
    return cycles;
}

/* The cycle C = M(start)^-1 M(end) to the power n, between M(start) and M(start)^-1:
 * M(start) C^n M(start)^-1 (the identity for n = 0). inverse_first: M(start)^-1 when known. */
static void cycles_between(const motion_root *root, const ossa_clip *clip, double n,
                           const ossa_motion *inverse_first, ossa_motion *out) {
    ossa_motion_identity(out);
    if (n == 0) return;
    ossa_motion first, last;
    if (!inverse_first) {
        motion_at(root, clip, ossa_clip_start(clip), &first);
        ossa_motion_inverse(&first, &first);
        inverse_first = &first;
    }
    motion_at(root, clip, ossa_clip_end(clip), &last);
    /* M0 (M0^-1 Mend)^n M0^-1 = (Mend M0^-1)^n */
    ossa_motion_compose(&last, inverse_first, out);
    ossa_motion_power(out, (int64_t)n, out);
}

void ossa_motion_clip_accumulated(const motion_root *root, const ossa_clip *clip, double position,
                                  ossa_mix_wrap wrap, ossa_motion *out) {
    double start = ossa_clip_start(clip), duration = ossa_clip_duration(clip), tau = start;
    ossa_motion first, at, cycles;
    ossa_motion_identity(out);
    if (!(duration > 0)) return;
    motion_at(root, clip, start, &first);
    ossa_motion_inverse(&first, &first);
    double n = 0;
    if (wrap == OSSA_MIX_LOOP)
        n = loop_split(position, start, duration, &tau);
    else /* clamp and ping-pong stay in the clip: no cycle */
        tau = ossa_mix_wrap_time(position, start, duration, wrap);
    /* C^n M0^-1 M(tau) = M0^-1 (M0 C^n M0^-1) M(tau) */
    cycles_between(root, clip, n, &first, &cycles);
    motion_at(root, clip, tau, &at);
    ossa_motion_compose(&cycles, &at, &at);
    ossa_motion_compose(&first, &at, out);
}

void ossa_motion_clip_delta(const motion_root *root, const ossa_clip *clip, double from, double to,
                            ossa_mix_wrap wrap, ossa_motion *out) {
    double start = ossa_clip_start(clip), duration = ossa_clip_duration(clip);
    double tau_from = start, tau_to = start, n = 0;
    ossa_motion_identity(out);
    if (!(duration > 0)) return;
    if (wrap == OSSA_MIX_LOOP) {
        n = loop_split(to, start, duration, &tau_to) - loop_split(from, start, duration, &tau_from);
    } else {
        tau_from = ossa_mix_wrap_time(from, start, duration, wrap);
        tau_to = ossa_mix_wrap_time(to, start, duration, wrap);
    }
    /* A(from)^-1 A(to) = M(tau_from)^-1 (M0 C^n M0^-1) M(tau_to), n the loops between */
    ossa_motion a, b, cycles;
    motion_at(root, clip, tau_from, &a);
    motion_at(root, clip, tau_to, &b);
    cycles_between(root, clip, n, NULL, &cycles);
    ossa_motion_inverse(&a, &a);
    ossa_motion_compose(&cycles, &b, &b);
    ossa_motion_compose(&a, &b, out);
}

ossa_result ossa_root_motion_clip(const ossa_rig *rig, const ossa_root_motion_desc *desc,
                                  const ossa_clip *clip, double position, ossa_mix_wrap wrap,
                                  ossa_motion *accumulated, ossa_error *error) {
    motion_root root;
    ossa_result r = OSSA_ERROR_ARGUMENT;
    const char *problem = NULL;
    if (!rig || !clip || !accumulated)
        problem = "rig, clip and accumulated must not be NULL";
    else if (ossa_clip_rig(clip) != rig)
        problem = "the clip is not a clip of the rig";
    else if (!isfinite(position))
        problem = "the position must be finite";
    else if ((unsigned)wrap > OSSA_MIX_PING_PONG)
        problem = "unknown wrap";
    else
        r = ossa_motion_root_resolve(rig, desc, &root, error);
    if (problem && error) {
        memset(error, 0, sizeof *error);
        error->code = r;
        snprintf(error->message, sizeof error->message, "%s", problem);
    }
    if (r == OSSA_OK) ossa_motion_clip_accumulated(&root, clip, position, wrap, accumulated);
    return r;
}

/* ---- the mix of deltas over one step ---- */

void ossa_motion_blend_begin(motion_blend *blend) {
    memset(blend, 0, sizeof *blend);
}

static void add_rotation(double *sum, const double *q, double weight) {
    double d = sum[0] * q[0] + sum[1] * q[1] + sum[2] * q[2] + sum[3] * q[3];
    double s = d >= 0 ? weight : -weight;
    for (int c = 0; c < 4; c++)
        sum[c] += s * q[c];
}

void ossa_motion_blend_add(motion_blend *blend, const motion_root *root, const ossa_clip *clip,
                           ossa_mix_wrap wrap, double from, double to, double weight) {
    ossa_motion b;
    ossa_motion_clip_delta(root, clip, from, to, wrap, &b);
    for (int c = 0; c < 3; c++)
        blend->translation[c] += weight * b.translation[c];
    add_rotation(blend->rotation, b.rotation, weight);
    blend->weight += weight;
}

void ossa_motion_blend_finish(const motion_blend *blend, double threshold, ossa_motion *out) {
    ossa_motion_identity(out);
    double rest = blend->weight < threshold ? threshold - blend->weight : 0;
    double total = blend->weight + rest;
    if (!(blend->weight > 0) || !(total > 0)) return;
    double q[4] = {blend->rotation[0], blend->rotation[1], blend->rotation[2], blend->rotation[3]};
    static const double identity[4] = {0, 0, 0, 1};
    if (rest > 0) add_rotation(q, identity, rest);
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0)) return;
    for (int c = 0; c < 3; c++)
        out->translation[c] = blend->translation[c] / total;
    for (int c = 0; c < 4; c++)
        out->rotation[c] = q[c] / n;
}
