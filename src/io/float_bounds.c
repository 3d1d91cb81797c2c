/* Bounds of packed floats (float_bounds.h). */
#include "io/float_bounds.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <math.h>
#include <string.h>

/* The values are read as one flat run, 4 * K at a time. Register r's lane l always holds
 * component (4r + l) % n, since 4 * K is a multiple of n. A value v adds v - v to a sum: 0 when
 * v is finite, NaN otherwise, and a NaN stays. K registers of each kind keep the minimum and
 * maximum chains independent. */
#define PACKED_BOUNDS(K)                                                                           \
    do {                                                                                           \
        __m128 lo_v[K], hi_v[K], sum_v[K];                                                         \
        for (int r = 0; r < (K); r++) {                                                            \
            lo_v[r] = _mm_set1_ps(INFINITY);                                                       \
            hi_v[r] = _mm_set1_ps(-INFINITY);                                                      \
            sum_v[r] = _mm_setzero_ps();                                                           \
        }                                                                                          \
        for (; i + 4 * (K) <= total; i += 4 * (K))                                                 \
            for (int r = 0; r < (K); r++) {                                                        \
                __m128 v = _mm_loadu_ps(values + i + 4 * r);                                       \
                sum_v[r] = _mm_add_ps(sum_v[r], _mm_sub_ps(v, v));                                 \
                lo_v[r] = _mm_min_ps(v, lo_v[r]);                                                  \
                hi_v[r] = _mm_max_ps(v, hi_v[r]);                                                  \
            }                                                                                      \
        int kept = (K);   /* registers left to reduce lane by lane */                              \
        if (4 % n == 0) { /* every register holds the same components: merged as vectors */        \
            for (int r = 1; r < (K); r++) {                                                        \
                lo_v[0] = _mm_min_ps(lo_v[0], lo_v[r]);                                            \
                hi_v[0] = _mm_max_ps(hi_v[0], hi_v[r]);                                            \
                sum_v[0] = _mm_add_ps(sum_v[0], sum_v[r]);                                         \
            }                                                                                      \
            kept = 1;                                                                              \
        }                                                                                          \
        uint32_t c = 0; /* component (4r + lane) % n, counted */                                   \
        for (int r = 0; r < kept; r++) {                                                           \
            float l[4], h[4], s[4];                                                                \
            _mm_storeu_ps(l, lo_v[r]);                                                             \
            _mm_storeu_ps(h, hi_v[r]);                                                             \
            _mm_storeu_ps(s, sum_v[r]);                                                            \
            for (int lane = 0; lane < 4; lane++, c = c + 1 == n ? 0 : c + 1) {                     \
                sum += s[lane];                                                                    \
                lo_f[c] = l[lane] < lo_f[c] ? l[lane] : lo_f[c];                                   \
                hi_f[c] = h[lane] > hi_f[c] ? h[lane] : hi_f[c];                                   \
            }                                                                                      \
        }                                                                                          \
    } while (0)

int ossa_io_packed_float_bounds(const uint8_t *p, uint64_t count, uint32_t n, double *lo,
                                double *hi) {
    float lo_f[16], hi_f[16], sum = 0.0f;
    for (uint32_t c = 0; c < n; c++) {
        lo_f[c] = INFINITY;
        hi_f[c] = -INFINITY;
    }
    const float *values = (const float *)(const void *)p;
    uint64_t total = count * n, i = 0;
    switch (n) {
    case 1:
    case 2:
    case 4:
        PACKED_BOUNDS(4);
        break;
    case 3:
        PACKED_BOUNDS(3);
        break;
    case 9:
        PACKED_BOUNDS(9);
        break;
    case 16:
        PACKED_BOUNDS(4);
        break;
    default:
        break; /* no other element sizes: the loop below reads them all */
    }
    /* what is left: whole elements, as 4 * K is a multiple of n (a counter, not i % n: a
     * division per value cost more than the vector loop on short accessors) */
    for (uint32_t c = 0; i < total; i++, c = c + 1 == n ? 0 : c + 1) {
        float v;
        memcpy(&v, values + i, sizeof v);
        sum += v - v;
        lo_f[c] = v < lo_f[c] ? v : lo_f[c];
        hi_f[c] = v > hi_f[c] ? v : hi_f[c];
    }
    for (uint32_t c = 0; c < n; c++) {
        lo[c] = lo_f[c];
        hi[c] = hi_f[c];
    }
    return sum == 0.0f;
}
#endif
