/* Polynomial slerp (sample.h). For unit quaternions a, b at angle a (0 <= a <= pi/2 after taking
 * the shortest arc), slerp = f(1 - t) a + f(t) b with f(t) = sin(t a) / sin(a). f has the series
 * sum_i b_i(t) (x - 1)^i in x = cos(a), with b_0 = t and b_i = b_{i-1} (t^2 - i^2) / (i (2i + 1)).
 * The terms shrink like ((1 - x) / 2)^i; halving the arc first (slerp to the normalised
 * midpoint, whose cosine is sqrt((1 + x) / 2) >= 0.707) makes 1 - x <= 0.293, so 7 terms
 * reach float precision (the anim_math suite measures the error against double slerp; 6 terms
 * are about twice as far off). The midpoint is (a + b) / (2 cos(a / 2)), so the result stays a
 * weighted sum of a and b. */
#include "ossa/sample.h"

#include <math.h>

#include "anim/slerp.h"
#include "anim/track_batch.h"

/* One Horner step of the series for term i: acc = 1 + (x - 1) (t^2 / (i (2i + 1)) -
 * i / (2i + 1)) acc. At t = 1 the factor is exactly 0 and at t = 0 the result is exactly 0. */
#define SERIES_STEP(acc, t2, xm1, i)                                                               \
    ((acc) = 1.0f +                                                                                \
             (xm1) * ((t2) * (1.0f / ((i) * (2.0f * (i) + 1.0f))) - (i) / (2.0f * (i) + 1.0f)) *   \
                 (acc))

/* sin(t a) / sin(a) and sin(u a) / sin(a) for x = cos(a) close to 1, evaluated together so the
 * two dependency chains overlap. */
static inline void sin_ratios(float t, float u, float xm1, float *rt, float *ru) {
    float t2 = t * t, u2 = u * u;
    float at = 1.0f, au = 1.0f;
    SERIES_STEP(at, t2, xm1, 7.0f);
    SERIES_STEP(au, u2, xm1, 7.0f);
    SERIES_STEP(at, t2, xm1, 6.0f);
    SERIES_STEP(au, u2, xm1, 6.0f);
    SERIES_STEP(at, t2, xm1, 5.0f);
    SERIES_STEP(au, u2, xm1, 5.0f);
    SERIES_STEP(at, t2, xm1, 4.0f);
    SERIES_STEP(au, u2, xm1, 4.0f);
    SERIES_STEP(at, t2, xm1, 3.0f);
    SERIES_STEP(au, u2, xm1, 3.0f);
    SERIES_STEP(at, t2, xm1, 2.0f);
    SERIES_STEP(au, u2, xm1, 2.0f);
    SERIES_STEP(at, t2, xm1, 1.0f);
    SERIES_STEP(au, u2, xm1, 1.0f);
    *rt = t * at;
    *ru = u * au;
}

void ossa_quat_slerp(const float *a, const float *b, float t, float *out) {
    float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    float b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    float d = a0 * b0 + a1 * b1 + a2 * b2 + a3 * b3;
    float sign = d < 0.0f ? -1.0f : 1.0f;
    float x = fabsf(d);
    if (x > 1.0f) x = 1.0f;
    float half_cos = sqrtf(0.5f + 0.5f * x); /* cosine of half the arc */
    float to_mid = 0.5f / half_cos;          /* midpoint = (a + b) * to_mid */
    float w0, w1;
    if (t <= 0.5f) {
        float s = 2.0f * t, wa, wm;
        sin_ratios(1.0f - s, s, half_cos - 1.0f, &wa, &wm);
        w0 = wa + wm * to_mid;
        w1 = wm * to_mid;
    } else {
        float s = 2.0f * t - 1.0f, wm, wb;
        sin_ratios(1.0f - s, s, half_cos - 1.0f, &wm, &wb);
        w0 = wm * to_mid;
        w1 = wm * to_mid + wb;
    }
    w1 *= sign;
    out[0] = w0 * a0 + w1 * b0;
    out[1] = w0 * a1 + w1 * b1;
    out[2] = w0 * a2 + w1 * b2;
    out[3] = w0 * a3 + w1 * b3;
}

#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>

/* The scalar steps above, one lane per track; t (hence every series factor) is shared. */
void ossa_slerp_tracks4(const float *keys, uint32_t stride, const ossa_track *tracks,
                        uint32_t count, float t, float *local) {
    __m128 qa[4], qb[4];
    for (uint32_t j = 0; j < 4; j++) { /* lanes past count slerp unit quaternions */
        qa[j] = j < count ? _mm_loadu_ps(keys + 4 * j) : _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
        qb[j] = j < count ? _mm_loadu_ps(keys + stride + 4 * j) : qa[j];
    }
    __m128 ax = qa[0], ay = qa[1], az = qa[2], aw = qa[3];
    __m128 bx = qb[0], by = qb[1], bz = qb[2], bw = qb[3];
    _MM_TRANSPOSE4_PS(ax, ay, az, aw); /* ax = x components of the four quaternions, ... */
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    __m128 d = _mm_add_ps(
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz)),
        _mm_mul_ps(aw, bw));
    __m128 negative = _mm_cmplt_ps(d, _mm_setzero_ps());
    __m128 one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
    __m128 sign = _mm_or_ps(_mm_and_ps(negative, _mm_set1_ps(-1.0f)), _mm_andnot_ps(negative, one));
    __m128 x = _mm_min_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), d), one);
    __m128 half_cos = _mm_sqrt_ps(_mm_add_ps(half, _mm_mul_ps(half, x)));
    __m128 to_mid = _mm_div_ps(half, half_cos);
    __m128 xm1 = _mm_sub_ps(half_cos, one);
    int first_half = t <= 0.5f;
    float s = first_half ? 2.0f * t : 2.0f * t - 1.0f;
    float p = 1.0f - s, p2 = p * p, s2 = s * s;
    __m128 ap = one, as = one;
#define SERIES_STEP4(acc, t2, i)                                                                   \
    ((acc) = _mm_add_ps(                                                                           \
         one, _mm_mul_ps(_mm_mul_ps(xm1, _mm_set1_ps((t2) * (1.0f / ((i) * (2.0f * (i) + 1.0f))) - \
                                                     (i) / (2.0f * (i) + 1.0f))),                  \
                         (acc))))
    SERIES_STEP4(ap, p2, 7.0f);
    SERIES_STEP4(as, s2, 7.0f);
    SERIES_STEP4(ap, p2, 6.0f);
    SERIES_STEP4(as, s2, 6.0f);
    SERIES_STEP4(ap, p2, 5.0f);
    SERIES_STEP4(as, s2, 5.0f);
    SERIES_STEP4(ap, p2, 4.0f);
    SERIES_STEP4(as, s2, 4.0f);
    SERIES_STEP4(ap, p2, 3.0f);
    SERIES_STEP4(as, s2, 3.0f);
    SERIES_STEP4(ap, p2, 2.0f);
    SERIES_STEP4(as, s2, 2.0f);
    SERIES_STEP4(ap, p2, 1.0f);
    SERIES_STEP4(as, s2, 1.0f);
#undef SERIES_STEP4
    __m128 rp = _mm_mul_ps(_mm_set1_ps(p), ap), rs = _mm_mul_ps(_mm_set1_ps(s), as);
    __m128 w0, w1;
    if (first_half) { /* rp: towards a, rs: towards the midpoint */
        w0 = _mm_add_ps(rp, _mm_mul_ps(rs, to_mid));
        w1 = _mm_mul_ps(rs, to_mid);
    } else { /* rp: towards the midpoint, rs: towards b */
        w0 = _mm_mul_ps(rp, to_mid);
        w1 = _mm_add_ps(_mm_mul_ps(rp, to_mid), rs);
    }
    w1 = _mm_mul_ps(w1, sign);
    float w0s[4], w1s[4];
    _mm_storeu_ps(w0s, w0);
    _mm_storeu_ps(w1s, w1);
    for (uint32_t j = 0; j < count; j++)
        _mm_storeu_ps(local + tracks[j].target_offset,
                      _mm_add_ps(_mm_mul_ps(_mm_set1_ps(w0s[j]), qa[j]),
                                 _mm_mul_ps(_mm_set1_ps(w1s[j]), qb[j])));
}
#else
void ossa_slerp_tracks4(const float *keys, uint32_t stride, const ossa_track *tracks,
                        uint32_t count, float t, float *local) {
    for (uint32_t j = 0; j < count; j++)
        ossa_quat_slerp(keys + 4 * j, keys + stride + 4 * j, t, local + tracks[j].target_offset);
}
#endif
