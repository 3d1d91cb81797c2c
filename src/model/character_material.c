/* Animated materials (KHR_animation_pointer): per character, the material values its clip's
 * float tracks set (base colour, emissive, alpha cutoff, texture transforms), read back through
 * ossa_character_material. Characters of models without material tracks keep none. */
#include <string.h>

#include "clip/clip_internal.h"
#include "model/model_internal.h"

/* Where each animated value lives in a material's MATERIAL_STATE_FLOATS floats. */
enum {
    STATE_BASE_COLOR = 0,        /* 4 */
    STATE_EMISSIVE = 4,          /* 3: emissiveFactor */
    STATE_EMISSIVE_STRENGTH = 7, /* 1 */
    STATE_ALPHA_CUTOFF = 8,      /* 1 */
    STATE_BASE_COLOR_UV = 9,     /* 5: offset (2), rotation, scale (2) */
    STATE_EMISSIVE_UV = 14       /* 5 */
};
_Static_assert(MATERIAL_STATE_FLOATS == 19, "the state layout above");

/* Where a pointer target's value goes in the state, -1 for targets that are not materials. */
static int state_offset(ossa_pointer_target target) {
    switch (target) {
    case OSSA_POINTER_BASE_COLOR:
        return STATE_BASE_COLOR;
    case OSSA_POINTER_EMISSIVE:
        return STATE_EMISSIVE;
    case OSSA_POINTER_EMISSIVE_STRENGTH:
        return STATE_EMISSIVE_STRENGTH;
    case OSSA_POINTER_ALPHA_CUTOFF:
        return STATE_ALPHA_CUTOFF;
    case OSSA_POINTER_BASE_COLOR_UV_OFFSET:
        return STATE_BASE_COLOR_UV;
    case OSSA_POINTER_BASE_COLOR_UV_ROTATION:
        return STATE_BASE_COLOR_UV + 2;
    case OSSA_POINTER_BASE_COLOR_UV_SCALE:
        return STATE_BASE_COLOR_UV + 3;
    case OSSA_POINTER_EMISSIVE_UV_OFFSET:
        return STATE_EMISSIVE_UV;
    case OSSA_POINTER_EMISSIVE_UV_ROTATION:
        return STATE_EMISSIVE_UV + 2;
    case OSSA_POINTER_EMISSIVE_UV_SCALE:
        return STATE_EMISSIVE_UV + 3;
    default:
        return -1;
    }
}

static void write_transform(const ossa_texture_transform *t, float *out) {
    ossa_texture_transform identity = {1, {0, 0}, 0, {1, 1}};
    if (!t->present) t = &identity;
    memcpy(out, t->offset, sizeof t->offset);
    out[2] = t->rotation;
    memcpy(out + 3, t->scale, sizeof t->scale);
}

ossa_result ossa_model_build_material_state(ossa_model *model, const ossa_document *doc,
                                            ossa_error *error) {
    model->material_animated = NULL;
    model->material_rest = NULL;
    int any = 0;
    for (uint32_t a = 0; a < doc->animation_count; a++)
        for (uint32_t c = 0; c < doc->animations[a].channel_count; c++)
            any |= state_offset(doc->animations[a].channels[c].pointer_target) >= 0;
    if (!any || !doc->material_count) return OSSA_OK;
    uint8_t *animated = ossa_owned_alloc(&model->owned, doc->material_count, 1);
    float *rest =
        ossa_owned_alloc(&model->owned, doc->material_count, MATERIAL_STATE_FLOATS * sizeof(float));
    if (!animated || !rest)
        return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
    for (uint32_t a = 0; a < doc->animation_count; a++)
        for (uint32_t c = 0; c < doc->animations[a].channel_count; c++) {
            const ossa_animation_channel *ch = &doc->animations[a].channels[c];
            if (state_offset(ch->pointer_target) >= 0) animated[ch->pointer_index] = 1;
        }
    for (uint32_t m = 0; m < doc->material_count; m++) {
        const ossa_material *src = &doc->materials[m];
        float *state = rest + (size_t)m * MATERIAL_STATE_FLOATS;
        memcpy(state + STATE_BASE_COLOR, src->base_color_factor, 4 * sizeof(float));
        memcpy(state + STATE_EMISSIVE, src->emissive_factor, 3 * sizeof(float));
        state[STATE_EMISSIVE_STRENGTH] = src->emissive_strength;
        state[STATE_ALPHA_CUTOFF] = src->alpha_cutoff;
        write_transform(&src->base_color_texture.transform, state + STATE_BASE_COLOR_UV);
        write_transform(&src->emissive_texture.transform, state + STATE_EMISSIVE_UV);
    }
    model->material_animated = animated;
    model->material_rest = rest;
    return OSSA_OK;
}

void ossa_model_sample_materials(const ossa_model *model, const ossa_clip *const *clips,
                                 const float *times, uint32_t count, float *state) {
    if (!model->material_rest) return;
    memcpy(state, model->material_rest,
           (size_t)model->material_count * MATERIAL_STATE_FLOATS * sizeof(float));
    for (uint32_t k = 0; k < count; k++) {
        const ossa_clip *clip = clips[k];
        if (!clip || clip->rig != model->rig) continue; /* another model's tracks: not ours */
        for (uint32_t i = 0; i < clip->float_track_count; i++) {
            const ossa_float_track *t = &clip->float_tracks[i];
            int at = state_offset((ossa_pointer_target)t->target);
            if (at >= 0)
                ossa_clip_float_track_sample(clip, i, times[k],
                                             state + (size_t)t->index * MATERIAL_STATE_FLOATS + at);
        }
    }
}

int ossa_model_material_animated(const ossa_model *model, int32_t index) {
    return model->material_animated && index >= 0 && (uint32_t)index < model->material_count &&
           model->material_animated[index];
}

/* The texture transform of state values (offset, rotation, scale) as a 2x3 matrix. */
static void transform_matrix(const float *values, float matrix[6]) {
    ossa_texture_transform t = {1, {values[0], values[1]}, values[2], {values[3], values[4]}};
    ossa_texture_transform_matrix(&t, matrix);
}

ossa_model_material ossa_character_material(const ossa_character *character, int32_t index) {
    const ossa_model *model = ossa_character_model(character);
    ossa_model_material m = ossa_model_material_info(model, index);
    if (!ossa_model_material_animated(model, index)) return m;
    const float *state =
        ossa_character_material_state(character) + (size_t)index * MATERIAL_STATE_FLOATS;
    memcpy(m.base_color, state + STATE_BASE_COLOR, sizeof m.base_color);
    for (int k = 0; k < 3; k++)
        m.emissive[k] = state[STATE_EMISSIVE + k] * state[STATE_EMISSIVE_STRENGTH];
    m.alpha_cutoff = state[STATE_ALPHA_CUTOFF];
    transform_matrix(state + STATE_BASE_COLOR_UV, m.uv_transform);
    transform_matrix(state + STATE_EMISSIVE_UV, m.emissive_uv_transform);
    return m;
}
