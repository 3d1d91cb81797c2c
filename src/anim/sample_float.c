/* Sampling of a clip's named float tracks (clip.h): the rules of node tracks (clamped at the
 * ends, STEP, LINEAR, CUBICSPLINE with tangents scaled by the key interval), without a cursor. */
#include <string.h>

#include "anim/key_search.h"
#include "anim/track_eval.h"
#include "clip/clip_internal.h"

uint32_t ossa_clip_float_track_sample(const ossa_clip *clip, uint32_t track, float time,
                                      float *out) {
    if (track >= clip->float_track_count) return 0;
    const ossa_float_track *t = &clip->float_tracks[track];
    uint32_t n = t->components, last = t->key_count - 1;
    int cubic = t->interpolation == OSSA_INTERP_CUBICSPLINE;
    size_t stride = cubic ? 3 * (size_t)n : n;
    const float *v = t->values + (cubic ? n : 0); /* the value of key 0 */
    uint32_t k = 0;
    if (time > t->times[0]) { /* else key 0, also for NaN */
        k = time >= t->times[last] ? last : ossa_find_key_stateless(t->times, t->key_count, time);
        if (k < last && time != t->times[k] && t->interpolation != OSSA_INTERP_STEP) {
            float dt = t->times[k + 1] - t->times[k];
            float u = (time - t->times[k]) / dt;
            const float *a = v + k * stride, *b = a + stride;
            if (cubic) /* the out-tangent of key k, the in-tangent of key k + 1 */
                ossa_hermite(a, a + n, b, b - n, n, u, dt, out);
            else
                ossa_lerp_components(a, b, n, u, out);
            return n;
        }
    }
    memcpy(out, v + k * stride, n * sizeof(float));
    return n;
}
