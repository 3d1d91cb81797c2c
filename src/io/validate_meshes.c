/* Mesh data: index ranges, vertex counts per mode, finite positions and normals, weights. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "io/accessor_decode.h"
#include "io/loader.h"

static uint64_t attribute_count(const ossa_document *doc, const ossa_primitive *p) {
    return p->attribute_count ? doc->accessors[p->attributes[0].accessor].count : 0;
}

static void check_mode_count(ossa_io_loader *L, const ossa_primitive *p, uint64_t n,
                             const char *what) {
    static const char *const names[] = {"POINTS",    "LINES",          "LINE_LOOP",   "LINE_STRIP",
                                        "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};
    int bad = 0;
    switch (p->mode) {
    case OSSA_MODE_POINTS:
        break;
    case OSSA_MODE_LINES:
        bad = n % 2 != 0;
        break;
    case OSSA_MODE_LINE_LOOP:
    case OSSA_MODE_LINE_STRIP:
        bad = n < 2;
        break;
    case OSSA_MODE_TRIANGLES:
        bad = n % 3 != 0;
        break;
    case OSSA_MODE_TRIANGLE_STRIP:
    case OSSA_MODE_TRIANGLE_FAN:
        bad = n < 3;
        break;
    }
    if (bad)
        ossa_io_warn(L, "%llu %s do not form whole %s; the rest is not drawn",
                     (unsigned long long)n, what, names[p->mode]);
}

static void check_indices(ossa_io_loader *L, const ossa_primitive *p, uint64_t vertices,
                          uint32_t *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[p->indices];
    /* Zeros without a bufferView are the spec's values: checked like stored ones (index 0 needs
     * a vertex). A buffer without bytes is warned and skipped, as for other accessors. */
    if (a->buffer_view >= 0 && !ossa_io_accessor_has_data(L, p->indices)) return;
    uint32_t restart = a->component_type == OSSA_COMPONENT_UNSIGNED_BYTE    ? 0xFFu
                       : a->component_type == OSSA_COMPONENT_UNSIGNED_SHORT ? 0xFFFFu
                                                                            : 0xFFFFFFFFu;
    uint32_t most = ossa_io_accessor_uint_max(L, p->indices);
    if (most < restart && most < vertices) return; /* every index is valid */
    uint64_t bad = 0, first_bad = 0;
    uint32_t bad_value = 0;
    for (uint64_t first = 0; first < a->count; first += OSSA_IO_DECODE_CHUNK) {
        uint64_t n =
            a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
        ossa_io_decode(doc, p->indices, first, n, chunk, OSSA_IO_OUT_UINT);
        for (uint64_t i = 0; i < n; i++) {
            if (chunk[i] == restart)
                ossa_io_fail(L, OSSA_ERROR_INVALID,
                             "index %llu is the primitive restart value %u, which glTF forbids",
                             (unsigned long long)(first + i), restart);
            if (chunk[i] >= vertices) {
                if (!bad++) {
                    first_bad = first + i;
                    bad_value = chunk[i];
                }
            }
        }
    }
    if (bad)
        ossa_io_fail(L, OSSA_ERROR_INVALID,
                     "%llu of %llu indices are >= the vertex count %llu (index %llu is %u)",
                     (unsigned long long)bad, (unsigned long long)a->count,
                     (unsigned long long)vertices, (unsigned long long)first_bad, bad_value);
}

/* Finite values; for normals also non-zero length (refused) and unit length (warned). */
static void check_vectors(ossa_io_loader *L, int32_t accessor, int normal, double *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (a->component_type != OSSA_COMPONENT_FLOAT && !normal) return;
    if (!ossa_io_accessor_has_data(L, accessor)) return;
    const ossa_io_accessor_info *info = &L->acc_info[accessor];
    if (!normal && info->scanned) { /* the accessor pass found the first non-finite value */
        if (info->non_finite)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "element %llu of accessor %d is not a finite number",
                         (unsigned long long)info->first_non_finite, accessor);
        return;
    }
    uint32_t c = a->components;
    uint64_t non_unit = 0, first_non_unit = 0;
    double tolerance = a->component_type == OSSA_COMPONENT_FLOAT ? 5e-3 : 2e-2;
    /* float normals stored plainly, all finite (the accessor pass counted): read in place */
    int done = normal && info->scanned && !info->non_finite && c == 3 &&
               a->component_type == OSSA_COMPONENT_FLOAT && !a->sparse.count && a->buffer_view >= 0;
    if (done) {
        const ossa_buffer_view *view = &doc->buffer_views[a->buffer_view];
        const uint8_t *p = doc->buffers[view->buffer].data + view->byte_offset + a->byte_offset;
        for (uint64_t i = 0; i < a->count; i++, p += info->stride) {
            float f[3];
            memcpy(f, p, sizeof f);
            double x = f[0], y = f[1], z = f[2];
            double len = sqrt(x * x + y * y + z * z);
            if (len < 1e-6)
                ossa_io_fail(L, OSSA_ERROR_INVALID, "normal %llu of accessor %d has zero length",
                             (unsigned long long)i, accessor);
            if (fabs(len - 1.0) > tolerance && !non_unit++) first_non_unit = i;
        }
    }
    for (uint64_t first = 0; !done && first < a->count; first += OSSA_IO_DECODE_CHUNK) {
        uint64_t n =
            a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
        ossa_io_decode(doc, accessor, first, n, chunk, OSSA_IO_OUT_DOUBLE);
        for (uint64_t i = 0; i < n; i++) {
            const double *v = chunk + i * c;
            for (uint32_t k = 0; k < c; k++)
                if (!isfinite(v[k]))
                    ossa_io_fail(L, OSSA_ERROR_INVALID,
                                 "element %llu of accessor %d is not a finite number",
                                 (unsigned long long)(first + i), accessor);
            if (!normal) continue;
            double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (len < 1e-6)
                ossa_io_fail(L, OSSA_ERROR_INVALID, "normal %llu of accessor %d has zero length",
                             (unsigned long long)(first + i), accessor);
            if (fabs(len - 1.0) > tolerance && !non_unit++) first_non_unit = first + i;
        }
    }
    if (non_unit)
        ossa_io_warn(L, "%llu normals of accessor %d are not unit length (first: %llu)",
                     (unsigned long long)non_unit, accessor, (unsigned long long)first_non_unit);
}

/* Weights: finite and >= 0 (refused otherwise), summing to 1 per vertex (warned). */
/* TANGENT.w is the handedness: +1 or -1 (harmless to animation: warned). */
static void check_tangent_sign(ossa_io_loader *L, int32_t accessor, double *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (a->components != 4 || !ossa_io_accessor_has_data(L, accessor)) return;
    for (uint64_t first = 0; first < a->count; first += OSSA_IO_DECODE_CHUNK) {
        uint64_t n =
            a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
        ossa_io_decode(doc, accessor, first, n, chunk, OSSA_IO_OUT_DOUBLE);
        for (uint64_t i = 0; i < n; i++)
            if (fabs(fabs(chunk[i * 4 + 3]) - 1.0) > 1e-3) {
                ossa_io_warn(L, "tangent %llu of accessor %d has w = %g, not +1 or -1",
                             (unsigned long long)(first + i), accessor, chunk[i * 4 + 3]);
                return;
            }
    }
}

static void check_weights(ossa_io_loader *L, const ossa_primitive *p, double *chunk) {
    const ossa_document *doc = L->doc;
    uint64_t count = doc->accessors[p->weights[0]].count;
    double *sums = ossa_io_alloc_array(L, count, sizeof *sums);
    int complete = 1;
    for (uint32_t s = 0; s < p->influence_sets; s++) {
        int32_t accessor = p->weights[s];
        if (!ossa_io_accessor_has_data(L, accessor)) {
            complete = 0;
            continue;
        }
        for (uint64_t first = 0; first < count; first += OSSA_IO_DECODE_CHUNK) {
            uint64_t n =
                count - first < OSSA_IO_DECODE_CHUNK ? count - first : OSSA_IO_DECODE_CHUNK;
            ossa_io_decode(doc, accessor, first, n, chunk, OSSA_IO_OUT_DOUBLE);
            for (uint64_t i = 0; i < n * 4; i++) {
                if (!isfinite(chunk[i]) || chunk[i] < 0) {
                    char key[32];
                    snprintf(key, sizeof key, "WEIGHTS_%u", s);
                    ossa_io_path_key(L, "attributes");
                    ossa_io_fail_key(L, key, OSSA_ERROR_INVALID,
                                     "the weight of vertex %llu is %g; weights must be finite "
                                     "and >= 0",
                                     (unsigned long long)(first + i / 4), chunk[i]);
                }
                sums[first + i / 4] += chunk[i];
            }
        }
    }
    uint64_t off = 0, first_off = 0;
    for (uint64_t v = 0; v < count && complete; v++)
        if (fabs(sums[v] - 1.0) > 2e-2 && !off++) first_off = v;
    if (off)
        ossa_io_warn_key(
            L, "attributes.WEIGHTS_0",
            "the weights of %llu vertices do not sum to 1 (first: vertex %llu, sum %g)",
            (unsigned long long)off, (unsigned long long)first_off, sums[first_off]);
    ossa_io_release(L->storage, sums);
}

/* A joint listed twice for one vertex with non-zero weights: linear blending still adds both
 * parts, so this is harmless (warned). */
static void check_joint_duplicates(ossa_io_loader *L, const ossa_primitive *p) {
    const ossa_document *doc = L->doc;
    uint32_t sets = p->influence_sets;
    for (uint32_t s = 0; s < sets; s++)
        if (!ossa_io_accessor_has_data(L, p->joints[s]) ||
            !ossa_io_accessor_has_data(L, p->weights[s]))
            return;
    enum { BATCH = 256 };
    uint32_t *joints = ossa_io_alloc_uninit(L, (uint64_t)sets * BATCH * 4, sizeof *joints);
    double *weights = ossa_io_alloc_uninit(L, (uint64_t)sets * BATCH * 4, sizeof *weights);
    uint32_t *joint = ossa_io_alloc_uninit(L, (uint64_t)sets * 4, sizeof *joint);
    uint64_t count = doc->accessors[p->joints[0]].count;
    for (uint64_t first = 0; first < count; first += BATCH) {
        uint64_t n = count - first < BATCH ? count - first : BATCH;
        for (uint32_t s = 0; s < sets; s++) {
            ossa_io_decode(doc, p->joints[s], first, n, joints + (size_t)s * BATCH * 4,
                           OSSA_IO_OUT_UINT);
            ossa_io_decode(doc, p->weights[s], first, n, weights + (size_t)s * BATCH * 4,
                           OSSA_IO_OUT_DOUBLE);
        }
        for (uint64_t v = 0; v < n; v++) {
            /* the vertex's influences with non-zero weights, in set order */
            uint32_t used = 0;
            for (uint32_t s = 0; s < sets; s++) {
                size_t at = (size_t)s * BATCH * 4 + v * 4;
                for (uint32_t k = 0; k < 4; k++)
                    if (weights[at + k] != 0) joint[used++] = joints[at + k];
            }
            for (uint32_t a = 0; a < used; a++)
                for (uint32_t b = a + 1; b < used; b++)
                    if (joint[a] == joint[b]) {
                        ossa_io_warn_key(L, "attributes.JOINTS_0",
                                         "vertex %llu lists joint %u twice with non-zero weights",
                                         (unsigned long long)(first + v), joint[a]);
                        goto done;
                    }
        }
    }
done:
    ossa_io_release(L->storage, joint);
    ossa_io_release(L->storage, weights);
    ossa_io_release(L->storage, joints);
}

/* Where an accessor's element `e` starts in its buffer (a plainly stored accessor). */
static const uint8_t *element_bytes(const ossa_io_loader *L, int32_t accessor) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    const ossa_buffer_view *v = &doc->buffer_views[a->buffer_view];
    return doc->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
}

/* A vertex's joints (stored as 1 or 2 bytes each) with a zero weight's joint replaced by a value
 * no joint has, distinct per slot: any two equal slots are then a joint listed twice with
 * non-zero weights. */
static void joint_slots(const uint8_t *jp, uint32_t jsize, const float *weight, uint32_t *slot) {
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t joint = jp[k];
        if (jsize == 2) {
            uint16_t stored;
            memcpy(&stored, jp + 2 * k, sizeof stored);
            joint = stored;
        }
        slot[k] = weight[k] != 0 ? joint : 0x80000000u | k;
    }
}

/* One vertex of a plain set: bit 1 when a weight is not finite or is negative, bit 2 when a
 * joint with a non-zero weight is listed twice; *sum is the weights' sum in double, added in
 * order. */
static unsigned plain_vertex(const uint8_t *wp, const uint8_t *jp, uint32_t jsize, double *sum) {
#if defined(__SSE2__)
    __m128 w = _mm_loadu_ps((const float *)(const void *)wp);
    /* NaN fails both comparisons */
    __m128 fine =
        _mm_and_ps(_mm_cmpge_ps(w, _mm_setzero_ps()), _mm_cmplt_ps(w, _mm_set1_ps(INFINITY)));
    unsigned flags = _mm_movemask_ps(fine) != 0xF;
    __m128d low = _mm_cvtps_pd(w), high = _mm_cvtps_pd(_mm_movehl_ps(w, w));
    __m128d total = _mm_add_sd(low, _mm_unpackhi_pd(low, low));
    total = _mm_add_sd(total, high);
    *sum = _mm_cvtsd_f64(_mm_add_sd(total, _mm_unpackhi_pd(high, high)));
    __m128i joints; /* the four joints in 16-bit lanes, then in 32-bit ones */
    if (jsize == 1) {
        uint32_t four;
        memcpy(&four, jp, sizeof four);
        joints = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)four), _mm_setzero_si128());
    } else {
        joints = _mm_loadl_epi64((const __m128i *)(const void *)jp);
    }
    joints = _mm_unpacklo_epi16(joints, _mm_setzero_si128());
    __m128i keep = _mm_castps_si128(_mm_cmpneq_ps(w, _mm_setzero_ps()));
    __m128i absent =
        _mm_set_epi32((int)0x80000003u, (int)0x80000002u, (int)0x80000001u, (int)0x80000000u);
    __m128i slot = _mm_or_si128(_mm_and_si128(keep, joints), _mm_andnot_si128(keep, absent));
    /* slot k against slots k+1 and k+2 (mod 4): every pair at least once */
    __m128i same =
        _mm_or_si128(_mm_cmpeq_epi32(slot, _mm_shuffle_epi32(slot, _MM_SHUFFLE(0, 3, 2, 1))),
                     _mm_cmpeq_epi32(slot, _mm_shuffle_epi32(slot, _MM_SHUFFLE(1, 0, 3, 2))));
    return flags | (unsigned)(_mm_movemask_epi8(same) != 0) << 1;
#else
    float weight[4];
    memcpy(weight, wp, sizeof weight);
    unsigned flags = 0;
    double total = 0;
    for (uint32_t k = 0; k < 4; k++) {
        double x = weight[k];
        if (!isfinite(x) || x < 0) flags = 1;
        total += x;
    }
    *sum = total;
    uint32_t slot[4];
    joint_slots(jp, jsize, weight, slot);
    int twice = (slot[0] == slot[1]) | (slot[0] == slot[2]) | (slot[0] == slot[3]) |
                (slot[1] == slot[2]) | (slot[1] == slot[3]) | (slot[2] == slot[3]);
    return flags | (unsigned)twice << 1;
#endif
}

/* check_weights and check_joint_duplicates in one pass over the stored bytes, for the usual
 * skinned primitive: one influence set, float weights, both stored plainly. The same refusal,
 * warnings and order; returns 0 (nothing done) when it does not apply. */
static int check_one_plain_set(ossa_io_loader *L, const ossa_primitive *p) {
    const ossa_document *doc = L->doc;
    if (p->influence_sets != 1) return 0;
    int32_t wi = p->weights[0], ji = p->joints[0];
    const ossa_accessor *w = &doc->accessors[wi], *j = &doc->accessors[ji];
    uint32_t jsize = ossa_component_size(j->component_type);
    if (w->component_type != OSSA_COMPONENT_FLOAT || w->sparse.count || j->sparse.count ||
        w->buffer_view < 0 || j->buffer_view < 0 || w->components != 4 || j->components != 4 ||
        w->count != j->count || jsize == 4)
        return 0;
    /* in check_weights' and check_joint_duplicates' order (each warns once at most) */
    if (!ossa_io_accessor_has_data(L, wi) || !ossa_io_accessor_has_data(L, ji)) return 0;
    const uint8_t *wp = element_bytes(L, wi), *jp = element_bytes(L, ji);
    size_t wstride = L->acc_info[wi].stride, jstride = L->acc_info[ji].stride;
    uint64_t off = 0, first_off = 0, first_duplicate = 0;
    double off_sum = 0;
    uint32_t duplicate_joint = UINT32_MAX;
    for (uint64_t v = 0; v < w->count; v++, wp += wstride, jp += jstride) {
        double sum;
        unsigned flags = plain_vertex(wp, jp, jsize, &sum);
        float weight[4];
        memcpy(weight, wp, sizeof weight);
        if (flags & 1)
            for (uint32_t k = 0; k < 4; k++)
                if (!isfinite(weight[k]) || weight[k] < 0) {
                    ossa_io_path_key(L, "attributes");
                    ossa_io_fail_key(
                        L, "WEIGHTS_0", OSSA_ERROR_INVALID,
                        "the weight of vertex %llu is %g; weights must be finite and >= 0",
                        (unsigned long long)v, (double)weight[k]);
                }
        if (fabs(sum - 1.0) > 2e-2 && !off++) {
            first_off = v;
            off_sum = sum;
        }
        if (!(flags & 2) || duplicate_joint != UINT32_MAX) continue;
        /* the pair check_joint_duplicates names: the first in order */
        uint32_t slot[4];
        joint_slots(jp, jsize, weight, slot);
        first_duplicate = v;
        for (uint32_t i = 0; i < 4 && duplicate_joint == UINT32_MAX; i++)
            for (uint32_t k = i + 1; k < 4; k++)
                if (slot[i] == slot[k]) {
                    duplicate_joint = slot[i];
                    break;
                }
    }
    if (off)
        ossa_io_warn_key(
            L, "attributes.WEIGHTS_0",
            "the weights of %llu vertices do not sum to 1 (first: vertex %llu, sum %g)",
            (unsigned long long)off, (unsigned long long)first_off, off_sum);
    if (duplicate_joint != UINT32_MAX)
        ossa_io_warn_key(L, "attributes.JOINTS_0",
                         "vertex %llu lists joint %u twice with non-zero weights",
                         (unsigned long long)first_duplicate, duplicate_joint);
    return 1;
}

/* Float colours outside 0..1 are harmless to animation: warned. */
static void check_colors(ossa_io_loader *L, int32_t accessor, double *chunk) {
    const ossa_document *doc = L->doc;
    const ossa_accessor *a = &doc->accessors[accessor];
    if (a->component_type != OSSA_COMPONENT_FLOAT || !ossa_io_accessor_has_data(L, accessor))
        return;
    for (uint64_t first = 0; first < a->count; first += OSSA_IO_DECODE_CHUNK) {
        uint64_t n =
            a->count - first < OSSA_IO_DECODE_CHUNK ? a->count - first : OSSA_IO_DECODE_CHUNK;
        ossa_io_decode(doc, accessor, first, n, chunk, OSSA_IO_OUT_DOUBLE);
        for (uint64_t i = 0; i < n * a->components; i++)
            if (!(chunk[i] >= 0.0 && chunk[i] <= 1.0)) {
                ossa_io_warn(L, "colour %llu of accessor %d has a component outside 0..1 (%g)",
                             (unsigned long long)(first + i / a->components), accessor, chunk[i]);
                return;
            }
    }
}

static void check_primitive(ossa_io_loader *L, const ossa_primitive *p, void *chunk) {
    const ossa_document *doc = L->doc;
    uint64_t vertices = attribute_count(doc, p);
    if (p->indices >= 0) {
        size_t mark = ossa_io_path_key(L, "indices");
        check_mode_count(L, p, doc->accessors[p->indices].count, "indices");
        check_indices(L, p, vertices, chunk);
        ossa_io_path_restore(L, mark);
    } else if (p->attribute_count) {
        check_mode_count(L, p, vertices, "vertices");
    }
    for (uint32_t k = 0; k < p->attribute_count; k++) {
        const ossa_attribute *at = &p->attributes[k];
        int normal = at->semantic == OSSA_SEMANTIC_NORMAL;
        if (at->semantic == OSSA_SEMANTIC_COLOR) {
            size_t mark = ossa_io_path_key(L, "attributes");
            ossa_io_path_key(L, at->name);
            check_colors(L, at->accessor, chunk);
            ossa_io_path_restore(L, mark);
            continue;
        }
        if (!normal && at->semantic != OSSA_SEMANTIC_POSITION &&
            at->semantic != OSSA_SEMANTIC_TANGENT)
            continue;
        size_t mark = ossa_io_path_key(L, "attributes");
        ossa_io_path_key(L, at->name);
        check_vectors(L, at->accessor, normal, chunk);
        if (at->semantic == OSSA_SEMANTIC_TANGENT) check_tangent_sign(L, at->accessor, chunk);
        if (at->semantic == OSSA_SEMANTIC_POSITION && !L->doc->accessors[at->accessor].has_min_max)
            ossa_io_warn(L, "the POSITION accessor %d has no min and max", at->accessor);
        ossa_io_path_restore(L, mark);
    }
    if (p->influence_sets && !check_one_plain_set(L, p)) {
        check_weights(L, p, chunk);
        check_joint_duplicates(L, p);
    }
    if (p->material >= 0) {
        int32_t needed = L->material_texcoord[p->material];
        uint32_t sets = 0;
        for (uint32_t k = 0; k < p->attribute_count; k++)
            if (p->attributes[k].semantic == OSSA_SEMANTIC_TEXCOORD &&
                p->attributes[k].set + 1 > sets)
                sets = p->attributes[k].set + 1;
        if (needed >= (int32_t)sets)
            ossa_io_warn_key(L, "material",
                             "material %d samples TEXCOORD_%d, which the primitive does not have",
                             p->material, needed);
    }
    for (uint32_t t = 0; t < p->target_count; t++) {
        const int32_t moved[3] = {p->targets[t].position, p->targets[t].normal,
                                  p->targets[t].tangent};
        static const char *const names[3] = {"POSITION", "NORMAL", "TANGENT"};
        for (int k = 0; k < 3; k++) {
            if (moved[k] < 0) continue;
            size_t mark = ossa_io_path_key(L, "targets");
            ossa_io_path_index(L, t);
            ossa_io_path_key(L, names[k]);
            check_vectors(L, moved[k], 0, chunk);
            ossa_io_path_restore(L, mark);
        }
    }
}

void ossa_io_validate_meshes(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    double *chunk = ossa_io_alloc_uninit(L, OSSA_IO_DECODE_CHUNK * 16, sizeof *chunk);
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t i = 0; i < doc->meshes[m].primitive_count; i++) {
            ossa_io_path_set2(L, "meshes[%u].primitives[%u]", m, i);
            check_primitive(L, &doc->meshes[m].primitives[i], chunk);
        }
    ossa_io_release(L->storage, chunk);
}
