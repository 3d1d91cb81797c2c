/* The stateful player on a character: one clip plays like sampling, cross-fades (plain, synced,
 * with an additive layer) match the stateless mix of the same weight curves, a long run of
 * random cross-fades in a sync group never makes the phase jump, stop fades to the rest pose,
 * and misuse is refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mix_fixture.h"
#include "ossa/motion.h"
#include "test_support.h"

typedef struct rig_player {
    void *memory;
    ossa_mix_player *player;
    ossa_character *character;
} rig_player;

static int player_open(const mix_model *m, rig_player *rp) {
    memset(rp, 0, sizeof *rp);
    size_t size = ossa_mix_player_size(m->model, NULL);
    rp->memory = aligned_alloc(16, (size + 15) & ~(size_t)15);
    ossa_error error;
    if (ossa_mix_player_init(m->model, NULL, rp->memory, size, &rp->player, &error) ||
        ossa_character_create(m->model, &rp->character, &error)) {
        fprintf(stderr, "player: %s\n", error.message);
        return 1;
    }
    return 0;
}

static void player_close(rig_player *rp) {
    ossa_character_free(rp->character);
    free(rp->memory);
}

/* The player's pose against the stateless mix of desc at the player's clock. */
static double distance_to_mix(const mix_model *m, rig_player *rp, const ossa_mix_desc *desc) {
    CHECK(ossa_mix_player_apply(rp->player, rp->character, NULL) == OSSA_OK);
    ossa_pose want = mix_pose_alloc(m->rig);
    CHECK(mix_eval(m->rig, desc, ossa_mix_player_clock(rp->player), &want) == OSSA_OK);
    double d = mix_pose_distance(m->rig, ossa_character_pose(rp->character), &want);
    mix_pose_free(&want);
    return d;
}

static void test_single_clip(const mix_model *m) {
    rig_player rp;
    if (player_open(m, &rp)) {
        CHECK(0);
        return;
    }
    const ossa_clip *walk = mix_model_clip(m, "Walk");
    CHECK(ossa_mix_player_play(rp.player, walk, NULL, NULL) == OSSA_OK);
    ossa_mix_layer layer = {.clip = walk};
    ossa_mix_desc desc = {.layer_count = 1, .layers = &layer};
    double worst = 0;
    for (int f = 0; f < 120; f++) {
        worst = fmax(worst, distance_to_mix(m, &rp, &desc));
        ossa_mix_player_advance(rp.player, 1.0 / 60);
    }
    CHECKF(worst < 1e-5, "one clip: %g from the mix", worst);
    CHECK(ossa_mix_player_layer_count(rp.player) == 1);
    CHECK_NEAR(ossa_mix_player_clock(rp.player), 2.0, 1e-12);
    player_close(&rp);
}

/* Walk from 0 at speed 1.3, then at clock c a cross-fade to Run (speed 0.8, which a sync group
 * ignores) over 0.51 s (its end falls inside a frame; optionally synced), with
 * Survey added on top at weight 0.5 from the start. */
static void test_crossfade(const mix_model *m, int synced, int additive) {
    rig_player rp;
    if (player_open(m, &rp)) {
        CHECK(0);
        return;
    }
    const ossa_clip *walk = mix_model_clip(m, "Walk"), *run = mix_model_clip(m, "Run");
    const ossa_clip *survey = mix_model_clip(m, "Survey");
    uint32_t sync = synced ? 7 : 0;
    ossa_mix_play_desc walk_desc = {.sync = sync, .speed = 1.3, .has_speed = 1};
    CHECK(ossa_mix_player_play(rp.player, walk, &walk_desc, NULL) == OSSA_OK);
    ossa_mix_play_desc add = {.mode = OSSA_MIX_ADDITIVE, .weight = 0.5, .has_weight = 1};
    if (additive) CHECK(ossa_mix_player_play(rp.player, survey, &add, NULL) == OSSA_OK);
    for (int f = 0; f < 50; f++)
        ossa_mix_player_advance(rp.player, 1.0 / 60);
    double c = ossa_mix_player_clock(rp.player);
    ossa_mix_play_desc run_desc = {.fade = 0.51, .sync = sync, .speed = 0.8, .has_speed = 1};
    CHECK(ossa_mix_player_play(rp.player, run, &run_desc, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_layer_count(rp.player) == 2u + (additive ? 1u : 0u));

    ossa_mix_point out[2] = {{c, 1}, {c + 0.51, 0}}, in[2] = {{c, 0}, {c + 0.51, 1}};
    ossa_mix_point half = {0, 0.5};
    const char *group = synced ? "g" : NULL;
    ossa_mix_layer layers[3] = {
        {.clip = walk,
         .weight_count = 2,
         .weights = out,
         .sync = group,
         .speed = 1.3,
         .has_speed = 1},
        {.clip = run,
         .weight_count = 2,
         .weights = in,
         .offset = -0.8 * c,
         .sync = group,
         .speed = 0.8,
         .has_speed = 1},
        {.clip = survey, .mode = OSSA_MIX_ADDITIVE, .weight_count = 1, .weights = &half}};
    ossa_mix_desc desc = {.layer_count = additive ? 3 : 2, .layers = layers};
    ossa_mix *mix;
    CHECK(ossa_mix_create(m->rig, &desc, &mix, NULL) == OSSA_OK);
    double worst = 0, worst_time = 0;
    for (int f = 0; f < 100; f++) {
        worst = fmax(worst, distance_to_mix(m, &rp, &desc));
        double clock = ossa_mix_player_clock(rp.player);
        for (uint32_t l = 0; l < ossa_mix_player_layer_count(rp.player); l++) {
            const ossa_clip *clip = ossa_mix_player_layer_clip(rp.player, l);
            uint32_t k = clip == walk ? 0 : clip == run ? 1 : 2;
            double d =
                fabs(ossa_mix_player_layer_time(rp.player, l) - ossa_mix_layer_time(mix, k, clock));
            d /= ossa_clip_duration(clip);
            worst_time = fmax(worst_time, fmin(d, 1 - d)); /* cycles, modulo 1 */
        }
        ossa_mix_player_advance(rp.player, 1.0 / 60);
    }
    CHECKF(worst < 2e-5, "cross-fade (synced %d, additive %d): %g from the mix", synced, additive,
           worst);
    CHECKF(worst_time < 1e-9, "cross-fade (synced %d): clip times %g cycles from the mix", synced,
           worst_time);
    /* The fade is over: Walk is gone, Run (and Survey) play on. */
    CHECK(ossa_mix_player_layer_count(rp.player) == 1u + (additive ? 1u : 0u));
    int has_run = 0;
    for (uint32_t l = 0; l < ossa_mix_player_layer_count(rp.player); l++)
        has_run |= ossa_mix_player_layer_clip(rp.player, l) == run;
    CHECK(has_run);
    ossa_mix_free(mix);
    player_close(&rp);
}

static uint32_t rng = 12345;
static double uniform(void) {
    rng = rng * 1664525u + 1013904223u;
    return (rng >> 8) / 16777216.0;
}

/* Random cross-fades in one sync group over 60 s: the group's phase advances every frame by
 * between dt / max D and dt / min D (some weight is always positive), never more or less. */
static void test_no_jump(const mix_model *m) {
    rig_player rp;
    if (player_open(m, &rp)) {
        CHECK(0);
        return;
    }
    double dmin = INFINITY, dmax = 0;
    for (uint32_t k = 0; k < m->clip_count; k++) {
        dmin = fmin(dmin, ossa_clip_duration(mix_model_clip_at(m, k)));
        dmax = fmax(dmax, ossa_clip_duration(mix_model_clip_at(m, k)));
    }
    const double dt = 1.0 / 60;
    int bad = 0, plays = 0;
    for (int f = 0; f < 3600; f++) {
        if (f % 37 == 0 && ossa_mix_player_layer_count(rp.player) < 7) {
            ossa_mix_play_desc desc = {.fade = 1.5 * uniform(), .sync = 1};
            uint32_t k = (uint32_t)(uniform() * m->clip_count) % m->clip_count;
            CHECK(ossa_mix_player_play(rp.player, mix_model_clip_at(m, k), &desc, NULL) == OSSA_OK);
            plays++;
        }
        const ossa_clip *clip = ossa_mix_player_layer_clip(rp.player, 0);
        double before = (ossa_mix_player_layer_time(rp.player, 0) - ossa_clip_start(clip)) /
                        ossa_clip_duration(clip);
        ossa_mix_player_advance(rp.player, dt);
        clip = ossa_mix_player_layer_clip(rp.player, 0);
        double after = (ossa_mix_player_layer_time(rp.player, 0) - ossa_clip_start(clip)) /
                       ossa_clip_duration(clip);
        double step = after - before;
        step -= floor(step);
        if (step > 1 - 1e-9) step -= 1;
        int ok = step >= dt / dmax * (1 - 1e-9) && step <= dt / dmin * (1 + 1e-9);
        if (!ok && bad++ < 5)
            fprintf(stderr, "frame %d: phase step %g outside [%g, %g]\n", f, step, dt / dmax,
                    dt / dmin);
    }
    CHECKF(bad == 0, "%d frames jumped", bad);
    CHECK(plays > 50);
    player_close(&rp);
}

static void test_stop_and_refusals(const mix_model *m) {
    rig_player rp;
    if (player_open(m, &rp)) {
        CHECK(0);
        return;
    }
    const ossa_clip *walk = mix_model_clip(m, "Walk");
    CHECK(ossa_mix_player_play(rp.player, walk, NULL, NULL) == OSSA_OK);
    ossa_mix_player_advance(rp.player, 0.3);
    ossa_mix_player_stop(rp.player, 0.2);
    ossa_mix_player_advance(rp.player, 0.1);
    CHECK_NEAR(ossa_mix_player_layer_weight(rp.player, 0), 0.5, 1e-12);
    ossa_mix_player_advance(rp.player, 0.1);
    CHECK(ossa_mix_player_layer_count(rp.player) == 0);
    CHECK(ossa_mix_player_apply(rp.player, rp.character, NULL) == OSSA_OK);
    const ossa_pose *pose = ossa_character_pose(rp.character);
    int rest = 1;
    for (uint32_t j = 0; j < m->rig->node_count; j++)
        for (int c = 0; c < 4; c++)
            rest &= fabsf(pose->local[j].rotation[c] - m->rig->rest[j].rotation[c]) < 3e-7f;
    CHECK(rest);

    /* Full: additive layers do not fade the others out, so they fill the player. */
    ossa_mix_play_desc add = {.mode = OSSA_MIX_ADDITIVE};
    for (int i = 0; i < 8; i++)
        CHECK(ossa_mix_player_play(rp.player, walk, &add, NULL) == OSSA_OK);
    ossa_error error;
    CHECK(ossa_mix_player_play(rp.player, walk, &add, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(strstr(error.message, "in use") != NULL);
    /* A normal layer with a cut fades nothing (the others are additive): still full. */
    CHECK(ossa_mix_player_play(rp.player, walk, NULL, NULL) == OSSA_ERROR_ARGUMENT);
    ossa_mix_player_stop(rp.player, 0);
    CHECK(ossa_mix_player_layer_count(rp.player) == 0);
    ossa_mix_play_desc bad = {.weight = -1, .has_weight = 1};
    CHECK(ossa_mix_player_play(rp.player, walk, &bad, NULL) == OSSA_ERROR_ARGUMENT);
    bad.weight = 2 * OSSA_MIX_MAX_WEIGHT;
    CHECK(ossa_mix_player_play(rp.player, walk, &bad, NULL) == OSSA_ERROR_ARGUMENT);
    bad = (ossa_mix_play_desc){.fade = NAN};
    CHECK(ossa_mix_player_play(rp.player, walk, &bad, NULL) == OSSA_ERROR_ARGUMENT);

    /* Another model's clip and character; too little memory; zero duration in a group. */
    mix_model syn;
    if (mix_model_synthetic(&syn)) {
        CHECK(0);
        player_close(&rp);
        return;
    }
    CHECK(ossa_mix_player_play(rp.player, mix_model_clip(&syn, "A"), NULL, &error) ==
          OSSA_ERROR_ARGUMENT);
    ossa_character *other;
    CHECK(ossa_character_create(syn.model, &other, NULL) == OSSA_OK);
    CHECK(ossa_mix_player_apply(rp.player, other, &error) == OSSA_ERROR_ARGUMENT);
    ossa_character_free(other);
    /* NULL players and characters are refused or ignored, never followed */
    CHECK(ossa_mix_player_play(NULL, walk, NULL, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_player_apply(NULL, rp.character, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_player_apply(rp.player, NULL, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_player_set_root_motion(NULL, NULL, &error) == OSSA_ERROR_ARGUMENT);
    ossa_mix_player_advance(NULL, 0.1);
    ossa_mix_player_stop(NULL, 0.1);
    double clock_before = ossa_mix_player_clock(rp.player);
    ossa_mix_player_advance(rp.player, INFINITY); /* counts as 0, as NaN does */
    ossa_mix_player_advance(rp.player, NAN);
    CHECK(ossa_mix_player_clock(rp.player) == clock_before);
    ossa_mix_player *player;
    size_t size = ossa_mix_player_size(syn.model, NULL);
    CHECK(ossa_mix_player_init(syn.model, NULL, rp.memory, size - 1, &player, &error) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_player_init(syn.model, NULL, (char *)rp.memory + 8, size, &player, &error) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_player_init(syn.model, NULL, rp.memory, size, &player, &error) == OSSA_OK);
    ossa_mix_play_desc synced = {.sync = 3};
    CHECK(ossa_mix_player_play(player, mix_model_clip(&syn, "Still"), &synced, &error) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_player_play(player, mix_model_clip(&syn, "Still"), NULL, &error) == OSSA_OK);
    mix_model_free(&syn);
    ossa_character_free(rp.character);
    free(rp.memory);
}

int main(void) {
    mix_model fox;
    if (mix_model_load("models/Fox/Fox.glb", &fox)) return 1;
    test_single_clip(&fox);
    for (int synced = 0; synced < 2; synced++)
        for (int additive = 0; additive < 2; additive++)
            test_crossfade(&fox, synced, additive);
    test_no_jump(&fox);
    test_stop_and_refusals(&fox);
    mix_model_free(&fox);
    return ossa_test_finish("mix_player");
}
