/* accessors: types, ranges inside their buffer views (overflow-safe), sparse storage. */
#include <string.h>

#include "io/accessor_decode.h"
#include "io/loader.h"

int32_t ossa_io_accessor_value(ossa_io_loader *L, const cJSON *item) {
    int32_t index = ossa_io_index_value(L, item, L->doc->accessor_count, "accessor");
    if (L->acc_info[index].unknown_type)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "accessor %d has an unknown type (see accessors[%d].type) and cannot be used",
                     index, index);
    return index;
}

int32_t ossa_io_get_accessor(ossa_io_loader *L, const cJSON *object, const char *key,
                             int required) {
    const cJSON *item = ossa_io_member(object, key);
    if (!item) {
        if (required) ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "is required but missing");
        return -1;
    }
    size_t mark = ossa_io_path_key(L, key);
    int32_t index = ossa_io_accessor_value(L, item);
    ossa_io_path_restore(L, mark);
    return index;
}

/* An unknown type is harmless while nothing uses the accessor: warned, read as SCALAR. */
static ossa_accessor_type parse_type(ossa_io_loader *L, const cJSON *item, int *unknown) {
    const char *name = ossa_io_get_string(L, item, "type", 1);
    static const struct {
        const char *name;
        ossa_accessor_type type;
    } types[] = {{"SCALAR", OSSA_TYPE_SCALAR}, {"VEC2", OSSA_TYPE_VEC2}, {"VEC3", OSSA_TYPE_VEC3},
                 {"VEC4", OSSA_TYPE_VEC4},     {"MAT2", OSSA_TYPE_MAT2}, {"MAT3", OSSA_TYPE_MAT3},
                 {"MAT4", OSSA_TYPE_MAT4}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(types[i].name, name)) return types[i].type;
    ossa_io_warn_key(L, "type",
                     "'%s' is not an accessor type (SCALAR, VEC2..4, MAT2..4); the accessor "
                     "cannot be used",
                     name);
    *unknown = 1;
    return OSSA_TYPE_SCALAR;
}

static uint32_t component_count(ossa_accessor_type type) {
    switch (type) {
    case OSSA_TYPE_MAT2:
        return 4;
    case OSSA_TYPE_MAT3:
        return 9;
    case OSSA_TYPE_MAT4:
        return 16;
    default:
        return (uint32_t)type;
    }
}

/* Checks that `count` items of `size` bytes, `stride` apart, starting at `offset` fit in
 * `length` bytes; all in 64 bits without overflow. */
static int fits(uint64_t offset, uint64_t count, uint64_t stride, uint64_t size, uint64_t length) {
    if (count == 0) return offset <= length;
    if (offset > length || size > length - offset) return 0;
    uint64_t room = length - offset - size;
    return stride == 0 || count - 1 <= room / stride;
}

/* The bytes the last element needs: a matrix pads each column to 4 bytes but its last column
 * needs no padding after it, so a buffer view may end right after that column. */
static uint32_t last_element_size(const ossa_io_layout *layout) {
    return (layout->columns - 1) * layout->column_stride + layout->rows * layout->component_size;
}

static void parse_min_max(ossa_io_loader *L, const cJSON *item, ossa_accessor *a) {
    int has_min = 0, has_max = 0;
    const char *keys[2] = {"min", "max"};
    for (int m = 0; m < 2; m++) {
        const cJSON *array = ossa_io_member(item, keys[m]);
        if (!array) continue;
        size_t mark = ossa_io_path_key(L, keys[m]);
        if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != (int)a->components)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "must be an array of %u numbers", a->components);
        ossa_io_path_restore(L, mark);
        ossa_io_get_floats(L, item, keys[m], m ? a->max : a->min, a->components);
        if (m)
            has_max = 1;
        else
            has_min = 1;
    }
    if (has_min != has_max) ossa_io_warn(L, "has only one of min and max");
    a->has_min_max = has_min && has_max;
}

static uint32_t parse_component_type(ossa_io_loader *L, const cJSON *item, const char *key) {
    uint64_t ct = ossa_io_get_uint(L, item, key, 0, 1);
    if (ct < 5120 || ct > 5126 || ct == 5124)
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "%llu is not a glTF component type",
                         (unsigned long long)ct);
    return (uint32_t)ct;
}

/* Sparse indices must strictly increase and stay below the accessor's count. */
static void check_sparse_indices(ossa_io_loader *L, const ossa_accessor *a) {
    const ossa_accessor_sparse *s = &a->sparse;
    const ossa_buffer_view *v = &L->doc->buffer_views[s->indices_buffer_view];
    if (L->buffer_placeholder[v->buffer]) return; /* zeros stand for bytes not given */
    const uint8_t *p = L->doc->buffers[v->buffer].data + v->byte_offset + s->indices_byte_offset;
    uint32_t size = ossa_component_size(s->indices_component_type);
    double previous = -1;
    for (uint32_t k = 0; k < s->count; k++) {
        double index = ossa_io_component_raw(p + (size_t)k * size, s->indices_component_type);
        if (index >= (double)a->count)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "sparse index %u is %.0f, outside the accessor's %llu elements", k, index,
                         (unsigned long long)a->count);
        if (index <= previous)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "sparse indices must increase (index %u is %.0f after %.0f)", k, index,
                         previous);
        previous = index;
    }
}

static void parse_sparse(ossa_io_loader *L, const cJSON *item, ossa_accessor *a,
                         const ossa_io_layout *layout) {
    const cJSON *sparse = ossa_io_get_object(L, item, "sparse", 0);
    if (!sparse) return;
    ossa_document *doc = L->doc;
    size_t mark = ossa_io_path_key(L, "sparse");
    static const char *const known[] = {"count", "indices", "values", NULL};
    ossa_io_check_members(L, sparse, known);
    uint64_t count = ossa_io_get_uint(L, sparse, "count", 0, 1);
    if (count < 1 || count > a->count)
        ossa_io_fail_key(L, "count", OSSA_ERROR_INVALID,
                         "is %llu, but must be between 1 and the accessor's count %llu",
                         (unsigned long long)count, (unsigned long long)a->count);
    a->sparse.count = (uint32_t)count;

    const cJSON *indices = ossa_io_get_object(L, sparse, "indices", 1);
    size_t inner = ossa_io_path_key(L, "indices");
    static const char *const known_indices[] = {"bufferView", "byteOffset", "componentType", NULL};
    ossa_io_check_members(L, indices, known_indices);
    a->sparse.indices_buffer_view =
        ossa_io_get_index(L, indices, "bufferView", doc->buffer_view_count, "buffer view", 1);
    a->sparse.indices_byte_offset = ossa_io_get_uint(L, indices, "byteOffset", 0, 0);
    a->sparse.indices_component_type = parse_component_type(L, indices, "componentType");
    ossa_component_type ict = a->sparse.indices_component_type;
    if (ict != OSSA_COMPONENT_UNSIGNED_BYTE && ict != OSSA_COMPONENT_UNSIGNED_SHORT &&
        ict != OSSA_COMPONENT_UNSIGNED_INT)
        ossa_io_fail_key(L, "componentType", OSSA_ERROR_INVALID,
                         "sparse indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT");
    const ossa_buffer_view *iv = &doc->buffer_views[a->sparse.indices_buffer_view];
    if (iv->byte_stride) ossa_io_warn(L, "the buffer view of sparse indices has a byteStride");
    uint32_t isize = ossa_component_size(ict);
    if ((iv->byte_offset + a->sparse.indices_byte_offset) % isize)
        ossa_io_fail_key(L, "byteOffset", OSSA_ERROR_INVALID,
                         "sparse indices are not aligned to their component size %u", isize);
    if (!fits(a->sparse.indices_byte_offset, count, isize, isize, iv->byte_length))
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "%llu sparse indices at byteOffset %llu do not fit in buffer view %d "
                     "(%llu bytes)",
                     (unsigned long long)count, (unsigned long long)a->sparse.indices_byte_offset,
                     a->sparse.indices_buffer_view, (unsigned long long)iv->byte_length);
    check_sparse_indices(L, a);
    ossa_io_path_restore(L, inner);

    const cJSON *values = ossa_io_get_object(L, sparse, "values", 1);
    inner = ossa_io_path_key(L, "values");
    static const char *const known_values[] = {"bufferView", "byteOffset", NULL};
    ossa_io_check_members(L, values, known_values);
    a->sparse.values_buffer_view =
        ossa_io_get_index(L, values, "bufferView", doc->buffer_view_count, "buffer view", 1);
    a->sparse.values_byte_offset = ossa_io_get_uint(L, values, "byteOffset", 0, 0);
    const ossa_buffer_view *vv = &doc->buffer_views[a->sparse.values_buffer_view];
    if (vv->byte_stride) ossa_io_warn(L, "the buffer view of sparse values has a byteStride");
    if ((vv->byte_offset + a->sparse.values_byte_offset) % layout->component_size)
        ossa_io_fail_key(L, "byteOffset", OSSA_ERROR_INVALID,
                         "sparse values are not aligned to their component size %u",
                         layout->component_size);
    if (!fits(a->sparse.values_byte_offset, count, layout->element_size, last_element_size(layout),
              vv->byte_length))
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "%llu sparse values at byteOffset %llu do not fit in buffer view %d "
                     "(%llu bytes)",
                     (unsigned long long)count, (unsigned long long)a->sparse.values_byte_offset,
                     a->sparse.values_buffer_view, (unsigned long long)vv->byte_length);
    ossa_io_path_restore(L, inner);
    ossa_io_path_restore(L, mark);
}

static void parse_accessor(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_document *doc = L->doc;
    ossa_accessor *a = &doc->accessors[index];
    static const char *const known[] = {
        "bufferView", "byteOffset", "componentType", "normalized", "count", "type",
        "max",        "min",        "sparse",        "name",       NULL};
    ossa_io_check_members(L, item, known);
    a->name = ossa_io_dup_string(L, item, "name");
    a->buffer_view =
        ossa_io_get_index(L, item, "bufferView", doc->buffer_view_count, "buffer view", 0);
    a->byte_offset = ossa_io_get_uint(L, item, "byteOffset", 0, 0);
    a->component_type = parse_component_type(L, item, "componentType");
    a->normalized = ossa_io_get_bool(L, item, "normalized", 0);
    a->count = ossa_io_get_uint(L, item, "count", 0, 1);
    a->type = parse_type(L, item, &L->acc_info[index].unknown_type);
    a->components = component_count(a->type);
    if (a->count < 1) ossa_io_fail_key(L, "count", OSSA_ERROR_INVALID, "must be at least 1");
    if (a->count > L->max_elements)
        ossa_io_fail_key(L, "count", OSSA_ERROR_LIMIT, "is %llu, over the limit of %llu",
                         (unsigned long long)a->count, (unsigned long long)L->max_elements);
    if (a->normalized && (a->component_type == OSSA_COMPONENT_FLOAT ||
                          a->component_type == OSSA_COMPONENT_UNSIGNED_INT))
        ossa_io_fail_key(L, "normalized", OSSA_ERROR_INVALID,
                         "only BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT can be normalized");
    ossa_io_layout layout = ossa_io_accessor_layout(a->component_type, a->type);
    ossa_io_accessor_info *info = &L->acc_info[index];
    info->element_size = layout.element_size;
    info->stride = layout.element_size;
    if (a->buffer_view < 0) {
        if (ossa_io_member(item, "byteOffset"))
            ossa_io_fail_key(L, "byteOffset", OSSA_ERROR_INVALID,
                             "is given but the accessor has no bufferView");
    } else {
        const ossa_buffer_view *v = &doc->buffer_views[a->buffer_view];
        uint32_t csize = layout.component_size;
        if (a->byte_offset % csize)
            ossa_io_fail_key(L, "byteOffset", OSSA_ERROR_INVALID,
                             "%llu is not a multiple of the component size %u",
                             (unsigned long long)a->byte_offset, csize);
        if ((v->byte_offset + a->byte_offset) % csize)
            ossa_io_fail_key(L, "byteOffset", OSSA_ERROR_INVALID,
                             "the accessor starts at buffer byte %llu, not a multiple of the "
                             "component size %u",
                             (unsigned long long)(v->byte_offset + a->byte_offset), csize);
        /* Columns are aligned inside the buffer view, as vertex attributes are (the view itself
         * may start at any multiple of the component size). */
        if (layout.columns > 1 && a->byte_offset % 4)
            ossa_io_fail_key(L, "byteOffset", OSSA_ERROR_INVALID,
                             "matrix accessors must start on a 4-byte boundary of their buffer "
                             "view (it is %llu)",
                             (unsigned long long)a->byte_offset);
        if (v->byte_stride) {
            if (v->byte_stride < layout.element_size)
                ossa_io_fail(L, OSSA_ERROR_INVALID,
                             "buffer view %d has byteStride %u, less than the element size %u",
                             a->buffer_view, v->byte_stride, layout.element_size);
            if (v->byte_stride % csize)
                ossa_io_fail(L, OSSA_ERROR_INVALID,
                             "buffer view %d has byteStride %u, not a multiple of the component "
                             "size %u",
                             a->buffer_view, v->byte_stride, csize);
            info->stride = v->byte_stride;
        }
        if (!fits(a->byte_offset, a->count, info->stride, last_element_size(&layout),
                  v->byte_length))
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "%llu elements of %u bytes (stride %u) from byteOffset %llu do not fit "
                         "in buffer view %d (%llu bytes)",
                         (unsigned long long)a->count, layout.element_size, info->stride,
                         (unsigned long long)a->byte_offset, a->buffer_view,
                         (unsigned long long)v->byte_length);
    }
    /* An unknown type has no component count to check min and max against; the warning at
     * `type` says why the accessor cannot be used. */
    if (!info->unknown_type) parse_min_max(L, item, a);
    parse_sparse(L, item, a, &layout);
}

void ossa_io_parse_accessors(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    uint32_t count = ossa_io_get_array(L, L->json.root, "accessors", &array, 0);
    size_t top = ossa_io_path_key(L, "accessors");
    doc->accessors = ossa_io_alloc_array(L, count, sizeof *doc->accessors);
    L->acc_info = ossa_io_alloc_array(L, count, sizeof *L->acc_info);
    doc->accessor_count = count;
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, item);
        doc->accessors[i].buffer_view = -1;
        doc->accessors[i].sparse.indices_buffer_view = -1;
        doc->accessors[i].sparse.values_buffer_view = -1;
        parse_accessor(L, item, i);
        ossa_io_path_restore(L, mark);
        i++;
    }
    ossa_io_path_restore(L, top);
}
