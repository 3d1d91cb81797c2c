/* Accessors: element layout, decoding (strides, normalized integers, sparse, matrix padding). */
#include <string.h>

#include "io/accessor_decode.h"
#include "io/loader.h"

uint32_t ossa_component_size(ossa_component_type type) {
    switch (type) {
    case OSSA_COMPONENT_BYTE:
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        return 1;
    case OSSA_COMPONENT_SHORT:
    case OSSA_COMPONENT_UNSIGNED_SHORT:
        return 2;
    case OSSA_COMPONENT_UNSIGNED_INT:
    case OSSA_COMPONENT_FLOAT:
        return 4;
    }
    return 0;
}

const char *ossa_io_type_name(ossa_accessor_type type) {
    switch (type) {
    case OSSA_TYPE_SCALAR:
        return "SCALAR";
    case OSSA_TYPE_VEC2:
        return "VEC2";
    case OSSA_TYPE_VEC3:
        return "VEC3";
    case OSSA_TYPE_VEC4:
        return "VEC4";
    case OSSA_TYPE_MAT2:
        return "MAT2";
    case OSSA_TYPE_MAT3:
        return "MAT3";
    case OSSA_TYPE_MAT4:
        return "MAT4";
    }
    return "?";
}

const char *ossa_io_component_name(ossa_component_type type) {
    switch (type) {
    case OSSA_COMPONENT_BYTE:
        return "BYTE";
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        return "UNSIGNED_BYTE";
    case OSSA_COMPONENT_SHORT:
        return "SHORT";
    case OSSA_COMPONENT_UNSIGNED_SHORT:
        return "UNSIGNED_SHORT";
    case OSSA_COMPONENT_UNSIGNED_INT:
        return "UNSIGNED_INT";
    case OSSA_COMPONENT_FLOAT:
        return "FLOAT";
    }
    return "?";
}

ossa_io_layout ossa_io_accessor_layout(ossa_component_type component, ossa_accessor_type type) {
    ossa_io_layout l;
    l.component_size = ossa_component_size(component);
    if (type == OSSA_TYPE_MAT2 || type == OSSA_TYPE_MAT3 || type == OSSA_TYPE_MAT4) {
        l.columns = l.rows = type == OSSA_TYPE_MAT2 ? 2 : type == OSSA_TYPE_MAT3 ? 3 : 4;
        /* Each column starts on a 4-byte boundary. */
        l.column_stride = (l.rows * l.component_size + 3u) & ~3u;
    } else {
        l.columns = 1;
        l.rows = (uint32_t)type;
        l.column_stride = l.rows * l.component_size;
    }
    l.element_size = l.columns * l.column_stride;
    return l;
}

double ossa_io_component_raw(const uint8_t *p, ossa_component_type type) {
    switch (type) {
    case OSSA_COMPONENT_BYTE:
        return (int8_t)p[0];
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        return p[0];
    case OSSA_COMPONENT_SHORT: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case OSSA_COMPONENT_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case OSSA_COMPONENT_UNSIGNED_INT: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    case OSSA_COMPONENT_FLOAT: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
    return 0;
}

static uint32_t component_uint(const uint8_t *p, ossa_component_type type) {
    switch (type) {
    case OSSA_COMPONENT_UNSIGNED_BYTE:
    case OSSA_COMPONENT_BYTE:
        return p[0];
    case OSSA_COMPONENT_UNSIGNED_SHORT:
    case OSSA_COMPONENT_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    default: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* The spec's conversion of normalized integers to floats. */
static double normalized_value(double raw, ossa_component_type type) {
    double v;
    switch (type) {
    case OSSA_COMPONENT_BYTE:
        v = raw / 127.0;
        break;
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        return raw / 255.0;
    case OSSA_COMPONENT_SHORT:
        v = raw / 32767.0;
        break;
    case OSSA_COMPONENT_UNSIGNED_SHORT:
        return raw / 65535.0;
    default:
        return raw;
    }
    return v < -1.0 ? -1.0 : v;
}

/* Writes the components of one stored element at `src` to slot `slot` of out. */
static void put_element(const ossa_accessor *a, const ossa_io_layout *l, const uint8_t *src,
                        void *out, uint64_t slot, ossa_io_output kind) {
    uint64_t base = slot * a->components;
    uint32_t k = 0;
    for (uint32_t c = 0; c < l->columns; c++) {
        const uint8_t *p = src + (size_t)c * l->column_stride;
        for (uint32_t r = 0; r < l->rows; r++, k++, p += l->component_size) {
            if (kind == OSSA_IO_OUT_UINT) {
                ((uint32_t *)out)[base + k] = component_uint(p, a->component_type);
                continue;
            }
            double v = ossa_io_component_raw(p, a->component_type);
            if (kind != OSSA_IO_OUT_DOUBLE_RAW && a->normalized)
                v = normalized_value(v, a->component_type);
            if (kind == OSSA_IO_OUT_FLOAT)
                ((float *)out)[base + k] = (float)v;
            else
                ((double *)out)[base + k] = v;
        }
    }
}

static void put_zero(const ossa_accessor *a, void *out, uint64_t slot, ossa_io_output kind) {
    uint64_t base = slot * a->components;
    for (uint32_t k = 0; k < a->components; k++) {
        if (kind == OSSA_IO_OUT_UINT)
            ((uint32_t *)out)[base + k] = 0;
        else if (kind == OSSA_IO_OUT_FLOAT)
            ((float *)out)[base + k] = 0.0f;
        else
            ((double *)out)[base + k] = 0.0;
    }
}

static const uint8_t *view_bytes(const ossa_document *doc, int32_t view, uint64_t offset) {
    const ossa_buffer_view *v = &doc->buffer_views[view];
    return doc->buffers[v->buffer].data + v->byte_offset + offset;
}

void ossa_io_decode(const ossa_document *doc, int32_t accessor, uint64_t first, uint64_t count,
                    void *out, ossa_io_output kind) {
    const ossa_accessor *a = &doc->accessors[accessor];
    ossa_io_layout l = ossa_io_accessor_layout(a->component_type, a->type);
    if (a->buffer_view >= 0) {
        uint32_t stride = doc->buffer_views[a->buffer_view].byte_stride;
        if (!stride) stride = l.element_size;
        const uint8_t *base = view_bytes(doc, a->buffer_view, a->byte_offset);
        for (uint64_t i = 0; i < count; i++)
            put_element(a, &l, base + (first + i) * stride, out, i, kind);
    } else {
        for (uint64_t i = 0; i < count; i++)
            put_zero(a, out, i, kind);
    }
    const ossa_accessor_sparse *s = &a->sparse;
    if (!s->count) return;
    const uint8_t *indices = view_bytes(doc, s->indices_buffer_view, s->indices_byte_offset);
    const uint8_t *values = view_bytes(doc, s->values_buffer_view, s->values_byte_offset);
    uint32_t index_size = ossa_component_size(s->indices_component_type);
    for (uint32_t k = 0; k < s->count; k++) {
        uint64_t target =
            component_uint(indices + (size_t)k * index_size, s->indices_component_type);
        if (target < first || target - first >= count) continue;
        put_element(a, &l, values + (size_t)k * l.element_size, out, target - first, kind);
    }
}

static ossa_result check_range(const ossa_document *doc, int32_t accessor, uint64_t first,
                               uint64_t count, const void *out) {
    if (!doc || accessor < 0 || (uint32_t)accessor >= doc->accessor_count)
        return OSSA_ERROR_ARGUMENT;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (first > a->count || count > a->count - first) return OSSA_ERROR_ARGUMENT;
    if (count && !out) return OSSA_ERROR_ARGUMENT;
    return OSSA_OK;
}

ossa_result ossa_accessor_read_float(const ossa_document *document, int32_t accessor,
                                     uint64_t first, uint64_t count, float *out) {
    ossa_result r = check_range(document, accessor, first, count, out);
    if (r != OSSA_OK) return r;
    ossa_io_decode(document, accessor, first, count, out, OSSA_IO_OUT_FLOAT);
    return OSSA_OK;
}

ossa_result ossa_accessor_read_uint(const ossa_document *document, int32_t accessor, uint64_t first,
                                    uint64_t count, uint32_t *out) {
    ossa_result r = check_range(document, accessor, first, count, out);
    if (r != OSSA_OK) return r;
    ossa_component_type c = document->accessors[accessor].component_type;
    if (c != OSSA_COMPONENT_UNSIGNED_BYTE && c != OSSA_COMPONENT_UNSIGNED_SHORT &&
        c != OSSA_COMPONENT_UNSIGNED_INT)
        return OSSA_ERROR_ARGUMENT;
    ossa_io_decode(document, accessor, first, count, out, OSSA_IO_OUT_UINT);
    return OSSA_OK;
}
