/* Accessor data: finite floats and the declared min/max (both warned: harmless while unused). */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "io/accessor_decode.h"
#include "io/float_bounds.h"
#include "io/loader.h"

/* Declared bounds are compared to the stored values; a float32 rounding of either is accepted. */
static int same_value(double declared, double actual) {
    if (declared == actual || (float)declared == (float)actual) return 1;
    return fabs(declared - actual) <= 1e-6 * fmax(1.0, fabs(actual));
}

/* The bounds of N components of type T per element, read in place (p, stride, count), into
 * lo_out and hi_out; `special` becomes non-zero when a value is not a finite number: v - v is 0
 * for every finite v and NaN for infinities and NaN, and a NaN stays in the sum (for integers the
 * sums stay 0). N is a constant where it can be, so the bounds stay in registers. */
#define BOUNDS(T, N)                                                                               \
    do {                                                                                           \
        T lo[16], hi[16], sum[16];                                                                 \
        memcpy(lo, p, (N) * sizeof(T));                                                            \
        memcpy(hi, p, (N) * sizeof(T));                                                            \
        memset(sum, 0, sizeof sum);                                                                \
        for (uint64_t e = 0; e < count; e++, p += stride)                                          \
            for (uint32_t k = 0; k < (N); k++) {                                                   \
                T v;                                                                               \
                memcpy(&v, p + k * sizeof(T), sizeof v);                                           \
                sum[k] += v - v;                                                                   \
                lo[k] = v < lo[k] ? v : lo[k];                                                     \
                hi[k] = v > hi[k] ? v : hi[k];                                                     \
            }                                                                                      \
        for (uint32_t k = 0; k < (N); k++) {                                                       \
            special |= sum[k] != 0;                                                                \
            lo_out[k] = lo[k];                                                                     \
            hi_out[k] = hi[k];                                                                     \
        }                                                                                          \
    } while (0)

/* BOUNDS with N a constant for the common element sizes. */
#define BOUNDS_OF(T)                                                                               \
    do {                                                                                           \
        if (n == 1)                                                                                \
            BOUNDS(T, 1);                                                                          \
        else if (n == 2)                                                                           \
            BOUNDS(T, 2);                                                                          \
        else if (n == 3)                                                                           \
            BOUNDS(T, 3);                                                                          \
        else if (n == 4)                                                                           \
            BOUNDS(T, 4);                                                                          \
        else                                                                                       \
            BOUNDS(T, n);                                                                          \
    } while (0)

/* Returns 0 when a float is not a finite number. */
static int bounds(const uint8_t *p, size_t stride, uint64_t count, uint32_t n,
                  ossa_component_type type, double *lo_out, double *hi_out) {
    int special = 0;
#if OSSA_IO_PACKED_FLOAT_BOUNDS
    if (type == OSSA_COMPONENT_FLOAT && stride == n * sizeof(float))
        return ossa_io_packed_float_bounds(p, count, n, lo_out, hi_out);
#endif
    switch (type) {
    case OSSA_COMPONENT_BYTE:
        BOUNDS_OF(int8_t);
        break;
    case OSSA_COMPONENT_UNSIGNED_BYTE:
        BOUNDS_OF(uint8_t);
        break;
    case OSSA_COMPONENT_SHORT:
        BOUNDS_OF(int16_t);
        break;
    case OSSA_COMPONENT_UNSIGNED_SHORT:
        BOUNDS_OF(uint16_t);
        break;
    case OSSA_COMPONENT_UNSIGNED_INT:
        BOUNDS_OF(uint32_t);
        break;
    case OSSA_COMPONENT_FLOAT:
        BOUNDS_OF(float);
        break;
    }
    return !special;
}

/* The bounds of an accessor stored plainly (no sparse values, no padded matrix columns), read in
 * place; 0 when that does not apply or a value is not finite (then the general pass counts
 * them). */
static int plain_bounds(ossa_io_loader *L, uint32_t index, double *lo, double *hi) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[index];
    if (a->sparse.count || a->buffer_view < 0 ||
        L->acc_info[index].element_size != a->components * ossa_component_size(a->component_type))
        return 0;
    const ossa_buffer_view *v = &doc->buffer_views[a->buffer_view];
    const uint8_t *p = doc->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
    size_t stride = L->acc_info[index].stride;
    return bounds(p, stride, a->count, a->components, a->component_type, lo, hi);
}

/* One pass over an accessor's values: non-finite floats (warned here; refused later where they
 * would reach transforms, positions, normals or weights) and the declared min/max. */
static void scan_values(ossa_io_loader *L, uint32_t index, double *chunk) {
    ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[index];
    ossa_io_accessor_info *info = &L->acc_info[index];
    double lo[16], hi[16];
    uint64_t non_finite = 0, first_non_finite = 0;
    if (!plain_bounds(L, index, lo, hi)) {
        for (uint32_t k = 0; k < a->components; k++) {
            lo[k] = INFINITY;
            hi[k] = -INFINITY;
        }
        for (uint64_t first = 0; first < a->count; first += OSSA_IO_DECODE_CHUNK) {
            uint64_t n =
                a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
#if OSSA_IO_PACKED_FLOAT_BOUNDS
            /* floats (sparse ones, the usual case here) decoded as floats: a packed run */
            double chunk_lo[16], chunk_hi[16];
            if (a->component_type == OSSA_COMPONENT_FLOAT) {
                ossa_io_decode(doc, (int32_t)index, first, n, chunk, OSSA_IO_OUT_FLOAT);
                if (ossa_io_packed_float_bounds((const uint8_t *)chunk, n, a->components, chunk_lo,
                                                chunk_hi)) {
                    for (uint32_t k = 0; k < a->components; k++) {
                        if (chunk_lo[k] < lo[k]) lo[k] = chunk_lo[k];
                        if (chunk_hi[k] > hi[k]) hi[k] = chunk_hi[k];
                    }
                    continue;
                }
            }
#endif
            ossa_io_decode(doc, (int32_t)index, first, n, chunk, OSSA_IO_OUT_DOUBLE_RAW);
            for (uint64_t e = 0; e < n; e++)
                for (uint32_t k = 0; k < a->components; k++) {
                    double v = chunk[e * a->components + k];
                    if (!isfinite(v) && !non_finite++) first_non_finite = first + e;
                    if (v < lo[k]) lo[k] = v;
                    if (v > hi[k]) hi[k] = v;
                }
        }
    }
    info->scanned = 1;
    info->non_finite = non_finite;
    info->first_non_finite = first_non_finite;
    if (non_finite) {
        ossa_io_path_set(L, "accessors[%u]", index);
        ossa_io_warn(L, "%llu values are not finite numbers (first in element %llu)",
                     (unsigned long long)non_finite, (unsigned long long)first_non_finite);
    }
    if (!a->has_min_max) return;
    for (uint32_t k = 0; k < a->components; k++) {
        if (!same_value(a->min[k], lo[k])) {
            ossa_io_path_set(L, "accessors[%u].min[%u]", index, k);
            ossa_io_warn(L, "declared minimum %g does not match the data's minimum %g",
                         (double)a->min[k], lo[k]);
        }
        if (!same_value(a->max[k], hi[k])) {
            ossa_io_path_set(L, "accessors[%u].max[%u]", index, k);
            ossa_io_warn(L, "declared maximum %g does not match the data's maximum %g",
                         (double)a->max[k], hi[k]);
        }
    }
}

int ossa_io_accessor_has_data(ossa_io_loader *L, int32_t accessor) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (a->sparse.count) return 1;
    if (a->buffer_view >= 0 && !L->buffer_placeholder[doc->buffer_views[a->buffer_view].buffer])
        return 1;
    if (!L->acc_info[accessor].no_data_warned) {
        L->acc_info[accessor].no_data_warned = 1;
        char saved[OSSA_PATH_MAX];
        ossa_io_path_settle(L);
        size_t saved_len = L->path_len;
        memcpy(saved, L->path, sizeof saved);
        ossa_io_path_set(L, "accessors[%d]", accessor);
        ossa_io_warn(L, "the accessor has no data (no bufferView, or a buffer without bytes): "
                        "its values read as zeros and are not validated");
        memcpy(L->path, saved, sizeof saved);
        L->path_len = saved_len;
    }
    return 0;
}

/* The largest component of type T of the accessor, read in place. */
#define UINT_MAX_OF(T)                                                                             \
    do {                                                                                           \
        if (stride == a->components * sizeof(T)) { /* tightly packed: one run */                   \
            for (uint64_t i = 0; i < a->count * a->components; i++) {                              \
                T v;                                                                               \
                memcpy(&v, p + i * sizeof(T), sizeof v);                                           \
                most = v > most ? v : most;                                                        \
            }                                                                                      \
            break;                                                                                 \
        }                                                                                          \
        for (uint64_t e = 0; e < a->count; e++, p += stride)                                       \
            for (uint32_t k = 0; k < a->components; k++) {                                         \
                T v;                                                                               \
                memcpy(&v, p + k * sizeof(T), sizeof v);                                           \
                most = v > most ? v : most;                                                        \
            }                                                                                      \
    } while (0)

/* The largest of n packed 16-bit values. SSE2 has no unsigned 16-bit maximum (gcc leaves the
 * loop scalar): with the sign bit flipped, the signed maximum orders them the same. */
static uint32_t packed_u16_max(const uint8_t *p, uint64_t n) {
    uint64_t i = 0;
    uint32_t most = 0;
#if defined(__SSE2__)
    const __m128i flip = _mm_set1_epi16((short)0x8000);
    __m128i lanes = flip; /* 0, flipped */
    for (; i + 8 <= n; i += 8)
        lanes = _mm_max_epi16(
            lanes,
            _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + 2 * i)), flip));
    uint16_t lane[8];
    _mm_storeu_si128((__m128i *)(void *)lane, _mm_xor_si128(lanes, flip));
    for (int l = 0; l < 8; l++)
        most = lane[l] > most ? lane[l] : most;
#endif
    for (; i < n; i++) {
        uint16_t v;
        memcpy(&v, p + 2 * i, sizeof v);
        most = v > most ? v : most;
    }
    return most;
}

uint32_t ossa_io_accessor_uint_max(ossa_io_loader *L, int32_t accessor) {
    ossa_io_accessor_info *info = &L->acc_info[accessor];
    if (info->has_uint_max) return info->uint_max;
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    uint32_t most = 0, size = ossa_component_size(a->component_type);
    if (!a->sparse.count && a->buffer_view >= 0 && info->element_size == a->components * size) {
        const ossa_buffer_view *v = &doc->buffer_views[a->buffer_view];
        const uint8_t *p = doc->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
        size_t stride = info->stride;
        if (size == 1)
            UINT_MAX_OF(uint8_t);
        else if (size == 2 && stride == a->components * size)
            most = packed_u16_max(p, a->count * a->components);
        else if (size == 2)
            UINT_MAX_OF(uint16_t);
        else
            UINT_MAX_OF(uint32_t);
    } else { /* zeros, sparse values or padded matrix columns: the general decoder */
        uint32_t *chunk = ossa_io_alloc_uninit(L, OSSA_IO_DECODE_CHUNK * 16, sizeof *chunk);
        for (uint64_t first = 0; first < a->count; first += OSSA_IO_DECODE_CHUNK) {
            uint64_t n =
                a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
            ossa_io_decode(doc, accessor, first, n, chunk, OSSA_IO_OUT_UINT);
            for (uint64_t i = 0; i < n * a->components; i++)
                most = chunk[i] > most ? chunk[i] : most;
        }
        ossa_io_release(L->storage, chunk);
    }
    info->has_uint_max = 1;
    info->uint_max = most;
    return most;
}

void ossa_io_validate_accessor_data(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    double *chunk = ossa_io_alloc_uninit(L, OSSA_IO_DECODE_CHUNK * 16, sizeof *chunk);
    for (uint32_t i = 0; i < doc->accessor_count; i++)
        if ((doc->accessors[i].has_min_max ||
             doc->accessors[i].component_type == OSSA_COMPONENT_FLOAT) &&
            ossa_io_accessor_has_data(L, (int32_t)i))
            scan_values(L, i, chunk);
    ossa_io_release(L->storage, chunk);
}
