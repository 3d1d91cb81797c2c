/* The animation key checks of validate_animations.c for plainly stored float accessors (the usual
 * case), read in place instead of decoded to double first: the same rules, refusals and counts. */
#include <math.h>
#include <string.h>

#include "io/loader.h"

/* Where a plainly stored float accessor's elements are, or NULL when it is not one (no buffer
 * view, sparse values, a buffer without bytes, another component type). */
static const uint8_t *plain_floats(ossa_io_loader *L, int32_t accessor) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (a->component_type != OSSA_COMPONENT_FLOAT || a->sparse.count || a->buffer_view < 0)
        return NULL;
    const ossa_buffer_view *v = &doc->buffer_views[a->buffer_view];
    if (L->buffer_placeholder[v->buffer]) return NULL;
    return doc->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
}

int ossa_io_check_key_times_plain(ossa_io_loader *L, int32_t accessor) {
    const uint8_t *p = plain_floats(L, accessor);
    if (!p) return 0;
    const ossa_accessor *a = &L->doc->accessors[accessor];
    size_t stride = L->acc_info[accessor].stride;
    double previous = 0;
    for (uint64_t k = 0; k < a->count; k++, p += stride) {
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

int ossa_io_check_key_values_plain(ossa_io_loader *L, int32_t accessor, int rotation, int cubic,
                                   uint64_t *non_unit, uint64_t *first_non_unit) {
    const uint8_t *p = plain_floats(L, accessor);
    const ossa_io_accessor_info *info = &L->acc_info[accessor];
    /* the accessor pass counted the non-finite values; where there are some, the general pass
     * finds which refusal comes first */
    if (!p || !info->scanned || info->non_finite) return 0;
    const ossa_accessor *a = &L->doc->accessors[accessor];
    if (!rotation) return 1; /* finite values are all that is asked */
    if (a->components != 4) return 0;
    size_t stride = info->stride;
    for (uint64_t k = 0; k < a->count; k++, p += stride) {
        if (cubic && k % 3 != 1) continue; /* tangents */
        float q[4];
        memcpy(q, p, sizeof q);
        double x = q[0], y = q[1], z = q[2], w = q[3];
        double len2 = x * x + y * y + z * z + w * w;
        if (ossa_io_rotation_zero(len2))
            ossa_io_fail(L, OSSA_ERROR_INVALID, "key value %llu is a zero quaternion",
                         (unsigned long long)k);
        if (ossa_io_rotation_not_unit(len2) && !(*non_unit)++) *first_non_unit = k;
    }
    return 1;
}
