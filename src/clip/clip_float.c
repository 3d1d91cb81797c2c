/* Named float tracks of clips: the KHR_animation_pointer channels to material, camera and light
 * properties, kept as key times and values and read through clip.h. */
#include <string.h>

#include "clip/clip_internal.h"

static int is_float_target(ossa_pointer_target target) {
    return target != OSSA_POINTER_NONE && target != OSSA_POINTER_MESH_WEIGHTS;
}

ossa_result ossa_clip_build_float_tracks(const ossa_document *doc, const ossa_animation *anim,
                                         ossa_owned *owned, ossa_clip *clip, float *start,
                                         float *end, int *have_range) {
    uint32_t count = 0;
    for (uint32_t c = 0; c < anim->channel_count; c++)
        count += is_float_target(anim->channels[c].pointer_target);
    clip->float_track_count = 0;
    clip->float_tracks = NULL;
    if (!count) return OSSA_OK;
    ossa_float_track *tracks = ossa_owned_alloc(owned, count, sizeof *tracks);
    if (!tracks) return OSSA_ERROR_OUT_OF_MEMORY;
    uint32_t n = 0;
    for (uint32_t c = 0; c < anim->channel_count; c++) {
        const ossa_animation_channel *ch = &anim->channels[c];
        if (!is_float_target(ch->pointer_target)) continue;
        const ossa_animation_sampler *s = &anim->samplers[ch->sampler];
        const ossa_accessor *in = &doc->accessors[s->input];
        const ossa_accessor *out = &doc->accessors[s->output];
        if (in->count == 0) continue;
        ossa_float_track *t = &tracks[n];
        int failed = 0;
        t->name = ossa_owned_strdup(owned, ch->pointer, &failed);
        t->target = (uint8_t)ch->pointer_target;
        t->interpolation = (uint8_t)s->interpolation;
        t->components = (uint16_t)ossa_pointer_target_components(ch->pointer_target);
        t->index = ch->pointer_index;
        t->key_count = (uint32_t)in->count;
        float *times = ossa_owned_alloc(owned, in->count, sizeof(float));
        float *values = ossa_owned_alloc(owned, out->count * out->components, sizeof(float));
        if (failed || !times || !values) return OSSA_ERROR_OUT_OF_MEMORY;
        ossa_result r = ossa_accessor_read_float(doc, s->input, 0, in->count, times);
        if (r == OSSA_OK) r = ossa_accessor_read_float(doc, s->output, 0, out->count, values);
        if (r != OSSA_OK) return r;
        t->times = times;
        t->values = values;
        if (!*have_range || times[0] < *start) *start = times[0];
        if (!*have_range || times[t->key_count - 1] > *end) *end = times[t->key_count - 1];
        *have_range = 1;
        n++;
    }
    clip->float_track_count = n;
    clip->float_tracks = tracks;
    return OSSA_OK;
}

/* Floats of a track's values. */
static size_t value_floats(const ossa_float_track *t) {
    return (size_t)t->key_count * t->components *
           (t->interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1);
}

size_t ossa_clip_float_track_bytes(const ossa_clip *clip) {
    size_t bytes = clip->float_track_count * sizeof *clip->float_tracks;
    for (uint32_t i = 0; i < clip->float_track_count; i++)
        bytes += (clip->float_tracks[i].key_count + value_floats(&clip->float_tracks[i])) *
                 sizeof(float);
    return bytes;
}

ossa_result ossa_clip_copy_float_tracks(const ossa_clip *from, ossa_owned *owned, ossa_clip *to) {
    to->float_track_count = 0;
    to->float_tracks = NULL;
    if (!from->float_track_count) return OSSA_OK;
    ossa_float_track *tracks = ossa_owned_alloc(owned, from->float_track_count, sizeof *tracks);
    if (!tracks) return OSSA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < from->float_track_count; i++) {
        const ossa_float_track *src = &from->float_tracks[i];
        size_t values = value_floats(src);
        int failed = 0;
        tracks[i] = *src;
        tracks[i].name = ossa_owned_strdup(owned, src->name, &failed);
        float *times = ossa_owned_alloc(owned, src->key_count, sizeof(float));
        float *vals = ossa_owned_alloc(owned, values, sizeof(float));
        if (failed || !times || !vals) return OSSA_ERROR_OUT_OF_MEMORY;
        memcpy(times, src->times, src->key_count * sizeof(float));
        memcpy(vals, src->values, values * sizeof(float));
        tracks[i].times = times;
        tracks[i].values = vals;
    }
    to->float_track_count = from->float_track_count;
    to->float_tracks = tracks;
    return OSSA_OK;
}

uint32_t ossa_clip_float_track_count(const ossa_clip *clip) {
    return clip->float_track_count;
}

ossa_float_track_info ossa_clip_float_track(const ossa_clip *clip, uint32_t track) {
    ossa_float_track_info info;
    memset(&info, 0, sizeof info);
    info.index = -1;
    if (track >= clip->float_track_count) return info;
    const ossa_float_track *t = &clip->float_tracks[track];
    info.name = t->name;
    info.target = (ossa_pointer_target)t->target;
    info.index = t->index;
    info.components = t->components;
    info.key_count = t->key_count;
    info.interpolation = (ossa_interpolation)t->interpolation;
    return info;
}

int32_t ossa_clip_find_float_track(const ossa_clip *clip, const char *name) {
    for (uint32_t i = 0; name && i < clip->float_track_count; i++)
        if (!strcmp(clip->float_tracks[i].name, name)) return (int32_t)i;
    return -1;
}
