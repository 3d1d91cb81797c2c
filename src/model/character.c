/* Characters (model.h): one block per character, laid out by the model, updated without
 * allocating. */
#include <stdint.h>
#include <string.h>

#include "clip/clip_internal.h"
#include "model/model_internal.h"
#include "ossa/palette.h"

#define CHARACTER_ALIGNMENT 64

struct ossa_character {
    const ossa_model *model;
    const ossa_clip *cursor_clip; /* the clip the cursor's keys belong to (NULL: none) */
    int owned;                    /* 1: allocated by ossa_character_create */
    ossa_pose pose;
    ossa_cursor cursor;
    float *world, *palettes, *dual_quats;
    float *materials; /* MATERIAL_STATE_FLOATS per material, NULL when none is animated */
};

/* Adds `count * size` bytes at the next 64-byte boundary; 0 on overflow. */
static int reserve(size_t *end, uint64_t count, size_t size, size_t *offset) {
    size_t at = (*end + CHARACTER_ALIGNMENT - 1) & ~(size_t)(CHARACTER_ALIGNMENT - 1);
    if (at < *end || (size && count > (SIZE_MAX - at) / size)) return 0;
    *offset = at;
    *end = at + (size_t)count * size;
    return 1;
}

ossa_result ossa_model_layout_characters(ossa_model *model, ossa_error *error) {
    const ossa_rig *rig = model->rig;
    character_layout *l = &model->layout;
    uint32_t cursor = 0;
    for (uint32_t c = 0; c < ossa_clip_set_count(model->clips); c++) {
        uint32_t size = ossa_cursor_size(ossa_clip_set_clip(model->clips, c));
        if (size > cursor) cursor = size;
    }
    l->cursor_capacity = cursor;
    uint64_t joints = l->palette_joints;
    size_t end = sizeof(struct ossa_character), unused;
    int ok =
        reserve(&end, 0, 1, &unused) &&
        reserve(&end, rig->node_count, sizeof(ossa_trs), &l->local) &&
        reserve(&end, rig->weight_total, sizeof(float), &l->weights) &&
        reserve(&end, cursor, sizeof(uint32_t), &l->cursor) &&
        reserve(&end, (uint64_t)rig->node_count * 12, sizeof(float), &l->world) &&
        reserve(&end, joints * 12, sizeof(float), &l->palettes) &&
        reserve(&end, model->dual_quaternions ? joints * 12 : 0, sizeof(float), &l->dual_quats) &&
        reserve(&end,
                model->material_rest ? (uint64_t)model->material_count * MATERIAL_STATE_FLOATS : 0,
                sizeof(float), &l->materials) &&
        reserve(&end, 0, 1, &unused);
    if (!ok)
        return ossa_model_fail(error, OSSA_ERROR_LIMIT, NULL, "",
                               "a character of this model would not fit in memory");
    l->size = end;
    return OSSA_OK;
}

size_t ossa_character_size(const ossa_model *model) {
    return model->layout.size;
}

size_t ossa_character_alignment(void) {
    return CHARACTER_ALIGNMENT;
}

static ossa_result argument_error(ossa_error *error, const char *message) {
    return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", message);
}

ossa_result ossa_character_init(const ossa_model *model, void *memory, size_t size,
                                ossa_character **out, ossa_error *error) {
    if (out) *out = NULL;
    if (!model || !out) return argument_error(error, "no model or no output");
    if (!memory) return argument_error(error, "no character memory");
    if ((uintptr_t)memory % CHARACTER_ALIGNMENT)
        return argument_error(error, "character memory must be 64-byte aligned");
    if (size < model->layout.size)
        return argument_error(error, "character memory is smaller than ossa_character_size");
    const character_layout *l = &model->layout;
    uint8_t *base = memory;
    memset(base, 0, l->size);
    ossa_character *c = memory;
    c->model = model;
    c->pose.local = (ossa_trs *)(void *)(base + l->local);
    c->pose.weights = (float *)(void *)(base + l->weights);
    c->cursor.keys = (uint32_t *)(void *)(base + l->cursor);
    c->cursor.capacity = l->cursor_capacity;
    c->world = (float *)(void *)(base + l->world);
    c->palettes = (float *)(void *)(base + l->palettes);
    c->dual_quats = model->dual_quaternions ? (float *)(void *)(base + l->dual_quats) : NULL;
    c->materials = model->material_rest ? (float *)(void *)(base + l->materials) : NULL;
    ossa_character_update_checked(c, NULL, 0.0, OSSA_WRAP_CLAMP);
    *out = c;
    return OSSA_OK;
}

ossa_result ossa_character_create(const ossa_model *model, ossa_character **out,
                                  ossa_error *error) {
    if (out) *out = NULL;
    if (!model || !out) return argument_error(error, "no model or no output");
    /* The allocator promises malloc's alignment only: over-allocate and keep the offset. */
    const ossa_allocator *a = &model->allocator;
    size_t size = model->layout.size + CHARACTER_ALIGNMENT + sizeof(void *);
    uint8_t *block = a->alloc(a->user, size);
    if (!block) return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
    uintptr_t start = ((uintptr_t)block + sizeof(void *) + CHARACTER_ALIGNMENT - 1) &
                      ~(uintptr_t)(CHARACTER_ALIGNMENT - 1);
    uint8_t *memory = block + (start - (uintptr_t)block);
    memcpy(memory - sizeof(void *), &block, sizeof block);
    ossa_result r = ossa_character_init(model, memory, model->layout.size, out, error);
    if (r != OSSA_OK) {
        a->free(a->user, block);
        return r;
    }
    (*out)->owned = 1;
    return OSSA_OK;
}

void ossa_character_free(ossa_character *character) {
    if (!character || !character->owned) return;
    void *block;
    memcpy(&block, (uint8_t *)character - sizeof(void *), sizeof block);
    const ossa_allocator *a = &character->model->allocator;
    a->free(a->user, block);
}

const ossa_model *ossa_character_model(const ossa_character *character) {
    return character->model;
}

/* The dual quaternions of a character whose model keeps them, from its palettes. */
static void finish_dual_quats(ossa_character *c) {
    if (!c->dual_quats) return;
    const ossa_model *model = c->model;
    const ossa_rig *rig = model->rig;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        size_t at = 12 * (size_t)model->palette_offset[s];
        ossa_skin_dual_quats(c->palettes + at, rig->skins[s].joint_count, c->dual_quats + at);
    }
}

void ossa_character_finish(ossa_character *c) {
    ossa_fk_palettes_world(c->model->rig, &c->pose, c->world, c->palettes);
    finish_dual_quats(c);
}

void ossa_character_finish_four(ossa_character *const *characters, uint32_t count) {
    ossa_pose poses[4] = {{NULL, NULL}};
    float *worlds[4] = {NULL}, *palettes[4] = {NULL};
    for (uint32_t k = 0; k < count && k < 4; k++) {
        poses[k] = characters[k]->pose;
        worlds[k] = characters[k]->world;
        palettes[k] = characters[k]->palettes;
    }
    ossa_fk_palettes_world_many(characters[0]->model->rig, poses, count, worlds, palettes);
    for (uint32_t k = 0; k < count; k++)
        finish_dual_quats(characters[k]);
}

void ossa_character_sample_checked(ossa_character *c, const ossa_clip *clip, double clock,
                                   ossa_wrap wrap) {
    float time = 0.0f;
    if (!clip) {
        ossa_pose_set_rest(c->model->rig, &c->pose);
    } else {
        if (clip != c->cursor_clip) {
            ossa_cursor_reset(clip, &c->cursor);
            c->cursor_clip = clip;
        }
        time = ossa_clip_time(clip, clock, wrap);
        ossa_clip_sample_unchecked(clip, time, &c->cursor, &c->pose);
    }
    if (c->materials) ossa_model_sample_materials(c->model, &clip, &time, 1, c->materials);
}

void ossa_character_update_checked(ossa_character *c, const ossa_clip *clip, double clock,
                                   ossa_wrap wrap) {
    ossa_character_sample_checked(c, clip, clock, wrap);
    ossa_character_finish(c);
}

ossa_result ossa_character_update(ossa_character *character, const ossa_clip *clip, double clock,
                                  ossa_wrap wrap, ossa_error *error) {
    if (!character) return argument_error(error, "no character");
    if ((unsigned)wrap > OSSA_WRAP_PING_PONG) return argument_error(error, "unknown wrap");
    if (clip && clip->rig != character->model->rig)
        return argument_error(error, "the clip belongs to another model than the character");
    ossa_character_update_checked(character, clip, clock, wrap);
    return OSSA_OK;
}

ossa_pose *ossa_character_pose(ossa_character *character) {
    return &character->pose;
}

const float *ossa_character_world(const ossa_character *character) {
    return character->world;
}

const float *ossa_character_palette(const ossa_character *c, uint32_t skin) {
    if (skin >= c->model->rig->skin_count) return NULL;
    return c->palettes + 12 * (size_t)c->model->palette_offset[skin];
}

const float *ossa_character_dual_quats(const ossa_character *c, uint32_t skin) {
    if (!c->dual_quats || skin >= c->model->rig->skin_count) return NULL;
    return c->dual_quats + 12 * (size_t)c->model->palette_offset[skin];
}

void ossa_character_sample_materials(ossa_character *character, const ossa_clip *const *clips,
                                     const float *times, uint32_t count) {
    if (character->materials)
        ossa_model_sample_materials(character->model, clips, times, count, character->materials);
}

const float *ossa_character_material_state(const ossa_character *character) {
    return character->materials;
}

const float *ossa_character_weights(const ossa_character *character) {
    return character->pose.weights;
}
