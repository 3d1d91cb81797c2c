/* `ossa info` ($OSSA_CLI): its output on Fox, warnings and refusals on stderr, exit codes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test_support.h"

static char *out_text, *err_text;

/* Runs `ossa info ARGS`, keeps stdout and stderr, returns the exit code. */
static int run_info(const char *args) {
    char command[4096];
    snprintf(command, sizeof command, "info %s", args);
    free(out_text);
    free(err_text);
    return ossa_test_run_cli(command, &out_text, &err_text);
}

/* Whether text has a line starting with prefix and containing phrase. */
static int has_line(const char *text, const char *prefix, const char *phrase) {
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%.*s", (int)len, line);
        if (!strncmp(buf, prefix, strlen(prefix)) && strstr(buf, phrase)) return 1;
        line = end ? end + 1 : NULL;
    }
    return 0;
}

static const char *model(const char *relative) {
    static char path[2][1024];
    static int which;
    which ^= 1;
    snprintf(path[which], sizeof path[which], "'%s'", ossa_test_shared_path(relative));
    return path[which];
}

int main(void) {
    if (!getenv("OSSA_CLI")) {
        fprintf(stderr, "OSSA_CLI is not set\n");
        return 1;
    }

    CHECK(run_info(model("models/Fox/Fox.glb")) == 0);
    CHECK(has_line(out_text, "Fox.glb: 26 nodes", "1 skins, 1 meshes, 3 animations, 0 warnings"));
    CHECK(has_line(out_text, "    2 \"_rootJoint\" *", ""));
    CHECK(has_line(out_text, "          18 \"b_LeftLeg01_015\" *", ""));
    CHECK(has_line(out_text, "  1 \"fox\" mesh 0 skin 0", ""));
    CHECK(has_line(out_text, "  0: 24 joints", "skeleton node 2"));
    CHECK(has_line(out_text, "    primitive 0: TRIANGLES, 1728 vertices", "1 influence set"));
    CHECK(has_line(out_text, "  0 \"Survey\": 3.41667 s", "21 channels"));
    CHECK(has_line(out_text, "    rotation     20: LINEAR 20", ""));
    /* each clip's runtime bytes, plain and compact: Run's, to compare with --json below */
    unsigned long run_plain = 0, run_compact = 0;
    const char *run_line = out_text ? strstr(out_text, "  2 \"Run\": plain ") : NULL;
    CHECK(run_line && sscanf(run_line, "  2 \"Run\": plain %lu B, compact %lu B", &run_plain,
                             &run_compact) == 2);
    CHECK(run_compact > 0 && run_compact < run_plain / 2);
    CHECK(err_text && err_text[0] == '\0');

    /* --json: the same facts as one JSON object. */
    char json_args[1200];
    snprintf(json_args, sizeof json_args, "--json %s", model("models/Fox/Fox.glb"));
    CHECK(run_info(json_args) == 0);
    cJSON *root = out_text ? cJSON_Parse(out_text) : NULL;
    CHECK(root != NULL);
    if (root) {
        const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
        const cJSON *anims = cJSON_GetObjectItemCaseSensitive(root, "animations");
        CHECK(cJSON_GetArraySize(nodes) == 26 && cJSON_GetArraySize(anims) == 3);
        const cJSON *first = cJSON_GetArrayItem(anims, 0);
        CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(first, "name")->valuestring, "Survey"));
        CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(first, "channels")) == 21);
        CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(first, "end")->valuedouble, 3.41667, 1e-4);
        /* Run's runtime bytes, as the text output prints them */
        const cJSON *run = cJSON_GetArrayItem(anims, 2);
        CHECK(cJSON_GetObjectItemCaseSensitive(run, "plain_bytes")->valuedouble == run_plain);
        CHECK(cJSON_GetObjectItemCaseSensitive(run, "compact_bytes")->valuedouble == run_compact);
        double error = cJSON_GetObjectItemCaseSensitive(run, "compact_error")->valuedouble;
        double budget = cJSON_GetObjectItemCaseSensitive(run, "compact_budget")->valuedouble;
        CHECK(error > 0 && error <= budget && budget > 0.017 && budget < 0.018);
        const cJSON *joint = cJSON_GetArrayItem(nodes, 2);
        CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(joint, "joint")));
        cJSON_Delete(root);
    }

    CHECK(run_info(model("models/AssimpSimpleSkin/quad_skin.glb")) == 0);
    /* messages name the file as it was given */
    char prefix[1200];
    snprintf(prefix, sizeof prefix, "warning: %s: nodes[22]: ",
             ossa_test_shared_path("models/AssimpSimpleSkin/quad_skin.glb"));
    CHECK(has_line(err_text, prefix, "local transform"));

    CHECK(run_info(model("invalid/validator/animation_data/invalid_input_values.gltf")) == 1);
    snprintf(prefix, sizeof prefix, "error: %s: animations[0].samplers[0].input: ",
             ossa_test_shared_path("invalid/validator/animation_data/invalid_input_values.gltf"));
    CHECK(has_line(err_text, prefix, "negative"));
    CHECK(out_text && out_text[0] == '\0');

    CHECK(run_info(model("invalid/validator/glb/length_mismatch.glb")) == 1);
    snprintf(prefix, sizeof prefix,
             "error: %s: ", ossa_test_shared_path("invalid/validator/glb/length_mismatch.glb"));
    CHECK(has_line(err_text, prefix, "declares 49 bytes"));

    CHECK(run_info("") == 2);
    CHECK(has_line(err_text, "usage: ossa info MODEL", ""));
    CHECK(run_info("--frobnicate x.glb") == 2);
    CHECK(run_info("a.glb b.glb") == 2);
    CHECK(run_info("--help") == 0);
    CHECK(has_line(out_text, "usage: ossa info MODEL", ""));
    CHECK(run_info("/nonexistent/model.gltf") == 1);
    CHECK(has_line(err_text, "error: /nonexistent/model.gltf: ", "cannot be opened"));
    CHECK(err_text && !strstr(strstr(err_text, "model.gltf") + 1, "model.gltf")); /* once */

    free(out_text);
    free(err_text);
    return ossa_test_finish("io_info_cli");
}
