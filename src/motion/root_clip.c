/* A clip's root motion (motion.h): the root's channels sampled alone, the motion accumulated
 * over loops, and the mix of layer deltas over one step. Per frame: allocates nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/key_search.h"
#include "anim/slerp.h"
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
        if (track->path == OSSA_PATH_ROTATION) {
            ossa_quat_slerp(a, b, u, out);
            return;
        }
        for (uint32_t c = 0; c < n; c++)
            out[c] = a[c] + (b[c] - a[c]) * u;
        return;
    }
    const float *k0 = v + (size_t)k * 3 * n, *k1 = k0 + 3 * n;
    float u2 = u * u, u3 = u2 * u;
    float h00 = 2 * u3 - 3 * u2 + 1, h10 = (u3 - 2 * u2 + u) * dt;
    float h01 = -2 * u3 + 3 * u2, h11 = (u3 - u2) * dt;
    for (uint32_t c = 0; c < n; c++)
        out[c] = h00 * k0[n + c] + h10 * k0[2 * n + c] + h01 * k1[n + c] + h11 * k1[c];
    if (track->path == OSSA_PATH_ROTATION) {
        float len2 = out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3];
        for (int c = 0; len2 > 0 && c < 4; c++)
            out[c] /= sqrtf(len2);
    }
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

void ossa_motion_clip_accumulated(const motion_root *root, const ossa_clip *clip, double position,
                                  ossa_mix_wrap wrap, ossa_motion *out) {
    double start = ossa_clip_start(clip), duration = ossa_clip_duration(clip);
    ossa_motion first, at;
    ossa_motion_identity(out);
    if (!(duration > 0)) return;
    motion_at(root, clip, start, &first);
    ossa_motion_inverse(&first, &first);
    if (wrap != OSSA_MIX_LOOP) { /* clamp and ping-pong stay in the clip: no cycle */
        motion_at(root, clip, ossa_mix_wrap_time(position, start, duration, wrap), &at);
        ossa_motion_compose(&first, &at, out);
        return;
    }
    /* 2^53 loops bound the count (a double past it has no fraction left anyway). */
    double cycles = floor((position - start) / duration);
    if (cycles > 9007199254740992.0) cycles = 9007199254740992.0;
    if (cycles < -9007199254740992.0) cycles = -9007199254740992.0;
    double tau = position - start - cycles * duration;
    if (tau >= duration) tau = 0, cycles += 1; /* rounding */
    if (tau < 0) tau = 0;
    ossa_motion cycle, power;
    motion_at(root, clip, start + duration, &cycle);
    ossa_motion_compose(&first, &cycle, &cycle); /* C = M(start)^-1 M(end) */
    ossa_motion_power(&cycle, (int64_t)cycles, &power);
    motion_at(root, clip, start + tau, &at);
    ossa_motion_compose(&first, &at, &at);
    ossa_motion_compose(&power, &at, out);
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
    ossa_motion a, b;
    ossa_motion_clip_accumulated(root, clip, from, wrap, &a);
    ossa_motion_clip_accumulated(root, clip, to, wrap, &b);
    ossa_motion_inverse(&a, &a);
    ossa_motion_compose(&a, &b, &b);
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
