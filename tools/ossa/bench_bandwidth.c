/* Streaming bandwidth bounds (bench_bandwidth.h): read, write, copy and triad with ordinary and
 * non-temporal stores, each thread on memory it first touched. */
#define _POSIX_C_SOURCE 200809L
#include "bench_bandwidth.h"
#include "bench_clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define HAVE_STREAM_STORES 1
#else
#define HAVE_STREAM_STORES 0
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "simd_target.h"
#define HAVE_WIDE_STREAMS 1
/* The kernels with 64-byte loads and stores, as the AVX-512 skinning path moves data: on Zen 4
 * the scalar loops issue too few stores to reach the memory's bandwidth (one 8-byte store per
 * cycle or two, and what they reach changed with the loop's code alignment), and 16-byte
 * non-temporal stores reach ~0.6x the bandwidth of whole-line ones: bounds made of them would not
 * bound a kernel storing whole lines. */
OSSA_TARGET_BEGIN("avx512f")
#include <immintrin.h>
/* Runs a kernel over n doubles (a multiple of 8); returns the read kernel's sum. */
static double run_wide(int kernel, double *restrict a, const double *restrict b,
                       const double *restrict c, size_t n, double s) {
    __m512d v = _mm512_set1_pd(s), sum = _mm512_setzero_pd();
    switch (kernel) {
    case BENCH_READ: /* one add per line: its latency is well under a line's transfer time */
        for (size_t i = 0; i < n; i += 8)
            sum = _mm512_add_pd(sum, _mm512_load_pd(b + i));
        break;
    case BENCH_WRITE:
        for (size_t i = 0; i < n; i += 8)
            _mm512_store_pd(a + i, v);
        break;
    case BENCH_COPY:
        for (size_t i = 0; i < n; i += 8)
            _mm512_store_pd(a + i, _mm512_mul_pd(v, _mm512_load_pd(b + i)));
        break;
    case BENCH_TRIAD:
        for (size_t i = 0; i < n; i += 8)
            _mm512_store_pd(a + i,
                            _mm512_fmadd_pd(v, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
        break;
    case BENCH_WRITE_NT:
        for (size_t i = 0; i < n; i += 8)
            _mm512_stream_pd(a + i, v);
        break;
    case BENCH_COPY_NT:
        for (size_t i = 0; i < n; i += 8)
            _mm512_stream_pd(a + i, _mm512_mul_pd(v, _mm512_load_pd(b + i)));
        break;
    case BENCH_TRIAD_NT:
        for (size_t i = 0; i < n; i += 8)
            _mm512_stream_pd(a + i,
                             _mm512_fmadd_pd(v, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
        break;
    default:
        break;
    }
    _mm_sfence();
    return _mm512_reduce_add_pd(sum);
}
OSSA_TARGET_END
#else
#define HAVE_WIDE_STREAMS 0
#endif

int bench_stream_wide(void) {
#if HAVE_WIDE_STREAMS
    return __builtin_cpu_supports("avx512f");
#else
    return 0;
#endif
}

double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *const names[BENCH_STREAM_COUNT] = {"read",    "write", "write_nt", "copy",
                                                      "copy_nt", "triad", "triad_nt"};
static const double bytes[BENCH_STREAM_COUNT] = {8, 16, 8, 24, 16, 32, 24};

const char *bench_stream_name(bench_stream kernel) {
    return kernel < BENCH_STREAM_COUNT ? names[kernel] : "?";
}

double bench_stream_bytes(bench_stream kernel) {
    return kernel < BENCH_STREAM_COUNT ? bytes[kernel] : 0.0;
}

int bench_stream_supported(bench_stream kernel) {
    if (kernel == BENCH_WRITE_NT || kernel == BENCH_COPY_NT || kernel == BENCH_TRIAD_NT)
        return HAVE_STREAM_STORES;
    return kernel < BENCH_STREAM_COUNT;
}

/* One thread's arrays (n doubles each, n a multiple of 8: whole 64-byte lines), in slices: each
 * kernel runs on the slice after the last kernel's, so what it touches was last touched eight
 * kernels before and has left the cache since. Run on the slice the kernel before had just used,
 * non-temporal stores waited for the write-back of lines left dirty and reads found their lines
 * in the cache: on an Intel host whose cache held a slice, write_nt came out 30% low (17.7
 * GB/s on one thread against 26) and triad_nt 25% high, and a skinning crowd "passed" its bound.
 * A slice takes about as long as one skinning pass (the best of many short rounds is as likely
 * to find a quiet moment of a shared machine as the best of many passes). */
enum { SLICES = 8 };

typedef struct lane {
    double *a, *b, *c;
    size_t n;
    double sum; /* the read kernel's result: the slice's length when it ran */
    int failed;
    int wide;       /* the kernels load and store 64 bytes at a time (bench_stream_wide) */
    double seconds; /* how long its kernel took in the last round (wall clock) */
} lane;

typedef struct team {
    pthread_mutex_t lock;
    pthread_cond_t launch;
    int launched, abort; /* every thread started (or one could not be: leave) */
    pthread_barrier_t go, done;
    int kernel;   /* what the next round runs; -1: leave */
    size_t slice; /* and on which slice of the arrays */
    double scalar;
    size_t n;
    unsigned threads;
    lane *lanes;
} team;

static double read_kernel(const double *restrict b, size_t n) {
    /* eight independent sums: one would wait on the adder's latency, not on memory */
    double s[8] = {0};
    for (size_t i = 0; i < n; i += 8)
        for (int k = 0; k < 8; k++)
            s[k] += b[i + (size_t)k];
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

/* Runs a kernel over slice `slice` of the lane's arrays. */
static void run_kernel(lane *l, int kernel, size_t slice, double s) {
    size_t n = l->n / SLICES, at = slice * n;
    double *restrict a = l->a + at;
    const double *restrict b = l->b + at, *restrict c = l->c + at;
#if HAVE_WIDE_STREAMS
    if (l->wide) {
        double sum = run_wide(kernel, a, b, c, n, s);
        if (kernel == BENCH_READ) l->sum = sum;
        return;
    }
#endif
    switch (kernel) {
    case BENCH_READ:
        l->sum = read_kernel(b, n);
        break;
    case BENCH_WRITE:
        for (size_t i = 0; i < n; i++)
            a[i] = s;
        break;
    case BENCH_COPY:
        for (size_t i = 0; i < n; i++)
            a[i] = s * b[i];
        break;
    case BENCH_TRIAD:
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        break;
#if HAVE_STREAM_STORES
    case BENCH_WRITE_NT: {
        __m128d v = _mm_set1_pd(s);
        for (size_t i = 0; i < n; i += 2)
            _mm_stream_pd(a + i, v);
        _mm_sfence();
        break;
    }
    case BENCH_COPY_NT: {
        __m128d v = _mm_set1_pd(s);
        for (size_t i = 0; i < n; i += 2)
            _mm_stream_pd(a + i, _mm_mul_pd(v, _mm_load_pd(b + i)));
        _mm_sfence();
        break;
    }
    case BENCH_TRIAD_NT: {
        __m128d v = _mm_set1_pd(s);
        for (size_t i = 0; i < n; i += 2)
            _mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i), _mm_mul_pd(v, _mm_load_pd(c + i))));
        _mm_sfence();
        break;
    }
#endif
    default:
        break;
    }
}

/* run_kernel timed on the wall clock from its own start: waking a thread at a barrier takes tens
 * of microseconds, which a round timed from before the barrier counted as if memory had been
 * busy (bounds 10% low, and shares above 1, were seen on two threads). */
static void timed_kernel(lane *l, int kernel, size_t slice, double s) {
    double start = bench_now();
    run_kernel(l, kernel, slice, s);
    l->seconds = bench_now() - start;
}

typedef struct lane_arg {
    team *t;
    lane *l;
} lane_arg;

/* Allocates and first touches the lane's arrays on the thread that will use them. */
static void lane_setup(lane *l, size_t n) {
    l->n = n;
    l->wide = bench_stream_wide();
    l->a = aligned_alloc(64, n * sizeof(double));
    l->b = aligned_alloc(64, n * sizeof(double));
    l->c = aligned_alloc(64, n * sizeof(double));
    l->failed = !l->a || !l->b || !l->c;
    for (size_t i = 0; !l->failed && i < n; i++) {
        l->a[i] = 0.0;
        l->b[i] = 1.0;
        l->c[i] = 2.0;
    }
}

static void lane_free(lane *l) {
    free(l->a);
    free(l->b);
    free(l->c);
}

/* A thread of the team: waits until every thread is started, sets up, then runs one kernel per
 * round until told to leave. */
static void *worker(void *arg) {
    lane_arg *la = arg;
    team *t = la->t;
    pthread_mutex_lock(&t->lock);
    while (!t->launched)
        pthread_cond_wait(&t->launch, &t->lock);
    pthread_mutex_unlock(&t->lock);
    if (t->abort) return NULL;
    lane_setup(la->l, t->n);
    pthread_barrier_wait(&t->done); /* set up */
    for (;;) {
        pthread_barrier_wait(&t->go);
        if (t->kernel < 0) break;
        if (!la->l->failed) timed_kernel(la->l, t->kernel, t->slice, t->scalar);
        pthread_barrier_wait(&t->done);
    }
    lane_free(la->l);
    return NULL;
}

/* Every thread runs `kernel` on a slice of its lane; returns the seconds the slowest took (one
 * thread: on its CPU clock; a team: each from its own start, so the bytes over that time are
 * if anything more than the bus carried, never less: a bound errs high). */
static double round_of(team *t, int kernel, size_t slice) {
    t->kernel = kernel;
    t->slice = slice;
    if (t->threads == 1) {
        /* the thread's CPU time: a shared machine's other programs do not count */
        double t0 = 1e-9 * bench_thread_ns();
        if (kernel >= 0 && !t->lanes[0].failed) run_kernel(&t->lanes[0], kernel, slice, t->scalar);
        return 1e-9 * bench_thread_ns() - t0;
    }
    pthread_barrier_wait(&t->go);
    if (kernel < 0) return 0.0;
    if (!t->lanes[0].failed) timed_kernel(&t->lanes[0], kernel, slice, t->scalar);
    pthread_barrier_wait(&t->done);
    double slowest = 0.0;
    for (unsigned i = 0; i < t->threads; i++)
        if (t->lanes[i].seconds > slowest) slowest = t->lanes[i].seconds;
    return slowest;
}

int bench_bandwidth(size_t array_bytes, unsigned threads, double seconds,
                    double gbs[BENCH_STREAM_COUNT]) {
    memset(gbs, 0, BENCH_STREAM_COUNT * sizeof *gbs);
    if (threads < 1) threads = 1;
    team t;
    memset(&t, 0, sizeof t);
    t.n = (array_bytes / threads / sizeof(double) + 8 * SLICES - 1) & ~(size_t)(8 * SLICES - 1);
    t.scalar = 3.0;
    t.threads = threads;
    t.lanes = calloc(threads, sizeof *t.lanes);
    lane_arg *args = calloc(threads, sizeof *args);
    pthread_t *ids = calloc(threads, sizeof *ids);
    if (!t.lanes || !args || !ids) {
        free(t.lanes), free(args), free(ids);
        return 1;
    }
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.launch, NULL);
    unsigned started = 0;
    for (unsigned i = 1; i < threads; i++) {
        args[i] = (lane_arg){&t, &t.lanes[i]};
        if (pthread_create(&ids[i], NULL, worker, &args[i])) break;
        started++;
    }
    /* the barriers count every thread: start them only once all threads exist */
    t.abort = started + 1 < threads;
    if (!t.abort) {
        pthread_barrier_init(&t.go, NULL, threads);
        pthread_barrier_init(&t.done, NULL, threads);
    }
    pthread_mutex_lock(&t.lock);
    t.launched = 1;
    pthread_cond_broadcast(&t.launch);
    pthread_mutex_unlock(&t.lock);
    int status = t.abort;
    if (!t.abort) {
        lane_setup(&t.lanes[0], t.n);
        pthread_barrier_wait(&t.done);
        for (unsigned i = 0; i < threads; i++)
            status |= t.lanes[i].failed;
        double start = bench_now();
        size_t slice = 0, triad_slice = 0;
        for (int rounds = 0; !status && (rounds < 3 * SLICES || bench_now() - start < seconds);
             rounds++) {
            for (int k = 0; k < BENCH_STREAM_COUNT; k++) {
                if (!bench_stream_supported((bench_stream)k)) continue;
                slice = (slice + 1) % SLICES;
                if (k == BENCH_TRIAD || k == BENCH_TRIAD_NT) triad_slice = slice;
                double dt = round_of(&t, k, slice);
                double rate = bytes[k] * (double)(t.n / SLICES) * threads / dt / 1e9;
                if (rate > gbs[k]) gbs[k] = rate;
            }
        }
        /* the loops really ran: the read summed a slice's ones, the last triad wrote 1 + 3 * 2 */
        size_t len = t.n / SLICES;
        for (unsigned i = 0; !status && i < threads; i++)
            status |=
                t.lanes[i].sum != (double)len || t.lanes[i].a[triad_slice * len + len / 2] != 7.0;
        round_of(&t, -1, 0);
        lane_free(&t.lanes[0]);
    }
    for (unsigned i = 1; i <= started; i++)
        pthread_join(ids[i], NULL);
    if (!t.abort) {
        pthread_barrier_destroy(&t.go);
        pthread_barrier_destroy(&t.done);
    }
    pthread_mutex_destroy(&t.lock);
    pthread_cond_destroy(&t.launch);
    free(t.lanes), free(args), free(ids);
    if (status) memset(gbs, 0, BENCH_STREAM_COUNT * sizeof *gbs);
    return status;
}
