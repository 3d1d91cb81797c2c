/* Animations: key times, output formats and counts per path (or KHR_animation_pointer target),
 * finite values, unique targets. */
#include <math.h>
#include <stdlib.h>

#include "io/accessor_decode.h"
#include "io/loader.h"

/* Returns 0 when the key times have no data (they read as zeros) and there are two or more: no
 * timeline can be made of them, so the loader ignores the channels that use the sampler (the
 * Khronos validator does not check such data, and calls the file valid). */
static int check_input(ossa_io_loader *L, uint32_t anim, uint32_t index, double *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_animation_sampler *s = &doc->animations[anim].samplers[index];
    const ossa_accessor *a = &doc->accessors[s->input];
    ossa_io_path_set2(L, "animations[%u].samplers[%u].input", anim, index);
    if (!ossa_io_accessor_has_data(L, s->input) && a->count > 1) {
        ossa_io_warn(L,
                     "accessor %d has %llu key times but no data; the channels using this "
                     "sampler are ignored",
                     s->input, (unsigned long long)a->count);
        return 0;
    }
    double previous = 0;
    int done = ossa_io_check_key_times_plain(L, s->input);
    for (uint64_t first = 0; !done && first < a->count; first += OSSA_IO_DECODE_CHUNK) {
        uint64_t n =
            a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
        ossa_io_decode(doc, s->input, first, n, chunk, OSSA_IO_OUT_DOUBLE);
        for (uint64_t i = 0; i < n; i++) {
            double t = chunk[i];
            unsigned long long k = (unsigned long long)(first + i);
            if (!isfinite(t))
                ossa_io_fail(L, OSSA_ERROR_INVALID, "key time t[%llu] is not finite", k);
            if (t < 0)
                ossa_io_fail(L, OSSA_ERROR_INVALID, "key time t[%llu] = %g is negative", k, t);
            if (k > 0 && t <= previous)
                ossa_io_fail(L, OSSA_ERROR_INVALID,
                             "key times must increase (t[%llu] = %g after t[%llu] = %g)", k, t,
                             k - 1, previous);
            previous = t;
        }
    }
    return 1;
}

static int output_format_ok(ossa_path path, const ossa_accessor *a) {
    ossa_component_type c = a->component_type;
    int fl = c == OSSA_COMPONENT_FLOAT;
    int norm = a->normalized && c != OSSA_COMPONENT_FLOAT && c != OSSA_COMPONENT_UNSIGNED_INT;
    switch (path) {
    case OSSA_PATH_TRANSLATION:
    case OSSA_PATH_SCALE:
        return a->type == OSSA_TYPE_VEC3 && fl;
    case OSSA_PATH_ROTATION:
        return a->type == OSSA_TYPE_VEC4 && (fl || norm);
    case OSSA_PATH_WEIGHTS:
        return a->type == OSSA_TYPE_SCALAR && (fl || norm);
    }
    return 0;
}

/* Finite values; rotations (not their tangents) must not be zero, and are warned when not unit. */
static void check_output_values(ossa_io_loader *L, uint32_t anim, uint32_t channel, double *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_animation_channel *ch = &doc->animations[anim].channels[channel];
    const ossa_animation_sampler *s = &doc->animations[anim].samplers[ch->sampler];
    ossa_path path = ch->path;
    const ossa_accessor *a = &doc->accessors[s->output];
    uint32_t c = a->components;
    uint64_t non_unit = 0, first_non_unit = 0;
    int cubic = s->interpolation == OSSA_INTERP_CUBICSPLINE;
    /* Checked as read, zeros included: a zero rotation would poison every transform below it. */
    (void)ossa_io_accessor_has_data(L, s->output);
    int done = ossa_io_check_key_values_plain(L, s->output, path == OSSA_PATH_ROTATION, cubic,
                                              &non_unit, &first_non_unit);
    for (uint64_t first = 0; !done && first < a->count; first += OSSA_IO_DECODE_CHUNK) {
        uint64_t n =
            a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
        ossa_io_decode(doc, s->output, first, n, chunk, OSSA_IO_OUT_DOUBLE);
        for (uint64_t i = 0; i < n; i++) {
            const double *v = chunk + i * c;
            for (uint32_t k = 0; k < c; k++)
                if (!isfinite(v[k]))
                    ossa_io_fail(L, OSSA_ERROR_INVALID, "key value %llu is not finite",
                                 (unsigned long long)(first + i));
            if (path != OSSA_PATH_ROTATION || (cubic && (first + i) % 3 != 1)) continue;
            double len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
            if (ossa_io_rotation_zero(len2))
                ossa_io_fail(L, OSSA_ERROR_INVALID, "key value %llu is a zero quaternion",
                             (unsigned long long)(first + i));
            if (ossa_io_rotation_not_unit(len2) && !non_unit++) first_non_unit = first + i;
        }
    }
    ossa_io_path_set2(L, "animations[%u].channels[%u].sampler", anim, channel);
    if (non_unit)
        ossa_io_warn(L,
                     "%llu rotation keys are not unit quaternions (first: key value %llu); "
                     "they are used as written",
                     (unsigned long long)non_unit, (unsigned long long)first_non_unit);
}

/* paths_of_node[n]: bit p set when a channel of the current animation animates node n, path p. */
static void check_channel(ossa_io_loader *L, uint32_t anim, uint32_t index, uint8_t *paths_of_node,
                          double *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_animation *an = &doc->animations[anim];
    const ossa_animation_channel *ch = &an->channels[index];
    if (ch->node < 0) return;
    ossa_io_path_set2(L, "animations[%u].channels[%u].target", anim, index);
    if (paths_of_node[ch->node] & (1u << ch->path)) {
        uint32_t k = 0;
        while (an->channels[k].node != ch->node || an->channels[k].path != ch->path)
            k++;
        ossa_io_fail(L, OSSA_ERROR_INVALID, "channel %u already animates the same node and path",
                     k);
    }
    paths_of_node[ch->node] |= (uint8_t)(1u << ch->path);
    if (doc->nodes[ch->node].has_matrix)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "node %d has a matrix; animated nodes must use translation/rotation/scale",
                     ch->node);
    uint64_t per_key = 1;
    if (ch->path == OSSA_PATH_WEIGHTS) {
        const ossa_node *n = &doc->nodes[ch->node];
        uint32_t targets = n->mesh >= 0 ? doc->meshes[n->mesh].target_count : 0;
        if (!targets)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "animates weights, but node %d has no mesh with morph targets", ch->node);
        per_key = targets;
    }
    const ossa_animation_sampler *s = &an->samplers[ch->sampler];
    const ossa_accessor *in = &doc->accessors[s->input];
    const ossa_accessor *out = &doc->accessors[s->output];
    ossa_io_path_set2(L, "animations[%u].samplers[%u].output", anim, ch->sampler);
    static const char *const names[] = {"translation", "rotation", "scale", "weights"};
    if (!output_format_ok(ch->path, out))
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "accessor %d is %s %s%s, not a valid format for %s (channel %u)", s->output,
                     ossa_io_type_name(out->type), ossa_io_component_name(out->component_type),
                     out->normalized ? " normalized" : "", names[ch->path], index);
    uint64_t expected = in->count * per_key * (s->interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1);
    if (out->count != expected)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "has %llu values, but %llu keys%s%s need %llu (channel %u)",
                     (unsigned long long)out->count, (unsigned long long)in->count,
                     per_key > 1 ? " x morph targets" : "",
                     s->interpolation == OSSA_INTERP_CUBICSPLINE ? " x 3 (CUBICSPLINE)" : "",
                     (unsigned long long)expected, index);
    check_output_values(L, anim, index, chunk);
}

/* A KHR_animation_pointer channel to a mesh's weights or a material, camera or light property:
 * one target per animation, output type and count as the property needs, finite values. */
static void check_pointer_channel(ossa_io_loader *L, uint32_t anim, uint32_t index, int usable,
                                  double *chunk) {
    const ossa_document *doc = L->doc;
    ossa_animation *an = &doc->animations[anim];
    ossa_animation_channel *ch = &an->channels[index];
    if (ch->pointer_target == OSSA_POINTER_NONE) return;
    if (!usable) { /* warned in check_input */
        ch->pointer_target = OSSA_POINTER_NONE;
        return;
    }
    ossa_io_path_set2(L, "animations[%u].channels[%u].target", anim, index);
    uint32_t per_key = ossa_pointer_target_components(ch->pointer_target);
    ossa_accessor_type type = per_key == 4   ? OSSA_TYPE_VEC4
                              : per_key == 3 ? OSSA_TYPE_VEC3
                              : per_key == 2 ? OSSA_TYPE_VEC2
                                             : OSSA_TYPE_SCALAR;
    if (ch->pointer_target == OSSA_POINTER_MESH_WEIGHTS) {
        per_key = doc->meshes[ch->pointer_index].target_count;
        if (!per_key)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "'%s' animates the weights of mesh %d, which has "
                         "no morph targets",
                         ch->pointer, ch->pointer_index);
    }
    const ossa_animation_sampler *s = &an->samplers[ch->sampler];
    const ossa_accessor *in = &doc->accessors[s->input];
    const ossa_accessor *out = &doc->accessors[s->output];
    ossa_io_path_set2(L, "animations[%u].samplers[%u].output", anim, ch->sampler);
    /* floats, normalized integers and (converted to their value) other integers */
    if (out->type != type)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "accessor %d is %s, but '%s' (channel %u) needs %s",
                     s->output, ossa_io_type_name(out->type), ch->pointer, index,
                     ossa_io_type_name(type));
    uint64_t expected = in->count * (type == OSSA_TYPE_SCALAR ? per_key : 1) *
                        (s->interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1);
    if (out->count != expected)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "has %llu values, but %llu keys%s%s need %llu for '%s' (channel %u)",
                     (unsigned long long)out->count, (unsigned long long)in->count,
                     per_key > 1 && type == OSSA_TYPE_SCALAR ? " x morph targets" : "",
                     s->interpolation == OSSA_INTERP_CUBICSPLINE ? " x 3 (CUBICSPLINE)" : "",
                     (unsigned long long)expected, ch->pointer, index);
    check_output_values(L, anim, index, chunk);
}

/* A pointer channel's property (target, index) and the channel, sorted to find repeats. */
typedef struct pointer_use {
    uint64_t property;
    uint32_t channel;
} pointer_use;

static int compare_uses(const void *a, const void *b) {
    const pointer_use *x = a, *y = b;
    if (x->property != y->property) return x->property < y->property ? -1 : 1;
    return (x->channel > y->channel) - (x->channel < y->channel);
}

/* Refuses two pointer channels of one animation on the same property (the first repeat, by
 * channel order), in O(n log n). */
static void check_pointer_repeats(ossa_io_loader *L, uint32_t anim, pointer_use *uses) {
    const ossa_animation *an = &L->doc->animations[anim];
    uint32_t n = 0;
    for (uint32_t c = 0; c < an->channel_count; c++) {
        const ossa_animation_channel *ch = &an->channels[c];
        if (ch->pointer_target != OSSA_POINTER_NONE)
            uses[n++] =
                (pointer_use){(uint64_t)ch->pointer_target << 32 | (uint32_t)ch->pointer_index, c};
    }
    qsort(uses, n, sizeof *uses, compare_uses);
    uint32_t repeat = UINT32_MAX, first = 0, run = 0; /* run: where the property's uses start */
    for (uint32_t i = 1; i < n; i++) {
        if (uses[i].property != uses[i - 1].property) {
            run = i;
            continue;
        }
        if (uses[i].channel < repeat) repeat = uses[i].channel, first = uses[run].channel;
    }
    if (repeat == UINT32_MAX) return;
    ossa_io_path_set2(L, "animations[%u].channels[%u].target", anim, repeat);
    ossa_io_fail(L, OSSA_ERROR_INVALID, "channel %u already animates the same property", first);
}

void ossa_io_validate_animations(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    double *chunk = ossa_io_alloc_uninit(L, OSSA_IO_DECODE_CHUNK * 4, sizeof *chunk);
    uint8_t *paths_of_node = ossa_io_alloc_array(L, doc->node_count, 1);
    uint32_t most_samplers = 0;
    for (uint32_t a = 0; a < doc->animation_count; a++)
        if (doc->animations[a].sampler_count > most_samplers)
            most_samplers = doc->animations[a].sampler_count;
    uint8_t *usable_sampler = ossa_io_alloc_array(L, most_samplers, 1);
    uint32_t most_channels = 0;
    for (uint32_t a = 0; a < doc->animation_count; a++)
        if (doc->animations[a].channel_count > most_channels)
            most_channels = doc->animations[a].channel_count;
    pointer_use *uses = ossa_io_alloc_array(L, most_channels, sizeof *uses);
    for (uint32_t a = 0; a < doc->animation_count; a++) {
        ossa_animation *an = &doc->animations[a];
        for (uint32_t s = 0; s < an->sampler_count; s++)
            usable_sampler[s] = (uint8_t)check_input(L, a, s, chunk);
        for (uint32_t c = 0; c < an->channel_count; c++) {
            check_channel(L, a, c, paths_of_node, chunk);
            check_pointer_channel(L, a, c, usable_sampler[an->channels[c].sampler], chunk);
        }
        check_pointer_repeats(L, a, uses);
        for (uint32_t c = 0; c < an->channel_count; c++) {
            ossa_animation_channel *ch = &an->channels[c];
            if (ch->node < 0) continue;
            paths_of_node[ch->node] = 0;
            if (!usable_sampler[ch->sampler]) ch->node = -1; /* warned in check_input */
        }
    }
    ossa_io_release(L->storage, uses);
    ossa_io_release(L->storage, usable_sampler);
    ossa_io_release(L->storage, paths_of_node);
    ossa_io_release(L->storage, chunk);
}
