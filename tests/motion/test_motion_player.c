/* The player's root motion (motion.h): deltas taken over any frame sequence compose to the
 * accumulated motion (one clip: exactly the clip's own, across wraps, speeds, in reverse); a
 * cross-fade (plain and synced) reports what the stateless mix reports for the same steps and
 * stays close with uneven steps; taking less often gives the same total; apply keeps the root
 * in place; refusals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motion_test_util.h"
#include "test_support.h"

typedef struct player {
    void *memory;
    ossa_mix_player *p;
} player;

static void player_open(const motion_model *m, player *out) {
    size_t size = ossa_mix_player_size(m->model, NULL);
    out->memory = aligned_alloc(16, (size + 15) & ~(size_t)15);
    CHECK(ossa_mix_player_init(m->model, NULL, out->memory, size, &out->p, NULL) == OSSA_OK);
}

/* Advances by dt, taking the delta and composing it onto total. */
static void step(player *pl, double dt, ossa_motion *total) {
    ossa_motion delta;
    ossa_mix_player_advance(pl->p, dt);
    ossa_mix_player_take_motion(pl->p, &delta);
    ossa_motion_compose(total, &delta, total);
}

/* Uneven steps in (0, 0.1] s. */
static double uneven(int k) {
    return 0.004 + 0.09 * fabs(sin(k * 12.9898 + 1.7));
}

/* One clip played at speed v from clip time t0: the composed deltas equal
 * A(x0)^-1 * A(x) for the clip alone, over several loops. */
static void check_one_clip(const motion_model *m, const ossa_clip *clip,
                           const ossa_root_motion_desc *desc, double v, double t0) {
    player pl;
    player_open(m, &pl);
    ossa_mix_play_desc play = {0};
    play.has_speed = 1, play.speed = v, play.time = t0;
    CHECK(ossa_mix_player_play(pl.p, clip, &play, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_set_root_motion(pl.p, desc, NULL) == OSSA_OK);
    ossa_motion total, first, now, expected;
    ossa_motion_identity(&total);
    double start = ossa_clip_start(clip), clock = 0, worst = 0;
    ossa_root_motion_clip(m->rig, desc, clip, start + t0, OSSA_MIX_LOOP, &first, NULL);
    ossa_motion_inverse(&first, &first);
    for (int k = 0; clock < 4 * ossa_clip_duration(clip) / fabs(v); k++) {
        double dt = uneven(k);
        step(&pl, dt, &total);
        clock += dt;
        ossa_root_motion_clip(m->rig, desc, clip, start + t0 + v * clock, OSSA_MIX_LOOP, &now,
                              NULL);
        ossa_motion_compose(&first, &now, &expected);
        worst = fmax(worst, motion_distance(&total, &expected));
    }
    CHECKF(worst < 1e-5, "one clip at speed %g: composed deltas %g off", v, worst);
    free(pl.memory);
}

/* A cross-fade from clip a to clip b at clock t1 over fade seconds (synced or not), by the
 * player with the given steps and by the stateless mix with a step h. */
static void player_fade(const motion_model *m, const ossa_clip *a, const ossa_clip *b,
                        const ossa_root_motion_desc *desc, int synced, double t1, double fade,
                        double end, double h, int even, ossa_motion *total) {
    player pl;
    player_open(m, &pl);
    ossa_mix_play_desc play = {0};
    play.sync = synced ? 1 : 0;
    CHECK(ossa_mix_player_play(pl.p, a, &play, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_set_root_motion(pl.p, desc, NULL) == OSSA_OK);
    ossa_motion_identity(total);
    double clock = 0;
    int k = 0, played = 0;
    while (clock < end - 1e-12) {
        double next = even ? h : uneven(k++);
        if (!played && clock + next > t1) next = t1 - clock; /* the fade starts on a frame */
        if (clock + next > end) next = end - clock;
        if (next > 0) step(&pl, next, total);
        clock += next;
        if (!played && fabs(clock - t1) < 1e-12) {
            play.fade = fade;
            CHECK(ossa_mix_player_play(pl.p, b, &play, NULL) == OSSA_OK);
            played = 1;
        }
    }
    free(pl.memory);
}

static void mix_fade(const motion_model *m, const ossa_clip *a, const ossa_clip *b,
                     const ossa_root_motion_desc *desc, int synced, double t1, double fade,
                     double end, double h, ossa_motion *total) {
    ossa_mix_point wa[2] = {{t1, 1}, {t1 + fade, 0}}, wb[2] = {{t1, 0}, {t1 + fade, 1}};
    ossa_mix_layer layers[2] = {{0}, {0}};
    layers[0].clip = a, layers[0].weights = wa, layers[0].weight_count = 2;
    layers[1].clip = b, layers[1].weights = wb, layers[1].weight_count = 2;
    layers[1].offset = ossa_clip_start(b) - t1; /* clip start at t1, as the player plays it */
    if (synced) layers[0].sync = layers[1].sync = "legs";
    ossa_mix_desc desc_mix = {0};
    desc_mix.layers = layers, desc_mix.layer_count = 2;
    ossa_mix *mix = NULL;
    CHECK(ossa_mix_create(m->rig, &desc_mix, &mix, NULL) == OSSA_OK);
    CHECK(ossa_mix_root_motion(mix, desc, end, h, total, NULL) == OSSA_OK);
    ossa_mix_free(mix);
}

static void check_fade(const motion_model *m, const ossa_clip *a, const ossa_clip *b,
                       const ossa_root_motion_desc *desc, int synced) {
    double t1 = 0.5, fade = 0.4, end = 3.1, h = 1.0 / 60;
    ossa_motion by_player, by_mix, uneven_player, coarse_mix;
    player_fade(m, a, b, desc, synced, t1, fade, end, h, 1, &by_player);
    mix_fade(m, a, b, desc, synced, t1, fade, end, h, &by_mix);
    double d = motion_distance(&by_player, &by_mix);
    CHECKF(d < 1e-5, "%s cross-fade: player and mix differ by %g with the same steps",
           synced ? "synced" : "plain", d);
    /* Uneven frames: the same motion outside the fade, the fade's mix sampled differently. */
    player_fade(m, a, b, desc, synced, t1, fade, end, h, 0, &uneven_player);
    mix_fade(m, a, b, desc, synced, t1, fade, end, fade / 2, &coarse_mix);
    double travel = 0;
    for (int c = 0; c < 3; c++)
        travel += by_mix.translation[c] * by_mix.translation[c];
    double du = motion_distance(&uneven_player, &by_mix),
           dc = motion_distance(&coarse_mix, &by_mix);
    printf("%s cross-fade: travel %.4g, uneven frames %.3g off, steps of %.2g s %.3g off\n",
           synced ? "synced" : "plain", sqrt(travel), du, fade / 2, dc);
    CHECKF(du < 0.05 * (1 + sqrt(travel)), "uneven frames: %g", du);
    CHECK(d < du + 1e-5 || du < 1e-5); /* different steps differ (the fade's mix is sampled) */
}

/* Taking every frame or every fourth frame gives the same total. */
static void check_take_rarely(const motion_model *m, const ossa_clip *clip,
                              const ossa_root_motion_desc *desc) {
    player a, b;
    player_open(m, &a), player_open(m, &b);
    ossa_mix_play_desc play = {0};
    ossa_mix_play_desc walk_fade = {0};
    walk_fade.fade = 0.3;
    for (int i = 0; i < 2; i++) {
        ossa_mix_player *p = i ? b.p : a.p;
        CHECK(ossa_mix_player_play(p, clip, &play, NULL) == OSSA_OK);
        CHECK(ossa_mix_player_set_root_motion(p, desc, NULL) == OSSA_OK);
    }
    ossa_motion ta, tb, delta;
    ossa_motion_identity(&ta), ossa_motion_identity(&tb);
    for (int k = 0; k < 80; k++) {
        if (k == 20) { /* a cross-fade to the same clip */
            CHECK(ossa_mix_player_play(a.p, clip, &walk_fade, NULL) == OSSA_OK);
            CHECK(ossa_mix_player_play(b.p, clip, &walk_fade, NULL) == OSSA_OK);
        }
        step(&a, uneven(k), &ta);
        ossa_mix_player_advance(b.p, uneven(k));
        if (k % 4 == 3 || k == 79) {
            ossa_mix_player_take_motion(b.p, &delta);
            ossa_motion_compose(&tb, &delta, &tb);
        }
    }
    CHECKF(motion_distance(&ta, &tb) < 1e-6, "taken rarely: %g", motion_distance(&ta, &tb));
    ossa_mix_player_take_motion(b.p, &delta); /* nothing pending */
    ossa_motion identity;
    ossa_motion_identity(&identity);
    CHECK(motion_distance(&delta, &identity) == 0);
    free(a.memory), free(b.memory);
}

/* apply writes the in-place root: the split of what the player without root motion writes. */
static void check_apply(motion_model *m, const ossa_clip *clip, const ossa_root_motion_desc *desc) {
    player a, b;
    player_open(m, &a), player_open(m, &b);
    CHECK(ossa_mix_player_play(a.p, clip, NULL, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_play(b.p, clip, NULL, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_set_root_motion(b.p, desc, NULL) == OSSA_OK);
    ossa_character *other = NULL;
    CHECK(ossa_character_create(m->model, &other, NULL) == OSSA_OK);
    for (int k = 0; k < 10; k++) {
        ossa_mix_player_advance(a.p, 0.137), ossa_mix_player_advance(b.p, 0.137);
        CHECK(ossa_mix_player_apply(a.p, m->character, NULL) == OSSA_OK);
        CHECK(ossa_mix_player_apply(b.p, other, NULL) == OSSA_OK);
        ossa_trs in_place;
        ossa_root_motion_split(desc, &ossa_character_pose(m->character)->local[desc->node], NULL,
                               &in_place, NULL);
        CHECK(trs_distance(&in_place, &ossa_character_pose(other)->local[desc->node]) < 1e-6);
    }
    /* off again: the mixed root as it is, and no motion */
    CHECK(ossa_mix_player_set_root_motion(b.p, NULL, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_apply(b.p, other, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_apply(a.p, m->character, NULL) == OSSA_OK);
    CHECK(trs_distance(&ossa_character_pose(m->character)->local[desc->node],
                       &ossa_character_pose(other)->local[desc->node]) == 0);
    ossa_character_free(other);
    free(a.memory), free(b.memory);
}

static void check_refusals(const motion_model *m, const ossa_clip *clip) {
    player pl;
    player_open(m, &pl);
    ossa_error error;
    ossa_root_motion_desc bad = {0};
    bad.node = (int32_t)m->rig->node_count;
    CHECK(ossa_mix_player_set_root_motion(pl.p, &bad, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(!strcmp(error.path, "node") && strstr(error.message, "not a rig node"));
    bad.node = -1;
    CHECK(ossa_root_motion_check(m->rig, &bad, &error) == OSSA_ERROR_ARGUMENT);
    bad.node = 0, bad.up[0] = NAN;
    CHECK(ossa_root_motion_check(m->rig, &bad, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(!strcmp(error.path, "up"));
    bad.up[0] = bad.up[1] = 0, bad.mode = (ossa_root_motion_mode)7;
    CHECK(ossa_root_motion_check(m->rig, &bad, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(!strcmp(error.path, "mode"));
    CHECK(ossa_root_motion_check(m->rig, NULL, &error) == OSSA_ERROR_ARGUMENT);
    ossa_root_motion_desc good = {0};
    ossa_motion out;
    CHECK(ossa_root_motion_clip(m->rig, &good, clip, NAN, OSSA_MIX_LOOP, &out, &error) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(strstr(error.message, "finite") != NULL);
    CHECK(ossa_root_motion_clip(m->rig, &good, NULL, 0, OSSA_MIX_LOOP, &out, &error) ==
          OSSA_ERROR_ARGUMENT);
    ossa_mix_layer layer = {0};
    layer.clip = clip;
    ossa_mix_desc desc = {0};
    desc.layers = &layer, desc.layer_count = 1;
    ossa_mix *mix = NULL;
    CHECK(ossa_mix_create(m->rig, &desc, &mix, NULL) == OSSA_OK);
    CHECK(ossa_mix_root_motion(mix, &good, INFINITY, 0, &out, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_root_motion(mix, &good, 1, -0.1, &out, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_root_motion(mix, &good, 1e300, 0, &out, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(strstr(error.message, "1e8 steps") != NULL);
    CHECK(ossa_mix_root_motion(mix, &good, 1, 1e-300, &out, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(strstr(error.message, "step") != NULL);
    CHECK(ossa_mix_root_motion(mix, &bad, 1, 0, &out, &error) == OSSA_ERROR_ARGUMENT);
    /* negative clocks: the inverse of the motion from the clock to 0 */
    ossa_motion back, forward, expected;
    CHECK(ossa_mix_root_motion(mix, &good, -1.3, 0, &back, NULL) == OSSA_OK);
    ossa_root_motion_clip(m->rig, &good, clip, -1.3, OSSA_MIX_LOOP, &forward, NULL);
    ossa_root_motion_clip(m->rig, &good, clip, 0, OSSA_MIX_LOOP, &expected, NULL);
    ossa_motion_inverse(&expected, &expected);
    ossa_motion_compose(&expected, &forward, &expected);
    CHECKF(motion_distance(&back, &expected) < 1e-6, "clock -1.3: %g",
           motion_distance(&back, &expected));
    /* a one-clip mix far from 0: one delta, the clip's own accumulated motion */
    ossa_motion far_mix, far_clip;
    CHECK(ossa_mix_root_motion(mix, &good, 1000.3, 0, &far_mix, NULL) == OSSA_OK);
    ossa_root_motion_clip(m->rig, &good, clip, 1000.3, OSSA_MIX_LOOP, &far_clip, NULL);
    CHECK(ossa_root_motion_clip(m->rig, &good, clip, 0, OSSA_MIX_LOOP, &expected, NULL) == OSSA_OK);
    ossa_motion_inverse(&expected, &expected);
    ossa_motion_compose(&expected, &far_clip, &expected);
    CHECKF(motion_distance(&far_mix, &expected) < 1e-6, "clock 1000.3: %g",
           motion_distance(&far_mix, &expected));
    ossa_mix_free(mix);
    /* a state unchanged by a refusal: root motion stays off */
    ossa_mix_player_take_motion(pl.p, &out);
    CHECK(out.rotation[3] == 1 && out.translation[0] == 0);
    free(pl.memory);
}

/* A synced group whose weight curve reaches 1.51e308 s: its integral overflows and the layers'
 * positions are not numbers from then on. Root motion stays finite (found by fuzz_mix). */
static void check_extreme_sync(const motion_model *m, const ossa_clip *a, const ossa_clip *b,
                               const ossa_root_motion_desc *desc) {
    ossa_mix_point wa[3] = {{0, 0}, {1, 1}, {1.5, 0}}, wb[2] = {{1, 0}, {1.51e308, 1}};
    ossa_mix_layer layers[2] = {{0}, {0}};
    layers[0].clip = a, layers[0].weights = wa, layers[0].weight_count = 3;
    layers[1].clip = b, layers[1].weights = wb, layers[1].weight_count = 2;
    layers[0].sync = layers[1].sync = "legs";
    ossa_mix_desc mix_desc = {0};
    mix_desc.layers = layers, mix_desc.layer_count = 2;
    ossa_mix *mix = NULL;
    CHECK(ossa_mix_create(m->rig, &mix_desc, &mix, NULL) == OSSA_OK);
    static const double clocks[] = {0.5, 1.25, 2, 7.5};
    for (int i = 0; i < 4; i++) {
        ossa_motion out;
        CHECK(ossa_mix_root_motion(mix, desc, clocks[i], 0, &out, NULL) == OSSA_OK);
        int finite = 1;
        for (int c = 0; c < 3; c++)
            finite &= isfinite(out.translation[c]);
        for (int c = 0; c < 4; c++)
            finite &= isfinite(out.rotation[c]);
        CHECKF(finite, "clock %g: (%g %g %g | %g %g %g %g)", clocks[i], out.translation[0],
               out.translation[1], out.translation[2], out.rotation[0], out.rotation[1],
               out.rotation[2], out.rotation[3]);
    }
    ossa_mix_free(mix);
}

int main(void) {
    motion_model fox, cesium;
    CHECK(motion_model_load("models/Fox/Fox.glb", &fox) == 0);
    CHECK(motion_model_load("models/CesiumMan/glTF-Binary/CesiumMan.glb", &cesium) == 0);
    if (!fox.model || !cesium.model) return ossa_test_finish("motion_player");
    ossa_root_motion_desc fox_root = motion_root_desc(&fox, "b_Hip_01");
    ossa_root_motion_desc man_root = motion_root_desc(&cesium, "Skeleton_torso_joint_1");
    const ossa_clip *walk = ossa_model_clip(fox.model, 1), *run = ossa_model_clip(fox.model, 2);
    const ossa_clip *man = ossa_model_clip(cesium.model, 0);
    check_one_clip(&fox, walk, &fox_root, 1, 0);
    check_one_clip(&fox, run, &fox_root, 1.7, 0.3);
    check_one_clip(&fox, walk, &fox_root, -0.8, 0.1); /* backwards */
    check_one_clip(&cesium, man, &man_root, 1, 0);
    man_root.mode = OSSA_ROOT_MOTION_FULL;
    check_one_clip(&cesium, man, &man_root, 1.3, 0.5);
    man_root.mode = OSSA_ROOT_MOTION_GROUND;
    check_fade(&fox, walk, run, &fox_root, 0);
    check_extreme_sync(&fox, walk, run, &fox_root);
    check_fade(&fox, walk, run, &fox_root, 1);
    check_take_rarely(&fox, walk, &fox_root);
    check_apply(&cesium, man, &man_root);
    check_refusals(&fox, walk);
    motion_model_free(&fox);
    motion_model_free(&cesium);
    return ossa_test_finish("motion_player");
}
