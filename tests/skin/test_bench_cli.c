/* `ossa bench --json` ($OSSA_CLI), briefly: the object the issue and README promise, with figures
 * that agree with each other (totals are sums, fractions are bytes x rate over the triad), and a
 * model that does not load refused before anything is measured. Speeds are not judged here. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test_support.h"

static char *out_text, *err_text;

/* Runs `ossa bench ARGS`, keeps stdout and stderr, returns the exit code. */
static int run_bench(const char *args) {
    char command[4096];
    snprintf(command, sizeof command, "bench %s", args);
    free(out_text);
    free(err_text);
    return ossa_test_run_cli(command, &out_text, &err_text);
}

static int occurrences(const char *text, const char *phrase) {
    int n = 0;
    for (const char *at = text ? strstr(text, phrase) : NULL; at; at = strstr(at + 1, phrase))
        n++;
    return n;
}

static double number(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    CHECKF(cJSON_IsNumber(item), "\"%s\" is a number", key);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static const char *string(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    CHECKF(cJSON_IsString(item), "\"%s\" is a string", key);
    return cJSON_IsString(item) ? item->valuestring : "";
}

static void check_characters(const cJSON *characters) {
    int rows = 0, with_cursor = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, characters) {
        rows++;
        CHECK(!strcmp(string(c, "model"), "Fox.glb"));
        CHECK(number(c, "joints") == 24 && number(c, "nodes") == 26);
        with_cursor += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "cursor"));
        double sample = number(c, "ns_sample"), fk = number(c, "ns_fk");
        double palette = number(c, "ns_palette"), total = number(c, "ns_total");
        CHECK(sample > 0.0 && fk > 0.0 && palette > 0.0);
        CHECK_NEAR(total, sample + fk + palette, 0.2); /* printed to 0.1 ns */
    }
    CHECK(rows == 2 && with_cursor == 1);
}

/* The runtime-API crowd: one row on 1 thread, one on `threads`; ns per character is the frame
 * time over the characters. */
static void check_crowd(const cJSON *crowd, int characters, int threads) {
    int rows = 0, single = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, crowd) {
        rows++;
        CHECK(!strcmp(string(c, "model"), "Fox.glb"));
        CHECK(number(c, "characters") == characters);
        double t = number(c, "threads"), ms = number(c, "ms_per_frame");
        CHECK(t == 1 || t == threads);
        single += t == 1;
        CHECK(ms > 0.0);
        double ns = number(c, "ns_per_character");
        CHECK_NEAR(ns, ms * 1e6 / characters, 0.01 + 1e-6 * ns); /* ns printed to 0.01 */
    }
    CHECK(rows == 2 && single == 1);
}

/* IK: the two-bone, aim and aim-chain jobs once each on Fox. */
static void check_ik(const cJSON *ik) {
    int rows = 0, seen = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, ik) {
        rows++;
        CHECK(!strcmp(string(r, "model"), "Fox.glb"));
        const char *job = string(r, "job");
        seen |=
            !strcmp(job, "two_bone") * 1 | !strcmp(job, "aim") * 2 | !strcmp(job, "aim_chain") * 4;
        CHECK(number(r, "ns") > 0.0);
    }
    CHECK(rows == 3 && seen == 7);
}

/* triad: on 1 thread and on `threads` threads. */
static void check_skinning(const cJSON *skinning, const double triad[2], int threads) {
    int fox = 0, synthetic = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, skinning) {
        const char *model = string(s, "model"), *mode = string(s, "mode");
        CHECK(!strcmp(mode, "lbs") || !strcmp(mode, "dqs"));
        double t = number(s, "threads"), vertices = number(s, "vertices");
        CHECK(t == 1 || t == threads);
        double rate = number(s, "mverts_per_s"), bytes = number(s, "bytes_per_vertex");
        CHECK(rate > 0.0 && bytes > 0.0);
        /* effective bandwidth over the triad on as many threads, as printed (three decimals,
         * rates to 0.1) */
        double fraction = number(s, "fraction_of_triad");
        CHECK_NEAR(fraction, rate * 1e6 * bytes / 1e9 / triad[t > 1], 0.002 + 0.01 * fraction);
        if (!strcmp(model, "Fox.glb")) {
            fox++;
            CHECK(vertices == 1728);
        } else if (strstr(model, "synthetic 4096 vertices")) {
            synthetic++;
            CHECK(vertices == 4096);
            if (t == 1) CHECK(number(s, "fraction_of_footprint_triad") > 0.0);
        } else {
            CHECKF(0, "unexpected skinning row \"%s\"", model);
        }
    }
    CHECK(fox == 4 && synthetic == 4); /* lbs and dqs, on 1 thread and on all */
}

int main(void) {
    if (!getenv("OSSA_CLI")) {
        fprintf(stderr, "OSSA_CLI is not set\n");
        return 1;
    }
    char args[2048];
    const char *fox = ossa_test_shared_path("models/Fox/Fox.glb");

    snprintf(args, sizeof args,
             "--models '%s' --vertices 4096 --seconds 0.02 --characters 8 --crowd 50 --threads 2 "
             "--json",
             fox);
    CHECK(run_bench(args) == 0);
    cJSON *root = cJSON_Parse(out_text ? out_text : "");
    CHECKF(root != NULL, "stdout is one JSON object");
    if (root) {
        double triad[2] = {number(root, "triad_gbs"), number(root, "triad_gbs_all_threads")};
        CHECK(triad[0] > 0.0 && triad[1] > 0.0);
        CHECK(number(root, "threads") == 2);
        check_characters(cJSON_GetObjectItemCaseSensitive(root, "characters"));
        check_crowd(cJSON_GetObjectItemCaseSensitive(root, "crowd"), 50, 2);
        check_skinning(cJSON_GetObjectItemCaseSensitive(root, "skinning"), triad, 2);
        check_ik(cJSON_GetObjectItemCaseSensitive(root, "ik"));
        cJSON_Delete(root);
    }

    /* A model that does not load: one error naming it, nothing measured, exit 1. */
    snprintf(args, sizeof args, "--models '%s','/nonexistent/missing.glb' --seconds 0.02", fox);
    CHECK(run_bench(args) == 1);
    CHECK(err_text && strstr(err_text, "missing.glb: the file cannot be opened"));
    CHECK(occurrences(err_text, "missing.glb") == 1);
    CHECK(out_text && strstr(out_text, "triad") == NULL);

    CHECK(run_bench("--seconds") == 2); /* a flag without its value */
    CHECK(run_bench("--crowd 0") == 2);
    CHECK(err_text && strstr(err_text, "usage: ossa bench"));
    CHECK(run_bench("--help") == 0);
    CHECK(out_text && strstr(out_text, "usage: ossa bench"));

    free(out_text);
    free(err_text);
    return ossa_test_finish("bench_cli");
}
