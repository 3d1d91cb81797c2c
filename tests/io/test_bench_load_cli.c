/* `ossa bench --load-only` ($OSSA_CLI): one load row per .gltf and .glb file of the shared models
 * (or per --models file), named apart, with the whole load-and-unpack time no shorter than the
 * load call it contains; a file that does not load is refused before anything is measured. Speeds
 * are not judged here. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test_support.h"

static char *out_text, *err_text;

static int run_bench(const char *args) {
    char command[4096];
    snprintf(command, sizeof command, "bench %s", args);
    free(out_text);
    free(err_text);
    out_text = err_text = NULL;
    return ossa_test_run_cli(command, &out_text, &err_text);
}

static int occurrences(const char *text, const char *phrase) {
    int n = 0;
    for (const char *at = text ? strstr(text, phrase) : NULL; at; at = strstr(at + 1, phrase))
        n++;
    return n;
}

typedef struct model_files {
    char *paths[64];
    int count;
} model_files;

static void add_file(const char *path, void *user) {
    model_files *files = user;
    if (files->count < 64) files->paths[files->count++] = strdup(path);
}

static double number(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    CHECKF(cJSON_IsNumber(item), "\"%s\" is a number", key);
    return cJSON_IsNumber(item) ? item->valuedouble : -1.0;
}

/* Whether `label` is the end of `path` after a '/' (or the whole path). */
static int names(const char *path, const char *label) {
    size_t p = strlen(path), l = strlen(label);
    return l <= p && !strcmp(path + p - l, label) && (l == p || path[p - l - 1] == '/');
}

/* Every shared model file has exactly one row, and no two rows share a label. */
static void check_every_shared_file(const cJSON *load, const model_files *files) {
    CHECK(cJSON_GetArraySize(load) == files->count);
    int seen[64] = {0};
    const cJSON *row;
    cJSON_ArrayForEach(row, load) {
        const cJSON *model = cJSON_GetObjectItemCaseSensitive(row, "model");
        CHECK(cJSON_IsString(model));
        if (!cJSON_IsString(model)) continue;
        int matches = 0;
        for (int f = 0; f < files->count; f++)
            if (names(files->paths[f], model->valuestring)) {
                matches++;
                seen[f]++;
            }
        CHECKF(matches == 1, "\"%s\" names %d shared files", model->valuestring, matches);
        double us = number(row, "us"), us_load = number(row, "us_load");
        CHECK(us_load > 0.0 && us >= us_load);
    }
    for (int f = 0; f < files->count; f++)
        CHECKF(seen[f] == 1, "%s has %d rows", files->paths[f], seen[f]);
}

int main(void) {
    if (!getenv("OSSA_CLI")) {
        fprintf(stderr, "OSSA_CLI is not set\n");
        return 1;
    }
    setenv("OSSA_SHARED", ossa_test_shared_dir(), 1);
    model_files files = {{0}, 0};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/models", ossa_test_shared_dir());
    ossa_test_walk(dir, ".gltf", add_file, &files);
    ossa_test_walk(dir, ".glb", add_file, &files);
    CHECK(files.count >= 10);

    CHECK(run_bench("--load-only --json") == 0);
    cJSON *root = cJSON_Parse(out_text ? out_text : "");
    CHECKF(root != NULL, "stdout is one JSON object");
    if (root) {
        /* the host (checked in bench_cli) and the load rows, nothing else */
        CHECK(cJSON_GetArraySize(root) == 2);
        CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "host")));
        check_every_shared_file(cJSON_GetObjectItemCaseSensitive(root, "load"), &files);
        cJSON_Delete(root);
    }

    /* --models: those files only; the table names them. */
    char args[4096];
    const char *fox = ossa_test_shared_path("models/Fox/Fox.glb");
    snprintf(args, sizeof args, "--load-only --models '%s'", fox);
    CHECK(run_bench(args) == 0);
    CHECK(out_text && strstr(out_text, "Fox.glb") && !strstr(out_text, "CesiumMan"));
    CHECK(out_text && !strstr(out_text, "bandwidth"));
    CHECK(out_text && !strncmp(out_text, "host ", 5)); /* the processor first */

    /* The whole benchmark's object carries the load rows of its models too. */
    snprintf(args, sizeof args,
             "--models '%s' --vertices 65536 --seconds 0.01 --characters 8 --crowd 50 "
             "--skin-crowd 20 --bandwidth-mib 8 --threads 1 --json",
             fox);
    CHECK(run_bench(args) == 0);
    root = cJSON_Parse(out_text ? out_text : "");
    CHECKF(root != NULL, "stdout is one JSON object");
    if (root) {
        const cJSON *load = cJSON_GetObjectItemCaseSensitive(root, "load");
        CHECK(cJSON_GetArraySize(load) == 1 && cJSON_GetObjectItemCaseSensitive(root, "skinning"));
        const cJSON *row = cJSON_GetArrayItem(load, 0);
        const cJSON *model = cJSON_GetObjectItemCaseSensitive(row, "model");
        CHECK(cJSON_IsString(model) && !strcmp(model->valuestring, "Fox.glb"));
        CHECK(number(row, "us") >= number(row, "us_load") && number(row, "us_load") > 0.0);
        cJSON_Delete(root);
    }

    /* A file that does not load: one error naming it, nothing measured, exit 1. */
    snprintf(args, sizeof args, "--load-only --models '%s',/nonexistent/missing.glb", fox);
    CHECK(run_bench(args) == 1);
    CHECK(err_text && strstr(err_text, "missing.glb: the file cannot be opened"));
    CHECK(occurrences(err_text, "missing.glb") == 1);
    CHECK(out_text && !strstr(out_text, "Fox.glb"));

    for (int f = 0; f < files.count; f++)
        free(files.paths[f]);
    free(out_text);
    free(err_text);
    return ossa_test_finish("io_bench_load_cli");
}
