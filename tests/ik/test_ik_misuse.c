/* What the IK jobs refuse: every check is an OSSA_ERROR_ARGUMENT with a message (NULL error
 * allowed), and the pose is left bit for bit as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ik_test_util.h"
#include "test_support.h"

static ossa_trs *saved; /* the pose before the refused call */
static ik_subject *current;

static int pose_intact(void) {
    return !memcmp(saved, ossa_character_pose(current->character)->local,
                   current->rig->node_count * sizeof(ossa_trs));
}

/* The call fails with ARGUMENT, says why (the message contains `words`), writes nothing. */
#define CHECK_REFUSED(call, words)                                                                 \
    do {                                                                                           \
        ossa_error error_;                                                                         \
        memset(&error_, 0, sizeof error_);                                                         \
        ossa_error *error = &error_;                                                               \
        CHECK((call) == OSSA_ERROR_ARGUMENT);                                                      \
        CHECKF(error_.code == OSSA_ERROR_ARGUMENT && strstr(error_.message, (words)),              \
               "message \"%s\" names \"%s\"", error_.message, (words));                            \
        error = NULL;                                                                              \
        CHECK((call) == OSSA_ERROR_ARGUMENT);                                                      \
        CHECK(pose_intact());                                                                      \
    } while (0)

static void two_bone_refusals(ik_subject *s) {
    ossa_character *c = s->character;
    ossa_ik_two_bone_job good, job;
    memset(&good, 0, sizeof good);
    good.start = ik_node(s, "b_LeftLeg01_015");
    good.middle = ik_node(s, "b_LeftLeg02_016");
    good.end = ik_node(s, "b_LeftFoot01_017");
    good.target[1] = 10.0f, good.pole[2] = 1.0f, good.weight = 1.0f, good.soften = 0.5f;
    int32_t count = (int32_t)s->rig->node_count;
    float nan = NAN, inf = INFINITY;

    CHECK_REFUSED(ossa_ik_two_bone(NULL, &good, error), "no character");
    CHECK_REFUSED(ossa_ik_two_bone(c, NULL, error), "no job");
#define REFUSE(field, value, words)                                                                \
    do {                                                                                           \
        job = good;                                                                                \
        job.field = (value);                                                                       \
        CHECK_REFUSED(ossa_ik_two_bone(c, &job, error), words);                                    \
    } while (0)
    REFUSE(start, -1, "start node -1 is not a rig node");
    REFUSE(start, count, "start node");
    REFUSE(middle, -5, "middle node");
    REFUSE(middle, count, "middle node");
    REFUSE(end, count + 100, "end node");
    REFUSE(middle, ik_node(s, "b_RightLeg02_020"), "not a descendant of start");
    REFUSE(middle, good.start, "not a descendant of start");
    REFUSE(end, ik_node(s, "b_RightFoot01_021"), "not a descendant of middle");
    REFUSE(end, good.middle, "not a descendant of middle");
    REFUSE(start, good.end, "not a descendant"); /* the chain reversed */
    REFUSE(weight, -0.01f, "weight");
    REFUSE(weight, 1.01f, "weight");
    REFUSE(weight, nan, "weight");
    REFUSE(weight, inf, "weight");
    REFUSE(soften, -0.1f, "soften");
    REFUSE(soften, 1.5f, "soften");
    REFUSE(soften, nan, "soften");
    REFUSE(target[0], nan, "target");
    REFUSE(target[2], -inf, "target");
    REFUSE(pole[1], nan, "pole");
    REFUSE(twist, nan, "twist");
    REFUSE(twist, inf, "twist");
    job = good;
    job.pole[2] = 0.0f;
    CHECK_REFUSED(ossa_ik_two_bone(c, &job, error), "pole has zero length");
#undef REFUSE
    /* the good job passes, and changes the pose */
    CHECK(ossa_ik_two_bone(c, &good, NULL) == OSSA_OK);
    CHECK(!pose_intact());
}

static void aim_refusals(ik_subject *s) {
    ossa_character *c = s->character;
    ossa_ik_aim_job good, job;
    memset(&good, 0, sizeof good);
    good.node = ik_node(s, "b_Head_05");
    good.forward[2] = 1.0f, good.up[1] = 1.0f, good.target[2] = 100.0f, good.pole[1] = 1.0f;
    good.weight = 1.0f;
    float nan = NAN, inf = INFINITY;
    CHECK_REFUSED(ossa_ik_aim(NULL, &good, error), "no character");
    CHECK_REFUSED(ossa_ik_aim(c, NULL, error), "no job");
#define REFUSE(field, value, words)                                                                \
    do {                                                                                           \
        job = good;                                                                                \
        job.field = (value);                                                                       \
        CHECK_REFUSED(ossa_ik_aim(c, &job, error), words);                                         \
    } while (0)
    REFUSE(node, -1, "not a rig node");
    REFUSE(node, (int32_t)s->rig->node_count, "not a rig node");
    REFUSE(weight, -0.5f, "weight");
    REFUSE(weight, 2.0f, "weight");
    REFUSE(weight, nan, "weight");
    REFUSE(forward[2], 0.0f, "forward axis has zero length");
    REFUSE(forward[0], nan, "forward axis");
    REFUSE(up[1], 0.0f, "up axis has zero length");
    REFUSE(up[0], inf, "up axis");
    REFUSE(offset[1], nan, "offset");
    REFUSE(target[0], inf, "target");
    REFUSE(pole[1], 0.0f, "pole has zero length");
    REFUSE(pole[2], nan, "pole");
    job = good;
    job.up[1] = 0.0f, job.up[2] = -3.0f; /* along forward */
    CHECK_REFUSED(ossa_ik_aim(c, &job, error), "parallel");
    job.up[0] = 1e-8f; /* nearly along forward */
    CHECK_REFUSED(ossa_ik_aim(c, &job, error), "parallel");
#undef REFUSE
    CHECK(ossa_ik_aim(c, &good, NULL) == OSSA_OK);
    CHECK(!pose_intact());
}

static void chain_refusals(ik_subject *s) {
    ossa_character *c = s->character;
    int32_t nodes[3] = {ik_node(s, "b_Spine02_03"), ik_node(s, "b_Neck_04"),
                        ik_node(s, "b_Head_05")};
    int32_t bad[3];
    float weights[3] = {0.3f, 0.5f, 1.0f}, bad_weights[3];
    ossa_ik_aim_chain_job good, job;
    memset(&good, 0, sizeof good);
    good.nodes = nodes, good.weights = weights, good.count = 3;
    good.forward[2] = 1.0f, good.up[1] = 1.0f, good.target[2] = 100.0f, good.pole[1] = 1.0f;
    CHECK_REFUSED(ossa_ik_aim_chain(NULL, &good, error), "no character");
    CHECK_REFUSED(ossa_ik_aim_chain(c, NULL, error), "no job");
    job = good, job.count = 0;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "at least one node");
    job = good, job.nodes = NULL;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "at least one node");
    job = good, job.weights = NULL;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "weight");
    struct {
        int index;
        int32_t node;
        const char *words;
    } node_cases[] = {{1, -1, "not a rig node"},
                      {2, (int32_t)s->rig->node_count, "not a rig node"},
                      {1, nodes[0], "nodes[1] = "}, /* repeated: not a descendant */
                      {2, ik_node(s, "b_LeftHand_011"), "nodes[2] = "},
                      {0, nodes[2], "nodes[1] = "}}; /* out of order */
    for (size_t i = 0; i < sizeof node_cases / sizeof node_cases[0]; i++) {
        memcpy(bad, nodes, sizeof bad);
        bad[node_cases[i].index] = node_cases[i].node;
        job = good, job.nodes = bad;
        CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), node_cases[i].words);
    }
    float weight_cases[] = {-0.1f, 1.0001f, NAN};
    for (int i = 0; i < 3; i++) {
        memcpy(bad_weights, weights, sizeof bad_weights);
        bad_weights[i] = weight_cases[i];
        job = good, job.weights = bad_weights;
        CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "weights[");
    }
    job = good, job.forward[2] = 0.0f;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "forward axis has zero length");
    job = good, job.up[1] = 0.0f;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "up axis has zero length");
    job = good, job.up[2] = 1.0f, job.up[1] = 0.0f;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "parallel");
    job = good, job.pole[1] = 0.0f;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "pole");
    job = good, job.offset[0] = NAN;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "offset");
    job = good, job.target[1] = INFINITY;
    CHECK_REFUSED(ossa_ik_aim_chain(c, &job, error), "target");
    CHECK(ossa_ik_aim_chain(c, &good, NULL) == OSSA_OK);
    CHECK(!pose_intact());
}

/* Nodes whose matrix has a shear too small for the loader to refuse are fixed (rig.h): their pose
 * is ignored, so IK cannot rotate them; a fixed node between the rotated ones is fine. Chain
 * a(fixed) b c(fixed) d e. */
static const char FIXED_GLTF[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":["
    "{\"name\":\"a\",\"matrix\":[1,0,0,0,5e-4,1,0,0,0,0,1,0,0,0,0,1],\"children\":[1]},"
    "{\"name\":\"b\",\"translation\":[0,1,0],\"children\":[2]},"
    "{\"name\":\"c\",\"matrix\":[1,0,0,0,5e-4,1,0,0,0,0,1,0,0,1,0,1],\"children\":[3]},"
    "{\"name\":\"d\",\"translation\":[0,1,0],\"children\":[4]},"
    "{\"name\":\"e\",\"translation\":[0,1,0]}]}";

static void fixed_refusals(void) {
    ossa_document *doc = NULL;
    ik_subject s;
    memset(&s, 0, sizeof s);
    CHECK(ossa_document_load_memory(FIXED_GLTF, sizeof FIXED_GLTF - 1, NULL, &doc, NULL) ==
          OSSA_OK);
    if (!doc) return;
    CHECK(ossa_model_create(doc, NULL, &s.model, NULL) == OSSA_OK);
    ossa_document_free(doc);
    if (!s.model || ossa_character_create(s.model, &s.character, NULL) != OSSA_OK) return;
    s.rig = ossa_model_rig(s.model);
    int32_t a = ik_node(&s, "a"), b = ik_node(&s, "b"), c = ik_node(&s, "c"), d = ik_node(&s, "d");
    int32_t e = ik_node(&s, "e");
    CHECK(s.rig->fixed[a] && s.rig->fixed[c] && !s.rig->fixed[b]);
    current = &s;
    saved = ik_pose_copy(&s);
    ossa_ik_two_bone_job two;
    memset(&two, 0, sizeof two);
    two.start = a, two.middle = b, two.end = d, two.target[0] = 1.0f, two.pole[2] = 1.0f;
    two.weight = 1.0f;
    CHECK_REFUSED(ossa_ik_two_bone(s.character, &two, error), "fixed matrix");
    two.start = b, two.middle = c, two.end = e;
    CHECK_REFUSED(ossa_ik_two_bone(s.character, &two, error), "fixed matrix");
    ossa_ik_aim_job aim;
    memset(&aim, 0, sizeof aim);
    aim.node = c, aim.forward[1] = 1.0f, aim.up[0] = 1.0f, aim.target[0] = 5.0f;
    aim.pole[2] = 1.0f, aim.weight = 1.0f;
    CHECK_REFUSED(ossa_ik_aim(s.character, &aim, error), "fixed matrix");
    int32_t chain[2] = {a, d};
    float weights[2] = {1.0f, 1.0f};
    ossa_ik_aim_chain_job look;
    memset(&look, 0, sizeof look);
    look.nodes = chain, look.weights = weights, look.count = 2;
    look.forward[1] = 1.0f, look.up[0] = 1.0f, look.target[0] = 5.0f, look.pole[2] = 1.0f;
    CHECK_REFUSED(ossa_ik_aim_chain(s.character, &look, error), "fixed matrix");
    /* a fixed node between start and middle is allowed */
    two.start = b, two.middle = d, two.end = e;
    CHECK(ossa_ik_two_bone(s.character, &two, NULL) == OSSA_OK);
    free(saved);
    ik_subject_free(&s);
}

int main(void) {
    ik_subject fox = ik_subject_load("models/Fox/Fox.glb");
    if (fox.character) {
        current = &fox;
        void (*suites[])(ik_subject *) = {two_bone_refusals, aim_refusals, chain_refusals};
        for (int i = 0; i < 3; i++) {
            CHECK(ossa_character_update(fox.character, ossa_model_clip(fox.model, 1), 0.3,
                                        OSSA_WRAP_LOOP, NULL) == OSSA_OK);
            saved = ik_pose_copy(&fox);
            suites[i](&fox);
            free(saved);
        }
    }
    ik_subject_free(&fox);
    fixed_refusals();
    return ossa_test_finish("ik_misuse");
}
