/* A CPU-skinned crowd of real characters (bench_skin_crowd.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_skin_crowd.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_bandwidth.h"
#include "bench_clock.h"
#include "cli_report.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/model.h"

struct bench_skin_crowd {
    ossa_model *model;
    int characters;
    ossa_character **character;
    unsigned char *memory; /* every character, one after another */
    uint32_t *primitive;   /* the skinned primitives with a prepared mesh */
    uint32_t primitive_count;
    ossa_skin_output *outputs; /* character * primitive_count + i */
    float *dual_quats;         /* per character: every skin's table, dq_floats floats */
    uint32_t *dq_offset;       /* per skin: first float in a character's tables */
    uint32_t skin_count;
    size_t dq_floats;
    size_t vertices;      /* per character */
    double palette_bytes; /* per character: the palettes its primitives read */
    ossa_skin_mode mode;
    ossa_skin_backend backend;
    ossa_skin_stores stores;
    atomic_int refusals;
};

/* Skins characters [begin, end). */
static void skin_characters(void *user, size_t begin, size_t end) {
    bench_skin_crowd *c = user;
    const ossa_rig *rig = ossa_model_rig(c->model);
    for (size_t k = begin; k < end; k++) {
        const ossa_character *ch = c->character[k];
        float *dq = c->dual_quats + k * c->dq_floats;
        if (c->mode == OSSA_SKIN_DQS)
            for (uint32_t s = 0; s < c->skin_count; s++)
                ossa_skin_dual_quats(ossa_character_palette(ch, s), rig->skins[s].joint_count,
                                     dq + c->dq_offset[s]);
        for (uint32_t i = 0; i < c->primitive_count; i++) {
            uint32_t p = c->primitive[i];
            const ossa_model_primitive *info = ossa_model_primitive_info(c->model, p);
            const ossa_skin_mesh *mesh = ossa_model_skin_mesh(c->model, p);
            ossa_skin_frame frame;
            memset(&frame, 0, sizeof frame);
            frame.palette = ossa_character_palette(ch, (uint32_t)info->skin);
            frame.dual_quats = dq + c->dq_offset[info->skin];
            frame.joint_count = info->joint_count;
            frame.morph_weights = ossa_character_weights(ch) + info->weight_offset;
            frame.morph_weight_count = info->target_count;
            frame.mode = c->mode;
            frame.backend = c->backend;
            frame.stores = c->stores;
            frame.order = OSSA_SKIN_ORDER_PREPARED;
            size_t slots = ossa_skin_mesh_slot_count(mesh);
            if (ossa_skin_mesh_run(mesh, &frame, &c->outputs[k * c->primitive_count + i], slots, 0,
                                   slots, NULL) != OSSA_OK)
                atomic_fetch_add(&c->refusals, 1);
        }
    }
}

void bench_skin_crowd_free(bench_skin_crowd *c) {
    if (!c) return;
    for (size_t i = 0; c->outputs && i < (size_t)c->characters * c->primitive_count; i++) {
        free(c->outputs[i].positions);
        free(c->outputs[i].normals);
    }
    free(c->outputs), free(c->dual_quats), free(c->dq_offset), free(c->primitive);
    free(c->character), free(c->memory);
    ossa_model_free(c->model);
    free(c);
}

size_t bench_skin_crowd_vertices(const bench_skin_crowd *c) {
    return c->vertices * (size_t)c->characters;
}

size_t bench_skin_crowd_output_bytes(const bench_skin_crowd *c) {
    size_t bytes = 0;
    for (uint32_t i = 0; i < c->primitive_count; i++) {
        const ossa_skin_output *o = &c->outputs[i];
        size_t slots = ossa_skin_mesh_slot_count(ossa_model_skin_mesh(c->model, c->primitive[i]));
        bytes += 12 * slots * (1 + (size_t)(o->normals != NULL));
    }
    return bytes * (size_t)c->characters;
}

/* The characters, posed at staggered times of clip 0. */
static int pose_characters(bench_skin_crowd *c) {
    size_t align = ossa_character_alignment();
    size_t stride = (ossa_character_size(c->model) + align - 1) & ~(align - 1);
    size_t n = (size_t)c->characters;
    c->character = malloc(n * sizeof *c->character);
    c->memory = aligned_alloc(align, n * stride);
    const ossa_clip **clips = malloc(n * sizeof *clips);
    double *clocks = malloc(n * sizeof *clocks);
    int ok = c->character && c->memory && clips && clocks;
    const ossa_clip *clip = ossa_model_clip_count(c->model) ? ossa_model_clip(c->model, 0) : NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = ossa_character_init(c->model, c->memory + i * stride, stride, &c->character[i],
                                 NULL) == OSSA_OK;
        clips[i] = clip;
        clocks[i] = clip ? ossa_clip_duration(clip) * (double)i / (double)n : 0.0;
    }
    if (ok)
        ok = ossa_characters_update(c->character, (uint32_t)n, clips, clocks, OSSA_WRAP_LOOP, NULL,
                                    NULL) == OSSA_OK;
    free(clips);
    free(clocks);
    return ok;
}

/* The skinned primitives, every character's outputs and dual quaternion tables. */
static int alloc_outputs(bench_skin_crowd *c) {
    uint32_t count = ossa_model_primitive_count(c->model);
    const ossa_rig *rig = ossa_model_rig(c->model);
    c->primitive = malloc((count + 1) * sizeof *c->primitive);
    c->skin_count = rig->skin_count;
    c->dq_offset = calloc(rig->skin_count + 1, sizeof *c->dq_offset);
    if (!c->primitive || !c->dq_offset) return 0;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        c->dq_offset[s] = (uint32_t)c->dq_floats;
        c->dq_floats += 12 * (size_t)rig->skins[s].joint_count;
    }
    int *skin_read = calloc(rig->skin_count + 1, sizeof *skin_read);
    if (!skin_read) return 0;
    for (uint32_t p = 0; p < count; p++) {
        const ossa_model_primitive *info = ossa_model_primitive_info(c->model, p);
        if (info->skin < 0 || !ossa_model_skin_mesh(c->model, p)) continue;
        c->primitive[c->primitive_count++] = p;
        c->vertices += info->vertex_count;
        if (!skin_read[info->skin]++)
            c->palette_bytes += 48.0 * info->joint_count; /* 12 floats per joint */
    }
    free(skin_read);
    size_t n = (size_t)c->characters;
    c->outputs = calloc(n * c->primitive_count + 1, sizeof *c->outputs);
    c->dual_quats = malloc((n * c->dq_floats + 1) * sizeof(float));
    if (!c->outputs || !c->dual_quats) return 0;
    for (size_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < c->primitive_count; i++) {
            const ossa_skin_mesh *mesh = ossa_model_skin_mesh(c->model, c->primitive[i]);
            size_t bytes = ossa_skin_mesh_slot_count(mesh) * 12;
            ossa_skin_output *o = &c->outputs[k * c->primitive_count + i];
            o->positions = aligned_alloc(64, bytes + 64);
            if (!o->positions) return 0;
            memset(o->positions, 0, bytes);
            if (!ossa_skin_mesh_has_normals(mesh)) continue;
            o->normals = aligned_alloc(64, bytes + 64);
            if (!o->normals) return 0;
            memset(o->normals, 0, bytes);
        }
    return 1;
}

bench_skin_crowd *bench_skin_crowd_create(const char *model_path, int characters) {
    bench_skin_crowd *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "error: %s: out of memory\n", model_path);
        return NULL;
    }
    c->model = cli_load_model(model_path, NULL);
    if (!c->model) {
        bench_skin_crowd_free(c);
        return NULL;
    }
    c->characters = characters < 1 ? 1 : characters;
    if (!pose_characters(c) || !alloc_outputs(c)) {
        fprintf(stderr, "error: %s: out of memory for %d characters\n", model_path, c->characters);
        bench_skin_crowd_free(c);
        return NULL;
    }
    return c;
}

int bench_skin_crowd_run(bench_skin_crowd *c, ossa_skin_mode mode, ossa_skin_backend backend,
                         ossa_skin_stores stores, double seconds, ossa_thread_pool *pool,
                         bench_skin_result *out) {
    memset(out, 0, sizeof *out);
    c->mode = mode;
    c->backend = backend;
    c->stores = stores;
    atomic_store(&c->refusals, 0);
    size_t n = (size_t)c->characters;
    unsigned threads = pool ? ossa_thread_pool_threads(pool) : 1;
    size_t grain = n / (8 * threads);
    if (grain < 1) grain = 1;
    double best = HUGE_VAL, start = bench_now();
    for (int runs = 0; runs < 5 || bench_now() - start < seconds; runs++) {
        /* one thread: its CPU time (a shared machine's other programs do not count); passes in
         * groups of at least BENCH_GROUP_SECONDS, as bench_skinning times them */
        double t0 = pool ? bench_now() : 1e-9 * bench_thread_ns(), dt;
        int passes = 0;
        do {
            if (pool)
                ossa_thread_pool_for(pool, n, grain, skin_characters, c);
            else
                skin_characters(c, 0, n);
            passes++;
            dt = (pool ? bench_now() : 1e-9 * bench_thread_ns()) - t0;
        } while (dt < BENCH_GROUP_SECONDS);
        if (dt / passes < best) best = dt / passes;
    }
    double written = 0.0, owned = 0.0;
    int nontemporal = 1;
    for (uint32_t i = 0; i < c->primitive_count; i++) {
        const ossa_skin_mesh *mesh = ossa_model_skin_mesh(c->model, c->primitive[i]);
        const ossa_skin_output *o = &c->outputs[i];
        double bytes = 12.0 * (double)ossa_skin_mesh_slot_count(mesh) * (1 + (o->normals != NULL));
        written += bytes;
        if (bench_skin_nontemporal(mesh, o, backend, stores)) continue;
        nontemporal = 0;
        owned += bytes;
    }
    /* DQS also writes each character's dual quaternion tables (ordinary stores) */
    double tables = mode == OSSA_SKIN_DQS ? sizeof(float) * (double)c->dq_floats : 0.0;
    double vertices = (double)c->vertices;
    out->mverts_per_s = vertices * (double)n / best / 1e6;
    out->output_bytes_per_vertex = written / vertices;
    out->bytes_per_vertex = (written + tables + c->palette_bytes) / vertices;
    out->rfo_bytes_per_vertex = (owned + tables) / vertices;
    out->nontemporal = nontemporal;
    return atomic_load(&c->refusals) != 0;
}
