/* Unit tests on hand-built data: slerp accuracy, key search, interpolation modes, wrap modes,
 * forward kinematics (matrix, rigid, similarity), palettes and dual quaternions, rig order and
 * matrix decomposition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip/clip_internal.h"
#include "ossa/sample.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "anim/key_search.h"
#include "anim/slerp.h"
#include "anim/track_batch.h"
#include "pose/pose_avx512.h"
#include "pose/xform.h"
#include "test_support.h"

#define PI 3.14159265358979323846

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double frand(void) { /* uniform in [0, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void random_quat(float *q) {
    double v[4], n = 0.0;
    for (int k = 0; k < 4; k++) {
        v[k] = frand() * 2.0 - 1.0;
        n += v[k] * v[k];
    }
    n = sqrt(n);
    for (int k = 0; k < 4; k++)
        q[k] = (float)(v[k] / n);
}

static void slerp_double(const float *a, const float *b, double t, double *out) {
    double d = 0.0;
    for (int k = 0; k < 4; k++)
        d += (double)a[k] * b[k];
    double sign = d < 0.0 ? -1.0 : 1.0;
    d = fabs(d);
    if (d > 1.0) d = 1.0;
    double angle = acos(d), w0, w1;
    if (angle < 1e-12) {
        w0 = 1.0 - t;
        w1 = t;
    } else {
        w0 = sin((1.0 - t) * angle) / sin(angle);
        w1 = sin(t * angle) / sin(angle);
    }
    for (int k = 0; k < 4; k++)
        out[k] = w0 * a[k] + sign * w1 * b[k];
}

/* Whether the batched track functions of this width run here: 0 the portable ones (always),
 * 1 the AVX-512 ones. */
static int batch_runs(int wide) {
#ifdef OSSA_ANIM_AVX512
    return !wide || ossa_anim_avx512_supported();
#else
    return !wide;
#endif
}

/* The track slerp kernels. */
enum slerp_kernel { SLERP_PORTABLE4, SLERP_AVX512_16, SLERP_AVX512_4, SLERP_KERNELS };

static void slerp_batch(enum slerp_kernel kind, const float *keys, uint32_t stride,
                        const ossa_track *tracks, uint32_t count, float t, float *local) {
#ifdef OSSA_ANIM_AVX512
    if (kind == SLERP_AVX512_16) {
        ossa_slerp_tracks16(keys, stride, tracks, count, t, local);
        return;
    }
    if (kind == SLERP_AVX512_4) {
        ossa_slerp_tracks4_avx512(keys, stride, tracks, count, t, local);
        return;
    }
#else
    (void)kind;
#endif
    ossa_slerp_tracks4(keys, stride, tracks, count, t, local);
}

static void lerp_batch(int wide, const float *keys, const ossa_track *tracks, uint32_t count,
                       float t, float *local) {
#ifdef OSSA_ANIM_AVX512
    if (wide) {
        ossa_lerp_tracks_avx512(keys, tracks, count, t, local);
        return;
    }
#else
    (void)wide;
#endif
    ossa_lerp_tracks(keys, tracks, count, t, local);
}

static void test_slerp(void) {
    double worst = 0.0;
    for (int i = 0; i < 200000; i++) {
        float a[4], b[4], out[4];
        double ref[4];
        random_quat(a);
        random_quat(b);
        if (i % 4 == 1) /* close keys */
            for (int k = 0; k < 4; k++)
                b[k] = a[k] + (float)((frand() - 0.5) * 1e-3);
        if (i % 4 == 2) xf_quat_normalize(b);
        float t = (float)frand();
        ossa_quat_slerp(a, b, t, out);
        slerp_double(a, b, t, ref);
        for (int k = 0; k < 4; k++)
            worst = fmax(worst, fabs(out[k] - ref[k]));
    }
    printf("slerp: max component error vs double slerp %.3g\n", worst);
    CHECKF(worst < 1e-6, "slerp error %.3g", worst);

    /* q and -q are the same rotation: the result must not depend on the sign. */
    for (int i = 0; i < 1000; i++) {
        float a[4], b[4], nb[4], r1[4], r2[4];
        random_quat(a);
        random_quat(b);
        for (int k = 0; k < 4; k++)
            nb[k] = -b[k];
        float t = (float)frand();
        ossa_quat_slerp(a, b, t, r1);
        ossa_quat_slerp(a, nb, t, r2);
        CHECK(memcmp(r1, r2, sizeof r1) == 0);
    }
    /* The batched track slerps (four lanes; sixteen and four with AVX-512) equal the scalar
     * slerp bit for bit, for every count, and write each rotation, nothing around it. */
    for (enum slerp_kernel kind = SLERP_PORTABLE4; kind < SLERP_KERNELS; kind++) {
        if (!batch_runs(kind != SLERP_PORTABLE4)) break;
        enum { TRACKS = 16 };
        ossa_track tracks[TRACKS];
        ossa_trs local[TRACKS];
        for (int i = 0; i < 600; i++) {
            uint32_t count = 1 + (uint32_t)i % (kind == SLERP_AVX512_16 ? 16 : 4);
            uint32_t stride = OSSA_BATCH_KEY_STRIDE(count);
            /* exactly what sampling has: reads past the slack show under ASan */
            float *keys = calloc(2 * stride + OSSA_BATCH_KEY_SLACK, sizeof(float));
            for (uint32_t j = 0; j < stride / 4; j++) {
                random_quat(keys + 4 * j);
                random_quat(keys + stride + 4 * j);
                if (i % 5 == 0) memcpy(keys + stride + 4 * j, keys + 4 * j, 4 * sizeof(float));
            }
            for (uint32_t j = 0; j < count; j++) {
                memset(&tracks[j], 0, sizeof tracks[j]);
                tracks[j].target_offset = (TRACKS - 1 - j) * 10 + 3; /* scattered targets */
            }
            memset(local, 0xff, sizeof local);
            float t = i % 7 == 0 ? 0.5f : (float)frand();
            slerp_batch(kind, keys, stride, tracks, count, t, (float *)local);
            float expected[TRACKS * 10];
            memset(expected, 0xff, sizeof expected);
            for (uint32_t j = 0; j < count; j++)
                ossa_quat_slerp(keys + 4 * j, keys + stride + 4 * j, t,
                                expected + tracks[j].target_offset);
            CHECK(memcmp(expected, local, sizeof local) == 0);
            free(keys);
        }
    }
    /* The batched track lerps (one track at a time; four per register with AVX-512) equal
     * a + (b - a) t bit for bit and write three floats per target, nothing around them. */
    for (int wide = 0; wide < 2; wide++) {
        if (!batch_runs(wide)) break;
        enum { TRACKS = 11 };
        ossa_track tracks[TRACKS];
        ossa_trs local[TRACKS];
        for (int i = 0; i < 400; i++) {
            uint32_t count = 1 + (uint32_t)i % TRACKS, stride = OSSA_BATCH_KEY_STRIDE(count);
            float *keys = calloc(2 * stride + OSSA_BATCH_KEY_SLACK, sizeof(float));
            for (uint32_t f = 0; f < 2 * stride; f++)
                keys[f] = (float)(frand() * 200.0 - 100.0);
            for (uint32_t j = 0; j < count; j++) {
                memset(&tracks[j], 0, sizeof tracks[j]);
                /* scattered targets: translations and scales of nodes in reverse order */
                tracks[j].target_offset = (TRACKS - 1 - j) * 10 + (j % 2 ? 7 : 0);
            }
            memset(local, 0xff, sizeof local);
            float t = i % 7 == 0 ? 0.5f : (float)frand();
            lerp_batch(wide, keys, tracks, count, t, (float *)local);
            float expected[TRACKS * 10];
            memset(expected, 0xff, sizeof expected);
            for (uint32_t j = 0; j < count; j++)
                for (int c = 0; c < 3; c++) {
                    float a = keys[4 * j + c], b = keys[stride + 4 * j + c];
                    expected[tracks[j].target_offset + c] = a + (b - a) * t;
                }
            CHECK(memcmp(expected, local, sizeof local) == 0);
            free(keys);
        }
    }
    /* Exact at the ends, unit in between, stable for identical and nearly identical keys. */
    float a[4] = {0.1f, 0.7f, -0.1f, 0.7f}, b[4], out[4];
    xf_quat_normalize(a);
    ossa_quat_slerp(a, a, 0.0f, out);
    CHECK(memcmp(out, a, sizeof a) == 0);
    ossa_quat_slerp(a, a, 0.37f, out);
    for (int k = 0; k < 4; k++)
        CHECK_NEAR(out[k], a[k], 2e-7);
    memcpy(b, a, sizeof b);
    b[0] = nextafterf(b[0], 1.0f);
    ossa_quat_slerp(a, b, 0.5f, out);
    for (int k = 0; k < 4; k++)
        CHECK_NEAR(out[k], a[k], 2e-7);
    float c[4] = {-a[0], -a[1], -a[2], -a[3]}; /* opposite keys: the same rotation */
    ossa_quat_slerp(a, c, 0.5f, out);
    for (int k = 0; k < 4; k++)
        CHECK_NEAR(fabsf(out[k]), fabsf(a[k]), 2e-7);
    ossa_quat_slerp(a, c, 1.0f, out);
    for (int k = 0; k < 4; k++)
        CHECK_NEAR(out[k], a[k], 0.0);
    /* 180-degree rotation between keys (quaternions at 90 degrees in 4D). */
    float x0[4] = {0, 0, 0, 1}, x1[4] = {1, 0, 0, 0};
    ossa_quat_slerp(x0, x1, 0.25f, out);
    CHECK_NEAR(out[0], sin(PI / 8), 3e-7);
    CHECK_NEAR(out[3], cos(PI / 8), 3e-7);
}

static void test_find_key(void) {
    float times[200];
    for (int trial = 0; trial < 50; trial++) {
        uint32_t n = 1 + (uint32_t)(frand() * 199);
        float t = (float)frand();
        for (uint32_t i = 0; i < n; i++) {
            times[i] = t;
            t += (float)(0.001 + frand() * 0.1);
        }
        uint32_t hint = 0;
        float time = times[0] - 0.5f;
        for (int step = 0; step < 4000; step++) {
            double r = frand();
            if (r < 0.6)
                time += (float)(frand() * 0.03); /* playback */
            else if (r < 0.7)
                time -= (float)(frand() * 0.05); /* backward */
            else if (r < 0.8)
                time = times[(uint32_t)(frand() * n)]; /* exactly on a key */
            else
                time = (float)(frand() * (t - times[0] + 2.0) + times[0] - 1.0); /* jump */
            uint32_t a = ossa_find_key(times, n, time, hint);
            uint32_t b = ossa_find_key_stateless(times, n, time);
            CHECKF(a == b, "n=%u t=%.9g: cursor %u, search %u", n, (double)time, a, b);
            /* The defining property: the largest i <= n - 2 with times[i] <= time. */
            uint32_t expect = 0;
            for (uint32_t i = 0; n >= 2 && i <= n - 2; i++)
                if (times[i] <= time) expect = i;
            if (a != expect) CHECKF(a == expect, "n=%u: %u vs %u", n, a, expect);
            hint = (uint32_t)(frand() < 0.02 ? frand() * 500 : a); /* also stale hints */
        }
    }
}

/* A hand-built one-node rig and a clip with translation/rotation/scale tracks. */
static int32_t one_parent[1] = {-1}, one_index[1] = {0}, one_none[1] = {-1};
static const char *one_names[1] = {"n"};
static uint8_t one_fixed[1] = {0};
static float one_fixed_local[12];
static uint32_t one_zero[1] = {0}, one_weight_count[1] = {2};
static float one_rest_weights[2] = {0.25f, 0.5f};
static ossa_trs one_rest[1] = {{{1, 2, 3}, {0, 0, 0, 1}, {1, 1, 1}}};

static ossa_rig one_node_rig(void) {
    ossa_rig rig = {1,        one_parent, one_index,        one_index,        one_names,
                    one_rest, one_fixed,  one_fixed_local,  one_none,         one_none,
                    2,        one_zero,   one_weight_count, one_rest_weights, 0,
                    NULL,     0};
    return rig;
}

static void test_interpolation(void) {
    ossa_rig rig = one_node_rig();
    /* Timeline 0: 3 keys. Translation CUBICSPLINE with zero tangents, scale STEP, weights
     * LINEAR. Timeline 1: 2 keys, rotation LINEAR. */
    static const float times[5] = {1.0f, 2.0f, 4.0f, 0.0f, 1.0f};
    static const float values[] = {/* cubic translation: in, value, out per key */
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 0, 0, 0, 10, 20, 30, 0, 0, 0,
                                   /**/ 0, 0, 0, -5, 5, 1, 0, 0, 0,
                                   /* step scale */
                                   1, 1, 1, 2, 2, 2, 3, 3, 3,
                                   /* linear weights (2 per key) */
                                   0, 1, 1, 0, 0.5f, 0.5f,
                                   /* rotation: identity to 90 degrees about z */
                                   0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f};
    /* The rotation's keys again as batch_keys lays them out: four quaternions a key. */
    static const float batch[8 + OSSA_BATCH_KEY_SLACK] = {0, 0, 0,           1,
                                                          0, 0, 0.70710677f, 0.70710677f};
    static const ossa_timeline timelines[2] = {{3, 0, 0, 3, 0, 0, 0, 0}, {2, 3, 3, 1, 1, 0, 0, 8}};
    static const ossa_track tracks[4] = {
        {0, OSSA_PATH_TRANSLATION, OSSA_INTERP_CUBICSPLINE, 3, 0, 0, 0},
        {0, OSSA_PATH_SCALE, OSSA_INTERP_STEP, 3, 0, 27, 7},
        {0, OSSA_PATH_WEIGHTS, OSSA_INTERP_LINEAR, 2, 0, 36, 0},
        {0, OSSA_PATH_ROTATION, OSSA_INTERP_LINEAR, 4, 1, 42, 3}};
    static const uint8_t node_paths[1] = {0xF}; /* T, R, S and weights of node 0 */
    ossa_clip clip = {&rig,       "c",       0.0f,  4.0f,     4.0f,
                      2,          timelines, 4,     tracks,   0,
                      times,      values,    batch, one_rest, one_rest_weights,
                      node_paths, NULL,      0,     0,        0,
                      0,          0,         NULL,  NULL,     0};
    ossa_trs local;
    float weights[2];
    ossa_pose pose = {&local, weights};
    uint32_t keys[2] = {0, 0};
    ossa_cursor cursor = {keys, 2};

    /* Before the first key: first key values; exactly on a key: that key. */
    ossa_clip_sample(&rig, &clip, 0.5f, &cursor, &pose);
    CHECK(local.translation[0] == 0.0f && local.scale[0] == 1.0f && weights[1] == 1.0f);
    ossa_clip_sample(&rig, &clip, 2.0f, &cursor, &pose);
    CHECK(local.translation[0] == 10.0f && local.translation[2] == 30.0f);
    CHECK(local.scale[1] == 2.0f && weights[0] == 1.0f && weights[1] == 0.0f);
    CHECK(memcmp(local.rotation, values + 46, 4 * sizeof(float)) == 0); /* after last key */

    /* Between keys: zero-tangent Hermite is the basis h00 v0 + h01 v1. */
    for (float t = 2.05f; t < 4.0f; t += 0.1f) {
        ossa_clip_sample(&rig, &clip, t, NULL, &pose);
        double u = (t - 2.0) / 2.0;
        double h00 = 2 * u * u * u - 3 * u * u + 1, h01 = -2 * u * u * u + 3 * u * u;
        CHECK_NEAR(local.translation[0], h00 * 10 + h01 * -5, 1e-5);
        CHECK_NEAR(local.translation[1], h00 * 20 + h01 * 5, 1e-5);
        CHECK(local.scale[2] == 2.0f); /* STEP holds the earlier key */
        CHECK_NEAR(weights[0], 1.0 - 0.5 * u, 1e-6);
    }
    /* Tangents are scaled by the key interval: a tangent of 1 per second over a 2 s interval. */
    float tangent_values[sizeof values / sizeof values[0]];
    memcpy(tangent_values, values, sizeof values);
    tangent_values[9 + 6] = 1.0f; /* key 1 out-tangent x */
    clip.values = tangent_values;
    ossa_clip_sample(&rig, &clip, 3.0f, NULL, &pose);
    {
        double u = 0.5, h00 = 0.5, h01 = 0.5, h10 = u * u * u - 2 * u * u + u;
        CHECK_NEAR(local.translation[0], h00 * 10 + h01 * -5 + h10 * 2.0 * 1.0, 1e-5);
    }
    clip.values = values;
    /* Rotation halfway: 45 degrees about z; rest translation untouched by other nodes. */
    ossa_clip_sample(&rig, &clip, 0.5f, NULL, &pose);
    CHECK_NEAR(local.rotation[2], sin(PI / 8), 1e-6);
    CHECK_NEAR(local.rotation[3], cos(PI / 8), 1e-6);

    /* Wrap modes. */
    CHECK(ossa_clip_time(&clip, 5.0, OSSA_WRAP_CLAMP) == 4.0f);
    CHECK(ossa_clip_time(&clip, -1.0, OSSA_WRAP_CLAMP) == 0.0f);
    CHECK(ossa_clip_time(&clip, 5.0, OSSA_WRAP_LOOP) == 1.0f);
    CHECK(ossa_clip_time(&clip, -1.0, OSSA_WRAP_LOOP) == 3.0f);
    CHECK(ossa_clip_time(&clip, 5.0, OSSA_WRAP_PING_PONG) == 3.0f);
    CHECK(ossa_clip_time(&clip, 9.0, OSSA_WRAP_PING_PONG) == 1.0f);
    CHECK(ossa_clip_time(&clip, -1.0, OSSA_WRAP_PING_PONG) == 1.0f);
    /* Clocks with no place in the range: the start, except clamped infinities */
    CHECK(ossa_clip_time(&clip, INFINITY, OSSA_WRAP_LOOP) == 0.0f);
    CHECK(ossa_clip_time(&clip, -INFINITY, OSSA_WRAP_PING_PONG) == 0.0f);
    CHECK(ossa_clip_time(&clip, NAN, OSSA_WRAP_LOOP) == 0.0f);
    CHECK(ossa_clip_time(&clip, INFINITY, OSSA_WRAP_CLAMP) == 4.0f);
    CHECK(ossa_clip_time(&clip, -INFINITY, OSSA_WRAP_CLAMP) == 0.0f);
    /* Looping takes a shortcut past fmod: the same float for any clock, including clocks just
     * below and at multiples of awkward durations and clocks far past the clip. */
    const float durations[] = {4.0f, 0.1f, 1.0f / 3.0f, 2.4166667f, 1e-3f};
    for (int d = 0; d < 5; d++) {
        ossa_clip wrapped = clip;
        wrapped.start = 0.25f;
        wrapped.duration = durations[d];
        wrapped.end = wrapped.start + wrapped.duration;
        for (int i = 0; i < 20000; i++) {
            double clock = i % 3 == 0   ? frand() * 1e4
                           : i % 3 == 1 ? wrapped.start + durations[d] * (i / 3)
                                        : nextafter(wrapped.start + durations[d] * (i / 3), 0.0);
            double r = fmod(clock - wrapped.start, durations[d]);
            float expect = (float)(wrapped.start + (r < 0.0 ? r + durations[d] : r));
            CHECK(ossa_clip_time(&wrapped, clock, OSSA_WRAP_LOOP) == expect);
        }
    }
}

/* T * R * S against the textbook formula in double precision (rotation used as given). */
static void test_matrix_from_trs(void) {
    for (int i = 0; i < 1000; i++) {
        float t[3], q[4], s[3], m[12];
        random_quat(q);
        if (i % 2) q[0] *= 1.001f; /* not unit: used as given */
        for (int k = 0; k < 3; k++) {
            t[k] = (float)(frand() * 10.0 - 5.0);
            s[k] = (float)(frand() * 4.0 - 2.0);
        }
        xf_matrix_from_trs(t, q, s, m);
        double x = q[0], y = q[1], z = q[2], w = q[3];
        double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                       2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                       2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
        for (int row = 0; row < 3; row++) {
            for (int c = 0; c < 3; c++)
                CHECK_NEAR(m[4 * row + c], r[3 * row + c] * s[c], 2e-6);
            CHECK(m[4 * row + 3] == t[row]);
        }
    }
}

/* Chain of four joints along x with rotations about their rest positions. */
static void test_chain(void) {
    int32_t parent[4] = {-1, 0, 1, 2}, index[4] = {0, 1, 2, 3}, none[4] = {-1, -1, -1, -1};
    const char *names[4] = {0};
    uint8_t fixed[4] = {0};
    float fixed_local[48] = {0};
    uint32_t zero[4] = {0};
    ossa_trs rest[4];
    for (int i = 0; i < 4; i++) {
        ossa_trs r = {{i ? 1.0f : 0.5f, i == 2 ? 0.25f : 0.0f, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        rest[i] = r;
    }
    ossa_rig rig = {4, parent, index, index, names, rest, fixed, fixed_local, none, none,
                    0, zero,   zero,  NULL,  0,     NULL, 0};
    ossa_trs local[4];
    ossa_pose pose = {local, NULL};
    float world[48], rigid[28], similar[32];
    for (int trial = 0; trial < 100; trial++) {
        ossa_pose_set_rest(&rig, &pose);
        for (int i = 0; i < 4; i++)
            random_quat(local[i].rotation);
        ossa_fk_matrices(&rig, &pose, world);
        ossa_fk_rigid(&rig, &pose, rigid);
        for (int i = 0; i < 4; i++) {
            float m[12];
            const float *r = rigid + 7 * i;
            float one[3] = {1, 1, 1};
            xf_matrix_from_trs(r + 4, r, one, m);
            for (int k = 0; k < 12; k++)
                CHECK_NEAR(m[k], world[12 * i + k], 2e-6);
        }
        /* DESIGN.md's recursion about rest joint positions x_i (rest rotations are identity):
         * the transform taking rest to posed world space has Q_i = Q_p q_i and
         * t_i = t_p + Q_p x_i - Q_i x_i. The one-level shortcut differs below the first child. */
        float x[4][3], t_prev[3] = {0, 0, 0}, q_prev[4] = {0, 0, 0, 1};
        double shortcut_gap = 0.0;
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++)
                x[i][k] = (i ? x[i - 1][k] : 0.0f) + rest[i].translation[k];
            const float *Q = rigid + 7 * i;
            float Qx[3], Qpx[3], t[3];
            xf_quat_rotate(Q, x[i], Qx);
            xf_quat_rotate(q_prev, x[i], Qpx);
            for (int k = 0; k < 3; k++)
                t[k] = i ? t_prev[k] + Qpx[k] - Qx[k] : -Qx[k] + x[i][k];
            /* the transform rest -> posed: M_i = W_i * translation(-x_i) */
            for (int k = 0; k < 3; k++)
                CHECK_NEAR(t[k], world[12 * i + 4 * k + 3] - Qx[k], 2e-6);
            if (i >= 2) {
                float Qpxp[3];
                xf_quat_rotate(q_prev, x[i - 1], Qpxp);
                for (int k = 0; k < 3; k++)
                    shortcut_gap =
                        fmax(shortcut_gap, fabs(-Qx[k] + Qpx[k] - Qpxp[k] + x[i - 1][k] - t[k]));
            }
            memcpy(t_prev, t, sizeof t);
            memcpy(q_prev, Q, sizeof q_prev);
        }
        if (trial == 0) CHECKF(shortcut_gap > 1e-3, "shortcut gap %.3g", shortcut_gap);
        /* Uniform scales: the 8-float similarity form equals the matrix path. */
        for (int i = 0; i < 4; i++) {
            float s = (float)(0.5 + frand());
            local[i].scale[0] = local[i].scale[1] = local[i].scale[2] = s;
        }
        ossa_fk_matrices(&rig, &pose, world);
        ossa_fk_similarity(&rig, &pose, similar);
        for (int i = 0; i < 4; i++) {
            float m[12];
            const float *r = similar + 8 * i;
            float s3[3] = {r[7], r[7], r[7]};
            xf_matrix_from_trs(r + 4, r, s3, m);
            for (int k = 0; k < 12; k++)
                CHECK_NEAR(m[k], world[12 * i + k], 1e-5);
        }
    }
}

static void test_palettes(void) {
    /* Nodes: 0 mesh node (moved), 1 root joint, 2 child joint. */
    int32_t parent[3] = {-1, -1, 1}, index[3] = {0, 1, 2}, none[3] = {-1, -1, -1};
    const char *names[3] = {0};
    uint8_t fixed[3] = {0};
    float fixed_local[36] = {0};
    uint32_t zero[3] = {0};
    ossa_trs rest[3] = {{{3, 0, 1}, {0, 0.38268343f, 0, 0.92387953f}, {2, 2, 2}},
                        {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}},
                        {{0, 1, 0}, {0.5f, 0.5f, 0.5f, 0.5f}, {1, 1, 1}}};
    int32_t joints[2] = {1, 2}, mesh_nodes[1] = {0};
    float ibm[24];
    for (int j = 0; j < 2; j++) {
        float t[3] = {0, -1.0f - j, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        xf_matrix_from_trs(t, q, s, ibm + 12 * j);
    }
    ossa_rig_skin skin = {2, joints, ibm, 1, mesh_nodes};
    ossa_rig rig = {3, parent, index, index, names, rest,  fixed, fixed_local, none, none,
                    0, zero,   zero,  NULL,  1,     &skin, 2};
    ossa_trs local[3];
    ossa_pose pose = {local, NULL};
    ossa_pose_set_rest(&rig, &pose);
    float world[36], pw[24], pm[24], all[24], dq[24];
    ossa_fk_matrices(&rig, &pose, world);
    CHECK(ossa_palette_floats(&rig, 0) == 24);
    CHECK(ossa_palette_world(&rig, 0, world, pw, NULL) == OSSA_OK);
    CHECK(ossa_palette_mesh(&rig, 0, 0, world, pm, NULL) == OSSA_OK);
    /* At rest the IBMs undo the joints: identity world-space palette for joint 0. */
    for (int k = 0; k < 12; k++)
        CHECK_NEAR(pw[k], (k % 5 == 0) ? 1.0 : 0.0, 1e-6);
    for (int j = 0; j < 2; j++) {
        float back[12];
        xf_matrix_mul(world, pm + 12 * j, back); /* world(mesh) * mesh palette = world palette */
        for (int k = 0; k < 12; k++)
            CHECK_NEAR(back[k], pw[12 * j + k], 1e-5);
    }
    ossa_fk_palettes_world(&rig, &pose, world, all);
    CHECK(memcmp(all, pw, sizeof pw) == 0);
    /* Dual quaternions (the one conversion, skin.h): unit real part, and with their scale they
     * transform points like the matrices. */
    ossa_skin_dual_quats(pw, 2, dq);
    for (int j = 0; j < 2; j++) {
        const float *r = dq + 12 * j, *d = r + 4, s = r[8];
        CHECK_NEAR(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3], 1.0, 1e-6);
        CHECK_NEAR(r[0] * d[0] + r[1] * d[1] + r[2] * d[2] + r[3] * d[3], 0.0, 1e-6);
        float conj[4] = {-r[0], -r[1], -r[2], r[3]}, t[4];
        xf_quat_mul(d, conj, t); /* translation = 2 d conj(r) */
        float p[3] = {0.3f, -0.7f, 1.1f}, rp[3];
        xf_quat_rotate(r, p, rp);
        const float *m = pw + 12 * j;
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(s * rp[k] + 2.0f * t[k],
                       m[4 * k] * p[0] + m[4 * k + 1] * p[1] + m[4 * k + 2] * p[2] + m[4 * k + 3],
                       1e-5);
    }
}

#ifdef OSSA_POSE_AVX512
/* The AVX-512 forward kinematics and palettes agree with the scalar matrix products (to float
 * rounding: they use FMAs) on a random rig: chains, branches whose parent is further back, fixed
 * nodes, joints in any order, world-space and mesh-space palettes. */
/* The float inverse of the per-frame palette path agrees with the double one: random affine
 * matrices (relative to their size), rigid ones, and a singular one (identity linear part). */
static void test_invert_float(void) {
    for (int trial = 0; trial < 2000; trial++) {
        float m[12], a[12], b[12];
        if (trial % 2) {
            for (int k = 0; k < 12; k++)
                m[k] = (float)(frand() * 2.0 - 1.0);
        } else {
            float t[3] = {(float)frand() * 50.0f, -3.0f, 7.5f}, q[4], s[3] = {1.0f, 2.0f, 0.5f};
            random_quat(q);
            xf_matrix_from_trs(t, q, s, m);
        }
        xf_matrix_invert(m, a);
        xf_matrix_invert_float(m, b);
        double det = (double)m[0] * (m[5] * m[10] - m[6] * m[9]) -
                     (double)m[1] * (m[4] * m[10] - m[6] * m[8]) +
                     (double)m[2] * (m[4] * m[9] - m[5] * m[8]);
        if (fabs(det) < 0.05) continue; /* ill-conditioned: float and double part ways */
        double size = 0.0;
        for (int k = 0; k < 12; k++)
            size = fmax(size, fabs(a[k]));
        for (int k = 0; k < 12; k++)
            CHECK_NEAR(b[k], a[k], 2e-5 * size);
    }
    float singular[12] = {1, 2, 3, 4, 2, 4, 6, 5, 0, 1, 0, 6}, inv[12];
    xf_matrix_invert_float(singular, inv);
    const float expect[12] = {1, 0, 0, -4, 0, 1, 0, -5, 0, 0, 1, -6};
    CHECK(memcmp(inv, expect, sizeof inv) == 0);
}

static void test_pose_avx512(void) {
    if (!ossa_pose_avx512_supported()) return;
    enum { N = 40, J = 25 };
    int32_t parent[N], index[N], none[N], joints[J];
    const char *names[N] = {0};
    uint8_t fixed[N];
    float fixed_local[12 * N], ibm[12 * J];
    uint32_t zero[N] = {0};
    ossa_trs rest[N], local[N];
    for (int trial = 0; trial < 50; trial++) {
        for (int i = 0; i < N; i++) {
            parent[i] = i == 0 ? -1 : frand() < 0.6 ? i - 1 : (int32_t)(frand() * i) - (i % 7 == 0);
            index[i] = i;
            none[i] = -1;
            fixed[i] = frand() < 0.1;
            ossa_trs l = {{0}, {0}, {0}};
            for (int k = 0; k < 3; k++) {
                l.translation[k] = (float)(frand() * 2.0 - 1.0);
                l.scale[k] = (float)(0.8 + 0.45 * frand());
            }
            random_quat(l.rotation);
            local[i] = rest[i] = l;
            for (int k = 0; k < 12; k++)
                fixed_local[12 * i + k] = (float)(frand() * 2.0 - 1.0);
        }
        for (int j = 0; j < J; j++) {
            joints[j] = (int32_t)(frand() * N);
            for (int k = 0; k < 12; k++)
                ibm[12 * j + k] = (float)(frand() * 2.0 - 1.0);
        }
        ossa_rig_skin skin = {J, joints, ibm, 0, NULL};
        ossa_rig rig = {N, parent, index, index, names, rest,  fixed, fixed_local, none, none,
                        0, zero,   zero,  NULL,  1,     &skin, J};
        ossa_pose pose = {local, NULL};
        float world[12 * N], ref[12 * N], palette[12 * J], to_mesh[12];
        ossa_fk_matrices_avx512(&rig, &pose, world);
        for (int i = 0; i < N; i++) {
            float *r = ref + 12 * i;
            if (fixed[i])
                memcpy(r, fixed_local + 12 * i, sizeof(float) * 12);
            else
                xf_matrix_from_trs(local[i].translation, local[i].rotation, local[i].scale, r);
            if (parent[i] >= 0) xf_matrix_mul(ref + 12 * parent[i], r, r);
        }
        for (int k = 0; k < 12 * N; k++)
            CHECK_NEAR(world[k], ref[k], 1e-5 * (1.0 + fabs(ref[k])));
        xf_matrix_invert(ref + 12 * (trial % N), to_mesh);
        for (int mesh = 0; mesh < 2; mesh++) {
            ossa_palette_avx512(&skin, mesh ? to_mesh : NULL, ref, palette);
            for (int j = 0; j < J; j++) {
                /* Rounding error is bounded by the product of the absolute matrices (an
                 * inverted random matrix can be large, with large cancelling terms). */
                float expect[12], bound[12], abs_mesh[12], abs_world[12], abs_ibm[12];
                for (int k = 0; k < 12; k++) {
                    abs_mesh[k] = fabsf(to_mesh[k]);
                    abs_world[k] = fabsf(ref[12 * joints[j] + k]);
                    abs_ibm[k] = fabsf(ibm[12 * j + k]);
                }
                if (mesh) {
                    xf_matrix_mul(to_mesh, ref + 12 * joints[j], expect);
                    xf_matrix_mul(abs_mesh, abs_world, bound);
                } else {
                    memcpy(expect, ref + 12 * joints[j], sizeof expect);
                    memcpy(bound, abs_world, sizeof bound);
                }
                xf_matrix_mul(expect, ibm + 12 * j, expect);
                xf_matrix_mul(bound, abs_ibm, bound);
                for (int k = 0; k < 12; k++)
                    CHECK_NEAR(palette[12 * j + k], expect[k], 1e-5 * (1.0 + bound[k]));
            }
        }
    }
}
#endif

/* ossa_fk_palettes_world_many equals one ossa_fk_palettes_world per pose, bit for bit: random
 * rigs of two skins, at and past the four-pose kernel's node limit, every count of poses from 0
 * to 9 (groups of four and what is left). */
static void test_fk_many(void) {
    enum { MAX_NODES = 300, POSES = 9, J0 = 7, J1 = 30 };
    static const uint32_t node_counts[] = {1, 2, 5, 40, 256, 257, MAX_NODES};
    static int32_t parent[MAX_NODES], index[MAX_NODES], none[MAX_NODES], joints[J0 + J1];
    static const char *names[MAX_NODES];
    static uint8_t fixed[MAX_NODES];
    static uint32_t zero[MAX_NODES];
    static float fixed_local[12 * MAX_NODES], ibm[12 * (J0 + J1)];
    static ossa_trs rest[MAX_NODES], local[POSES][MAX_NODES];
    static float world[POSES][12 * MAX_NODES], ref_world[12 * MAX_NODES];
    static float palettes[POSES][12 * (J0 + J1)], ref_palettes[12 * (J0 + J1)];
    for (size_t r = 0; r < sizeof node_counts / sizeof *node_counts; r++) {
        uint32_t n = node_counts[r];
        for (uint32_t i = 0; i < n; i++) {
            parent[i] = i == 0 ? -1 : frand() < 0.6 ? (int32_t)i - 1 : (int32_t)(frand() * i);
            if (i % 11 == 5) parent[i] = -1; /* a second root */
            index[i] = (int32_t)i;
            none[i] = -1;
            fixed[i] = frand() < 0.1;
            for (int k = 0; k < 12; k++)
                fixed_local[12 * i + k] = (float)(frand() * 2.0 - 1.0);
            for (int p = 0; p < POSES; p++) {
                ossa_trs *l = &local[p][i];
                for (int k = 0; k < 3; k++) {
                    l->translation[k] = (float)(frand() * 2.0 - 1.0);
                    l->scale[k] = (float)(0.8 + 0.45 * frand());
                }
                random_quat(l->rotation);
            }
            rest[i] = local[0][i];
        }
        for (int j = 0; j < J0 + J1; j++) {
            joints[j] = (int32_t)(frand() * n);
            for (int k = 0; k < 12; k++)
                ibm[12 * j + k] = (float)(frand() * 2.0 - 1.0);
        }
        ossa_rig_skin skins[2] = {{J0, joints, ibm, 0, NULL},
                                  {J1, joints + J0, ibm + 12 * J0, 0, NULL}};
        ossa_rig rig = {n,    parent, index, index, names, rest, fixed, fixed_local, none,
                        none, 0,      zero,  zero,  NULL,  2,    skins, J1};
        ossa_pose poses[POSES];
        float *worlds[POSES], *palette_of[POSES];
        for (int p = 0; p < POSES; p++) {
            poses[p] = (ossa_pose){local[p], NULL};
            worlds[p] = world[p];
            palette_of[p] = palettes[p];
        }
        for (uint32_t count = 0; count <= POSES; count++) {
            memset(world, 0xff, sizeof world);
            memset(palettes, 0xff, sizeof palettes);
            ossa_fk_palettes_world_many(&rig, poses, count, worlds, palette_of);
            int differ = 0;
            for (uint32_t p = 0; p < POSES; p++) {
                ossa_fk_palettes_world(&rig, &poses[p], ref_world, ref_palettes);
                int same = !memcmp(world[p], ref_world, 12 * sizeof(float) * n) &&
                           !memcmp(palettes[p], ref_palettes, sizeof ref_palettes);
                differ += p < count ? !same : same; /* poses past count stay unwritten */
            }
            CHECKF(differ == 0, "%u nodes, %u poses: %d differ", n, count, differ);
        }
    }
}

/* Hand-built document: children before parents, a node outside every scene, a TRS matrix
 * (decomposed) and a sheared matrix (kept fixed). */
static void test_rig_build(void) {
    ossa_node nodes[4];
    memset(nodes, 0, sizeof nodes);
    int32_t children_of_3[1] = {1}, children_of_1[1] = {0};
    for (int i = 0; i < 4; i++) {
        nodes[i].parent = -1;
        nodes[i].mesh = nodes[i].skin = nodes[i].camera = -1;
        nodes[i].rotation[3] = 1.0f;
        nodes[i].scale[0] = nodes[i].scale[1] = nodes[i].scale[2] = 1.0f;
        xf_matrix_identity(nodes[i].matrix); /* overwritten below where used */
    }
    nodes[3].children = children_of_3;
    nodes[3].child_count = 1;
    nodes[1].parent = 3;
    nodes[1].children = children_of_1;
    nodes[1].child_count = 1;
    nodes[0].parent = 1;
    /* node 1: T(1,2,3) * R(90 deg about y) * S(2, 3, -4) as a column-major matrix */
    float t[3] = {1, 2, 3}, q[4] = {0, 0.70710677f, 0, 0.70710677f}, s[3] = {2, 3, -4}, m[12];
    xf_matrix_from_trs(t, q, s, m);
    nodes[1].has_matrix = 1;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            nodes[1].matrix[4 * c + r] = m[4 * r + c];
    nodes[1].matrix[15] = 1.0f;
    for (int r = 0; r < 3; r++)
        nodes[1].matrix[12 + r] = t[r];
    for (int k = 0; k < 3; k++)
        nodes[1].matrix[4 * k + 3] = 0.0f;
    /* node 2 (outside the hierarchy of others): sheared */
    float shear[16] = {1, 0, 0, 0, 0.5f, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1};
    nodes[2].has_matrix = 1;
    memcpy(nodes[2].matrix, shear, sizeof shear);
    ossa_document doc;
    memset(&doc, 0, sizeof doc);
    doc.file = "hand.gltf";
    doc.nodes = nodes;
    doc.node_count = 4;
    ossa_rig *rig = NULL;
    ossa_error error;
    CHECK(ossa_rig_build(&doc, NULL, &rig, &error) == OSSA_OK);
    if (!rig) return;
    CHECK(rig->node_count == 4);
    for (uint32_t i = 0; i < 4; i++) {
        CHECK(rig->parent[i] < (int32_t)i);
        CHECK(rig->rig_from_gltf[rig->gltf_from_rig[i]] == (int32_t)i);
        int32_t gp = nodes[rig->gltf_from_rig[i]].parent;
        CHECK(rig->parent[i] == (gp < 0 ? -1 : rig->rig_from_gltf[gp]));
    }
    int32_t r1 = rig->rig_from_gltf[1], r2 = rig->rig_from_gltf[2];
    CHECK(rig->fixed[r1] == 0 && rig->fixed[r2] == 1);
    float rebuilt[12];
    xf_matrix_from_trs(rig->rest[r1].translation, rig->rest[r1].rotation, rig->rest[r1].scale,
                       rebuilt);
    for (int k = 0; k < 12; k++)
        CHECK_NEAR(rebuilt[k], m[k], 1e-5);
    ossa_trs local[4];
    float world[48];
    ossa_pose pose = {local, NULL};
    ossa_pose_set_rest(rig, &pose);
    ossa_fk_matrices(rig, &pose, world);
    CHECK(world[12 * r2 + 1] == 0.5f && world[12 * r2 + 3] == 4.0f); /* shear kept exactly */
    ossa_rig_free(rig);

    /* A cycle is refused. */
    nodes[3].parent = 0;
    int32_t children_of_0[1] = {3};
    nodes[0].children = children_of_0;
    nodes[0].child_count = 1;
    CHECK(ossa_rig_build(&doc, NULL, &rig, &error) == OSSA_ERROR_INVALID && rig == NULL);
}

int main(void) {
    test_slerp();
    test_find_key();
    test_interpolation();
    test_matrix_from_trs();
    test_chain();
    test_palettes();
    test_invert_float();
#ifdef OSSA_POSE_AVX512
    test_pose_avx512();
#endif
    test_fk_many();
    test_rig_build();
    return ossa_test_finish("anim_math");
}
