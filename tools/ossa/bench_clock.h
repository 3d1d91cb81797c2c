/* The clocks of the benchmarks, and how many slices a run is cut into (the fastest slice, the one
 * least disturbed on a shared machine, is reported). */
#ifndef OSSA_TOOL_BENCH_CLOCK_H
#define OSSA_TOOL_BENCH_CLOCK_H

#include <time.h>

#define BENCH_SLICES 10

/* The shortest stretch a best-of figure times as one sample, in seconds: the thread CPU clock of
 * a KVM guest now and then misses a few microseconds, which a sample of tens of microseconds
 * would keep as a figure up to 1.5x too fast (seen on a Zen 5 host, 2026-11-28). */
#define BENCH_GROUP_SECONDS 1e-3

/* Monotonic time in nanoseconds. */
static inline double bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of the calling thread in nanoseconds: on a shared machine, the time this thread ran,
 * not the time other programs ran while it waited (what a one-thread figure should count). */
static inline double bench_thread_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Fastest ns per call of `call(context, i)` (i counting calls) over the slices of `seconds`,
 * reading the clock every 256 calls. Inline so that a constant `call` is inlined too. */
static inline double bench_fastest_ns_per_call(void (*call)(void *context, long i), void *context,
                                               double seconds) {
    enum { BATCH = 256 };
    double best = -1.0;
    for (int slice = 0; slice < BENCH_SLICES; slice++) {
        double start = bench_now_ns(), elapsed;
        long calls = 0;
        do {
            for (int i = 0; i < BATCH; i++)
                call(context, calls + i);
            calls += BATCH;
            elapsed = bench_now_ns() - start;
        } while (elapsed < seconds / BENCH_SLICES * 1e9);
        double ns = elapsed / (double)calls;
        if (best < 0.0 || ns < best) best = ns;
    }
    return best;
}

#endif
