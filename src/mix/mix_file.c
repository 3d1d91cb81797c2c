/* The mix file (JSON): read as strictly as glTF. Unknown keys and values that are ignored are
 * warnings; bad values are refused with their JSON path. Not per frame. */
#include <cjson/cJSON.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix/mix_internal.h"
#include "ossa/mix.h"
#include "ossa/motion.h"
#include "rig/owned.h"

struct ossa_mix_file {
    ossa_owned owned;
    ossa_mix_desc desc;
    int has_root_motion;
    ossa_root_motion_desc root_motion;
    uint32_t ik_count;
    ossa_mix_ik *ik;
    ossa_warning *warnings;
    uint32_t warning_count, warning_capacity;
};

typedef struct reader {
    ossa_mix_file *file;
    const ossa_model *model;
    const char *file_name;
    ossa_error *error;
    jmp_buf fail_jump;
    char path[OSSA_PATH_MAX];
    size_t path_len;
} reader;

/* ---- paths, refusals, warnings ---- */

static size_t path_push(reader *R, const char *fmt, ...) {
    size_t mark = R->path_len;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(R->path + R->path_len, sizeof R->path - R->path_len, fmt, args);
    va_end(args);
    if (n > 0) R->path_len += (size_t)n;
    if (R->path_len >= sizeof R->path) R->path_len = sizeof R->path - 1;
    return mark;
}

static size_t path_key(reader *R, const char *key) {
    return path_push(R, R->path_len ? ".%s" : "%s", key);
}

static void path_restore(reader *R, size_t mark) {
    R->path_len = mark;
    R->path[mark] = '\0';
}

#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 3, 4)))
#endif
static void
fail(reader *R, ossa_result code, const char *fmt, ...) {
    ossa_error *e = R->error;
    memset(e, 0, sizeof *e);
    e->code = code;
    if (R->file_name) snprintf(e->file, sizeof e->file, "%s", R->file_name);
    snprintf(e->path, sizeof e->path, "%s", R->path);
    va_list args;
    va_start(args, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, args);
    va_end(args);
    longjmp(R->fail_jump, 1);
}

static void *alloc(reader *R, size_t count, size_t size) {
    void *p = ossa_owned_alloc(&R->file->owned, count, size);
    if (!p) fail(R, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    return p;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
warn(reader *R, const char *fmt, ...) {
    ossa_mix_file *f = R->file;
    if (f->warning_count == f->warning_capacity) {
        uint32_t capacity = f->warning_capacity ? 2 * f->warning_capacity : 8;
        ossa_warning *w = alloc(R, capacity, sizeof *w);
        if (f->warning_count) memcpy(w, f->warnings, f->warning_count * sizeof *w);
        f->warnings = w; /* the old block stays owned until the file is freed */
        f->warning_capacity = capacity;
    }
    ossa_warning *w = &f->warnings[f->warning_count++];
    snprintf(w->path, sizeof w->path, "%s", R->path);
    va_list args;
    va_start(args, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, args);
    va_end(args);
}

/* ---- typed values ---- */

/* Warns about every key of an object that is not in the NULL-terminated list. */
static void check_keys(reader *R, const cJSON *object, const char *const *known) {
    for (const cJSON *item = object->child; item; item = item->next) {
        int found = 0;
        for (const char *const *k = known; *k && !found; k++)
            found = !strcmp(item->string, *k);
        if (found) continue;
        size_t mark = path_key(R, item->string);
        warn(R, "unknown property, ignored");
        path_restore(R, mark);
    }
}

static double number(reader *R, const cJSON *item, double min) {
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        fail(R, OSSA_ERROR_INVALID, "must be a finite number");
    if (item->valuedouble < min) fail(R, OSSA_ERROR_INVALID, "must be >= %g", min);
    return item->valuedouble;
}

/* A weight, mask value or threshold (ossa_mix_valid_factor), refused at its own path. */
static double factor(reader *R, const cJSON *item) {
    double v = number(R, item, 0);
    if (!ossa_mix_valid_factor(v)) fail(R, OSSA_ERROR_INVALID, "must be at most 1e6");
    return v;
}

static const char *string(reader *R, const cJSON *item) {
    if (!cJSON_IsString(item) || !item->valuestring)
        fail(R, OSSA_ERROR_INVALID, "must be a string");
    return item->valuestring;
}

/* The index of a string among the NULL-terminated choices; refused when absent. */
static int choice(reader *R, const cJSON *item, const char *const *choices) {
    const char *s = string(R, item);
    for (int i = 0; choices[i]; i++)
        if (!strcmp(s, choices[i])) return i;
    char list[128] = "";
    for (int i = 0; choices[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
                 choices[i]);
    fail(R, OSSA_ERROR_INVALID, "\"%s\" is not one of %s", s, list);
}

/* ---- layers ---- */

static const ossa_clip *animation(reader *R, const cJSON *item) {
    if (cJSON_IsString(item)) {
        int32_t k = ossa_model_find_clip(R->model, item->valuestring);
        if (k < 0)
            fail(R, OSSA_ERROR_INVALID, "the model has no animation named \"%s\"",
                 item->valuestring);
        return ossa_model_clip(R->model, (uint32_t)k);
    }
    if (!cJSON_IsNumber(item))
        fail(R, OSSA_ERROR_INVALID, "must be an animation's glTF index or name");
    double k = number(R, item, 0);
    uint32_t count = ossa_model_clip_count(R->model);
    if (k != floor(k) || k >= count)
        fail(R, OSSA_ERROR_INVALID, "there is no animation %g (the model has %u)", k, count);
    return ossa_model_clip(R->model, (uint32_t)k);
}

static void weight(reader *R, const cJSON *item, ossa_mix_layer *layer) {
    if (cJSON_IsNumber(item)) {
        ossa_mix_point *point = alloc(R, 1, sizeof *point);
        point->weight = factor(R, item);
        layer->weights = point;
        layer->weight_count = 1;
        return;
    }
    int count = cJSON_GetArraySize(item);
    if (!cJSON_IsArray(item) || count == 0)
        fail(R, OSSA_ERROR_INVALID, "must be a number or a non-empty array of [time, weight]");
    ossa_mix_point *points = alloc(R, (size_t)count, sizeof *points);
    int p = 0;
    for (const cJSON *pair = item->child; pair; pair = pair->next, p++) {
        size_t mark = path_push(R, "[%d]", p);
        if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
            fail(R, OSSA_ERROR_INVALID, "must be a pair [time, weight]");
        size_t inner = path_push(R, "[0]");
        points[p].time = number(R, pair->child, -INFINITY);
        if (p && !(points[p].time > points[p - 1].time)) {
            fail(R, OSSA_ERROR_INVALID, "times must increase strictly (%g after %g)",
                 points[p].time, points[p - 1].time);
        }
        path_restore(R, inner);
        path_push(R, "[1]");
        points[p].weight = factor(R, pair->child->next);
        path_restore(R, mark);
    }
    layer->weights = points;
    layer->weight_count = (uint32_t)count;
}

/* Adds a mask entry, refusing a node that already has one. */
static void mask_entry(reader *R, ossa_mix_mask_entry *entries, uint32_t *count, uint32_t node,
                       const cJSON *value) {
    for (uint32_t e = 0; e < *count; e++)
        if (entries[e].node == node)
            fail(R, OSSA_ERROR_INVALID, "node %u already has a mask value", node);
    entries[*count].node = node;
    entries[*count].value = (float)factor(R, value);
    (*count)++;
}

static uint32_t node_by_name(reader *R, const char *name) {
    int32_t node = ossa_model_find_node(R->model, name);
    if (node == -1) fail(R, OSSA_ERROR_INVALID, "the model has no node named \"%s\"", name);
    if (node < 0)
        fail(R, OSSA_ERROR_INVALID, "several nodes are named \"%s\": name one by \"indices\"",
             name);
    return (uint32_t)ossa_model_rig(R->model)->gltf_from_rig[node];
}

static uint32_t node_by_index(reader *R, const char *key) {
    size_t n = strlen(key);
    if (n == 0 || n > 9 || strspn(key, "0123456789") != n)
        fail(R, OSSA_ERROR_INVALID, "\"%s\" is not a glTF node index", key);
    unsigned long index = strtoul(key, NULL, 10);
    uint32_t count = ossa_model_rig(R->model)->node_count;
    if (index >= count)
        fail(R, OSSA_ERROR_INVALID, "there is no node %lu (the model has %u)", index, count);
    return (uint32_t)index;
}

static const ossa_mix_mask *mask(reader *R, const cJSON *item) {
    if (!cJSON_IsObject(item)) fail(R, OSSA_ERROR_INVALID, "must be an object");
    static const char *const keys[] = {"default", "nodes", "indices", NULL};
    check_keys(R, item, keys);
    ossa_mix_mask *m = alloc(R, 1, sizeof *m);
    m->default_value = 1;
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(item, "default");
    if (def) {
        size_t mark = path_key(R, "default");
        m->default_value = (float)factor(R, def);
        path_restore(R, mark);
    }
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(item, "nodes");
    const cJSON *indices = cJSON_GetObjectItemCaseSensitive(item, "indices");
    ossa_mix_mask_entry *entries =
        alloc(R, (size_t)cJSON_GetArraySize(nodes) + (size_t)cJSON_GetArraySize(indices),
              sizeof *entries);
    uint32_t count = 0;
    const cJSON *lists[2] = {nodes, indices};
    const char *names[2] = {"nodes", "indices"};
    for (int l = 0; l < 2; l++) {
        if (!lists[l]) continue;
        size_t mark = path_key(R, names[l]);
        if (!cJSON_IsObject(lists[l])) fail(R, OSSA_ERROR_INVALID, "must be an object");
        for (const cJSON *e = lists[l]->child; e; e = e->next) {
            size_t inner = path_key(R, e->string);
            uint32_t node = l == 0 ? node_by_name(R, e->string) : node_by_index(R, e->string);
            mask_entry(R, entries, &count, node, e);
            path_restore(R, inner);
        }
        path_restore(R, mark);
    }
    m->entries = entries;
    m->entry_count = count;
    return m;
}

static const char *const layer_keys[] = {"animation", "weight",    "speed", "offset", "wrap",
                                         "mode",      "reference", "mask",  "sync",   NULL};

/* Index of the first layer before `index` in the same sync group, or -1. */
static int group_leader(const ossa_mix_layer *layers, uint32_t index) {
    for (uint32_t i = 0; i < index; i++)
        if (layers[i].sync && !strcmp(layers[i].sync, layers[index].sync)) return (int)i;
    return -1;
}

static void layer(reader *R, const cJSON *item, ossa_mix_layer *layers, uint32_t index) {
    if (!cJSON_IsObject(item)) fail(R, OSSA_ERROR_INVALID, "a layer must be an object");
    check_keys(R, item, layer_keys);
    ossa_mix_layer *out = &layers[index];
    const cJSON *v;
    size_t mark;
    if (!(v = cJSON_GetObjectItemCaseSensitive(item, "animation")))
        fail(R, OSSA_ERROR_INVALID, "a layer needs an \"animation\" (index or name)");
    mark = path_key(R, "animation");
    out->clip = animation(R, v);
    path_restore(R, mark);
    static const char *const wraps[] = {"loop", "clamp", "ping-pong", NULL};
    static const char *const modes[] = {"normal", "additive", NULL};
    for (int k = 1; layer_keys[k]; k++) {
        if (!(v = cJSON_GetObjectItemCaseSensitive(item, layer_keys[k]))) continue;
        const char *key = layer_keys[k];
        mark = path_key(R, key);
        if (!strcmp(key, "weight")) {
            weight(R, v, out);
        } else if (!strcmp(key, "speed")) {
            out->speed = number(R, v, -INFINITY);
            out->has_speed = 1;
        } else if (!strcmp(key, "offset")) {
            out->offset = number(R, v, -INFINITY);
        } else if (!strcmp(key, "wrap")) {
            out->wrap = (ossa_mix_wrap)choice(R, v, wraps);
        } else if (!strcmp(key, "mode")) {
            out->mode = (ossa_mix_mode)choice(R, v, modes);
        } else if (!strcmp(key, "reference")) {
            if (cJSON_IsNumber(v)) {
                out->reference = OSSA_MIX_REFERENCE_TIME;
                out->reference_time = number(R, v, -INFINITY);
            } else {
                static const char *const refs[] = {"start", "rest", NULL};
                if (!cJSON_IsString(v))
                    fail(R, OSSA_ERROR_INVALID, "must be \"start\", \"rest\" or a clip time");
                out->reference = (ossa_mix_reference)choice(R, v, refs);
            }
        } else if (!strcmp(key, "mask")) {
            out->mask = mask(R, v);
        } else if (!strcmp(key, "sync")) {
            const char *name = string(R, v);
            if (!*name) fail(R, OSSA_ERROR_INVALID, "a sync group needs a name");
            if (!(ossa_clip_duration(out->clip) > 0))
                fail(R, OSSA_ERROR_INVALID,
                     "the animation has zero duration and cannot be synchronised");
            int failed = 0;
            out->sync = ossa_owned_strdup(&R->file->owned, name, &failed);
            if (failed) fail(R, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
        }
        path_restore(R, mark);
    }
    if (out->mode != OSSA_MIX_ADDITIVE && cJSON_GetObjectItemCaseSensitive(item, "reference")) {
        mark = path_key(R, "reference");
        warn(R, "ignored: only additive layers have a reference");
        path_restore(R, mark);
    }
    int leader = out->sync ? group_leader(layers, index) : -1;
    static const char *const clock_keys[] = {"speed", "offset", "wrap", NULL};
    for (int k = 0; leader >= 0 && clock_keys[k]; k++) {
        if (!cJSON_GetObjectItemCaseSensitive(item, clock_keys[k])) continue;
        mark = path_key(R, clock_keys[k]);
        warn(R, "ignored: layers[%d] (the first of sync group \"%s\") sets the group's clock",
             leader, out->sync);
        path_restore(R, mark);
    }
}

/* ---- root motion and IK ---- */

/* A node by name or glTF index, as a rig node. */
static int32_t node_ref(reader *R, const cJSON *item) {
    if (cJSON_IsString(item)) {
        uint32_t gltf = node_by_name(R, item->valuestring);
        return ossa_model_rig(R->model)->rig_from_gltf[gltf];
    }
    double k = number(R, item, 0);
    uint32_t count = ossa_model_rig(R->model)->node_count;
    if (k != floor(k) || k >= count)
        fail(R, OSSA_ERROR_INVALID, "there is no node %g (the model has %u)", k, count);
    return ossa_model_rig(R->model)->rig_from_gltf[(uint32_t)k];
}

/* Reads member `key` of an object (when present) as [x, y, z]; returns 0 when absent. */
static int vec3(reader *R, const cJSON *object, const char *key, int nonzero, float *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!item) return 0;
    size_t mark = path_key(R, key);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        fail(R, OSSA_ERROR_INVALID, "must be an array of 3 numbers");
    int c = 0;
    for (const cJSON *v = item->child; v; v = v->next, c++) {
        size_t inner = path_push(R, "[%d]", c);
        out[c] = (float)number(R, v, -INFINITY);
        if (!isfinite(out[c])) fail(R, OSSA_ERROR_INVALID, "out of float range");
        path_restore(R, inner);
    }
    if (nonzero && out[0] == 0 && out[1] == 0 && out[2] == 0)
        fail(R, OSSA_ERROR_INVALID, "must not be the zero vector");
    path_restore(R, mark);
    return 1;
}

/* Member `key` of an object: a required node, or a number in [lo, hi] (absent: fallback). */
static int32_t node_member(reader *R, const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!item) fail(R, OSSA_ERROR_INVALID, "needs \"%s\" (a node name or glTF index)", key);
    size_t mark = path_key(R, key);
    int32_t node = node_ref(R, item);
    path_restore(R, mark);
    return node;
}

static float number_member(reader *R, const cJSON *object, const char *key, double lo, double hi,
                           double fallback) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!item) return (float)fallback;
    size_t mark = path_key(R, key);
    double v = number(R, item, lo);
    if (v > hi) fail(R, OSSA_ERROR_INVALID, "must be <= %g", hi);
    path_restore(R, mark);
    return (float)v;
}

static void root_motion(reader *R, const cJSON *item) {
    if (!cJSON_IsObject(item)) fail(R, OSSA_ERROR_INVALID, "must be an object");
    static const char *const keys[] = {"node", "mode", "up", NULL};
    check_keys(R, item, keys);
    ossa_mix_file *f = R->file;
    f->root_motion.node = node_member(R, item, "node");
    if (ossa_model_rig(R->model)->fixed[f->root_motion.node]) {
        path_key(R, "node");
        fail(R, OSSA_ERROR_INVALID, "the node has a matrix: its motion cannot be split");
    }
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(item, "mode");
    if (mode) {
        static const char *const modes[] = {"ground", "full", NULL};
        size_t mark = path_key(R, "mode");
        f->root_motion.mode = (ossa_root_motion_mode)choice(R, mode, modes);
        path_restore(R, mark);
    }
    if (!vec3(R, item, "up", 1, f->root_motion.up)) f->root_motion.up[1] = 1;
    f->has_root_motion = 1;
}

/* Refuses a two-bone chain whose middle is not below start or end not below middle. */
static void check_chain(reader *R, int32_t ancestor, int32_t node, const char *what) {
    const int32_t *parent = ossa_model_rig(R->model)->parent;
    for (int32_t j = parent[node]; j >= 0; j = parent[j])
        if (j == ancestor) return;
    fail(R, OSSA_ERROR_INVALID, "\"%s\" is not a descendant of \"%s\"", what,
         !strcmp(what, "end") ? "middle" : "start");
}

static void two_bone(reader *R, const cJSON *item, ossa_mix_ik *out) {
    static const char *const keys[] = {"type", "start",  "middle", "end",   "target", "ground",
                                       "pole", "weight", "soften", "twist", NULL};
    check_keys(R, item, keys);
    ossa_ik_two_bone_job *job = &out->two_bone;
    job->start = node_member(R, item, "start");
    job->middle = node_member(R, item, "middle");
    job->end = node_member(R, item, "end");
    check_chain(R, job->start, job->middle, "middle");
    check_chain(R, job->middle, job->end, "end");
    const cJSON *ground = cJSON_GetObjectItemCaseSensitive(item, "ground");
    int has_target = vec3(R, item, "target", 0, job->target);
    if (has_target == !!ground)
        fail(R, OSSA_ERROR_INVALID, "a two_bone entry needs either \"target\" or \"ground\"");
    if (ground) {
        size_t mark = path_key(R, "ground");
        if (!cJSON_IsObject(ground)) fail(R, OSSA_ERROR_INVALID, "must be an object");
        static const char *const ground_keys[] = {"point", "normal", NULL};
        check_keys(R, ground, ground_keys);
        if (!vec3(R, ground, "point", 0, out->ground_point) ||
            !vec3(R, ground, "normal", 1, out->ground_normal))
            fail(R, OSSA_ERROR_INVALID, "needs \"point\" and \"normal\"");
        if (!(fabsf(out->ground_normal[1]) >
              1e-3f * (fabsf(out->ground_normal[0]) + fabsf(out->ground_normal[1]) +
                       fabsf(out->ground_normal[2])))) {
            path_key(R, "normal");
            fail(R, OSSA_ERROR_INVALID, "a ground plane must not be vertical");
        }
        out->has_ground = 1;
        path_restore(R, mark);
    }
    if (!vec3(R, item, "pole", 1, job->pole))
        fail(R, OSSA_ERROR_INVALID, "a two_bone entry needs a \"pole\"");
    job->weight = number_member(R, item, "weight", 0, 1, 1);
    job->soften = number_member(R, item, "soften", 0, 1, 0);
    job->twist = number_member(R, item, "twist", -INFINITY, INFINITY, 0);
}

static void aim(reader *R, const cJSON *item, ossa_mix_ik *out) {
    static const char *const keys[] = {"type", "node",   "forward", "up", "target",
                                       "pole", "offset", "weight",  NULL};
    check_keys(R, item, keys);
    ossa_ik_aim_job *job = &out->aim;
    job->node = node_member(R, item, "node");
    static const char *const required[] = {"forward", "up", "target", "pole"};
    float *vectors[] = {job->forward, job->up, job->target, job->pole};
    for (int k = 0; k < 4; k++)
        if (!vec3(R, item, required[k], k != 2, vectors[k]))
            fail(R, OSSA_ERROR_INVALID, "an aim entry needs \"%s\"", required[k]);
    const float *f = job->forward, *u = job->up;
    float cross[3] = {f[1] * u[2] - f[2] * u[1], f[2] * u[0] - f[0] * u[2],
                      f[0] * u[1] - f[1] * u[0]};
    float norms = sqrtf((f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) *
                        (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]));
    if (!(sqrtf(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]) > 1e-4f * norms)) {
        path_key(R, "up");
        fail(R, OSSA_ERROR_INVALID, "must not be parallel to \"forward\"");
    }
    vec3(R, item, "offset", 0, job->offset);
    job->weight = number_member(R, item, "weight", 0, 1, 1);
}

static void ik_entries(reader *R, const cJSON *list) {
    if (!cJSON_IsArray(list)) fail(R, OSSA_ERROR_INVALID, "must be an array of IK entries");
    uint32_t count = (uint32_t)cJSON_GetArraySize(list);
    ossa_mix_ik *entries = alloc(R, count, sizeof *entries);
    uint32_t i = 0;
    for (const cJSON *item = list->child; item; item = item->next, i++) {
        size_t mark = path_push(R, "[%u]", i);
        if (!cJSON_IsObject(item)) fail(R, OSSA_ERROR_INVALID, "an IK entry must be an object");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(item, "type");
        if (!type) fail(R, OSSA_ERROR_INVALID, "an IK entry needs a \"type\"");
        static const char *const types[] = {"two_bone", "aim", NULL};
        size_t inner = path_key(R, "type");
        entries[i].type = (ossa_mix_ik_type)choice(R, type, types);
        path_restore(R, inner);
        if (entries[i].type == OSSA_MIX_IK_TWO_BONE)
            two_bone(R, item, &entries[i]);
        else
            aim(R, item, &entries[i]);
        path_restore(R, mark);
    }
    R->file->ik = entries;
    R->file->ik_count = count;
}

static void parse_root(reader *R, const cJSON *root) {
    if (!cJSON_IsObject(root)) fail(R, OSSA_ERROR_INVALID, "a mix file is a JSON object");
    static const char *const keys[] = {"threshold", "layers", "root_motion", "ik", NULL};
    check_keys(R, root, keys);
    ossa_mix_desc *desc = &R->file->desc;
    const cJSON *threshold = cJSON_GetObjectItemCaseSensitive(root, "threshold");
    if (threshold) {
        size_t mark = path_key(R, "threshold");
        desc->threshold = (float)factor(R, threshold);
        desc->has_threshold = 1;
        path_restore(R, mark);
    }
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
    if (!layers) fail(R, OSSA_ERROR_INVALID, "a mix file needs \"layers\"");
    size_t mark = path_key(R, "layers");
    if (!cJSON_IsArray(layers)) fail(R, OSSA_ERROR_INVALID, "must be an array of layers");
    uint32_t count = (uint32_t)cJSON_GetArraySize(layers);
    if (count == 0) warn(R, "no layers: the mix is the rest pose");
    ossa_mix_layer *out = alloc(R, count, sizeof *out);
    uint32_t i = 0;
    for (const cJSON *item = layers->child; item; item = item->next, i++) {
        size_t inner = path_push(R, "[%u]", i);
        layer(R, item, out, i);
        path_restore(R, inner);
    }
    path_restore(R, mark);
    desc->layers = out;
    desc->layer_count = count;
    static const char *const extras[] = {"root_motion", "ik"};
    for (int k = 0; k < 2; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, extras[k]);
        if (!item) continue;
        mark = path_key(R, extras[k]);
        if (k == 0)
            root_motion(R, item);
        else
            ik_entries(R, item);
        path_restore(R, mark);
    }
}

static int compare_keys(const void *a, const void *b) {
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* A key the object names twice, or NULL: its members sorted by key, neighbours compared (no
 * quadratic pass over a large object). */
static const char *duplicate_key(reader *R, const cJSON *object) {
    size_t count = 0;
    for (const cJSON *child = object->child; child; child = child->next)
        count++;
    if (count < 2) return NULL;
    const ossa_allocator *a = &R->file->owned.allocator;
    const cJSON **sorted = a->alloc(a->user, count * sizeof *sorted);
    if (!sorted) fail(R, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t n = 0;
    for (const cJSON *child = object->child; child; child = child->next)
        sorted[n++] = child;
    qsort(sorted, count, sizeof *sorted, compare_keys);
    const char *found = NULL;
    for (size_t i = 1; i < count && !found; i++)
        if (!strcmp(sorted[i - 1]->string, sorted[i]->string)) found = sorted[i]->string;
    a->free(a->user, sorted);
    return found;
}

/* Refuses an object that names a key twice, anywhere in the text: which value would count is
 * a guess (glTF says keys should be unique; mix files say they must). */
static void refuse_duplicate_keys(reader *R, const cJSON *item) {
    if (cJSON_IsObject(item)) {
        const char *key = duplicate_key(R, item);
        if (key) fail(R, OSSA_ERROR_INVALID, "the key '%s' appears twice in this object", key);
    }
    int index = 0;
    for (const cJSON *child = item->child; child; child = child->next, index++) {
        size_t mark =
            cJSON_IsObject(item) ? path_key(R, child->string) : path_push(R, "[%d]", index);
        refuse_duplicate_keys(R, child);
        path_restore(R, mark);
    }
}

/* Parses into R->file; the reader lives in the caller, so longjmp leaves it intact. */
static ossa_result parse(reader *R, const char *json, size_t size) {
    cJSON *volatile root = NULL;
    if (setjmp(R->fail_jump)) {
        cJSON_Delete(root);
        return R->error->code;
    }
    if (size >= 3 && !memcmp(json, "\xEF\xBB\xBF", 3))
        fail(R, OSSA_ERROR_JSON,
             "the JSON text starts with a UTF-8 byte order mark, which mix files forbid as glTF "
             "does");
    const char *end = NULL;
    root = cJSON_ParseWithLengthOpts(json, size, &end, 0);
    if (!root)
        fail(R, OSSA_ERROR_JSON, "the JSON text does not parse (near byte %zu)",
             end ? (size_t)(end - json) : (size_t)0);
    refuse_duplicate_keys(R, root);
    parse_root(R, root);
    cJSON_Delete(root);
    return OSSA_OK;
}

ossa_result ossa_mix_file_parse(const char *json, size_t size, const char *file_name,
                                const ossa_model *model, const ossa_allocator *allocator,
                                ossa_mix_file **out, ossa_error *error) {
    ossa_error scratch_error;
    reader R = {0};
    R.model = model;
    R.file_name = file_name;
    R.error = error ? error : &scratch_error;
    *out = NULL;
    ossa_owned owned;
    ossa_owned_init(&owned, allocator);
    R.file = owned.allocator.alloc(owned.allocator.user, sizeof *R.file);
    if (!R.file) {
        memset(R.error, 0, sizeof *R.error);
        R.error->code = OSSA_ERROR_OUT_OF_MEMORY;
        snprintf(R.error->message, sizeof R.error->message, "out of memory");
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    memset(R.file, 0, sizeof *R.file);
    R.file->owned = owned;
    ossa_result r = parse(&R, json, size);
    if (r != OSSA_OK) {
        ossa_mix_file_free(R.file);
        return r;
    }
    *out = R.file;
    return OSSA_OK;
}

const ossa_mix_desc *ossa_mix_file_desc(const ossa_mix_file *file) {
    return &file->desc;
}

uint32_t ossa_mix_file_warning_count(const ossa_mix_file *file) {
    return file->warning_count;
}

const ossa_warning *ossa_mix_file_warning(const ossa_mix_file *file, uint32_t index) {
    return index < file->warning_count ? &file->warnings[index] : NULL;
}

const ossa_root_motion_desc *ossa_mix_file_root_motion(const ossa_mix_file *file) {
    return file->has_root_motion ? &file->root_motion : NULL;
}

uint32_t ossa_mix_file_ik_count(const ossa_mix_file *file) {
    return file->ik_count;
}

const ossa_mix_ik *ossa_mix_file_ik(const ossa_mix_file *file, uint32_t index) {
    return index < file->ik_count ? &file->ik[index] : NULL;
}

void ossa_mix_file_free(ossa_mix_file *file) {
    if (!file) return;
    ossa_owned owned = file->owned;
    ossa_owned_release(&owned);
    owned.allocator.free(owned.allocator.user, file);
}
