/* The stateful player (mix.h): layers played, cross-faded and synchronised on a clock that
 * advances frame by frame, in one caller block. Fades are linear in the player's clock, so over
 * a frame the weights are linear between the fade ends inside it, and each sync group's phase
 * advances by the exact integral of dt / D(t) over those pieces (ossa_mix_ratio_integral). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mix/mix_internal.h"
#include "motion/motion_internal.h"

typedef struct player_layer {
    const ossa_clip *clip;
    double time; /* unsynced: clip time before wrapping; advances by speed * dt */
    double speed;
    ossa_mix_wrap wrap;
    ossa_mix_mode mode;
    ossa_mix_reference reference;
    double reference_time;
    const float *mask;
    uint32_t sync;                         /* 0: none */
    double from, to, fade_start, fade_end; /* weight from -> to over [fade_start, fade_end] */
    uint32_t slot;                         /* its cursor: cursors + slot * cursor_stride */
    double position; /* root motion: unwrapped clip position at the start of a frame */
} player_layer;

typedef struct player_group {
    uint32_t id; /* 0: free */
    double phase;
    double speed;  /* of the layer that started the group, as the first layer of a mix's group */
    double cycles; /* the phase unwrapped (whole cycles included), for root motion */
} player_group;

struct ossa_mix_player {
    const ossa_model *model;
    const ossa_rig *rig;
    float threshold;
    uint32_t max_layers, layer_count, cursor_stride;
    double clock;
    player_layer *layers; /* max_layers */
    player_group *groups; /* max_layers */
    double *cuts;         /* 2 * max_layers + 2: the fade ends inside a frame */
    uint32_t *cursors;    /* max_layers * cursor_stride */
    ossa_pose layer, reference;
    float *sums;
    int has_motion;
    motion_root motion;
    ossa_motion pending; /* root motion since the last take */
};

static ossa_result fail(ossa_error *error, const char *fmt, ...) {
    if (!error) return OSSA_ERROR_ARGUMENT;
    memset(error, 0, sizeof *error);
    error->code = OSSA_ERROR_ARGUMENT;
    va_list args;
    va_start(args, fmt);
    vsnprintf(error->message, sizeof error->message, fmt, args);
    va_end(args);
    return OSSA_ERROR_ARGUMENT;
}

static size_t round16(size_t bytes) {
    return (bytes + 15) & ~(size_t)15;
}

static uint32_t max_layers_of(const ossa_mix_player_desc *desc) {
    return desc && desc->max_layers ? desc->max_layers : 8;
}

static uint32_t cursor_stride_of(const ossa_model *model) {
    uint32_t stride = 0;
    for (uint32_t k = 0; k < ossa_model_clip_count(model); k++) {
        uint32_t n = ossa_cursor_size(ossa_model_clip(model, k));
        stride = n > stride ? n : stride;
    }
    return stride;
}

/* Lays out the block; with memory NULL only measures it. */
static size_t layout(const ossa_model *model, uint32_t max_layers, char *memory,
                     ossa_mix_player *p) {
    const ossa_rig *rig = ossa_model_rig(model);
    uint32_t stride = cursor_stride_of(model);
    size_t parts[] = {sizeof(ossa_mix_player),
                      max_layers * sizeof(player_layer),
                      max_layers * sizeof(player_group),
                      (2 * (size_t)max_layers + 2) * sizeof(double),
                      (size_t)max_layers * stride * sizeof(uint32_t),
                      rig->node_count * sizeof(ossa_trs),
                      rig->weight_total * sizeof(float),
                      rig->node_count * sizeof(ossa_trs),
                      rig->weight_total * sizeof(float),
                      rig->node_count * sizeof(float)};
    void *at[10];
    size_t offset = 0;
    for (int i = 0; i < 10; i++) {
        at[i] = memory ? memory + offset : NULL;
        offset += round16(parts[i]);
    }
    if (p) {
        p->cursor_stride = stride;
        p->layers = at[1], p->groups = at[2], p->cuts = at[3], p->cursors = at[4];
        p->layer.local = at[5], p->layer.weights = at[6];
        p->reference.local = at[7], p->reference.weights = at[8];
        p->sums = at[9];
    }
    return offset;
}

size_t ossa_mix_player_size(const ossa_model *model, const ossa_mix_player_desc *desc) {
    return layout(model, max_layers_of(desc), NULL, NULL);
}

ossa_result ossa_mix_player_init(const ossa_model *model, const ossa_mix_player_desc *desc,
                                 void *memory, size_t size, ossa_mix_player **out,
                                 ossa_error *error) {
    if (out) *out = NULL;
    if (!model || !out) return fail(error, "model and out must not be NULL");
    uint32_t max_layers = max_layers_of(desc);
    size_t need = layout(model, max_layers, NULL, NULL);
    if (!memory || ((uintptr_t)memory & 15) || size < need)
        return fail(error, "a player needs %zu bytes of 16-byte aligned memory (given %zu at %p)",
                    need, size, memory);
    float threshold = desc && desc->has_threshold ? desc->threshold : 0.1f;
    if (!ossa_mix_valid_factor(threshold))
        return fail(error, "threshold must be >= 0 and at most 1e6");
    memset(memory, 0, need);
    ossa_mix_player *p = memory;
    p->model = model;
    p->rig = ossa_model_rig(model);
    p->threshold = threshold;
    p->max_layers = max_layers;
    layout(model, max_layers, memory, p);
    ossa_motion_identity(&p->pending);
    *out = p;
    return OSSA_OK;
}

static double layer_weight(const player_layer *l, double clock) {
    if (clock <= l->fade_start) return l->from;
    if (clock >= l->fade_end) return l->to;
    return l->from + (l->to - l->from) * (clock - l->fade_start) / (l->fade_end - l->fade_start);
}

static player_group *find_group(ossa_mix_player *p, uint32_t id) {
    for (uint32_t g = 0; g < p->max_layers; g++)
        if (p->groups[g].id == id) return &p->groups[g];
    return NULL;
}

static double layer_time(const ossa_mix_player *p, const player_layer *l) {
    double start = ossa_clip_start(l->clip), duration = ossa_clip_duration(l->clip);
    if (l->sync) {
        for (uint32_t g = 0; g < p->max_layers; g++)
            if (p->groups[g].id == l->sync) return start + p->groups[g].phase * duration;
    }
    return ossa_mix_wrap_time(l->time, start, duration, l->wrap);
}

/* Removes the layers whose fade ended at 0, and the groups left without a layer. */
static void remove_finished(ossa_mix_player *p) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->layer_count; i++) {
        const player_layer *l = &p->layers[i];
        if (p->clock >= l->fade_end && l->to == 0) continue;
        p->layers[kept++] = *l;
    }
    p->layer_count = kept;
    for (uint32_t g = 0; g < p->max_layers; g++) {
        int used = 0;
        for (uint32_t i = 0; i < p->layer_count && !used; i++)
            used = p->layers[i].sync == p->groups[g].id;
        if (!used) p->groups[g].id = 0;
    }
}

static void fade_to(player_layer *l, double clock, double target, double fade) {
    l->from = layer_weight(l, clock);
    l->to = target;
    l->fade_start = clock;
    l->fade_end = clock + fade;
}

ossa_result ossa_mix_player_play(ossa_mix_player *p, const ossa_clip *clip,
                                 const ossa_mix_play_desc *desc, ossa_error *error) {
    ossa_mix_play_desc defaults = {0};
    if (!desc) desc = &defaults;
    if (!p) return fail(error, "player must not be NULL");
    if (!clip || ossa_clip_rig(clip) != p->rig)
        return fail(error, "the clip is not a clip of the player's model");
    double weight = desc->has_weight ? desc->weight : 1, speed = desc->has_speed ? desc->speed : 1;
    if (!isfinite(desc->fade) || desc->fade < 0 || !ossa_mix_valid_factor(weight) ||
        !isfinite(speed) || !isfinite(desc->time) || !isfinite(desc->reference_time))
        return fail(error, "fade and weight must be finite and >= 0 (weight at most 1e6), speed "
                           "and times finite");
    if ((unsigned)desc->wrap > OSSA_MIX_PING_PONG || (unsigned)desc->mode > OSSA_MIX_ADDITIVE ||
        (unsigned)desc->reference > OSSA_MIX_REFERENCE_TIME)
        return fail(error, "unknown wrap, mode or reference");
    if (desc->sync && !(ossa_clip_duration(clip) > 0))
        return fail(error, "a clip of zero duration cannot be synchronised");
    if (desc->mode == OSSA_MIX_NORMAL) { /* cross-fade: the other normal layers fade out */
        for (uint32_t i = 0; i < p->layer_count; i++)
            if (p->layers[i].mode == OSSA_MIX_NORMAL)
                fade_to(&p->layers[i], p->clock, 0, desc->fade);
        remove_finished(p);
    }
    if (p->layer_count == p->max_layers)
        return fail(error, "all %u layers of the player are in use", p->max_layers);
    /* A cursor slot no layer uses. */
    uint32_t slot = 0;
    for (int taken = 1; taken; slot += taken) {
        taken = 0;
        for (uint32_t i = 0; i < p->layer_count; i++)
            taken |= p->layers[i].slot == slot;
    }
    double start = ossa_clip_start(clip);
    if (desc->sync && !find_group(p, desc->sync)) {
        player_group *g = find_group(p, 0); /* there is a free one: groups <= layers */
        double cycles = desc->time / ossa_clip_duration(clip);
        g->id = desc->sync;
        g->phase = cycles - floor(cycles);
        g->cycles = g->phase;
        g->speed = speed;
    }
    player_layer *l = &p->layers[p->layer_count++];
    *l = (player_layer){.clip = clip,
                        .time = start + desc->time,
                        .speed = speed,
                        .wrap = desc->wrap,
                        .mode = desc->mode,
                        .reference = desc->reference,
                        .reference_time = desc->reference_time,
                        .mask = desc->mask,
                        .sync = desc->sync,
                        .slot = slot};
    l->from = desc->fade > 0 ? 0 : weight;
    l->to = weight;
    l->fade_start = p->clock;
    l->fade_end = p->clock + desc->fade;
    return OSSA_OK;
}

void ossa_mix_player_stop(ossa_mix_player *p, double fade) {
    if (!p) return;
    if (!(fade > 0)) fade = 0;
    for (uint32_t i = 0; i < p->layer_count; i++)
        fade_to(&p->layers[i], p->clock, 0, fade);
    remove_finished(p);
}

/* Sums W and N of a group at a clock (see mix.h: D = N / W). */
static void group_sums(const ossa_mix_player *p, uint32_t id, double clock, double *w, double *n) {
    *w = *n = 0;
    for (uint32_t i = 0; i < p->layer_count; i++) {
        const player_layer *l = &p->layers[i];
        if (l->sync != id) continue;
        double wk = layer_weight(l, clock);
        *w += wk;
        *n += wk * (double)ossa_clip_duration(l->clip);
    }
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The phase of one group over [clock, clock + dt]: pieces between the fade ends inside. */
static void advance_group(ossa_mix_player *p, player_group *g, double dt) {
    double t0 = p->clock, t1 = p->clock + dt;
    uint32_t n = 0;
    p->cuts[n++] = t0;
    for (uint32_t i = 0; i < p->layer_count; i++) {
        const player_layer *l = &p->layers[i];
        if (l->sync != g->id) continue;
        if (l->fade_start > t0 && l->fade_start < t1) p->cuts[n++] = l->fade_start;
        if (l->fade_end > t0 && l->fade_end < t1) p->cuts[n++] = l->fade_end;
    }
    p->cuts[n++] = t1;
    /* Insertion sort: a handful of entries, no library call that might allocate. */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && compare_doubles(&p->cuts[j - 1], &p->cuts[j]) > 0; j--) {
            double swap = p->cuts[j];
            p->cuts[j] = p->cuts[j - 1];
            p->cuts[j - 1] = swap;
        }
    double integral = 0, wa, na, wb, nb;
    group_sums(p, g->id, p->cuts[0], &wa, &na);
    for (uint32_t i = 1; i < n; i++) {
        group_sums(p, g->id, p->cuts[i], &wb, &nb);
        integral += ossa_mix_ratio_integral(wa, na, wb, nb, p->cuts[i] - p->cuts[i - 1]);
        wa = wb, na = nb;
    }
    g->cycles += g->speed * integral;
    double phase = g->phase + g->speed * integral;
    phase -= floor(phase);
    g->phase = phase < 1 ? phase : 0.0;
}

/* The unwrapped clip position of a layer (synced layers: their group's cycles). */
static double layer_position(const ossa_mix_player *p, const player_layer *l) {
    if (!l->sync) return l->time;
    const player_group *g = find_group((ossa_mix_player *)p, l->sync);
    return ossa_clip_start(l->clip) + g->cycles * ossa_clip_duration(l->clip);
}

/* The frame's mixed root motion (motion.h), from the positions before and after it and the
 * weights at its middle, composed onto the pending motion. */
static void advance_motion(ossa_mix_player *p, double dt) {
    motion_blend blend;
    ossa_motion_blend_begin(&blend);
    double middle = p->clock + 0.5 * dt;
    for (uint32_t i = 0; i < p->layer_count; i++) {
        const player_layer *l = &p->layers[i];
        double e = layer_weight(l, middle) * (l->mask ? l->mask[p->motion.node] : 1.0f);
        if (l->mode != OSSA_MIX_NORMAL || !(e > OSSA_MIX_MIN_WEIGHT)) continue;
        ossa_motion_blend_add(&blend, &p->motion, l->clip, l->sync ? OSSA_MIX_LOOP : l->wrap,
                              l->position, layer_position(p, l), e);
    }
    ossa_motion delta;
    ossa_motion_blend_finish(&blend, p->threshold, &delta);
    ossa_motion_compose(&p->pending, &delta, &p->pending);
}

void ossa_mix_player_advance(ossa_mix_player *p, double dt) {
    if (!p || !(dt > 0) || !isfinite(dt)) return;
    for (uint32_t i = 0; p->has_motion && i < p->layer_count; i++)
        p->layers[i].position = layer_position(p, &p->layers[i]);
    for (uint32_t g = 0; g < p->max_layers; g++)
        if (p->groups[g].id) advance_group(p, &p->groups[g], dt);
    for (uint32_t i = 0; i < p->layer_count; i++)
        p->layers[i].time += p->layers[i].speed * dt;
    if (p->has_motion) advance_motion(p, dt);
    p->clock += dt;
    remove_finished(p);
}

ossa_result ossa_mix_player_set_root_motion(ossa_mix_player *p, const ossa_root_motion_desc *desc,
                                            ossa_error *error) {
    if (!p) return fail(error, "player must not be NULL");
    motion_root root;
    if (desc) {
        ossa_result r = ossa_motion_root_resolve(p->rig, desc, &root, error);
        if (r != OSSA_OK) return r;
        p->motion = root;
    }
    p->has_motion = desc != NULL;
    ossa_motion_identity(&p->pending);
    return OSSA_OK;
}

void ossa_mix_player_take_motion(ossa_mix_player *p, ossa_motion *delta) {
    if (!p) {
        ossa_motion_identity(delta);
        return;
    }
    if (p->has_motion)
        *delta = p->pending;
    else
        ossa_motion_identity(delta);
    ossa_motion_identity(&p->pending);
}

static void sample_layer(ossa_mix_player *p, const player_layer *l) {
    ossa_cursor cursor = {p->cursors + (size_t)l->slot * p->cursor_stride, p->cursor_stride};
    /* Cannot fail: play checked the clip's rig, the cursor holds any clip of the model. */
    (void)ossa_clip_sample(p->rig, l->clip, (float)layer_time(p, l), &cursor, &p->layer);
}

ossa_result ossa_mix_player_apply(ossa_mix_player *p, ossa_character *character,
                                  ossa_error *error) {
    if (!p || !character) return fail(error, "player and character must not be NULL");
    if (ossa_character_model(character) != p->model)
        return fail(error, "the character is not of the player's model");
    const ossa_rig *rig = p->rig;
    ossa_pose *pose = ossa_character_pose(character);
    ossa_mix_blend_begin(rig, p->sums, pose);
    for (uint32_t i = 0; i < p->layer_count; i++) {
        const player_layer *l = &p->layers[i];
        double w = layer_weight(l, p->clock);
        if (l->mode != OSSA_MIX_NORMAL || !(w > 0)) continue;
        sample_layer(p, l);
        ossa_mix_blend_normal(rig, &p->layer, w, l->mask, p->sums, pose);
    }
    ossa_mix_blend_finish(rig, p->threshold, p->sums, pose);
    for (uint32_t i = 0; i < p->layer_count; i++) {
        const player_layer *l = &p->layers[i];
        double w = layer_weight(l, p->clock);
        if (l->mode != OSSA_MIX_ADDITIVE || !(w > 0)) continue;
        sample_layer(p, l);
        if (l->reference == OSSA_MIX_REFERENCE_REST)
            ossa_pose_set_rest(rig, &p->reference);
        else
            (void)ossa_clip_sample(rig, l->clip,
                                   l->reference == OSSA_MIX_REFERENCE_TIME
                                       ? (float)l->reference_time
                                       : ossa_clip_start(l->clip),
                                   NULL, &p->reference);
        ossa_mix_blend_additive(rig, &p->layer, &p->reference, w, l->mask, pose);
    }
    if (p->has_motion) { /* the root keeps its in-place part; the caller moves it */
        ossa_trs *root = &pose->local[p->motion.node];
        ossa_motion_root_split(&p->motion, root, NULL, root);
    }
    ossa_character_finish(character);
    return OSSA_OK;
}

double ossa_mix_player_clock(const ossa_mix_player *p) {
    return p->clock;
}

uint32_t ossa_mix_player_layer_count(const ossa_mix_player *p) {
    return p->layer_count;
}

const ossa_clip *ossa_mix_player_layer_clip(const ossa_mix_player *p, uint32_t layer) {
    return layer < p->layer_count ? p->layers[layer].clip : NULL;
}

double ossa_mix_player_layer_weight(const ossa_mix_player *p, uint32_t layer) {
    return layer < p->layer_count ? layer_weight(&p->layers[layer], p->clock) : 0;
}

double ossa_mix_player_layer_time(const ossa_mix_player *p, uint32_t layer) {
    return layer < p->layer_count ? layer_time(p, &p->layers[layer]) : 0;
}
