/*
 * ossa bench: a benchmark (not a test). Per model: ns per character for sample + FK + palette
 * (with and without a cursor), skinning throughput (LBS and DQS, one thread and all threads);
 * a synthetic large mesh; and a STREAM-style triad in the same run, so skinning can be read as
 * a fraction of the machine's measured memory bandwidth.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_characters.h"
#include "bench_crowd.h"
#include "bench_ik.h"
#include "bench_skinning.h"
#include "bench_triad.h"
#include "commands.h"
#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "ossa/thread_pool.h"

enum { MAX_MODELS = 64, MAX_ROWS = 512 };

typedef struct bench_args {
    double seconds;
    unsigned threads;
    size_t vertices;
    int characters;
    int crowd; /* characters of the runtime-API crowd rows */
    int json;
    ossa_skin_backend backend;
    const char *models[MAX_MODELS];
    int model_count;
    char *model_list; /* owned copy of --models */
} bench_args;

typedef struct skin_row {
    const char *model;
    const char *mode;
    unsigned threads;
    size_t vertices;
    bench_skin_result r;
    double fraction;           /* of triad_gbs (1 thread) or triad_gbs_all (several) */
    double fraction_footprint; /* of triad_footprint_gbs; synthetic mesh, 1 thread only */
} skin_row;

typedef struct bench_report {
    double triad_gbs, triad_gbs_all;
    double triad_footprint_gbs; /* arrays as large as one pass over the synthetic mesh */
    unsigned threads;
    bench_character_result characters[2 * MAX_MODELS];
    int character_cursor[2 * MAX_MODELS];
    int character_count;
    bench_crowd_result crowd[2 * MAX_MODELS];
    int crowd_count;
    skin_row skinning[MAX_ROWS];
    int skin_count;
    bench_ik_result ik[BENCH_IK_JOBS * MAX_MODELS];
    int ik_count;
} bench_report;

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: ossa bench [--models A,B,...] [--seconds S] [--threads N] [--vertices N]\n"
        "                  [--characters N] [--crowd N] [--backend auto|scalar|sse2|avx2|avx512]\n"
        "                  [--json]\n\n"
        "A benchmark, not a test. For every model (default: every shared model with a skin,\n"
        "found under $OSSA_SHARED/models or ../shared/models):\n"
        "  - ns per character for sample + FK + palette, with and without a cursor, over a\n"
        "    crowd of --characters characters (default 1000);\n"
        "  - a crowd through the runtime API (ossa_characters_update: sample, FK and every\n"
        "    skin's palette) of --crowd characters (default 10000), ms per frame on 1 thread\n"
        "    and on --threads threads;\n"
        "  - skinning throughput in million vertices per second (positions and, where the\n"
        "    model has them, normals; prepared order), LBS and DQS, on 1 thread and on\n"
        "    --threads threads (default: every online CPU);\n"
        "  - ns per IK job (two-bone leg, aim of the head, aim chain from the spine) on the\n"
        "    rigs it knows (Fox, CesiumMan).\n"
        "Then a synthetic mesh of --vertices vertices (default 1000000) with 4 influences\n"
        "over 64 joints, and a STREAM-style triad (a = b + s * c over doubles, each array\n"
        "2 x the last-level cache, 128-512 MiB; 24 bytes per element) measured in the same\n"
        "run on 1 thread and on --threads threads, and once more on 1 thread with arrays as\n"
        "large as one pass over the synthetic mesh (a like-for-like figure where the mesh fits\n"
        "in a large L3). Each skinning figure is also given as bytes read + written per vertex\n"
        "(the prepared layout: float positions and normals in SoA blocks of 16, float\n"
        "weights, 1-byte window-relative or 2-byte joints, float xyz outputs) and as a\n"
        "fraction of the triad on as many threads.\n"
        "--seconds is the time per measurement (default 0.5); the best repetition counts.\n"
        "The machine may be shared: figures are noisy, compare ratios from one run.\n"
        "--json prints one object: triad_gbs, triad_gbs_all_threads, triad_footprint_gbs,\n"
        "threads, backend,\n"
        "characters [{model, cursor, joints, nodes, ns_sample, ns_fk, ns_palette, ns_total}],\n"
        "crowd [{model, characters, threads, ms_per_frame, ns_per_character}],\n"
        "skinning [{model, mode, threads, vertices, mverts_per_s, bytes_per_vertex,\n"
        "fraction_of_triad, fraction_of_footprint_triad (synthetic, 1 thread)}],\n"
        "ik [{model, job, ns}].\n");
}

static int parse_args(int argc, char **argv, bench_args *a) {
    memset(a, 0, sizeof *a);
    a->seconds = 0.5;
    a->vertices = 1000000;
    a->characters = 1000;
    a->crowd = 10000;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--json")) {
            a->json = 1;
        } else if (value && !strcmp(arg, "--seconds")) {
            a->seconds = strtod(value, &end);
            if (*end || !(a->seconds > 0) || a->seconds > 60) goto bad;
            i++;
        } else if (value && !strcmp(arg, "--threads")) {
            long t = strtol(value, &end, 10);
            if (*end || t < 1 || t > 256) goto bad;
            a->threads = (unsigned)t;
            i++;
        } else if (value && !strcmp(arg, "--vertices")) {
            long long v = strtoll(value, &end, 10);
            if (*end || v < 16 || v > 100000000) goto bad;
            a->vertices = (size_t)v;
            i++;
        } else if (value && !strcmp(arg, "--characters")) {
            long c = strtol(value, &end, 10);
            if (*end || c < 1 || c > 1000000) goto bad;
            a->characters = (int)c;
            i++;
        } else if (value && !strcmp(arg, "--crowd")) {
            long c = strtol(value, &end, 10);
            if (*end || c < 1 || c > 1000000) goto bad;
            a->crowd = (int)c;
            i++;
        } else if (value && !strcmp(arg, "--backend")) {
            int found = 0;
            for (int b = 0; b < OSSA_SKIN_BACKEND_COUNT; b++)
                if (!strcmp(value, ossa_skin_backend_name((ossa_skin_backend)b))) {
                    a->backend = (ossa_skin_backend)b;
                    found = 1;
                }
            if (!found || !ossa_skin_backend_supported(a->backend)) goto bad;
            i++;
        } else if (value && !strcmp(arg, "--models")) {
            free(a->model_list);
            a->model_list = strdup(value);
            a->model_count = 0;
            for (char *s = strtok(a->model_list, ","); s && a->model_count < MAX_MODELS;
                 s = strtok(NULL, ","))
                a->models[a->model_count++] = s;
            i++;
        } else {
        bad:
            fprintf(stderr, "ossa bench: bad or incomplete argument '%s'\n\n", arg);
            usage(stderr);
            return 2;
        }
    }
    return 0;
}

/* Collects every .gltf/.glb under dir (sorted walk order is not needed: the table is per
 * model). Paths are strdup'ed into list. */
static void find_models(const char *dir, char **list, int *count) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && *count < MAX_MODELS) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if ((len > 5 && !strcmp(e->d_name + len - 5, ".gltf")) ||
            (len > 4 && !strcmp(e->d_name + len - 4, ".glb")))
            list[(*count)++] = strdup(path);
        else
            find_models(path, list, count);
    }
    closedir(d);
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Where the default models are: $OSSA_SHARED, else ../shared. */
static const char *shared_dir(void) {
    const char *shared = getenv("OSSA_SHARED");
    return shared && *shared ? shared : "../shared";
}

/* The default model list: shared models that have a skin. */
static int default_models(char **list) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/models", shared_dir());
    char *found[MAX_MODELS];
    int count = 0, kept = 0;
    find_models(dir, found, &count);
    qsort(found, (size_t)count, sizeof *found, compare_strings);
    for (int i = 0; i < count; i++) {
        ossa_document *doc = NULL;
        int skinned =
            ossa_document_load_file(found[i], NULL, &doc, NULL) == OSSA_OK && doc->skin_count > 0;
        ossa_document_free(doc);
        if (skinned)
            list[kept++] = found[i];
        else
            free(found[i]);
    }
    return kept;
}

static void add_skin_row(bench_report *rep, const char *model, const char *mode, unsigned threads,
                         size_t vertices, const bench_skin_result *r) {
    if (rep->skin_count >= MAX_ROWS) return;
    skin_row *row = &rep->skinning[rep->skin_count++];
    row->model = model;
    row->mode = mode;
    row->threads = threads;
    row->vertices = vertices;
    row->r = *r;
    double triad = threads > 1 ? rep->triad_gbs_all : rep->triad_gbs;
    double bytes_per_s = r->mverts_per_s * 1e6 * r->bytes_per_vertex;
    row->fraction = triad > 0 ? bytes_per_s / (triad * 1e9) : 0;
    row->fraction_footprint = 0;
}

/* LBS and DQS on one thread and on the pool for a set of meshes. */
static void bench_meshes(bench_report *rep, const bench_args *a, ossa_thread_pool *pool,
                         const char *model, ossa_skin_mesh *const *meshes,
                         const float *const *palettes, const float *const *dqs,
                         const uint32_t *joints, int count, int instances) {
    size_t vertices = 0;
    for (int m = 0; m < count; m++)
        vertices += ossa_skin_mesh_vertex_count(meshes[m]);
    for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++)
        for (int pass = 0; pass < 2; pass++) {
            ossa_thread_pool *p = pass ? pool : NULL;
            if (pass && ossa_thread_pool_threads(pool) < 2) continue;
            bench_skin_result r;
            if (bench_skinning(meshes, palettes, dqs, joints, count, (ossa_skin_mode)mode,
                               a->backend, instances, a->seconds, p, &r) == 0)
                add_skin_row(rep, model, mode ? "dqs" : "lbs", p ? ossa_thread_pool_threads(p) : 1,
                             vertices, &r);
        }
}

/* Every skinned primitive of a model, with a real (rest pose) world-space palette. */
static void bench_model_skinning(bench_report *rep, const bench_args *a, ossa_thread_pool *pool,
                                 const char *path) {
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, NULL, &doc, &error) != OSSA_OK ||
        ossa_rig_build(doc, NULL, &rig, &error) != OSSA_OK) {
        fprintf(stderr, "ossa bench: %s: %s\n", path, error.message);
        ossa_document_free(doc);
        return;
    }
    uint32_t *offset = calloc(rig->skin_count + 1, sizeof *offset), total = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        offset[s] = total;
        total += ossa_palette_floats(rig, s);
    }
    ossa_trs *local = malloc((rig->node_count + 1) * sizeof *local);
    float *weights = malloc((rig->weight_total + 1) * sizeof *weights);
    float *world = malloc((12 * (size_t)rig->node_count + 1) * sizeof *world);
    float *palettes = malloc((total + 1) * sizeof *palettes);
    float *dqs = malloc((total + 1) * sizeof *dqs);
    ossa_pose pose = {local, weights};
    ossa_pose_set_rest(rig, &pose);
    ossa_fk_palettes_world(rig, &pose, world, palettes);
    for (uint32_t s = 0; s < rig->skin_count; s++)
        ossa_skin_dual_quats(palettes + offset[s], rig->skins[s].joint_count, dqs + offset[s]);
    ossa_skin_mesh *meshes[MAX_MODELS];
    const float *mesh_palettes[MAX_MODELS], *mesh_dqs[MAX_MODELS];
    uint32_t joints[MAX_MODELS];
    int count = 0;
    for (uint32_t n = 0; n < doc->node_count; n++) {
        const ossa_node *node = &doc->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        for (uint32_t p = 0; p < doc->meshes[node->mesh].primitive_count && count < MAX_MODELS;
             p++) {
            if (ossa_skin_mesh_from_document(doc, (uint32_t)node->mesh, p, node->skin, NULL,
                                             &meshes[count], &error) != OSSA_OK) {
                fprintf(stderr, "ossa bench: %s: %s\n", path, error.message);
                continue;
            }
            mesh_palettes[count] = palettes + offset[node->skin];
            mesh_dqs[count] = dqs + offset[node->skin];
            joints[count] = rig->skins[node->skin].joint_count;
            count++;
        }
    }
    /* a small crowd (16 instances, separate outputs): the meshes are skinned from cache, as
     * in a game that skins its characters one after another */
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (count) bench_meshes(rep, a, pool, name, meshes, mesh_palettes, mesh_dqs, joints, count, 16);
    for (int i = 0; i < count; i++)
        ossa_skin_mesh_free(meshes[i]);
    free(offset);
    free(local);
    free(weights);
    free(world);
    free(palettes);
    free(dqs);
    ossa_rig_free(rig);
    ossa_document_free(doc);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void print_json_string(const char *text) {
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

static void print_json(const bench_report *rep, const bench_args *a) {
    printf("{\"triad_gbs\":%.3f,\"triad_gbs_all_threads\":%.3f,\"triad_footprint_gbs\":%.3f,"
           "\"threads\":%u,\"backend\":\"%s\",\"seconds\":%g,\"characters\":[",
           rep->triad_gbs, rep->triad_gbs_all, rep->triad_footprint_gbs, rep->threads,
           ossa_skin_backend_name(a->backend ? a->backend : ossa_skin_backend_best()), a->seconds);
    for (int i = 0; i < rep->character_count; i++) {
        const bench_character_result *c = &rep->characters[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(c->model);
        printf(",\"cursor\":%s,\"joints\":%d,\"nodes\":%d,\"ns_sample\":%.1f,\"ns_fk\":%.1f,"
               "\"ns_palette\":%.1f,\"ns_total\":%.1f}",
               rep->character_cursor[i] ? "true" : "false", c->joints, c->nodes, c->ns_sample,
               c->ns_fk, c->ns_palette, c->ns_total);
    }
    fputs("],\"crowd\":[", stdout);
    for (int i = 0; i < rep->crowd_count; i++) {
        const bench_crowd_result *c = &rep->crowd[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(c->model);
        printf(",\"characters\":%d,\"threads\":%u,\"ms_per_frame\":%.9g,\"ns_per_character\":%.2f}",
               c->characters, c->threads, c->ms_per_frame, c->ns_per_character);
    }
    fputs("],\"skinning\":[", stdout);
    for (int i = 0; i < rep->skin_count; i++) {
        const skin_row *s = &rep->skinning[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(s->model);
        printf(",\"mode\":\"%s\",\"threads\":%u,\"vertices\":%zu,\"mverts_per_s\":%.1f,"
               "\"bytes_per_vertex\":%.1f,\"fraction_of_triad\":%.3f",
               s->mode, s->threads, s->vertices, s->r.mverts_per_s, s->r.bytes_per_vertex,
               s->fraction);
        if (s->fraction_footprint > 0)
            printf(",\"fraction_of_footprint_triad\":%.3f", s->fraction_footprint);
        fputc('}', stdout);
    }
    fputc(']', stdout);
    bench_ik_print_json(rep->ik, rep->ik_count, print_json_string);
    fputs("}\n", stdout);
}

static void print_table(const bench_report *rep, const bench_args *a) {
    printf("triad: %.1f GB/s on 1 thread, %.1f GB/s on %u threads, %.1f GB/s (1 thread) with the\n"
           "synthetic mesh's footprint; skinning backend %s\n\n",
           rep->triad_gbs, rep->triad_gbs_all, rep->threads, rep->triad_footprint_gbs,
           ossa_skin_backend_name(a->backend ? a->backend : ossa_skin_backend_best()));
    printf("sample + FK + palette, ns per character (crowd of %d):\n", a->characters);
    printf("  %-48s %6s %6s %9s %7s %8s %8s\n", "model", "cursor", "joints", "sample", "fk",
           "palette", "total");
    for (int i = 0; i < rep->character_count; i++) {
        const bench_character_result *c = &rep->characters[i];
        printf("  %-48s %6s %6d %9.1f %7.1f %8.1f %8.1f\n", c->model,
               rep->character_cursor[i] ? "yes" : "no", c->joints, c->ns_sample, c->ns_fk,
               c->ns_palette, c->ns_total);
    }
    printf("\ncrowd through the runtime API (sample + FK + every palette):\n");
    printf("  %-48s %10s %7s %12s %14s\n", "model", "characters", "threads", "ms/frame",
           "ns/character");
    for (int i = 0; i < rep->crowd_count; i++) {
        const bench_crowd_result *c = &rep->crowd[i];
        printf("  %-48s %10d %7u %12.3f %14.1f\n", c->model, c->characters, c->threads,
               c->ms_per_frame, c->ns_per_character);
    }
    printf("\nskinning (positions + normals where present; bytes per vertex read + written):\n");
    printf("  %-48s %4s %7s %9s %9s %7s %7s %9s\n", "model", "mode", "threads", "vertices",
           "Mvert/s", "B/vert", "triad", "footprint");
    for (int i = 0; i < rep->skin_count; i++) {
        const skin_row *s = &rep->skinning[i];
        printf("  %-48s %4s %7u %9zu %9.1f %7.1f %6.0f%%", s->model, s->mode, s->threads,
               s->vertices, s->r.mverts_per_s, s->r.bytes_per_vertex, 100.0 * s->fraction);
        if (s->fraction_footprint > 0) printf(" %8.0f%%", 100.0 * s->fraction_footprint);
        fputc('\n', stdout);
    }
    bench_ik_print_table(rep->ik, rep->ik_count);
    printf("\nThe machine may be shared with other work: figures are noisy.\n");
}

/* Loads every model once before anything is measured: a model that cannot be benchmarked is
 * reported once, by its loader's error, and nothing runs. */
static int models_load(const char *const *models, int count) {
    for (int i = 0; i < count; i++) {
        ossa_document *doc = NULL;
        ossa_rig *rig = NULL;
        ossa_clip_set *clips = NULL;
        ossa_error error;
        ossa_result r = ossa_document_load_file(models[i], NULL, &doc, &error);
        if (r == OSSA_OK) r = ossa_rig_build(doc, NULL, &rig, &error);
        if (r == OSSA_OK) r = ossa_clip_set_build(doc, rig, NULL, &clips, &error);
        ossa_clip_set_free(clips);
        ossa_rig_free(rig);
        ossa_document_free(doc);
        if (r != OSSA_OK) {
            char text[1100];
            ossa_error_format(&error, text, sizeof text);
            fprintf(stderr, "error: %s\n", text);
            return 0;
        }
    }
    return 1;
}

int cmd_bench(int argc, char **argv) {
    bench_args a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed) {
        free(a.model_list);
        return parsed == 1 ? EXIT_OK : EXIT_USAGE;
    }
    char *found[MAX_MODELS];
    int found_count = 0;
    if (!a.model_count) {
        found_count = default_models(found);
        for (int i = 0; i < found_count; i++)
            a.models[a.model_count++] = found[i];
        if (!found_count)
            fprintf(stderr,
                    "ossa bench: no skinned model under %s/models (set OSSA_SHARED or give "
                    "--models); measuring the synthetic mesh only\n",
                    shared_dir());
    }
    if (!models_load(a.models, a.model_count)) {
        for (int i = 0; i < found_count; i++)
            free(found[i]);
        free(a.model_list);
        return EXIT_MODEL_ERROR;
    }
    ossa_thread_pool *pool = NULL;
    bench_report *rep = calloc(1, sizeof *rep);
    if (!rep || ossa_thread_pool_create(a.threads, &pool) != OSSA_OK) {
        fprintf(stderr, "ossa bench: cannot start threads\n");
        free(rep);
        free(a.model_list);
        return EXIT_MODEL_ERROR;
    }
    rep->threads = ossa_thread_pool_threads(pool);
    /* STREAM's rule: arrays well past the last-level cache (2x it, 128-512 MiB each) */
#ifdef _SC_LEVEL3_CACHE_SIZE
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#else
    long llc = 0;
#endif
    size_t array_bytes = llc > 0 ? 2 * (size_t)llc : (size_t)128 << 20;
    if (array_bytes < ((size_t)128 << 20)) array_bytes = (size_t)128 << 20;
    if (array_bytes > ((size_t)512 << 20)) array_bytes = (size_t)512 << 20;
    size_t triad_elements = array_bytes / sizeof(double);
    rep->triad_gbs = bench_triad_gbs(triad_elements, a.seconds, NULL);
    rep->triad_gbs_all =
        rep->threads > 1 ? bench_triad_gbs(triad_elements, a.seconds, pool) : rep->triad_gbs;
    int status = EXIT_OK;
    for (int i = 0; i < a.model_count; i++) {
        for (int cursor = 1; cursor >= 0; cursor--) {
            bench_character_result *c = &rep->characters[rep->character_count];
            if (bench_characters(a.models[i], cursor, a.characters, a.seconds, c) == 0)
                rep->character_cursor[rep->character_count++] = cursor;
            else
                status = EXIT_MODEL_ERROR;
        }
        for (int pass = 0; pass < (rep->threads > 1 ? 2 : 1); pass++) {
            bench_crowd_result *c = &rep->crowd[rep->crowd_count];
            if (bench_crowd(a.models[i], a.crowd, a.seconds, pass ? pool : NULL, c) == 0)
                rep->crowd_count++;
            else
                status = EXIT_MODEL_ERROR;
        }
        bench_model_skinning(rep, &a, pool, a.models[i]);
        int ik_rows = bench_ik(a.models[i], a.seconds, rep->ik + rep->ik_count);
        if (ik_rows < 0) status = EXIT_MODEL_ERROR;
        rep->ik_count += ik_rows > 0 ? ik_rows : 0;
    }
    const uint32_t joints = 64;
    ossa_skin_mesh *big = bench_synthetic_mesh(a.vertices, joints);
    float *palette = malloc(12 * sizeof(float) * joints), *dq = malloc(12 * sizeof(float) * joints);
    if (big && palette && dq) {
        bench_synthetic_palette(joints, palette);
        ossa_skin_dual_quats(palette, joints, dq);
        const float *pal[1] = {palette}, *dqs[1] = {dq};
        static char name[64]; /* rows keep pointers to model names until printed */
        snprintf(name, sizeof name, "synthetic %zu vertices, 4 influences", a.vertices);
        int first_row = rep->skin_count;
        bench_meshes(rep, &a, pool, name, &big, pal, dqs, &joints, 1, 1);
        /* the like-for-like triad: as many bytes as one pass of the kernel over the mesh */
        if (rep->skin_count > first_row) {
            double pass = rep->skinning[first_row].r.bytes_per_vertex * (double)a.vertices;
            rep->triad_footprint_gbs =
                bench_triad_gbs((size_t)(pass / 24.0) + 1024, a.seconds, NULL);
        }
        for (int i = first_row; i < rep->skin_count; i++) {
            skin_row *row = &rep->skinning[i];
            if (row->threads == 1 && rep->triad_footprint_gbs > 0)
                row->fraction_footprint = row->r.mverts_per_s * 1e6 * row->r.bytes_per_vertex /
                                          (rep->triad_footprint_gbs * 1e9);
        }
    }
    ossa_skin_mesh_free(big);
    free(palette);
    free(dq);
    if (a.json)
        print_json(rep, &a);
    else
        print_table(rep, &a);
    ossa_thread_pool_free(pool);
    free(rep);
    for (int i = 0; i < found_count; i++)
        free(found[i]);
    free(a.model_list);
    return status;
}
