/* Sampling compact clips (clip_compact.h): per timeline one key search, then each track's two
 * keys decoded from 16 bits straight into a small stack block laid out like ossa_clip::batch_keys,
 * so the plain clips' batched slerp and lerp kernels interpolate them. Nothing is decompressed
 * ahead of time. */
#include <string.h>

#include "anim/key_search.h"
#include "anim/track_batch.h"
#include "clip/clip_compact.h"

/* Tracks decoded per kernel call; the block holds two keys of that many, plus the slack the
 * kernels' whole-vector loads may touch past the last track. */
#define CHUNK        16u
#define BLOCK_FLOATS (2u * 4u * CHUNK + OSSA_BATCH_KEY_SLACK)

static void slerp_chunk(const ossa_compact_track *tracks, uint32_t n, const uint16_t *row0,
                        const uint16_t *row1, float u, int wide, float *block, float *local) {
    ossa_track targets[CHUNK]; /* the kernels read each track's target_offset only */
    for (uint32_t j = 0; j < n; j++) {
        targets[j].target_offset = tracks[j].target_offset;
        ossa_compact_decode(&tracks[j], row0, block + 4 * j);
        ossa_compact_decode(&tracks[j], row1, block + 4 * CHUNK + 4 * j);
    }
#ifdef OSSA_ANIM_AVX512
    if (wide) {
        ossa_slerp_tracks16(block, 4 * CHUNK, targets, n, u, local);
        return;
    }
#else
    (void)wide;
#endif
    for (uint32_t first = 0; first < n; first += 4)
        ossa_slerp_tracks4(block + 4 * first, 4 * CHUNK, targets + first,
                           n - first < 4 ? n - first : 4, u, local);
}

static void lerp_chunk(const ossa_compact_track *tracks, uint32_t n, const uint16_t *row0,
                       const uint16_t *row1, float u, int wide, float *block, float *local) {
    ossa_track targets[CHUNK]; /* the kernels read each track's target_offset only */
    for (uint32_t j = 0; j < n; j++) {
        targets[j].target_offset = tracks[j].target_offset;
        ossa_compact_decode(&tracks[j], row0, block + 4 * j);
        block[4 * j + 3] = 0.0f;
        ossa_compact_decode(&tracks[j], row1, block + OSSA_BATCH_KEY_STRIDE(n) + 4 * j);
        block[OSSA_BATCH_KEY_STRIDE(n) + 4 * j + 3] = 0.0f;
    }
#ifdef OSSA_ANIM_AVX512
    if (wide) {
        ossa_lerp_tracks_avx512(block, targets, n, u, local);
        return;
    }
#else
    (void)wide;
#endif
    ossa_lerp_tracks(block, targets, n, u, local);
}

void ossa_compact_sample(const struct ossa_compact *compact, float time, uint32_t *cursor, int wide,
                         ossa_pose *pose) {
    float *local = (float *)pose->local;
    _Alignas(64) float block[BLOCK_FLOATS];
    memset(block, 0, sizeof block);
    for (uint32_t i = 0; i < compact->timeline_count; i++) {
        const ossa_compact_timeline *tl = &compact->timelines[i];
        const float *times = compact->times + tl->time_offset;
        const uint16_t *rows = compact->keys + tl->key_offset;
        const ossa_compact_track *tracks = compact->tracks + tl->first_track;
        uint32_t last = tl->key_count - 1, k;
        if (!(time > times[0])) { /* also NaN */
            k = 0;
        } else if (time >= times[last]) {
            k = last;
        } else {
            k = cursor ? ossa_find_key(times, tl->key_count, time, cursor[i])
                       : ossa_find_key_stateless(times, tl->key_count, time);
            if (cursor) cursor[i] = k;
            if (time != times[k]) {
                float u = (time - times[k]) / (times[k + 1] - times[k]);
                const uint16_t *row0 = rows + (size_t)k * tl->key_stride;
                const uint16_t *row1 = row0 + tl->key_stride;
                for (uint32_t first = 0; first < tl->rotation_count; first += CHUNK) {
                    uint32_t n = tl->rotation_count - first;
                    slerp_chunk(tracks + first, n < CHUNK ? n : CHUNK, row0, row1, u, wide, block,
                                local);
                }
                for (uint32_t first = tl->rotation_count; first < tl->track_count; first += CHUNK) {
                    uint32_t n = tl->track_count - first;
                    lerp_chunk(tracks + first, n < CHUNK ? n : CHUNK, row0, row1, u, wide, block,
                               local);
                }
                continue;
            }
        }
        const uint16_t *row = rows + (size_t)k * tl->key_stride;
        for (uint32_t j = 0; j < tl->track_count; j++)
            ossa_compact_decode(&tracks[j], row, local + tracks[j].target_offset);
    }
}
