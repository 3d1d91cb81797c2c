/* Builds compact clips (clip_compact.h) from plain ones. Per timeline, every LINEAR translation,
 * rotation and scale is quantized to 16 bits per component, then the timeline keeps the fewest
 * keys (shared by its tracks, so sampling still searches once per timeline) for which each track
 * stays within a tolerance derived from the world-space budget and the node's lever arm in the
 * hierarchy: the distance from the node to the farthest point it carries (its descendants and
 * their vertices), as a parent's rotation moves all of them. The result is then checked in world
 * space against the plain clip (nodes and vertex spheres, see measure_error) and rebuilt with
 * tighter tolerances until the budget holds. */
#include "clip/clip_compact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "anim/slerp.h"
#include "anim/track_batch.h"
#include "io/error.h"
#include "ossa/palette.h"

typedef struct compact_state {
    const ossa_rig *rig;
    const ossa_compact_params *params;
    float *lever;        /* per node: the hierarchical lever arm */
    float *parent_scale; /* per node: the largest scale of its parent's world matrix (1: root) */
    ossa_trs *local[2];
    float *weights[2];
    float *world[2];
} compact_state;

static int is_compacted(const ossa_timeline *tl, uint32_t index_in_timeline) {
    return index_in_timeline < tl->slerp_track_count + tl->lerp_track_count;
}

static uint32_t track_floats(const ossa_clip *clip, const ossa_track *t) {
    const ossa_timeline *tl = &clip->timelines[t->timeline];
    return tl->key_count * t->components * (t->interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1);
}

/* ---- quantization ---------------------------------------------------------------------- */

/* How one LINEAR translation, rotation or scale track is stored while building (the runtime
 * layout is in clip_compact.h): ranges, the rebuilt component of a rotation (4: none, a rot4
 * track) and where its components sit in a row of the build's own rows. */
typedef struct track_plan {
    float offset[3];
    float step[3];
    uint32_t key_at; /* first uint16 of the track in a build row */
    uint8_t path;    /* ossa_path */
    uint8_t dropped;
} track_plan;

/* The class of a plan (clip_compact.h): 0 rot3, 1 rot4, 2 vec. */
static int plan_class(const track_plan *t) {
    return t->path != OSSA_PATH_ROTATION ? 2 : t->dropped == 4;
}

/* One key of a planned track from its stored components, as every sampling path decodes it
 * (a rot3 track's in stored order). */
static void decode_plan(const track_plan *t, const uint16_t *q, float *out) {
    switch (plan_class(t)) {
    case 0:
        ossa_compact_decode_rot3(q, 1, t->offset, t->step, 1, out);
        break;
    case 1:
        ossa_compact_decode_rot4(q, 1, out);
        break;
    default:
        ossa_compact_decode_vec(q, 1, t->offset, t->step, 1, out);
        break;
    }
}

static uint32_t stored_components(const track_plan *t) {
    return t->path == OSSA_PATH_ROTATION && t->dropped == 4 ? 4 : 3;
}

/* Chooses the track's storage (for rotations the component to drop: the one whose smallest
 * magnitude over the keys is largest, if it stays above 0.3 so that rebuilding it from the
 * others does not magnify their error much) and its per-component ranges. */
static void plan_track(const float *values, uint32_t keys, uint8_t path, track_plan *t) {
    memset(t, 0, sizeof *t);
    t->path = path;
    uint32_t comps = path == OSSA_PATH_ROTATION ? 4 : 3;
    t->dropped = 4;
    if (path == OSSA_PATH_ROTATION) {
        float best = 0.0f;
        for (uint32_t c = 0; c < 4; c++) {
            float smallest = INFINITY;
            for (uint32_t k = 0; k < keys; k++)
                smallest = fminf(smallest, fabsf(values[k * 4 + c]));
            if (smallest > best) {
                best = smallest;
                t->dropped = (uint8_t)c;
            }
        }
        if (best < 0.3f) t->dropped = 4;
    }
    if (path == OSSA_PATH_ROTATION && t->dropped == 4) return; /* fixed range [-1, 1] */
    float lo[4], hi[4];
    for (uint32_t i = 0; i < 4; i++) {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
    }
    for (uint32_t k = 0; k < keys; k++) {
        const float *v = values + k * comps;
        float sign = t->dropped < 4 && v[t->dropped] < 0.0f ? -1.0f : 1.0f;
        for (uint32_t c = 0, i = 0; c < comps; c++) {
            if (c == t->dropped) continue;
            lo[i] = fminf(lo[i], sign * v[c]);
            hi[i] = fmaxf(hi[i], sign * v[c]);
            i++;
        }
    }
    for (uint32_t i = 0; i < 3; i++) {
        t->offset[i] = lo[i];
        t->step[i] = (hi[i] - lo[i]) / 65535.0f;
    }
}

static void quantize_key(const track_plan *t, const float *v, uint16_t *out) {
    uint32_t comps = t->path == OSSA_PATH_ROTATION ? 4 : 3;
    float sign = t->dropped < 4 && v[t->dropped] < 0.0f ? -1.0f : 1.0f;
    for (uint32_t c = 0, i = 0; c < comps; c++) {
        if (c == t->dropped) continue;
        float offset = comps == 4 && t->dropped == 4 ? -1.0f : t->offset[i];
        float step = comps == 4 && t->dropped == 4 ? OSSA_COMPACT_FULL_STEP : t->step[i];
        float q = step > 0.0f ? (sign * v[c] - offset) / step : 0.0f;
        q = fminf(fmaxf(q, 0.0f), 65535.0f);
        out[i++] = (uint16_t)lrintf(q);
    }
}

/* ---- key reduction ----------------------------------------------------------------------- */

/* One timeline's compacted tracks while reducing: quantized rows of every key, decoded values. */
typedef struct timeline_work {
    const ossa_clip *plain;
    const ossa_timeline *tl;
    uint32_t tracks, rotations, stride; /* compacted tracks (rotations first), uint16 per row */
    uint32_t *index;                    /* per compacted track: its index in the timeline */
    track_plan *meta;
    float *tolerance; /* per track: distance (T), angle (R) or scale difference (S) */
    uint16_t *rows;   /* key_count rows */
    float *decoded;   /* per key and track: 4 floats */
    /* Tracks needing similar keys are grouped; each group becomes one compact timeline with the
     * union of its tracks' keys (one key search per group and frame). */
    uint32_t group_count;
    uint32_t *group_of;   /* per track */
    uint32_t *group_kept; /* per group: keys in its union */
    uint8_t *group_keep;  /* per group: key_count flags */
} timeline_work;

static const float *original_at(const ossa_clip *plain, const ossa_timeline *tl, uint32_t index,
                                uint32_t key) {
    const ossa_track *t = &plain->tracks[tl->first_track + index];
    return plain->values + t->value_offset + (size_t)key * t->components;
}

static const float *original(const timeline_work *w, uint32_t track, uint32_t key) {
    return original_at(w->plain, w->tl, w->index[track], key);
}

/* How far `got` is from `ref`: rotation angle for quaternions, else Euclidean distance. */
static float deviation(uint8_t path, const float *got, const float *ref) {
    if (path == OSSA_PATH_ROTATION) {
        float plus = 0.0f, minus = 0.0f;
        for (int c = 0; c < 4; c++) {
            plus += (got[c] - ref[c]) * (got[c] - ref[c]);
            minus += (got[c] + ref[c]) * (got[c] + ref[c]);
        }
        return 4.0f * asinf(fminf(1.0f, 0.5f * sqrtf(fminf(plus, minus))));
    }
    float d2 = 0.0f;
    for (int c = 0; c < 3; c++)
        d2 += (got[c] - ref[c]) * (got[c] - ref[c]);
    return sqrtf(d2);
}

/* 1 when keeping only a and b keeps track j within its tolerance at every key between. */
static int segment_fits(const timeline_work *w, uint32_t j, uint32_t a, uint32_t b) {
    const float *times = w->plain->times + w->tl->time_offset;
    const track_plan *t = &w->meta[j];
    for (uint32_t k = a + 1; k < b; k++) {
        float u = (times[k] - times[a]) / (times[b] - times[a]);
        const float *va = w->decoded + ((size_t)a * w->tracks + j) * 4;
        const float *vb = w->decoded + ((size_t)b * w->tracks + j) * 4;
        float got[4];
        if (t->path == OSSA_PATH_ROTATION) {
            float c[3];
            ossa_compact_nlerp_factors(u, c);
            ossa_compact_nlerp(va, vb, u, c, got);
            if (plan_class(t) == 0) ossa_compact_rot3_order(got, t->dropped, got);
        } else {
            for (int i = 0; i < 3; i++)
                got[i] = va[i] + (vb[i] - va[i]) * u;
        }
        if (!(deviation(t->path, got, original(w, j, k)) <= w->tolerance[j])) return 0;
    }
    return 1;
}

/* Marks the keys track j needs (first and last always): from each kept key, the farthest next
 * key whose segment fits. Returns how many are kept. */
static uint32_t reduce_keys(const timeline_work *w, uint32_t j, uint8_t *keep) {
    uint32_t n = w->tl->key_count, kept = 1;
    memset(keep, 0, n);
    keep[0] = 1;
    for (uint32_t a = 0; a < n - 1;) {
        uint32_t b = a + 1;
        while (b + 1 < n && segment_fits(w, j, a, b + 1))
            b++;
        keep[b] = 1;
        kept++;
        a = b;
    }
    return kept;
}

/* ---- one clip ------------------------------------------------------------------------------ */

static ossa_result oom(ossa_error *error) {
    return ossa_error_set(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "%s", "out of memory");
}

/* The plain part of a compact clip: timelines holding STEP, CUBICSPLINE or weights tracks, with
 * only those tracks, their times and values copied. */
static ossa_result copy_plain_part(const ossa_clip *plain, ossa_owned *owned, ossa_clip *out,
                                   uint32_t *time_count, uint32_t *value_count) {
    uint32_t timelines = 0, tracks = 0, times = 0, values = 0;
    for (uint32_t i = 0; i < plain->timeline_count; i++) {
        const ossa_timeline *tl = &plain->timelines[i];
        uint32_t rest = tl->track_count - tl->slerp_track_count - tl->lerp_track_count;
        if (!rest) continue;
        timelines++;
        tracks += rest;
        times += tl->key_count;
        for (uint32_t j = tl->track_count - rest; j < tl->track_count; j++)
            values += track_floats(plain, &plain->tracks[tl->first_track + j]);
    }
    ossa_timeline *tls = ossa_owned_alloc(owned, timelines, sizeof *tls);
    ossa_track *trs = ossa_owned_alloc(owned, tracks, sizeof *trs);
    float *tms = ossa_owned_alloc(owned, times, sizeof(float));
    float *vals = ossa_owned_alloc(owned, values, sizeof(float));
    /* the batched kernels' slack, needed only when there are plain tracks to sample */
    float *batch = timelines ? ossa_owned_alloc(owned, OSSA_BATCH_KEY_SLACK, sizeof(float)) : NULL;
    if (!tls || !trs || !tms || !vals || (timelines && !batch)) return OSSA_ERROR_OUT_OF_MEMORY;
    uint32_t tl_at = 0, tr_at = 0, tm_at = 0, v_at = 0;
    for (uint32_t i = 0; i < plain->timeline_count; i++) {
        const ossa_timeline *tl = &plain->timelines[i];
        uint32_t rest = tl->track_count - tl->slerp_track_count - tl->lerp_track_count;
        if (!rest) continue;
        ossa_timeline *dst = &tls[tl_at];
        memset(dst, 0, sizeof *dst);
        dst->key_count = tl->key_count;
        dst->time_offset = tm_at;
        dst->first_track = tr_at;
        dst->track_count = rest;
        memcpy(tms + tm_at, plain->times + tl->time_offset, tl->key_count * sizeof(float));
        tm_at += tl->key_count;
        for (uint32_t j = tl->track_count - rest; j < tl->track_count; j++) {
            const ossa_track *src = &plain->tracks[tl->first_track + j];
            uint32_t floats = track_floats(plain, src);
            trs[tr_at] = *src;
            trs[tr_at].timeline = tl_at;
            trs[tr_at].value_offset = v_at;
            memcpy(vals + v_at, plain->values + src->value_offset, floats * sizeof(float));
            v_at += floats;
            tr_at++;
        }
        tl_at++;
    }
    out->timeline_count = timelines;
    out->timelines = tls;
    out->track_count = tracks;
    out->tracks = trs;
    out->times = tms;
    out->values = vals;
    out->batch_keys = batch;
    *time_count = times;
    *value_count = values;
    return OSSA_OK;
}

/* What a new group costs beyond its keys while grouping, in uint16: a timeline description, and
 * per frame a key search and a decode and interpolation of at least one block of sixteen
 * tracks. At 96, Fox's Survey split into three timelines and sampled 2.1x slower than plain; at
 * 150, into two (Intel Xeon, 2026-11-27). merge_unless_split_pays then weighs the whole split. */
#define GROUP_COST 150u

/* Reduces each track alone, then adds it to the group where that costs the fewest bytes (the
 * group's other tracks get the keys it needs, it gets theirs), or starts a new group when that
 * is cheaper. Returns 0 when out of memory. */
static int group_tracks(timeline_work *w) {
    uint32_t n = w->tl->key_count;
    w->group_of = calloc(w->tracks + 1, sizeof *w->group_of);
    w->group_kept = calloc(w->tracks + 1, sizeof *w->group_kept);
    w->group_keep = calloc((size_t)n * w->tracks + 1, 1);
    uint32_t *stride = calloc(w->tracks + 1, sizeof *stride);
    uint8_t *own = malloc(n);
    if (!w->group_of || !w->group_kept || !w->group_keep || !stride || !own) {
        free(own);
        free(stride);
        return 0;
    }
    for (uint32_t j = 0; j < w->tracks; j++) {
        uint32_t count = reduce_keys(w, j, own), comps = stored_components(&w->meta[j]);
        uint64_t best_cost = (uint64_t)count * (comps + 2) + GROUP_COST;
        uint32_t best = UINT32_MAX;
        for (uint32_t g = 0; g < w->group_count; g++) {
            const uint8_t *keep = w->group_keep + (size_t)g * n;
            uint32_t joined = 0;
            for (uint32_t k = 0; k < n; k++)
                joined += keep[k] | own[k];
            uint64_t cost =
                (uint64_t)(joined - w->group_kept[g]) * (stride[g] + 2) + (uint64_t)joined * comps;
            if (cost < best_cost) {
                best = g;
                best_cost = cost;
            }
        }
        if (best == UINT32_MAX) best = w->group_count++;
        uint8_t *keep = w->group_keep + (size_t)best * n;
        w->group_kept[best] = 0;
        for (uint32_t k = 0; k < n; k++) {
            keep[k] |= own[k];
            w->group_kept[best] += keep[k];
        }
        stride[best] += comps;
        w->group_of[j] = best;
    }
    free(own);
    free(stride);
    return 1;
}

/* A value that every key of the track stays within `tolerance` of (the middle of the range,
 * for rotations the normalised mean aligned with key 0), if there is one: the track then moves
 * nothing that matters and is folded into the base pose like a constant one. */
static int fold_value(const ossa_clip *plain, const ossa_timeline *tl, uint32_t index,
                      float tolerance, float *value) {
    const ossa_track *t = &plain->tracks[tl->first_track + index];
    uint32_t comps = t->components;
    const float *first = original_at(plain, tl, index, 0);
    /* The rest value first: a clip whose base pose is the rest pose shares the rig's. */
    const float *rest = (const float *)plain->rig->rest + t->target_offset;
    uint32_t k = 0;
    while (k < tl->key_count &&
           deviation(t->path, rest, original_at(plain, tl, index, k)) <= tolerance)
        k++;
    if (k == tl->key_count) {
        memcpy(value, rest, comps * sizeof *value);
        return 1;
    }
    if (t->path == OSSA_PATH_ROTATION) {
        float sum[4] = {0, 0, 0, 0};
        for (uint32_t k = 0; k < tl->key_count; k++) {
            const float *q = original_at(plain, tl, index, k);
            float dot = q[0] * first[0] + q[1] * first[1] + q[2] * first[2] + q[3] * first[3];
            for (int c = 0; c < 4; c++)
                sum[c] += dot < 0.0f ? -q[c] : q[c];
        }
        float len = sqrtf(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2] + sum[3] * sum[3]);
        if (!(len > 0.0f)) return 0;
        for (int c = 0; c < 4; c++)
            value[c] = sum[c] / len;
    } else {
        for (uint32_t c = 0; c < comps; c++) {
            float lo = first[c], hi = first[c];
            for (uint32_t k = 0; k < tl->key_count; k++) {
                lo = fminf(lo, original_at(plain, tl, index, k)[c]);
                hi = fmaxf(hi, original_at(plain, tl, index, k)[c]);
            }
            value[c] = lo + (hi - lo) * 0.5f;
        }
    }
    for (uint32_t k = 0; k < tl->key_count; k++)
        if (!(deviation(t->path, value, original_at(plain, tl, index, k)) <= tolerance)) return 0;
    return 1;
}

/* Folds the tracks that stay near one value into `base`, then quantizes the others into `w`
 * (scratch from malloc). Returns 0 when out of memory. */
static int prepare_timeline(compact_state *st, const ossa_clip *plain, const ossa_timeline *tl,
                            float allowance, ossa_trs *base, uint32_t *folded, timeline_work *w) {
    memset(w, 0, sizeof *w);
    w->plain = plain;
    w->tl = tl;
    uint32_t candidates = tl->slerp_track_count + tl->lerp_track_count;
    w->index = calloc(candidates, sizeof *w->index);
    w->meta = calloc(candidates, sizeof *w->meta);
    w->tolerance = calloc(candidates, sizeof *w->tolerance);
    if (!w->index || !w->meta || !w->tolerance) return 0;
    for (uint32_t i = 0; i < candidates; i++) {
        const ossa_track *t = &plain->tracks[tl->first_track + i];
        float tolerance = t->path == OSSA_PATH_TRANSLATION ? allowance / st->parent_scale[t->node]
                                                           : allowance / st->lever[t->node];
        float value[4] = {0}; /* gcc -O3 cannot tell that fold_value sets what it reads */
        if (allowance > 0.0f && fold_value(plain, tl, i, tolerance, value)) {
            memcpy((float *)base + t->target_offset, value, t->components * sizeof(float));
            (*folded)++;
            continue;
        }
        uint32_t j = w->tracks++;
        w->rotations += i < tl->slerp_track_count;
        w->index[j] = i;
        w->tolerance[j] = tolerance;
        plan_track(original(w, j, 0), tl->key_count, t->path, &w->meta[j]);
        w->meta[j].key_at = w->stride;
        w->stride += stored_components(&w->meta[j]);
    }
    w->rows = calloc((size_t)tl->key_count * w->stride + 1, sizeof *w->rows);
    w->decoded = calloc((size_t)tl->key_count * w->tracks * 4 + 1, sizeof *w->decoded);
    if (!w->rows || !w->decoded) return 0;
    for (uint32_t k = 0; k < tl->key_count; k++)
        for (uint32_t j = 0; j < w->tracks; j++) {
            uint16_t *row = w->rows + (size_t)k * w->stride;
            quantize_key(&w->meta[j], original(w, j, k), row + w->meta[j].key_at);
            decode_plan(&w->meta[j], row + w->meta[j].key_at,
                        w->decoded + ((size_t)k * w->tracks + j) * 4);
        }
    return 1;
}

static void free_timeline(timeline_work *w) {
    free(w->group_of);
    free(w->group_kept);
    free(w->group_keep);
    free(w->index);
    free(w->meta);
    free(w->tolerance);
    free(w->rows);
    free(w->decoded);
}

/* A copy of a plain clip's arrays (the compact form of a clip whose keys cannot be quantized
 * within budget: an empty compact part). */
static ossa_result copy_plain(const ossa_clip *plain, ossa_owned *owned, ossa_clip *out) {
    ossa_timeline *tls = ossa_owned_alloc(owned, plain->timeline_count, sizeof *tls);
    ossa_track *trs = ossa_owned_alloc(owned, plain->track_count, sizeof *trs);
    float *tms = ossa_owned_alloc(owned, plain->time_count, sizeof(float));
    float *vals = ossa_owned_alloc(owned, plain->value_count, sizeof(float));
    float *batch = ossa_owned_alloc(owned, plain->batch_key_count, sizeof(float));
    if (!tls || !trs || !tms || !vals || !batch) return OSSA_ERROR_OUT_OF_MEMORY;
    memcpy(tls, plain->timelines, plain->timeline_count * sizeof *tls);
    memcpy(trs, plain->tracks, plain->track_count * sizeof *trs);
    memcpy(tms, plain->times, plain->time_count * sizeof(float));
    memcpy(vals, plain->values, plain->value_count * sizeof(float));
    memcpy(batch, plain->batch_keys, plain->batch_key_count * sizeof(float));
    out->timelines = tls;
    out->tracks = trs;
    out->times = tms;
    out->values = vals;
    out->batch_keys = batch;
    return OSSA_OK;
}

/* 1 when key times are evenly spaced to within 1e-4 of their spacing: sampling then finds the
 * key by a product instead of a search, and the times need not be stored (the error of the
 * shift is measured with the rest). */
static int evenly_spaced(const float *times, uint32_t count) {
    double first = times[0], step = ((double)times[count - 1] - first) / (count - 1);
    if (!(step > 0.0)) return 0;
    for (uint32_t k = 1; k < count; k++)
        if (fabs(times[k] - (first + k * step)) > 1e-4 * step) return 0;
    return 1;
}

/* 1 when the timeline's keys are evenly spaced (OSSA_COMPACT_UNIFORM is possible). */
static int timeline_even(const timeline_work *w) {
    uint32_t n = w->tl->key_count;
    return n >= 4 && evenly_spaced(w->plain->times + w->tl->time_offset, n);
}

/* uint16 per key of group g's rows. */
static uint64_t group_stride(const timeline_work *w, uint32_t g) {
    uint64_t stride = 0;
    for (uint32_t j = 0; j < w->tracks; j++)
        if (w->group_of[j] == g) stride += stored_components(&w->meta[j]);
    return stride;
}

/* 1 when every one of an evenly spaced timeline's n keys, with three floats for the times, takes
 * no more uint16 than `kept` keys with their times (one float each). */
static int uniform_smaller(uint64_t kept, uint64_t stride, uint32_t n) {
    return n * stride + 6 <= kept * (stride + 2);
}

/* uint16 of a group's rows, key times and timeline description, the uniform form where
 * prefer_uniform will choose it. */
static uint64_t group_bytes(uint64_t kept, uint64_t stride, uint32_t n, int even) {
    uint64_t rows_and_times =
        even && uniform_smaller(kept, stride, n) ? n * stride + 6 : kept * (stride + 2);
    return rows_and_times + sizeof(ossa_compact_timeline) / 2;
}

/* Sampling work of tracks in a group: a key search, then a block per sixteen tracks of a class. */
static uint64_t group_work(const uint32_t per_class[3]) {
    return 1 + (per_class[0] + 15) / 16 + (per_class[1] + 15) / 16 + (per_class[2] + 15) / 16;
}

/* Puts every track back in one group unless the split makes the timeline's bytes times its
 * sampling work smaller. Each group costs a key search per frame, and its classes' partly
 * filled blocks of sixteen tracks. Fox's Survey split in two saved 18% of its bytes and
 * sampled 10-21% slower: 1.31-1.33 times plain, against 1.06-1.12 in one group (Intel Xeon,
 * 2026-11-27). Tracks that need few keys next to tracks that need many still get their own
 * group where that saves enough (check_split in the compact test: half the bytes). */
static void merge_unless_split_pays(timeline_work *w, int even) {
    if (w->group_count < 2) return;
    uint32_t n = w->tl->key_count;
    uint64_t split_bytes = 0, split_work = 0;
    uint32_t all[3] = {0, 0, 0};
    for (uint32_t g = 0; g < w->group_count; g++) {
        uint32_t per_class[3] = {0, 0, 0};
        for (uint32_t j = 0; j < w->tracks; j++)
            if (w->group_of[j] == g) per_class[plan_class(&w->meta[j])]++;
        split_bytes += group_bytes(w->group_kept[g], group_stride(w, g), n, even);
        split_work += group_work(per_class);
        for (int c = 0; c < 3; c++)
            all[c] += per_class[c];
    }
    uint32_t kept = 0; /* keys of the union of the groups */
    for (uint32_t k = 0; k < n; k++) {
        uint8_t any = 0;
        for (uint32_t g = 0; g < w->group_count; g++)
            any |= w->group_keep[(size_t)g * n + k];
        kept += any;
    }
    if (split_bytes * split_work < group_bytes(kept, w->stride, n, even) * group_work(all)) return;
    uint8_t *keep = w->group_keep; /* group 0's flags become the union */
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t g = 1; g < w->group_count; g++)
            keep[k] |= w->group_keep[(size_t)g * n + k];
    for (uint32_t j = 0; j < w->tracks; j++)
        w->group_of[j] = 0;
    w->group_kept[0] = kept;
    w->group_count = 1;
}

/* Gives a group every key of an evenly spaced timeline where that takes no more bytes: its times
 * then shrink to three floats (OSSA_COMPACT_UNIFORM), and sampling needs no key search. Keys
 * added to a group keep it within its tolerance: they are the timeline's own. */
static void prefer_uniform(timeline_work *w, int even) {
    uint32_t n = w->tl->key_count;
    for (uint32_t g = 0; even && g < w->group_count; g++) {
        if (w->group_kept[g] == n || !uniform_smaller(w->group_kept[g], group_stride(w, g), n))
            continue;
        memset(w->group_keep + (size_t)g * n, 1, n);
        w->group_kept[g] = n;
    }
}

/* Builds the compact clip of `plain` with a per-node allowance (model units) into `owned`,
 * folding tracks into `base` (the clip's base pose, a copy of the plain one). A negative
 * allowance keeps every track plain. */
static ossa_result build_clip(compact_state *st, const ossa_clip *plain, float allowance,
                              ossa_owned *owned, ossa_trs *base, ossa_clip *out) {
    *out = *plain;
    out->compact = NULL;
    out->base_spans = NULL; /* the plain clip's, for its own base pose (see clip_internal.h) */
    out->base_span_count = 0;
    struct ossa_compact *c = ossa_owned_alloc(owned, 1, sizeof *c);
    if (!c) return OSSA_ERROR_OUT_OF_MEMORY;
    memset(c, 0, sizeof *c);
    c->budget = st->params->budget;
    out->compact = c;
    if (allowance < 0.0f) {
        out->bytes = plain->bytes + sizeof *c;
        return copy_plain(plain, owned, out);
    }
    uint32_t plain_times = 0, plain_values = 0;
    ossa_result r = copy_plain_part(plain, owned, out, &plain_times, &plain_values);
    if (r != OSSA_OK) return r;
    out->time_count = plain_times;
    out->value_count = plain_values;
    out->batch_key_count = out->timeline_count ? OSSA_BATCH_KEY_SLACK : 0;
    uint32_t candidates = plain->timeline_count ? plain->timeline_count : 1;
    timeline_work *work = calloc(candidates, sizeof *work);
    if (!work) r = OSSA_ERROR_OUT_OF_MEMORY;
    uint64_t tracks = 0, times = 0, rows = 0, range_floats = 0;
    uint32_t prepared = 0, timelines = 0, folded = 0, max_tracks = 0;
    for (uint32_t i = 0; r == OSSA_OK && i < plain->timeline_count; i++) {
        const ossa_timeline *tl = &plain->timelines[i];
        if (tl->slerp_track_count + tl->lerp_track_count == 0) continue;
        /* rows and targets are indexed by uint16 */
        if (4ull * (tl->slerp_track_count + tl->lerp_track_count) > UINT16_MAX ||
            st->rig->node_count > UINT16_MAX / 10) {
            r = OSSA_ERROR_LIMIT;
            break;
        }
        timeline_work *w = &work[prepared++];
        if (!prepare_timeline(st, plain, tl, allowance, base, &folded, w) || !group_tracks(w)) {
            r = OSSA_ERROR_OUT_OF_MEMORY;
            break;
        }
        int even = timeline_even(w);
        merge_unless_split_pays(w, even);
        prefer_uniform(w, even);
        tracks += w->tracks;
        if (w->tracks > max_tracks) max_tracks = w->tracks;
        for (uint32_t j = 0; j < w->tracks; j++)
            range_floats += plan_class(&w->meta[j]) == 1 ? 0 : 6;
        timelines += w->group_count;
        for (uint32_t g = 0; g < w->group_count; g++)
            times += w->group_kept[g];
        for (uint32_t j = 0; j < w->tracks; j++)
            rows += (uint64_t)w->group_kept[w->group_of[j]] * stored_components(&w->meta[j]);
    }
    if (r == OSSA_OK && rows > UINT32_MAX) r = OSSA_ERROR_LIMIT;
    ossa_compact_timeline *ctl = NULL;
    float *ranges = NULL, *ctimes = NULL;
    uint16_t *targets = NULL, *keys = NULL;
    uint8_t *dropped = NULL;
    if (r == OSSA_OK) {
        ctl = ossa_owned_alloc(owned, timelines, sizeof *ctl);
        ranges = ossa_owned_alloc(owned, range_floats + OSSA_COMPACT_SLACK, sizeof *ranges);
        targets = ossa_owned_alloc(owned, tracks, sizeof *targets);
        dropped = ossa_owned_alloc(owned, tracks + OSSA_COMPACT_SLACK, sizeof *dropped);
        ctimes = ossa_owned_alloc(owned, times, sizeof *ctimes);
        keys = ossa_owned_alloc(owned, rows + OSSA_COMPACT_SLACK, sizeof *keys);
        if ((timelines && !ctl) || (range_floats && !ranges) ||
            (tracks && (!targets || !dropped)) || (times && !ctimes) || (rows && !keys))
            r = OSSA_ERROR_OUT_OF_MEMORY;
    }
    /* One compact timeline per group: its tracks class by class (rot3, rot4, vec; timeline order
     * within a class), their values at the group's keys. */
    uint32_t tl_at = 0, tr_at = 0, tm_at = 0, row_at = 0, range_at = 0;
    uint32_t *lane = calloc(max_tracks + 1, sizeof *lane); /* per track of a group: its lane */
    if (r == OSSA_OK && !lane) r = OSSA_ERROR_OUT_OF_MEMORY;
    for (uint32_t p = 0; r == OSSA_OK && p < prepared; p++) {
        const timeline_work *tw = &work[p];
        for (uint32_t g = 0; g < tw->group_count; g++) {
            ossa_compact_timeline *dst = &ctl[tl_at++];
            const uint8_t *keep = tw->group_keep + (size_t)g * tw->tl->key_count;
            memset(dst, 0, sizeof *dst);
            dst->key_count = tw->group_kept[g];
            dst->time_offset = tm_at;
            dst->first_track = tr_at;
            dst->key_offset = row_at;
            dst->range_offset = range_at;
            uint32_t count[3] = {0, 0, 0};
            for (uint32_t j = 0; j < tw->tracks; j++)
                if (tw->group_of[j] == g) lane[j] = count[plan_class(&tw->meta[j])]++;
            dst->rot3 = (uint16_t)count[0];
            dst->rot4 = (uint16_t)count[1];
            dst->vec = (uint16_t)count[2];

            /* where each class starts: in the tracks, in a row, in the ranges */
            uint32_t first[3] = {0, count[0], count[0] + count[1]};
            uint32_t at[3] = {0, 3 * count[0], 3 * count[0] + 4 * count[1]};
            uint32_t range[3] = {0, 0, 6 * count[0]};
            for (uint32_t j = 0; j < tw->tracks; j++) {
                if (tw->group_of[j] != g) continue;
                const track_plan *t = &tw->meta[j];
                int cls = plan_class(t);
                uint32_t n = count[cls], index = tr_at + first[cls] + lane[j];
                targets[index] =
                    (uint16_t)plain->tracks[tw->tl->first_track + tw->index[j]].target_offset;
                dropped[index] = cls == 0 ? t->dropped : 0;
                if (cls == 1) continue;
                for (uint32_t i = 0; i < 3; i++) {
                    ranges[range_at + range[cls] + i * n + lane[j]] = t->offset[i];
                    ranges[range_at + range[cls] + (3 + i) * n + lane[j]] = t->step[i];
                }
            }
            tr_at += count[0] + count[1] + count[2];
            range_at += 6 * (count[0] + count[2]);
            for (uint32_t k = 0; k < tw->tl->key_count; k++) {
                if (!keep[k]) continue;
                ctimes[tm_at++] = plain->times[tw->tl->time_offset + k];
                const uint16_t *src = tw->rows + (size_t)k * tw->stride;
                for (uint32_t j = 0; j < tw->tracks; j++) {
                    if (tw->group_of[j] != g) continue;
                    const track_plan *t = &tw->meta[j];
                    int cls = plan_class(t);
                    for (uint32_t i = 0; i < stored_components(t); i++)
                        keys[row_at + at[cls] + i * count[cls] + lane[j]] = src[t->key_at + i];
                }
                row_at += ossa_compact_stride(dst);
            }
            float *kept = ctimes + dst->time_offset;
            if (dst->key_count >= 4 && evenly_spaced(kept, dst->key_count)) {
                float first = kept[0], end = kept[dst->key_count - 1];
                kept[1] = end;
                kept[2] = (float)(dst->key_count - 1) / (end - first);
                tm_at = dst->time_offset + 3;
                dst->flags |= OSSA_COMPACT_UNIFORM;
            }
        }
    }
    free(lane);
    for (uint32_t p = 0; work && p < prepared; p++)
        free_timeline(&work[p]);
    free(work);
    if (r != OSSA_OK) return r;
    c->timeline_count = timelines;
    c->timelines = ctl;
    c->ranges = ranges;
    c->targets = targets;
    c->dropped = dropped;
    c->times = ctimes;
    c->keys = keys;
    out->constant_track_count = plain->constant_track_count + folded;
    out->bytes = ossa_clip_plain_bytes(out, plain_times, plain_values, out->batch_key_count) +
                 sizeof *c + timelines * sizeof *ctl + range_floats * sizeof *ranges +
                 tracks * (sizeof *targets + sizeof *dropped) + tm_at * sizeof *ctimes +
                 rows * sizeof *keys;
    return OSSA_OK;
}

/* ---- world-space error ------------------------------------------------------------------- */

static int compare_floats(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The largest distance between where the plain and the compact clip put any node (its world
 * origin) or any point within vertex_radius of it (|dt| + |dM|_F r bounds every such point, so
 * every vertex it skins), at every key time of the compacted tracks and three times between
 * consecutive ones; infinite where either is not finite (keys near the float range overflow a
 * quantized range or a lerp). Returns a negative value when out of memory. */
static float measure_error(compact_state *st, const ossa_clip *plain, const ossa_clip *compact) {
    const ossa_rig *rig = st->rig;
    size_t count = 0;
    for (uint32_t i = 0; i < plain->timeline_count; i++)
        if (is_compacted(&plain->timelines[i], 0)) count += plain->timelines[i].key_count;
    if (!count) return 0.0f;
    float *times = malloc(count * sizeof *times);
    if (!times) return -1.0f;
    count = 0;
    for (uint32_t i = 0; i < plain->timeline_count; i++) {
        const ossa_timeline *tl = &plain->timelines[i];
        if (!is_compacted(tl, 0)) continue;
        memcpy(times + count, plain->times + tl->time_offset, tl->key_count * sizeof *times);
        count += tl->key_count;
    }
    qsort(times, count, sizeof *times, compare_floats);
    float worst = 0.0f;
    const ossa_clip *clips[2] = {plain, compact};
    for (size_t i = 0; i < count; i++) {
        if (i && times[i] == times[i - 1]) continue;
        for (int step = 0; step < 4; step++) {
            if (step && i + 1 == count) break;
            float t = step ? times[i] + (times[i + 1] - times[i]) * (float)step * 0.25f : times[i];
            for (int f = 0; f < 2; f++) {
                ossa_pose pose = {st->local[f], st->weights[f]};
                ossa_clip_sample_unchecked(clips[f], t, NULL, &pose);
                ossa_fk_matrices(rig, &pose, st->world[f]);
            }
            for (uint32_t n = 0; n < rig->node_count; n++) {
                const float *a = st->world[0] + 12 * n, *b = st->world[1] + 12 * n;
                float dt2 = 0.0f, dm2 = 0.0f;
                for (int row = 0; row < 3; row++)
                    for (int col = 0; col < 4; col++) {
                        float d = a[4 * row + col] - b[4 * row + col];
                        if (col == 3)
                            dt2 += d * d;
                        else
                            dm2 += d * d;
                    }
                float e = sqrtf(dt2) + sqrtf(dm2) * st->params->vertex_radius[n];
                if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
            }
        }
    }
    free(times);
    return worst;
}

/* Lever arm of each node: its own reach (vertex radius, at least min_radius), or the distance to
 * a child plus the child's lever arm, whichever is larger; rest pose, world space. */
static int compute_levers(compact_state *st) {
    const ossa_rig *rig = st->rig;
    memcpy(st->local[0], rig->rest, rig->node_count * sizeof *rig->rest);
    ossa_pose pose = {st->local[0], st->weights[0]};
    ossa_fk_matrices(rig, &pose, st->world[0]);
    for (uint32_t n = 0; n < rig->node_count; n++)
        st->lever[n] = fmaxf(st->params->vertex_radius[n], st->params->min_radius);
    for (uint32_t n = rig->node_count; n-- > 0;) {
        int32_t p = rig->parent[n];
        st->parent_scale[n] = 1.0f;
        if (p < 0) continue;
        for (int col = 0; col < 3; col++) { /* a local translation moves by up to this much */
            const float *m = st->world[0] + 12 * p;
            float norm = sqrtf(m[col] * m[col] + m[4 + col] * m[4 + col] + m[8 + col] * m[8 + col]);
            if (norm > st->parent_scale[n] || col == 0) st->parent_scale[n] = norm;
        }
        if (!(st->parent_scale[n] > 0.0f)) st->parent_scale[n] = 1.0f;
        float d2 = 0.0f;
        for (int row = 0; row < 3; row++) {
            float d = st->world[0][12 * n + 4 * row + 3] - st->world[0][12 * p + 4 * row + 3];
            d2 += d * d;
        }
        st->lever[p] = fmaxf(st->lever[p], sqrtf(d2) + st->lever[n]);
    }
    return 1;
}

/* Tightens the allowance, from 16 times the budget (the tolerances assume the worst lever arm
 * everywhere), until the measured error is within budget (32 steps of 3/4, then
 * every key, then every track plain), then builds the clip into the set. `base`: the clip's
 * base pose, a copy of the plain one. */
static ossa_result compact_clip(compact_state *st, const ossa_clip *plain, ossa_owned *owned,
                                ossa_trs *base, ossa_clip *out) {
    const ossa_rig *rig = st->rig;
    float budget = st->params->budget, allowance = 16.0f * budget, error = 0.0f;
    ossa_trs *trial_base = malloc(rig->node_count * sizeof *trial_base + 1);
    if (!trial_base) return OSSA_ERROR_OUT_OF_MEMORY;
    for (int attempt = 0; attempt <= 34; attempt++) {
        if (attempt == 33) allowance = 0.0f;
        if (attempt == 34) {
            allowance = -1.0f;
            error = 0.0f;
            break;
        }
        ossa_owned trial;
        ossa_owned_init(&trial, &owned->allocator);
        memcpy(trial_base, base, rig->node_count * sizeof *base);
        ossa_clip candidate;
        ossa_result r = build_clip(st, plain, allowance, &trial, trial_base, &candidate);
        candidate.base_local = trial_base;
        error = r == OSSA_OK ? measure_error(st, plain, &candidate) : 0.0f;
        ossa_owned_release(&trial);
        if (r != OSSA_OK || error < 0.0f) {
            free(trial_base);
            return r != OSSA_OK ? r : OSSA_ERROR_OUT_OF_MEMORY;
        }
        if (error <= budget) break;
        /* an overflow is no matter of keys: go on with attempt 34, every track plain */
        if (isinf(error)) attempt = 33;
        allowance *= 0.75f;
    }
    free(trial_base);
    ossa_result r = build_clip(st, plain, allowance, owned, base, out);
    if (r == OSSA_OK) {
        out->base_local = base;
        ((struct ossa_compact *)out->compact)->error = error;
    }
    return r;
}

/* Gives a built clip the rig's rest pose as its base pose (not counted in its bytes: the rig
 * holds it), the channels of `base` that differ from it as constants, and its base weights: the
 * rig's rest ones when equal, else a copy it owns. */
static ossa_result own_base(const ossa_rig *rig, const ossa_trs *base, const float *weights,
                            ossa_owned *owned, ossa_clip *clip) {
    static const uint32_t offsets[3] = {0, 3, 7}, sizes[3] = {3, 4, 3}; /* T, R, S in ossa_trs */
    uint32_t counts[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        struct ossa_compact *c = (struct ossa_compact *)clip->compact;
        uint16_t *targets = NULL;
        float *values = NULL;
        if (pass) {
            targets = ossa_owned_alloc(owned, counts[0] + counts[1], sizeof *targets);
            values = ossa_owned_alloc(owned, 3 * counts[0] + 4 * counts[1], sizeof *values);
            if (!targets || !values) return OSSA_ERROR_OUT_OF_MEMORY;
            c->const3 = counts[0];
            c->const4 = counts[1];
            c->const_targets = targets;
            c->const_values = values;
        }
        uint32_t at[2] = {0, counts[0]}, value_at[2] = {0, 3 * counts[0]};
        for (uint32_t n = 0; n < rig->node_count; n++)
            for (int path = 0; path < 3; path++) {
                const float *got = (const float *)&base[n] + offsets[path];
                const float *rest = (const float *)&rig->rest[n] + offsets[path];
                if (!memcmp(got, rest, sizes[path] * sizeof *got)) continue;
                int four = sizes[path] == 4;
                if (pass) {
                    targets[at[four]++] = (uint16_t)(10 * n + offsets[path]);
                    memcpy(values + value_at[four], got, sizes[path] * sizeof *got);
                    value_at[four] += sizes[path];
                } else {
                    counts[four]++;
                }
            }
    }
    clip->base_local = rig->rest;
    clip->bytes += (counts[0] + counts[1]) * sizeof(uint16_t) +
                   (3 * counts[0] + 4 * counts[1]) * sizeof(float) - rig->node_count * sizeof *base;
    if (!rig->weight_total ||
        !memcmp(weights, rig->rest_weights, rig->weight_total * sizeof *weights)) {
        clip->base_weights = rig->rest_weights;
        clip->bytes -= rig->weight_total * sizeof *weights;
    } else {
        float *copy = ossa_owned_alloc(owned, rig->weight_total, sizeof *copy);
        if (!copy) return OSSA_ERROR_OUT_OF_MEMORY;
        memcpy(copy, weights, rig->weight_total * sizeof *weights);
        clip->base_weights = copy;
    }
    return OSSA_OK;
}

ossa_result ossa_clip_set_compact(const ossa_clip_set *plain, const ossa_compact_params *params,
                                  const ossa_allocator *allocator, ossa_clip_set **out,
                                  ossa_error *error) {
    *out = NULL;
    ossa_owned owned;
    ossa_owned_init(&owned, allocator);
    clip_set_impl *impl = owned.allocator.alloc(owned.allocator.user, sizeof *impl);
    if (!impl) return oom(error);
    memset(impl, 0, sizeof *impl);
    impl->owned = owned;
    ossa_result r = OSSA_OK;
    const ossa_rig *rig = plain->clip_count ? plain->clips[0].rig : NULL;
    ossa_clip *clips = ossa_owned_alloc(&impl->owned, plain->clip_count, sizeof *clips);
    if (!clips) r = OSSA_ERROR_OUT_OF_MEMORY;
    compact_state st = {rig, params, NULL, NULL, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    if (rig && r == OSSA_OK) {
        st.lever = calloc(rig->node_count, sizeof *st.lever);
        st.parent_scale = calloc(rig->node_count, sizeof *st.parent_scale);
        for (int f = 0; f < 2; f++) {
            st.local[f] = calloc(rig->node_count, sizeof *st.local[f]);
            st.weights[f] = calloc(rig->weight_total + 1, sizeof *st.weights[f]);
            st.world[f] = calloc((size_t)rig->node_count * 12, sizeof *st.world[f]);
            if (!st.local[f] || !st.weights[f] || !st.world[f]) r = OSSA_ERROR_OUT_OF_MEMORY;
        }
        if (!st.lever || !st.parent_scale) r = OSSA_ERROR_OUT_OF_MEMORY;
        if (r == OSSA_OK) compute_levers(&st);
    }
    int failed = 0;
    ossa_trs *scratch = rig ? malloc(rig->node_count * sizeof *scratch + 1) : NULL;
    for (uint32_t i = 0; r == OSSA_OK && i < plain->clip_count; i++) {
        const ossa_clip *src = &plain->clips[i];
        /* The compact clip owns copies of what it shares with the plain one; its base pose
         * is the rig's rest pose when equal to it (not counted: the rig holds it). */
        uint8_t *paths = ossa_owned_alloc(&impl->owned, rig->node_count, 1);
        char *name = ossa_owned_strdup(&impl->owned, src->name, &failed);
        if (!paths || failed || !scratch) {
            r = OSSA_ERROR_OUT_OF_MEMORY;
            break;
        }
        memcpy(scratch, src->base_local, rig->node_count * sizeof *scratch);
        memcpy(paths, src->node_paths, rig->node_count);
        r = compact_clip(&st, src, &impl->owned, scratch, &clips[i]);
        if (r == OSSA_OK) r = ossa_clip_copy_float_tracks(src, &impl->owned, &clips[i]);
        if (r != OSSA_OK) break;
        clips[i].name = name;
        clips[i].node_paths = paths;
        r = own_base(rig, scratch, src->base_weights, &impl->owned, &clips[i]);
        if (r != OSSA_OK) break;
    }
    free(scratch);
    free(st.lever);
    free(st.parent_scale);
    for (int f = 0; f < 2; f++) {
        free(st.local[f]);
        free(st.weights[f]);
        free(st.world[f]);
    }
    if (r != OSSA_OK) {
        ossa_clip_set_free(&impl->set);
        if (r == OSSA_ERROR_LIMIT)
            return ossa_error_set(error, r, NULL, "animations", "%s",
                                  "too many nodes, or tracks in one animation, for a compact clip");
        return oom(error);
    }
    impl->set.clip_count = plain->clip_count;
    impl->set.clips = clips;
    *out = &impl->set;
    return OSSA_OK;
}

size_t ossa_clip_runtime_bytes(const ossa_clip *clip) {
    return clip->bytes;
}

int ossa_clip_is_compact(const ossa_clip *clip) {
    return clip->compact != NULL;
}

float ossa_clip_compact_budget(const ossa_clip *clip) {
    return clip->compact ? clip->compact->budget : 0.0f;
}

float ossa_clip_compact_error(const ossa_clip *clip) {
    return clip->compact ? clip->compact->error : 0.0f;
}
