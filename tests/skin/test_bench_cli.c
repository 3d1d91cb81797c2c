/* `ossa bench --json` ($OSSA_CLI), briefly: the object the issue and README promise, with figures
 * that agree with each other (totals are sums, byte counts are the layout's, fractions are bytes
 * x rate over the bound of the same traffic pattern), and a model that does not load refused
 * before anything is measured. Speeds are not judged here. */
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

/* `ossa bench ARGS` is a usage error (2) whose message holds `message`. */
static void check_usage_error(const char *args, const char *message) {
    CHECKF(run_bench(args) == 2, "%s", args);
    CHECKF(err_text && strstr(err_text, message), "%s: %s", args, err_text ? err_text : "");
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

/* The first "field : value" line of /proc/cpuinfo for `field`, into value; 0 when none. */
static int cpuinfo_field(const char *field, char *value, size_t size) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *end = colon;
        while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        if ((size_t)(end - line) != strlen(field) || strncmp(line, field, strlen(field))) continue;
        const char *v = colon + 1 + (colon[1] == ' ');
        snprintf(value, size, "%.*s", (int)strcspn(v, "\n"), v);
        found = 1;
    }
    if (f) fclose(f);
    return found;
}

/* host: what the kernel says of the same processor (x86 Linux: vendor_id, cpu family, model,
 * model name), and at least one CPU. */
static void check_host(const cJSON *host) {
    CHECKF(cJSON_IsObject(host), "a host object");
    CHECK(number(host, "logical_cpus") >= 1);
#if defined(__x86_64__) || defined(__i386__)
    char vendor[64], family[16], model[16], name[128];
    if (cpuinfo_field("vendor_id", vendor, sizeof vendor) &&
        cpuinfo_field("cpu family", family, sizeof family) &&
        cpuinfo_field("model", model, sizeof model)) {
        CHECKF(!strcmp(string(host, "vendor"), vendor), "vendor %s", vendor);
        CHECKF(number(host, "family") == atof(family), "family %s", family);
        CHECKF(number(host, "model") == atof(model), "model %s", model);
    }
    if (cpuinfo_field("model name", name, sizeof name))
        CHECKF(!strcmp(string(host, "cpu"), name), "cpu '%s' against '%s'", string(host, "cpu"),
               name);
#endif
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
        CHECK(number(c, "ns_fk_palette_many") > 0.0);  /* timed apart, not in the total */
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

/* Clips: Fox's three, compact smaller than plain, declared error within budget, both timed. */
static void check_clips(const cJSON *clips) {
    int rows = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, clips) {
        rows++;
        CHECK(!strcmp(string(c, "model"), "Fox.glb"));
        CHECK(strlen(string(c, "clip")) > 0);
        double plain = number(c, "plain_bytes"), compact = number(c, "compact_bytes");
        CHECK(compact > 0.0 && compact < plain);
        CHECK(number(c, "error") <= number(c, "budget") && number(c, "budget") > 0.0);
        CHECK(number(c, "ns_plain") > 0.0 && number(c, "ns_compact") > 0.0);
    }
    CHECK(rows == 3);
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

/* split, clip and player rows for Fox; what root motion adds to a frame may round to 0. */
static void check_motion(const cJSON *motion) {
    int rows = 0, seen = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, motion) {
        rows++;
        CHECK(!strcmp(string(r, "model"), "Fox.glb"));
        const char *what = string(r, "what");
        int player = !strcmp(what, "player");
        seen |= !strcmp(what, "split") * 1 | !strcmp(what, "clip") * 2 | player * 4;
        CHECK(player ? number(r, "ns") >= 0.0 : number(r, "ns") > 0.0);
    }
    CHECK(rows == 3 && seen == 7);
}

/* The bandwidth bounds: every kernel on 1 thread and on `threads`, bytes counted as they cross
 * the memory bus (reads for ownership of ordinary stores included), the better of the start's
 * measurement and the best after it. Returns how many rows it saw. */
static int check_bandwidth(const cJSON *bandwidth, int threads) {
    static const char *const kernels[] = {"read",    "write", "write_nt", "copy",
                                          "copy_nt", "triad", "triad_nt"};
    static const double bytes[] = {8, 16, 8, 24, 16, 32, 24};
    int rows = 0, seen[2] = {0, 0};
    const cJSON *b;
    cJSON_ArrayForEach(b, bandwidth) {
        rows++;
        const char *kernel = string(b, "kernel");
        double t = number(b, "threads");
        CHECK(t == 1 || t == threads);
        int k = 0;
        while (k < 7 && strcmp(kernel, kernels[k]))
            k++;
        CHECKF(k < 7, "unknown kernel \"%s\"", kernel);
        if (k == 7) continue;
        seen[t > 1] |= 1 << k;
        CHECK(number(b, "bytes_per_element") == bytes[k]);
        double gbs = number(b, "gbs"), start = number(b, "gbs_start"), end = number(b, "gbs_end");
        CHECK(gbs > 0.0 && start > 0.0 && end > 0.0);
        CHECK(gbs == (start > end ? start : end));
    }
    /* the ordinary kernels everywhere; the non-temporal ones where SSE2 is */
    CHECK((seen[0] & 0x5b) == 0x5b && seen[1] == seen[0]);
    return rows;
}

/* The bound a row names, as the bandwidth array gives it. */
static double bound_of(const cJSON *bandwidth, const char *kernel, double threads) {
    const cJSON *b;
    cJSON_ArrayForEach(b, bandwidth) {
        if (!strcmp(string(b, "kernel"), kernel) && number(b, "threads") == threads)
            return number(b, "gbs");
    }
    CHECKF(0, "no bound \"%s\" on %g threads", kernel, threads);
    return NAN;
}

/* A memory-bound row: its bytes are the kernel's streams plus a read for ownership of every
 * output byte stored the ordinary way (and of other_ordinary bytes per vertex written so); its
 * bound is the kernel with its traffic pattern and store kind; its fraction is bytes x rate over
 * the bound (what is printed, to its precision). */
static void check_bounded(const cJSON *s, const cJSON *bandwidth, const char *pattern,
                          double other_ordinary) {
    int nontemporal = !strcmp(string(s, "stores"), "nontemporal");
    CHECK(nontemporal || !strcmp(string(s, "stores"), "ordinary"));
    double bytes = number(s, "bytes_per_vertex"), out = number(s, "output_bytes_per_vertex");
    double memory = number(s, "memory_bytes_per_vertex");
    CHECK_NEAR(memory, bytes + (nontemporal ? 0.0 : out) + other_ordinary, 0.002);
    char bound[32];
    snprintf(bound, sizeof bound, "%s%s", pattern, nontemporal ? "_nt" : "");
    CHECK(!strcmp(string(s, "bound"), bound));
    double gbs = number(s, "bound_gbs");
    CHECK_NEAR(gbs, bound_of(bandwidth, bound, number(s, "threads")), 0.0011);
    double rate = number(s, "mverts_per_s"), fraction = number(s, "fraction_of_bound");
    /* every figure is printed to 3 decimals, the fraction to 4: their rounding, and no more */
    double expected = rate * 1e6 * memory / (gbs * 1e9);
    CHECK_NEAR(fraction, expected, 5e-5 + expected * 5e-4 * (1 / rate + 1 / memory + 1 / gbs));
}

/* Copies of Fox (16, in cache, no bound), the synthetic mesh (memory: a triad-like pattern) and
 * a crowd of Fox characters (memory: outputs written, a write-like pattern), each LBS and DQS on
 * 1 thread and on `threads`. --cache-mib 1 makes the last two memory-bound. */
static void check_skinning(const cJSON *skinning, const cJSON *bandwidth, int threads, int crowd) {
    int rows[3] = {0, 0, 0};
    const cJSON *s;
    cJSON_ArrayForEach(s, skinning) {
        const char *model = string(s, "model"), *mode = string(s, "mode");
        const char *workload = string(s, "workload");
        CHECK(!strcmp(mode, "lbs") || !strcmp(mode, "dqs"));
        double t = number(s, "threads"), vertices = number(s, "vertices");
        CHECK(t == 1 || t == threads);
        double rate = number(s, "mverts_per_s"), bytes = number(s, "bytes_per_vertex");
        double out = number(s, "output_bytes_per_vertex");
        CHECK(rate > 0.0 && bytes > out && out > 0.0);
        int in_cache = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "in_cache"));
        if (!strcmp(workload, "copies")) {
            rows[0]++;
            CHECK(!strcmp(model, "Fox.glb") && number(s, "instances") == 16);
            CHECK(vertices == 16 * 1728 && in_cache);
            CHECK(!cJSON_GetObjectItemCaseSensitive(s, "fraction_of_bound"));
        } else if (!strcmp(workload, "synthetic")) {
            rows[1]++;
            CHECK(strstr(model, "synthetic 65536 vertices") != NULL);
            CHECK(vertices == 65536 && !in_cache);
            /* positions and normals of every slot (slots: whole blocks of 16) */
            double slots = round(out * vertices / 24.0);
            CHECK(slots >= vertices && fmod(slots, 16.0) == 0.0);
            CHECK_NEAR(out, 24.0 * slots / vertices, 0.0006); /* printed to 0.001 */
            check_bounded(s, bandwidth, "triad", 0.0);
        } else if (!strcmp(workload, "crowd")) {
            rows[2]++;
            CHECK(!strcmp(model, "Fox.glb") && number(s, "instances") == crowd);
            CHECK(vertices == 1728.0 * crowd && !in_cache);
            /* Fox has no normals: positions of every slot, and one palette of 24 joints (12
             * floats each) read per character; DQS also writes its table of 24 dual quaternions
             * (12 floats each) per character, with ordinary stores */
            double slots = round(out * 1728 / 12.0);
            CHECK(slots >= 1728 && fmod(slots, 16.0) == 0.0);
            CHECK_NEAR(out, 12.0 * slots / 1728, 0.0006); /* printed to 0.001 */
            double table = !strcmp(mode, "dqs") ? 24 * 48 / 1728.0 : 0.0;
            CHECK_NEAR(bytes, out + 24 * 48 / 1728.0 + table, 0.002);
            check_bounded(s, bandwidth, "write", table);
        } else {
            CHECKF(0, "unexpected skinning row \"%s\" (%s)", model, workload);
        }
    }
    CHECK(rows[0] == 4 && rows[1] == 4 && rows[2] == 4); /* lbs and dqs, on 1 and on all */
}

int main(void) {
    if (!getenv("OSSA_CLI")) {
        fprintf(stderr, "OSSA_CLI is not set\n");
        return 1;
    }
    char args[2048];
    const char *fox = ossa_test_shared_path("models/Fox/Fox.glb");

    snprintf(args, sizeof args,
             "--models '%s' --vertices 65536 --seconds 0.02 --characters 8 --crowd 50 "
             "--skin-crowd 100 --bandwidth-mib 8 --cache-mib 1 --threads 2 --json",
             fox);
    CHECK(run_bench(args) == 0);
    cJSON *root = cJSON_Parse(out_text ? out_text : "");
    CHECKF(root != NULL, "stdout is one JSON object");
    if (root) {
        check_host(cJSON_GetObjectItemCaseSensitive(root, "host"));
        CHECK(number(root, "threads") == 2);
        CHECK(number(root, "bandwidth_mib") == 8 && number(root, "cache_mib") == 1);
        const cJSON *bandwidth = cJSON_GetObjectItemCaseSensitive(root, "bandwidth");
        CHECK(check_bandwidth(bandwidth, 2) >= 10);
        check_characters(cJSON_GetObjectItemCaseSensitive(root, "characters"));
        check_crowd(cJSON_GetObjectItemCaseSensitive(root, "crowd"), 50, 2);
        check_skinning(cJSON_GetObjectItemCaseSensitive(root, "skinning"), bandwidth, 2, 100);
        check_ik(cJSON_GetObjectItemCaseSensitive(root, "ik"));
        check_clips(cJSON_GetObjectItemCaseSensitive(root, "clips"));
        check_motion(cJSON_GetObjectItemCaseSensitive(root, "root_motion"));
        cJSON_Delete(root);
    }

    /* A model that does not load: one error naming it, nothing measured, exit 1. */
    snprintf(args, sizeof args, "--models '%s','/nonexistent/missing.glb' --seconds 0.02", fox);
    CHECK(run_bench(args) == 1);
    CHECK(err_text && strstr(err_text, "missing.glb: the file cannot be opened"));
    CHECK(occurrences(err_text, "missing.glb") == 1);
    CHECK(out_text && strstr(out_text, "bandwidth") == NULL);

    /* Usage errors (2), before any measuring: each names the option, what it wants and what it
     * got. */
    check_usage_error("--seconds", "ossa bench: --seconds needs a number in [0.001, 60] after it");
    check_usage_error("--crowd 0", "--crowd needs a whole number in [1, 1000000], got '0'");
    check_usage_error("--skin-crowd 2.5",
                      "--skin-crowd needs a whole number in [1, 100000], got '2.5'");
    check_usage_error("--cache-mib x", "--cache-mib needs a whole number in [1, 65536], got 'x'");
    check_usage_error("--threads 0", "--threads needs a whole number in [1, 256], got '0'");
    check_usage_error("--backend quantum",
                      "--backend wants one of auto scalar sse2 avx2 avx512, not 'quantum'");
    check_usage_error("--models ,", "--models wants model files separated by commas, got ','");
    check_usage_error("--bogus", "unknown option '--bogus'");
    /* more files than a run takes: refused, not cut short */
    char list[65 * 6 + 16] = "--models ";
    for (int i = 0; i < 65; i++)
        strcat(list, i ? ",x.glb" : "x.glb");
    check_usage_error(list, "--models takes at most 64 files");
    CHECK(run_bench("--help") == 0);
    CHECK(out_text && strstr(out_text, "usage: ossa bench"));

    free(out_text);
    free(err_text);
    return ossa_test_finish("bench_cli");
}
