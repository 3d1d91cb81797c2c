/*
 * Random meshes with random influences (4 and 8 per vertex, u8/u16 joints, float/u8n/u16n
 * weights, interleaved strides, morph targets; joints anywhere, near one another, or one list
 * shared by runs of vertices): every backend equals the scalar kernel within
 * 1e-6 relative, the scalar kernel equals the stream reference, prepared order equals original
 * order through the remap table, and N threads equal one thread bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "ossa/skin.h"
#include "skin_test_util.h"
#include "test_support.h"

enum { MAX_SETS = 2 };

typedef struct config {
    uint32_t sets;
    ossa_component_type joints_type, weights_type;
    uint32_t joint_count;
    /* 0: joints anywhere; 1: near one centre per vertex run (narrow blocks); 2: runs of 37
     * vertices share one joint list (uniform blocks and leftovers) */
    int coherent;
    int normals, tangents, targets;
    size_t vertices;
} config;

/* One interleaved vertex: attributes and influence sets, with padding between them. */
typedef struct vertex {
    float position[3];
    float pad0;
    float normal[3];
    float tangent[4];
    uint16_t joints[MAX_SETS][4]; /* u8 joints use the first 4 bytes of each */
    float weights[MAX_SETS][4];   /* u8n/u16n weights use the first bytes of each */
    float morph[2][3][3];         /* per target: position, normal, tangent deltas */
} vertex;

static void fill_vertex(uint64_t *s, const config *c, vertex *v, size_t i) {
    for (int k = 0; k < 3; k++)
        v->position[k] = skin_test_uniform(s, -1, 1);
    v->normal[0] = skin_test_uniform(s, -1, 1);
    v->normal[1] = skin_test_uniform(s, -1, 1);
    v->normal[2] = 1.5f;
    v->tangent[0] = 1.5f;
    v->tangent[1] = skin_test_uniform(s, -1, 1);
    v->tangent[2] = skin_test_uniform(s, -1, 1);
    v->tangent[3] = (i & 1) ? 1.0f : -1.0f;
    for (int t = 0; t < 2; t++)
        for (int a = 0; a < 3; a++)
            for (int k = 0; k < 3; k++)
                v->morph[t][a][k] = skin_test_uniform(s, -0.2f, 0.2f);
    uint32_t centre = (uint32_t)(i * c->joint_count / c->vertices);
    for (uint32_t set = 0; set < c->sets; set++) {
        uint8_t *j8 = (uint8_t *)v->joints[set];
        uint8_t *w8 = (uint8_t *)v->weights[set];
        uint16_t *w16 = (uint16_t *)v->weights[set];
        /* shared lists: the joints and which weights are zero follow the run, not the vertex */
        uint64_t run = 0x2545f4914f6cdd1dull * (i / 37 + 1) + set;
        uint64_t *js = c->coherent == 2 ? &run : s;
        for (int k = 0; k < 4; k++) {
            uint32_t j = c->coherent == 1 ? (centre + skin_test_rand(s) % 12) % c->joint_count
                                          : skin_test_rand(js) % c->joint_count;
            if (c->joints_type == OSSA_COMPONENT_UNSIGNED_BYTE)
                j8[k] = (uint8_t)j;
            else
                v->joints[set][k] = (uint16_t)j;
            /* about a third of the slots get weight zero (then the joint may be anything) */
            int zero = skin_test_rand(js) % 3 == 0 && !(set == 0 && k == 0);
            float w = zero ? 0.0f : skin_test_uniform(s, 0.05f, 1.0f);
            if (c->weights_type == OSSA_COMPONENT_FLOAT)
                v->weights[set][k] = w;
            else if (c->weights_type == OSSA_COMPONENT_UNSIGNED_BYTE)
                w8[k] = (uint8_t)(w * 255.0f);
            else
                w16[k] = (uint16_t)(w * 65535.0f);
        }
    }
}

static float *aligned_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
    float *p = aligned_alloc(64, bytes ? bytes : 64);
    memset(p, 0, bytes);
    return p;
}

static void run_config(const config *c, uint64_t seed) {
    char what[160];
    snprintf(what, sizeof what, "sets %u joints %u/%u weights %u n%d t%d m%d %s", c->sets,
             c->joints_type, c->joint_count, c->weights_type, c->normals, c->tangents, c->targets,
             c->coherent == 2 ? "shared"
             : c->coherent    ? "coherent"
                              : "scattered");
    vertex *v = calloc(c->vertices, sizeof *v);
    for (size_t i = 0; i < c->vertices; i++)
        fill_vertex(&seed, c, &v[i], i);
    ossa_influence_set sets[MAX_SETS];
    for (uint32_t s = 0; s < c->sets; s++)
        sets[s] = (ossa_influence_set){v[0].joints[s],  sizeof *v, c->joints_type,
                                       v[0].weights[s], sizeof *v, c->weights_type};
    ossa_skin_input in = {v[0].position,
                          sizeof *v,
                          c->normals ? v[0].normal : NULL,
                          sizeof *v,
                          c->tangents ? v[0].tangent : NULL,
                          sizeof *v,
                          sets,
                          c->sets};
    ossa_morph_target_streams targets[2];
    for (int t = 0; t < 2; t++)
        targets[t] = (ossa_morph_target_streams){
            v[0].morph[t][0], sizeof *v, v[0].morph[t][1], sizeof *v, v[0].morph[t][2], sizeof *v};
    ossa_skin_mesh_desc desc = {in,      c->vertices,          c->joint_count,
                                targets, c->targets ? 2u : 0u, {0}};
    ossa_skin_mesh *mesh = NULL;
    CHECKF(ossa_skin_mesh_create(&desc, &mesh, NULL) == OSSA_OK, "%s", what);
    if (!mesh) {
        free(v);
        return;
    }
    size_t n = c->vertices, slots = ossa_skin_mesh_slot_count(mesh);
    CHECK(slots % 16 == 0 && slots >= n);
    const uint32_t *order = ossa_skin_mesh_order(mesh);
    float *palette = malloc(12 * sizeof(float) * c->joint_count);
    float *dq = malloc(12 * sizeof(float) * c->joint_count);
    skin_test_random_palette(&seed, c->joint_count, 3.0f, palette);
    ossa_skin_dual_quats(palette, c->joint_count, dq);
    const float morph_weights[2] = {0.7f, -0.4f};

    for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++) {
        /* The reference: streams (no morphs) */
        float *ref_p = aligned_floats(3 * n), *ref_n = aligned_floats(3 * n),
              *ref_t = aligned_floats(4 * n);
        ossa_skin_output ro = {ref_p, 0, c->normals ? ref_n : NULL, 0, c->tangents ? ref_t : NULL,
                               0};
        CHECK(ossa_skin_streams(&in, palette, c->joint_count, (ossa_skin_mode)mode, &ro, 0, n,
                                NULL) == OSSA_OK);

        ossa_skin_frame frame = {0};
        frame.palette = palette;
        frame.dual_quats = dq;
        frame.joint_count = c->joint_count;
        frame.mode = (ossa_skin_mode)mode;
        frame.order = OSSA_SKIN_ORDER_ORIGINAL;
        if (c->targets) {
            frame.morph_weights = morph_weights;
            frame.morph_weight_count = 2;
        }
        float *sp = aligned_floats(3 * n), *sn = aligned_floats(3 * n), *st = aligned_floats(4 * n);
        ossa_skin_output so = {sp, 0, c->normals ? sn : NULL, 0, c->tangents ? st : NULL, 0};
        frame.backend = OSSA_SKIN_BACKEND_SCALAR;
        CHECK(ossa_skin_mesh_run(mesh, &frame, &so, n, 0, slots, NULL) == OSSA_OK);
        if (!c->targets) {
            char w2[220];
            snprintf(w2, sizeof w2, "%s mode %d: scalar mesh vs streams", what, mode);
            skin_test_compare(w2, sp, ref_p, n, 3, 1e-5);
            if (c->normals) skin_test_compare(w2, sn, ref_n, n, 3, 1e-5);
            if (c->tangents) skin_test_compare(w2, st, ref_t, n, 4, 1e-5);
        }
        for (int b = OSSA_SKIN_BACKEND_SSE2; b < OSSA_SKIN_BACKEND_COUNT; b++) {
            if (!ossa_skin_backend_supported((ossa_skin_backend)b)) continue;
            char w2[220];
            snprintf(w2, sizeof w2, "%s mode %d: %s vs scalar", what, mode,
                     ossa_skin_backend_name((ossa_skin_backend)b));
            float *bp = aligned_floats(3 * n), *bn = aligned_floats(3 * n),
                  *bt = aligned_floats(4 * n);
            ossa_skin_output bo = {bp, 0, c->normals ? bn : NULL, 0, c->tangents ? bt : NULL, 0};
            frame.backend = (ossa_skin_backend)b;
            frame.order = OSSA_SKIN_ORDER_ORIGINAL;
            /* odd range boundaries: partial blocks at both ends */
            CHECK(ossa_skin_mesh_run(mesh, &frame, &bo, n, 0, 7, NULL) == OSSA_OK);
            CHECK(ossa_skin_mesh_run(mesh, &frame, &bo, n, 7, slots / 2 + 5, NULL) == OSSA_OK);
            CHECK(ossa_skin_mesh_run(mesh, &frame, &bo, n, slots / 2 + 5, slots, NULL) == OSSA_OK);
            skin_test_compare(w2, bp, sp, n, 3, 1e-6);
            if (c->normals) skin_test_compare(w2, bn, sn, n, 3, 1e-6);
            if (c->tangents) skin_test_compare(w2, bt, st, n, 4, 1e-6);

            /* prepared order (the fast path when there are no tangents) through the remap */
            float *pp = aligned_floats(3 * slots), *pn = aligned_floats(3 * slots);
            ossa_skin_output po = {pp, 0, c->normals ? pn : NULL, 0, NULL, 0};
            frame.order = OSSA_SKIN_ORDER_PREPARED;
            CHECK(ossa_skin_mesh_run(mesh, &frame, &po, slots, 0, slots, NULL) == OSSA_OK);
            size_t mismatched = 0;
            for (size_t i = 0; i < slots; i++)
                if (memcmp(pp + 3 * i, bp + 3 * order[i], 12) ||
                    (c->normals && memcmp(pn + 3 * i, bn + 3 * order[i], 12)))
                    mismatched++;
            CHECKF(mismatched == 0, "%s: %zu prepared slots differ from the original order", w2,
                   mismatched);

            /* either store kind: the same bits; an unknown one is refused */
            for (int k = OSSA_SKIN_STORES_CACHED; k <= OSSA_SKIN_STORES_STREAM; k++) {
                float *kp = aligned_floats(3 * slots), *kn = aligned_floats(3 * slots);
                ossa_skin_output ko = {kp, 0, c->normals ? kn : NULL, 0, NULL, 0};
                frame.stores = (ossa_skin_stores)k;
                CHECK(ossa_skin_mesh_run(mesh, &frame, &ko, slots, 0, slots, NULL) == OSSA_OK);
                CHECKF(!memcmp(kp, pp, 12 * slots) && !memcmp(kn, pn, 12 * slots),
                       "%s: stores %d differ from the default", w2, k);
                free(kp);
                free(kn);
            }
            /* positions alone: the same bits as when normals are written too */
            if (c->normals) {
                float *ap = aligned_floats(3 * slots);
                ossa_skin_output ao = {ap, 0, NULL, 0, NULL, 0};
                CHECK(ossa_skin_mesh_run(mesh, &frame, &ao, slots, 0, slots, NULL) == OSSA_OK);
                CHECKF(!memcmp(ap, pp, 12 * slots), "%s: positions alone differ", w2);
                free(ap);
            }
            frame.stores = (ossa_skin_stores)(OSSA_SKIN_STORES_STREAM + 1);
            ossa_error error;
            CHECK(ossa_skin_mesh_run(mesh, &frame, &po, slots, 0, slots, &error) ==
                  OSSA_ERROR_ARGUMENT);
            frame.stores = OSSA_SKIN_STORES_AUTO;

            /* threads: 2 and 3 threads, whole blocks and odd chunks, equal bit for bit */
            static const unsigned threads[] = {2, 3};
            static const size_t grains[] = {16, 37};
            for (int t = 0; t < 2; t++) {
                float *tp = aligned_floats(3 * slots), *tn = aligned_floats(3 * slots);
                ossa_skin_output to = {tp, 0, c->normals ? tn : NULL, 0, NULL, 0};
                skin_test_run_threads(mesh, &frame, &to, slots, threads[t], grains[t]);
                CHECKF(!memcmp(tp, pp, 12 * slots) && !memcmp(tn, pn, 12 * slots),
                       "%s: %u threads differ from one", w2, threads[t]);
                free(tp);
                free(tn);
            }
            free(pp);
            free(pn);
            free(bp);
            free(bn);
            free(bt);
        }
        free(sp);
        free(sn);
        free(st);
        free(ref_p);
        free(ref_n);
        free(ref_t);
    }
    free(palette);
    free(dq);
    ossa_skin_mesh_free(mesh);
    free(v);
}

int main(void) {
    static const ossa_component_type jt[] = {OSSA_COMPONENT_UNSIGNED_BYTE,
                                             OSSA_COMPONENT_UNSIGNED_SHORT};
    static const ossa_component_type wt[] = {OSSA_COMPONENT_FLOAT, OSSA_COMPONENT_UNSIGNED_BYTE,
                                             OSSA_COMPONENT_UNSIGNED_SHORT};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int index = 0;
    for (uint32_t sets = 1; sets <= 2; sets++)
        for (int j = 0; j < 2; j++)
            for (int w = 0; w < 3; w++)
                for (int coherent = 0; coherent < 3; coherent++, index++) {
                    config c = {sets,
                                jt[j],
                                wt[w],
                                0,
                                coherent,
                                index % 2,
                                index % 3 == 0,
                                index % 4 == 1,
                                517 + 64 * (size_t)(index % 5)};
                    c.joint_count = jt[j] == OSSA_COMPONENT_UNSIGNED_BYTE ? 64 : 300;
                    if (index % 6 == 2) c.joint_count = 20;
                    run_config(&c, seed + (uint64_t)index * 7919);
                }
    /* Outputs over 1 MiB: the AVX-512 fast path switches to non-temporal stores. */
    config big = {1, OSSA_COMPONENT_UNSIGNED_SHORT, OSSA_COMPONENT_FLOAT, 64, 1, 1, 0, 0, 48000};
    run_config(&big, seed ^ 0x5555);
    return ossa_test_finish("skin_random");
}
