/* Read-only runtime data shared by 8 threads: each thread animates its own character (model,
 * clip, start time, skinning mode) from the same rigs, clips and prepared meshes, sampling with
 * a cursor, running FK and palettes and skinning every frame into its own buffers. Every
 * frame's outputs must be bit-identical to the same character computed on one thread first.
 * Then one character's skinning split over a thread pool must equal the one-call result.
 * Built a second time under ThreadSanitizer (make test-tsan), which reports any data race. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/demo.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "ossa/thread_pool.h"
#include "test_support.h"

#define THREADS   8
#define FRAMES    48
#define MAX_PRIMS 8

/* A model and everything shared about it (read-only once built). */
typedef struct model {
    const char *name;
    ossa_document *doc;
    ossa_rig *rig;
    ossa_clip_set *clips;
    uint32_t prim_count;
    ossa_skin_mesh *prims[MAX_PRIMS];
    uint32_t prim_node[MAX_PRIMS];
} model;

/* One character: what it plays, and a 64-bit FNV-1a hash of every frame's outputs. */
typedef struct character {
    const model *m;
    uint32_t clip;
    float start;
    ossa_skin_mode mode;
    uint64_t hashes[FRAMES];
} character;

/* Calls of the library that refused valid inputs on some thread (checked by main). */
static atomic_int refusals;

static uint64_t fnv(uint64_t h, const void *data, size_t size) {
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int model_open(model *m, const char *name, ossa_document *doc) {
    memset(m, 0, sizeof *m);
    m->name = name;
    m->doc = doc;
    if (!doc) return 0;
    ossa_error error;
    CHECK(ossa_rig_build(doc, NULL, &m->rig, &error) == OSSA_OK);
    if (!m->rig) return 0;
    CHECK(ossa_clip_set_build(doc, m->rig, NULL, &m->clips, &error) == OSSA_OK);
    if (!m->clips) return 0;
    CHECK(ossa_clip_set_count(m->clips) > 0);
    for (uint32_t node = 0; node < m->rig->node_count; node++) {
        int32_t mesh = m->rig->mesh[node];
        if (mesh < 0) continue;
        for (uint32_t p = 0; p < doc->meshes[mesh].primitive_count && m->prim_count < MAX_PRIMS;
             p++) {
            ossa_skin_mesh *prepared = NULL;
            CHECK(ossa_skin_mesh_from_document(doc, (uint32_t)mesh, p, m->rig->skin[node], NULL,
                                               &prepared, &error) == OSSA_OK);
            if (!prepared) continue;
            m->prim_node[m->prim_count] = node;
            m->prims[m->prim_count++] = prepared;
        }
    }
    CHECK(m->prim_count > 0);
    return ossa_clip_set_count(m->clips) > 0 && m->prim_count > 0;
}

static void model_close(model *m) {
    for (uint32_t p = 0; p < m->prim_count; p++)
        ossa_skin_mesh_free(m->prims[p]);
    ossa_clip_set_free(m->clips);
    ossa_rig_free(m->rig);
    ossa_document_free(m->doc);
}

/* Plays a character for FRAMES frames, all in buffers of its own. */
static void *play(void *arg) {
    character *ch = arg;
    const model *m = ch->m;
    const ossa_rig *rig = m->rig;
    const ossa_clip *clip = ossa_clip_set_clip(m->clips, ch->clip);
    size_t slots = 0;
    for (uint32_t p = 0; p < m->prim_count; p++)
        if (ossa_skin_mesh_slot_count(m->prims[p]) > slots)
            slots = ossa_skin_mesh_slot_count(m->prims[p]);
    ossa_pose pose = {malloc(rig->node_count * sizeof(ossa_trs)),
                      malloc((rig->weight_total + 1) * sizeof(float))};
    uint32_t *keys = malloc((ossa_cursor_size(clip) + 1) * sizeof(uint32_t));
    float *world = malloc(rig->node_count * OSSA_MATRIX_FLOATS * sizeof(float));
    float *palette = malloc((rig->max_joint_count + 1) * OSSA_MATRIX_FLOATS * sizeof(float));
    float *dq = malloc((rig->max_joint_count + 1) * 12 * sizeof(float));
    float *positions = malloc(slots * 3 * sizeof(float));
    float *normals = malloc(slots * 3 * sizeof(float));
    if (pose.local && pose.weights && keys && world && palette && dq && positions && normals) {
        ossa_cursor cursor = {keys, ossa_cursor_size(clip)};
        ossa_cursor_reset(clip, &cursor);
        for (int f = 0; f < FRAMES; f++) {
            float t = ossa_clip_time(clip, ch->start + f / 30.0, OSSA_WRAP_LOOP);
            ossa_clip_sample(rig, clip, t, &cursor, &pose);
            ossa_fk_matrices(rig, &pose, world);
            uint64_t h = fnv(1469598103934665603ull, world,
                             rig->node_count * OSSA_MATRIX_FLOATS * sizeof(float));
            for (uint32_t p = 0; p < m->prim_count; p++) {
                uint32_t node = m->prim_node[p];
                int32_t skin = rig->skin[node];
                ossa_skin_frame frame;
                memset(&frame, 0, sizeof frame);
                frame.mode = ch->mode;
                if (skin >= 0) {
                    if (ossa_palette_mesh(rig, (uint32_t)skin, (int32_t)node, world, palette,
                                          NULL) != OSSA_OK)
                        atomic_fetch_add(&refusals, 1);
                    frame.palette = palette;
                    frame.joint_count = rig->skins[skin].joint_count;
                    ossa_skin_dual_quats(palette, frame.joint_count, dq);
                    frame.dual_quats = dq;
                } else {
                    frame.transform = world + (size_t)OSSA_MATRIX_FLOATS * node;
                }
                frame.morph_weights = pose.weights + rig->weight_offset[node];
                frame.morph_weight_count = rig->weight_count[node];
                size_t n = ossa_skin_mesh_slot_count(m->prims[p]);
                ossa_skin_output out = {
                    positions, 0,    ossa_skin_mesh_has_normals(m->prims[p]) ? normals : NULL,
                    0,         NULL, 0};
                if (ossa_skin_mesh_run(m->prims[p], &frame, &out, slots, 0, n, NULL) != OSSA_OK)
                    atomic_fetch_add(&refusals, 1);
                h = fnv(h, positions, n * 3 * sizeof(float));
                if (ossa_skin_mesh_has_normals(m->prims[p]))
                    h = fnv(h, normals, n * 3 * sizeof(float));
            }
            ch->hashes[f] = h;
        }
    }
    free(pose.local), free(pose.weights), free(keys), free(world), free(palette), free(dq);
    free(positions), free(normals);
    return NULL;
}

typedef struct pool_job {
    const ossa_skin_mesh *mesh;
    const ossa_skin_frame *frame;
    const ossa_skin_output *out;
} pool_job;

static void skin_range(void *user, size_t begin, size_t end) {
    const pool_job *job = user;
    if (ossa_skin_mesh_run(job->mesh, job->frame, job->out, ossa_skin_mesh_slot_count(job->mesh),
                           begin, end, NULL) != OSSA_OK)
        atomic_fetch_add(&refusals, 1);
}

/* The largest primitive of a model skinned in the rest pose in one call, then in chunks of 16
 * slots over a pool of `threads`: the outputs must be identical. */
static void check_pool(const model *m, unsigned threads) {
    const ossa_skin_mesh *mesh = m->prims[0];
    uint32_t node = m->prim_node[0];
    for (uint32_t p = 1; p < m->prim_count; p++)
        if (ossa_skin_mesh_slot_count(m->prims[p]) > ossa_skin_mesh_slot_count(mesh))
            mesh = m->prims[p], node = m->prim_node[p];
    const ossa_rig *rig = m->rig;
    size_t n = ossa_skin_mesh_slot_count(mesh);
    ossa_pose pose = {malloc(rig->node_count * sizeof(ossa_trs)),
                      malloc((rig->weight_total + 1) * sizeof(float))};
    float *world = malloc(rig->node_count * OSSA_MATRIX_FLOATS * sizeof(float));
    float *palette = malloc((rig->max_joint_count + 1) * OSSA_MATRIX_FLOATS * sizeof(float));
    float *one = malloc(n * 3 * sizeof(float)), *split = malloc(n * 3 * sizeof(float));
    ossa_thread_pool *pool = NULL;
    CHECK(ossa_thread_pool_create(threads, &pool) == OSSA_OK);
    if (pose.local && pose.weights && world && palette && one && split && pool) {
        ossa_clip_sample(rig, ossa_clip_set_clip(m->clips, 0),
                         ossa_clip_start(ossa_clip_set_clip(m->clips, 0)) + 0.4f, NULL, &pose);
        ossa_fk_matrices(rig, &pose, world);
        ossa_skin_frame frame;
        memset(&frame, 0, sizeof frame);
        if (rig->skin[node] >= 0) {
            CHECK(ossa_palette_mesh(rig, (uint32_t)rig->skin[node], (int32_t)node, world, palette,
                                    NULL) == OSSA_OK);
            frame.palette = palette;
            frame.joint_count = rig->skins[rig->skin[node]].joint_count;
        } else {
            frame.transform = world + (size_t)OSSA_MATRIX_FLOATS * node;
        }
        ossa_skin_output out = {one, 0, NULL, 0, NULL, 0};
        CHECK(ossa_skin_mesh_run(mesh, &frame, &out, n, 0, n, NULL) == OSSA_OK);
        ossa_skin_output out_split = {split, 0, NULL, 0, NULL, 0};
        pool_job job = {mesh, &frame, &out_split};
        ossa_thread_pool_for(pool, n, 16, skin_range, &job);
        CHECKF(!memcmp(one, split, n * 3 * sizeof(float)),
               "%s: skinning split over %u threads differs from one call", m->name, threads);
    }
    ossa_thread_pool_free(pool);
    free(pose.local), free(pose.weights), free(world), free(palette), free(one), free(split);
}

int main(void) {
    model models[2];
    ossa_document *fox = NULL, *demo = NULL;
    ossa_error error;
    CHECK(ossa_document_load_file(ossa_test_shared_path("models/Fox/Fox.glb"), NULL, &fox,
                                  &error) == OSSA_OK);
    CHECK(ossa_demo_load(NULL, &demo, &error) == OSSA_OK);
    int ok = model_open(&models[0], "Fox.glb", fox);
    ok = model_open(&models[1], "ossa-demo.glb", demo) && ok;
    if (ok) {
        character chars[THREADS], reference[THREADS];
        for (int i = 0; i < THREADS; i++) {
            memset(&chars[i], 0, sizeof chars[i]);
            chars[i].m = &models[i % 2];
            chars[i].clip = (uint32_t)(i / 2) % ossa_clip_set_count(chars[i].m->clips);
            chars[i].start = 0.137f * (float)i;
            chars[i].mode = i % 4 < 2 ? OSSA_SKIN_LBS : OSSA_SKIN_DQS;
            reference[i] = chars[i];
            play(&reference[i]);
        }
        pthread_t threads[THREADS];
        int started[THREADS];
        for (int i = 0; i < THREADS; i++)
            started[i] = pthread_create(&threads[i], NULL, play, &chars[i]) == 0;
        for (int i = 0; i < THREADS; i++) {
            CHECKF(started[i], "thread %d did not start", i);
            if (started[i]) pthread_join(threads[i], NULL);
        }
        int differing = 0;
        for (int i = 0; i < THREADS; i++)
            for (int f = 0; f < FRAMES; f++)
                differing += chars[i].hashes[f] != reference[i].hashes[f];
        CHECKF(differing == 0, "%d of %d frames differ from the single-threaded run", differing,
               THREADS * FRAMES);
        /* The hashes depend on the pose: a character's frames are not all the same. */
        CHECK(reference[0].hashes[0] != reference[0].hashes[FRAMES / 2]);
        printf("threads: %d characters x %d frames on %d threads, all identical to one thread\n",
               THREADS, FRAMES, THREADS);
        check_pool(&models[0], 4);
        check_pool(&models[1], 3);
        CHECKF(atomic_load(&refusals) == 0, "%d calls refused valid inputs on threads",
               atomic_load(&refusals));
    }
    model_close(&models[0]);
    model_close(&models[1]);
    return ossa_test_finish("threads_shared");
}
