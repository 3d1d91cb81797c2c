/* Skinning throughput: many instances of prepared meshes, one thread or a pool. */
#include "bench_skinning.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench_triad.h"

enum { BLOCK = 16 };

typedef struct skin_job {
    ossa_skin_mesh *const *meshes;
    int mesh_count;
    ossa_skin_frame *frames;   /* one per mesh */
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
        if (ossa_skin_mesh_run(mesh, &job->frames[m],
                               &job->outputs[instance * (size_t)job->mesh_count + (size_t)m],
                               ossa_skin_mesh_slot_count(mesh), b0 * BLOCK,
                               (b0 + (stop - begin)) * BLOCK, NULL) != OSSA_OK)
            atomic_fetch_add(&job->refusals, 1);
        begin = stop;
    }
}

int bench_skinning(ossa_skin_mesh *const *meshes, const float *const *palettes,
                   const float *const *dual_quats, const uint32_t *joint_counts, int mesh_count,
                   ossa_skin_mode mode, ossa_skin_backend backend, int instances, double seconds,
                   ossa_thread_pool *pool, bench_skin_result *out) {
    memset(out, 0, sizeof *out);
    skin_job job = {meshes,
                    mesh_count,
                    calloc((size_t)mesh_count, sizeof(ossa_skin_frame)),
                    calloc((size_t)instances * (size_t)mesh_count, sizeof(ossa_skin_output)),
                    calloc((size_t)mesh_count + 1, sizeof(size_t)),
                    0,
                    0};
    int status = !job.frames || !job.outputs || !job.first_block;
    double vertices = 0.0, bytes = 0.0;
    for (int m = 0; !status && m < mesh_count; m++) {
        size_t slots = ossa_skin_mesh_slot_count(meshes[m]);
        job.first_block[m + 1] = job.first_block[m] + slots / BLOCK;
        ossa_skin_frame *f = &job.frames[m];
        f->palette = palettes[m];
        f->dual_quats = dual_quats[m];
        f->joint_count = joint_counts[m];
        f->mode = mode;
        f->backend = backend;
        f->order = OSSA_SKIN_ORDER_PREPARED;
        for (int i = 0; i < instances; i++) {
            ossa_skin_output *o = &job.outputs[(size_t)i * (size_t)mesh_count + (size_t)m];
            o->positions = aligned_alloc(64, slots * 12 + 64);
            if (ossa_skin_mesh_has_normals(meshes[m]))
                o->normals = aligned_alloc(64, slots * 12 + 64);
            if (!o->positions || (ossa_skin_mesh_has_normals(meshes[m]) && !o->normals))
                status = 1;
            else {
                memset(o->positions, 0, slots * 12);
                if (o->normals) memset(o->normals, 0, slots * 12);
            }
        }
        vertices += (double)ossa_skin_mesh_vertex_count(meshes[m]);
        bytes += ossa_skin_mesh_bytes_per_vertex(meshes[m], &job.outputs[m]) * (double)slots;
    }
    job.blocks_per_instance = job.first_block[mesh_count];
    size_t total = job.blocks_per_instance * (size_t)instances;
    if (!status && total) {
        unsigned threads = pool ? ossa_thread_pool_threads(pool) : 1;
        size_t grain = total / (4 * threads);
        if (grain < 32) grain = 32;
        double best = HUGE_VAL, start = bench_now();
        int runs = 0;
        while (runs < 5 || bench_now() - start < seconds) {
            double t0 = bench_now();
            if (pool)
                ossa_thread_pool_for(pool, total, grain, skin_blocks, &job);
            else
                skin_blocks(&job, 0, total);
            double dt = bench_now() - t0;
            if (dt < best) best = dt;
            runs++;
        }
        if (atomic_load(&job.refusals)) status = 1;
        out->mverts_per_s = vertices * instances / best / 1e6;
        out->bytes_per_vertex = bytes / vertices;
    }
    for (size_t i = 0; job.outputs && i < (size_t)instances * (size_t)mesh_count; i++) {
        free(job.outputs[i].positions);
        free(job.outputs[i].normals);
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
