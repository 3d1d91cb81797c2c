/* STREAM-style triad: the machine's sustainable memory bandwidth on this run. */
#define _POSIX_C_SOURCE 200809L
#include "bench_triad.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct triad {
    double *a, *b, *c;
    double scalar;
} triad;

static void triad_range(void *user, size_t begin, size_t end) {
    triad *t = user;
    double *restrict a = t->a;
    const double *restrict b = t->b, *restrict c = t->c;
    for (size_t i = begin; i < end; i++)
        a[i] = b[i] + t->scalar * c[i];
}

double bench_triad_gbs(size_t n, double seconds, ossa_thread_pool *pool) {
    n = (n + 7) & ~(size_t)7; /* whole cache lines: aligned_alloc wants a multiple of 64 */
    triad t = {aligned_alloc(64, n * sizeof(double)), aligned_alloc(64, n * sizeof(double)),
               aligned_alloc(64, n * sizeof(double)), 3.0};
    double best = 0.0;
    if (t.a && t.b && t.c) {
        unsigned threads = pool ? ossa_thread_pool_threads(pool) : 1;
        size_t grain = ((n + threads - 1) / threads + 7) & ~(size_t)7;
        /* first touch by the threads that will use the pages */
        for (size_t i = 0; i < n; i++) {
            t.b[i] = 1.0;
            t.c[i] = 2.0;
        }
        memset(t.a, 0, n * sizeof(double));
        double start = bench_now();
        int runs = 0;
        while (runs < 3 || bench_now() - start < seconds) {
            double t0 = bench_now();
            if (pool)
                ossa_thread_pool_for(pool, n, grain, triad_range, &t);
            else
                triad_range(&t, 0, n);
            double dt = bench_now() - t0;
            double gbs = 24.0 * (double)n / dt / 1e9;
            if (gbs > best) best = gbs;
            runs++;
        }
        if (t.a[n / 2] != 7.0) best = 0.0; /* 1 + 3 * 2: the loop really ran */
    }
    free(t.a);
    free(t.b);
    free(t.c);
    return best;
}
