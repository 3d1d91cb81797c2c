/* The thread pool: every index of a job is visited exactly once, for many jobs in a row, any
 * grain and thread count; one-thread pools run on the caller. */
#include <stdatomic.h>
#include <stdlib.h>

#include "ossa/thread_pool.h"
#include "test_support.h"

typedef struct visit_job {
    atomic_int *visits;
    atomic_size_t calls;
} visit_job;

static void visit(void *user, size_t begin, size_t end) {
    visit_job *job = user;
    atomic_fetch_add(&job->calls, 1);
    for (size_t i = begin; i < end; i++)
        atomic_fetch_add(&job->visits[i], 1);
}

static void check_pool(unsigned threads) {
    ossa_thread_pool *pool = NULL;
    CHECK(ossa_thread_pool_create(threads, &pool) == OSSA_OK);
    if (!pool) return;
    CHECK(ossa_thread_pool_threads(pool) == threads);
    enum { N = 1000 };
    atomic_int *visits = calloc(N, sizeof *visits);
    static const size_t counts[] = {0, 1, 7, 16, 999, 1000};
    static const size_t grains[] = {0, 1, 3, 16, 64, 5000};
    int wrong = 0;
    for (int round = 0; round < 200; round++) {
        size_t count = counts[round % 6], grain = grains[(round / 6) % 6];
        for (size_t i = 0; i < N; i++)
            atomic_store(&visits[i], 0);
        visit_job job = {visits, 0};
        ossa_thread_pool_for(pool, count, grain, visit, &job);
        for (size_t i = 0; i < N; i++)
            if (atomic_load(&visits[i]) != (i < count ? 1 : 0)) wrong++;
        size_t g = grain ? grain : (count + threads - 1) / threads;
        if (count && g) CHECK(atomic_load(&job.calls) == (count + g - 1) / g);
    }
    CHECKF(wrong == 0, "%u threads: %d indices visited the wrong number of times", threads, wrong);
    free(visits);
    ossa_thread_pool_free(pool);
}

int main(void) {
    check_pool(1);
    check_pool(2);
    check_pool(5);
    ossa_thread_pool *pool = NULL;
    CHECK(ossa_thread_pool_create(0, &pool) == OSSA_OK);
    CHECK(pool && ossa_thread_pool_threads(pool) >= 1);
    ossa_thread_pool_free(pool);
    ossa_thread_pool_free(NULL);
    return ossa_test_finish("thread_pool");
}
