/* A minimal fork-join pool: workers take chunks from an atomic counter and sleep on a condition
 * variable between jobs; the caller works too and waits for the last chunk. Waking a sleeping
 * thread costs tens of microseconds, as much as a crowd's whole update on two threads takes in
 * a few percent of a frame: so a worker that has just finished watches for a next job a little
 * while before it sleeps (a caller often runs jobs back to back: the crowd's check, then its
 * update), and the caller watches for the last chunk before it sleeps. */
#define _POSIX_C_SOURCE 200809L
#include "ossa/thread_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct ossa_thread_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pthread_t *workers;
    unsigned worker_count;
    atomic_ulong generation; /* bumped for each job, under lock; read without to spin */
    int stopping;
    /* the current job */
    ossa_range_fn fn;
    void *user;
    size_t count, grain, chunks;
    atomic_size_t next_chunk;
    atomic_size_t finished_chunks; /* changed under lock; read without to spin */
    atomic_uint active;            /* workers inside the current job, changed under lock */
    int job_open;                  /* workers may still join the current job, under lock */
};

/* Runs chunks until none are left; returns how many this thread ran. */
static size_t run_chunks(ossa_thread_pool *p) {
    size_t ran = 0;
    for (;;) {
        size_t c = atomic_fetch_add(&p->next_chunk, 1);
        if (c >= p->chunks) return ran;
        size_t begin = c * p->grain;
        size_t end = begin + p->grain < p->count ? begin + p->grain : p->count;
        p->fn(p->user, begin, end);
        ran++;
    }
}

/* Counts a thread's chunks in; a worker also leaves the job (worker != 0). */
static void finish_chunks(ossa_thread_pool *p, size_t ran, int worker) {
    pthread_mutex_lock(&p->lock);
    p->finished_chunks += ran;
    if (worker) p->active--;
    if (p->finished_chunks == p->chunks && p->active == 0) pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->lock);
}

/* Busy waits are bounded in time: 50 microseconds, then sleep. They read without the pause
 * instruction: in a virtual machine pause loops exit to the hypervisor, which may then run
 * another guest's thread on this CPU (measured: pauses made a crowd's frame 50% slower). */
#define SPIN_NS 50000

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Spins until ready(p, arg) or the time bound; returns whether ready. */
static int spin_until(ossa_thread_pool *p, unsigned long arg,
                      int (*ready)(ossa_thread_pool *, unsigned long)) {
    uint64_t start = now_ns();
    for (;;) {
        for (int i = 0; i < 64; i++)
            if (ready(p, arg)) return 1;
        if (now_ns() - start > SPIN_NS) return 0;
    }
}

static int new_job(ossa_thread_pool *p, unsigned long seen) {
    return atomic_load_explicit(&p->generation, memory_order_relaxed) != seen;
}

static int job_done(ossa_thread_pool *p, unsigned long unused) {
    (void)unused;
    return atomic_load(&p->finished_chunks) == p->chunks && atomic_load(&p->active) == 0;
}

static void *worker_main(void *arg) {
    ossa_thread_pool *p = arg;
    unsigned long seen = 0;
    for (;;) {
        spin_until(p, seen, new_job); /* the loop below checks again under the lock */
        pthread_mutex_lock(&p->lock);
        while (!p->stopping && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->stopping) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        seen = p->generation;
        if (!p->job_open) { /* woke too late: that job is over */
            pthread_mutex_unlock(&p->lock);
            continue;
        }
        p->active++;
        pthread_mutex_unlock(&p->lock);
        finish_chunks(p, run_chunks(p), 1);
    }
}

ossa_result ossa_thread_pool_create(unsigned threads, ossa_thread_pool **out) {
    *out = NULL;
    if (threads == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        threads = online > 0 ? (unsigned)online : 1;
    }
    ossa_thread_pool *p = calloc(1, sizeof *p);
    if (!p) return OSSA_ERROR_OUT_OF_MEMORY;
    p->workers = calloc(threads, sizeof *p->workers);
    if (!p->workers) {
        free(p);
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next_chunk, 0);
    atomic_init(&p->generation, 0);
    atomic_init(&p->finished_chunks, 0);
    atomic_init(&p->active, 0);
    for (unsigned i = 0; i + 1 < threads; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0) {
            ossa_thread_pool_free(p);
            return OSSA_ERROR_OUT_OF_MEMORY;
        }
        p->worker_count++;
    }
    *out = p;
    return OSSA_OK;
}

void ossa_thread_pool_free(ossa_thread_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->worker_count; i++)
        pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p);
}

unsigned ossa_thread_pool_threads(const ossa_thread_pool *p) {
    return p->worker_count + 1;
}

void ossa_thread_pool_for(ossa_thread_pool *p, size_t count, size_t grain, ossa_range_fn fn,
                          void *user) {
    if (count == 0) return;
    if (grain == 0) grain = (count + p->worker_count) / (p->worker_count + 1);
    if (p->worker_count == 0) {
        for (size_t begin = 0; begin < count; begin += grain)
            fn(user, begin, begin + grain < count ? begin + grain : count);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->user = user;
    p->count = count;
    p->grain = grain;
    p->chunks = (count + grain - 1) / grain;
    p->finished_chunks = 0;
    atomic_store(&p->next_chunk, 0);
    p->job_open = 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    finish_chunks(p, run_chunks(p), 0);
    spin_until(p, 0, job_done); /* the loop below checks again under the lock */
    pthread_mutex_lock(&p->lock);
    while (p->finished_chunks < p->chunks || p->active > 0)
        pthread_cond_wait(&p->done, &p->lock);
    p->job_open = 0;
    pthread_mutex_unlock(&p->lock);
}
