/* The mix file's "root_motion" and "ik" (mix.h, motion.h): values read (nodes by name and glTF
 * index as rig nodes, defaults), unknown keys warned with their path, bad values refused with
 * their JSON path. */
#include <math.h>
#include <string.h>

#include "motion_test_util.h"
#include "test_support.h"

static ossa_mix_file *parse(const motion_model *m, const char *json, ossa_error *error) {
    ossa_mix_file *file = NULL;
    ossa_result r = ossa_mix_file_parse(json, strlen(json), "t.json", m->model, NULL, &file, error);
    CHECK((r == OSSA_OK) == (file != NULL));
    return file;
}

static void refused(const motion_model *m, const char *json, const char *path,
                    const char *message) {
    ossa_error error;
    ossa_mix_file *file = parse(m, json, &error);
    CHECKF(file == NULL, "accepted: %s", json);
    if (file) {
        ossa_mix_file_free(file);
        return;
    }
    CHECKF(error.code == OSSA_ERROR_INVALID, "%s: code %d", json, (int)error.code);
    CHECKF(!strcmp(error.path, path), "%s: path \"%s\", expected \"%s\"", json, error.path, path);
    CHECKF(strstr(error.message, message) != NULL, "%s: message \"%s\"", json, error.message);
    CHECK(!strcmp(error.file, "t.json"));
}

#define LAYERS "{\"layers\": [{\"animation\": \"Walk\"}], "

static void check_values(const motion_model *m) {
    ossa_error error;
    ossa_mix_file *file = parse(
        m,
        LAYERS
        "\"root_motion\": {\"node\": \"b_Hip_01\", \"mode\": \"full\", \"up\": [0, 0, 2]},"
        "\"ik\": [{\"type\": \"two_bone\", \"start\": \"b_LeftLeg01_015\", \"middle\": 19,"
        " \"end\": \"b_LeftFoot01_017\", \"target\": [0.1, 0, 0.3], \"pole\": [0, 0, 1],"
        " \"weight\": 0.5, \"soften\": 0.97, \"twist\": 0.25, \"colour\": 1},"
        "{\"type\": \"aim\", \"node\": \"b_Head_05\", \"forward\": [0, 0, 1],"
        " \"up\": [0, 1, 0], \"target\": [0, 1.7, 2], \"pole\": [0, 1, 0]},"
        "{\"type\": \"two_bone\", \"start\": 22, \"middle\": 23, \"end\": 24,"
        " \"ground\": {\"point\": [0, 0, 0], \"normal\": [0, 1, -0.2]}, \"pole\": [0, 0, 1]}],"
        "\"extra\": true}",
        &error);
    CHECKF(file != NULL, "%s: %s", error.path, error.message);
    if (!file) return;
    const ossa_root_motion_desc *root = ossa_mix_file_root_motion(file);
    CHECK(root && root->node == ossa_model_find_node(m->model, "b_Hip_01"));
    CHECK(root && root->mode == OSSA_ROOT_MOTION_FULL && root->up[2] == 2 && root->up[0] == 0);
    CHECK(ossa_mix_file_ik_count(file) == 3);
    const ossa_mix_ik *leg = ossa_mix_file_ik(file, 0), *head = ossa_mix_file_ik(file, 1);
    const ossa_mix_ik *ground = ossa_mix_file_ik(file, 2);
    CHECK(ossa_mix_file_ik(file, 3) == NULL);
    CHECK(leg->type == OSSA_MIX_IK_TWO_BONE && !leg->has_ground);
    CHECK(leg->two_bone.start == ossa_model_find_node(m->model, "b_LeftLeg01_015"));
    CHECK(leg->two_bone.middle == ossa_model_rig(m->model)->rig_from_gltf[19]);
    CHECK(leg->two_bone.middle == ossa_model_find_node(m->model, "b_LeftLeg02_016"));
    CHECK(leg->two_bone.end == ossa_model_find_node(m->model, "b_LeftFoot01_017"));
    CHECK(leg->two_bone.target[0] == 0.1f && leg->two_bone.target[2] == 0.3f);
    CHECK(leg->two_bone.weight == 0.5f && leg->two_bone.soften == 0.97f);
    CHECK(leg->two_bone.twist == 0.25f && leg->two_bone.pole[2] == 1);
    CHECK(head->type == OSSA_MIX_IK_AIM && head->aim.weight == 1);
    CHECK(head->aim.node == ossa_model_find_node(m->model, "b_Head_05"));
    CHECK(head->aim.target[1] == 1.7f && head->aim.offset[0] == 0 && head->aim.up[1] == 1);
    CHECK(ground->has_ground && ground->ground_normal[2] == -0.2f);
    CHECK(ground->two_bone.end == ossa_model_find_node(m->model, "b_RightFoot01_021"));
    CHECK(ground->two_bone.weight == 1 && ground->two_bone.soften == 0);
    /* warnings: the unknown keys, with their paths */
    uint32_t warnings = ossa_mix_file_warning_count(file);
    int colour = 0, extra = 0;
    for (uint32_t w = 0; w < warnings; w++) {
        const ossa_warning *warning = ossa_mix_file_warning(file, w);
        colour |= !strcmp(warning->path, "ik[0].colour");
        extra |= !strcmp(warning->path, "extra");
    }
    CHECK(colour && extra && warnings == 2);
    ossa_mix_file_free(file);
    /* no root_motion, no ik; up defaults to +Y, mode to ground */
    file = parse(m, "{\"layers\": []}", NULL);
    CHECK(file && !ossa_mix_file_root_motion(file) && ossa_mix_file_ik_count(file) == 0);
    ossa_mix_file_free(file);
    file = parse(m, LAYERS "\"root_motion\": {\"node\": 4}}", NULL);
    root = file ? ossa_mix_file_root_motion(file) : NULL;
    CHECK(root && root->up[1] == 1 && root->mode == OSSA_ROOT_MOTION_GROUND);
    CHECK(root && root->node == ossa_model_rig(m->model)->rig_from_gltf[4]);
    ossa_mix_file_free(file);
}

static void check_refusals(const motion_model *m, const motion_model *cesium) {
    refused(m, LAYERS "\"root_motion\": {\"node\": \"tail\"}}", "root_motion.node",
            "no node named \"tail\"");
    refused(m, LAYERS "\"root_motion\": {\"node\": 26}}", "root_motion.node", "no node 26");
    refused(m, LAYERS "\"root_motion\": {\"node\": 1.5}}", "root_motion.node", "no node 1.5");
    refused(m, LAYERS "\"root_motion\": {}}", "root_motion", "needs \"node\"");
    refused(m, LAYERS "\"root_motion\": []}", "root_motion", "must be an object");
    refused(m, LAYERS "\"root_motion\": {\"node\": 4, \"mode\": \"side\"}}", "root_motion.mode",
            "\"side\" is not one of \"ground\", \"full\"");
    refused(m, LAYERS "\"root_motion\": {\"node\": 4, \"up\": [0, 0, 0]}}", "root_motion.up",
            "zero vector");
    refused(m, LAYERS "\"root_motion\": {\"node\": 4, \"up\": [0, 1]}}", "root_motion.up",
            "3 numbers");
    refused(m, LAYERS "\"root_motion\": {\"node\": 4, \"up\": [0, \"1\", 0]}}", "root_motion.up[1]",
            "finite number");
    refused(m, LAYERS "\"root_motion\": {\"node\": 4, \"up\": [0, 1e39, 0]}}", "root_motion.up[1]",
            "float range");
    /* a node given by a matrix that decomposes into TRS is a root like any other */
    ossa_mix_file *file =
        parse(cesium, "{\"layers\": [], \"root_motion\": {\"node\": \"Z_UP\"}}", NULL);
    CHECK(file &&
          ossa_mix_file_root_motion(file)->node == ossa_model_find_node(cesium->model, "Z_UP"));
    ossa_mix_file_free(file);
    refused(m, LAYERS "\"ik\": {}}", "ik", "must be an array");
    refused(m, LAYERS "\"ik\": [1]}", "ik[0]", "must be an object");
    refused(m, LAYERS "\"ik\": [{}]}", "ik[0]", "needs a \"type\"");
    refused(m, LAYERS "\"ik\": [{\"type\": \"ccd\"}]}", "ik[0].type",
            "\"ccd\" is not one of \"two_bone\", \"aim\"");
#define LEG "{\"type\": \"two_bone\", \"start\": 18, \"middle\": 19, \"end\": 20, "
    refused(m, LAYERS "\"ik\": [" LEG "\"pole\": [0, 0, 1]}]}", "ik[0]",
            "either \"target\" or \"ground\"");
    refused(m, LAYERS "\"ik\": [" LEG "\"target\": [0, 0, 0]}]}", "ik[0]", "needs a \"pole\"");
    refused(m, LAYERS "\"ik\": [" LEG "\"target\": [0, 0, 0], \"pole\": [0, 0, 0]}]}", "ik[0].pole",
            "zero vector");
    refused(m,
            LAYERS "\"ik\": [" LEG "\"target\": [0, 0, 0], \"pole\": [0, 0, 1], \"weight\": 2}]}",
            "ik[0].weight", "<= 1");
    refused(m,
            LAYERS "\"ik\": [" LEG "\"target\": [0, 0, 0], \"pole\": [0, 0, 1], \"soften\": -1}]}",
            "ik[0].soften", ">= 0");
    refused(m,
            LAYERS "\"ik\": [" LEG "\"target\": [0, 0, 0], \"ground\": {\"point\": [0, 0, 0],"
                   " \"normal\": [0, 1, 0]}, \"pole\": [0, 0, 1]}]}",
            "ik[0]", "either \"target\" or \"ground\"");
    refused(m,
            LAYERS "\"ik\": [" LEG "\"ground\": {\"point\": [0, 0, 0], \"normal\": [1, 0, 0]},"
                   " \"pole\": [0, 0, 1]}]}",
            "ik[0].ground.normal", "vertical");
    refused(m, LAYERS "\"ik\": [" LEG "\"ground\": {\"point\": [0, 0, 0]}, \"pole\": [0, 0, 1]}]}",
            "ik[0].ground", "needs \"point\" and \"normal\"");
    refused(m,
            LAYERS "\"ik\": [{\"type\": \"two_bone\", \"start\": 18, \"middle\": 20, \"end\": 19,"
                   " \"target\": [0, 0, 0], \"pole\": [0, 0, 1]}]}",
            "ik[0]", "\"end\" is not a descendant of \"middle\"");
    refused(m,
            LAYERS "\"ik\": [{\"type\": \"two_bone\", \"start\": 22, \"middle\": 19, \"end\": 20,"
                   " \"target\": [0, 0, 0], \"pole\": [0, 0, 1]}]}",
            "ik[0]", "\"middle\" is not a descendant of \"start\"");
    refused(m, LAYERS "\"ik\": [{\"type\": \"two_bone\", \"start\": \"thigh\"}]}", "ik[0].start",
            "no node named \"thigh\"");
#define HEAD "{\"type\": \"aim\", \"node\": \"b_Head_05\", "
    refused(m, LAYERS "\"ik\": [" HEAD "\"forward\": [0, 0, 1], \"up\": [0, 1, 0]}]}", "ik[0]",
            "needs \"target\"");
    refused(m,
            LAYERS "\"ik\": [" HEAD
                   "\"forward\": [0, 0, 1], \"up\": [0, 0, -3], \"target\": [0, 0, "
                   "0], \"pole\": [0, 1, 0]}]}",
            "ik[0].up", "parallel");
    refused(m,
            LAYERS "\"ik\": [" HEAD "\"forward\": [0, 0, 1], \"up\": [0, 1, 0], \"target\": [0, 0, "
                   "0], \"pole\": [0, 1, 0], \"weight\": -0.5}]}",
            "ik[0].weight", ">= 0");
    refused(m,
            LAYERS "\"ik\": [" HEAD "\"forward\": [0, 0, 1], \"up\": [0, 1, 0], \"target\": [0, 0, "
                   "0], \"pole\": [0, 1, 0], \"offset\": [0, null, 0]}]}",
            "ik[0].offset[1]", "finite number");
}

/* A prepared mix of a file (NULL when it does not parse or prepare). */
static ossa_mix *prepare(const motion_model *m, const ossa_mix_file *file) {
    ossa_mix *mix = NULL;
    ossa_error error;
    CHECK(file && ossa_mix_create(m->rig, ossa_mix_file_desc(file), &mix, &error) == OSSA_OK);
    return mix;
}

/* ossa_mix_file_pose: the mix, the root in place (or carried), the aim entry applied. */
static void check_pose(const motion_model *m, const motion_model *cesium) {
    ossa_error error;
    ossa_mix_file *file =
        parse(m,
              LAYERS "\"root_motion\": {\"node\": \"b_Hip_01\", \"mode\": \"full\"},"
                     "\"ik\": [{\"type\": \"aim\", \"node\": \"b_Head_05\", \"forward\": [0, 1, 0],"
                     " \"up\": [1, 0, 0], \"target\": [30, 80, 90], \"pole\": [0, 1, 0]}]}",
              &error);
    ossa_mix *mix = prepare(m, file);
    static _Alignas(16) unsigned char scratch[1 << 16];
    if (!mix || ossa_mix_scratch_size(mix) > sizeof scratch) {
        CHECK(0);
        ossa_mix_file_free(file);
        ossa_mix_free(mix);
        return;
    }
    const ossa_root_motion_desc *root = ossa_mix_file_root_motion(file);
    double clock = 0.37;
    /* what the mix alone gives the root, split by hand */
    ossa_character_update(m->character, NULL, 0, OSSA_WRAP_CLAMP, NULL);
    ossa_mix_sample(mix, clock, scratch, ossa_character_pose(m->character));
    ossa_trs mixed = ossa_character_pose(m->character)->local[root->node], in_place;
    ossa_motion motion;
    CHECK(ossa_root_motion_split(root, &mixed, &motion, &in_place, &error) == OSSA_OK);
    CHECK(trs_distance(&mixed, &in_place) > 1); /* the walk moves the hip */

    CHECKF(ossa_mix_file_pose(file, mix, clock, NULL, scratch, m->character, &error) == OSSA_OK,
           "%s: %s", error.path, error.message);
    CHECK(trs_distance(&ossa_character_pose(m->character)->local[root->node], &in_place) < 1e-5);
    /* the head's forward axis, in world space, points at the target */
    const float *head = ossa_character_world(m->character) +
                        12 * (size_t)ossa_model_find_node(m->model, "b_Head_05");
    double axis[3] = {head[1], head[5], head[9]},
           to[3] = {30 - head[3], 80 - head[7], 90 - head[11]};
    double dot = axis[0] * to[0] + axis[1] * to[1] + axis[2] * to[2];
    double cosine = dot / sqrt((axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]) *
                               (to[0] * to[0] + to[1] * to[1] + to[2] * to[2]));
    CHECKF(cosine > 0.99999, "the head aims %.6f off its target", cosine);

    /* carried: the in-place part moved on by the motion given */
    ossa_motion carry = {{1, 2, 3}, {0, 0, 0, 1}};
    CHECK(ossa_mix_file_pose(file, mix, clock, &carry, scratch, m->character, &error) == OSSA_OK);
    const ossa_trs *carried = &ossa_character_pose(m->character)->local[root->node];
    for (int c = 0; c < 3; c++)
        CHECK_NEAR(carried->translation[c], in_place.translation[c] + carry.translation[c], 1e-4);

    /* misuse: refused, the character left as it was */
    ossa_trs before = ossa_character_pose(m->character)->local[root->node];
    CHECK(ossa_mix_file_pose(NULL, mix, clock, NULL, scratch, m->character, &error) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_file_pose(file, NULL, clock, NULL, scratch, m->character, NULL) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_file_pose(file, mix, clock, NULL, NULL, m->character, &error) ==
          OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_file_pose(file, mix, clock, NULL, scratch, NULL, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_mix_file_pose(file, mix, clock, NULL, scratch, cesium->character, &error) ==
              OSSA_ERROR_ARGUMENT &&
          strstr(error.message, "another model"));
    ossa_mix_file *two =
        parse(m, "{\"layers\": [{\"animation\": \"Walk\"}, {\"animation\": \"Run\"}]}", &error);
    CHECK(ossa_mix_file_pose(two, mix, clock, NULL, scratch, m->character, &error) ==
              OSSA_ERROR_ARGUMENT &&
          strstr(error.message, "not prepared from this mix file"));
    CHECK(trs_distance(&ossa_character_pose(m->character)->local[root->node], &before) == 0);
    float target[3] = {9, 9, 9};
    ossa_mix_file_ik_target(file, 0, m->character, target);
    CHECK(target[0] == 30 && target[1] == 80 && target[2] == 90);
    ossa_mix_file_ik_target(file, 1, m->character, target);
    CHECK(target[0] == 0 && target[1] == 0 && target[2] == 0);
    ossa_mix_file_free(two);
    ossa_mix_free(mix);
    ossa_mix_file_free(file);
}

int main(void) {
    motion_model fox, cesium;
    CHECK(motion_model_load("models/Fox/Fox.glb", &fox) == 0);
    CHECK(motion_model_load("models/CesiumMan/glTF-Binary/CesiumMan.glb", &cesium) == 0);
    if (fox.model && cesium.model) {
        check_values(&fox);
        check_refusals(&fox, &cesium);
        check_pose(&fox, &cesium);
    }
    motion_model_free(&fox);
    motion_model_free(&cesium);
    return ossa_test_finish("motion_file");
}
