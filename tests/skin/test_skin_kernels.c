/* Skinning kernels on hand-built data: exact values, renormalisation, morphs, strides, DQS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/skin.h"
#include "skin/dual_quat.h"
#include "skin_test_util.h"
#include "test_support.h"

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
static const double PI = 3.14159265358979323846;

/* n floats on a 64-byte boundary, as the AVX-512 path's whole-block stores want them. */
static float *aligned_floats(size_t n) {
    return aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64);
}

/* Joint 0 identity, joint 1 a translation by (2, 4, 6) and a 90 degree turn about z. */
static void two_joint_palette(float *p) {
    memcpy(p, identity, sizeof identity);
    const float turn[12] = {0, -1, 0, 2, 1, 0, 0, 4, 0, 0, 1, 6};
    memcpy(p + 12, turn, sizeof turn);
}

static void test_exact_blend(void) {
    float palette[24];
    two_joint_palette(palette);
    /* Interleaved: position xyz, normal xyz, joints u8 x4, weights u8n x4 (32 bytes). */
    struct vertex {
        float p[3], n[3];
        uint8_t j[4], w[4];
    } v[3] = {
        {{1, 0, 0}, {1, 0, 0}, {0, 1, 0, 0}, {128, 128, 0, 0}}, /* halves (sum 256/255) */
        {{1, 2, 3}, {0, 0, 1}, {1, 0, 200, 0}, {255, 0, 0, 0}}, /* joint 200 has weight 0 */
        {{5, 5, 5}, {0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},     /* no weight: unchanged */
    };
    ossa_influence_set set = {v[0].j, sizeof v[0], OSSA_COMPONENT_UNSIGNED_BYTE,
                              v[0].w, sizeof v[0], OSSA_COMPONENT_UNSIGNED_BYTE};
    ossa_skin_input in = {v[0].p, sizeof v[0], v[0].n, sizeof v[0], NULL, 0, &set, 1};
    float out[3][8];
    memset(out, 0, sizeof out);
    ossa_skin_output o = {out[0], sizeof out[0], out[0] + 4, sizeof out[0], NULL, 0};
    CHECK(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_LBS, &o, 0, 3, NULL) == OSSA_OK);
    /* vertex 0: 0.5 * (1,0,0) + 0.5 * (2,5,6) */
    CHECK_NEAR(out[0][0], 1.5, 1e-6);
    CHECK_NEAR(out[0][1], 2.5, 1e-6);
    CHECK_NEAR(out[0][2], 3.0, 1e-6);
    CHECK_NEAR(out[0][4], 0.70710678, 1e-6); /* normalize((1,0,0) + (0,1,0)) */
    CHECK_NEAR(out[0][5], 0.70710678, 1e-6);
    CHECK_NEAR(out[0][6], 0.0, 1e-6);
    /* vertex 1: joint 1 only: (-2+2, 1+4, 3+6) */
    CHECK_NEAR(out[1][0], 0.0, 1e-6);
    CHECK_NEAR(out[1][1], 5.0, 1e-6);
    CHECK_NEAR(out[1][2], 9.0, 1e-6);
    CHECK_NEAR(out[1][6], 1.0, 1e-6);
    CHECK_NEAR(out[2][0], 5.0, 0);
    CHECK_NEAR(out[2][5], 1.0, 0);
    CHECK_NEAR(out[2][3], 0.0, 0); /* the gap in the output stride is left alone */

    /* The prepared mesh agrees, in every backend, in original order. */
    ossa_skin_mesh_desc desc = {in, 3, 2, NULL, 0, {0}};
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, NULL) == OSSA_OK);
    if (!mesh) return;
    CHECK(ossa_skin_mesh_max_influences(mesh) == 2);
    CHECK(ossa_skin_mesh_influence_histogram(mesh, 0) == 1);
    CHECK(ossa_skin_mesh_influence_histogram(mesh, 1) == 1);
    CHECK(ossa_skin_mesh_influence_histogram(mesh, 2) == 1);
    CHECK(ossa_skin_mesh_slot_count(mesh) == 48); /* three groups of one vertex */
    for (int b = OSSA_SKIN_BACKEND_SCALAR; b < OSSA_SKIN_BACKEND_COUNT; b++) {
        if (!ossa_skin_backend_supported((ossa_skin_backend)b)) continue;
        float mo[3][8];
        memset(mo, 0, sizeof mo);
        ossa_skin_output mout = {mo[0], sizeof mo[0], mo[0] + 4, sizeof mo[0], NULL, 0};
        ossa_skin_frame frame = {0};
        frame.palette = palette;
        frame.joint_count = 2;
        frame.order = OSSA_SKIN_ORDER_ORIGINAL;
        frame.backend = (ossa_skin_backend)b;
        CHECK(ossa_skin_mesh_run(mesh, &frame, &mout, 3, 0, ossa_skin_mesh_slot_count(mesh),
                                 NULL) == OSSA_OK);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 7; c++)
                CHECKF(fabsf(mo[i][c] - out[i][c]) < 1e-6f, "%s vertex %d [%d]: %g vs %g",
                       ossa_skin_backend_name((ossa_skin_backend)b), i, c, mo[i][c], out[i][c]);
    }
    ossa_skin_mesh_free(mesh);
}

static void test_bad_joint_refused(void) {
    float p[3] = {0, 0, 0};
    uint16_t j[4] = {3, 0, 0, 0};
    float w[4] = {1, 0, 0, 0};
    ossa_influence_set set = {j, 0, OSSA_COMPONENT_UNSIGNED_SHORT, w, 0, OSSA_COMPONENT_FLOAT};
    ossa_skin_mesh_desc desc = {{p, 0, NULL, 0, NULL, 0, &set, 1}, 1, 3, NULL, 0, {0}};
    ossa_skin_mesh *mesh = NULL;
    ossa_error error;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(mesh == NULL);
    CHECK(strstr(error.message, "joint") != NULL);
    desc.joint_count = 4;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, &error) == OSSA_OK);
    ossa_skin_mesh_free(mesh);
}

/* Morph then transform, for an unskinned mesh: world * (p + sum w_k d_k), normals and tangents. */
static void test_morph_unskinned(void) {
    float pos[2][3] = {{1, 0, 0}, {0, 1, 0}};
    float nrm[2][3] = {{0, 0, 1}, {0, 0, 1}};
    float tan[2][4] = {{1, 0, 0, -1}, {1, 0, 0, 1}};
    float d0[2][3] = {{1, 1, 0}, {0, 0, 2}}, d1[2][3] = {{0, 0, 3}, {-1, 0, 0}};
    float dn[2][3] = {{1, 0, 0}, {0, 1, -1}};
    float dt[2][3] = {{0, 1, 0}, {0, 0, 1}};
    ossa_morph_target_streams targets[2] = {{d0[0], 0, dn[0], 0, dt[0], 0},
                                            {d1[0], 0, NULL, 0, NULL, 0}};
    ossa_skin_mesh_desc desc = {{pos[0], 0, nrm[0], 0, tan[0], 0, NULL, 0}, 2, 0, targets, 2, {0}};
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, NULL) == OSSA_OK);
    if (!mesh) return;
    CHECK(ossa_skin_mesh_target_count(mesh) == 2);
    const float world[12] = {2, 0, 0, 10, 0, 2, 0, 20, 0, 0, 2, 30}; /* scale 2, move */
    const float weights[2] = {0.5f, 2.0f};
    for (int b = OSSA_SKIN_BACKEND_SCALAR; b < OSSA_SKIN_BACKEND_COUNT; b++) {
        if (!ossa_skin_backend_supported((ossa_skin_backend)b)) continue;
        float op[2][3], on[2][3], ot[2][4];
        ossa_skin_output out = {op[0], 0, on[0], 0, ot[0], 0};
        ossa_skin_frame frame = {0};
        frame.transform = world;
        frame.morph_weights = weights;
        frame.morph_weight_count = 2;
        frame.order = OSSA_SKIN_ORDER_ORIGINAL;
        frame.backend = (ossa_skin_backend)b;
        CHECK(ossa_skin_mesh_run(mesh, &frame, &out, 2, 0, 16, NULL) == OSSA_OK);
        /* vertex 0: p = (1,0,0) + 0.5(1,1,0) + 2(0,0,3) = (1.5, 0.5, 6) */
        CHECK_NEAR(op[0][0], 13.0, 1e-5);
        CHECK_NEAR(op[0][1], 21.0, 1e-5);
        CHECK_NEAR(op[0][2], 42.0, 1e-5);
        /* vertex 1: (0,1,0) + 0.5(0,0,2) + 2(-1,0,0) = (-2, 1, 1) */
        CHECK_NEAR(op[1][0], 6.0, 1e-5);
        CHECK_NEAR(op[1][1], 22.0, 1e-5);
        CHECK_NEAR(op[1][2], 32.0, 1e-5);
        /* normal 0: normalize((0,0,1) + 0.5(1,0,0)) */
        CHECK_NEAR(on[0][0], 0.5 / sqrt(1.25), 1e-6);
        CHECK_NEAR(on[0][2], 1.0 / sqrt(1.25), 1e-6);
        /* normal 1: (0, 0.5, 0.5) normalised */
        CHECK_NEAR(on[1][1], sqrt(0.5), 1e-6);
        CHECK_NEAR(on[1][2], sqrt(0.5), 1e-6);
        /* tangent 0: normalize((1, 0.5, 0)), w kept */
        CHECK_NEAR(ot[0][0], 1.0 / sqrt(1.25), 1e-6);
        CHECK_NEAR(ot[0][1], 0.5 / sqrt(1.25), 1e-6);
        CHECK_NEAR(ot[0][3], -1.0, 0);
        CHECK_NEAR(ot[1][3], 1.0, 0);
    }
    ossa_skin_mesh_free(mesh);
}

/* Area of a closed polygon in the y-z plane (shoelace). */
static double yz_area(const float *p, int n) {
    double a = 0;
    for (int i = 0; i < n; i++) {
        const float *u = p + 3 * i, *v = p + 3 * ((i + 1) % n);
        a += (double)u[1] * v[2] - (double)v[1] * u[2];
    }
    return fabs(a) / 2;
}

/* A DQS frame over a dual quaternion table, in one backend. */
static ossa_skin_frame dqs_frame(const float *dq, uint32_t joints, ossa_skin_order order,
                                 int backend) {
    ossa_skin_frame frame = {0};
    frame.dual_quats = dq;
    frame.joint_count = joints;
    frame.mode = OSSA_SKIN_DQS;
    frame.order = order;
    frame.backend = (ossa_skin_backend)backend;
    return frame;
}

/*
 * A ring of a tube halfway between two joints, the second twisted by 150 degrees about the
 * tube's axis: LBS averages the two rings' points and shrinks the ring to cos(75 deg) of its
 * radius (area x 0.067); DQS turns it by 75 degrees and keeps its area.
 */
static void test_dqs_keeps_twisted_area(void) {
    enum { RING = 64 };
    float pos[RING][3];
    uint8_t joints[RING][4];
    uint16_t weights[RING][4];
    for (int i = 0; i < RING; i++) {
        double a = 2 * PI * i / RING;
        pos[i][0] = 0.0f;
        pos[i][1] = (float)cos(a);
        pos[i][2] = (float)sin(a);
        memcpy(joints[i], (uint8_t[4]){0, 1, 0, 0}, 4);
        memcpy(weights[i], (uint16_t[4]){32768, 32767, 0, 0}, 8);
    }
    double angle = 150.0 * PI / 180.0, c = cos(angle), s = sin(angle);
    float palette[24];
    memcpy(palette, identity, sizeof identity);
    const float twist[12] = {1, 0, 0, 0, 0, (float)c, (float)-s, 0, 0, (float)s, (float)c, 0};
    memcpy(palette + 12, twist, sizeof twist);
    float dq[24];
    ossa_skin_dual_quats(palette, 2, dq);
    ossa_influence_set set = {joints,  0, OSSA_COMPONENT_UNSIGNED_BYTE,
                              weights, 0, OSSA_COMPONENT_UNSIGNED_SHORT};
    ossa_skin_input in = {pos[0], 0, NULL, 0, NULL, 0, &set, 1};
    double rest = yz_area(pos[0], RING);
    CHECK_NEAR(rest, RING / 2.0 * sin(2 * PI / RING), 1e-5);
    float lbs[RING][3], dqs[RING][3];
    ossa_skin_output ol = {lbs[0], 0, NULL, 0, NULL, 0}, od = {dqs[0], 0, NULL, 0, NULL, 0};
    CHECK(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_LBS, &ol, 0, RING, NULL) == OSSA_OK);
    CHECK(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_DQS, &od, 0, RING, NULL) == OSSA_OK);
    double half = cos(angle / 2); /* weights 32768/65535 and 32767/65535: about a half each */
    CHECK_NEAR(yz_area(lbs[0], RING), rest * half * half, 2e-4);
    CHECKF(yz_area(lbs[0], RING) < 0.07 * rest, "LBS area %g of %g", yz_area(lbs[0], RING), rest);
    CHECK_NEAR(yz_area(dqs[0], RING), rest, 1e-4);
    /* DQS turned the ring by half the twist: vertex 0 goes from (0,1,0) to (0,cos 75,sin 75). */
    CHECK_NEAR(dqs[0][1], cos(angle / 2), 1e-4);
    CHECK_NEAR(dqs[0][2], sin(angle / 2), 1e-4);

    ossa_skin_mesh_desc desc = {in, RING, 2, NULL, 0, {0}};
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, NULL) == OSSA_OK);
    if (!mesh) return;
    for (int b = OSSA_SKIN_BACKEND_SCALAR; b < OSSA_SKIN_BACKEND_COUNT; b++) {
        if (!ossa_skin_backend_supported((ossa_skin_backend)b)) continue;
        float out[RING][3];
        ossa_skin_output o = {out[0], 0, NULL, 0, NULL, 0};
        ossa_skin_frame frame = dqs_frame(dq, 2, OSSA_SKIN_ORDER_ORIGINAL, b);
        frame.palette = palette;
        CHECK(ossa_skin_mesh_run(mesh, &frame, &o, RING, 0, ossa_skin_mesh_slot_count(mesh),
                                 NULL) == OSSA_OK);
        CHECK_NEAR(yz_area(out[0], RING), rest, 1e-4);
        skin_test_compare(ossa_skin_backend_name((ossa_skin_backend)b), out[0], dqs[0], RING, 3,
                          1e-6);
    }
    ossa_skin_mesh_free(mesh);
}

/* A rigid joint with scale: DQS and LBS agree for single influences; antipodal quaternions
 * (q and -q are the same rotation) blend to the same result. */
static void test_dqs_matches_rigid(void) {
    uint64_t seed = 99;
    float palette[36], dq[36];
    skin_test_random_palette(&seed, 3, 5.0f, palette);
    ossa_skin_dual_quats(palette, 3, dq);
    for (int j = 0; j < 3; j++) {
        float n = dq[12 * j] * dq[12 * j] + dq[12 * j + 1] * dq[12 * j + 1] +
                  dq[12 * j + 2] * dq[12 * j + 2] + dq[12 * j + 3] * dq[12 * j + 3];
        CHECK_NEAR(n, 1.0, 1e-6);
    }
    /* joint 2 = joint 0 exactly, to blend two copies of one transform */
    memcpy(palette + 24, palette, 12 * sizeof(float));
    float p[4][3] = {{1, 2, 3}, {-4, 0.5f, 2}, {0, 0, 0}, {1, 2, 3}};
    uint16_t j[4][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}};
    float w[4][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {0.3f, 0.7f, 0, 0}};
    ossa_influence_set set = {j, 0, OSSA_COMPONENT_UNSIGNED_SHORT, w, 0, OSSA_COMPONENT_FLOAT};
    ossa_skin_input in = {p[0], 0, NULL, 0, NULL, 0, &set, 1};
    float a[4][3], b[4][3];
    ossa_skin_output oa = {a[0], 0, NULL, 0, NULL, 0}, ob = {b[0], 0, NULL, 0, NULL, 0};
    CHECK(ossa_skin_streams(&in, palette, 3, OSSA_SKIN_LBS, &oa, 0, 4, NULL) == OSSA_OK);
    CHECK(ossa_skin_streams(&in, palette, 3, OSSA_SKIN_DQS, &ob, 0, 4, NULL) == OSSA_OK);
    skin_test_compare("rigid DQS == LBS", b[0], a[0], 4, 3, 1e-5);
    /* Negate joint 2's matrix rotation? Not possible with matrices; negate its dual quaternion
     * instead and check the mesh kernel's antipodality fix gives the same blend. */
    ossa_skin_dual_quats(palette, 3, dq);
    for (int e = 0; e < 8; e++)
        dq[24 + e] = -dq[24 + e];
    ossa_skin_mesh_desc desc = {in, 4, 3, NULL, 0, {0}};
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, NULL) == OSSA_OK);
    if (!mesh) return;
    for (int be = OSSA_SKIN_BACKEND_SCALAR; be < OSSA_SKIN_BACKEND_COUNT; be++) {
        if (!ossa_skin_backend_supported((ossa_skin_backend)be)) continue;
        float out[4][3];
        ossa_skin_output o = {out[0], 0, NULL, 0, NULL, 0};
        ossa_skin_frame frame = dqs_frame(dq, 3, OSSA_SKIN_ORDER_ORIGINAL, be);
        CHECK(ossa_skin_mesh_run(mesh, &frame, &o, 4, 0, ossa_skin_mesh_slot_count(mesh), NULL) ==
              OSSA_OK);
        skin_test_compare("antipodal blend", out[0], a[0], 4, 3, 1e-5);
    }
    ossa_skin_mesh_free(mesh);
}

/* DQS normals come out unit and in the same direction whether the input normals are unit (the
 * AVX-512 path then leaves out the renormalisation) or not (it renormalises), in every backend,
 * on whole blocks in prepared order (the fast path), with scaled joints. */
static void test_dqs_unit_normals(void) {
    enum { N = 32 };
    uint64_t seed = 7;
    float palette[24], dq[24];
    skin_test_random_palette(&seed, 2, 3.0f, palette);
    for (int e = 0; e < 12; e++) /* uniform scale 2 on joint 1 */
        if (e % 4 != 3) palette[12 + e] *= 2.0f;
    ossa_skin_dual_quats(palette, 2, dq);
    static float pos[N][3], unit[N][3], longer[N][3], w[N][4];
    static uint8_t j[N][4];
    for (int v = 0; v < N; v++) {
        float n[3] = {skin_test_uniform(&seed, -1, 1), skin_test_uniform(&seed, -1, 1), 0.5f};
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int c = 0; c < 3; c++) {
            pos[v][c] = skin_test_uniform(&seed, -2, 2);
            unit[v][c] = n[c] / len;
            longer[v][c] = 3.0f * unit[v][c];
        }
        j[v][1] = 1;
        w[v][0] = 0.25f, w[v][1] = 0.75f;
    }
    ossa_influence_set set = {j, 0, OSSA_COMPONENT_UNSIGNED_BYTE, w, 0, OSSA_COMPONENT_FLOAT};
    ossa_skin_mesh *mesh[2] = {NULL, NULL};
    for (int m = 0; m < 2; m++) {
        ossa_skin_input in = {pos[0], 0, m ? longer[0] : unit[0], 0, NULL, 0, &set, 1};
        ossa_skin_mesh_desc desc = {in, N, 2, NULL, 0, {0}};
        CHECK(ossa_skin_mesh_create(&desc, &mesh[m], NULL) == OSSA_OK);
    }
    if (mesh[0] && mesh[1]) {
        CHECK(ossa_skin_mesh_slot_count(mesh[0]) == N);
        float *ref = aligned_floats(6 * N);
        for (int be = OSSA_SKIN_BACKEND_SCALAR; be < OSSA_SKIN_BACKEND_COUNT; be++) {
            if (!ossa_skin_backend_supported((ossa_skin_backend)be)) continue;
            for (int m = 0; m < 2; m++) {
                float *out = aligned_floats(6 * N);
                ossa_skin_output o = {out, 0, out + 3 * N, 0, NULL, 0};
                ossa_skin_frame frame = dqs_frame(dq, 2, OSSA_SKIN_ORDER_PREPARED, be);
                CHECK(ossa_skin_mesh_run(mesh[m], &frame, &o, N, 0, N, NULL) == OSSA_OK);
                if (be == OSSA_SKIN_BACKEND_SCALAR && m == 0) memcpy(ref, out, 24 * N);
                char what[64];
                snprintf(what, sizeof what, "DQS normals %s, %s", m ? "of length 3" : "unit",
                         ossa_skin_backend_name((ossa_skin_backend)be));
                skin_test_compare(what, out, ref, 2 * N, 3, 1e-6);
                for (int v = 0; v < N; v++) {
                    const float *n = out + 3 * N + 3 * v;
                    CHECK_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-6);
                }
                free(out);
            }
        }
        free(ref);
    }
    ossa_skin_mesh_free(mesh[0]);
    ossa_skin_mesh_free(mesh[1]);
}

#ifdef OSSA_SKIN_DQ_AVX512
/* skin_dual_quats_avx512 of n joints agrees with skin_dq_from_matrix within 1e-6, same sign. */
static void check_dq_conversion(const char *what, const float *palette, int n) {
    float got[12 * 64];
    skin_dual_quats_avx512(palette, (uint32_t)n, got);
    for (int j = 0; j < n; j++) {
        float want[12];
        skin_dq_from_matrix(palette + 12 * j, want);
        int bad = 0;
        for (int e = 0; e < 12; e++) {
            float g = got[12 * j + e], w = want[e];
            if (isnan(w) ? !isnan(g) : !(fabsf(g - w) <= 1e-6f * fmaxf(1.0f, fabsf(w)))) bad = 1;
        }
        CHECKF(!bad,
               "%s, joint %d: (%g %g %g %g | %g %g %g %g | %g) against (%g %g %g %g | %g %g %g "
               "%g | %g)",
               what, j, got[12 * j], got[12 * j + 1], got[12 * j + 2], got[12 * j + 3],
               got[12 * j + 4], got[12 * j + 5], got[12 * j + 6], got[12 * j + 7], got[12 * j + 8],
               want[0], want[1], want[2], want[3], want[4], want[5], want[6], want[7], want[8]);
    }
}

/* Turns of 179 degrees about axes near x, y and z into joints first .. first + 2: the Shepperd
 * branches other than the trace's. */
static void near_half_turns(float *palette, int first) {
    for (int a = 0; a < 3; a++) {
        double k[3] = {0.2, 0.3, 0.25}, t = 179.0 * PI / 180.0, c = cos(t), sn = sin(t);
        k[a] = 1.0;
        double len = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
        for (int i = 0; i < 3; i++)
            k[i] /= len;
        double cross[3][3] = {{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
        float *m = palette + 12 * (first + a);
        for (int i = 0; i < 3; i++) /* Rodrigues: I cos t + [k]x sin t + (1 - cos t) k k^T */
            for (int j = 0; j < 3; j++)
                m[4 * i + j] =
                    (float)((i == j ? c : 0.0) + sn * cross[i][j] + (1 - c) * k[i] * k[j]);
    }
}

static double det3(const float *m) {
    return (double)m[0] * ((double)m[5] * m[10] - (double)m[6] * m[9]) -
           (double)m[1] * ((double)m[4] * m[10] - (double)m[6] * m[8]) +
           (double)m[2] * ((double)m[4] * m[9] - (double)m[5] * m[8]);
}
#endif

/* The AVX-512 conversion of palettes to dual quaternions agrees with the double-precision one
 * (skin_dq_from_matrix) within 1e-6, same sign, on joints of every Shepperd branch (turns near
 * 180 degrees about each axis), scaled, mirrored, zero and non-finite ones, 16 at a time and in a
 * tail; and on rigid joints, whose groups of sixteen take one Newton step for the scale (every
 * determinant within 2% of 1, up to its edges). */
static void test_dq_conversion(void) {
#ifdef OSSA_SKIN_DQ_AVX512
    if (!skin_dq_avx512_supported()) return;
    enum { J = 53, RIGID = 40 };
    uint64_t seed = 11;
    static float palette[12 * J], rigid[12 * RIGID];
    skin_test_random_palette(&seed, J, 4.0f, palette);
    near_half_turns(palette, 1);
    for (int e = 0; e < 12; e++) {
        palette[12 * 5 + e] = e % 4 == 3 ? palette[12 * 5 + e] : 30.0f * palette[12 * 5 + e];
        palette[12 * 6 + e] = e % 4 == 3 ? 1.0f : 0.0f; /* no 3x3 part: determinant 0 */
    }
    palette[12 * 7 + 0] = -palette[12 * 7 + 0]; /* mirrored: negative determinant */
    palette[12 * 7 + 4] = -palette[12 * 7 + 4];
    palette[12 * 7 + 8] = -palette[12 * 7 + 8];
    palette[12 * 8 + 5] = NAN;
    palette[12 * 9 + 10] = INFINITY;
    check_dq_conversion("scaled and special", palette, J);

    skin_test_random_palette(&seed, RIGID, 4.0f, rigid);
    near_half_turns(rigid, 17);
    for (int j = 0; j < RIGID; j++) { /* determinants from 0.9801 to 1.0199, 1 for some */
        double want = j % 5 == 0 ? 1.0 : 0.9801 + 0.0398 * (double)(j % 7) / 6.0;
        float *m = rigid + 12 * j;
        double k = cbrt(want / det3(m));
        for (int e = 0; e < 12; e++)
            if (e % 4 != 3) m[e] = (float)(k * m[e]);
    }
    check_dq_conversion("rigid", rigid, RIGID);
#endif
}

int main(void) {
    test_exact_blend();
    test_bad_joint_refused();
    test_morph_unskinned();
    test_dqs_keeps_twisted_area();
    test_dqs_matches_rigid();
    test_dqs_unit_normals();
    test_dq_conversion();
    return ossa_test_finish("skin_kernels");
}
