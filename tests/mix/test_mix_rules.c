/* Each rule of the mix (issue 12 / mix.h) on shared models and a small glTF written here:
 * clip-time mapping, weight curves, one layer = plain sampling, the rest-pose threshold, masks,
 * additive layers, q / -q symmetry, cross-fades, sync groups, and checks of the descriptor.
 * Where a value is not obvious it is compared with the double-precision reference of
 * mix_fixture.c, written from the formulas. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mix/mix_internal.h"
#include "mix_fixture.h"
#include "test_support.h"

#define TOL 2e-5 /* float mix against the double reference */

static int rig_node(const mix_model *m, const char *name) {
    int g = mix_model_node(m, name);
    return g < 0 ? -1 : m->rig->rig_from_gltf[g];
}

static float rel(float a, float b) {
    return fabsf(a - b) / fmaxf(1.0f, fabsf(b));
}

/* Same TRS to float rounding; rotations of the same sign. */
static int trs_close(const ossa_trs *a, const ossa_trs *b, float tol) {
    for (int c = 0; c < 3; c++)
        if (rel(a->translation[c], b->translation[c]) > tol || rel(a->scale[c], b->scale[c]) > tol)
            return 0;
    for (int c = 0; c < 4; c++)
        if (fabsf(a->rotation[c] - b->rotation[c]) > tol) return 0;
    return 1;
}

/* Every component finite (trs_close alone takes NaN for close). */
static int trs_finite(const ossa_trs *a) {
    const float *f = a->translation;
    for (size_t c = 0; c < sizeof *a / sizeof(float); c++)
        if (!isfinite(f[c])) return 0;
    return 1;
}

static void check_against_reference(const mix_model *m, const ossa_mix_desc *desc, double clock,
                                    const char *what) {
    ossa_pose got = mix_pose_alloc(m->rig), want = mix_pose_alloc(m->rig);
    CHECKF(mix_eval(m->rig, desc, clock, &got) == OSSA_OK, "%s: create", what);
    mix_reference(m->rig, desc, clock, &want);
    double d = mix_pose_distance(m->rig, &got, &want);
    CHECKF(d < TOL, "%s at %g: %g from the reference", what, clock, d);
    mix_pose_free(&got), mix_pose_free(&want);
}

static void test_time_mapping(void) {
    /* Floor modulo, clamp, ping-pong (u <= D forward), D = 0. */
    CHECK_NEAR(ossa_mix_wrap_time(-0.25, 0, 1, OSSA_MIX_LOOP), 0.75, 1e-12);
    CHECK_NEAR(ossa_mix_wrap_time(2.5, 0, 1, OSSA_MIX_LOOP), 0.5, 1e-12);
    CHECK_NEAR(ossa_mix_wrap_time(-3.0, 0.5, 2, OSSA_MIX_LOOP), 1.0, 1e-12);
    CHECK(ossa_mix_wrap_time(2.0, 0, 1, OSSA_MIX_LOOP) == 0.0);
    CHECK(ossa_mix_wrap_time(-1, 0.5, 2, OSSA_MIX_CLAMP) == 0.5);
    CHECK(ossa_mix_wrap_time(9, 0.5, 2, OSSA_MIX_CLAMP) == 2.5);
    CHECK(ossa_mix_wrap_time(1.25, 0.5, 2, OSSA_MIX_CLAMP) == 1.25);
    CHECK_NEAR(ossa_mix_wrap_time(1.25, 0, 1, OSSA_MIX_PING_PONG), 0.75, 1e-12);
    CHECK_NEAR(ossa_mix_wrap_time(2.25, 0, 1, OSSA_MIX_PING_PONG), 0.25, 1e-12);
    CHECK_NEAR(ossa_mix_wrap_time(-0.25, 0, 1, OSSA_MIX_PING_PONG), 0.25, 1e-12);
    CHECK(ossa_mix_wrap_time(1.0, 0, 1, OSSA_MIX_PING_PONG) == 1.0); /* u = D goes forward */
    for (int w = 0; w < 3; w++)
        CHECK(ossa_mix_wrap_time(3.7, 0.5, 0, (ossa_mix_wrap)w) == 0.5);

    /* Through a mix: x = offset + speed * T on CesiumMan (its keys start at 0.0417). */
    mix_model m;
    if (mix_model_load("models/CesiumMan/glTF-Binary/CesiumMan.glb", &m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *clip = mix_model_clip_at(&m, 0);
    double start = ossa_clip_start(clip), d = ossa_clip_duration(clip);
    ossa_mix_layer layers[3] = {{.clip = clip, .speed = 2, .has_speed = 1, .offset = 0.3},
                                {.clip = clip, .speed = -1, .has_speed = 1, .wrap = OSSA_MIX_CLAMP},
                                {.clip = clip, .offset = -0.1, .wrap = OSSA_MIX_PING_PONG}};
    ossa_mix_desc desc = {.layer_count = 3, .layers = layers};
    ossa_mix *mix;
    CHECK(ossa_mix_create(m.rig, &desc, &mix, NULL) == OSSA_OK);
    double clocks[] = {-5.3, 0, 0.01, 1.7, 2.2, 11.9};
    for (int i = 0; i < 6; i++) {
        double T = clocks[i], x0 = 0.3 + 2 * T, x2 = -0.1 + T;
        double loop = start + (x0 - start) - d * floor((x0 - start) / d);
        CHECK_NEAR(ossa_mix_layer_time(mix, 0, T), loop, 1e-9);
        CHECK_NEAR(ossa_mix_layer_time(mix, 1, T), fmin(fmax(-T, start), start + d), 1e-12);
        double u = (x2 - start) - 2 * d * floor((x2 - start) / (2 * d));
        CHECK_NEAR(ossa_mix_layer_time(mix, 2, T), start + (u <= d ? u : 2 * d - u), 1e-9);
        for (int l = 0; l < 3; l++)
            CHECK_NEAR(ossa_mix_layer_time(mix, (uint32_t)l, T),
                       mix_reference_layer_time(&desc, (uint32_t)l, T), 1e-9);
    }
    ossa_mix_free(mix);
    mix_model_free(&m);
}

static void test_weight_curves(void) {
    ossa_mix_point points[] = {{0, 1}, {1, 1}, {1.5, 0}, {2, 0.25}};
    CHECK(ossa_mix_curve(points, 4, -3) == 1);
    CHECK(ossa_mix_curve(points, 4, 0.5) == 1);
    CHECK_NEAR(ossa_mix_curve(points, 4, 1.25), 0.5, 1e-15);
    CHECK(ossa_mix_curve(points, 4, 1.5) == 0);
    CHECK_NEAR(ossa_mix_curve(points, 4, 1.75), 0.125, 1e-15);
    CHECK(ossa_mix_curve(points, 4, 7) == 0.25);
    CHECK(ossa_mix_curve(points, 1, 7) == 1);
    CHECK(ossa_mix_curve(NULL, 0, 7) == 1); /* no points: weight 1 */
}

/* One layer of weight 1 equals plain sampling, to float rounding (the rotation is renormalised);
 * translations, scales and morph weights exactly. */
static void single_layer(const char *relative) {
    mix_model m;
    if (mix_model_load(relative, &m)) {
        CHECK(0);
        return;
    }
    ossa_pose got = mix_pose_alloc(m.rig), want = mix_pose_alloc(m.rig);
    for (uint32_t k = 0; k < m.clip_count; k++) {
        const ossa_clip *clip = mix_model_clip_at(&m, k);
        ossa_mix_layer layer = {.clip = clip};
        ossa_mix_desc desc = {.layer_count = 1, .layers = &layer};
        for (int f = 0; f < 7; f++) {
            float t = ossa_clip_start(clip) + ossa_clip_duration(clip) * (float)f / 7;
            CHECK(mix_eval(m.rig, &desc, t, &got) == OSSA_OK);
            ossa_clip_sample(m.rig, clip, t, NULL, &want);
            int exact = 1, close = 1;
            for (uint32_t j = 0; j < m.rig->node_count; j++) {
                const ossa_trs *a = &got.local[j], *b = &want.local[j];
                for (int c = 0; c < 3; c++) /* == : a -0 key comes out as 0 */
                    exact &= a->translation[c] == b->translation[c] && a->scale[c] == b->scale[c];
                for (int c = 0; c < 4; c++)
                    close &= fabsf(a->rotation[c] - b->rotation[c]) <= 3e-7f;
            }
            for (uint32_t w = 0; w < m.rig->weight_total; w++)
                exact &= got.weights[w] == want.weights[w];
            CHECKF(exact && close, "%s clip %u at %g", relative, k, (double)t);
        }
    }
    mix_pose_free(&got), mix_pose_free(&want);
    mix_model_free(&m);
}

/* Normal weights summing below the threshold are completed by the rest pose. */
static void test_threshold(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *walk = mix_model_clip(&m, "Walk");
    ossa_mix_point low = {0, 0.04};
    ossa_mix_layer layer = {.clip = walk, .weight_count = 1, .weights = &low};
    ossa_mix_desc desc = {.layer_count = 1, .layers = &layer};
    ossa_pose got = mix_pose_alloc(m.rig), clip = mix_pose_alloc(m.rig);
    CHECK(mix_eval(m.rig, &desc, 0.3, &got) == OSSA_OK);
    ossa_clip_sample(m.rig, walk, 0.3f, NULL, &clip);
    /* By hand for the hip: t = (0.04 t_walk + 0.06 t_rest) / 0.1. */
    int hip = rig_node(&m, "b_Hip_01");
    for (int c = 0; c < 3; c++) {
        double want =
            (0.04 * clip.local[hip].translation[c] + 0.06 * m.rig->rest[hip].translation[c]) / 0.1;
        CHECK_NEAR(got.local[hip].translation[c], want, 1e-5 * fmax(1, fabs(want)));
    }
    /* ... and it lies between the clip and the rest pose, nearer the rest pose. */
    double to_rest = 0, to_clip = 0;
    for (int c = 0; c < 4; c++) {
        to_rest += fabs(got.local[hip].rotation[c] - m.rig->rest[hip].rotation[c]);
        to_clip += fabs(got.local[hip].rotation[c] - clip.local[hip].rotation[c]);
    }
    CHECK(to_rest < to_clip);
    check_against_reference(&m, &desc, 0.3, "Fox walk at 0.04");
    ossa_mix_desc high = {
        .threshold = 0.5f, .has_threshold = 1, .layer_count = 1, .layers = &layer};
    check_against_reference(&m, &high, 0.45, "Fox walk at 0.04, threshold 0.5");

    /* Weight 0: the rest pose (W = threshold), also with threshold 0 (W = 0: rest values). */
    low.weight = 0;
    ossa_mix_desc zero = {.threshold = 0, .has_threshold = 1, .layer_count = 1, .layers = &layer};
    const ossa_mix_desc *descs[2] = {&desc, &zero};
    for (int i = 0; i < 2; i++) {
        CHECK(mix_eval(m.rig, descs[i], 0.3, &got) == OSSA_OK);
        int rest = 1;
        for (uint32_t j = 0; j < m.rig->node_count; j++)
            rest &= trs_close(&got.local[j], &m.rig->rest[j], i ? 0.0f : 2e-7f);
        CHECKF(rest, "weight 0 with threshold %s gives the rest pose", i ? "0" : "0.1");
    }
    /* Weights at or below OSSA_MIX_MIN_WEIGHT count as 0, with threshold 0 too, and so does a
     * threshold below it (the products underflowed float: a rotation of length 0, NaN). Just
     * above it, the layer alone is the clip's pose. */
    const float tiny[] = {1e-13f, 3.75e-34f, 1e-45f};
    for (int i = 0; i < 3; i++) {
        low.weight = tiny[i];
        CHECK(mix_eval(m.rig, &zero, 3.25, &got) == OSSA_OK);
        int rest = 1;
        for (uint32_t j = 0; j < m.rig->node_count; j++)
            rest &= trs_finite(&got.local[j]) && trs_close(&got.local[j], &m.rig->rest[j], 0.0f);
        CHECKF(rest, "weight %g with threshold 0 gives the rest pose", tiny[i]);
    }
    low.weight = 0;
    ossa_mix_desc subnormal = {
        .threshold = 1e-40f, .has_threshold = 1, .layer_count = 1, .layers = &layer};
    CHECK(mix_eval(m.rig, &subnormal, 0.3, &got) == OSSA_OK);
    CHECK(trs_finite(&got.local[hip]) && trs_close(&got.local[hip], &m.rig->rest[hip], 0.0f));
    low.weight = 1e-9f;
    CHECK(mix_eval(m.rig, &zero, 0.3, &got) == OSSA_OK);
    CHECKF(trs_finite(&got.local[hip]) && trs_close(&got.local[hip], &clip.local[hip], 1e-6f),
           "weight 1e-9 alone with threshold 0 gives the clip's pose");
    mix_pose_free(&got), mix_pose_free(&clip);
    mix_model_free(&m);

    /* Morph weights are pulled toward their rest values too. */
    if (mix_model_load("models/AnimatedMorphCube/AnimatedMorphCube.gltf", &m)) {
        CHECK(0);
        return;
    }
    ossa_mix_point half = {0, 0.05};
    ossa_mix_layer morph = {.clip = mix_model_clip_at(&m, 0), .weight_count = 1, .weights = &half};
    ossa_mix_desc mdesc = {.layer_count = 1, .layers = &morph};
    check_against_reference(&m, &mdesc, 1.3, "AnimatedMorphCube at 0.05");
    got = mix_pose_alloc(m.rig), clip = mix_pose_alloc(m.rig);
    CHECK(mix_eval(m.rig, &mdesc, 1.3, &got) == OSSA_OK);
    ossa_clip_sample(m.rig, mix_model_clip_at(&m, 0), 1.3f, NULL, &clip);
    for (uint32_t k = 0; k < m.rig->weight_total; k++)
        CHECK_NEAR(got.weights[k], 0.5 * clip.weights[k] + 0.5 * m.rig->rest_weights[k], 1e-6);
    mix_pose_free(&got), mix_pose_free(&clip);
    mix_model_free(&m);
}

/* A mask with default 0 leaves the other nodes at rest; values are inherited from the nearest
 * ancestor-or-self entry. */
static void test_mask(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *survey = mix_model_clip(&m, "Survey");
    ossa_mix_mask_entry entries[] = {{(uint32_t)mix_model_node(&m, "b_Spine02_03"), 1},
                                     {(uint32_t)mix_model_node(&m, "b_Neck_04"), 0.5f},
                                     {(uint32_t)mix_model_node(&m, "b_LeftUpperArm_09"), 0}};
    ossa_mix_mask mask = {.default_value = 0, .entry_count = 3, .entries = entries};
    ossa_mix_layer layer = {.clip = survey, .mask = &mask};
    ossa_mix_desc desc = {.layer_count = 1, .layers = &layer};
    ossa_pose got = mix_pose_alloc(m.rig), clip = mix_pose_alloc(m.rig);
    CHECK(mix_eval(m.rig, &desc, 1.7, &got) == OSSA_OK);
    ossa_clip_sample(m.rig, survey, 1.7f, NULL, &clip);
    int spine = rig_node(&m, "b_Spine02_03"), left_arm = rig_node(&m, "b_LeftUpperArm_09");
    int moved = 0;
    for (uint32_t j = 0; j < m.rig->node_count; j++) {
        int in_spine = 0, in_left_arm = 0;
        for (int32_t a = (int32_t)j; a >= 0; a = m.rig->parent[a])
            in_spine |= a == spine, in_left_arm |= a == left_arm;
        const char *name = m.rig->names[j] ? m.rig->names[j] : "";
        if (!in_spine || in_left_arm) {
            CHECKF(trs_close(&got.local[j], &m.rig->rest[j], 3e-7f), "%s stays at rest", name);
        } else {
            /* mask 1 (spine, right arm) or 0.5 (neck, head): weight >= threshold, the clip */
            CHECKF(trs_close(&got.local[j], &clip.local[j], 3e-7f), "%s follows Survey", name);
            moved += !trs_close(&clip.local[j], &m.rig->rest[j], 1e-4f);
        }
    }
    CHECK(moved >= 3); /* the test can see a difference */
    check_against_reference(&m, &desc, 1.7, "masked Survey");
    /* Two masked layers sharing a node with different mask values. */
    ossa_mix_mask legs = {.default_value = 0.2f, .entry_count = 1, .entries = entries};
    ossa_mix_layer two[2] = {{.clip = mix_model_clip(&m, "Walk")},
                             {.clip = mix_model_clip(&m, "Run"), .mask = &legs}};
    ossa_mix_desc desc2 = {.layer_count = 2, .layers = two};
    check_against_reference(&m, &desc2, 0.4, "Walk + masked Run");
    mix_pose_free(&got), mix_pose_free(&clip);
    mix_model_free(&m);
}

/* An additive layer whose clip equals its reference changes nothing; otherwise the formulas. */
static void test_additive(void) {
    const char *models[] = {"models/Fox/Fox.glb", "models/CesiumMan/glTF-Binary/CesiumMan.glb",
                            "models/BlenderAllAnimations/03_all_animations.gltf",
                            "models/AnimatedMorphCube/AnimatedMorphCube.gltf"};
    for (int i = 0; i < 4; i++) {
        mix_model m;
        if (mix_model_load(models[i], &m)) {
            CHECK(0);
            continue;
        }
        const ossa_clip *base = mix_model_clip_at(&m, 0);
        const ossa_clip *add = mix_model_clip_at(&m, m.clip_count - 1);
        float at = ossa_clip_start(add) + 0.37f * ossa_clip_duration(add);
        ossa_pose got = mix_pose_alloc(m.rig), plain = mix_pose_alloc(m.rig);
        double clock = ossa_clip_start(base) + 0.61 * ossa_clip_duration(base);
        ossa_clip_sample(m.rig, base, (float)clock, NULL, &plain);
        /* Held at its reference: a clip time equal to the reference time, or at its start. */
        ossa_mix_layer held[2][2] = {{{.clip = base},
                                      {.clip = add,
                                       .mode = OSSA_MIX_ADDITIVE,
                                       .speed = 0,
                                       .has_speed = 1,
                                       .offset = at,
                                       .reference = OSSA_MIX_REFERENCE_TIME,
                                       .reference_time = at}},
                                     {{.clip = base},
                                      {.clip = add,
                                       .mode = OSSA_MIX_ADDITIVE,
                                       .speed = 0,
                                       .has_speed = 1,
                                       .offset = ossa_clip_start(add) - 1,
                                       .wrap = OSSA_MIX_CLAMP}}};
        for (int h = 0; h < 2; h++) {
            ossa_mix_desc desc = {.layer_count = 2, .layers = held[h]};
            CHECK(mix_eval(m.rig, &desc, clock, &got) == OSSA_OK);
            int same = 1;
            for (uint32_t j = 0; j < m.rig->node_count; j++)
                same &= trs_close(&got.local[j], &plain.local[j], 1e-6f);
            for (uint32_t k = 0; k < m.rig->weight_total; k++)
                same &= fabsf(got.weights[k] - plain.weights[k]) <= 1e-6f;
            CHECKF(same, "%s: an additive layer at its reference (%s) changes nothing", models[i],
                   h ? "start" : "time");
        }
        /* Moving, against the three references, weights below and above 1, masked. */
        ossa_mix_mask_entry entry = {(uint32_t)m.rig->gltf_from_rig[m.rig->node_count - 1], 1};
        ossa_mix_mask mask = {.default_value = 0.3f, .entry_count = 1, .entries = &entry};
        ossa_mix_point w07 = {0, 0.7}, w15 = {0, 1.5};
        ossa_mix_layer moving[4] = {
            {.clip = base},
            {.clip = add, .mode = OSSA_MIX_ADDITIVE, .weight_count = 1, .weights = &w07},
            {.clip = add,
             .mode = OSSA_MIX_ADDITIVE,
             .reference = OSSA_MIX_REFERENCE_REST,
             .weight_count = 1,
             .weights = &w15,
             .mask = &mask,
             .offset = 0.2},
            {.clip = add,
             .mode = OSSA_MIX_ADDITIVE,
             .reference = OSSA_MIX_REFERENCE_TIME,
             .reference_time = at,
             .speed = 0.5,
             .has_speed = 1}};
        for (uint32_t n = 2; n <= 4; n++) {
            ossa_mix_desc desc = {.layer_count = n, .layers = moving};
            check_against_reference(&m, &desc, clock, models[i]);
            check_against_reference(&m, &desc, clock + 0.9, models[i]);
        }
        /* Additive layers apply after every normal layer wherever they are listed. */
        ossa_mix_layer reordered[2] = {moving[1], moving[0]};
        ossa_mix_desc a = {.layer_count = 2, .layers = moving},
                      b = {.layer_count = 2, .layers = reordered};
        ossa_pose other = mix_pose_alloc(m.rig);
        CHECK(mix_eval(m.rig, &a, clock, &got) == OSSA_OK);
        CHECK(mix_eval(m.rig, &b, clock, &other) == OSSA_OK);
        CHECK(!memcmp(got.local, other.local, m.rig->node_count * sizeof *got.local));
        mix_pose_free(&other);
        mix_pose_free(&got), mix_pose_free(&plain);
        mix_model_free(&m);
    }
}

/* q and -q inputs give the same result: a negated key in a later layer gives the very same
 * pose, in the first layer the same rotations negated. */
static void test_sign(void) {
    mix_model m;
    if (mix_model_synthetic(&m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *a = mix_model_clip(&m, "A"), *aneg = mix_model_clip(&m, "Aneg");
    const ossa_clip *b = mix_model_clip(&m, "B");
    int leg = rig_node(&m, "leg");
    ossa_pose p = mix_pose_alloc(m.rig), q = mix_pose_alloc(m.rig);
    ossa_clip_sample(m.rig, a, 0.3f, NULL, &p);
    ossa_clip_sample(m.rig, aneg, 0.3f, NULL, &q);
    for (int c = 0; c < 4; c++) /* the inputs really are q and -q */
        CHECK(p.local[leg].rotation[c] == -q.local[leg].rotation[c]);
    ossa_mix_point w1 = {0, 0.7}, w2 = {0, 0.45};
    for (int mode = 0; mode < 2; mode++) {
        ossa_mix_layer first[2] = {
            {.clip = b, .weight_count = 1, .weights = &w1},
            {.clip = a, .weight_count = 1, .weights = &w2, .mode = (ossa_mix_mode)mode}};
        ossa_mix_layer second[2] = {first[0], first[1]};
        second[1].clip = aneg;
        ossa_mix_desc d1 = {.layer_count = 2, .layers = first};
        ossa_mix_desc d2 = {.layer_count = 2, .layers = second};
        for (double t = 0; t < 1; t += 0.125) {
            CHECK(mix_eval(m.rig, &d1, t, &p) == OSSA_OK);
            CHECK(mix_eval(m.rig, &d2, t, &q) == OSSA_OK);
            CHECKF(!memcmp(p.local, q.local, m.rig->node_count * sizeof *p.local),
                   "%s layer with -q at %g", mode ? "additive" : "normal", t);
            check_against_reference(&m, &d1, t, "B + A");
        }
    }
    /* Negated in the first layer: the same rotation, negated (it seeds the accumulator). */
    ossa_mix_layer first[2] = {{.clip = a, .weight_count = 1, .weights = &w2},
                               {.clip = b, .weight_count = 1, .weights = &w1}};
    ossa_mix_layer second[2] = {{.clip = aneg, .weight_count = 1, .weights = &w2},
                                {.clip = b, .weight_count = 1, .weights = &w1}};
    ossa_mix_desc d1 = {.layer_count = 2, .layers = first},
                  d2 = {.layer_count = 2, .layers = second};
    for (double t = 0; t < 1; t += 0.125) {
        CHECK(mix_eval(m.rig, &d1, t, &p) == OSSA_OK);
        CHECK(mix_eval(m.rig, &d2, t, &q) == OSSA_OK);
        for (int c = 0; c < 4; c++)
            CHECK(p.local[leg].rotation[c] == -q.local[leg].rotation[c]);
        check_against_reference(&m, &d1, t, "A + B");
    }
    mix_pose_free(&p), mix_pose_free(&q);
    mix_model_free(&m);
}

/* The blending rules give the same bits on the portable and the AVX-512 path (where it runs):
 * three of Fox's clips as normal layers, masked at random, with weights whose sums fall below and
 * above the rest-pose threshold, then an additive layer, at many clocks. */
static void test_portable_equal(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m) || m.clip_count < 3) {
        CHECK(0);
        return;
    }
    const ossa_rig *rig = m.rig;
    ossa_pose layer = mix_pose_alloc(rig), fast = mix_pose_alloc(rig), slow = mix_pose_alloc(rig);
    float *mask = malloc(rig->node_count * sizeof *mask);
    float *sums = malloc(rig->node_count * sizeof *sums);
    float *sums2 = malloc(rig->node_count * sizeof *sums2);
    srand(7);
    int differ = 0, cases = 0;
    for (int round = 0; round < 200; round++) {
        for (uint32_t j = 0; j < rig->node_count; j++)
            mask[j] = (rand() % 4) ? (float)rand() / (float)RAND_MAX : 0.0f;
        float threshold = (float)rand() / (float)RAND_MAX;
        double weights[3] = {(double)rand() / RAND_MAX, (double)rand() / RAND_MAX * 0.5,
                             (double)rand() / RAND_MAX * 2.0};
        for (int path = 0; path < 2; path++) {
            ossa_mix_force_portable(path);
            ossa_pose *out = path ? &slow : &fast;
            float *s = path ? sums2 : sums;
            ossa_mix_blend_begin(rig, s, out);
            for (uint32_t k = 0; k < 3; k++) {
                const ossa_clip *clip = mix_model_clip_at(&m, k);
                ossa_clip_sample(rig, clip, 0.037f * (float)round + 0.3f * (float)k, NULL, &layer);
                ossa_mix_blend_normal(rig, &layer, weights[k], k == 1 ? mask : NULL, s, out);
            }
            ossa_mix_blend_finish(rig, threshold, s, out);
            /* an additive layer against the rest pose, masked */
            ossa_pose rest = {(ossa_trs *)rig->rest, (float *)rig->rest_weights};
            ossa_clip_sample(rig, mix_model_clip_at(&m, 2), 0.05f * (float)round, NULL, &layer);
            ossa_mix_blend_additive(rig, &layer, &rest, weights[1] * 1.5, mask, out);
        }
        ossa_mix_force_portable(0);
        cases++;
        differ += memcmp(fast.local, slow.local, rig->node_count * sizeof *fast.local) != 0 ||
                  memcmp(sums, sums2, rig->node_count * sizeof *sums) != 0;
    }
    CHECKF(differ == 0, "%d of %d blends differ between the portable and the AVX-512 path", differ,
           cases);
    free(mask), free(sums), free(sums2);
    mix_pose_free(&layer), mix_pose_free(&fast), mix_pose_free(&slow);
    mix_model_free(&m);
}

/* A cross-fade's two ends equal the plain clips (plain and synchronised). */
static void test_crossfade(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *walk = mix_model_clip(&m, "Walk"), *run = mix_model_clip(&m, "Run");
    ossa_mix_point out[2] = {{1, 1}, {2, 0}}, in[2] = {{1, 0}, {2, 1}};
    ossa_pose got = mix_pose_alloc(m.rig), want = mix_pose_alloc(m.rig);
    for (int synced = 0; synced < 2; synced++) {
        ossa_mix_layer layers[2] = {
            {.clip = walk, .weight_count = 2, .weights = out, .sync = synced ? "legs" : NULL},
            {.clip = run, .weight_count = 2, .weights = in, .sync = synced ? "legs" : NULL}};
        ossa_mix_desc desc = {.layer_count = 2, .layers = layers};
        ossa_mix *mix;
        CHECK(ossa_mix_create(m.rig, &desc, &mix, NULL) == OSSA_OK);
        double clocks[] = {0.2, 0.9, 1.0, 2.0, 2.4, 5.1};
        for (int i = 0; i < 6; i++) {
            double T = clocks[i];
            const ossa_clip *end = T <= 1 ? walk : run;
            double x = ossa_mix_layer_time(mix, T <= 1 ? 0 : 1, T);
            if (!synced || T <= 1) { /* before the fade a synced walk is plain looping */
                double d = ossa_clip_duration(end);
                CHECK_NEAR(x, T - d * floor(T / d), 1e-9);
            }
            CHECK(mix_eval(m.rig, &desc, T, &got) == OSSA_OK);
            ossa_clip_sample(m.rig, end, (float)x, NULL, &want);
            int same = 1;
            for (uint32_t j = 0; j < m.rig->node_count; j++)
                same &= trs_close(&got.local[j], &want.local[j], 3e-7f);
            CHECKF(same, "cross-fade (%s) at %g equals the plain clip", synced ? "synced" : "plain",
                   T);
            check_against_reference(&m, &desc, T, "cross-fade");
        }
        check_against_reference(&m, &desc, 1.37, "cross-fade middle");
        ossa_mix_free(mix);
    }
    mix_pose_free(&got), mix_pose_free(&want);
    mix_model_free(&m);
}

/* The phase of sync groups: closed form against the numeric reference, one-layer groups loop,
 * the phase holds while every weight is 0, zero-duration clips are refused. */
static void test_sync(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *survey = mix_model_clip(&m, "Survey"), *walk = mix_model_clip(&m, "Walk"),
                    *run = mix_model_clip(&m, "Run");
    ossa_mix_point wa[] = {{-1, 0.5}, {0.5, 1}, {1.0, 1}, {1.5, 0}, {3, 0}, {3.5, 2}};
    ossa_mix_point wb[] = {{1.0, 0}, {1.5, 1}, {2.0, 1e-9}, {2.2, 0}};
    ossa_mix_point wc[] = {{0, 0}, {4, 1}};
    ossa_mix_layer layers[4] = {
        {.clip = walk,
         .weight_count = 6,
         .weights = wa,
         .sync = "legs",
         .speed = 1.3,
         .has_speed = 1,
         .offset = 0.1},
        {.clip = run,
         .weight_count = 4,
         .weights = wb,
         .sync = "legs",
         .speed = 9,
         .has_speed = 1,
         .offset = 7,
         .wrap = OSSA_MIX_CLAMP}, /* ignored: not the first */
        {.clip = survey, .weight_count = 2, .weights = wc, .sync = "legs"},
        {.clip = survey, .sync = "alone", .speed = 0.7, .has_speed = 1, .offset = 0.4}};
    ossa_mix_desc desc = {.layer_count = 4, .layers = layers};
    ossa_mix *mix;
    CHECK(ossa_mix_create(m.rig, &desc, &mix, NULL) == OSSA_OK);
    double worst = 0;
    for (double T = -2.05; T < 6; T += 0.173) {
        for (uint32_t l = 0; l < 4; l++) {
            double d = ossa_clip_duration(layers[l].clip);
            double got = ossa_mix_layer_time(mix, l, T),
                   want = mix_reference_layer_time(&desc, l, T);
            double diff = fabs(got - want) / d; /* in cycles, modulo 1 */
            worst = fmax(worst, fmin(diff, 1 - diff));
        }
        /* A one-layer group is plain looping playback. */
        double x = 0.4 + 0.7 * T, d = ossa_clip_duration(survey);
        CHECK_NEAR(ossa_mix_layer_time(mix, 3, T), x - d * floor(x / d), 1e-9);
    }
    CHECKF(worst < 1e-9, "phase differs from the numeric integral by %g cycles", worst);
    check_against_reference(&m, &desc, 1.23, "synced");
    check_against_reference(&m, &desc, 3.21, "synced");
    /* Every weight of the group is 0 on [2.2, 3] but wc's, so use a group without it. */
    ossa_mix_desc two = {.layer_count = 2, .layers = layers};
    ossa_mix *mix2;
    CHECK(ossa_mix_create(m.rig, &two, &mix2, NULL) == OSSA_OK);
    CHECK(ossa_mix_layer_time(mix2, 0, 2.5) == ossa_mix_layer_time(mix2, 0, 2.9));
    CHECK(ossa_mix_layer_time(mix2, 1, 2.6) == ossa_mix_layer_time(mix2, 1, 2.95));
    CHECK(ossa_mix_layer_time(mix2, 0, 2.5) != ossa_mix_layer_time(mix2, 0, 3.2));
    /* The two layers keep the same phase. */
    for (double T = 0; T < 4; T += 0.31) {
        double p0 =
            (ossa_mix_layer_time(mix2, 0, T) - ossa_clip_start(walk)) / ossa_clip_duration(walk);
        double p1 =
            (ossa_mix_layer_time(mix2, 1, T) - ossa_clip_start(run)) / ossa_clip_duration(run);
        CHECK_NEAR(p0, p1, 1e-6);
    }
    ossa_mix_free(mix2);
    ossa_mix_free(mix);
    mix_model_free(&m);

    /* A clip of zero duration in a group is refused, with the layer's path. */
    if (mix_model_synthetic(&m)) {
        CHECK(0);
        return;
    }
    ossa_mix_layer still[2] = {{.clip = mix_model_clip(&m, "A"), .sync = "g"},
                               {.clip = mix_model_clip(&m, "Still"), .sync = "g"}};
    ossa_mix_desc sdesc = {.layer_count = 2, .layers = still};
    ossa_error error;
    CHECK(ossa_mix_create(m.rig, &sdesc, &mix, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(!strcmp(error.path, "layers[1].sync"));
    still[1].sync = NULL; /* unsynced, it samples its start */
    CHECK(ossa_mix_create(m.rig, &sdesc, &mix, &error) == OSSA_OK);
    CHECK(ossa_mix_layer_time(mix, 1, 3.3) == 0.5);
    ossa_mix_free(mix);
    mix_model_free(&m);
}

static void expect_refused(const ossa_rig *rig, const ossa_mix_desc *desc, const char *path) {
    ossa_mix *mix = (ossa_mix *)1;
    ossa_error error = {0};
    CHECKF(ossa_mix_create(rig, desc, &mix, &error) == OSSA_ERROR_ARGUMENT, "%s", path);
    CHECKF(mix == NULL && !strcmp(error.path, path), "path '%s', want '%s' (%s)", error.path, path,
           error.message);
}

static void test_refusals(void) {
    mix_model m;
    if (mix_model_synthetic(&m)) {
        CHECK(0);
        return;
    }
    const ossa_clip *a = mix_model_clip(&m, "A");
    ossa_mix_point bad_order[] = {{0, 1}, {0, 0}}, negative[] = {{0, 1}, {1, -0.5}},
                   huge[] = {{0, 1}, {1, 7.7e94}};
    ossa_mix_mask_entry out_of_range = {4, 1}, twice[] = {{2, 1}, {2, 0.5}}, neg = {1, -1};
    ossa_mix_mask m1 = {.entry_count = 1, .entries = &out_of_range};
    ossa_mix_mask m2 = {.entry_count = 2, .entries = twice};
    ossa_mix_mask m3 = {.entry_count = 1, .entries = &neg};
    ossa_mix_layer layers[2] = {{.clip = a}, {.clip = a}};
    ossa_mix_desc desc = {.layer_count = 2, .layers = layers};
    layers[1].clip = NULL;
    expect_refused(m.rig, &desc, "layers[1]");
    layers[1].clip = a;
    layers[1].weight_count = 2, layers[1].weights = bad_order;
    expect_refused(m.rig, &desc, "layers[1].weights[1]");
    layers[1].weights = negative;
    expect_refused(m.rig, &desc, "layers[1].weights[1]");
    layers[1].weights = huge; /* finite, but the float blend would overflow to NaN */
    expect_refused(m.rig, &desc, "layers[1].weights[1]");
    layers[1].weight_count = 0;
    layers[0].mask = &m1;
    expect_refused(m.rig, &desc, "layers[0].mask.entries[0]");
    layers[0].mask = &m2;
    expect_refused(m.rig, &desc, "layers[0].mask.entries[1]");
    layers[0].mask = &m3;
    expect_refused(m.rig, &desc, "layers[0].mask.entries[0]");
    layers[0].mask = NULL;
    layers[0].speed = NAN, layers[0].has_speed = 1;
    expect_refused(m.rig, &desc, "layers[0]");
    layers[0].has_speed = 0;
    desc.threshold = -1, desc.has_threshold = 1;
    expect_refused(m.rig, &desc, "threshold");
    desc.threshold = 2e6f;
    expect_refused(m.rig, &desc, "threshold");
    desc.has_threshold = 0;
    ossa_mix *mix;
    CHECK(ossa_mix_create(m.rig, &desc, &mix, NULL) == OSSA_OK);
    CHECK(ossa_mix_layer_count(mix) == 2);
    ossa_mix_free(mix);
    /* A mix without layers is the rest pose at threshold 0.1. */
    ossa_mix_desc empty = {0};
    ossa_pose pose = mix_pose_alloc(m.rig);
    CHECK(mix_eval(m.rig, &empty, 1, &pose) == OSSA_OK);
    for (uint32_t j = 0; j < m.rig->node_count; j++)
        CHECK(trs_close(&pose.local[j], &m.rig->rest[j], 2e-7f));
    mix_pose_free(&pose);
    mix_model_free(&m);
}

int main(void) {
    test_time_mapping();
    test_weight_curves();
    single_layer("models/Fox/Fox.glb");
    single_layer("models/CesiumMan/glTF-Binary/CesiumMan.glb");
    single_layer("models/BlenderAllAnimations/03_all_animations.gltf");
    single_layer("models/BlenderAnimatedCube/03_animated_cube.gltf");
    single_layer("models/AnimatedMorphCube/AnimatedMorphCube.gltf");
    test_threshold();
    test_mask();
    test_additive();
    test_sign();
    test_portable_equal();
    test_crossfade();
    test_sync();
    test_refusals();
    return ossa_test_finish("mix_rules");
}
