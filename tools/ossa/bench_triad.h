/* STREAM-style triad bandwidth, the yardstick `ossa bench` measures skinning against. */
#ifndef OSSA_TOOL_BENCH_TRIAD_H
#define OSSA_TOOL_BENCH_TRIAD_H

#include <stddef.h>

#include "ossa/thread_pool.h"

/*
 * a[i] = b[i] + s * c[i] over three arrays of `elements` doubles, repeated for about `seconds`;
 * returns the best rate in GB/s (1e9 bytes), counting 24 bytes per element (STREAM's rule: no
 * write-allocate traffic). With a pool, the arrays are split over its threads. 0 on failure.
 */
double bench_triad_gbs(size_t elements, double seconds, ossa_thread_pool *pool);

/* Monotonic seconds. */
double bench_now(void);

#endif
