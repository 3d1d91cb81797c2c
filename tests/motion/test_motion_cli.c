/* `ossa sample MODEL --mix FILE` with "root_motion" and "ik" (CesiumMan): every sample has a
 * root_motion object equal to ossa_mix_root_motion at its clock, node_world has the root in
 * place (the library's split of the mixed root), the two-bone leg's end lands on its target and
 * the aimed head's forward axis points at its target; the text format prints the motion too;
 * a refused IK entry exits 1 naming the file and the JSON path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "motion_test_util.h"
#include "test_support.h"

static const char *mix_path = "motion_cli_test.json";

static void write_mix(const char *json) {
    FILE *f = fopen(mix_path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(json, f);
    fclose(f);
}

static const float *world_of(const motion_model *m, const char *name) {
    return ossa_character_world(m->character) + 12 * (size_t)ossa_model_find_node(m->model, name);
}

/* The glTF node's column-major world matrix of a CLI sample. */
static const cJSON *node_world(const cJSON *sample, int gltf) {
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sample, "node_world"), gltf);
}

static double item(const cJSON *array, int k) {
    const cJSON *v = cJSON_GetArrayItem(array, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

int main(void) {
    motion_model m;
    const char *model = "models/CesiumMan/glTF-Binary/CesiumMan.glb";
    CHECK(motion_model_load(model, &m) == 0);
    if (!m.model) return ossa_test_finish("motion_cli");
    char path[1024], json[4096], args[4096];
    snprintf(path, sizeof path, "%s", ossa_test_shared_path(model));
    /* Targets from the in-place pose at clock 0: the left foot raised by 5 cm and moved 3 cm
     * forward; a look-at point ahead and to the left of the head. */
    ossa_root_motion_desc root = motion_root_desc(&m, "Skeleton_torso_joint_1");
    CHECK(root.up[2] > 0.999f);
    ossa_character_update(m.character, ossa_model_clip(m.model, 0), 0, OSSA_WRAP_LOOP, NULL);
    ossa_trs *torso = &ossa_character_pose(m.character)->local[root.node];
    CHECK(ossa_root_motion_split(&root, torso, NULL, torso, NULL) == OSSA_OK);
    ossa_character_finish(m.character);
    const float *foot = world_of(&m, "leg_joint_L_5"),
                *head = world_of(&m, "Skeleton_neck_joint_2");
    float target[3] = {foot[3] + 0.03f, foot[7] + 0.05f, foot[11]};
    float look[3] = {head[3] + 1.0f, head[7] + 0.3f, head[11] + 2.0f};
    snprintf(json, sizeof json,
             "{\"layers\": [{\"animation\": 0, \"speed\": 1.25}],"
             " \"root_motion\": {\"node\": \"Skeleton_torso_joint_1\", \"up\": [0, 0, 1]},"
             " \"ik\": [{\"type\": \"two_bone\", \"start\": \"leg_joint_L_1\","
             " \"middle\": \"leg_joint_L_2\", \"end\": \"leg_joint_L_5\","
             " \"target\": [%.9g, %.9g, %.9g], \"pole\": [0, 0, 1], \"weight\": 1},"
             " {\"type\": \"aim\", \"node\": \"Skeleton_neck_joint_2\", \"forward\": [0, 1, 0],"
             " \"up\": [1, 0, 0], \"target\": [%.9g, %.9g, %.9g], \"pole\": [0, 1, 0]}]}",
             (double)target[0], (double)target[1], (double)target[2], (double)look[0],
             (double)look[1], (double)look[2]);
    write_mix(json);
    ossa_mix_file *file = NULL;
    CHECK(ossa_mix_file_parse(json, strlen(json), NULL, m.model, NULL, &file, NULL) == OSSA_OK);
    ossa_mix *mix = NULL;
    CHECK(file && ossa_mix_create(m.rig, ossa_mix_file_desc(file), &mix, NULL) == OSSA_OK);
    if (!mix) return ossa_test_finish("motion_cli");
    root = *ossa_mix_file_root_motion(file); /* up exactly (0, 0, 1) from here on */
    static const double clocks[] = {0, 0.7, 3.3, 12.25};
    snprintf(args, sizeof args,
             "sample %s --mix %s --json --time 0 --time 0.7 --time 3.3 "
             "--time 12.25",
             path, mix_path);
    char *out = NULL, *err = NULL;
    CHECKF(ossa_test_run_cli(args, &out, &err) == 0, "%s", err ? err : "");
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    CHECK(doc != NULL);
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(doc, "samples"), *sample;
    CHECK(cJSON_GetArraySize(samples) == 4);
    int index = 0, torso_gltf = m.rig->gltf_from_rig[root.node];
    void *scratch = aligned_alloc(16, (ossa_mix_scratch_size(mix) + 15) & ~(size_t)15);
    cJSON_ArrayForEach(sample, samples) {
        double clock = clocks[index++];
        const cJSON *motion = cJSON_GetObjectItemCaseSensitive(sample, "root_motion");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(motion, "translation");
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(motion, "rotation");
        CHECK(cJSON_GetArraySize(t) == 3 && cJSON_GetArraySize(r) == 4);
        ossa_motion expected;
        CHECK(ossa_mix_root_motion(mix, &root, clock, 0, &expected, NULL) == OSSA_OK);
        for (int c = 0; c < 4; c++) {
            if (c < 3) CHECK_NEAR(item(t, c), expected.translation[c], 1e-12);
            CHECK_NEAR(item(r, c), expected.rotation[c], 1e-12);
        }
        if (clock > 5) /* it travels (sways) and turns a little */
            CHECK(fabs(expected.translation[0]) + fabs(expected.translation[1]) > 1e-4);
        /* the torso in place: the world of its parent times the split of the mixed torso */
        ossa_mix_sample(mix, clock, scratch, ossa_character_pose(m.character));
        torso = &ossa_character_pose(m.character)->local[root.node];
        ossa_root_motion_split(&root, torso, NULL, torso, NULL);
        ossa_character_finish(m.character);
        const float *w = world_of(&m, "Skeleton_torso_joint_1");
        const cJSON *cli = node_world(sample, torso_gltf);
        for (int row = 0; row < 3; row++)
            for (int col = 0; col < 4; col++)
                CHECK_NEAR(item(cli, 4 * col + row), w[4 * row + col], 1e-5);
        /* at clock 0 the leg reaches its target; every sample, the head looks at its own */
        const cJSON *ankle = node_world(
            sample, m.rig->gltf_from_rig[ossa_model_find_node(m.model, "leg_joint_L_5")]);
        if (clock == 0)
            for (int c = 0; c < 3; c++)
                CHECK_NEAR(item(ankle, 12 + c), target[c], 1e-4);
        const cJSON *neck = node_world(
            sample, m.rig->gltf_from_rig[ossa_model_find_node(m.model, "Skeleton_neck_joint_2")]);
        double to[3], fwd[3], n1 = 0, n2 = 0, dot = 0;
        for (int c = 0; c < 3; c++) {
            to[c] = look[c] - item(neck, 12 + c);
            fwd[c] = item(neck, 4 + c); /* the local +Y axis in world space: column 1 */
            n1 += to[c] * to[c], n2 += fwd[c] * fwd[c], dot += to[c] * fwd[c];
        }
        double angle = acos(fmin(1, dot / sqrt(n1 * n2)));
        CHECKF(angle < 1e-3, "clock %g: the head aims %g rad off", clock, angle);
    }
    free(scratch);
    cJSON_Delete(doc);
    free(out), free(err);
    /* the text format has a root_motion line per sample */
    snprintf(args, sizeof args, "sample %s --mix %s --time 1", path, mix_path);
    CHECK(ossa_test_run_cli(args, &out, NULL) == 0);
    CHECK(out && strstr(out, "  root_motion translation ") && strstr(out, " rotation "));
    free(out);
    /* a refused entry: exit 1, the file's name and the JSON path */
    write_mix("{\"layers\": [{\"animation\": 0}], \"ik\": [{\"type\": \"aim\","
              " \"node\": \"Skeleton_neck_joint_2\", \"forward\": [0, 1, 0], \"up\": [0, 2, 0],"
              " \"target\": [0, 0, 0], \"pole\": [0, 1, 0]}]}");
    CHECK(ossa_test_run_cli(args, NULL, &err) == 1);
    CHECKF(err && strstr(err, "motion_cli_test.json") && strstr(err, "ik[0].up") &&
               strstr(err, "parallel"),
           "stderr: %s", err ? err : "");
    free(err);
    remove(mix_path);
    ossa_mix_free(mix);
    ossa_mix_file_free(file);
    motion_model_free(&m);
    return ossa_test_finish("motion_cli");
}
