/* Accessor data: finite floats and the declared min/max (both warned: harmless while unused). */
#include <math.h>
#include <string.h>

#include "io/accessor_decode.h"
#include "io/loader.h"

#define CHUNK 1024

/* Declared bounds are compared to the stored values; a float32 rounding of either is accepted. */
static int same_value(double declared, double actual) {
    if (declared == actual || (float)declared == (float)actual) return 1;
    return fabs(declared - actual) <= 1e-6 * fmax(1.0, fabs(actual));
}

/* One pass over an accessor's values: non-finite floats (warned here; refused later where they
 * would reach transforms, positions, normals or weights) and the declared min/max. */
static void scan_values(ossa_io_loader *L, uint32_t index, double *chunk) {
    ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[index];
    double lo[16], hi[16];
    for (uint32_t k = 0; k < a->components; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    uint64_t non_finite = 0, first_non_finite = 0;
    for (uint64_t first = 0; first < a->count; first += CHUNK) {
        uint64_t n = a->count - first < CHUNK ? a->count - first : CHUNK;
        ossa_io_decode(doc, (int32_t)index, first, n, chunk, OSSA_IO_OUT_DOUBLE_RAW);
        for (uint64_t e = 0; e < n; e++)
            for (uint32_t k = 0; k < a->components; k++) {
                double v = chunk[e * a->components + k];
                if (!isfinite(v) && !non_finite++) first_non_finite = first + e;
                if (v < lo[k]) lo[k] = v;
                if (v > hi[k]) hi[k] = v;
            }
    }
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

void ossa_io_validate_accessor_data(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    double *chunk = ossa_io_alloc_uninit(L, CHUNK * 16, sizeof *chunk);
    for (uint32_t i = 0; i < doc->accessor_count; i++)
        if ((doc->accessors[i].has_min_max ||
             doc->accessors[i].component_type == OSSA_COMPONENT_FLOAT) &&
            ossa_io_accessor_has_data(L, (int32_t)i))
            scan_values(L, i, chunk);
    ossa_io_release(L->storage, chunk);
}
