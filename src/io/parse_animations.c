/* animations: channels (target node and path, or a KHR_animation_pointer: parse_pointer.c) and
 * samplers (input, output, interpolation). */
#include <string.h>

#include "io/loader.h"

static void parse_sampler(ossa_io_loader *L, const cJSON *item, ossa_animation_sampler *s) {
    ossa_document *doc = L->doc;
    static const char *const known[] = {"input", "output", "interpolation", NULL};
    ossa_io_check_members(L, item, known);
    s->input = ossa_io_get_accessor(L, item, "input", 1);
    s->output = ossa_io_get_accessor(L, item, "output", 1);
    const char *interp = ossa_io_get_string(L, item, "interpolation", 0);
    s->interpolation = OSSA_INTERP_LINEAR;
    if (interp) {
        if (!strcmp(interp, "STEP"))
            s->interpolation = OSSA_INTERP_STEP;
        else if (!strcmp(interp, "CUBICSPLINE"))
            s->interpolation = OSSA_INTERP_CUBICSPLINE;
        else if (strcmp(interp, "LINEAR"))
            ossa_io_fail_key(L, "interpolation", OSSA_ERROR_INVALID,
                             "'%s' is not LINEAR, STEP or CUBICSPLINE", interp);
    }
    const ossa_accessor *in = &doc->accessors[s->input];
    size_t mark = ossa_io_path_key(L, "input");
    if (in->type != OSSA_TYPE_SCALAR || in->component_type != OSSA_COMPONENT_FLOAT)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "accessor %d is %s %s; key times must be SCALAR FLOAT",
                     s->input, ossa_io_type_name(in->type),
                     ossa_io_component_name(in->component_type));
    if (!in->has_min_max) ossa_io_warn(L, "accessor %d of key times has no min and max", s->input);
    if (s->interpolation == OSSA_INTERP_CUBICSPLINE && in->count < 2)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "CUBICSPLINE needs at least 2 keys, not %llu",
                     (unsigned long long)in->count);
    ossa_io_path_restore(L, mark);
    const int32_t used[2] = {s->input, s->output};
    for (int k = 0; k < 2; k++) {
        const ossa_accessor *a = &doc->accessors[used[k]];
        if (a->buffer_view >= 0 && doc->buffer_views[a->buffer_view].byte_stride)
            ossa_io_warn_key(L, k ? "output" : "input",
                             "the buffer view of an animation accessor has a byteStride");
    }
}

static void parse_channel(ossa_io_loader *L, const cJSON *item, const ossa_animation *anim,
                          ossa_animation_channel *c) {
    ossa_document *doc = L->doc;
    static const char *const known[] = {"sampler", "target", NULL};
    ossa_io_check_members(L, item, known);
    c->sampler = ossa_io_get_index(L, item, "sampler", anim->sampler_count, "sampler", 1);
    const cJSON *target = ossa_io_get_object(L, item, "target", 1);
    size_t mark = ossa_io_path_key(L, "target");
    static const char *const known_target[] = {"node", "path", "KHR_animation_pointer", NULL};
    ossa_io_check_members(L, target, known_target);
    c->pointer_index = -1;
    const char *path = ossa_io_get_string(L, target, "path", 1);
    if (!strcmp(path, "pointer") || ossa_io_get_extension(L, target, "KHR_animation_pointer")) {
        ossa_io_parse_pointer(L, target, c, path);
        ossa_io_path_restore(L, mark);
        return;
    }
    c->node = ossa_io_get_index(L, target, "node", doc->node_count, "node", 0);
    static const struct {
        const char *name;
        ossa_path path;
    } paths[] = {{"translation", OSSA_PATH_TRANSLATION},
                 {"rotation", OSSA_PATH_ROTATION},
                 {"scale", OSSA_PATH_SCALE},
                 {"weights", OSSA_PATH_WEIGHTS}};
    int found = 0;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (!strcmp(paths[i].name, path)) {
            c->path = paths[i].path;
            found = 1;
        }
    if (!found) {
        ossa_io_warn_key(L, "path", "'%s' is not a path ossa animates; the channel is ignored",
                         path);
        c->node = -1;
        c->path = OSSA_PATH_TRANSLATION;
    } else if (c->node < 0) {
        ossa_io_warn(L, "the channel has no target node; it is ignored");
    }
    ossa_io_path_restore(L, mark);
}

static void parse_animation(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_animation *anim = &L->doc->animations[index];
    static const char *const known[] = {"channels", "samplers", "name", NULL};
    ossa_io_check_members(L, item, known);
    anim->name = ossa_io_dup_string(L, item, "name");
    const cJSON *samplers, *channels;
    anim->sampler_count = ossa_io_get_array(L, item, "samplers", &samplers, 1);
    anim->channel_count = ossa_io_get_array(L, item, "channels", &channels, 1);
    anim->samplers = ossa_io_alloc_array(L, anim->sampler_count, sizeof *anim->samplers);
    anim->channels = ossa_io_alloc_array(L, anim->channel_count, sizeof *anim->channels);
    size_t top = ossa_io_path_key(L, "samplers");
    uint32_t i = 0;
    const cJSON *elem;
    cJSON_ArrayForEach(elem, samplers) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, elem);
        parse_sampler(L, elem, &anim->samplers[i++]);
        ossa_io_path_restore(L, mark);
    }
    ossa_io_path_restore(L, top);
    top = ossa_io_path_key(L, "channels");
    i = 0;
    cJSON_ArrayForEach(elem, channels) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, elem);
        parse_channel(L, elem, anim, &anim->channels[i++]);
        ossa_io_path_restore(L, mark);
    }
    ossa_io_path_restore(L, top);
}

void ossa_io_parse_animations(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    doc->animation_count = ossa_io_get_array(L, L->json.root, "animations", &array, 0);
    doc->animations = ossa_io_alloc_array(L, doc->animation_count, sizeof *doc->animations);
    ossa_io_visit(L, "animations", array, parse_animation);
}
