/* Skinning throughput: many instances of prepared meshes, one thread or a pool. */
#define _POSIX_C_SOURCE 200809L
#include "bench_skinning.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench_bandwidth.h"
#include "bench_clock.h"
#include "skin/skin_mesh_internal.h"

enum { BLOCK = 16 };

typedef struct skin_job {
    ossa_skin_mesh *const *meshes;
    int mesh_count;
    ossa_skin_frame *frames;   /* instance * mesh_count + mesh */
    ossa_skin_output *outputs; /* instance * mesh_count + mesh */
    size_t *first_block;       /* mesh_count + 1 prefix sums of blocks within one instance */
    size_t blocks_per_instance;
    atomic_int refusals; /* calls that refused their inputs (a bug of this benchmark) */
} skin_job;

/* Skins global blocks [begin, end): instance after instance, mesh after mesh. */
static void skin_blocks(void *user, size_t begin, size_t end) {
    skin_job *job = user;
    while (begin < end) {
        size_t instance = begin / job->blocks_per_instance;
        size_t local = begin - instance * job->blocks_per_instance;
        int m = 0;
        while (local >= job->first_block[m + 1])
            m++;
        size_t mesh_end = instance * job->blocks_per_instance + job->first_block[m + 1];
        size_t stop = end < mesh_end ? end : mesh_end;
        size_t b0 = local - job->first_block[m];
        const ossa_skin_mesh *mesh = job->meshes[m];
        size_t at = instance * (size_t)job->mesh_count + (size_t)m;
        if (ossa_skin_mesh_run(mesh, &job->frames[at], &job->outputs[at],
                               ossa_skin_mesh_slot_count(mesh), b0 * BLOCK,
                               (b0 + (stop - begin)) * BLOCK, NULL) != OSSA_OK)
            atomic_fetch_add(&job->refusals, 1);
        begin = stop;
    }
}

int bench_skin_nontemporal(const ossa_skin_mesh *mesh, const ossa_skin_output *out,
                           ossa_skin_backend backend, ossa_skin_stores stores) {
    if (backend == OSSA_SKIN_BACKEND_AUTO || !ossa_skin_backend_supported(backend))
        backend = ossa_skin_backend_best();
    size_t out_bytes = 12 * (size_t)(out->positions != NULL) +
                       12 * (size_t)(out->normals && ossa_skin_mesh_has_normals(mesh));
    if (backend != OSSA_SKIN_BACKEND_AVX512 || stores == OSSA_SKIN_STORES_CACHED) return 0;
    return stores == OSSA_SKIN_STORES_STREAM ||
           ossa_skin_mesh_slot_count(mesh) * out_bytes >= SKIN_NONTEMPORAL_BYTES;
}

/* The outputs and, for DQS, the dual quaternion tables of every instance. */
static int alloc_instances(skin_job *job, const float *const *palettes,
                           const uint32_t *joint_counts, ossa_skin_mode mode,
                           ossa_skin_backend backend, int instances) {
    for (int m = 0; m < job->mesh_count; m++) {
        ossa_skin_mesh *mesh = job->meshes[m];
        size_t slots = ossa_skin_mesh_slot_count(mesh);
        job->first_block[m + 1] = job->first_block[m] + slots / BLOCK;
        for (int i = 0; i < instances; i++) {
            size_t at = (size_t)i * (size_t)job->mesh_count + (size_t)m;
            ossa_skin_frame *f = &job->frames[at];
            f->palette = palettes[m];
            f->joint_count = joint_counts[m];
            f->mode = mode;
            f->backend = backend;
            f->order = OSSA_SKIN_ORDER_PREPARED;
            if (mode == OSSA_SKIN_DQS) {
                float *dq = malloc(12 * sizeof(float) * (joint_counts[m] + 1));
                if (!dq) return 1;
                ossa_skin_dual_quats(palettes[m], joint_counts[m], dq);
                f->dual_quats = dq;
            }
            ossa_skin_output *o = &job->outputs[at];
            o->positions = aligned_alloc(64, slots * 12 + 64);
            if (ossa_skin_mesh_has_normals(mesh)) o->normals = aligned_alloc(64, slots * 12 + 64);
            if (!o->positions || (ossa_skin_mesh_has_normals(mesh) && !o->normals)) return 1;
            memset(o->positions, 0, slots * 12);
            if (o->normals) memset(o->normals, 0, slots * 12);
        }
    }
    job->blocks_per_instance = job->first_block[job->mesh_count];
    return 0;
}

/* Frames [begin, end): their palettes to dual quaternions, as each frame of a game does. */
static void convert_palettes(const skin_job *job, size_t begin, size_t end) {
    for (size_t at = begin; at < end; at++)
        ossa_skin_dual_quats(job->frames[at].palette, job->frames[at].joint_count,
                             (float *)job->frames[at].dual_quats);
}

/* Instances [begin, end), each whole: for DQS its palettes converted first, by the same thread,
 * as a game's per-character job does (the crowd workload's too). */
static void skin_instances(void *user, size_t begin, size_t end) {
    skin_job *job = user;
    size_t meshes = (size_t)job->mesh_count;
    for (size_t k = begin; k < end; k++) {
        if (job->frames[k * meshes].mode == OSSA_SKIN_DQS)
            convert_palettes(job, k * meshes, (k + 1) * meshes);
        skin_blocks(job, k * job->blocks_per_instance, (k + 1) * job->blocks_per_instance);
    }
}

int bench_skinning(ossa_skin_mesh *const *meshes, const float *const *palettes,
                   const uint32_t *joint_counts, int mesh_count, ossa_skin_mode mode,
                   ossa_skin_backend backend, int instances, double seconds, ossa_thread_pool *pool,
                   bench_skin_result *out) {
    memset(out, 0, sizeof *out);
    size_t frames = (size_t)instances * (size_t)mesh_count;
    skin_job job = {meshes,
                    mesh_count,
                    calloc(frames, sizeof(ossa_skin_frame)),
                    calloc(frames, sizeof(ossa_skin_output)),
                    calloc((size_t)mesh_count + 1, sizeof(size_t)),
                    0,
                    0};
    int status = !job.frames || !job.outputs || !job.first_block;
    if (!status) status = alloc_instances(&job, palettes, joint_counts, mode, backend, instances);
    double vertices = 0.0, bytes = 0.0, written = 0.0, owned = 0.0;
    int nontemporal = 1;
    for (int m = 0; !status && m < mesh_count; m++) {
        double slots = (double)ossa_skin_mesh_slot_count(meshes[m]);
        const ossa_skin_output *o = &job.outputs[m];
        vertices += (double)ossa_skin_mesh_vertex_count(meshes[m]);
        bytes += ossa_skin_mesh_bytes_per_vertex(meshes[m], o) * slots;
        double out_bytes = 12.0 * slots * (1 + (o->normals != NULL));
        written += out_bytes;
        if (bench_skin_nontemporal(meshes[m], o, backend, OSSA_SKIN_STORES_AUTO)) continue;
        nontemporal = 0;
        owned += out_bytes; /* ordinary stores read each line first */
    }
    size_t total = job.blocks_per_instance * (size_t)instances;
    if (!status && total) {
        unsigned threads = pool ? ossa_thread_pool_threads(pool) : 1;
        /* Several instances: split by instance. One: split its blocks, after its conversion. */
        int by_instance = instances > 1;
        size_t units = by_instance ? (size_t)instances : total;
        size_t grain = units / (4 * threads), least = by_instance ? 1 : 32;
        if (grain < least) grain = least;
        ossa_range_fn run = by_instance ? skin_instances : skin_blocks;
        double best = HUGE_VAL, start = bench_now();
        int runs = 0;
        while (runs < 5 || bench_now() - start < seconds) {
            /* One thread: its CPU time (a shared machine's other programs do not count). Passes
             * are timed in groups of at least a millisecond: under KVM the thread's CPU clock
             * now and then misses microseconds, and the best of single short passes would keep
             * such a miss (a pass of 16 Fox copies once timed as 0 s). */
            double t0 = pool ? bench_now() : 1e-9 * bench_thread_ns(), dt;
            int passes = 0;
            do {
                if (mode == OSSA_SKIN_DQS && !by_instance) convert_palettes(&job, 0, frames);
                if (pool)
                    ossa_thread_pool_for(pool, units, grain, run, &job);
                else
                    run(&job, 0, units);
                passes++;
                dt = (pool ? bench_now() : 1e-9 * bench_thread_ns()) - t0;
            } while (dt < BENCH_GROUP_SECONDS);
            if (dt / passes < best) best = dt / passes;
            runs++;
        }
        if (atomic_load(&job.refusals)) status = 1;
        out->mverts_per_s = vertices * instances / best / 1e6;
        out->bytes_per_vertex = bytes / vertices;
        out->output_bytes_per_vertex = written / vertices;
        out->rfo_bytes_per_vertex = owned / vertices;
        out->nontemporal = nontemporal;
    }
    for (size_t i = 0; job.outputs && job.frames && i < frames; i++) {
        free(job.outputs[i].positions);
        free(job.outputs[i].normals);
        free((float *)job.frames[i].dual_quats);
    }
    free(job.outputs);
    free(job.frames);
    free(job.first_block);
    return status;
}

static uint32_t next_random(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static float uniform(uint64_t *s) {
    return (float)(next_random(s) & 0xffffff) / 16777216.0f;
}

ossa_skin_mesh *bench_synthetic_mesh(size_t n, uint32_t joints) {
    float *positions = malloc(n * 3 * sizeof(float)), *normals = malloc(n * 3 * sizeof(float));
    uint16_t *joint_ids = malloc(n * 4 * sizeof(uint16_t));
    float *weights = malloc(n * 4 * sizeof(float));
    ossa_skin_mesh *mesh = NULL;
    if (positions && normals && joint_ids && weights) {
        uint64_t seed = 42;
        for (size_t i = 0; i < n; i++) {
            float len = 0.0f;
            for (int c = 0; c < 3; c++) {
                positions[3 * i + c] = 2.0f * uniform(&seed) - 1.0f;
                normals[3 * i + c] = 2.0f * uniform(&seed) - 1.0f;
                len += normals[3 * i + c] * normals[3 * i + c];
            }
            len = len > 0.0f ? 1.0f / sqrtf(len) : 0.0f;
            for (int c = 0; c < 3; c++)
                normals[3 * i + c] *= len;
            /* four joints of one limb: a run of up to 8 neighbours along the skeleton */
            uint32_t centre = (uint32_t)((double)i * joints / (double)n);
            float sum = 0.0f;
            for (int k = 0; k < 4; k++) {
                uint32_t j = centre + (uint32_t)k * 2 + (next_random(&seed) & 1);
                joint_ids[4 * i + k] = (uint16_t)(j < joints ? j : joints - 1 - (uint32_t)k);
                weights[4 * i + k] = 0.05f + uniform(&seed);
                sum += weights[4 * i + k];
            }
            for (int k = 0; k < 4; k++)
                weights[4 * i + k] /= sum;
        }
        ossa_influence_set set = {joint_ids, 0, OSSA_COMPONENT_UNSIGNED_SHORT,
                                  weights,   0, OSSA_COMPONENT_FLOAT};
        ossa_skin_mesh_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.input = (ossa_skin_input){positions, 0, normals, 0, NULL, 0, &set, 1};
        desc.vertex_count = n;
        desc.joint_count = joints;
        if (ossa_skin_mesh_create(&desc, &mesh, NULL) != OSSA_OK) mesh = NULL;
    }
    free(positions);
    free(normals);
    free(joint_ids);
    free(weights);
    return mesh;
}

void bench_synthetic_palette(uint32_t joint_count, float *palette) {
    for (uint32_t j = 0; j < joint_count; j++) {
        float a = 0.05f * (float)j, c = cosf(a), s = sinf(a);
        const float m[12] = {c, -s, 0, 0.1f * (float)j, s, c, 0, 0, 0, 0, 1, -0.05f * (float)j};
        memcpy(palette + 12 * j, m, sizeof m);
    }
}
