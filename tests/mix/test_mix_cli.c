/* `ossa sample MODEL --mix FILE`: a one-layer mix prints what --anim prints (golden format, to
 * float rounding); a cross-fade's ends print the plain clips; warnings and refusals on stderr
 * with the mix file's name and JSON path; usage errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test_support.h"

static const char *mix_path = "mix_cli_test.json"; /* in the test's working folder */

static void write_mix(const char *json) {
    FILE *f = fopen(mix_path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(json, f);
    fclose(f);
}

/* Largest difference between the numbers of two JSON values of the same shape (relative to
 * max(1, |b|)); +inf when the shapes differ. */
static double json_distance(const cJSON *a, const cJSON *b) {
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return fabs(a->valuedouble - b->valuedouble) / fmax(1.0, fabs(b->valuedouble));
    if (cJSON_IsArray(a) && cJSON_IsArray(b)) {
        if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b)) return INFINITY;
        double worst = 0;
        for (const cJSON *x = a->child, *y = b->child; x && y; x = x->next, y = y->next)
            worst = fmax(worst, json_distance(x, y));
        return worst;
    }
    if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
        double worst = 0;
        for (const cJSON *x = a->child; x; x = x->next) {
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
            worst = fmax(worst, y ? json_distance(x, y) : INFINITY);
        }
        return worst;
    }
    return cJSON_Compare(a, b, 1) ? 0 : INFINITY;
}

/* Runs the command and parses its stdout; NULL when it fails. */
static cJSON *sample_json(const char *args) {
    char *out = NULL, *err = NULL;
    int code = ossa_test_run_cli(args, &out, &err);
    CHECKF(code == 0, "ossa %s: exit %d: %s", args, code, err ? err : "");
    cJSON *root = code == 0 && out ? cJSON_Parse(out) : NULL;
    CHECKF(root != NULL, "ossa %s prints JSON", args);
    free(out), free(err);
    return root;
}

static void compare_samples(const char *mix_args, const char *plain_args, const char *what) {
    cJSON *mixed = sample_json(mix_args), *plain = sample_json(plain_args);
    if (mixed && plain) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(mixed, "mix");
        CHECK(cJSON_IsString(name) && strstr(name->valuestring, mix_path));
        CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(mixed, "animation")));
        cJSON *a = cJSON_GetObjectItemCaseSensitive(mixed, "samples");
        cJSON *b = cJSON_GetObjectItemCaseSensitive(plain, "samples");
        CHECK(cJSON_GetArraySize(a) > 0);
        for (cJSON *x = a ? a->child : NULL, *y = b ? b->child : NULL; x && y;
             x = x->next, y = y->next) /* mix clock and clip time may differ */
            cJSON_DeleteItemFromObjectCaseSensitive(x, "time"),
                cJSON_DeleteItemFromObjectCaseSensitive(y, "time");
        double d = json_distance(a, b);
        CHECKF(d < 2e-5, "%s: samples differ by %g", what, d);
    }
    cJSON_Delete(mixed), cJSON_Delete(plain);
}

int main(void) {
    char fox[1024], cesium[1024], args[4096], other[4096];
    snprintf(fox, sizeof fox, "%s", ossa_test_shared_path("models/Fox/Fox.glb"));
    snprintf(cesium, sizeof cesium, "%s",
             ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb"));

    /* One layer of weight 1, times inside the clip: the plain clip. */
    write_mix("{\"layers\":[{\"animation\":\"Run\"}]}");
    snprintf(args, sizeof args, "sample '%s' --mix %s --time 0.1 --time 0.75 --json", fox,
             mix_path);
    snprintf(other, sizeof other, "sample '%s' --anim 2 --time 0.1 --time 0.75 --json", fox);
    compare_samples(args, other, "Fox Run");
    write_mix("{\"layers\":[{\"animation\":0}]}");
    snprintf(args, sizeof args,
             "sample '%s' --mix %s --time 0.5 --time 1.5 --vertices 0,7,300 --json", cesium,
             mix_path);
    snprintf(other, sizeof other, "sample '%s' --time 0.5 --time 1.5 --vertices 0,7,300 --json",
             cesium);
    compare_samples(args, other, "CesiumMan");

    /* A cross-fade from Walk to Run over [1, 1.5]: its ends are the plain clips. */
    write_mix("{\"layers\":[{\"animation\":\"Walk\",\"weight\":[[1,1],[1.5,0]]},"
              "{\"animation\":\"Run\",\"weight\":[[1,0],[1.5,1]]}]}");
    snprintf(args, sizeof args, "sample '%s' --mix %s --time 0.5 --json", fox, mix_path);
    snprintf(other, sizeof other, "sample '%s' --anim 1 --time 0.5 --json", fox);
    compare_samples(args, other, "cross-fade start");
    snprintf(args, sizeof args, "sample '%s' --mix %s --time 1.6 --json", fox, mix_path);
    snprintf(other, sizeof other, "sample '%s' --anim 2 --time 0.44166666 --json", fox);
    compare_samples(args, other, "cross-fade end (Run loops: 1.6 - 1.1583 s)");

    /* Warnings and refusals name the mix file and the JSON path. */
    char *out = NULL, *err = NULL;
    write_mix("{\"layers\":[{\"animation\":\"Walk\",\"color\":1}]}");
    snprintf(args, sizeof args, "sample '%s' --mix %s --time 0.3", fox, mix_path);
    CHECK(ossa_test_run_cli(args, &out, &err) == 0);
    CHECKF(err && strstr(err, "warning: mix_cli_test.json: layers[0].color: unknown property"),
           "stderr: %s", err ? err : "");
    CHECK(out && strstr(out, "b_Hip_01"));
    free(out), free(err);
    write_mix("{\"layers\":[{\"animation\":\"Walk\"},{\"animation\":\"Run\",\"mask\":{\"nodes\":"
              "{\"Spine\":1}}}]}");
    CHECK(ossa_test_run_cli(args, &out, &err) == 1);
    CHECKF(err && strstr(err, "error: mix_cli_test.json: layers[1].mask.nodes.Spine: "),
           "stderr: %s", err ? err : "");
    free(out), free(err);
    snprintf(args, sizeof args, "sample '%s' --mix no_such_mix.json --time 0.3", fox);
    CHECK(ossa_test_run_cli(args, NULL, &err) == 1);
    CHECKF(err && strstr(err, "no_such_mix.json"), "stderr: %s", err ? err : "");
    free(err);

    /* The mix files of docs/mixes (the README's) read without a warning. */
    const char *docs[] = {"walk_run.json", "fox_masked_additive.json"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "sample '%s' --mix '%s/docs/mixes/%s' --time 1.2", fox,
                 OSSA_SOURCE_DIR, docs[i]);
        CHECK(ossa_test_run_cli(args, NULL, &err) == 0);
        CHECKF(err && !strstr(err, "warning"), "%s: %s", docs[i], err ? err : "");
        free(err);
    }

    /* Usage: --anim and --mix together, --mix without a value; --help names --mix. */
    snprintf(args, sizeof args, "sample '%s' --anim 1 --mix %s --time 0.3", fox, mix_path);
    CHECK(ossa_test_run_cli(args, NULL, NULL) == 2);
    snprintf(args, sizeof args, "sample '%s' --time 0.3 --mix", fox);
    CHECK(ossa_test_run_cli(args, NULL, NULL) == 2);
    CHECK(ossa_test_run_cli("sample --help", &out, NULL) == 0);
    CHECK(out && strstr(out, "--mix FILE"));
    free(out);
    remove(mix_path);
    return ossa_test_finish("mix_cli");
}
