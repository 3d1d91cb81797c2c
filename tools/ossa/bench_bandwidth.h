/* Memory bandwidth bounds for `ossa bench`: the streaming kernels a skinning pass could at best
 * be, measured in the same run, so a memory-bound skinning figure can be read as a fraction of
 * the bound whose traffic pattern matches it. */
#ifndef OSSA_TOOL_BENCH_BANDWIDTH_H
#define OSSA_TOOL_BENCH_BANDWIDTH_H

#include <stddef.h>

/* The kernels, over arrays of doubles. Bytes are counted as they cross the memory bus: an
 * ordinary store to a line not in cache first reads it (read-for-ownership), so it counts twice;
 * a non-temporal store writes the line without reading it. */
typedef enum bench_stream {
    BENCH_READ,     /* sum += b[i]: 8 bytes per element */
    BENCH_WRITE,    /* a[i] = s, ordinary stores: 8 + 8 read for ownership */
    BENCH_WRITE_NT, /* a[i] = s, non-temporal stores: 8 */
    BENCH_COPY,     /* a[i] = s * b[i] (STREAM's scale: a copy no compiler turns into memcpy): 24 */
    BENCH_COPY_NT,  /* the same with non-temporal stores: 16 */
    BENCH_TRIAD,    /* a[i] = b[i] + s * c[i], ordinary stores: 32 */
    BENCH_TRIAD_NT, /* the same with non-temporal stores: 24 */
    BENCH_STREAM_COUNT
} bench_stream;

/* "read", "write", "write_nt", "copy", "copy_nt", "triad", "triad_nt". */
const char *bench_stream_name(bench_stream kernel);

/* Bytes counted per element (loads, reads for ownership, stores). */
double bench_stream_bytes(bench_stream kernel);

/* 1 when this build can run the kernel (non-temporal stores need SSE2). */
int bench_stream_supported(bench_stream kernel);

/* 1 when the kernels load and store whole 64-byte lines (AVX-512, as the AVX-512 skinning path
 * does), 0 when they are plain loops (non-temporal stores 16 bytes at a time). */
int bench_stream_wide(void);

/*
 * Runs every supported kernel on `threads` threads of its own (the caller's and threads - 1
 * started here), each thread on arrays of its own that it allocated and first touched: three
 * arrays of array_bytes / threads each. Kernels take turns (read, write, ..., triad_nt, read,
 * ...), each turn over the next eighth of the arrays, for at least three passes over them and
 * about `seconds`, so a slow minute of a shared machine hits them all; gbs[k] is kernel k's best
 * turn (one thread: timed with its CPU clock; several: the wall clock), 1e9 bytes per second as
 * counted above (0 where unsupported). Returns 0, or 1 when memory or threads cannot be had or a
 * kernel's check fails.
 */
int bench_bandwidth(size_t array_bytes, unsigned threads, double seconds,
                    double gbs[BENCH_STREAM_COUNT]);

/* Monotonic seconds. */
double bench_now(void);

#endif
