/* `ossa` (no OpenGL) as a new user meets it: an --anim or --vertices the model lacks is a usage
 * error (2) (a name lists the animations there are), --anim takes names as well as indices,
 * --anim all / a list samples the animations together (the library's
 * ossa_clips_sample, to the bit) with arrays in --json, sample's text prints what its help
 * promises, its --json stays JSON where values overflow, --allow-unsafe-paths, messages name
 * the path as given once, bench tells two files of the same name apart, and `make demo` builds
 * the command only. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "cli_util.h"
#include "ossa/palette.h"
#include "ossa/sample.h"
#include "test_support.h"

static char fox[1024], cesium[1024], blender[1024], morph[1024];

static void check_exit_codes(void) {
    CHECK(cli("sample '%s' --anim 3 --time 0", fox) == 2);
    CHECKF(strstr(cli_err, "--anim 3:") && strstr(cli_err, "has 3 animations (0 to 2)"), "%s",
           cli_err);
    CHECK(occurrences(cli_err, fox) == 1);
    CHECK(cli("sample '%s' --anim 0,7 --time 0", fox) == 2);
    CHECK(strstr(cli_err, "--anim 7:") != NULL);
    /* a name the model lacks: usage error naming the animations it has */
    CHECK(cli("sample '%s' --anim x --time 0", fox) == 2);
    CHECKF(strstr(cli_err, "--anim x:") && strstr(cli_err, "has no animation of that name") &&
               strstr(cli_err, "0 \"Survey\", 1 \"Walk\", 2 \"Run\""),
           "%s", cli_err);
    CHECK(cli("sample '%s' --anim Walk, --time 0", fox) == 2);
    CHECK(strstr(cli_err, "not 'Walk,'") != NULL);
    CHECK(cli("sample '%s' --anim 1, --time 0", fox) == 2);
    CHECK(cli("sample '%s' --anim 2 --time 0", fox) == 0);
    /* --vertices past the largest primitive: usage error; within it: fine */
    CHECK(cli("sample '%s' --time 1 --vertices 0,3273", cesium) == 2);
    CHECKF(strstr(cli_err, "--vertices 3273") && strstr(cli_err, "has 3273 vertices"), "%s",
           cli_err);
    CHECK(cli("sample '%s' --time 1 --vertices 0,3272 --json", cesium) == 0);
    /* a file that cannot be read: model error, its path as given, once */
    CHECK(cli("sample /nonexistent/dir/model.gltf --time 0") == 1);
    CHECKF(!strncmp(cli_err, "error: /nonexistent/dir/model.gltf: ", 36), "%s", cli_err);
    CHECK(occurrences(cli_err, "model.gltf") == 1);
    CHECK(cli("info /nonexistent/dir/model.gltf") == 1);
    CHECK(occurrences(cli_err, "model.gltf") == 1);
}

static const cJSON *item(const cJSON *o, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The node_world of `sample --json` (glTF node order, column-major 4x4) against the library:
 * ossa_clips_sample of the same clips, then forward kinematics. Returns mismatching floats. */
static int compare_worlds(const char *path, const uint32_t *anims, uint32_t count, float time,
                          const cJSON *node_world) {
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_clip_set *set = NULL;
    int bad = -1;
    if (ossa_document_load_file(path, NULL, &doc, NULL) || ossa_rig_build(doc, NULL, &rig, NULL) ||
        ossa_clip_set_build(doc, rig, NULL, &set, NULL))
        goto done;
    const ossa_clip *clips[8];
    float times[8];
    for (uint32_t k = 0; k < count; k++)
        clips[k] = ossa_clip_set_clip(set, anims[k]), times[k] = time;
    ossa_pose pose = {calloc(rig->node_count, sizeof(ossa_trs)),
                      calloc(rig->weight_total + 1, sizeof(float))};
    float *world = calloc(12 * (size_t)rig->node_count, sizeof(float));
    uint32_t joints = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++)
        joints += rig->skins[s].joint_count;
    float *palettes = calloc(12 * (size_t)joints + 12, sizeof(float));
    if (ossa_clips_sample(rig, clips, times, count, NULL, &pose) == OSSA_OK) {
        ossa_fk_palettes_world(rig, &pose, world, palettes);
        bad = cJSON_GetArraySize(node_world) == (int)doc->node_count ? 0 : 1;
        for (uint32_t g = 0; !bad && g < doc->node_count; g++) {
            const float *m = world + 12 * (size_t)rig->rig_from_gltf[g];
            const cJSON *col = cJSON_GetArrayItem(node_world, (int)g);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    bad += (float)cJSON_GetArrayItem(col, 4 * c + r)->valuedouble != m[4 * r + c];
        }
    }
    free(pose.local);
    free(pose.weights);
    free(world);
    free(palettes);
done:
    ossa_clip_set_free(set);
    ossa_rig_free(rig);
    ossa_document_free(doc);
    return bad;
}

static void check_anim_lists(void) {
    /* one clip per object: all three together */
    CHECK(cli("sample '%s' --anim all --time 0.5 --time 1.25 --json", blender) == 0);
    cJSON *root = cJSON_Parse(cli_out);
    CHECKF(root != NULL, "sample --json is one JSON object");
    if (root) {
        const cJSON *anims = item(root, "animation"), *names = item(root, "animation_name");
        CHECK(cJSON_IsArray(anims) && cJSON_GetArraySize(anims) == 3);
        CHECK(cJSON_GetArrayItem(anims, 2)->valueint == 2);
        CHECK(cJSON_IsArray(names) &&
              !strcmp(cJSON_GetArrayItem(names, 1)->valuestring, "ConeAction"));
        const cJSON *samples = item(root, "samples");
        CHECK(cJSON_GetArraySize(samples) == 2);
        static const uint32_t all[3] = {0, 1, 2};
        const float times[2] = {0.5f, 1.25f};
        for (int s = 0; s < 2 && s < cJSON_GetArraySize(samples); s++) {
            const cJSON *sample = cJSON_GetArrayItem(samples, s);
            int bad = compare_worlds(blender, all, 3, times[s], item(sample, "node_world"));
            CHECKF(bad == 0, "sample %d: %d world floats differ from ossa_clips_sample", s, bad);
            /* the three moved meshes (sphere, cone, cube) are listed */
            CHECK(cJSON_GetArraySize(item(sample, "primitives")) == 3);
        }
        cJSON_Delete(root);
    }
    /* a list: arrays too, in the given order; it differs from all three */
    CHECK(cli("sample '%s' --anim 2,0 --time 1.25 --json", blender) == 0);
    root = cJSON_Parse(cli_out);
    if (root) {
        const cJSON *anims = item(root, "animation");
        CHECK(cJSON_GetArraySize(anims) == 2 && cJSON_GetArrayItem(anims, 0)->valueint == 2);
        static const uint32_t two[2] = {2, 0};
        const cJSON *sample = cJSON_GetArrayItem(item(root, "samples"), 0);
        CHECK(compare_worlds(blender, two, 2, 1.25f, item(sample, "node_world")) == 0);
        static const uint32_t all[3] = {0, 1, 2};
        CHECK(compare_worlds(blender, all, 3, 1.25f, item(sample, "node_world")) > 0);
        CHECK(cJSON_GetArraySize(item(sample, "primitives")) == 3); /* cone: child of cube */
        cJSON_Delete(root);
    }
    /* one index: the golden format's number and string */
    CHECK(cli("sample '%s' --anim 1 --time 1 --json", blender) == 0);
    root = cJSON_Parse(cli_out);
    CHECK(root && cJSON_IsNumber(item(root, "animation")) &&
          cJSON_IsString(item(root, "animation_name")));
    cJSON_Delete(root);
    /* names as ossa info lists them, alone or in a list with indices: the same output */
    char *by_index = NULL;
    if (cli("sample '%s' --anim 1,2 --time 0.3 --json", fox) == 0) by_index = strdup(cli_out);
    CHECK(cli("sample '%s' --anim Walk,Run --time 0.3 --json", fox) == 0);
    CHECK(by_index && !strcmp(by_index, cli_out));
    CHECK(cli("sample '%s' --anim Walk,2 --time 0.3 --json", fox) == 0);
    CHECK(by_index && !strcmp(by_index, cli_out));
    free(by_index);
    CHECK(cli("sample '%s' --anim Run --time 0.3 --json", fox) == 0);
    root = cJSON_Parse(cli_out);
    CHECK(root && item(root, "animation")->valueint == 2 &&
          !strcmp(item(root, "animation_name")->valuestring, "Run"));
    cJSON_Delete(root);
}

/* Lines of text starting with prefix. */
static int lines_starting(const char *text, const char *prefix) {
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *line = text; line && *line;) {
        if (!strncmp(line, prefix, len)) n++;
        line = strchr(line, '\n');
        if (line) line++;
    }
    return n;
}

static void check_sample_text(void) {
    /* CesiumMan: 22 nodes, one skin of 19 joints; no vertex unless asked */
    CHECK(cli("sample '%s' --time 1 --time 1.5", cesium) == 0);
    CHECK(lines_starting(cli_out, "time ") == 2);
    CHECK(lines_starting(cli_out, "  node ") == 2 * 22);
    CHECK(lines_starting(cli_out, "  skin 0 joint ") == 2 * 19);
    CHECK(occurrences(cli_out, " vertex ") == 0);
    CHECK(cli("sample '%s' --time 1 --vertices 0,100", cesium) == 0);
    CHECK(occurrences(cli_out, " vertex 100 position ") == 1 &&
          occurrences(cli_out, " normal ") == 2);
    /* the text vertex is the JSON one */
    char text_line[256] = "";
    const char *at = strstr(cli_out, " vertex 100 position ");
    if (at) sscanf(at, " vertex 100 position %255[^\n]", text_line);
    CHECK(cli("sample '%s' --time 1 --vertices 100 --json", cesium) == 0);
    cJSON *root = cJSON_Parse(cli_out);
    const cJSON *prim =
        root ? cJSON_GetArrayItem(item(cJSON_GetArrayItem(item(root, "samples"), 0), "primitives"),
                                  0)
             : NULL;
    const cJSON *pos = prim ? cJSON_GetArrayItem(item(prim, "positions"), 0) : NULL;
    float x = 0, y = 0, z = 0;
    CHECK(pos && sscanf(text_line, "%f %f %f", &x, &y, &z) == 3);
    if (pos) {
        CHECK_NEAR(x, cJSON_GetArrayItem(pos, 0)->valuedouble, 1e-5);
        CHECK_NEAR(y, cJSON_GetArrayItem(pos, 1)->valuedouble, 1e-5);
        CHECK_NEAR(z, cJSON_GetArrayItem(pos, 2)->valuedouble, 1e-5);
    }
    cJSON_Delete(root);
    /* morph weights of every morphed node */
    CHECK(cli("sample '%s' --anim 1 --time 0.7", morph) == 0);
    CHECK(lines_starting(cli_out, "  node ") > 0 && occurrences(cli_out, " morph weights ") == 1);
    CHECK(cli("sample --help") == 0);
    CHECK(strstr(cli_out, "morph weights") && strstr(cli_out, "joint matrices") &&
          strstr(cli_out, "--anim all") && strstr(cli_out, "are arrays"));
}

/* Keys near the float range overflow interpolation (as in every implementation of the spec's
 * lerp): --json writes such values as null, which JSON parsers read, not as "inf" or "nan". */
static void check_sample_json_not_finite(void) {
    const float t[3][3] = {{-3e38f, 0, 0}, {3e38f, 1, 0}, {0, 0, 0}};
    const float r[3][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    char json[2048];
    ossa_test_two_track_gltf(t, r, json, sizeof json);
    const char *path = scratch_path("overflow.gltf");
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(json, f) >= 0);
    if (f) fclose(f);
    CHECK(cli("sample '%s' --time 0 --time 0.5 --json", path) == 0);
    cJSON *root = cJSON_Parse(cli_out);
    CHECKF(root != NULL, "the JSON parses: %.200s", cli_out);
    const cJSON *samples = item(root, "samples");
    const cJSON *at0 = cJSON_GetArrayItem(item(cJSON_GetArrayItem(samples, 0), "node_world"), 1);
    const cJSON *at05 = cJSON_GetArrayItem(item(cJSON_GetArrayItem(samples, 1), "node_world"), 1);
    /* node 1: at a key the value is exact; between the keys x overflows (and forward kinematics
     * spreads it: 0 times infinity), the matrix's constant row stays */
    CHECK(at0 && (float)cJSON_GetArrayItem(at0, 12)->valuedouble == -3e38f);
    CHECK(at05 && cJSON_IsNull(cJSON_GetArrayItem(at05, 12)) &&
          cJSON_GetArrayItem(at05, 15)->valuedouble == 1.0);
    cJSON_Delete(root);
}

static void check_unsafe_paths(void) {
    const char *model = write_unsafe_model();
    CHECK(model != NULL);
    if (!model) return;
    CHECK(cli("info '%s'", model) == 1);
    CHECKF(strstr(cli_err, "buffers[0].uri") != NULL, "%s", cli_err);
    CHECK(occurrences(cli_err, model) == 1);
    CHECKF(strstr(cli_err, "give --allow-unsafe-paths"), "%s", cli_err); /* the flag, named */
    CHECK(cli("info '%s' --allow-unsafe-paths", model) == 0);
    CHECK(cli("sample '%s' --time 1", model) == 1);
    CHECK(cli("sample '%s' --time 1 --allow-unsafe-paths --anim all", model) == 0);
    CHECK(occurrences(cli_out, "  node ") == 4);
    const char *quick = "--seconds 0.02 --vertices 1024 --characters 2 --crowd 4 --threads 1";
    CHECK(cli("bench --models '%s' %s", model, quick) == 1);
    CHECK(occurrences(cli_err, model) == 1 && strstr(cli_err, "buffers[0].uri"));
    CHECK(cli("bench --models '%s' %s --allow-unsafe-paths --json", model, quick) == 0);
    CHECK(strstr(cli_out, "\"model\":\"model.gltf\"") != NULL);
}

static void check_bench_labels(void) {
    char a[1024], b[1024];
    mkdir(scratch_path("a"), 0777);
    mkdir(scratch_path("b"), 0777);
    snprintf(a, sizeof a, "%s", scratch_path("a/Fox.glb"));
    snprintf(b, sizeof b, "%s", scratch_path("b/Fox.glb"));
    CHECK(copy_file(fox, a) && copy_file(fox, b));
    CHECK(cli("bench --models '%s','%s' --seconds 0.02 --vertices 1024 --characters 2 --crowd 4 "
              "--threads 1 --json",
              a, b) == 0);
    cJSON *root = cJSON_Parse(cli_out);
    CHECK(root != NULL);
    static const char *const sections[] = {"characters", "crowd", "skinning", "ik", "mix"};
    for (int s = 0; root && s < 5; s++) {
        int first = 0, second = 0, other = 0;
        const cJSON *row;
        cJSON_ArrayForEach(row, item(root, sections[s])) {
            const char *m = item(row, "model")->valuestring;
            if (!strcmp(m, "a/Fox.glb"))
                first++;
            else if (!strcmp(m, "b/Fox.glb"))
                second++;
            else
                other += strncmp(m, "synthetic", 9) != 0;
        }
        CHECKF(first > 0 && first == second && other == 0,
               "%s: %d rows a/Fox.glb, %d b/Fox.glb, %d other", sections[s], first, second, other);
    }
    cJSON_Delete(root);
}

/* `make demo` builds the ossa command only: its one build command names the target. */
static void check_make_demo(void) {
    char command[1400];
    snprintf(command, sizeof command, "make -n -C '%s' demo JOBS=2 2>&1", OSSA_SOURCE_DIR);
    FILE *p = popen(command, "r");
    char line[1024];
    int builds = 0, cli_only = 0;
    while (p && fgets(line, sizeof line, p)) {
        if (!strstr(line, "cmake --build")) continue;
        builds++;
        cli_only += strstr(line, "--target ossa_cli") != NULL;
    }
    CHECK(p && pclose(p) == 0);
    CHECKF(builds == 1 && cli_only == 1, "make demo runs %d builds, %d of the command only", builds,
           cli_only);
}

int main(void) {
    if (!getenv("OSSA_CLI")) {
        fprintf(stderr, "OSSA_CLI is not set\n");
        return 1;
    }
    snprintf(fox, sizeof fox, "%s", ossa_test_shared_path("models/Fox/Fox.glb"));
    snprintf(cesium, sizeof cesium, "%s",
             ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb"));
    snprintf(blender, sizeof blender, "%s",
             ossa_test_shared_path("models/BlenderAllAnimations/03_all_animations.gltf"));
    snprintf(morph, sizeof morph, "%s",
             ossa_test_shared_path("models/MorphStressTest/MorphStressTest.gltf"));
    check_exit_codes();
    check_anim_lists();
    check_sample_text();
    check_sample_json_not_finite();
    check_unsafe_paths();
    check_bench_labels();
    check_make_demo();
    char cleanup[128];
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", scratch_dir());
    CHECK(system(cleanup) == 0);
    free(cli_out);
    free(cli_err);
    return ossa_test_finish("cli_first_contact");
}
