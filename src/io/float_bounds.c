/* Bounds of packed floats (float_bounds.h). */
#include "io/float_bounds.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <math.h>
#include <string.h>

/* Merges four lanes into the per-component bounds and the finiteness sum: lane l holds component
 * (c + l) % n. Returns the component that follows the last lane's. */
static inline uint32_t merge_lanes(__m128 lo, __m128 hi, __m128 finite, uint32_t c, uint32_t n,
                                   float *lo_f, float *hi_f, float *sum) {
    float l[4], h[4], s[4];
    _mm_storeu_ps(l, lo);
    _mm_storeu_ps(h, hi);
    _mm_storeu_ps(s, finite);
    for (int lane = 0; lane < 4; lane++, c = c + 1 == n ? 0 : c + 1) {
        *sum += s[lane];
        lo_f[c] = l[lane] < lo_f[c] ? l[lane] : lo_f[c];
        hi_f[c] = h[lane] > hi_f[c] ? h[lane] : hi_f[c];
    }
    return c;
}

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
        for (int r = 0; r < kept; r++)                                                             \
            c = merge_lanes(lo_v[r], hi_v[r], sum_v[r], c, n, lo_f, hi_f, &sum);                   \
    } while (0)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BOUNDS_AVX2 1
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx2")
#include <immintrin.h>

/* For n dividing 4: 16 values at a time in two 8-lane registers, whose every lane l holds
 * component l % n, folded to four lanes at the end. Returns how many values it read (a multiple
 * of 16, so of n). */
static uint64_t bounds_avx2(const float *values, uint64_t total, __m128 *lo4, __m128 *hi4,
                            __m128 *sum4) {
    __m256 lo0 = _mm256_set1_ps(INFINITY), hi0 = _mm256_set1_ps(-INFINITY);
    __m256 lo1 = lo0, hi1 = hi0, sum0 = _mm256_setzero_ps(), sum1 = sum0;
    uint64_t i = 0;
    for (; i + 16 <= total; i += 16) {
        __m256 a = _mm256_loadu_ps(values + i), b = _mm256_loadu_ps(values + i + 8);
        sum0 = _mm256_add_ps(sum0, _mm256_sub_ps(a, a));
        sum1 = _mm256_add_ps(sum1, _mm256_sub_ps(b, b));
        lo0 = _mm256_min_ps(a, lo0);
        lo1 = _mm256_min_ps(b, lo1);
        hi0 = _mm256_max_ps(a, hi0);
        hi1 = _mm256_max_ps(b, hi1);
    }
    lo0 = _mm256_min_ps(lo0, lo1);
    hi0 = _mm256_max_ps(hi0, hi1);
    sum0 = _mm256_add_ps(sum0, sum1);
    *lo4 = _mm_min_ps(_mm256_castps256_ps128(lo0), _mm256_extractf128_ps(lo0, 1));
    *hi4 = _mm_max_ps(_mm256_castps256_ps128(hi0), _mm256_extractf128_ps(hi0, 1));
    *sum4 = _mm_add_ps(_mm256_castps256_ps128(sum0), _mm256_extractf128_ps(sum0, 1));
    return i;
}
OSSA_TARGET_END
#endif

int ossa_io_packed_float_bounds(const uint8_t *p, uint64_t count, uint32_t n, double *lo,
                                double *hi) {
    float lo_f[16], hi_f[16], sum = 0.0f;
    for (uint32_t c = 0; c < n; c++) {
        lo_f[c] = INFINITY;
        hi_f[c] = -INFINITY;
    }
    const float *values = (const float *)(const void *)p;
    uint64_t total = count * n, i = 0;
#if defined(BOUNDS_AVX2)
    if (4 % n == 0 && total >= 16 && __builtin_cpu_supports("avx2")) {
        __m128 lo4, hi4, sum4;
        i = bounds_avx2(values, total, &lo4, &hi4, &sum4);
        merge_lanes(lo4, hi4, sum4, 0, n, lo_f, hi_f, &sum);
    }
#endif
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
