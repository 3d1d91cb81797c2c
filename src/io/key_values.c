/* The animation key checks of validate_animations.c for plainly stored float accessors (the usual
 * case), read in place instead of decoded to double first: the same rules, refusals and counts. */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "io/loader.h"

/* Where a plainly stored accessor of the given component type has its elements, or NULL when it
 * is not one (no buffer view, sparse values, a buffer without bytes, another component type). */
static const uint8_t *plain_of(ossa_io_loader *L, int32_t accessor, ossa_component_type type) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (a->component_type != type || a->sparse.count || a->buffer_view < 0) return NULL;
    const ossa_buffer_view *v = &doc->buffer_views[a->buffer_view];
    if (L->buffer_placeholder[v->buffer]) return NULL;
    return doc->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
}

static const uint8_t *plain_floats(ossa_io_loader *L, int32_t accessor) {
    return plain_of(L, accessor, OSSA_COMPONENT_FLOAT);
}

int ossa_io_check_key_times_plain(ossa_io_loader *L, int32_t accessor) {
    const uint8_t *p = plain_floats(L, accessor);
    if (!p) return 0;
    const ossa_accessor *a = &L->doc->accessors[accessor];
    size_t stride = L->acc_info[accessor].stride;
    double previous = 0;
    uint64_t k = 0;
#if defined(__SSE2__)
    /* Packed times, four at a time against the four before them: while every one is finite, not
     * negative and above the one before, nothing is refused (NaN fails every comparison). The
     * loop below goes on from the first block that does not pass, one time after the other. */
    const float *times = (const float *)(const void *)p;
    float first;
    memcpy(&first, p, sizeof first);
    if (stride == sizeof(float) && a->count > 1 && first >= 0 && first < INFINITY) {
        const __m128 zero = _mm_setzero_ps(), infinity = _mm_set1_ps(INFINITY);
        for (k = 1; k + 4 <= a->count; k += 4) {
            __m128 now = _mm_loadu_ps(times + k), before = _mm_loadu_ps(times + k - 1);
            __m128 fine =
                _mm_and_ps(_mm_cmpgt_ps(now, before),
                           _mm_and_ps(_mm_cmpge_ps(now, zero), _mm_cmplt_ps(now, infinity)));
            if (_mm_movemask_ps(fine) != 0xF) break;
        }
        float last;
        memcpy(&last, times + k - 1, sizeof last);
        previous = last;
        p += k * stride;
    }
#endif
    for (; k < a->count; k++, p += stride) {
        float f;
        memcpy(&f, p, sizeof f);
        double t = f;
        if (!isfinite(t))
            ossa_io_fail(L, OSSA_ERROR_INVALID, "key time t[%llu] is not finite",
                         (unsigned long long)k);
        if (t < 0)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "key time t[%llu] = %g is negative",
                         (unsigned long long)k, t);
        if (k > 0 && t <= previous)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "key times must increase (t[%llu] = %g after t[%llu] = %g)",
                         (unsigned long long)k, t, (unsigned long long)(k - 1), previous);
        previous = t;
    }
    return 1;
}

/* One rotation key, in double: refused when zero, counted when not unit. */
static void check_rotation(ossa_io_loader *L, const uint8_t *p, uint64_t k, uint64_t *non_unit,
                           uint64_t *first_non_unit) {
    float q[4];
    memcpy(q, p, sizeof q);
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double len2 = x * x + y * y + z * z + w * w;
    if (ossa_io_rotation_zero(len2))
        ossa_io_fail(L, OSSA_ERROR_INVALID, "key value %llu is a zero quaternion",
                     (unsigned long long)k);
    if (ossa_io_rotation_not_unit(len2) && !(*non_unit)++) *first_non_unit = k;
}

/* Rotation keys of normalized signed bytes or shorts (c / m, at least -1), read in place. The
 * squared length is S / m^2 with S the sum of the clamped integers' squares: zero exactly when S
 * is, and within 1e-15 of the general pass's double sum, so a length more than 1e-9 from the
 * bounds of the unit band is decided by S alone; the few nearer ones are computed as the
 * general pass computes them. */
static int check_normalized_rotations(ossa_io_loader *L, int32_t accessor, int cubic,
                                      uint64_t *non_unit, uint64_t *first_non_unit) {
    const ossa_accessor *a = &L->doc->accessors[accessor];
    int shorts = a->component_type == OSSA_COMPONENT_SHORT;
    const uint8_t *p = plain_of(L, accessor, shorts ? OSSA_COMPONENT_SHORT : OSSA_COMPONENT_BYTE);
    if (!p || !a->normalized || a->components != 4) return 0;
    const int32_t m = shorts ? 32767 : 127;
    const double m2 = (double)m * m, margin = 1e-9;
    const double low = OSSA_IO_UNIT_LEN2_LOW, high = OSSA_IO_UNIT_LEN2_HIGH;
    size_t stride = L->acc_info[accessor].stride;
    for (uint64_t k = 0; k < a->count; k++, p += stride) {
        if (cubic && k % 3 != 1) continue; /* tangents */
        int32_t c[4];
        for (int i = 0; i < 4; i++) {
            int16_t stored;
            if (shorts)
                memcpy(&stored, p + 2 * i, sizeof stored);
            else
                stored = (int8_t)p[i];
            c[i] = stored < -m ? -m : stored; /* the clamp at -1 */
        }
        int64_t sum = 0;
        for (int i = 0; i < 4; i++)
            sum += (int64_t)c[i] * c[i];
        if (sum == 0)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "key value %llu is a zero quaternion",
                         (unsigned long long)k);
        double len2 = (double)sum / m2;
        if (len2 > low + margin && len2 < high - margin) continue;
        if (len2 < low - margin || len2 > high + margin) {
            if (!(*non_unit)++) *first_non_unit = k;
            continue;
        }
        double v[4]; /* near a bound: as the general pass */
        for (int i = 0; i < 4; i++)
            v[i] = c[i] / (double)m;
        len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
        if (ossa_io_rotation_not_unit(len2) && !(*non_unit)++) *first_non_unit = k;
    }
    return 1;
}

int ossa_io_check_key_values_plain(ossa_io_loader *L, int32_t accessor, int rotation, int cubic,
                                   uint64_t *non_unit, uint64_t *first_non_unit) {
    if (rotation && check_normalized_rotations(L, accessor, cubic, non_unit, first_non_unit))
        return 1;
    const uint8_t *p = plain_floats(L, accessor);
    const ossa_io_accessor_info *info = &L->acc_info[accessor];
    /* the accessor pass counted the non-finite values; where there are some, the general pass
     * finds which refusal comes first */
    if (!p || !info->scanned || info->non_finite) return 0;
    const ossa_accessor *a = &L->doc->accessors[accessor];
    if (!rotation) return 1; /* finite values are all that is asked */
    if (a->components != 4) return 0;
    size_t stride = info->stride;
    uint64_t k = 0;
#if defined(__SSE2__)
    /* Packed keys, four at a time: their squared lengths in float are within 1e-6 of the double
     * ones, so a float length well inside the unit band is a unit key in double too; the keys of
     * a block with any other length are checked one by one, in double. */
    if (!cubic && stride == 4 * sizeof(float)) {
        const float *q = (const float *)(const void *)p;
        const __m128 low = _mm_set1_ps((float)OSSA_IO_UNIT_LEN2_LOW + 1e-5f);
        const __m128 high = _mm_set1_ps((float)OSSA_IO_UNIT_LEN2_HIGH - 1e-5f);
        for (; k + 4 <= a->count; k += 4) {
            __m128 a0 = _mm_loadu_ps(q + 4 * k), a1 = _mm_loadu_ps(q + 4 * k + 4);
            __m128 a2 = _mm_loadu_ps(q + 4 * k + 8), a3 = _mm_loadu_ps(q + 4 * k + 12);
            a0 = _mm_mul_ps(a0, a0);
            a1 = _mm_mul_ps(a1, a1);
            a2 = _mm_mul_ps(a2, a2);
            a3 = _mm_mul_ps(a3, a3);
            _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
            __m128 len2 = _mm_add_ps(_mm_add_ps(a0, a1), _mm_add_ps(a2, a3));
            __m128 unit = _mm_and_ps(_mm_cmpgt_ps(len2, low), _mm_cmplt_ps(len2, high));
            if (_mm_movemask_ps(unit) == 0xF) continue;
            for (uint64_t i = k; i < k + 4; i++)
                check_rotation(L, p + i * stride, i, non_unit, first_non_unit);
        }
    }
#endif
    for (; k < a->count; k++) {
        if (cubic && k % 3 != 1) continue; /* tangents */
        check_rotation(L, p + k * stride, k, non_unit, first_non_unit);
    }
    return 1;
}
