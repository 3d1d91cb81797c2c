/* Preparing a mix (ossa_mix_create): checks, masks per rig node, additive references, sync
 * groups with their phase integral tabulated at the weight points. Not per frame. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix/mix_internal.h"

static ossa_result fail(ossa_error *error, ossa_result code, const char *path, const char *fmt,
                        ...) {
    if (!error) return code;
    memset(error, 0, sizeof *error);
    error->code = code;
    snprintf(error->path, sizeof error->path, "%s", path);
    va_list args;
    va_start(args, fmt);
    vsnprintf(error->message, sizeof error->message, fmt, args);
    va_end(args);
    return code;
}

static ossa_result out_of_memory(ossa_error *error) {
    return fail(error, OSSA_ERROR_OUT_OF_MEMORY, "", "out of memory");
}

ossa_result ossa_mix_mask_resolve(const ossa_rig *rig, const ossa_mix_mask *mask, float *out,
                                  ossa_error *error) {
    char path[OSSA_PATH_MAX];
    if (!ossa_mix_valid_factor(mask->default_value))
        return fail(error, OSSA_ERROR_ARGUMENT, "default_value",
                    "a mask value must be finite, >= 0 and at most 1e6");
    if (mask->entry_count && !mask->entries)
        return fail(error, OSSA_ERROR_ARGUMENT, "entries", "entry_count is %u but entries is NULL",
                    mask->entry_count);
    /* First pass: entries (NaN marks the nodes without one), checked. */
    for (uint32_t j = 0; j < rig->node_count; j++)
        out[j] = NAN;
    for (uint32_t e = 0; e < mask->entry_count; e++) {
        const ossa_mix_mask_entry *entry = &mask->entries[e];
        snprintf(path, sizeof path, "entries[%u]", e);
        const char *problem = NULL;
        if (entry->node >= rig->node_count)
            problem = "names no node of the model";
        else if (!ossa_mix_valid_factor(entry->value))
            problem = "a mask value must be finite, >= 0 and at most 1e6";
        else if (!isnan(out[rig->rig_from_gltf[entry->node]]))
            problem = "gives a value to a node that already has one";
        if (problem)
            return fail(error, OSSA_ERROR_ARGUMENT, path, "node %u: %s", entry->node, problem);
        out[rig->rig_from_gltf[entry->node]] = entry->value;
    }
    for (uint32_t j = 0; j < rig->node_count; j++) /* parents come first */
        if (isnan(out[j])) out[j] = rig->parent[j] >= 0 ? out[rig->parent[j]] : mask->default_value;
    return OSSA_OK;
}

/* A layer's mask per rig node; errors carry the layer's path. */
static ossa_result resolve_mask(const ossa_rig *rig, const ossa_mix_mask *mask, uint32_t index,
                                ossa_owned *owned, const float **out, ossa_error *error) {
    float *values = ossa_owned_alloc(owned, rig->node_count, sizeof *values);
    if (!values) return out_of_memory(error);
    ossa_result r = ossa_mix_mask_resolve(rig, mask, values, error);
    if (r != OSSA_OK && error) {
        char path[OSSA_PATH_MAX + 32];
        int n = snprintf(path, sizeof path, "layers[%u].mask.%s", index, error->path);
        size_t length = n < 0                            ? 0
                        : (size_t)n < sizeof error->path ? (size_t)n
                                                         : sizeof error->path - 1;
        memcpy(error->path, path, length);
        error->path[length] = '\0';
    }
    *out = values;
    return r;
}

static ossa_result copy_weights(const ossa_mix_layer *in, uint32_t index, mix_layer *out,
                                ossa_owned *owned, ossa_error *error) {
    char path[OSSA_PATH_MAX];
    if (in->weight_count && !in->weights) {
        snprintf(path, sizeof path, "layers[%u].weights", index);
        return fail(error, OSSA_ERROR_ARGUMENT, path, "weight_count is %u but weights is NULL",
                    in->weight_count);
    }
    for (uint32_t p = 0; p < in->weight_count; p++) {
        snprintf(path, sizeof path, "layers[%u].weights[%u]", index, p);
        const ossa_mix_point *point = &in->weights[p];
        if (!isfinite(point->time))
            return fail(error, OSSA_ERROR_ARGUMENT, path, "the time must be finite");
        if (p && !(point->time > in->weights[p - 1].time))
            return fail(error, OSSA_ERROR_ARGUMENT, path,
                        "times must increase strictly (%g after %g)", point->time,
                        in->weights[p - 1].time);
        if (!ossa_mix_valid_factor(point->weight))
            return fail(error, OSSA_ERROR_ARGUMENT, path,
                        "a weight must be finite, >= 0 and at most 1e6");
    }
    ossa_mix_point *points = ossa_owned_alloc(owned, in->weight_count, sizeof *points);
    if (!points) return out_of_memory(error);
    if (in->weight_count) memcpy(points, in->weights, in->weight_count * sizeof *points);
    out->weights = points;
    out->weight_count = in->weight_count;
    return OSSA_OK;
}

/* The reference pose of an additive layer (none for the rest pose). */
static ossa_result sample_reference(const ossa_rig *rig, const ossa_mix_layer *in, uint32_t index,
                                    mix_layer *out, ossa_owned *owned, ossa_error *error) {
    char path[OSSA_PATH_MAX];
    snprintf(path, sizeof path, "layers[%u].reference", index);
    if ((unsigned)in->reference > OSSA_MIX_REFERENCE_TIME)
        return fail(error, OSSA_ERROR_ARGUMENT, path, "unknown reference %d", (int)in->reference);
    if (in->mode != OSSA_MIX_ADDITIVE || in->reference == OSSA_MIX_REFERENCE_REST) return OSSA_OK;
    double time = ossa_clip_start(in->clip);
    if (in->reference == OSSA_MIX_REFERENCE_TIME) {
        if (!isfinite(in->reference_time))
            return fail(error, OSSA_ERROR_ARGUMENT, path, "the reference time must be finite");
        time = in->reference_time;
    }
    ossa_pose pose = {ossa_owned_alloc(owned, rig->node_count, sizeof(ossa_trs)),
                      ossa_owned_alloc(owned, rig->weight_total, sizeof(float))};
    if (!pose.local || !pose.weights) return out_of_memory(error);
    (void)ossa_clip_sample(rig, in->clip, (float)time, NULL, &pose); /* clip of this rig */
    out->reference_local = pose.local;
    out->reference_weights = pose.weights;
    return OSSA_OK;
}

static ossa_result copy_layer(const ossa_rig *rig, const ossa_mix_layer *in, uint32_t index,
                              mix_layer *out, ossa_owned *owned, ossa_error *error) {
    char path[OSSA_PATH_MAX];
    snprintf(path, sizeof path, "layers[%u]", index);
    if (!in->clip) return fail(error, OSSA_ERROR_ARGUMENT, path, "the layer has no clip");
    if (ossa_clip_rig(in->clip) != rig)
        return fail(error, OSSA_ERROR_ARGUMENT, path, "the clip was built for another rig");
    if ((unsigned)in->wrap > OSSA_MIX_PING_PONG)
        return fail(error, OSSA_ERROR_ARGUMENT, path, "unknown wrap %d", (int)in->wrap);
    if ((unsigned)in->mode > OSSA_MIX_ADDITIVE)
        return fail(error, OSSA_ERROR_ARGUMENT, path, "unknown mode %d", (int)in->mode);
    out->clip = in->clip;
    out->speed = in->has_speed ? in->speed : 1.0;
    out->offset = in->offset;
    if (!isfinite(out->speed) || !isfinite(out->offset))
        return fail(error, OSSA_ERROR_ARGUMENT, path, "speed and offset must be finite");
    out->wrap = in->wrap;
    out->mode = in->mode;
    out->sync = -1;
    ossa_result r = copy_weights(in, index, out, owned, error);
    if (r == OSSA_OK && in->mask) r = resolve_mask(rig, in->mask, index, owned, &out->mask, error);
    if (r == OSSA_OK) r = sample_reference(rig, in, index, out, owned, error);
    return r;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One sync group: members, the sorted union of their weight points, the integral table. */
static ossa_result build_group(ossa_mix *mix, const ossa_mix_desc *desc, uint32_t first,
                               int32_t group_index, ossa_error *error) {
    mix_sync_group *group = &mix->groups[group_index];
    const char *name = desc->layers[first].sync;
    uint32_t members = 0, points = 0;
    for (uint32_t i = first; i < desc->layer_count; i++)
        if (desc->layers[i].sync && !strcmp(desc->layers[i].sync, name))
            members++, points += desc->layers[i].weight_count;
    uint32_t *layers = ossa_owned_alloc(&mix->owned, members, sizeof *layers);
    double *breaks = ossa_owned_alloc(&mix->owned, points, sizeof *breaks);
    double *integral = ossa_owned_alloc(&mix->owned, points, sizeof *integral);
    if (!layers || !breaks || !integral) return out_of_memory(error);
    members = points = 0;
    for (uint32_t i = first; i < desc->layer_count; i++) {
        if (!desc->layers[i].sync || strcmp(desc->layers[i].sync, name)) continue;
        if (!(ossa_clip_duration(desc->layers[i].clip) > 0)) {
            char path[OSSA_PATH_MAX];
            snprintf(path, sizeof path, "layers[%u].sync", i);
            return fail(error, OSSA_ERROR_ARGUMENT, path,
                        "a clip of zero duration cannot be synchronised (group \"%s\")", name);
        }
        mix->layers[i].sync = group_index;
        layers[members++] = i;
        for (uint32_t p = 0; p < desc->layers[i].weight_count; p++)
            breaks[points++] = desc->layers[i].weights[p].time;
    }
    qsort(breaks, points, sizeof *breaks, compare_doubles);
    uint32_t unique = 0;
    for (uint32_t p = 0; p < points; p++)
        if (unique == 0 || breaks[p] != breaks[unique - 1]) breaks[unique++] = breaks[p];
    group->first_layer = first;
    group->layer_count = members;
    group->layers = layers;
    group->break_count = unique;
    group->breaks = breaks;
    group->integral = integral;
    for (uint32_t p = 0; p < unique; p++)
        integral[p] =
            p ? integral[p - 1] + ossa_mix_piece_integral(mix, group, breaks[p - 1], breaks[p])
              : 0.0;
    group->integral_at_zero = 0;
    group->integral_at_zero = ossa_mix_group_integral(mix, group, 0.0);
    return OSSA_OK;
}

static ossa_result build_groups(ossa_mix *mix, const ossa_mix_desc *desc, ossa_error *error) {
    int32_t count = 0;
    for (uint32_t i = 0; i < desc->layer_count; i++) {
        const char *name = desc->layers[i].sync;
        if (!name || !*name || mix->layers[i].sync >= 0) continue;
        if (count == 0) {
            mix->groups = ossa_owned_alloc(&mix->owned, desc->layer_count, sizeof *mix->groups);
            if (!mix->groups) return out_of_memory(error);
        }
        ossa_result r = build_group(mix, desc, i, count++, error);
        if (r != OSSA_OK) return r;
    }
    mix->group_count = (uint32_t)count;
    return OSSA_OK;
}

ossa_result ossa_mix_create(const ossa_rig *rig, const ossa_mix_desc *desc, ossa_mix **out,
                            ossa_error *error) {
    if (out) *out = NULL;
    if (!rig || !desc || !out)
        return fail(error, OSSA_ERROR_ARGUMENT, "", "rig, desc and out must not be NULL");
    if (desc->layer_count && !desc->layers)
        return fail(error, OSSA_ERROR_ARGUMENT, "layers", "layer_count is %u but layers is NULL",
                    desc->layer_count);
    float threshold = desc->has_threshold ? desc->threshold : 0.1f;
    if (!ossa_mix_valid_factor(threshold))
        return fail(error, OSSA_ERROR_ARGUMENT, "threshold",
                    "must be finite, >= 0 and at most 1e6");
    ossa_owned owned;
    ossa_owned_init(&owned, &desc->allocator);
    ossa_mix *mix = owned.allocator.alloc(owned.allocator.user, sizeof *mix);
    if (!mix) return out_of_memory(error);
    memset(mix, 0, sizeof *mix);
    mix->owned = owned;
    mix->rig = rig;
    mix->threshold = threshold;
    mix->layer_count = desc->layer_count;
    mix->layers = ossa_owned_alloc(&mix->owned, desc->layer_count, sizeof *mix->layers);
    ossa_result r = mix->layers ? OSSA_OK : out_of_memory(error);
    for (uint32_t i = 0; r == OSSA_OK && i < desc->layer_count; i++) {
        r = copy_layer(rig, &desc->layers[i], i, &mix->layers[i], &mix->owned, error);
        mix->layers[i].cursor_offset = mix->cursor_total;
        if (r == OSSA_OK) mix->cursor_total += ossa_cursor_size(desc->layers[i].clip);
    }
    if (r == OSSA_OK) r = build_groups(mix, desc, error);
    if (r != OSSA_OK) {
        ossa_mix_free(mix);
        return r;
    }
    *out = mix;
    return OSSA_OK;
}

void ossa_mix_free(ossa_mix *mix) {
    if (!mix) return;
    ossa_owned owned = mix->owned;
    ossa_owned_release(&owned);
    owned.allocator.free(owned.allocator.user, mix);
}

uint32_t ossa_mix_layer_count(const ossa_mix *mix) {
    return mix->layer_count;
}
