/**
 * @file thread_pool.h
 * @brief A small pthreads pool for the CLI, benchmarks and applications without a job system.
 *
 * The library's per-frame functions never use it: they take vertex ranges, so any job system
 * can split their work. This pool is one way: ::ossa_thread_pool_for splits [0, count) into
 * chunks of `grain` and runs them on the pool's threads and the calling thread.
 *
 * Waking a sleeping thread costs tens of microseconds, so after a job the pool's threads watch
 * for the next one for up to 50 microseconds before they sleep, and the caller watches for the
 * last chunk as long before it sleeps: jobs run back to back (a crowd's check, then its update)
 * start at once, at the price of that much busy CPU time after each job.
 */
#ifndef OSSA_THREAD_POOL_H
#define OSSA_THREAD_POOL_H

#include <stddef.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_thread_pool ossa_thread_pool;

/** Work on [begin, end); called concurrently for disjoint ranges. */
typedef void (*ossa_range_fn)(void *user, size_t begin, size_t end);

/**
 * Starts a pool that runs work on `threads` threads in all, the caller's included
 * (so threads - 1 are created). 0 means one per online CPU.
 * @return OSSA_ERROR_OUT_OF_MEMORY when memory or threads cannot be had.
 */
ossa_result ossa_thread_pool_create(unsigned threads, ossa_thread_pool **out);

/** Stops the threads and frees the pool. NULL is allowed. */
void ossa_thread_pool_free(ossa_thread_pool *pool);

/** Threads that run work, the caller's included. */
unsigned ossa_thread_pool_threads(const ossa_thread_pool *pool);

/**
 * Runs fn over [0, count) in chunks of `grain` items (0: count split evenly over the threads;
 * chunk starts are multiples of grain) and returns when all are done. One call at a time per pool.
 */
void ossa_thread_pool_for(ossa_thread_pool *pool, size_t count, size_t grain, ossa_range_fn fn,
                          void *user);

#ifdef __cplusplus
}
#endif

#endif
