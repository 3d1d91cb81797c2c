/* Clip sampling (sample.h): key search per timeline, then every track of that timeline. */
#include "ossa/sample.h"

#include <math.h>
#include <string.h>

#include "anim/key_search.h"
#include "anim/track_batch.h"
#include "anim/track_eval.h"
#include "clip/clip_compact.h"
#include "clip/clip_internal.h"

static int force_portable; /* ossa_anim_force_portable */

void ossa_anim_force_portable(int portable) {
    force_portable = portable;
}

/* Largest i in [lo, hi] with times[i] <= time, given times[lo] <= time or lo == 0. */
static inline uint32_t search(const float *times, uint32_t lo, uint32_t hi, float time) {
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (times[mid] <= time)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

uint32_t ossa_find_key_stateless(const float *times, uint32_t count, float time) {
    return count < 2 ? 0 : search(times, 0, count - 2, time);
}

uint32_t ossa_find_key(const float *times, uint32_t count, float time, uint32_t hint) {
    if (count < 2) return 0;
    uint32_t last = count - 2;
    uint32_t k = hint > last ? last : hint;
    if (times[k] <= time) {
        /* Forward playback moves at most a key or two per frame. */
        for (int step = 0; step < 3; step++) {
            if (k == last || time < times[k + 1]) return k;
            k++;
        }
        return search(times, k, last, time);
    }
    if (k == 0) return 0;
    if (times[k - 1] <= time) return k - 1;
    return search(times, 0, k - 1, time);
}

uint32_t ossa_clip_cursor_entries(const ossa_clip *clip) {
    return clip->timeline_count + (clip->compact ? clip->compact->timeline_count : 0);
}

uint32_t ossa_cursor_size(const ossa_clip *clip) {
    return ossa_clip_cursor_entries(clip);
}

void ossa_cursor_reset(const ossa_clip *clip, ossa_cursor *cursor) {
    uint32_t entries = ossa_clip_cursor_entries(clip);
    if (entries) memset(cursor->keys, 0, entries * sizeof *cursor->keys);
}

void ossa_pose_set_rest(const ossa_rig *rig, ossa_pose *pose) {
    memcpy(pose->local, rig->rest, rig->node_count * sizeof *pose->local);
    if (rig->weight_total)
        memcpy(pose->weights, rig->rest_weights, rig->weight_total * sizeof(float));
}

static inline float *track_target(const ossa_track *track, ossa_pose *pose) {
    return track->path == OSSA_PATH_WEIGHTS ? pose->weights + track->target_offset
                                            : (float *)pose->local + track->target_offset;
}

/* Writes the value of key k (no interpolation). */
static inline void write_key(const ossa_clip *clip, const ossa_track *track, uint32_t k,
                             float *out) {
    uint32_t n = track->components;
    const float *v = clip->values + track->value_offset;
    if (track->interpolation == OSSA_INTERP_CUBICSPLINE)
        v += (size_t)k * 3 * n + n;
    else
        v += (size_t)k * n;
    memcpy(out, v, n * sizeof(float));
}

/* Interpolates between keys k and k + 1 at fraction u in (0, 1); dt = key interval. */
static inline void write_between(const ossa_clip *clip, const ossa_track *track, uint32_t k,
                                 float u, float dt, float *out) {
    uint32_t n = track->components;
    const float *v = clip->values + track->value_offset;
    switch (track->interpolation) {
    case OSSA_INTERP_STEP:
        memcpy(out, v + (size_t)k * n, n * sizeof(float));
        return;
    case OSSA_INTERP_LINEAR: /* weights: LINEAR rotations, translations, scales are batched */
        ossa_lerp_components(v + (size_t)k * n, v + (size_t)(k + 1) * n, n, u, out);
        return;
    default: {
        /* Key layout: in-tangent, value, out-tangent. */
        const float *k0 = v + (size_t)k * 3 * n, *k1 = k0 + 3 * n;
        ossa_hermite(k0 + n, k0 + 2 * n, k1 + n, k1, n, u, dt, out);
        if (track->path == OSSA_PATH_ROTATION) ossa_quat_normalize(out);
        return;
    }
    }
}

/* Every track of a timeline between keys k and k + 1 at fraction u: its LINEAR rotations and
 * then its LINEAR translations and scales from the batched keys, then the rest one by one (the
 * build order of the tracks, see clip_build.c). `wide`: the CPU runs the AVX-512 batches. */
static void sample_between(const ossa_clip *clip, const ossa_timeline *tl, uint32_t k, float u,
                           float dt, int wide, ossa_pose *pose) {
    const ossa_track *slerped = clip->tracks + tl->first_track;
    const ossa_track *lerped = slerped + tl->slerp_track_count;
    float *local = (float *)pose->local;
    uint32_t stride = OSSA_BATCH_KEY_STRIDE(tl->slerp_track_count);
    const float *keys = clip->batch_keys + tl->slerp_key_offset + (size_t)k * stride;
    uint32_t group = wide ? 16 : 4;
    for (uint32_t first = 0; first < tl->slerp_track_count; first += group) {
        uint32_t n = tl->slerp_track_count - first;
        if (n > group) n = group;
#ifdef OSSA_ANIM_AVX512
        if (wide) {
            if (n <= 4)
                ossa_slerp_tracks4_avx512(keys + 4 * first, stride, slerped + first, n, u, local);
            else
                ossa_slerp_tracks16(keys + 4 * first, stride, slerped + first, n, u, local);
            continue;
        }
#endif
        ossa_slerp_tracks4(keys + 4 * first, stride, slerped + first, n, u, local);
    }
    if (tl->lerp_track_count) {
        keys = clip->batch_keys + tl->lerp_key_offset +
               (size_t)k * OSSA_BATCH_KEY_STRIDE(tl->lerp_track_count);
#ifdef OSSA_ANIM_AVX512
        if (wide)
            ossa_lerp_tracks_avx512(keys, lerped, tl->lerp_track_count, u, local);
        else
#endif
            ossa_lerp_tracks(keys, lerped, tl->lerp_track_count, u, local);
    }
    const ossa_track *track = lerped + tl->lerp_track_count;
    const ossa_track *track_end = slerped + tl->track_count;
    for (; track < track_end; track++)
        write_between(clip, track, k, u, dt, track_target(track, pose));
}

ossa_result ossa_clip_sample(const ossa_rig *rig, const ossa_clip *clip, float time,
                             ossa_cursor *cursor, ossa_pose *pose) {
    if (clip->rig != rig || (cursor && cursor->capacity < ossa_clip_cursor_entries(clip)))
        return OSSA_ERROR_ARGUMENT;
    ossa_clip_sample_unchecked(clip, time, cursor, pose);
    return OSSA_OK;
}

/* Every animated track of a clip at `time`: writes those tracks' targets and nothing else. */
static void sample_tracks(const ossa_clip *clip, float time, ossa_cursor *cursor, ossa_pose *pose) {
#ifdef OSSA_ANIM_AVX512
    int wide = !force_portable && ossa_anim_avx512_supported();
#else
    int wide = 0;
#endif
    for (uint32_t i = 0; i < clip->timeline_count; i++) {
        const ossa_timeline *tl = &clip->timelines[i];
        const float *times = clip->times + tl->time_offset;
        const ossa_track *track = clip->tracks + tl->first_track;
        const ossa_track *track_end = track + tl->track_count;
        uint32_t last = tl->key_count - 1;
        uint32_t k;
        if (!(time > times[0])) { /* also NaN */
            k = 0;
        } else if (time >= times[last]) {
            k = last;
        } else {
            k = cursor ? ossa_find_key(times, tl->key_count, time, cursor->keys[i])
                       : ossa_find_key_stateless(times, tl->key_count, time);
            if (cursor) cursor->keys[i] = k;
            if (time != times[k]) {
                float dt = times[k + 1] - times[k];
                float u = (time - times[k]) / dt;
                sample_between(clip, tl, k, u, dt, wide, pose);
                continue;
            }
        }
        for (; track < track_end; track++)
            write_key(clip, track, k, track_target(track, pose));
    }
    if (clip->compact)
        ossa_compact_sample(clip->compact, time,
                            cursor ? cursor->keys + clip->timeline_count : NULL, wide, pose);
}

void ossa_clip_sample_unchecked(const ossa_clip *clip, float time, ossa_cursor *cursor,
                                ossa_pose *pose) {
    const ossa_rig *rig = clip->rig;
    if (clip->base_spans && !clip->compact) {
        for (uint32_t s = 0; s < clip->base_span_count; s++) {
            uint32_t first = clip->base_spans[2 * s], count = clip->base_spans[2 * s + 1];
            memcpy(pose->local + first, clip->base_local + first, count * sizeof *pose->local);
        }
    } else {
        memcpy(pose->local, clip->base_local, rig->node_count * sizeof *pose->local);
    }
    if (rig->weight_total)
        memcpy(pose->weights, clip->base_weights, rig->weight_total * sizeof(float));
    sample_tracks(clip, time, cursor, pose);
}

ossa_result ossa_clips_sample(const ossa_rig *rig, const ossa_clip *const *clips,
                              const float *times, uint32_t count, ossa_cursor *cursors,
                              ossa_pose *pose) {
    for (uint32_t c = 0; c < count; c++)
        if (!clips[c] || clips[c]->rig != rig ||
            (cursors && cursors[c].capacity < ossa_clip_cursor_entries(clips[c])))
            return OSSA_ERROR_ARGUMENT;
    ossa_pose_set_rest(rig, pose);
    for (uint32_t c = 0; c < count; c++) {
        const ossa_clip *clip = clips[c];
        /* the clip's constant channels from its base pose (its animated tracks follow) */
        for (uint32_t n = 0; n < rig->node_count; n++) {
            uint8_t paths = clip->node_paths[n];
            if (!paths) continue;
            const ossa_trs *base = &clip->base_local[n];
            ossa_trs *out = &pose->local[n];
            if (paths & (1u << OSSA_PATH_TRANSLATION))
                memcpy(out->translation, base->translation, sizeof out->translation);
            if (paths & (1u << OSSA_PATH_ROTATION))
                memcpy(out->rotation, base->rotation, sizeof out->rotation);
            if (paths & (1u << OSSA_PATH_SCALE)) memcpy(out->scale, base->scale, sizeof out->scale);
            if (paths & (1u << OSSA_PATH_WEIGHTS))
                memcpy(pose->weights + rig->weight_offset[n],
                       clip->base_weights + rig->weight_offset[n],
                       rig->weight_count[n] * sizeof(float));
        }
        sample_tracks(clip, times[c], cursors ? &cursors[c] : NULL, pose);
    }
    return OSSA_OK;
}

/* fmod(x, period) for x >= 0, without libm's loop in the common case: with n the truncated
 * quotient, x - n period is fmod's exact result whenever n is right, and one fused
 * multiply-add computes it exactly then. A wrong n leaves the result outside [0, period)
 * (rounding cannot bring it inside: both ends are representable), and libm decides. */
static double wrap_positive(double x, double period) {
    double r = fma(-trunc(x / period), period, x);
    if (r >= 0.0 && r < period && !signbit(r)) return r;
    return fmod(x, period);
}

float ossa_clip_time(const ossa_clip *clip, double clock, ossa_wrap wrap) {
    double start = clip->start, duration = clip->duration;
    if (!(duration > 0.0) || isnan(clock)) return clip->start;
    /* an infinite clock has no place in a repeating range */
    if (isinf(clock) && (wrap == OSSA_WRAP_LOOP || wrap == OSSA_WRAP_PING_PONG)) return clip->start;
    double r;
    switch (wrap) {
    case OSSA_WRAP_LOOP:
        r = clock >= start ? wrap_positive(clock - start, duration) : fmod(clock - start, duration);
        if (r < 0.0) r += duration;
        return (float)(start + r);
    case OSSA_WRAP_PING_PONG:
        r = fmod(clock - start, 2.0 * duration);
        if (r < 0.0) r += 2.0 * duration;
        if (r > duration) r = 2.0 * duration - r;
        return (float)(start + r);
    default:
        if (clock < start) return clip->start;
        if (clock > start + duration) return clip->end;
        return (float)clock;
    }
}
