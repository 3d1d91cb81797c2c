/* Lerps of translation and scale tracks with AVX-512 (track_batch.h): four tracks per register,
 * laid out (x, y, z, 0) in ossa_clip::batch_keys, so a group's keys k and k + 1 are two loads.
 * Each track's three floats go to its target with a masked store: the fourth lane would
 * overwrite the next field of the pose. No FMA: each lane must round as a + (b - a) t does. */
#include "anim/track_batch.h"

#ifdef OSSA_ANIM_AVX512
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,avx512vl")
OSSA_FP_CONTRACT_OFF
#include <immintrin.h>

#define XYZ 0x7 /* the three lanes of a vector in its 128-bit block */

void ossa_lerp_tracks_avx512(const float *keys, const ossa_track *tracks, uint32_t count, float t,
                             float *local) {
    const float *next = keys + OSSA_BATCH_KEY_STRIDE(count);
    __m512 vt = _mm512_set1_ps(t);
    for (uint32_t j = 0; j < count; j += 4) {
        /* whole groups: past the last track, lanes read what follows and are not stored */
        __m512 a = _mm512_loadu_ps(keys + 4 * j), b = _mm512_loadu_ps(next + 4 * j);
        __m512 r = _mm512_add_ps(a, _mm512_mul_ps(_mm512_sub_ps(b, a), vt));
        _mm_mask_storeu_ps(local + tracks[j].target_offset, XYZ, _mm512_castps512_ps128(r));
        if (j + 1 < count)
            _mm_mask_storeu_ps(local + tracks[j + 1].target_offset, XYZ,
                               _mm512_extractf32x4_ps(r, 1));
        if (j + 2 < count)
            _mm_mask_storeu_ps(local + tracks[j + 2].target_offset, XYZ,
                               _mm512_extractf32x4_ps(r, 2));
        if (j + 3 < count)
            _mm_mask_storeu_ps(local + tracks[j + 3].target_offset, XYZ,
                               _mm512_extractf32x4_ps(r, 3));
    }
}

OSSA_TARGET_END
#else
typedef int ossa_lerp_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
