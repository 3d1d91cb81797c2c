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

/* Converting runs of stored components. Each loop below handles one component type and one
 * output kind, so the per-value work is a load, a conversion and a store with no switch inside; the
 * results are the spec's conversions exactly as the general formulas give them (normalized
 * integers divided in double precision, or, where float is asked for, in float, which gives the
 * double quotient rounded: see unorm_f). */

/* count elements, each n components of type T from src (elements `stride` bytes apart), into
 * OUT values (elements `out_stride` values apart): out = CONVERT(v). */
#define CONVERT_LOOP(T, OUT, CONVERT)                                                              \
    do {                                                                                           \
        OUT *o = (OUT *)out;                                                                       \
        if (stride == n * sizeof(T) && out_stride == n) { /* tightly packed: one run */            \
            for (uint64_t i = 0; i < count * n; i++) {                                             \
                T v;                                                                               \
                memcpy(&v, src + i * sizeof v, sizeof v);                                          \
                o[i] = (OUT)(CONVERT);                                                             \
            }                                                                                      \
            break;                                                                                 \
        }                                                                                          \
        for (uint64_t i = 0; i < count; i++, src += stride, o += out_stride)                       \
            for (uint32_t k = 0; k < n; k++) {                                                     \
                T v;                                                                               \
                memcpy(&v, src + (size_t)k * sizeof v, sizeof v);                                  \
                o[k] = (OUT)(CONVERT);                                                             \
            }                                                                                      \
    } while (0)

/* Stored integers as unsigned 32-bit values (the bits, zero-extended: signed types are only
 * read this way where the spec requires unsigned ones). */
static void convert_uint(const uint8_t *src, size_t stride, uint64_t count, uint32_t n,
                         ossa_component_type type, void *out, size_t out_stride) {
    switch (type) {
    case OSSA_COMPONENT_BYTE:
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        CONVERT_LOOP(uint8_t, uint32_t, v);
        break;
    case OSSA_COMPONENT_SHORT:
    case OSSA_COMPONENT_UNSIGNED_SHORT:
        CONVERT_LOOP(uint16_t, uint32_t, v);
        break;
    default:
        CONVERT_LOOP(uint32_t, uint32_t, v);
        break;
    }
}

/* The spec's conversion of normalized integers, in double (signed values clamp at -1). */
static inline double unorm(double raw, double max) {
    return raw / max;
}
static inline double snorm(double raw, double max) {
    double v = raw / max;
    return v < -1.0 ? -1.0 : v;
}

/* Components as values of OUT (float or double), normalized integers converted by SNORM and UNORM
 * when asked. */
#define CONVERT_ANY(OUT, SNORM, UNORM)                                                             \
    do {                                                                                           \
        switch (type) {                                                                            \
        case OSSA_COMPONENT_BYTE:                                                                  \
            if (normalized)                                                                        \
                CONVERT_LOOP(int8_t, OUT, SNORM(v, 127.0));                                        \
            else                                                                                   \
                CONVERT_LOOP(int8_t, OUT, v);                                                      \
            break;                                                                                 \
        case OSSA_COMPONENT_UNSIGNED_BYTE:                                                         \
            if (normalized)                                                                        \
                CONVERT_LOOP(uint8_t, OUT, UNORM(v, 255.0));                                       \
            else                                                                                   \
                CONVERT_LOOP(uint8_t, OUT, v);                                                     \
            break;                                                                                 \
        case OSSA_COMPONENT_SHORT:                                                                 \
            if (normalized)                                                                        \
                CONVERT_LOOP(int16_t, OUT, SNORM(v, 32767.0));                                     \
            else                                                                                   \
                CONVERT_LOOP(int16_t, OUT, v);                                                     \
            break;                                                                                 \
        case OSSA_COMPONENT_UNSIGNED_SHORT:                                                        \
            if (normalized)                                                                        \
                CONVERT_LOOP(uint16_t, OUT, UNORM(v, 65535.0));                                    \
            else                                                                                   \
                CONVERT_LOOP(uint16_t, OUT, v);                                                    \
            break;                                                                                 \
        case OSSA_COMPONENT_UNSIGNED_INT:                                                          \
            CONVERT_LOOP(uint32_t, OUT, (double)v);                                                \
            break;                                                                                 \
        case OSSA_COMPONENT_FLOAT:                                                                 \
            CONVERT_LOOP(float, OUT, v);                                                           \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

/* Normalized integers divided in float: for stored values below 2^16 in magnitude, the float
 * quotient equals the double one rounded to float. (A double rounding can only differ where the
 * double quotient lands exactly halfway between two floats; c / m with m = 2^k - 1 odd is that
 * close to such a 25-bit midpoint only when it equals it, which needs m to divide c: c = 0 or
 * +-m, whose quotients 0 and +-1 are floats.) The float loops vectorize; the double ones do not. */
static inline float unorm_f(float raw, float max) {
    return raw / max;
}
static inline float snorm_f(float raw, float max) {
    float v = raw / max;
    return v < -1.0f ? -1.0f : v;
}

static void convert_float(const uint8_t *src, size_t stride, uint64_t count, uint32_t n,
                          ossa_component_type type, int normalized, void *out, size_t out_stride) {
    if (type == OSSA_COMPONENT_FLOAT && stride == 4u * n && out_stride == n) {
        memcpy(out, src, (size_t)count * n * sizeof(float)); /* tightly packed: a copy */
        return;
    }
    CONVERT_ANY(float, snorm_f, unorm_f);
}

static void convert_double(const uint8_t *src, size_t stride, uint64_t count, uint32_t n,
                           ossa_component_type type, int normalized, void *out, size_t out_stride) {
    CONVERT_ANY(double, snorm, unorm);
}

/* count elements from src (stride bytes apart) into slots [0, count) of out. A matrix whose columns
 * are padded to 4 bytes is converted column by column. */
static void convert_elements(const ossa_accessor *a, const ossa_io_layout *l, const uint8_t *src,
                             size_t stride, uint64_t count, void *out, ossa_io_output kind) {
    uint32_t columns = l->columns, n = l->rows;
    if (l->column_stride == l->rows * l->component_size) { /* no padding: one run per element */
        columns = 1;
        n = a->components;
    }
    size_t value_size = kind == OSSA_IO_OUT_FLOAT || kind == OSSA_IO_OUT_UINT ? 4 : 8;
    for (uint32_t c = 0; c < columns; c++) {
        const uint8_t *from = src + (size_t)c * l->column_stride;
        void *to = (uint8_t *)out + (size_t)c * n * value_size;
        switch (kind) {
        case OSSA_IO_OUT_UINT:
            convert_uint(from, stride, count, n, a->component_type, to, a->components);
            break;
        case OSSA_IO_OUT_FLOAT:
            convert_float(from, stride, count, n, a->component_type, a->normalized, to,
                          a->components);
            break;
        case OSSA_IO_OUT_DOUBLE:
            convert_double(from, stride, count, n, a->component_type, a->normalized, to,
                           a->components);
            break;
        case OSSA_IO_OUT_DOUBLE_RAW:
            convert_double(from, stride, count, n, a->component_type, 0, to, a->components);
            break;
        }
    }
}

static const uint8_t *view_bytes(const ossa_document *doc, int32_t view, uint64_t offset) {
    const ossa_buffer_view *v = &doc->buffer_views[view];
    return doc->buffers[v->buffer].data + v->byte_offset + offset;
}

static uint64_t sparse_index(const uint8_t *p, ossa_component_type type) {
    switch (type) {
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        return p[0];
    case OSSA_COMPONENT_UNSIGNED_SHORT: {
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

void ossa_io_decode(const ossa_document *doc, int32_t accessor, uint64_t first, uint64_t count,
                    void *out, ossa_io_output kind) {
    const ossa_accessor *a = &doc->accessors[accessor];
    ossa_io_layout l = ossa_io_accessor_layout(a->component_type, a->type);
    size_t value_size = kind == OSSA_IO_OUT_FLOAT || kind == OSSA_IO_OUT_UINT ? 4 : 8;
    if (a->buffer_view >= 0) {
        uint32_t stride = doc->buffer_views[a->buffer_view].byte_stride;
        if (!stride) stride = l.element_size;
        const uint8_t *base = view_bytes(doc, a->buffer_view, a->byte_offset);
        convert_elements(a, &l, base + first * stride, stride, count, out, kind);
    } else {
        memset(out, 0, (size_t)(count * a->components) * value_size); /* 0, 0.0f and 0.0 */
    }
    const ossa_accessor_sparse *s = &a->sparse;
    if (!s->count) return;
    const uint8_t *indices = view_bytes(doc, s->indices_buffer_view, s->indices_byte_offset);
    const uint8_t *values = view_bytes(doc, s->values_buffer_view, s->values_byte_offset);
    ossa_component_type itype = s->indices_component_type;
    uint32_t index_size = ossa_component_size(itype);
    /* The indices never decrease (they increase, checked at load, or are all zeros standing for
     * bytes not given): the substitutions inside [first, first + count) are one run of them,
     * found by bisection. Its values are converted in batches, then copied to their slots. */
    uint32_t lo = 0, hi = s->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sparse_index(indices + (size_t)mid * index_size, itype) < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    enum { BATCH = 64 };
    double converted[BATCH * 16]; /* room for 16 components of the widest output */
    size_t element_bytes = (size_t)a->components * value_size;
    for (uint32_t k = lo; k < s->count;) {
        uint64_t slot[BATCH];
        uint32_t n = 0;
        while (n < BATCH && k + n < s->count) {
            uint64_t target = sparse_index(indices + (size_t)(k + n) * index_size, itype);
            if (target - first >= count) break;
            slot[n++] = target - first;
        }
        if (!n) break;
        const uint8_t *from = values + (size_t)k * l.element_size;
        if (slot[n - 1] - slot[0] == n - 1) { /* increasing, so consecutive: converted in place */
            convert_elements(a, &l, from, l.element_size, n,
                             (uint8_t *)out + slot[0] * element_bytes, kind);
        } else {
            convert_elements(a, &l, from, l.element_size, n, converted, kind);
            for (uint32_t j = 0; j < n; j++)
                memcpy((uint8_t *)out + slot[j] * element_bytes,
                       (const uint8_t *)converted + j * element_bytes, element_bytes);
        }
        k += n;
        if (n < BATCH) break; /* the run ended */
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
