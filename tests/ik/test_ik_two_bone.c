/* Two-bone IK on shared rigs (Fox legs and arm, CesiumMan legs), over hundreds of random
 * animated poses, targets and poles: reachable targets reached, bone lengths kept, out-of-reach
 * targets give a straight chain pointing at them, the middle joint in the pole plane on the
 * pole's side, nothing outside the chain touched, weight 0 bit-identical, weights scale the
 * rotations, twist turns the pole, soften approaches full extension monotonically, and the
 * exact properties hold under non-uniform scale of the start's ancestors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ik_test_util.h"
#include "test_support.h"

typedef struct chain {
    int32_t start, middle, end;
} chain;

static chain find_chain(const ik_subject *s, const char *a, const char *b, const char *c) {
    chain ch = {ik_node(s, a), ik_node(s, b), ik_node(s, c)};
    return ch;
}

/* Sets the character to clip `clip` at `clock` (the rest pose when the model has no clip). */
static void animate(ik_subject *s, uint32_t clip, double clock) {
    uint32_t n = ossa_model_clip_count(s->model);
    CHECK(ossa_character_update(s->character, n ? ossa_model_clip(s->model, clip % n) : NULL, clock,
                                OSSA_WRAP_LOOP, NULL) == OSSA_OK);
}

static ossa_ik_two_bone_job make_job(chain ch, const double target[3], const double pole[3]) {
    ossa_ik_two_bone_job job;
    memset(&job, 0, sizeof job);
    job.start = ch.start, job.middle = ch.middle, job.end = ch.end;
    for (int i = 0; i < 3; i++)
        job.target[i] = (float)target[i], job.pole[i] = (float)pole[i];
    job.weight = 1.0f;
    return job;
}

/* A random pole not within ~12 degrees of the direction (the pole plane is then well defined). */
static void random_pole(uint64_t *rng, const double dir[3], double pole[3]) {
    double c[3];
    do {
        ik_random_unit(rng, pole);
        ik_cross3(dir, pole, c);
    } while (ik_norm(c) < 0.2);
}

/* Distance of p from the line through o along the unit vector dir. */
static double line_distance(const double p[3], const double o[3], const double dir[3]) {
    double d[3], c[3];
    ik_sub3(p, o, d);
    ik_cross3(d, dir, c);
    return ik_norm(c);
}

/* The job changed the start's and the middle's rotations only; nodes outside the start's
 * subtree keep their world matrices bit for bit after forward kinematics. */
static void check_untouched(const ik_subject *s, chain ch, const ossa_trs *before,
                            const float *world_before) {
    const ossa_trs *after = ossa_character_pose(s->character)->local;
    int pose_ok = 1, world_ok = 1;
    for (uint32_t n = 0; n < s->rig->node_count; n++) {
        if ((int32_t)n == ch.start || (int32_t)n == ch.middle) {
            pose_ok &= !memcmp(after[n].translation, before[n].translation, sizeof(float) * 3) &&
                       !memcmp(after[n].scale, before[n].scale, sizeof(float) * 3);
        } else {
            pose_ok &= !memcmp(&after[n], &before[n], sizeof(ossa_trs));
        }
        if (!ik_in_subtree(s->rig, ch.start, (int32_t)n))
            world_ok &= !memcmp(ossa_character_world(s->character) + 12 * n, world_before + 12 * n,
                                12 * sizeof(float));
    }
    CHECK(pose_ok);
    CHECK(world_ok);
}

typedef struct tally {
    int reachable, out_of_reach;
    double worst_reach, worst_length, worst_plane, worst_line; /* relative to the chain length */
} tally;

static void worst(double *w, double v) {
    if (v > *w) *w = v;
}

static void random_chain_trials(ik_subject *s, chain ch, int trials, uint64_t seed, tally *t) {
    uint64_t rng = seed;
    for (int trial = 0; trial < trials; trial++) {
        animate(s, (uint32_t)trial, 3.0 * ik_random(&rng));
        double s0[3], m0[3], e0[3];
        ik_world_position(s->character, ch.start, s0);
        ik_world_position(s->character, ch.middle, m0);
        ik_world_position(s->character, ch.end, e0);
        double l1 = ik_distance(m0, s0), l2 = ik_distance(e0, m0), full = l1 + l2;
        double fold = fabs(l1 - l2);
        int kind = trial % 3; /* 0 reachable, 1 out of reach, 2 reachable near full extension */
        double dist = kind == 0   ? fold + 0.02 * full + (0.95 * full - fold) * ik_random(&rng)
                      : kind == 1 ? full * (1.02 + 2.0 * ik_random(&rng))
                                  : full * (0.97 + 0.029 * ik_random(&rng));
        double dir[3], pole[3], target[3];
        ik_random_unit(&rng, dir);
        random_pole(&rng, dir, pole);
        for (int i = 0; i < 3; i++)
            target[i] = s0[i] + dist * dir[i];
        ossa_ik_two_bone_job job = make_job(ch, target, pole);

        /* weight 0 first: the pose is unchanged bit for bit */
        ossa_trs *before = ik_pose_copy(s);
        float *world_before = ik_world_copy(s);
        job.weight = 0.0f;
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        CHECK(!memcmp(before, ossa_character_pose(s->character)->local,
                      s->rig->node_count * sizeof(ossa_trs)));
        job.weight = 1.0f;
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        ossa_character_finish(s->character);
        check_untouched(s, ch, before, world_before);

        double s1[3], m1[3], e1[3];
        ik_world_position(s->character, ch.start, s1);
        ik_world_position(s->character, ch.middle, m1);
        ik_world_position(s->character, ch.end, e1);
        worst(&t->worst_length, fabs(ik_distance(m1, s1) - l1) / full);
        worst(&t->worst_length, fabs(ik_distance(e1, m1) - l2) / full);
        worst(&t->worst_length, ik_distance(s1, s0) / full);
        /* the middle joint in the plane of start, target and pole */
        double normal[3], rel[3];
        ik_cross3(dir, pole, normal);
        double nn = ik_norm(normal);
        ik_sub3(m1, s1, rel);
        worst(&t->worst_plane, fabs(ik_dot3(rel, normal)) / nn / full);
        if (kind != 1) {
            t->reachable++;
            worst(&t->worst_reach, ik_distance(e1, target) / full);
            /* on the pole's side of the start-to-target line */
            double across = ik_dot3(rel, pole) - ik_dot3(rel, dir) * ik_dot3(pole, dir);
            CHECKF(across > 0.0, "trial %d: the middle joint bends away from the pole", trial);
        } else {
            t->out_of_reach++;
            worst(&t->worst_line, line_distance(m1, s0, dir) / full);
            worst(&t->worst_line, line_distance(e1, s0, dir) / full);
            double to_end[3];
            ik_sub3(e1, s1, to_end);
            CHECK(ik_dot3(to_end, dir) > 0.0);
            worst(&t->worst_reach, fabs(ik_distance(e1, s1) - full) / full);
        }
        free(before);
        free(world_before);
    }
}

/* Angle of the rotation between two unit quaternions (float). */
static double quat_angle(const float *a, const float *b) {
    double d =
        fabs((double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3]);
    return 2.0 * acos(d > 1.0 ? 1.0 : d);
}

/* Weight 0.5 turns each joint half as far as weight 1; twist t equals the pole turned by t
 * about the start-to-target axis. */
static void check_weight_and_twist(ik_subject *s, chain ch, uint64_t seed) {
    uint64_t rng = seed;
    int32_t joints[2] = {ch.start, ch.middle};
    for (int trial = 0; trial < 50; trial++) {
        animate(s, (uint32_t)trial, 2.0 * ik_random(&rng));
        double s0[3], m0[3], e0[3], dir[3], pole[3], target[3];
        ik_world_position(s->character, ch.start, s0);
        ik_world_position(s->character, ch.middle, m0);
        ik_world_position(s->character, ch.end, e0);
        double full = ik_distance(m0, s0) + ik_distance(e0, m0);
        ik_random_unit(&rng, dir);
        random_pole(&rng, dir, pole);
        for (int i = 0; i < 3; i++)
            target[i] = s0[i] + 0.7 * full * dir[i];
        ossa_trs *rest = ik_pose_copy(s);
        ossa_trs *local = ossa_character_pose(s->character)->local;
        ossa_ik_two_bone_job job = make_job(ch, target, pole);
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        float full_q[2][4], half_q[2][4];
        for (int j = 0; j < 2; j++)
            memcpy(full_q[j], local[joints[j]].rotation, sizeof full_q[j]);
        memcpy(local, rest, s->rig->node_count * sizeof(ossa_trs));
        job.weight = 0.5f;
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        for (int j = 0; j < 2; j++) {
            memcpy(half_q[j], local[joints[j]].rotation, sizeof half_q[j]);
            double whole = quat_angle(full_q[j], rest[joints[j]].rotation);
            CHECK_NEAR(quat_angle(half_q[j], rest[joints[j]].rotation), 0.5 * whole, 2e-4);
        }

        /* twist against the pole turned by hand (Rodrigues) */
        double angle = 6.0 * ik_random(&rng) - 3.0, c = cos(angle), sn = sin(angle), turned[3];
        double cross[3];
        ik_cross3(dir, pole, cross);
        double along = ik_dot3(dir, pole);
        for (int i = 0; i < 3; i++)
            turned[i] = pole[i] * c + cross[i] * sn + dir[i] * along * (1.0 - c);
        memcpy(local, rest, s->rig->node_count * sizeof(ossa_trs));
        job = make_job(ch, target, pole);
        job.twist = (float)angle;
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        ossa_character_finish(s->character);
        double twisted[3];
        ik_world_position(s->character, ch.middle, twisted);
        memcpy(local, rest, s->rig->node_count * sizeof(ossa_trs));
        ossa_character_finish(s->character);
        job = make_job(ch, target, turned);
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        ossa_character_finish(s->character);
        double by_pole[3];
        ik_world_position(s->character, ch.middle, by_pole);
        CHECK_NEAR(ik_distance(twisted, by_pole) / full, 0.0, 1e-5);
        free(rest);
    }
}

/* Targets along a ray from 0.5 to 1.5 chain lengths: without soften the end follows the target
 * up to full extension; with soften 0.9 it follows up to 0.9 L, then falls behind smoothly, keeps
 * increasing, and stays below L (the formula of ossa_ik_two_bone_job::soften). */
static void check_soften(ik_subject *s, chain ch, uint64_t seed) {
    uint64_t rng = seed;
    for (int ray = 0; ray < 10; ray++) {
        animate(s, (uint32_t)ray, ik_random(&rng));
        double s0[3], m0[3], e0[3], dir[3], pole[3];
        ik_world_position(s->character, ch.start, s0);
        ik_world_position(s->character, ch.middle, m0);
        ik_world_position(s->character, ch.end, e0);
        double l1 = ik_distance(m0, s0), l2 = ik_distance(e0, m0), full = l1 + l2;
        ik_random_unit(&rng, dir);
        random_pole(&rng, dir, pole);
        ossa_trs *rest = ik_pose_copy(s);
        for (int soft = 0; soft < 2; soft++) {
            double previous = 0.0, worst_error = 0.0;
            int monotonic = 1, below = 1;
            for (int step = 0; step <= 100; step++) {
                double d = full * (0.5 + 0.01 * step), target[3], e1[3];
                for (int i = 0; i < 3; i++)
                    target[i] = s0[i] + d * dir[i];
                ossa_ik_two_bone_job job = make_job(ch, target, pole);
                job.soften = soft ? 0.9f : 0.0f;
                memcpy(ossa_character_pose(s->character)->local, rest,
                       s->rig->node_count * sizeof(ossa_trs));
                ossa_character_finish(s->character);
                CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
                ossa_character_finish(s->character);
                ik_world_position(s->character, ch.end, e1);
                double r = ik_distance(e1, s0);
                double ds = (double)job.soften * full, expected = d < full ? d : full;
                if (soft && d > ds) {
                    expected = ds + (full - ds) * (1.0 - exp(-(d - ds) / (full - ds)));
                    below &= r < full && (d < ds + 0.01 * full || r < d - 1e-5 * full);
                }
                worst(&worst_error, fabs(r - expected) / full);
                worst(&worst_error, line_distance(e1, s0, dir) / full);
                monotonic &= r >= previous - 1e-6 * full;
                previous = r;
            }
            CHECKF(monotonic, "soften %d: the reach decreases somewhere along the ray", soft);
            CHECK(below);
            CHECK_NEAR(worst_error, 0.0, 1e-5);
        }
        memcpy(ossa_character_pose(s->character)->local, rest,
               s->rig->node_count * sizeof(ossa_trs));
        free(rest);
    }
}

/* 3x3 inverse of a world matrix's linear part (rows), and the affine inverse applied. */
static void invert_point(const float *m, const double p[3], double out[3]) {
    double a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9],
           i = m[10];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    double r[9] = {(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
                   (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
                   (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det};
    double q[3] = {p[0] - m[3], p[1] - m[7], p[2] - m[11]};
    for (int k = 0; k < 3; k++)
        out[k] = r[3 * k] * q[0] + r[3 * k + 1] * q[1] + r[3 * k + 2] * q[2];
}

static void apply_point(const float *m, const double p[3], double out[3]) {
    for (int k = 0; k < 3; k++)
        out[k] = m[4 * k] * p[0] + m[4 * k + 1] * p[1] + m[4 * k + 2] * p[2] + m[4 * k + 3];
}

/* Non-uniform scale on the start's ancestors (and a mirror on the start): targets chosen reachable
 * in the start's parent space are reached exactly, the middle stays in the world pole plane,
 * out-of-reach chains lie on the world line to the target. */
static void check_non_uniform(ik_subject *s, chain ch, const char *ancestor, uint64_t seed) {
    uint64_t rng = seed;
    int32_t scaled = ik_node(s, ancestor);
    double worst_reach = 0.0, worst_plane = 0.0;
    for (int trial = 0; trial < 100; trial++) {
        animate(s, (uint32_t)trial, ik_random(&rng));
        float *scale = ossa_character_pose(s->character)->local[scaled].scale;
        scale[0] *= 1.6f, scale[1] *= 0.55f, scale[2] *= 1.2f;
        if (trial % 3 == 0) /* a mirrored start: the knee's rotation stays exact */
            ossa_character_pose(s->character)->local[ch.start].scale[0] *= -1.0f;
        ossa_character_finish(s->character);
        const float *parent = ossa_character_world(s->character) + 12 * s->rig->parent[ch.start];
        double s0[3], m0[3], e0[3], ks[3], km[3], ke[3];
        ik_world_position(s->character, ch.start, s0);
        ik_world_position(s->character, ch.middle, m0);
        ik_world_position(s->character, ch.end, e0);
        invert_point(parent, s0, ks);
        invert_point(parent, m0, km);
        invert_point(parent, e0, ke);
        double l1 = ik_distance(km, ks), l2 = ik_distance(ke, km), full = l1 + l2;
        double world_full = ik_distance(m0, s0) + ik_distance(e0, m0);
        int reachable = trial % 2;
        double fold = fabs(l1 - l2);
        double d = reachable ? fold + (0.05 + 0.9 * ik_random(&rng)) * (full - fold)
                             : full * (1.1 + ik_random(&rng));
        double kdir[3], kt[3], target[3], pole[3], dir[3];
        ik_random_unit(&rng, kdir);
        for (int i = 0; i < 3; i++)
            kt[i] = ks[i] + d * kdir[i];
        apply_point(parent, kt, target);
        ik_sub3(target, s0, dir);
        double dn = ik_norm(dir);
        for (int i = 0; i < 3; i++)
            dir[i] /= dn;
        random_pole(&rng, dir, pole);
        ossa_ik_two_bone_job job = make_job(ch, target, pole);
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        ossa_character_finish(s->character);
        double m1[3], e1[3], normal[3], rel[3];
        ik_world_position(s->character, ch.middle, m1);
        ik_world_position(s->character, ch.end, e1);
        ik_cross3(dir, pole, normal);
        ik_sub3(m1, s0, rel);
        worst(&worst_plane, fabs(ik_dot3(rel, normal)) / ik_norm(normal) / world_full);
        if (reachable) {
            worst(&worst_reach, ik_distance(e1, target) / world_full);
        } else {
            worst(&worst_plane, line_distance(m1, s0, dir) / world_full);
            worst(&worst_plane, line_distance(e1, s0, dir) / world_full);
        }
    }
    CHECK_NEAR(worst_reach, 0.0, 1e-5);
    CHECK_NEAR(worst_plane, 0.0, 1e-5);
}

/* Non-uniform scale on the start joint itself: the knee's rotation is approximated (ik.h),
 * the header's figure: a thigh scaled 1.05 along x misses by at most 2.5% of the chain. */
static void check_scaled_start(ik_subject *s, chain ch, uint64_t seed) {
    uint64_t rng = seed;
    double worst_miss = 0.0, worst_plane = 0.0;
    for (int trial = 0; trial < 200; trial++) {
        animate(s, trial, ik_random(&rng));
        ossa_character_pose(s->character)->local[ch.start].scale[0] *= 1.05f;
        ossa_character_finish(s->character);
        double s0[3], m0[3], e0[3], dir[3], pole[3], target[3];
        ik_world_position(s->character, ch.start, s0);
        ik_world_position(s->character, ch.middle, m0);
        ik_world_position(s->character, ch.end, e0);
        double full = ik_distance(m0, s0) + ik_distance(e0, m0);
        ik_random_unit(&rng, dir);
        random_pole(&rng, dir, pole);
        for (int i = 0; i < 3; i++)
            target[i] = s0[i] + 0.6 * full * dir[i];
        ossa_ik_two_bone_job job = make_job(ch, target, pole);
        CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
        ossa_character_finish(s->character);
        double m1[3], e1[3], normal[3], rel[3];
        ik_world_position(s->character, ch.middle, m1);
        ik_world_position(s->character, ch.end, e1);
        worst(&worst_miss, ik_distance(e1, target) / full);
        ik_cross3(dir, pole, normal);
        ik_sub3(m1, s0, rel);
        worst(&worst_plane, fabs(ik_dot3(rel, normal)) / ik_norm(normal) / full);
    }
    printf("  thigh scaled 1.05 along x: worst miss %.3g, middle off the pole plane %.2g (of the "
           "chain length)\n",
           worst_miss, worst_plane);
    CHECK(worst_miss < 0.03);
    CHECK_NEAR(worst_plane, 0.0, 1e-5); /* the middle still lands exactly */
}

static int pose_finite(const ik_subject *s) {
    const ossa_trs *local = ossa_character_pose(s->character)->local;
    for (uint32_t n = 0; n < s->rig->node_count; n++)
        for (int k = 0; k < 4; k++)
            if (!isfinite(local[n].rotation[k])) return 0;
    return 1;
}

/* Degenerate cases: a straight chain (made by an out-of-reach target) bends toward the pole
 * for a reachable target and reaches it; a pole along the target direction still reaches it; a
 * target on the start joint folds the chain as far as it goes without NaN. */
static void check_degenerate(ik_subject *s, chain ch) {
    animate(s, 0, 0.25);
    double s0[3], m0[3], e0[3], dir[3] = {0.0, 0.0, 0.0};
    ik_world_position(s->character, ch.start, s0);
    ik_world_position(s->character, ch.middle, m0);
    ik_world_position(s->character, ch.end, e0);
    double l1 = ik_distance(m0, s0), l2 = ik_distance(e0, m0), full = l1 + l2;
    ik_sub3(e0, s0, dir);
    double n = ik_norm(dir);
    for (int i = 0; i < 3; i++)
        dir[i] /= n;
    double far[3], near[3], pole[3] = {dir[1] - dir[2], dir[2] - dir[0], dir[0] - dir[1]};
    for (int i = 0; i < 3; i++)
        far[i] = s0[i] + 3.0 * full * dir[i], near[i] = s0[i] + 0.6 * full * dir[i];
    ossa_ik_two_bone_job job = make_job(ch, far, pole);
    CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
    ossa_character_finish(s->character);
    double m1[3], e1[3], rel[3];
    ik_world_position(s->character, ch.middle, m1);
    ik_world_position(s->character, ch.end, e1);
    CHECK_NEAR(line_distance(m1, s0, dir) / full, 0.0, 1e-5); /* straight */
    job = make_job(ch, near, pole);
    float straight[4];
    memcpy(straight, ossa_character_pose(s->character)->local[ch.start].rotation, sizeof straight);
    CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
    /* the start turns by the bend's angle at the start, without rolling the chain over */
    double d = 0.6 * full, bend = acos((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d));
    CHECK(quat_angle(ossa_character_pose(s->character)->local[ch.start].rotation, straight) <
          bend + 0.01);
    ossa_character_finish(s->character);
    ik_world_position(s->character, ch.middle, m1);
    ik_world_position(s->character, ch.end, e1);
    CHECK_NEAR(ik_distance(e1, near) / full, 0.0, 1e-5);
    ik_sub3(m1, s0, rel);
    CHECK(ik_dot3(rel, pole) - ik_dot3(rel, dir) * ik_dot3(pole, dir) > 0.1 * l1);

    job = make_job(ch, near, dir); /* the pole along the target direction */
    CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
    ossa_character_finish(s->character);
    ik_world_position(s->character, ch.end, e1);
    CHECK(pose_finite(s));
    CHECK_NEAR(ik_distance(e1, near) / full, 0.0, 1e-5);

    job = make_job(ch, s0, pole); /* the target on the start joint */
    CHECK(ossa_ik_two_bone(s->character, &job, NULL) == OSSA_OK);
    ossa_character_finish(s->character);
    ik_world_position(s->character, ch.end, e1);
    CHECK(pose_finite(s));
    CHECK_NEAR(ik_distance(e1, s0) / full, fabs(l1 - l2) / full, 1e-5);
}

static void check_model(const char *path, const char *const (*chains)[3], int chain_count,
                        const char *ancestor, uint64_t seed) {
    ik_subject s = ik_subject_load(path);
    if (!s.character) return;
    for (int c = 0; c < chain_count; c++) {
        chain ch = find_chain(&s, chains[c][0], chains[c][1], chains[c][2]);
        if (ch.start < 0 || ch.middle < 0 || ch.end < 0) continue;
        tally t;
        memset(&t, 0, sizeof t);
        random_chain_trials(&s, ch, 300, seed + (uint64_t)c, &t);
        printf("%s %s: %d reachable, %d out of reach; worst (of the chain length): reach %.2g, "
               "lengths %.2g, plane %.2g, line %.2g\n",
               path, chains[c][0], t.reachable, t.out_of_reach, t.worst_reach, t.worst_length,
               t.worst_plane, t.worst_line);
        CHECK(t.reachable >= 150 && t.out_of_reach >= 50);
        CHECK_NEAR(t.worst_reach, 0.0, 1e-5);
        CHECK_NEAR(t.worst_length, 0.0, 1e-5);
        CHECK_NEAR(t.worst_plane, 0.0, 1e-5);
        CHECK_NEAR(t.worst_line, 0.0, 1e-5);
        check_weight_and_twist(&s, ch, seed * 3 + (uint64_t)c);
        check_soften(&s, ch, seed * 5 + (uint64_t)c);
        check_non_uniform(&s, ch, ancestor, seed * 7 + (uint64_t)c);
        check_degenerate(&s, ch);
        if (c == 0) check_scaled_start(&s, ch, seed * 11);
    }
    ik_subject_free(&s);
}

int main(void) {
    static const char *const fox[][3] = {
        {"b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017"},
        {"b_RightLeg01_019", "b_RightLeg02_020", "b_RightFoot01_021"},
        {"b_LeftUpperArm_09", "b_LeftForeArm_010", "b_LeftHand_011"},
        /* the foot's tip as the end: a node between middle and end rides along */
        {"b_RightLeg01_019", "b_RightLeg02_020", "b_RightFoot02_022"}};
    static const char *const man[][3] = {{"leg_joint_L_1", "leg_joint_L_2", "leg_joint_L_3"},
                                         {"leg_joint_R_1", "leg_joint_R_2", "leg_joint_R_5"}};
    check_model("models/Fox/Fox.glb", fox, 4, "b_Hip_01", 0x1234567u);
    check_model("models/CesiumMan/glTF-Binary/CesiumMan.glb", man, 2, "Skeleton_torso_joint_1",
                0x7654321u);
    return ossa_test_finish("ik_two_bone");
}
