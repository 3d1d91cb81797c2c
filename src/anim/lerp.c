/* Lerps of translation and scale tracks from ossa_clip::batch_keys (track_batch.h), one track at
 * a time: a + (b - a) t per component, the operations of every other lerp of the runtime. */
#include "anim/track_batch.h"

#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>

void ossa_lerp_tracks(const float *keys, const ossa_track *tracks, uint32_t count, float t,
                      float *local) {
    const float *next = keys + OSSA_BATCH_KEY_STRIDE(count);
    __m128 vt = _mm_set1_ps(t);
    for (uint32_t j = 0; j < count; j++) {
        __m128 a = _mm_loadu_ps(keys + 4 * j), b = _mm_loadu_ps(next + 4 * j);
        __m128 r = _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), vt));
        /* three floats: a fourth would overwrite the next field of the pose */
        float *out = local + tracks[j].target_offset;
        _mm_storel_pi((__m64 *)out, r);
        _mm_store_ss(out + 2, _mm_movehl_ps(r, r));
    }
}
#else
void ossa_lerp_tracks(const float *keys, const ossa_track *tracks, uint32_t count, float t,
                      float *local) {
    const float *next = keys + OSSA_BATCH_KEY_STRIDE(count);
    for (uint32_t j = 0; j < count; j++)
        for (int c = 0; c < 3; c++) {
            float a = keys[4 * j + c], b = next[4 * j + c];
            local[tracks[j].target_offset + c] = a + (b - a) * t;
        }
}
#endif
