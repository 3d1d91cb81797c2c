/* meshes: primitives, attribute semantics and formats, morph targets, default weights. */
#include <stdlib.h>
#include <string.h>

#include "io/loader.h"

/* Reads "PREFIX_n" (n without leading zeros); returns 1 and sets *set on a match. */
static int indexed_name(const char *name, const char *prefix, uint32_t *set) {
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) || name[n] != '_') return 0;
    const char *digits = name + n + 1;
    if (!*digits || (digits[0] == '0' && digits[1])) return -1;
    uint64_t v = 0;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000) return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *set = (uint32_t)v;
    return 1;
}

/* The semantic of an attribute name; refuses names glTF does not define. */
static ossa_semantic parse_semantic(ossa_io_loader *L, const char *name, uint32_t *set) {
    *set = 0;
    if (!strcmp(name, "POSITION")) return OSSA_SEMANTIC_POSITION;
    if (!strcmp(name, "NORMAL")) return OSSA_SEMANTIC_NORMAL;
    if (!strcmp(name, "TANGENT")) return OSSA_SEMANTIC_TANGENT;
    if (name[0] == '_') return OSSA_SEMANTIC_CUSTOM;
    static const struct {
        const char *prefix;
        ossa_semantic semantic;
    } indexed[] = {{"TEXCOORD", OSSA_SEMANTIC_TEXCOORD},
                   {"COLOR", OSSA_SEMANTIC_COLOR},
                   {"JOINTS", OSSA_SEMANTIC_JOINTS},
                   {"WEIGHTS", OSSA_SEMANTIC_WEIGHTS}};
    for (size_t i = 0; i < sizeof indexed / sizeof indexed[0]; i++) {
        int r = indexed_name(name, indexed[i].prefix, set);
        if (r == 1) return indexed[i].semantic;
        if (r < 0) break;
    }
    ossa_io_fail(L, OSSA_ERROR_INVALID,
                 "'%s' is not a glTF attribute name (application-specific names start with "
                 "'_')",
                 name);
}

static int is_small_int(ossa_component_type c) {
    return c == OSSA_COMPONENT_BYTE || c == OSSA_COMPONENT_UNSIGNED_BYTE ||
           c == OSSA_COMPONENT_SHORT || c == OSSA_COMPONENT_UNSIGNED_SHORT;
}

/* The format table of the spec, widened by KHR_mesh_quantization when it is required. */
static int format_allowed(ossa_semantic s, const ossa_accessor *a, int quant, int target) {
    ossa_component_type c = a->component_type;
    int fl = c == OSSA_COMPONENT_FLOAT;
    int norm8_16 =
        a->normalized && (c == OSSA_COMPONENT_UNSIGNED_BYTE || c == OSSA_COMPONENT_UNSIGNED_SHORT);
    int snorm = a->normalized && (c == OSSA_COMPONENT_BYTE || c == OSSA_COMPONENT_SHORT);
    int signed_any = c == OSSA_COMPONENT_BYTE || c == OSSA_COMPONENT_SHORT;
    switch (s) {
    case OSSA_SEMANTIC_POSITION:
        return a->type == OSSA_TYPE_VEC3 &&
               (fl || (quant && (target ? signed_any : is_small_int(c))));
    case OSSA_SEMANTIC_NORMAL:
        return a->type == OSSA_TYPE_VEC3 && (fl || (quant && snorm));
    case OSSA_SEMANTIC_TANGENT:
        return a->type == (target ? OSSA_TYPE_VEC3 : OSSA_TYPE_VEC4) && (fl || (quant && snorm));
    case OSSA_SEMANTIC_TEXCOORD:
        return a->type == OSSA_TYPE_VEC2 &&
               (fl || norm8_16 || (quant && (is_small_int(c) && (!target || signed_any))));
    case OSSA_SEMANTIC_COLOR:
        return (a->type == OSSA_TYPE_VEC3 || a->type == OSSA_TYPE_VEC4) &&
               (fl || norm8_16 || (target && quant && snorm));
    case OSSA_SEMANTIC_JOINTS:
        return a->type == OSSA_TYPE_VEC4 && !a->normalized &&
               (c == OSSA_COMPONENT_UNSIGNED_BYTE || c == OSSA_COMPONENT_UNSIGNED_SHORT);
    case OSSA_SEMANTIC_WEIGHTS:
        return a->type == OSSA_TYPE_VEC4 && (fl || norm8_16);
    case OSSA_SEMANTIC_CUSTOM:
        return c != OSSA_COMPONENT_UNSIGNED_INT;
    }
    return 0;
}

/* Layout rules for vertex buffers; harmless when decoding on the CPU, so warned. */
static void check_vertex_view(ossa_io_loader *L, int32_t index) {
    const ossa_accessor *a = &L->doc->accessors[index];
    int32_t view = a->buffer_view;
    const ossa_buffer_view *v = &L->doc->buffer_views[view];
    L->view_usage[view] |= OSSA_IO_USE_VERTEX;
    if (L->view_usage[view] & OSSA_IO_USE_INDEX)
        ossa_io_warn(L, "buffer view %d holds both vertex attributes and indices", view);
    if ((v->byte_offset + a->byte_offset) % 4 || v->byte_stride % 4)
        ossa_io_warn(L, "vertex data of accessor %d is not aligned to 4 bytes", index);
    int32_t first = L->view_vertex_accessor[view];
    if (first < 0)
        L->view_vertex_accessor[view] = index;
    else if (first != index && !v->byte_stride)
        ossa_io_warn(L, "accessors %d and %d share buffer view %d, which has no byteStride", first,
                     index, view);
}

/* Reads one attribute accessor (path at the attribute), checks its format and count. */
static int32_t parse_attribute(ossa_io_loader *L, const cJSON *item, ossa_semantic semantic,
                               int target, uint64_t *count) {
    ossa_document *doc = L->doc;
    int32_t index = ossa_io_accessor_value(L, item);
    const ossa_accessor *a = &doc->accessors[index];
    if (!format_allowed(semantic, a, L->quantization, target))
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "accessor %d is %s %s%s, not a format glTF allows for this attribute%s", index,
                     ossa_io_type_name(a->type), ossa_io_component_name(a->component_type),
                     a->normalized ? " normalized" : "",
                     L->quantization ? "" : " (without KHR_mesh_quantization)");
    if (*count && a->count != *count)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "accessor %d has %llu elements, but the primitive's other attributes have "
                     "%llu",
                     index, (unsigned long long)a->count, (unsigned long long)*count);
    *count = a->count;
    if (a->buffer_view >= 0) check_vertex_view(L, index);
    return index;
}

static void parse_targets(ossa_io_loader *L, const cJSON *prim, ossa_primitive *p,
                          uint64_t *count) {
    const cJSON *array;
    p->target_count = ossa_io_get_array(L, prim, "targets", &array, 0);
    p->targets = ossa_io_alloc_array(L, p->target_count, sizeof *p->targets);
    size_t top = ossa_io_path_key(L, "targets");
    uint32_t t = 0;
    const cJSON *target;
    cJSON_ArrayForEach(target, array) {
        size_t mark = ossa_io_path_index(L, t);
        ossa_io_expect_object(L, target);
        ossa_morph_target *mt = &p->targets[t];
        mt->position = mt->normal = mt->tangent = -1;
        const cJSON *item;
        cJSON_ArrayForEach(item, target) {
            size_t inner = ossa_io_path_key(L, item->string);
            uint32_t set;
            ossa_semantic s = parse_semantic(L, item->string, &set);
            if (s == OSSA_SEMANTIC_JOINTS || s == OSSA_SEMANTIC_WEIGHTS)
                ossa_io_fail(L, OSSA_ERROR_INVALID, "morph targets cannot move %s", item->string);
            int32_t index = parse_attribute(L, item, s, 1, count);
            int has_base = 0;
            for (uint32_t k = 0; k < p->attribute_count; k++)
                has_base |= !strcmp(p->attributes[k].name, item->string);
            if (!has_base)
                ossa_io_warn(L, "the primitive has no %s attribute for this target to move",
                             item->string);
            if (s == OSSA_SEMANTIC_POSITION && !L->doc->accessors[index].has_min_max)
                ossa_io_warn(L, "the POSITION accessor %d of a morph target has no min and max",
                             index);
            if (s == OSSA_SEMANTIC_POSITION)
                mt->position = index;
            else if (s == OSSA_SEMANTIC_NORMAL)
                mt->normal = index;
            else if (s == OSSA_SEMANTIC_TANGENT)
                mt->tangent = index;
            ossa_io_path_restore(L, inner);
        }
        ossa_io_path_restore(L, mark);
        t++;
    }
    ossa_io_path_restore(L, top);
}

static void parse_indices(ossa_io_loader *L, const cJSON *prim, ossa_primitive *p) {
    ossa_document *doc = L->doc;
    p->indices = ossa_io_get_accessor(L, prim, "indices", 0);
    if (p->indices < 0) return;
    size_t mark = ossa_io_path_key(L, "indices");
    const ossa_accessor *a = &doc->accessors[p->indices];
    ossa_component_type c = a->component_type;
    if (a->type != OSSA_TYPE_SCALAR || a->normalized ||
        (c != OSSA_COMPONENT_UNSIGNED_BYTE && c != OSSA_COMPONENT_UNSIGNED_SHORT &&
         c != OSSA_COMPONENT_UNSIGNED_INT))
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "accessor %d is %s %s%s; indices must be SCALAR UNSIGNED_BYTE, "
                     "UNSIGNED_SHORT or UNSIGNED_INT",
                     p->indices, ossa_io_type_name(a->type), ossa_io_component_name(c),
                     a->normalized ? " normalized" : "");
    /* Without a bufferView the indices are zeros (or sparse values over zeros), as for any
     * accessor. */
    if (a->buffer_view < 0) {
        ossa_io_path_restore(L, mark);
        return;
    }
    if (doc->buffer_views[a->buffer_view].byte_stride)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "the buffer view %d of index accessor %d has a byteStride", a->buffer_view,
                     p->indices);
    L->view_usage[a->buffer_view] |= OSSA_IO_USE_INDEX;
    if (L->view_usage[a->buffer_view] & OSSA_IO_USE_VERTEX)
        ossa_io_warn(L, "buffer view %d holds both vertex attributes and indices", a->buffer_view);
    ossa_io_path_restore(L, mark);
}

static void parse_primitive(ossa_io_loader *L, const cJSON *prim, ossa_primitive *p) {
    ossa_document *doc = L->doc;
    static const char *const known[] = {"attributes", "indices", "material",
                                        "mode",       "targets", NULL};
    ossa_io_check_members(L, prim, known);
    p->position = p->normal = p->tangent = p->texcoord0 = p->color0 = -1;
    uint64_t mode = ossa_io_get_uint(L, prim, "mode", 4, 0);
    if (mode > 6)
        ossa_io_fail_key(L, "mode", OSSA_ERROR_INVALID, "must be 0..6, not %llu",
                         (unsigned long long)mode);
    p->mode = (ossa_primitive_mode)mode;
    p->material = ossa_io_get_index(L, prim, "material", doc->material_count, "material", 0);

    const cJSON *attributes = ossa_io_get_object(L, prim, "attributes", 1);
    size_t top = ossa_io_path_key(L, "attributes");
    p->attribute_count = (uint32_t)cJSON_GetArraySize(attributes);
    p->attributes = ossa_io_alloc_array(L, p->attribute_count, sizeof *p->attributes);
    uint32_t max_joints = 0, max_weights = 0;
    uint64_t count = 0;
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, attributes) {
        size_t mark = ossa_io_path_key(L, item->string);
        /* an attribute named again takes the earlier one's place: the later value counts */
        uint32_t slot = i;
        for (uint32_t k = 0; k < i && slot == i; k++)
            if (!strcmp(p->attributes[k].name, item->string)) slot = k;
        if (slot < i) ossa_io_warn(L, "%s", ossa_io_repeated_key);
        ossa_attribute *at = &p->attributes[slot == i ? i++ : slot];
        at->name = ossa_io_strdup(L, item->string);
        at->semantic = parse_semantic(L, item->string, &at->set);
        at->accessor = parse_attribute(L, item, at->semantic, 0, &count);
        switch (at->semantic) {
        case OSSA_SEMANTIC_POSITION:
            p->position = at->accessor;
            break;
        case OSSA_SEMANTIC_NORMAL:
            p->normal = at->accessor;
            break;
        case OSSA_SEMANTIC_TANGENT:
            p->tangent = at->accessor;
            break;
        case OSSA_SEMANTIC_TEXCOORD:
            if (at->set == 0) p->texcoord0 = at->accessor;
            break;
        case OSSA_SEMANTIC_COLOR:
            if (at->set == 0) p->color0 = at->accessor;
            break;
        case OSSA_SEMANTIC_JOINTS:
            if (at->set + 1 > max_joints) max_joints = at->set + 1;
            break;
        case OSSA_SEMANTIC_WEIGHTS:
            if (at->set + 1 > max_weights) max_weights = at->set + 1;
            break;
        case OSSA_SEMANTIC_CUSTOM:
            break;
        }
        ossa_io_path_restore(L, mark);
    }
    p->attribute_count = i;
    if (p->position < 0) ossa_io_warn(L, "the primitive has no POSITION attribute");
    if (p->tangent >= 0 && p->normal < 0)
        ossa_io_warn_key(L, "TANGENT", "TANGENT is given without NORMAL");
    /* Influence sets: JOINTS_n and WEIGHTS_n come in pairs, n = 0, 1, ... without gaps. */
    uint32_t sets = max_joints > max_weights ? max_joints : max_weights;
    p->influence_sets = sets;
    p->joints = ossa_io_alloc_array(L, sets, sizeof *p->joints);
    p->weights = ossa_io_alloc_array(L, sets, sizeof *p->weights);
    for (uint32_t s = 0; s < sets; s++)
        p->joints[s] = p->weights[s] = -1;
    for (uint32_t k = 0; k < p->attribute_count; k++) {
        const ossa_attribute *at = &p->attributes[k];
        if (at->semantic == OSSA_SEMANTIC_JOINTS) p->joints[at->set] = at->accessor;
        if (at->semantic == OSSA_SEMANTIC_WEIGHTS) p->weights[at->set] = at->accessor;
    }
    for (uint32_t s = 0; s < sets; s++)
        if (p->joints[s] < 0 || p->weights[s] < 0)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "%s_%u is missing: JOINTS_n and WEIGHTS_n must come in pairs numbered "
                         "from 0",
                         p->joints[s] < 0 ? "JOINTS" : "WEIGHTS", s);
    ossa_io_path_restore(L, top);
    parse_indices(L, prim, p);
    p->vertex_count = p->position >= 0 ? doc->accessors[p->position].count : 0;
    parse_targets(L, prim, p, &count);
}

static void parse_mesh(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_mesh *m = &L->doc->meshes[index];
    static const char *const known[] = {"primitives", "weights", "name", NULL};
    ossa_io_check_members(L, item, known);
    m->name = ossa_io_dup_string(L, item, "name");
    const cJSON *prims;
    m->primitive_count = ossa_io_get_array(L, item, "primitives", &prims, 1);
    if (m->primitive_count == 0)
        ossa_io_fail_key(L, "primitives", OSSA_ERROR_INVALID, "must have at least one primitive");
    m->primitives = ossa_io_alloc_array(L, m->primitive_count, sizeof *m->primitives);
    size_t top = ossa_io_path_key(L, "primitives");
    uint32_t i = 0;
    const cJSON *prim;
    cJSON_ArrayForEach(prim, prims) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, prim);
        parse_primitive(L, prim, &m->primitives[i]);
        if (i > 0 && m->primitives[i].target_count != m->primitives[0].target_count)
            ossa_io_fail_key(L, "targets", OSSA_ERROR_INVALID,
                             "has %u morph targets, but primitive 0 has %u; all primitives of a "
                             "mesh need the same number",
                             m->primitives[i].target_count, m->primitives[0].target_count);
        ossa_io_path_restore(L, mark);
        i++;
    }
    ossa_io_path_restore(L, top);
    m->target_count = m->primitives[0].target_count;
    const cJSON *weights;
    m->weight_count = ossa_io_get_array(L, item, "weights", &weights, 0);
    if (weights) {
        m->weights = ossa_io_alloc_array(L, m->weight_count, sizeof *m->weights);
        ossa_io_get_floats(L, item, "weights", m->weights, m->weight_count);
        if (m->weight_count != m->target_count)
            ossa_io_fail_key(L, "weights", OSSA_ERROR_INVALID,
                             "has %u weights, but the primitives have %u morph targets",
                             m->weight_count, m->target_count);
    }
}

void ossa_io_parse_meshes(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    doc->mesh_count = ossa_io_get_array(L, L->json.root, "meshes", &array, 0);
    doc->meshes = ossa_io_alloc_array(L, doc->mesh_count, sizeof *doc->meshes);
    ossa_io_visit(L, "meshes", array, parse_mesh);
}
