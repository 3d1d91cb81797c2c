/* Aim IK and chains of aims on shared rigs (Fox and CesiumMan heads, spines and necks), over
 * hundreds of random poses, axes, offsets, targets and poles: the aim line through the offset
 * point passes through the target (error below 1e-4 rad), with a zero offset the forward-up plane
 * holds the pole on up's side, only the aimed joints change, weight 0 is bit-identical, a chain
 * whose only non-zero weight is its last equals the single aim bit for bit, and all of it holds
 * under non-uniform scale of the ancestors and of the aimed joint. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ik_test_util.h"
#include "test_support.h"

enum { MAX_CHAIN = 8 };

typedef struct aim_case {
    const char *path;
    const char *chain[MAX_CHAIN]; /* root-most first; the last is the head */
    float weights[MAX_CHAIN];
    uint32_t count;
    const char *scaled; /* an ancestor of the chain to scale non-uniformly */
} aim_case;

typedef struct aim_errors {
    double aim, plane; /* radians; |cos| of the pole against the forward-up normal */
    int side_failures;
} aim_errors;

static void worst(double *w, double v) {
    if (v > *w) *w = v;
}

static void animate(ik_subject *s, int trial, double clock) {
    uint32_t n = ossa_model_clip_count(s->model);
    CHECK(ossa_character_update(s->character,
                                n ? ossa_model_clip(s->model, (uint32_t)trial % n) : NULL, clock,
                                OSSA_WRAP_LOOP, NULL) == OSSA_OK);
}

static void to_float(const double *d, float *f) {
    f[0] = (float)d[0], f[1] = (float)d[1], f[2] = (float)d[2];
}

/* A random goal for head node `head`: axes and offset in its space, target at 2 to 10 head
 * lengths from it, pole away from the target direction. */
static void random_goal(uint64_t *rng, const ik_subject *s, int32_t head, int with_offset,
                        float forward[3], float up[3], float offset[3], float target[3],
                        float pole[3]) {
    double f[3], u[3], c[3], o[3] = {0, 0, 0}, dir[3], p[3], at[3], parent[3];
    ik_random_unit(rng, f);
    do {
        ik_random_unit(rng, u);
        ik_cross3(f, u, c);
    } while (ik_norm(c) < 0.3);
    const float *t = ossa_character_pose(s->character)->local[head].translation;
    double local_len = sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
    if (with_offset) {
        ik_random_unit(rng, o);
        for (int i = 0; i < 3; i++)
            o[i] *= 0.5 * local_len * ik_random(rng);
    }
    ik_world_position(s->character, head, at);
    ik_world_position(s->character, s->rig->parent[head], parent);
    double world_len = ik_distance(at, parent), dist = world_len * (2.0 + 8.0 * ik_random(rng));
    ik_random_unit(rng, dir);
    do {
        ik_random_unit(rng, p);
        ik_cross3(dir, p, c);
    } while (ik_norm(c) < 0.2);
    for (int i = 0; i < 3; i++)
        at[i] += dist * dir[i];
    to_float(f, forward), to_float(u, up), to_float(o, offset), to_float(at, target);
    to_float(p, pole);
}

/* The head's aim after forward kinematics. */
static void measure(const ik_subject *s, int32_t head, const float forward[3], const float up[3],
                    const float offset[3], const float target[3], const float pole[3],
                    aim_errors *e) {
    double f[3], u[3], o[3], t[3] = {target[0], target[1], target[2]}, to[3];
    ik_world_vector(s->character, head, forward, f);
    ik_world_vector(s->character, head, up, u);
    ik_world_point(s->character, head, offset, o);
    ik_sub3(t, o, to);
    worst(&e->aim, ik_angle(f, to));
    if (offset[0] == 0.0f && offset[1] == 0.0f && offset[2] == 0.0f) {
        double n[3], p[3] = {pole[0], pole[1], pole[2]};
        ik_cross3(f, u, n);
        worst(&e->plane, fabs(ik_dot3(n, p)) / ik_norm(n) / ik_norm(p));
        double fn = ik_norm(f);
        double across = ik_dot3(u, p) - ik_dot3(u, f) * ik_dot3(p, f) / (fn * fn);
        e->side_failures += !(across > 0.0);
    }
}

/* Every node outside `nodes` keeps its local transform bit for bit; chain nodes their
 * translation and scale. */
static int only_rotations_of(const ik_subject *s, const int32_t *nodes, uint32_t count,
                             const ossa_trs *before) {
    const ossa_trs *after = ossa_character_pose(s->character)->local;
    int ok = 1;
    for (uint32_t n = 0; n < s->rig->node_count; n++) {
        int in_chain = 0;
        for (uint32_t k = 0; k < count; k++)
            in_chain |= nodes[k] == (int32_t)n;
        if (in_chain)
            ok &= !memcmp(after[n].translation, before[n].translation, sizeof(float) * 3) &&
                  !memcmp(after[n].scale, before[n].scale, sizeof(float) * 3);
        else
            ok &= !memcmp(&after[n], &before[n], sizeof(ossa_trs));
    }
    return ok;
}

static int pose_equal(const ik_subject *s, const ossa_trs *before) {
    return !memcmp(ossa_character_pose(s->character)->local, before,
                   s->rig->node_count * sizeof(ossa_trs));
}

/* Single aims of the head, then chains, `trials` random cases each; `scale` scales the case's
 * ancestor and the head non-uniformly before every trial. */
static void run_case(const aim_case *c, int trials, int scale, uint64_t seed) {
    ik_subject s = ik_subject_load(c->path);
    if (!s.character) return;
    int32_t nodes[MAX_CHAIN];
    for (uint32_t k = 0; k < c->count; k++)
        if ((nodes[k] = ik_node(&s, c->chain[k])) < 0) return;
    int32_t head = nodes[c->count - 1], scaled = ik_node(&s, c->scaled);
    uint64_t rng = seed;
    aim_errors single = {0, 0, 0}, chain = {0, 0, 0};
    int rotated_all = 1, untouched = 1, same_as_single = 1;
    for (int trial = 0; trial < trials; trial++) {
        animate(&s, trial, 3.0 * ik_random(&rng));
        if (scale) {
            ossa_trs *local = ossa_character_pose(s.character)->local;
            local[scaled].scale[0] *= 1.5f, local[scaled].scale[1] *= 0.6f;
            local[head].scale[1] *= 1.4f, local[head].scale[2] *= 0.8f;
            ossa_character_finish(s.character);
        }
        ossa_ik_aim_job job;
        memset(&job, 0, sizeof job);
        job.node = head;
        random_goal(&rng, &s, head, trial % 2, job.forward, job.up, job.offset, job.target,
                    job.pole);
        ossa_trs *before = ik_pose_copy(&s);

        CHECK(ossa_ik_aim(s.character, &job, NULL) == OSSA_OK); /* weight 0 */
        CHECK(pose_equal(&s, before));
        job.weight = 1.0f;
        CHECK(ossa_ik_aim(s.character, &job, NULL) == OSSA_OK);
        untouched &= only_rotations_of(&s, &head, 1, before);
        ossa_trs *aimed = ik_pose_copy(&s);
        ossa_character_finish(s.character);
        measure(&s, head, job.forward, job.up, job.offset, job.target, job.pole, &single);

        /* the chain with only its last weight: the single aim, bit for bit */
        ossa_ik_aim_chain_job chain_job;
        memset(&chain_job, 0, sizeof chain_job);
        float zeros[MAX_CHAIN] = {0};
        zeros[c->count - 1] = 1.0f;
        chain_job.nodes = nodes, chain_job.weights = zeros, chain_job.count = c->count;
        memcpy(chain_job.forward, job.forward, sizeof job.forward);
        memcpy(chain_job.up, job.up, sizeof job.up);
        memcpy(chain_job.offset, job.offset, sizeof job.offset);
        memcpy(chain_job.target, job.target, sizeof job.target);
        memcpy(chain_job.pole, job.pole, sizeof job.pole);
        memcpy(ossa_character_pose(s.character)->local, before, s.rig->node_count * sizeof *before);
        ossa_character_finish(s.character);
        CHECK(ossa_ik_aim_chain(s.character, &chain_job, NULL) == OSSA_OK);
        same_as_single &= pose_equal(&s, aimed);
        memcpy(ossa_character_pose(s.character)->local, before, s.rig->node_count * sizeof *before);
        zeros[c->count - 1] = 0.0f; /* every weight 0: the pose bit for bit */
        CHECK(ossa_ik_aim_chain(s.character, &chain_job, NULL) == OSSA_OK);
        CHECK(pose_equal(&s, before));

        /* the spread chain */
        memcpy(ossa_character_pose(s.character)->local, before, s.rig->node_count * sizeof *before);
        ossa_character_finish(s.character);
        chain_job.weights = c->weights;
        CHECK(ossa_ik_aim_chain(s.character, &chain_job, NULL) == OSSA_OK);
        untouched &= only_rotations_of(&s, nodes, c->count, before);
        const ossa_trs *after = ossa_character_pose(s.character)->local;
        for (uint32_t k = 0; k < c->count; k++)
            rotated_all &=
                memcmp(after[nodes[k]].rotation, before[nodes[k]].rotation, sizeof(float) * 4) != 0;
        ossa_character_finish(s.character);
        measure(&s, head, job.forward, job.up, job.offset, job.target, job.pole, &chain);
        free(before);
        free(aimed);
    }
    printf("%s %s%s: worst aim error %.2g rad (chain %.2g), pole plane %.2g (chain %.2g)\n",
           c->path, c->chain[c->count - 1], scale ? " (non-uniform scale)" : "", single.aim,
           chain.aim, single.plane, chain.plane);
    CHECK(single.aim < 1e-4 && chain.aim < 1e-4);
    CHECK(single.plane < 1e-4 && chain.plane < 1e-4);
    CHECK(single.side_failures == 0 && chain.side_failures == 0);
    CHECK(untouched);
    CHECK(rotated_all);
    CHECK(same_as_single);
    ik_subject_free(&s);
}

/* A target on the joint: nothing to aim at, nothing written; a target inside the offset's
 * reach: a finite rotation. */
static void check_degenerate(void) {
    ik_subject s = ik_subject_load("models/Fox/Fox.glb");
    if (!s.character) return;
    int32_t head = ik_node(&s, "b_Head_05");
    ossa_ik_aim_job job;
    memset(&job, 0, sizeof job);
    job.node = head, job.forward[2] = 1.0f, job.up[1] = 1.0f, job.pole[1] = 1.0f;
    job.weight = 1.0f;
    double at[3];
    ik_world_position(s.character, head, at);
    to_float(at, job.target);
    ossa_trs *before = ik_pose_copy(&s);
    CHECK(ossa_ik_aim(s.character, &job, NULL) == OSSA_OK);
    CHECK(pose_equal(&s, before));
    job.offset[0] = 50.0f; /* the target within the offset point's distance from the axis */
    job.target[0] += 1.0f;
    CHECK(ossa_ik_aim(s.character, &job, NULL) == OSSA_OK);
    const float *q = ossa_character_pose(s.character)->local[head].rotation;
    CHECK(isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3]));
    CHECK_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-5);
    free(before);
    ik_subject_free(&s);
}

int main(void) {
    static const aim_case cases[] = {
        {"models/Fox/Fox.glb",
         {"b_Spine01_02", "b_Spine02_03", "b_Neck_04", "b_Head_05"},
         {0.3f, 0.4f, 0.5f, 1.0f},
         4,
         "b_Hip_01"},
        {"models/CesiumMan/glTF-Binary/CesiumMan.glb",
         {"torso_joint_3", "Skeleton_neck_joint_1", "Skeleton_neck_joint_2"},
         {0.4f, 0.6f, 1.0f},
         3,
         "Skeleton_torso_joint_1"}};
    for (int i = 0; i < 2; i++) {
        run_case(&cases[i], 300, 0, 0xA11CEu + (uint64_t)i);
        run_case(&cases[i], 100, 1, 0xB0Bu + (uint64_t)i);
    }
    check_degenerate();
    return ossa_test_finish("ik_aim");
}
