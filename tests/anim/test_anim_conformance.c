/* Conformance: every golden/.../anim*.json file, through the library and through
 * `ossa sample --json`: node_world, joint_matrices and morph_weights within its tolerances. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_fixture.h"
#include "test_support.h"

static int golden_files = 0;

static char *read_command_output(const char *command) {
    FILE *p = popen(command, "r");
    if (!p) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int status = pclose(p);
    if (buf) buf[len] = '\0';
    if (status != 0) {
        fprintf(stderr, "command failed (%d): %s\n", status, command);
        free(buf);
        return NULL;
    }
    return buf;
}

static void check_library(const char *model, const cJSON *golden, int anim, double tol,
                          double tol_u, const char *name) {
    anim_fixture f;
    int loaded = anim_fixture_load(&f, ossa_test_shared_path(model), NULL);
    CHECKF(loaded, "%s: %s loads", name, model);
    if (!loaded) return;
    CHECKF(anim >= 0 && (uint32_t)anim < ossa_clip_set_count(f.clips), "%s: animation %d exists",
           name, anim);
    if (anim >= 0 && (uint32_t)anim < ossa_clip_set_count(f.clips)) {
        const ossa_clip *clip = ossa_clip_set_clip(f.clips, anim);
        const cJSON *sample;
        cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
            double t = cJSON_GetObjectItem(sample, "time")->valuedouble;
            anim_fixture_eval(&f, clip, (float)t, NULL);
            cJSON *ours = anim_fixture_frame_json(&f);
            char label[700];
            snprintf(label, sizeof label, "%s [library %s] t=%.9g", name, model, t);
            anim_compare_sample(sample, ours, tol, tol_u, label);
            cJSON_Delete(ours);
        }
    }
    anim_fixture_free(&f);
}

static void check_cli(const char *model, const cJSON *golden, int anim, double tol, double tol_u,
                      const char *name) {
    const char *cli = getenv("OSSA_CLI");
    if (!cli || !*cli) return; /* main() fails the suite once */
    size_t cap = 8192, len;
    char *command = malloc(cap);
    len = (size_t)snprintf(command, cap, "'%s' sample '%s' --anim %d --json --vertices 0", cli,
                           ossa_test_shared_path(model), anim);
    const cJSON *sample;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        if (cap - len < 64) {
            cap *= 2;
            command = realloc(command, cap);
        }
        len += (size_t)snprintf(command + len, cap - len, " --time %.17g",
                                cJSON_GetObjectItem(sample, "time")->valuedouble);
    }
    char *text = read_command_output(command);
    free(command);
    CHECKF(text != NULL, "%s: ossa sample runs for %s", name, model);
    cJSON *ours = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECKF(ours != NULL, "%s: ossa sample prints JSON", name);
    if (!ours) return;
    const cJSON *ours_samples = cJSON_GetObjectItem(ours, "samples");
    CHECK(cJSON_GetObjectItem(ours, "animation")->valueint == anim);
    CHECK(cJSON_GetArraySize(ours_samples) ==
          cJSON_GetArraySize(cJSON_GetObjectItem(golden, "samples")));
    int i = 0;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        const cJSON *mine = cJSON_GetArrayItem(ours_samples, i++);
        if (!mine) break;
        double t = cJSON_GetObjectItem(sample, "time")->valuedouble;
        CHECKF(cJSON_GetObjectItem(mine, "time")->valuedouble == t, "%s: CLI time %.17g", name, t);
        char label[700];
        snprintf(label, sizeof label, "%s [cli %s] t=%.9g", name, model, t);
        anim_compare_sample(sample, mine, tol, tol_u, label);
    }
    cJSON_Delete(ours);
}

static void check_golden(const char *path, void *user) {
    (void)user;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, "anim", 4) != 0) return;
    size_t size;
    char *text = (char *)ossa_test_read_file(path, &size);
    cJSON *golden = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECKF(golden != NULL, "%s parses", path);
    if (!golden) return;
    golden_files++;
    const char *name = path + strlen(ossa_test_shared_dir()) + 1;
    int anim = cJSON_GetObjectItem(golden, "animation")->valueint;
    double tol = cJSON_GetObjectItem(golden, "tolerance")->valuedouble;
    double tol_u = cJSON_GetObjectItem(golden, "tolerance_unitless")->valuedouble;
    const char *model = cJSON_GetObjectItem(golden, "model")->valuestring;
    check_library(model, golden, anim, tol, tol_u, name);
    check_cli(model, golden, anim, tol, tol_u, name);
    const cJSON *variant;
    cJSON_ArrayForEach(variant, cJSON_GetObjectItem(golden, "model_variants")) {
        check_library(variant->valuestring, golden, anim, tol, tol_u, name);
    }
    cJSON_Delete(golden);
}

int main(void) {
    const char *cli = getenv("OSSA_CLI");
    CHECKF(cli && *cli, "OSSA_CLI names the ossa binary (ctest sets it)");
    char golden_dir[4096];
    snprintf(golden_dir, sizeof golden_dir, "%s", ossa_test_shared_path("golden"));
    ossa_test_walk(golden_dir, ".json", check_golden, NULL);
    CHECKF(golden_files >= 30, "found %d golden files", golden_files);
    printf("anim_conformance: %d golden files\n", golden_files);
    return ossa_test_finish("anim_conformance");
}
