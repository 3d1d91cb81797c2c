/* The clocks of the benchmarks, and how many slices a run is cut into (the fastest slice, the one
 * least disturbed on a shared machine, is reported). */
#ifndef OSSA_TOOL_BENCH_CLOCK_H
#define OSSA_TOOL_BENCH_CLOCK_H

#include <time.h>

#define BENCH_SLICES 10

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

#endif
