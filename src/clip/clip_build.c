/* Builds clips (clip.h) from a document: decodes keys, shares timelines, folds constant tracks. */
#include "ossa/clip.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "anim/track_batch.h"
#include "clip/clip_internal.h"
#include "io/error.h"
#include "pose/xform.h"
#include "rig/owned.h"

typedef struct build_state {
    const ossa_document *doc;
    const ossa_rig *rig;
    ossa_owned *owned;
    ossa_error *error;
    uint32_t animation;
} build_state;

static ossa_result fail(build_state *st, ossa_result code, const char *path, const char *message) {
    return ossa_error_set(st->error, code, st->doc->file, path, "%s", message);
}

static uint32_t path_components(const ossa_rig *rig, int32_t node, ossa_path path) {
    switch (path) {
    case OSSA_PATH_TRANSLATION:
    case OSSA_PATH_SCALE:
        return 3;
    case OSSA_PATH_ROTATION:
        return 4;
    case OSSA_PATH_WEIGHTS:
        return rig->weight_count[node];
    }
    return 0;
}

/* Where a value of this path lives in a pose (ossa_track::target_offset): the float index in the
 * node TRS seen as floats, or for weights in the weights. */
_Static_assert(sizeof(ossa_trs) == 10 * sizeof(float), "ossa_trs is ten packed floats");

static uint32_t target_offset(const ossa_rig *rig, int32_t node, ossa_path path) {
    switch (path) {
    case OSSA_PATH_TRANSLATION:
        return (uint32_t)node * 10 + (uint32_t)(offsetof(ossa_trs, translation) / sizeof(float));
    case OSSA_PATH_ROTATION:
        return (uint32_t)node * 10 + (uint32_t)(offsetof(ossa_trs, rotation) / sizeof(float));
    case OSSA_PATH_SCALE:
        return (uint32_t)node * 10 + (uint32_t)(offsetof(ossa_trs, scale) / sizeof(float));
    case OSSA_PATH_WEIGHTS:
        return rig->weight_offset[node];
    }
    return 0;
}

/* 1 when every key has the value of key 0 and (CUBICSPLINE) every tangent is zero. */
static int is_constant(const float *values, uint32_t keys, uint32_t comps, int cubic) {
    uint32_t stride = cubic ? 3 * comps : comps;
    const float *first = values + (cubic ? comps : 0);
    for (uint32_t k = 0; k < keys; k++) {
        const float *key = values + (size_t)k * stride;
        if (memcmp(key + (cubic ? comps : 0), first, comps * sizeof(float)) != 0) return 0;
        if (cubic)
            for (uint32_t c = 0; c < comps; c++)
                if (key[c] != 0.0f || key[2 * comps + c] != 0.0f) return 0;
    }
    return 1;
}

/* A node property an animation's channel animates (see list_targets). */
typedef struct clip_target {
    uint32_t channel;
    int32_t node; /* glTF node */
    ossa_path path;
} clip_target;

typedef struct clip_scratch {
    clip_target *targets;     /* what the channels animate */
    uint8_t *node_weights;    /* per glTF node: a channel animates its weights (list_targets) */
    int32_t *mesh_channel;    /* per mesh: its weights' pointer channel, or -1 (list_targets) */
    ossa_track *tracks;       /* unsorted, one per animated channel */
    ossa_timeline *timelines; /* key_count, time_offset filled */
    int32_t *timeline_input;  /* input accessor of each timeline */
} clip_scratch;

/* Copies `count` tracks' keys (`comps` floats each, 3 or 4) into dst key by key, four floats a
 * track (a fourth float stays zero); returns the end of what it wrote. */
static float *interleave_keys(float *dst, const ossa_track *tracks, uint32_t count,
                              uint32_t key_count, uint32_t comps, const float *values) {
    for (uint32_t k = 0; k < key_count; k++)
        for (uint32_t j = 0; j < count; j++, dst += 4)
            memcpy(dst, values + tracks[j].value_offset + (size_t)k * comps, comps * sizeof(float));
    return dst;
}

/* ossa_clip::batch_keys: for each timeline, its LINEAR rotations (its first tracks) and its
 * LINEAR translations and scales (the next ones) interleaved key by key. */
static ossa_result build_batch_keys(build_state *st, ossa_timeline *timelines,
                                    uint32_t timeline_count, const ossa_track *tracks,
                                    const float *values, const float **out,
                                    uint32_t *batch_key_count) {
    uint64_t total = 0;
    for (uint32_t tl = 0; tl < timeline_count; tl++)
        total += (uint64_t)timelines[tl].key_count *
                 (OSSA_BATCH_KEY_STRIDE(timelines[tl].slerp_track_count) +
                  OSSA_BATCH_KEY_STRIDE(timelines[tl].lerp_track_count));
    if (total > UINT32_MAX)
        return fail(st, OSSA_ERROR_LIMIT, "animations", "too many keys in one animation");
    float *keys = ossa_owned_alloc(st->owned, total + OSSA_BATCH_KEY_SLACK, sizeof(float));
    if (!keys) return OSSA_ERROR_OUT_OF_MEMORY;
    *batch_key_count = (uint32_t)total + OSSA_BATCH_KEY_SLACK;
    float *at = keys;
    for (uint32_t tl = 0; tl < timeline_count; tl++) {
        ossa_timeline *line = &timelines[tl];
        const ossa_track *slerped = tracks + line->first_track;
        line->slerp_key_offset = (uint32_t)(at - keys);
        at = interleave_keys(at, slerped, line->slerp_track_count, line->key_count, 4, values);
        line->lerp_key_offset = (uint32_t)(at - keys);
        at = interleave_keys(at, slerped + line->slerp_track_count, line->lerp_track_count,
                             line->key_count, 3, values);
    }
    *out = keys;
    return OSSA_OK;
}

/* clip->base_spans: the runs of nodes whose translation, rotation and scale are not all
 * animated (sampling overwrites the others whole, so their base need not be copied first). */
static ossa_result build_base_spans(build_state *st, ossa_clip *clip, const ossa_track *tracks,
                                    uint32_t track_count) {
    const ossa_rig *rig = st->rig;
    const unsigned trs =
        (1u << OSSA_PATH_TRANSLATION) | (1u << OSSA_PATH_ROTATION) | (1u << OSSA_PATH_SCALE);
    const ossa_allocator *allocator = &st->owned->allocator;
    uint8_t *animated = ossa_alloc_array(allocator, rig->node_count, 1);
    if (!animated) return OSSA_ERROR_OUT_OF_MEMORY;
    memset(animated, 0, rig->node_count);
    for (uint32_t t = 0; t < track_count; t++) {
        const ossa_track *track = &tracks[t];
        int node_trs = track->path == OSSA_PATH_TRANSLATION || track->path == OSSA_PATH_ROTATION ||
                       track->path == OSSA_PATH_SCALE;
        if (node_trs && track->node >= 0 && (uint32_t)track->node < rig->node_count)
            animated[track->node] |= (uint8_t)(1u << track->path);
    }
    uint32_t spans = 0;
    for (uint32_t n = 0; n < rig->node_count; n++)
        spans += (animated[n] & trs) != trs && (n == 0 || (animated[n - 1] & trs) == trs);
    uint32_t *pairs = ossa_owned_alloc(st->owned, 2 * (size_t)spans, sizeof(uint32_t));
    if (!pairs) {
        ossa_free(allocator, animated);
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    uint32_t at = 0;
    for (uint32_t n = 0; n < rig->node_count; n++) {
        if ((animated[n] & trs) == trs) continue;
        if (at == 0 || pairs[at - 2] + pairs[at - 1] != n) {
            pairs[at++] = n;
            pairs[at++] = 0;
        }
        pairs[at - 1]++;
    }
    ossa_free(allocator, animated);
    clip->base_spans = pairs;
    clip->base_span_count = spans;
    return OSSA_OK;
}

/* The node properties an animation's channels animate (into out, when not NULL); returns their
 * number. A channel with a target node gives one. A KHR_animation_pointer to a mesh's weights
 * gives each node that draws the mesh with the mesh's weights: its weights are the mesh's
 * default weights, which a node's own `weights` override (glTF), so nodes with their own, or
 * whose weights a channel of the same animation animates, keep those. */
static uint32_t list_targets(const ossa_document *doc, const ossa_animation *anim,
                             const clip_scratch *scratch, clip_target *out) {
    uint32_t count = 0;
    int mesh_weights = 0;
    for (uint32_t c = 0; c < anim->channel_count; c++) {
        const ossa_animation_channel *ch = &anim->channels[c];
        if (ch->node >= 0) {
            if (out) out[count] = (clip_target){c, ch->node, ch->path};
            count++;
            if (ch->path == OSSA_PATH_WEIGHTS) scratch->node_weights[ch->node] = 1;
        }
        if (ch->pointer_target == OSSA_POINTER_MESH_WEIGHTS) {
            scratch->mesh_channel[ch->pointer_index] = (int32_t)c; /* one per mesh (validated) */
            mesh_weights = 1;
        }
    }
    for (uint32_t n = 0; mesh_weights && n < doc->node_count; n++) {
        const ossa_node *node = &doc->nodes[n];
        if (node->mesh < 0 || scratch->mesh_channel[node->mesh] < 0 || node->weights ||
            scratch->node_weights[n])
            continue;
        if (out)
            out[count] = (clip_target){(uint32_t)scratch->mesh_channel[node->mesh], (int32_t)n,
                                       OSSA_PATH_WEIGHTS};
        count++;
    }
    for (uint32_t c = 0; c < anim->channel_count; c++) { /* the scratch back as it was */
        const ossa_animation_channel *ch = &anim->channels[c];
        if (ch->node >= 0) scratch->node_weights[ch->node] = 0;
        if (ch->pointer_target == OSSA_POINTER_MESH_WEIGHTS)
            scratch->mesh_channel[ch->pointer_index] = -1;
    }
    return count;
}

/* Rotation key components (values and tangents) below 2^-40 in magnitude become zero. A unit
 * quaternion holds about 24 bits, so they change no rotation; but exporters leave values such as
 * 1e-22 where they mean zero, and their products are subnormal floats, which Intel processors
 * compute through microcode assists: they made Fox's Run sample 1.5 times slower, and its compact
 * form 3 times, on an Intel Xeon. */
static void flush_tiny(float *values, uint64_t count) {
    for (uint64_t i = 0; i < count; i++)
        if (fabsf(values[i]) < 0x1p-40f) values[i] = 0.0f;
}

static ossa_result build_clip(build_state *st, const ossa_animation *anim, ossa_clip *clip,
                              clip_scratch *scratch, ossa_trs *base, float *base_weights,
                              uint8_t *node_paths) {
    const ossa_document *doc = st->doc;
    const ossa_rig *rig = st->rig;
    uint32_t target_count = list_targets(doc, anim, scratch, scratch->targets);
    uint64_t time_total = 0, value_total = 0;
    for (uint32_t i = 0; i < target_count; i++) {
        const ossa_animation_channel *ch = &anim->channels[scratch->targets[i].channel];
        const ossa_animation_sampler *s = &anim->samplers[ch->sampler];
        time_total += doc->accessors[s->input].count;
        value_total += doc->accessors[s->output].count * doc->accessors[s->output].components;
    }
    if (time_total > UINT32_MAX || value_total > UINT32_MAX)
        return fail(st, OSSA_ERROR_LIMIT, "animations", "too many keys in one animation");
    float *times = ossa_owned_alloc(st->owned, time_total, sizeof(float));
    float *values = ossa_owned_alloc(st->owned, value_total, sizeof(float));
    if (!times || !values) return OSSA_ERROR_OUT_OF_MEMORY;
    uint32_t times_used = 0, values_used = 0, track_count = 0, timeline_count = 0;
    uint32_t constant_count = 0;
    float start = 0.0f, end = 0.0f;
    int have_range = 0;
    char path[128];
    for (uint32_t i = 0; i < target_count; i++) {
        const clip_target *target = &scratch->targets[i];
        const ossa_animation_channel *ch = &anim->channels[target->channel];
        const ossa_animation_sampler *s = &anim->samplers[ch->sampler];
        const ossa_path ch_path = target->path;
        int32_t node = rig->rig_from_gltf[target->node];
        uint32_t comps = path_components(rig, node, ch_path);
        if (comps == 0) continue;
        const ossa_accessor *in = &doc->accessors[s->input];
        const ossa_accessor *out = &doc->accessors[s->output];
        uint32_t keys = (uint32_t)in->count;
        if (keys == 0) continue;
        node_paths[node] |= (uint8_t)(1u << ch_path);
        int cubic = s->interpolation == OSSA_INTERP_CUBICSPLINE;
        uint64_t floats = (uint64_t)keys * comps * (cubic ? 3 : 1);
        snprintf(path, sizeof path, "animations[%u].samplers[%d].output", st->animation,
                 ch->sampler);
        if (out->count * out->components != floats)
            return fail(st, OSSA_ERROR_INVALID, path,
                        "the output holds a different number of values than the keys need");
        float *key_times = times + times_used;
        float *key_values = values + values_used;
        ossa_result r = ossa_accessor_read_float(doc, s->input, 0, keys, key_times);
        if (r == OSSA_OK) r = ossa_accessor_read_float(doc, s->output, 0, out->count, key_values);
        if (r != OSSA_OK) return fail(st, r, path, "the keys cannot be read");
        if (!have_range || key_times[0] < start) start = key_times[0];
        if (!have_range || key_times[keys - 1] > end) end = key_times[keys - 1];
        have_range = 1;
        if (ch_path == OSSA_PATH_ROTATION) {
            uint32_t stride = cubic ? 12 : 4;
            for (uint32_t k = 0; k < keys; k++)
                xf_quat_normalize(key_values + k * stride + (cubic ? 4 : 0));
            flush_tiny(key_values, floats);
        }
        if (keys == 1 || is_constant(key_values, keys, comps, cubic)) {
            float *slot = (ch_path == OSSA_PATH_WEIGHTS ? base_weights : (float *)base) +
                          target_offset(rig, node, ch_path);
            memcpy(slot, key_values + (cubic ? comps : 0), comps * sizeof(float));
            constant_count++;
            continue;
        }
        uint32_t timeline = 0;
        while (timeline < timeline_count && scratch->timeline_input[timeline] != s->input &&
               (scratch->timelines[timeline].key_count != keys ||
                memcmp(times + scratch->timelines[timeline].time_offset, key_times,
                       keys * sizeof(float)) != 0))
            timeline++;
        if (timeline == timeline_count) {
            scratch->timelines[timeline].key_count = keys;
            scratch->timelines[timeline].time_offset = times_used;
            scratch->timeline_input[timeline] = s->input;
            times_used += keys;
            timeline_count++;
        }
        ossa_track *t = &scratch->tracks[track_count++];
        t->node = node;
        t->path = (uint8_t)ch_path;
        t->interpolation = (uint8_t)s->interpolation;
        t->components = (uint16_t)comps;
        t->timeline = timeline;
        t->value_offset = values_used;
        t->target_offset = target_offset(rig, node, ch_path);
        values_used += (uint32_t)floats;
    }
    /* Group tracks by timeline (stable), so a timeline's tracks are contiguous, LINEAR rotations
     * first (they are slerped four at a time), then LINEAR translations and scales. */
    ossa_timeline *timelines = ossa_owned_alloc(st->owned, timeline_count, sizeof *timelines);
    ossa_track *tracks = ossa_owned_alloc(st->owned, track_count, sizeof *tracks);
    if (!timelines || !tracks) return OSSA_ERROR_OUT_OF_MEMORY;
    uint32_t placed = 0;
    for (uint32_t tl = 0; tl < timeline_count; tl++) {
        timelines[tl] = scratch->timelines[tl];
        timelines[tl].first_track = placed;
        /* Pass 0: LINEAR rotations, pass 1: LINEAR translations and scales, pass 2: the rest. */
        for (int pass = 0; pass < 3; pass++) {
            for (uint32_t k = 0; k < track_count; k++) {
                const ossa_track *t = &scratch->tracks[k];
                int linear = t->interpolation == OSSA_INTERP_LINEAR;
                int kind = !linear                         ? 2
                           : t->path == OSSA_PATH_ROTATION ? 0
                           : t->path == OSSA_PATH_WEIGHTS  ? 2
                                                           : 1;
                if (t->timeline == tl && kind == pass) tracks[placed++] = *t;
            }
            uint32_t so_far = placed - timelines[tl].first_track;
            if (pass == 0) timelines[tl].slerp_track_count = so_far;
            if (pass == 1)
                timelines[tl].lerp_track_count = so_far - timelines[tl].slerp_track_count;
        }
        timelines[tl].track_count = placed - timelines[tl].first_track;
    }
    ossa_result r = build_base_spans(st, clip, tracks, track_count);
    if (r != OSSA_OK) return r;
    r = ossa_clip_build_float_tracks(doc, anim, st->owned, clip, &start, &end, &have_range);
    if (r != OSSA_OK) return r;
    uint32_t batch_key_count = 0;
    r = build_batch_keys(st, timelines, timeline_count, tracks, values, &clip->batch_keys,
                         &batch_key_count);
    if (r != OSSA_OK) return r;
    clip->start = start;
    clip->end = end;
    clip->duration = end - start;
    clip->timeline_count = timeline_count;
    clip->timelines = timelines;
    clip->track_count = track_count;
    clip->tracks = tracks;
    clip->constant_track_count = constant_count;
    clip->times = times;
    clip->values = values;
    clip->time_count = times_used;
    clip->value_count = values_used;
    clip->batch_key_count = batch_key_count;
    clip->bytes = ossa_clip_plain_bytes(clip, times_used, values_used, batch_key_count);
    return OSSA_OK;
}

size_t ossa_clip_plain_bytes(const ossa_clip *clip, uint32_t time_count, uint32_t value_count,
                             uint32_t batch_key_count) {
    const ossa_rig *rig = clip->rig;
    return sizeof *clip + clip->timeline_count * sizeof *clip->timelines +
           clip->track_count * sizeof *clip->tracks +
           ((size_t)time_count + value_count + batch_key_count) * sizeof(float) +
           rig->node_count * (sizeof *clip->base_local + 1) + rig->weight_total * sizeof(float) +
           (clip->compact ? 0 : 2 * sizeof(uint32_t) * clip->base_span_count) +
           ossa_clip_float_track_bytes(clip);
}

ossa_result ossa_clip_set_build(const ossa_document *doc, const ossa_rig *rig,
                                const ossa_allocator *allocator, ossa_clip_set **out,
                                ossa_error *error) {
    *out = NULL;
    ossa_owned owned;
    ossa_owned_init(&owned, allocator);
    clip_set_impl *impl = owned.allocator.alloc(owned.allocator.user, sizeof *impl);
    build_state st = {doc, rig, NULL, error, 0};
    if (!impl) return fail(&st, OSSA_ERROR_OUT_OF_MEMORY, "", "out of memory");
    memset(impl, 0, sizeof *impl);
    impl->owned = owned;
    st.owned = &impl->owned;
    clip_scratch scratch = {NULL,
                            ossa_owned_alloc(st.owned, doc->node_count, 1),
                            ossa_owned_alloc(st.owned, doc->mesh_count, sizeof(int32_t)),
                            NULL,
                            NULL,
                            NULL};
    uint32_t max_channels = 0;
    for (uint32_t m = 0; scratch.mesh_channel && m < doc->mesh_count; m++)
        scratch.mesh_channel[m] = -1;
    for (uint32_t a = 0; scratch.node_weights && scratch.mesh_channel && a < doc->animation_count;
         a++) {
        uint32_t targets = list_targets(doc, &doc->animations[a], &scratch, NULL);
        if (targets > max_channels) max_channels = targets;
    }
    ossa_clip *clips = ossa_owned_alloc(st.owned, doc->animation_count, sizeof *clips);
    scratch.targets = ossa_owned_alloc(st.owned, max_channels, sizeof(clip_target));
    scratch.tracks = ossa_owned_alloc(st.owned, max_channels, sizeof(ossa_track));
    scratch.timelines = ossa_owned_alloc(st.owned, max_channels, sizeof(ossa_timeline));
    scratch.timeline_input = ossa_owned_alloc(st.owned, max_channels, sizeof(int32_t));
    ossa_result r = (clips && scratch.targets && scratch.node_weights && scratch.mesh_channel &&
                     scratch.tracks && scratch.timelines && scratch.timeline_input)
                        ? OSSA_OK
                        : OSSA_ERROR_OUT_OF_MEMORY;
    int failed = 0;
    for (uint32_t a = 0; r == OSSA_OK && a < doc->animation_count; a++) {
        st.animation = a;
        ossa_clip *clip = &clips[a];
        clip->rig = rig;
        ossa_trs *base = ossa_owned_alloc(st.owned, rig->node_count, sizeof *base);
        float *base_weights = ossa_owned_alloc(st.owned, rig->weight_total, sizeof(float));
        uint8_t *node_paths = ossa_owned_alloc(st.owned, rig->node_count, 1);
        if (!base || !base_weights || !node_paths) {
            r = OSSA_ERROR_OUT_OF_MEMORY;
            break;
        }
        memcpy(base, rig->rest, rig->node_count * sizeof *base);
        memcpy(base_weights, rig->rest_weights, rig->weight_total * sizeof(float));
        clip->base_local = base;
        clip->base_weights = base_weights;
        memset(node_paths, 0, rig->node_count);
        clip->node_paths = node_paths;
        clip->name = ossa_owned_strdup(st.owned, doc->animations[a].name, &failed);
        r = failed ? OSSA_ERROR_OUT_OF_MEMORY
                   : build_clip(&st, &doc->animations[a], clip, &scratch, base, base_weights,
                                node_paths);
    }
    if (r != OSSA_OK) {
        if (r == OSSA_ERROR_OUT_OF_MEMORY) fail(&st, r, "", "out of memory");
        ossa_clip_set_free(&impl->set);
        return r;
    }
    impl->set.clip_count = doc->animation_count;
    impl->set.clips = clips;
    *out = &impl->set;
    return OSSA_OK;
}

void ossa_clip_set_free(ossa_clip_set *clips) {
    if (!clips) return;
    clip_set_impl *impl = (clip_set_impl *)clips;
    ossa_allocator allocator = impl->owned.allocator;
    ossa_owned_release(&impl->owned);
    allocator.free(allocator.user, impl);
}

uint32_t ossa_clip_set_count(const ossa_clip_set *clips) {
    return clips->clip_count;
}

const ossa_clip *ossa_clip_set_clip(const ossa_clip_set *clips, uint32_t index) {
    return index < clips->clip_count ? &clips->clips[index] : NULL;
}

const ossa_rig *ossa_clip_rig(const ossa_clip *clip) {
    return clip->rig;
}

const char *ossa_clip_name(const ossa_clip *clip) {
    return clip->name;
}
float ossa_clip_start(const ossa_clip *clip) {
    return clip->start;
}
float ossa_clip_end(const ossa_clip *clip) {
    return clip->end;
}
float ossa_clip_duration(const ossa_clip *clip) {
    return clip->duration;
}
uint32_t ossa_clip_track_count(const ossa_clip *clip) {
    return clip->track_count;
}
uint32_t ossa_clip_constant_track_count(const ossa_clip *clip) {
    return clip->constant_track_count;
}
