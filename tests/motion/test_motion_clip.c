/* Root motion of clips (motion.h) on Fox (Walk, Run) and CesiumMan: at every golden sample time
 * of the first cycle and a fine grid, M(start) * accumulated * in-place gives back the root's
 * local transform as the full sampler writes it (golden tolerance); the ground split's parts lie
 * where they should; after n loops (negative too) the accumulated motion equals
 * C^n * M(start)^-1 * M(tau) built here by repeated composition; the rigid-transform algebra. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "motion_test_util.h"
#include "ossa/sample.h"
#include "test_support.h"

typedef struct golden {
    double tolerance;
    int count;
    double times[64];
} golden;

static void golden_load(const char *relative, golden *g) {
    memset(g, 0, sizeof *g);
    size_t size = 0;
    char *text = (char *)ossa_test_read_file(ossa_test_shared_path(relative), &size);
    CHECKF(text != NULL, "%s", relative);
    cJSON *root = text ? cJSON_ParseWithLength(text, size) : NULL;
    free(text);
    const cJSON *tol = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
    /* positions: the golden tolerance; rotations are unit quaternions: 1e-4 at most */
    g->tolerance = fmin(cJSON_IsNumber(tol) ? tol->valuedouble : 1e-4, 1e-4);
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(root, "samples"), *s;
    cJSON_ArrayForEach(s, samples) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(s, "time");
        if (cJSON_IsNumber(t) && g->count < 64) g->times[g->count++] = t->valuedouble;
    }
    cJSON_Delete(root);
}

static ossa_trs sample_root(const motion_model *m, const ossa_clip *clip, int32_t node, double time,
                            ossa_pose *pose) {
    CHECK(ossa_clip_sample(m->rig, clip, (float)time, NULL, pose) == OSSA_OK);
    return pose->local[node];
}

static ossa_motion split(const ossa_root_motion_desc *desc, const ossa_trs *local,
                         ossa_trs *in_place) {
    ossa_motion m;
    CHECK(ossa_root_motion_split(desc, local, &m, in_place, NULL) == OSSA_OK);
    return m;
}

static void check_ground_parts(const ossa_root_motion_desc *desc, const ossa_motion *m,
                               const ossa_trs *in_place) {
    double u[3] = {desc->up[0], desc->up[1], desc->up[2]};
    double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int c = 0; c < 3; c++)
        u[c] /= n;
    const double *t = m->translation, *q = m->rotation;
    double along = t[0] * u[0] + t[1] * u[1] + t[2] * u[2];
    CHECK_NEAR(along, 0, 1e-9 * (1 + fabs(t[0]) + fabs(t[1]) + fabs(t[2])));
    double cross[3] = {q[1] * u[2] - q[2] * u[1], q[2] * u[0] - q[0] * u[2],
                       q[0] * u[1] - q[1] * u[0]};
    CHECK_NEAR(sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]), 0, 1e-9);
    const float *p = in_place->translation;
    double pc[3] = {p[1] * u[2] - p[2] * u[1], p[2] * u[0] - p[0] * u[2],
                    p[0] * u[1] - p[1] * u[0]};
    CHECK_NEAR(sqrt(pc[0] * pc[0] + pc[1] * pc[1] + pc[2] * pc[2]), 0,
               1e-6 * (1 + fabs(p[0]) + fabs(p[1]) + fabs(p[2])));
}

/* M(start) * A * P == L at clip time tau, and the loops after it. */
static void check_time(const motion_model *m, const ossa_clip *clip,
                       const ossa_root_motion_desc *desc, double tau, double tol, ossa_pose *pose,
                       double *worst) {
    double start = ossa_clip_start(clip), end = ossa_clip_end(clip), d = end - start;
    ossa_trs local = sample_root(m, clip, desc->node, tau, pose), in_place;
    ossa_trs first_local = sample_root(m, clip, desc->node, start, pose);
    ossa_trs last_local = sample_root(m, clip, desc->node, end, pose);
    ossa_motion motion = split(desc, &local, &in_place);
    ossa_motion first = split(desc, &first_local, NULL), last = split(desc, &last_local, NULL);
    if (desc->mode == OSSA_ROOT_MOTION_GROUND) check_ground_parts(desc, &motion, &in_place);
    ossa_motion accumulated, rebuilt, p, expected;
    CHECK(ossa_root_motion_clip(m->rig, desc, clip, tau, OSSA_MIX_LOOP, &accumulated, NULL) ==
          OSSA_OK);
    p = (ossa_motion){
        {in_place.translation[0], in_place.translation[1], in_place.translation[2]},
        {in_place.rotation[0], in_place.rotation[1], in_place.rotation[2], in_place.rotation[3]}};
    motion_compose_by_matrix(&first, &accumulated, &rebuilt);
    motion_compose_by_matrix(&rebuilt, &p, &rebuilt);
    ossa_trs back = motion_to_trs(&rebuilt, in_place.scale);
    double e = trs_distance(&back, &local);
    *worst = fmax(*worst, e);
    CHECKF(e < tol, "tau %g: rebuilt root differs by %g (tol %g)", tau, e, tol);
    /* n loops: C^n * M(start)^-1 * M(tau), C = M(start)^-1 * M(end), by repeated products */
    ossa_motion inverse_first, cycle, inverse_cycle, base;
    ossa_motion_inverse(&first, &inverse_first);
    motion_compose_by_matrix(&inverse_first, &last, &cycle);
    ossa_motion_inverse(&cycle, &inverse_cycle);
    motion_compose_by_matrix(&inverse_first, &motion, &base);
    static const int loops[] = {1, 2, 3, 7, -1, -3};
    for (size_t k = 0; k < sizeof loops / sizeof *loops; k++) {
        int n = loops[k];
        expected = base;
        for (int i = 0; i < abs(n); i++)
            motion_compose_by_matrix(n > 0 ? &cycle : &inverse_cycle, &expected, &expected);
        CHECK(ossa_root_motion_clip(m->rig, desc, clip, tau + n * d, OSSA_MIX_LOOP, &accumulated,
                                    NULL) == OSSA_OK);
        e = motion_distance(&accumulated, &expected);
        *worst = fmax(*worst, e);
        CHECKF(e < tol, "tau %g after %d loops: %g off", tau, n, e);
    }
}

static void check_clip(const char *model, const char *root, uint32_t clip_index,
                       const char *golden_file, ossa_root_motion_mode mode) {
    motion_model m;
    CHECKF(motion_model_load(model, &m) == 0, "%s loads", model);
    if (!m.model) return;
    golden g;
    golden_load(golden_file, &g);
    const ossa_clip *clip = ossa_model_clip(m.model, clip_index);
    ossa_root_motion_desc desc = motion_root_desc(&m, root);
    desc.mode = mode;
    ossa_pose pose = {malloc(sizeof(ossa_trs) * m.rig->node_count),
                      malloc(sizeof(float) * (m.rig->weight_total + 1))};
    double start = ossa_clip_start(clip), end = ossa_clip_end(clip), worst = 0;
    int checked = 0;
    for (int i = 0; i < g.count; i++) /* golden times of the first cycle */
        if (g.times[i] >= start && g.times[i] <= end)
            check_time(&m, clip, &desc, g.times[i], g.tolerance, &pose, &worst), checked++;
    for (int i = 0; i <= 48; i++) /* and a grid over it */
        check_time(&m, clip, &desc, start + (end - start) * i / 48, g.tolerance, &pose, &worst);
    CHECKF(checked >= 5, "%s: %d golden times in the first cycle", golden_file, checked);
    printf("%s %s (%s): up (%.3f %.3f %.3f), worst %.3g (tolerance %g)\n", model, root,
           mode ? "full" : "ground", (double)desc.up[0], (double)desc.up[1], (double)desc.up[2],
           worst, g.tolerance);
    /* a thousand loops: squaring agrees with a thousand products */
    ossa_motion accumulated, expected, cycle, first, last;
    ossa_trs a = sample_root(&m, clip, desc.node, start, &pose);
    ossa_trs b = sample_root(&m, clip, desc.node, end, &pose);
    first = split(&desc, &a, NULL), last = split(&desc, &b, NULL);
    ossa_motion_inverse(&first, &first);
    motion_compose_by_matrix(&first, &last, &cycle);
    ossa_motion_identity(&expected);
    for (int i = 0; i < 1000; i++)
        motion_compose_by_matrix(&cycle, &expected, &expected);
    CHECK(ossa_root_motion_clip(m.rig, &desc, clip, start + 1000 * (end - start), OSSA_MIX_LOOP,
                                &accumulated, NULL) == OSSA_OK);
    CHECKF(motion_distance(&accumulated, &expected) < 1000 * g.tolerance * 1e-2, "1000 loops: %g",
           motion_distance(&accumulated, &expected));
    free(pose.local), free(pose.weights);
    motion_model_free(&m);
}

/* The algebra on random motions: composition against matrices, inverse, powers. */
static void check_algebra(void) {
    srand(13);
    for (int k = 0; k < 200; k++) {
        ossa_motion a, b, ab, expected, inv, id, pw, pw_inverse;
        ossa_motion *ms[2] = {&a, &b};
        for (int i = 0; i < 2; i++) {
            double n = 0;
            for (int c = 0; c < 4; c++)
                ms[i]->rotation[c] = rand() / (double)RAND_MAX - 0.5,
                n += ms[i]->rotation[c] * ms[i]->rotation[c];
            for (int c = 0; c < 4; c++)
                ms[i]->rotation[c] /= sqrt(n);
            for (int c = 0; c < 3; c++)
                ms[i]->translation[c] = 10 * (rand() / (double)RAND_MAX - 0.5);
        }
        ossa_motion_compose(&a, &b, &ab);
        motion_compose_by_matrix(&a, &b, &expected);
        CHECK(motion_distance(&ab, &expected) < 1e-12 * 100);
        ossa_motion_inverse(&a, &inv);
        ossa_motion_compose(&a, &inv, &id);
        ossa_motion_identity(&expected);
        CHECK(motion_distance(&id, &expected) < 1e-12 * 100);
        int n = k % 23 - 11;
        ossa_motion_power(&a, n, &pw);
        ossa_motion_identity(&expected);
        for (int i = 0; i < abs(n); i++)
            motion_compose_by_matrix(n > 0 ? &a : &inv, &expected, &expected);
        CHECKF(motion_distance(&pw, &expected) < 1e-10, "power %d: %g", n,
               motion_distance(&pw, &expected));
        ossa_motion_power(&a, -n, &pw_inverse);
        ossa_motion_compose(&pw, &pw_inverse, &id);
        ossa_motion_identity(&expected);
        CHECK(motion_distance(&id, &expected) < 1e-10);
    }
    ossa_motion a = {{1, 2, 3}, {0, 0, 0, 1}}, p;
    ossa_motion_power(&a, INT64_MIN, &p); /* no overflow on the magnitude */
    CHECK(isfinite(p.translation[0]));
}

/* Full mode: the motion is the whole TR, the in-place part the scale alone. */
static void check_full_split(void) {
    ossa_trs local = {{1, 2, 3}, {0.1f, 0.7f, 0.1f, 0.7f}, {2, 3, 4}}, in_place;
    ossa_root_motion_desc desc = {0};
    desc.mode = OSSA_ROOT_MOTION_FULL;
    ossa_motion m = split(&desc, &local, &in_place);
    double n = sqrt(0.01 + 0.49 + 0.01 + 0.49);
    CHECK_NEAR(m.translation[2], 3, 0);
    CHECK_NEAR(m.rotation[1], 0.7f / n, 1e-7);
    CHECK_NEAR(in_place.translation[0], 0, 1e-6);
    CHECK_NEAR(in_place.rotation[3], 1, 1e-6);
    CHECK(in_place.scale[2] == 4);
    /* ground with up +Y (zero up): translation across, yaw only */
    desc.mode = OSSA_ROOT_MOTION_GROUND;
    ossa_trs yaw = {{1, 2, 3}, {0, 0.6f, 0, 0.8f}, {1, 1, 1}};
    m = split(&desc, &yaw, &in_place);
    CHECK(m.translation[1] == 0 && m.translation[0] == 1 && m.translation[2] == 3);
    CHECK_NEAR(m.rotation[1], 0.6, 1e-7);
    CHECK_NEAR(in_place.translation[1], 2, 1e-6);
    CHECK_NEAR(in_place.rotation[3], 1, 1e-6);
}

int main(void) {
    check_algebra();
    check_full_split();
    check_clip("models/Fox/Fox.glb", "b_Hip_01", 1, "golden/Fox/anim1.json",
               OSSA_ROOT_MOTION_GROUND);
    check_clip("models/Fox/Fox.glb", "b_Hip_01", 2, "golden/Fox/anim2.json",
               OSSA_ROOT_MOTION_GROUND);
    check_clip("models/Fox/Fox.glb", "b_Hip_01", 2, "golden/Fox/anim2.json", OSSA_ROOT_MOTION_FULL);
    check_clip("models/CesiumMan/glTF-Binary/CesiumMan.glb", "Skeleton_torso_joint_1", 0,
               "golden/CesiumMan/anim0.json", OSSA_ROOT_MOTION_GROUND);
    check_clip("models/CesiumMan/glTF-Binary/CesiumMan.glb", "Skeleton_torso_joint_1", 0,
               "golden/CesiumMan/anim0.json", OSSA_ROOT_MOTION_FULL);
    return ossa_test_finish("motion_clip");
}
