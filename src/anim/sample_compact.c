/* Sampling compact clips (clip_compact.h): per timeline one key search, then its tracks decoded
 * from 16 bits and interpolated (rotations by normalized lerp), class by class. The AVX-512 path
 * (sample_compact_avx512.c) does sixteen tracks per register; this file holds the portable path,
 * the same operations one track at a time, and the choice between them. Nothing is decompressed
 * ahead of time. */
#include <string.h>

#include "anim/key_search.h"
#include "clip/clip_compact.h"

/* Where a timeline's ranges and per-track arrays start. */
typedef struct classes {
    const float *rot3_range, *vec_range; /* ranges */
    const uint16_t *targets;
    const uint8_t *dropped;
} classes;

static classes classes_of(const struct ossa_compact *c, const ossa_compact_timeline *tl) {
    classes s;
    s.rot3_range = c->ranges + tl->range_offset;
    s.vec_range = s.rot3_range + 6 * tl->rot3;
    s.targets = c->targets + tl->first_track;
    s.dropped = c->dropped + tl->first_track;
    return s;
}

/* Track j of each class in one row, decoded. */
static void rot3_at(const ossa_compact_timeline *tl, const classes *s, const uint16_t *row,
                    uint32_t j, float *out) {
    uint32_t n = tl->rot3;
    ossa_compact_decode_rot3(row + j, n, s->rot3_range + j, s->rot3_range + 3 * n + j, n, out);
}

static void rot4_at(const ossa_compact_timeline *tl, const uint16_t *row, uint32_t j, float *out) {
    ossa_compact_decode_rot4(row + 3 * tl->rot3 + j, tl->rot4, out);
}

static void vec_at(const ossa_compact_timeline *tl, const classes *s, const uint16_t *row,
                   uint32_t j, float *out) {
    uint32_t n = tl->vec;
    ossa_compact_decode_vec(row + 3 * tl->rot3 + 4 * tl->rot4 + j, n, s->vec_range + j,
                            s->vec_range + 3 * n + j, n, out);
}

static void between_portable(const struct ossa_compact *c, const ossa_compact_timeline *tl,
                             uint32_t k, float u, float *local) {
    classes s = classes_of(c, tl);
    const uint16_t *row0 = c->keys + tl->key_offset + (size_t)k * ossa_compact_stride(tl);
    const uint16_t *row1 = row0 + ossa_compact_stride(tl);
    float a[4], b[4], pace[3];
    ossa_compact_nlerp_factors(u, pace);
    uint32_t t = 0;
    for (uint32_t j = 0; j < tl->rot3; j++, t++) {
        rot3_at(tl, &s, row0, j, a);
        rot3_at(tl, &s, row1, j, b);
        ossa_compact_nlerp(a, b, u, pace, a);
        ossa_compact_rot3_order(a, s.dropped[j], local + s.targets[t]);
    }
    for (uint32_t j = 0; j < tl->rot4; j++, t++) {
        rot4_at(tl, row0, j, a);
        rot4_at(tl, row1, j, b);
        ossa_compact_nlerp(a, b, u, pace, local + s.targets[t]);
    }
    for (uint32_t j = 0; j < tl->vec; j++, t++) {
        vec_at(tl, &s, row0, j, a);
        vec_at(tl, &s, row1, j, b);
        float *out = local + s.targets[t];
        for (int i = 0; i < 3; i++)
            out[i] = a[i] + (b[i] - a[i]) * u;
    }
}

static void at_portable(const struct ossa_compact *c, const ossa_compact_timeline *tl, uint32_t k,
                        float *local) {
    classes s = classes_of(c, tl);
    const uint16_t *row = c->keys + tl->key_offset + (size_t)k * ossa_compact_stride(tl);
    uint32_t t = 0;
    for (uint32_t j = 0; j < tl->rot3; j++, t++) {
        float q[4];
        rot3_at(tl, &s, row, j, q);
        ossa_compact_rot3_order(q, s.dropped[j], local + s.targets[t]);
    }
    for (uint32_t j = 0; j < tl->rot4; j++, t++) {
        rot4_at(tl, row, j, local + s.targets[t]);
        ossa_compact_normalize(local + s.targets[t]);
    }
    for (uint32_t j = 0; j < tl->vec; j++, t++)
        vec_at(tl, &s, row, j, local + s.targets[t]);
}

void ossa_compact_sample(const struct ossa_compact *compact, float time, uint32_t *cursor, int wide,
                         ossa_pose *pose) {
    float *local = (float *)pose->local;
#ifdef OSSA_ANIM_AVX512
    wide = wide && ossa_compact_avx512_supported();
#else
    (void)wide; /* only the portable path is built */
#endif
    const float *value = compact->const_values;
    for (uint32_t i = 0; i < compact->const3; i++, value += 3)
        memcpy(local + compact->const_targets[i], value, 3 * sizeof *value);
    for (uint32_t i = 0; i < compact->const4; i++, value += 4)
        memcpy(local + compact->const_targets[compact->const3 + i], value, 4 * sizeof *value);
    for (uint32_t i = 0; i < compact->timeline_count; i++) {
        const ossa_compact_timeline *tl = &compact->timelines[i];
        const float *times = compact->times + tl->time_offset;
        uint32_t last = tl->key_count - 1, k;
        float u = 0.0f;
        if (tl->flags &
            OSSA_COMPACT_UNIFORM) {   /* no search: the key is the whole part of a product */
            if (!(time > times[0])) { /* also NaN */
                k = 0;
            } else if (time >= times[1]) {
                k = last;
            } else {
                float f = (time - times[0]) * times[2];
                /* A cursor's key, when f falls in it, spares the row loads the wait for the
                 * conversion: the check is a branch the processor predicts. */
                uint32_t hint = cursor ? cursor[i] : last;
                float h = (float)hint;
                if (hint < last && f >= h && f < h + 1.0f) {
                    k = hint;
                    u = f - h;
                } else {
                    k = (uint32_t)f;
                    if (k > last - 1) k = last - 1;
                    u = f - (float)k;
                    if (cursor) cursor[i] = k;
                }
            }
        } else if (!(time > times[0])) { /* also NaN */
            k = 0;
        } else if (time >= times[last]) {
            k = last;
        } else {
            k = cursor ? ossa_find_key(times, tl->key_count, time, cursor[i])
                       : ossa_find_key_stateless(times, tl->key_count, time);
            if (cursor) cursor[i] = k;
            if (time != times[k]) u = (time - times[k]) / (times[k + 1] - times[k]);
        }
        if (u != 0.0f) {
#ifdef OSSA_ANIM_AVX512
            if (wide) {
                ossa_compact_between_avx512(compact, tl, k, u, local);
                continue;
            }
#endif
            between_portable(compact, tl, k, u, local);
            continue;
        }
#ifdef OSSA_ANIM_AVX512
        if (wide) {
            ossa_compact_at_avx512(compact, tl, k, local);
            continue;
        }
#endif
        at_portable(compact, tl, k, local);
    }
}
