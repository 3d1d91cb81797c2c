/* Helpers shared by the skinning suites. */
#include "skin_test_util.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>

#include "ossa/thread_pool.h"
#include "test_support.h"

uint32_t skin_test_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

float skin_test_uniform(uint64_t *s, float lo, float hi) {
    return lo + (hi - lo) * (float)(skin_test_rand(s) & 0xffffff) / 16777216.0f;
}

void skin_test_random_palette(uint64_t *s, uint32_t joint_count, float t, float *out) {
    for (uint32_t j = 0; j < joint_count; j++) {
        /* rotations within ~55 degrees of identity: blended normals never nearly cancel */
        float q[4] = {skin_test_uniform(s, -0.3f, 0.3f), skin_test_uniform(s, -0.3f, 0.3f),
                      skin_test_uniform(s, -0.3f, 0.3f), 1.0f};
        float n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + 1.0f;
        n = sqrtf(n);
        float x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
        float sc = skin_test_uniform(s, 0.5f, 2.0f);
        float *m = out + 12 * j;
        m[0] = sc * (1 - 2 * (y * y + z * z));
        m[1] = sc * 2 * (x * y - z * w);
        m[2] = sc * 2 * (x * z + y * w);
        m[4] = sc * 2 * (x * y + z * w);
        m[5] = sc * (1 - 2 * (x * x + z * z));
        m[6] = sc * 2 * (y * z - x * w);
        m[8] = sc * 2 * (x * z - y * w);
        m[9] = sc * 2 * (y * z + x * w);
        m[10] = sc * (1 - 2 * (x * x + y * y));
        m[3] = skin_test_uniform(s, -t, t);
        m[7] = skin_test_uniform(s, -t, t);
        m[11] = skin_test_uniform(s, -t, t);
    }
}

void skin_test_compare(const char *what, const float *a, const float *b, size_t n, int components,
                       double rel) {
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        const float *pa = a + i * components, *pb = b + i * components;
        double len = sqrt((double)pb[0] * pb[0] + (double)pb[1] * pb[1] + (double)pb[2] * pb[2]);
        for (int c = 0; c < components; c++) {
            double d = fabs((double)pa[c] - pb[c]) / (1.0 + len);
            if (!(d <= rel)) {
                if (!bad) first = i;
                bad++;
            }
            if (d > worst || d != d) worst = d;
        }
    }
    CHECKF(bad == 0, "%s: %zu of %zu elements differ (first %zu: %g %g %g vs %g %g %g), worst %g",
           what, bad, n, first, a[first * components], a[first * components + 1],
           a[first * components + 2], b[first * components], b[first * components + 1],
           b[first * components + 2], worst);
}

typedef struct run_job {
    const ossa_skin_mesh *mesh;
    const ossa_skin_frame *frame;
    const ossa_skin_output *out;
    size_t capacity;
    atomic_int failures; /* ranges whose run refused valid inputs */
} run_job;

static void run_range(void *user, size_t begin, size_t end) {
    run_job *job = user;
    if (ossa_skin_mesh_run(job->mesh, job->frame, job->out, job->capacity, begin, end, NULL) !=
        OSSA_OK)
        atomic_fetch_add(&job->failures, 1);
}

void skin_test_run_threads(const ossa_skin_mesh *mesh, const ossa_skin_frame *frame,
                           const ossa_skin_output *out, size_t capacity, unsigned threads,
                           size_t grain) {
    ossa_thread_pool *pool = NULL;
    CHECK(ossa_thread_pool_create(threads, &pool) == OSSA_OK);
    if (!pool) return;
    CHECK(ossa_thread_pool_threads(pool) == threads);
    run_job job = {mesh, frame, out, capacity, 0};
    ossa_thread_pool_for(pool, ossa_skin_mesh_slot_count(mesh), grain, run_range, &job);
    ossa_thread_pool_free(pool);
    CHECK(atomic_load(&job.failures) == 0);
}
