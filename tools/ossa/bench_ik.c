/* IK benchmark (bench_ik.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_report.h"
#include "bench_ik.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_clock.h"
#include "ossa/ik.h"
#include "ossa/model.h"

#define TARGETS 64

/* The joints of a rig the benchmark knows. */
typedef struct known_rig {
    const char *leg[3];   /* start, middle, end */
    const char *chain[4]; /* root-most first, the head last; NULL-padded */
    float chain_weights[4];
} known_rig;

static const known_rig KNOWN[] = {
    {{"b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017"},
     {"b_Spine01_02", "b_Spine02_03", "b_Neck_04", "b_Head_05"},
     {0.3f, 0.4f, 0.5f, 1.0f}},
    {{"leg_joint_L_1", "leg_joint_L_2", "leg_joint_L_3"},
     {"torso_joint_3", "Skeleton_neck_joint_1", "Skeleton_neck_joint_2", NULL},
     {0.4f, 0.6f, 1.0f, 0.0f}}};

/* What one timed call runs. */
typedef struct ik_case {
    ossa_character *character;
    int kind; /* 0 two-bone, 1 aim, 2 aim chain */
    ossa_ik_two_bone_job two_bone;
    ossa_ik_aim_job aim;
    ossa_ik_aim_chain_job chain;
    float targets[TARGETS][3];
} ik_case;

static void run_call(ik_case *c, int i) {
    const float *t = c->targets[i % TARGETS];
    if (c->kind == 0) {
        memcpy(c->two_bone.target, t, sizeof c->two_bone.target);
        ossa_ik_two_bone(c->character, &c->two_bone, NULL);
    } else if (c->kind == 1) {
        memcpy(c->aim.target, t, sizeof c->aim.target);
        ossa_ik_aim(c->character, &c->aim, NULL);
    } else {
        memcpy(c->chain.target, t, sizeof c->chain.target);
        ossa_ik_aim_chain(c->character, &c->chain, NULL);
    }
}

/* Fastest ns per call over the slices. */
static void call_case(void *context, long i) {
    run_call(context, (int)i);
}

static double measure(ik_case *c, double seconds) {
    return bench_fastest_ns_per_call(call_case, c, seconds);
}

/* Targets around a node: directions spread over a sphere, at 0.8 x `radius`. */
static void spread_targets(const ossa_character *character, int32_t node, double radius,
                           float targets[TARGETS][3]) {
    const float *m = ossa_character_world(character) + 12 * node;
    for (int i = 0; i < TARGETS; i++) {
        double z = 1.0 - (2.0 * i + 1.0) / TARGETS, r = sqrt(1.0 - z * z), a = 2.39996 * i;
        targets[i][0] = (float)(m[3] + 0.8 * radius * r * cos(a));
        targets[i][1] = (float)(m[7] + 0.8 * radius * r * sin(a));
        targets[i][2] = (float)(m[11] + 0.8 * radius * z);
    }
}

static double distance(const ossa_character *character, int32_t a, int32_t b) {
    const float *p = ossa_character_world(character) + 12 * a;
    const float *q = ossa_character_world(character) + 12 * b;
    double dx = p[3] - q[3], dy = p[7] - q[7], dz = p[11] - q[11];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The benchmark's jobs on a known rig; 0 when one of its joints is missing. */
static int setup(const ossa_model *model, ossa_character *character, const known_rig *k,
                 ik_case cases[BENCH_IK_JOBS], int32_t chain_nodes[4]) {
    int32_t leg[3];
    for (int j = 0; j < 3; j++)
        if ((leg[j] = ossa_model_find_node(model, k->leg[j])) < 0) return 0;
    uint32_t count = 0;
    for (; count < 4 && k->chain[count]; count++)
        if ((chain_nodes[count] = ossa_model_find_node(model, k->chain[count])) < 0) return 0;
    int32_t head = chain_nodes[count - 1];
    double reach = distance(character, leg[0], leg[1]) + distance(character, leg[1], leg[2]);
    double neck = distance(character, chain_nodes[0], head);
    for (int kind = 0; kind < BENCH_IK_JOBS; kind++) {
        ik_case *c = &cases[kind];
        memset(c, 0, sizeof *c);
        c->character = character;
        c->kind = kind;
        spread_targets(character, kind ? head : leg[0], kind ? 4.0 * neck : reach, c->targets);
    }
    ossa_ik_two_bone_job *t = &cases[0].two_bone;
    t->start = leg[0], t->middle = leg[1], t->end = leg[2];
    t->pole[2] = 1.0f, t->weight = 1.0f, t->soften = 0.97f;
    ossa_ik_aim_job *a = &cases[1].aim;
    a->node = head, a->forward[2] = 1.0f, a->up[1] = 1.0f, a->pole[1] = 1.0f, a->weight = 1.0f;
    a->offset[1] = 0.1f;
    ossa_ik_aim_chain_job *ch = &cases[2].chain;
    ch->nodes = chain_nodes, ch->weights = k->chain_weights, ch->count = count;
    memcpy(ch->forward, a->forward, sizeof a->forward);
    memcpy(ch->up, a->up, sizeof a->up);
    memcpy(ch->offset, a->offset, sizeof a->offset);
    memcpy(ch->pole, a->pole, sizeof a->pole);
    return 1;
}

int bench_ik(const char *model_path, double seconds, bench_ik_result *rows) {
    ossa_character *character = NULL;
    ossa_error error;
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skip_cpu_skinning = 1;
    ossa_model *model = cli_load_model(model_path, &desc);
    if (!model) return -1;
    if (ossa_character_create(model, &character, &error) != OSSA_OK) {
        cli_report_error(model_path, &error);
        ossa_model_free(model);
        return -1;
    }
    ossa_character_update(character, ossa_model_clip(model, 0), 0.3, OSSA_WRAP_LOOP, NULL);
    static const char *const names[BENCH_IK_JOBS] = {"two_bone", "aim", "aim_chain"};
    const char *base = strrchr(model_path, '/');
    int count = 0;
    for (size_t k = 0; k < sizeof KNOWN / sizeof KNOWN[0] && !count; k++) {
        ik_case cases[BENCH_IK_JOBS];
        int32_t chain_nodes[4];
        if (!setup(model, character, &KNOWN[k], cases, chain_nodes)) continue;
        for (int kind = 0; kind < BENCH_IK_JOBS; kind++, count++) {
            snprintf(rows[count].model, sizeof rows[count].model, "%s",
                     base ? base + 1 : model_path);
            rows[count].label = names[kind];
            rows[count].ns = measure(&cases[kind], seconds / BENCH_IK_JOBS);
        }
    }
    ossa_character_free(character);
    ossa_model_free(model);
    return count;
}
