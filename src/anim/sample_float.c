/* Sampling of a clip's named float tracks (clip.h): the rules of node tracks (clamped at the
 * ends, STEP, LINEAR, CUBICSPLINE with tangents scaled by the key interval), without a cursor. */
#include <string.h>

#include "anim/key_search.h"
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
            if (!cubic) {
                for (uint32_t c = 0; c < n; c++)
                    out[c] = a[c] + (b[c] - a[c]) * u;
                return n;
            }
            float u2 = u * u, u3 = u2 * u;
            float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = (u3 - 2.0f * u2 + u) * dt;
            float h01 = -2.0f * u3 + 3.0f * u2, h11 = (u3 - u2) * dt;
            const float *out_tangent = a + n, *in_tangent = b - n; /* of keys k and k + 1 */
            for (uint32_t c = 0; c < n; c++)
                out[c] = h00 * a[c] + h10 * out_tangent[c] + h01 * b[c] + h11 * in_tangent[c];
            return n;
        }
    }
    memcpy(out, v + k * stride, n * sizeof(float));
    return n;
}
