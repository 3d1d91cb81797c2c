/*
 * ossa bench: a benchmark (not a test). Per model: ns per character for sample + FK + palette
 * (with and without a cursor), skinning throughput (LBS and DQS, one thread and all threads) of
 * cache-resident copies and of a crowd of characters; a synthetic large mesh; and streaming
 * bandwidth bounds measured in the same run, so memory-bound skinning can be read as a fraction
 * of the bound whose traffic pattern matches it.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_characters.h"
#include "bench_clips.h"
#include "bench_crowd.h"
#include "bench_host.h"
#include "bench_mix.h"
#include "bench_ik.h"
#include "bench_load.h"
#include "bench_motion.h"
#include "bench_skinning.h"
#include "bench_bandwidth.h"
#include "bench_skin_crowd.h"
#include "cli_args.h"
#include "cli_report.h"
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
    int crowd;            /* characters of the runtime-API crowd rows */
    int skin_crowd;       /* characters of the skinned crowd rows */
    size_t bandwidth_mib; /* MiB of each array of the bandwidth kernels (0: the default) */
    size_t cache_mib;     /* the last-level cache (0: as the system says) */
    int json;
    int load_only; /* only the load rows */
    ossa_skin_backend backend;
    const char *models[MAX_MODELS];
    int model_count;
    char *model_list; /* owned copy of --models */
} bench_args;

/* What a skinning row skins, and so where its bytes come from. */
typedef enum skin_workload {
    WORKLOAD_COPIES,    /* 16 outputs of one model's meshes, one palette: all in cache */
    WORKLOAD_CROWD,     /* characters of a model, each its own palette and outputs: the shared
                           prepared meshes in cache, palettes and outputs in memory */
    WORKLOAD_SYNTHETIC, /* one large mesh: inputs and outputs in memory */
} skin_workload;

static const char *const workload_names[] = {"copies", "crowd", "synthetic"};

typedef struct skin_row {
    const char *model;
    const char *mode;
    skin_workload workload;
    int instances; /* copies or characters */
    unsigned threads;
    size_t vertices; /* skinned per pass */
    bench_skin_result r;
    int bounded;                    /* memory-bound: the fields below are set */
    bench_stream bound;             /* the bandwidth kernel with the same traffic pattern */
    double memory_bytes_per_vertex; /* to and from memory, reads for ownership included */
    double bound_gbs;
    double fraction; /* memory_bytes_per_vertex x vertices/s over bound_gbs */
} skin_row;

typedef struct bench_report {
    /* [0]: 1 thread, [1]: every thread; gbs is the better of the measurements at the start and
     * at the end of the run */
    double gbs[2][BENCH_STREAM_COUNT], gbs_start[2][BENCH_STREAM_COUNT],
        gbs_end[2][BENCH_STREAM_COUNT];
    size_t bandwidth_bytes; /* each array, all threads together */
    size_t cache_bytes;     /* the last-level cache: workloads of 2x it or more are memory-bound */
    unsigned threads;
    bench_host host;
    bench_character_result characters[2 * MAX_MODELS];
    int character_cursor[2 * MAX_MODELS];
    int character_count;
    bench_crowd_result crowd[2 * MAX_MODELS];
    int crowd_count;
    bench_mix_result mix[MAX_MODELS];
    int mix_count;
    bench_clip_result clips[MAX_ROWS];
    int clip_count;
    skin_row skinning[MAX_ROWS];
    int skin_count;
    bench_ik_result ik[BENCH_IK_JOBS * MAX_MODELS];
    int ik_count;
    bench_motion_result motion[BENCH_MOTION_ROWS * MAX_MODELS];
    int motion_count;
    bench_load_result load[MAX_MODELS];
    int load_count;
} bench_report;

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: ossa bench [--models A,B,...] [--seconds S] [--threads N] [--vertices N]\n"
        "                  [--characters N] [--crowd N] [--skin-crowd N] [--bandwidth-mib N]\n"
        "                  [--cache-mib N] [--backend auto|scalar|sse2|avx2|avx512] [--json]\n"
        "                  [--load-only] [--allow-unsafe-paths]\n\n"
        "A benchmark, not a test. For every model (default: every shared model with a skin,\n"
        "found under $OSSA_SHARED/models or ../shared/models):\n"
        "  - ns per character for sample + FK + palette, with and without a cursor, over a\n"
        "    crowd of --characters characters (default 1000), each model's first clip; the\n"
        "    palettes are world-space (joint world x inverse bind), as ossa_character_update\n"
        "    computes them; each step a call per character (what total adds up), then FK and\n"
        "    palettes again four characters at a time (ossa_fk_palettes_world_many, as the\n"
        "    runtime API updates a crowd: fk+palette x4, ns_fk_palette_many in --json);\n"
        "  - a crowd through the runtime API (ossa_characters_update: sample, FK and every\n"
        "    skin's palette) of --crowd characters (default 10000), ms per frame on 1 thread\n"
        "    and on --threads threads;\n"
        "  - mixing: ns per character to sample one clip with a cursor and to sample a\n"
        "    4-layer mix (2 normal, 1 masked, 1 additive; ossa_mix_sample) over the crowd\n"
        "    of --characters characters;\n"
        "  - skinning throughput in million vertices per second (positions and, where the\n"
        "    model has them, normals; prepared order), LBS and DQS, on 1 thread and on\n"
        "    --threads threads (default: every online CPU), of two workloads: 16 copies of the\n"
        "    model's meshes sharing one palette (they stay in cache: a compute figure), and a\n"
        "    crowd of --skin-crowd characters (default 1000) made with ossa_model, each posed\n"
        "    at its own time with its own palette and outputs (the shared meshes stay in cache,\n"
        "    the outputs go to memory). DQS includes converting the palettes to dual\n"
        "    quaternions in every pass, each instance's on the thread that skins it;\n"
        "  - ns per IK job (two-bone leg, aim of the head, aim chain from the spine) on the\n"
        "    rigs it knows (Fox, CesiumMan);\n"
        "  - root-motion extraction, ns per character (a split, a clip's accumulated motion,\n"
        "    what root motion adds to a player frame) on the roots it knows (Fox, CesiumMan).\n"
        "Loading, for every model given by --models, else every .gltf and .glb file under the\n"
        "shared models (skinned or not): the best of %d runs, each ossa_document_load_file\n"
        "(parse, buffers, every check; with skip_images, as cgltf's loader reads no images),\n"
        "then every accessor read as floats (ossa_accessor_read_float: the document keeps\n"
        "buffers as stored and decodes on demand), then ossa_document_free: what cgltf's\n"
        "side-by-side harness times (parse, load buffers, validate, unpack every accessor to\n"
        "floats, free; ../shared/anchors/cgltf/), so the two compare like for like, except that\n"
        "ossa checks far more. us_load is the load call alone. --load-only measures these rows\n"
        "and nothing else.\n",
        BENCH_LOAD_RUNS);
    fprintf(
        out,
        "Then a synthetic mesh of --vertices vertices (default 1000000) with 4 influences over\n"
        "64 joints: the fast path's best case (each vertex's joints within 8 neighbours,\n"
        "vertices ordered along the chain), inputs and outputs in memory.\n"
        "Bandwidth bounds on 1 thread and on --threads threads, at the start, after each set\n"
        "of memory-bound rows and at the end of the run, the best counting (gbs_end: the best\n"
        "after the start; measured up to twice more when a skinning row would pass its bound:\n"
        "a busy machine, never a byte count, makes it low); each thread on arrays it\n"
        "allocated and first touched, timed from its own start (the slowest counts), each\n"
        "array --bandwidth-mib MiB (default 2 x the last-level cache within 128-512): read,\n"
        "write, copy and triad over doubles, with ordinary and with non-temporal (_nt) stores\n"
        "(64 bytes per load and store where AVX-512 is, as the AVX-512 skinning path moves\n"
        "data; plain loops and 16-byte non-temporal stores reach less on Zen 4 and would not\n"
        "bound it). Bytes count what crosses the memory bus: an ordinary store reads its line\n"
        "first (read for ownership), so write counts 16 bytes per element, copy 24, triad 32;\n"
        "write_nt 8, copy_nt 16, triad_nt 24. A memory-bound skinning row (crowd, synthetic)\n"
        "counts its bytes the same way (outputs, their reads for ownership when stored the\n"
        "ordinary way, the synthetic mesh's prepared inputs, the crowd's palettes) and is given\n"
        "as a fraction of the bound with its traffic pattern on as many threads: the crowd's a\n"
        "write, the synthetic mesh's a triad, each with the store kind the kernel used (the\n"
        "AVX-512 path stores outputs of 1 MiB or more non-temporally, and the crowd's outputs\n"
        "when they are twice the last-level cache or more). A workload moving less than twice\n"
        "the last-level cache per pass (--cache-mib, default: cpu0's level 3 as sysfs gives\n"
        "it; the synthetic mesh's non-temporal outputs, which never stay, left out) may stay\n"
        "in cache, and copies always do: those rows have no bound. A virtual\n"
        "machine's sysfs can name more cache than it gets (480 MiB on an Intel Xeon host\n"
        "whose reads ran at memory speed from 128 MiB): then give --cache-mib, and a crowd\n"
        "and a mesh large enough (--skin-crowd, --vertices) to pass twice it.\n"
        "Each bandwidth kernel runs on the slice of its arrays after the last kernel's, so\n"
        "that nothing it touches is still in cache from the kernel before.\n"
        "--seconds is the time per measurement (default 0.5); the best repetition counts.\n"
        "One-thread figures are timed with the thread's CPU clock (on a shared machine, the\n"
        "time it ran, not the time other programs ran meanwhile); several threads with the\n"
        "wall clock, which a loaded machine makes slower.\n"
        "The machine may be shared: figures are noisy, compare ratios from one run.\n"
        "The first line (in --json, host) names the processor: its brand and vendor, family\n"
        "and model as CPUID numbers them (Zen 4: family 25), and the online logical CPUs;\n"
        "compare figures taken on one kind of CPU.\n");
    fprintf(out,
            "--json prints one object: host {cpu, vendor, family, model, logical_cpus} (family\n"
            "and model -1 where CPUID is not available), threads, backend, seconds,\n"
            "bandwidth_mib, cache_mib,\n"
            "bandwidth [{kernel, threads, bytes_per_element, gbs, gbs_start, gbs_end}],\n"
            "characters [{model, cursor, joints, nodes, ns_sample, ns_fk, ns_palette, ns_total,\n"
            "ns_fk_palette_many}],\n"
            "crowd [{model, characters, threads, ms_per_frame, ns_per_character}],\n"
            "mix [{model, characters, ns_sample, ns_mix}],\n"
            "clips [{model, clip, plain_bytes, compact_bytes, error, budget, ns_plain,\n"
            "ns_compact}] (runtime bytes and sampling time of each clip, plain and compact),\n"
            "skinning [{model, workload, instances, mode, threads, vertices, mverts_per_s,\n"
            "bytes_per_vertex, output_bytes_per_vertex, stores, in_cache; memory-bound rows also\n"
            "memory_bytes_per_vertex, bound, bound_gbs, fraction_of_bound}],\n"
            "ik [{model, job, ns}], root_motion [{model, what, ns}],\n"
            "load [{model, us, us_load}] (microseconds; with --load-only the object holds only\n"
            "host and load).\n"
            "Rows name a model by its file name, with as many parent folders as tell two files\n"
            "of the same name apart. --allow-unsafe-paths loads buffers at absolute paths or\n"
            "outside the model's folder (refused by default).\n"
            "Exit codes: 0 success, 1 a model that cannot be loaded, 2 usage error (an option\n"
            "that is unknown, or without a value in its range; nothing is measured then).\n");
}

/* --backend's value: a backend name this CPU runs. */
static int parse_backend(const char *text, ossa_skin_backend *out) {
    for (int b = 0; b < OSSA_SKIN_BACKEND_COUNT; b++)
        if (text && !strcmp(text, ossa_skin_backend_name((ossa_skin_backend)b))) {
            if (!ossa_skin_backend_supported((ossa_skin_backend)b)) {
                fprintf(stderr, "ossa bench: --backend %s: this CPU cannot run it\n", text);
                return 0;
            }
            *out = (ossa_skin_backend)b;
            return 1;
        }
    fprintf(stderr, "ossa bench: --backend wants one of");
    for (int b = 0; b < OSSA_SKIN_BACKEND_COUNT; b++)
        fprintf(stderr, " %s", ossa_skin_backend_name((ossa_skin_backend)b));
    fprintf(stderr, ", not '%s'\n", text ? text : "");
    return 0;
}

/* --models' value: a comma-separated list of files, MAX_MODELS at most. */
static int parse_models(const char *text, bench_args *a) {
    free(a->model_list);
    a->model_list = text ? strdup(text) : NULL;
    a->model_count = 0;
    for (char *s = a->model_list ? strtok(a->model_list, ",") : NULL; s; s = strtok(NULL, ",")) {
        if (a->model_count == MAX_MODELS) {
            fprintf(stderr, "ossa bench: --models takes at most %d files\n", MAX_MODELS);
            return 0;
        }
        a->models[a->model_count++] = s;
    }
    if (a->model_count) return 1;
    if (text)
        fprintf(stderr, "ossa bench: --models wants model files separated by commas, got '%s'\n",
                text);
    else
        fprintf(stderr, "ossa bench: --models wants model files separated by commas after it\n");
    return 0;
}

static int parse_args(int argc, char **argv, bench_args *a) {
    memset(a, 0, sizeof *a);
    a->seconds = 0.5;
    a->vertices = 1000000;
    a->characters = 1000;
    a->crowd = 10000;
    a->skin_crowd = 1000;
    const char *command = "ossa bench";
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        long long n = 0;
        int ok = 1, takes_value = 1;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--json")) {
            a->json = 1, takes_value = 0;
        } else if (!strcmp(arg, "--load-only")) {
            a->load_only = 1, takes_value = 0;
        } else if (!strcmp(arg, "--allow-unsafe-paths")) {
            cli_load_options()->allow_unsafe_paths = 1, takes_value = 0;
        } else if (!strcmp(arg, "--seconds")) {
            ok = cli_number(command, arg, value, 0.001, 60, &a->seconds);
        } else if (!strcmp(arg, "--threads")) {
            if ((ok = cli_integer(command, arg, value, 1, 256, &n))) a->threads = (unsigned)n;
        } else if (!strcmp(arg, "--vertices")) {
            if ((ok = cli_integer(command, arg, value, 16, 100000000, &n))) a->vertices = (size_t)n;
        } else if (!strcmp(arg, "--characters")) {
            if ((ok = cli_integer(command, arg, value, 1, 1000000, &n))) a->characters = (int)n;
        } else if (!strcmp(arg, "--crowd")) {
            if ((ok = cli_integer(command, arg, value, 1, 1000000, &n))) a->crowd = (int)n;
        } else if (!strcmp(arg, "--skin-crowd")) {
            if ((ok = cli_integer(command, arg, value, 1, 100000, &n))) a->skin_crowd = (int)n;
        } else if (!strcmp(arg, "--bandwidth-mib")) {
            if ((ok = cli_integer(command, arg, value, 1, 4096, &n))) a->bandwidth_mib = (size_t)n;
        } else if (!strcmp(arg, "--cache-mib")) {
            if ((ok = cli_integer(command, arg, value, 1, 65536, &n))) a->cache_mib = (size_t)n;
        } else if (!strcmp(arg, "--backend")) {
            ok = parse_backend(value, &a->backend);
        } else if (!strcmp(arg, "--models")) {
            ok = parse_models(value, a);
        } else {
            fprintf(stderr, "ossa bench: unknown option '%s' (ossa bench --help lists them)\n",
                    arg);
            ok = 0;
        }
        if (!ok) return 2;
        i += takes_value;
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

/* Every .gltf and .glb file under the shared models, sorted (strdup'ed into list). */
static int shared_model_files(char **list) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/models", shared_dir());
    int count = 0;
    find_models(dir, list, &count);
    qsort(list, (size_t)count, sizeof *list, compare_strings);
    return count;
}

static int has_skin(const char *path) {
    ossa_document *doc = NULL;
    int skinned = ossa_document_load_file(path, cli_load_options(), &doc, NULL) == OSSA_OK &&
                  doc->skin_count > 0;
    ossa_document_free(doc);
    return skinned;
}

/* A row; memory-bound workloads get their bound: the kernel with their traffic pattern. */
static void add_skin_row(bench_report *rep, const char *model, skin_workload workload,
                         int instances, const char *mode, unsigned threads, size_t vertices,
                         const bench_skin_result *r) {
    if (rep->skin_count >= MAX_ROWS) return;
    skin_row *row = &rep->skinning[rep->skin_count++];
    memset(row, 0, sizeof *row);
    row->model = model;
    row->workload = workload;
    row->instances = instances;
    row->mode = mode;
    row->threads = threads;
    row->vertices = vertices;
    row->r = *r;
    double pass = (r->bytes_per_vertex + r->rfo_bytes_per_vertex) * (double)vertices;
    /* STREAM's rule: twice the last-level cache or more goes to memory; less may stay. For the
     * synthetic mesh it applies to what can stay, its inputs (and outputs stored the ordinary
     * way): non-temporal outputs never stay, and counting them let a 1M-vertex mesh pass for
     * memory-bound on a 32 MiB L3 that still held part of its 44 MB of inputs (1.01 of
     * triad_nt on Zen 5, 0.72-0.80 with 4M vertices). The crowd's bound counts its outputs. */
    double cacheable = pass;
    if (workload == WORKLOAD_SYNTHETIC && r->nontemporal)
        cacheable -= r->output_bytes_per_vertex * (double)vertices;
    if (workload == WORKLOAD_COPIES || cacheable < 2.0 * (double)rep->cache_bytes) return;
    row->bounded = 1;
    if (workload == WORKLOAD_CROWD) /* outputs written, inputs shared from cache */
        row->bound = r->nontemporal ? BENCH_WRITE_NT : BENCH_WRITE;
    else /* about two bytes read per byte written */
        row->bound = r->nontemporal ? BENCH_TRIAD_NT : BENCH_TRIAD;
    row->memory_bytes_per_vertex = r->bytes_per_vertex + r->rfo_bytes_per_vertex;
    /* bound_gbs and fraction: once the bounds have been measured again at the end */
}

/* LBS and DQS on one thread and on the pool for a set of meshes. */
static void bench_meshes(bench_report *rep, const bench_args *a, ossa_thread_pool *pool,
                         const char *model, skin_workload workload, ossa_skin_mesh *const *meshes,
                         const float *const *palettes, const uint32_t *joints, int count,
                         int instances) {
    size_t vertices = 0;
    for (int m = 0; m < count; m++)
        vertices += ossa_skin_mesh_vertex_count(meshes[m]);
    for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++)
        for (int pass = 0; pass < 2; pass++) {
            ossa_thread_pool *p = pass ? pool : NULL;
            if (pass && ossa_thread_pool_threads(pool) < 2) continue;
            bench_skin_result r;
            if (bench_skinning(meshes, palettes, joints, count, (ossa_skin_mode)mode, a->backend,
                               instances, a->seconds, p, &r) == 0)
                add_skin_row(rep, model, workload, instances, mode ? "dqs" : "lbs",
                             p ? ossa_thread_pool_threads(p) : 1, vertices * (size_t)instances, &r);
        }
}

/* The skinned crowd of a model: LBS and DQS on one thread and on the pool. */
static int bench_model_crowd(bench_report *rep, const bench_args *a, ossa_thread_pool *pool,
                             const char *path, const char *name) {
    bench_skin_crowd *crowd = bench_skin_crowd_create(path, a->skin_crowd);
    if (!crowd) return 1;
    if (!bench_skin_crowd_vertices(crowd)) { /* nothing skinned: no crowd row */
        bench_skin_crowd_free(crowd);
        return 0;
    }
    /* Outputs too large to stay in the cache go around it, as a game's would */
    double outputs = (double)bench_skin_crowd_output_bytes(crowd);
    ossa_skin_stores stores =
        outputs >= 2.0 * (double)rep->cache_bytes ? OSSA_SKIN_STORES_STREAM : OSSA_SKIN_STORES_AUTO;
    int status = 0;
    for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++)
        for (int pass = 0; pass < 2; pass++) {
            ossa_thread_pool *p = pass ? pool : NULL;
            if (pass && ossa_thread_pool_threads(pool) < 2) continue;
            bench_skin_result r;
            if (bench_skin_crowd_run(crowd, (ossa_skin_mode)mode, a->backend, stores, a->seconds, p,
                                     &r))
                status = 1;
            else
                add_skin_row(rep, name, WORKLOAD_CROWD, a->skin_crowd, mode ? "dqs" : "lbs",
                             p ? ossa_thread_pool_threads(p) : 1, bench_skin_crowd_vertices(crowd),
                             &r);
        }
    bench_skin_crowd_free(crowd);
    return status;
}

/* Every skinned primitive of a model, with a real (rest pose) world-space palette. */
static void bench_model_skinning(bench_report *rep, const bench_args *a, ossa_thread_pool *pool,
                                 const char *path, const char *label) {
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, cli_load_options(), &doc, &error) != OSSA_OK ||
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
    ossa_pose pose = {local, weights};
    ossa_pose_set_rest(rig, &pose);
    ossa_fk_palettes_world(rig, &pose, world, palettes);
    ossa_skin_mesh *meshes[MAX_MODELS];
    const float *mesh_palettes[MAX_MODELS];
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
            joints[count] = rig->skins[node->skin].joint_count;
            count++;
        }
    }
    /* a small crowd (16 instances, separate outputs): the meshes are skinned from cache, as
     * in a game that skins its characters one after another */
    if (count)
        bench_meshes(rep, a, pool, label, WORKLOAD_COPIES, meshes, mesh_palettes, joints, count,
                     16);
    for (int i = 0; i < count; i++)
        ossa_skin_mesh_free(meshes[i]);
    free(offset);
    free(local);
    free(weights);
    free(world);
    free(palettes);
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

static void print_json_bandwidth(const bench_report *rep) {
    fputs("\"bandwidth\":[", stdout);
    int first = 1;
    for (int t = 0; t < (rep->threads > 1 ? 2 : 1); t++)
        for (int k = 0; k < BENCH_STREAM_COUNT; k++) {
            if (!bench_stream_supported((bench_stream)k)) continue;
            printf("%s{\"kernel\":\"%s\",\"threads\":%u,\"bytes_per_element\":%g,\"gbs\":%.3f,"
                   "\"gbs_start\":%.3f,\"gbs_end\":%.3f}",
                   first ? "" : ",", bench_stream_name((bench_stream)k), t ? rep->threads : 1,
                   bench_stream_bytes((bench_stream)k), rep->gbs[t][k], rep->gbs_start[t][k],
                   rep->gbs_end[t][k]);
            first = 0;
        }
    fputc(']', stdout);
}

static void print_json_skinning(const bench_report *rep) {
    fputs(",\"skinning\":[", stdout);
    for (int i = 0; i < rep->skin_count; i++) {
        const skin_row *s = &rep->skinning[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(s->model);
        printf(",\"workload\":\"%s\",\"instances\":%d,\"mode\":\"%s\",\"threads\":%u,"
               "\"vertices\":%zu,\"mverts_per_s\":%.3f,\"bytes_per_vertex\":%.3f,"
               "\"output_bytes_per_vertex\":%.3f,\"stores\":\"%s\",\"in_cache\":%s",
               workload_names[s->workload], s->instances, s->mode, s->threads, s->vertices,
               s->r.mverts_per_s, s->r.bytes_per_vertex, s->r.output_bytes_per_vertex,
               s->r.nontemporal ? "nontemporal" : "ordinary", s->bounded ? "false" : "true");
        if (s->bounded)
            printf(",\"memory_bytes_per_vertex\":%.3f,\"bound\":\"%s\",\"bound_gbs\":%.3f,"
                   "\"fraction_of_bound\":%.4f",
                   s->memory_bytes_per_vertex, bench_stream_name(s->bound), s->bound_gbs,
                   s->fraction);
        fputc('}', stdout);
    }
    fputc(']', stdout);
}

/* `"load":[{model, us, us_load}, ...]` */
static void print_json_load(const bench_report *rep) {
    fputs("\"load\":[", stdout);
    for (int i = 0; i < rep->load_count; i++) {
        const bench_load_result *l = &rep->load[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(l->model);
        printf(",\"us\":%.1f,\"us_load\":%.1f}", l->us, l->us_load);
    }
    fputc(']', stdout);
}

/* "host":{...}, (bench_host). */
static void print_json_host(const bench_host *host) {
    fputs("\"host\":{\"cpu\":", stdout);
    print_json_string(host->cpu);
    fputs(",\"vendor\":", stdout);
    print_json_string(host->vendor);
    printf(",\"family\":%d,\"model\":%d,\"logical_cpus\":%ld},", host->family, host->model,
           host->logical_cpus);
}

static void print_json(const bench_report *rep, const bench_args *a) {
    fputc('{', stdout);
    print_json_host(&rep->host);
    if (a->load_only) {
        print_json_load(rep);
        fputs("}\n", stdout);
        return;
    }
    printf("\"threads\":%u,\"backend\":\"%s\",\"seconds\":%g,\"bandwidth_mib\":%zu,"
           "\"cache_mib\":%zu,",
           rep->threads, ossa_skin_backend_name(a->backend ? a->backend : ossa_skin_backend_best()),
           a->seconds, rep->bandwidth_bytes >> 20, rep->cache_bytes >> 20);
    print_json_bandwidth(rep);
    fputs(",\"characters\":[", stdout);
    for (int i = 0; i < rep->character_count; i++) {
        const bench_character_result *c = &rep->characters[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(c->model);
        printf(",\"cursor\":%s,\"joints\":%d,\"nodes\":%d,\"ns_sample\":%.1f,\"ns_fk\":%.1f,"
               "\"ns_palette\":%.1f,\"ns_total\":%.1f,\"ns_fk_palette_many\":%.1f}",
               rep->character_cursor[i] ? "true" : "false", c->joints, c->nodes, c->ns_sample,
               c->ns_fk, c->ns_palette, c->ns_total, c->ns_fk_palette_many);
    }
    fputs("],\"crowd\":[", stdout);
    for (int i = 0; i < rep->crowd_count; i++) {
        const bench_crowd_result *c = &rep->crowd[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(c->model);
        printf(",\"characters\":%d,\"threads\":%u,\"ms_per_frame\":%.9g,\"ns_per_character\":%.2f}",
               c->characters, c->threads, c->ms_per_frame, c->ns_per_character);
    }
    fputs("],\"mix\":[", stdout);
    for (int i = 0; i < rep->mix_count; i++) {
        const bench_mix_result *m = &rep->mix[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(m->model);
        printf(",\"characters\":%d,\"ns_sample\":%.1f,\"ns_mix\":%.1f}", m->characters,
               m->ns_sample, m->ns_mix);
    }
    fputs("],\"clips\":[", stdout);
    for (int i = 0; i < rep->clip_count; i++) {
        const bench_clip_result *c = &rep->clips[i];
        printf("%s{\"model\":", i ? "," : "");
        print_json_string(c->model);
        fputs(",\"clip\":", stdout);
        print_json_string(c->clip);
        printf(",\"plain_bytes\":%zu,\"compact_bytes\":%zu,\"error\":%.9g,\"budget\":%.9g,"
               "\"ns_plain\":%.1f,\"ns_compact\":%.1f}",
               c->plain_bytes, c->compact_bytes, c->error, c->budget, c->ns_plain, c->ns_compact);
    }
    fputc(']', stdout);
    print_json_skinning(rep);
    bench_ns_rows_print_json("ik", "job", rep->ik, rep->ik_count, print_json_string);
    bench_ns_rows_print_json("root_motion", "what", rep->motion, rep->motion_count,
                             print_json_string);
    fputc(',', stdout);
    print_json_load(rep);
    fputs("}\n", stdout);
}

static void print_table_bandwidth(const bench_report *rep) {
    printf("bandwidth bounds, GB/s (bytes per element as they cross the memory bus; arrays of\n"
           "%zu MiB; the best of the run's start, after its memory-bound rows and end):\n",
           rep->bandwidth_bytes >> 20);
    printf("  %-9s %6s %10s", "kernel", "bytes", "1 thread");
    if (rep->threads > 1) printf(" %7u threads", rep->threads);
    fputc('\n', stdout);
    for (int k = 0; k < BENCH_STREAM_COUNT; k++) {
        if (!bench_stream_supported((bench_stream)k)) continue;
        printf("  %-9s %6g %10.1f", bench_stream_name((bench_stream)k),
               bench_stream_bytes((bench_stream)k), rep->gbs[0][k]);
        if (rep->threads > 1) printf(" %15.1f", rep->gbs[1][k]);
        fputc('\n', stdout);
    }
}

static void print_table_skinning(const bench_report *rep) {
    printf("\nskinning (positions + normals where present; B/vert: the kernel's streams; memory\n"
           "rows: bytes to and from memory per vertex and the share of their bound):\n");
    printf("  %-48s %-9s %5s %4s %7s %9s %9s %7s %7s %-9s %6s\n", "model", "workload", "n", "mode",
           "threads", "vertices", "Mvert/s", "B/vert", "memory", "bound", "share");
    for (int i = 0; i < rep->skin_count; i++) {
        const skin_row *s = &rep->skinning[i];
        printf("  %-48s %-9s %5d %4s %7u %9zu %9.1f %7.1f", s->model, workload_names[s->workload],
               s->instances, s->mode, s->threads, s->vertices, s->r.mverts_per_s,
               s->r.bytes_per_vertex);
        if (s->bounded)
            printf(" %7.1f %-9s %5.0f%%\n", s->memory_bytes_per_vertex, bench_stream_name(s->bound),
                   100.0 * s->fraction);
        else
            printf(" %7s %-9s %6s\n", "-", "in cache", "-");
    }
}

static void print_table_load(const bench_report *rep) {
    printf(
        "loading, us, the best of %d (load + every accessor read as floats + free: what cgltf's\n"
        "side-by-side harness times; load: ossa_document_load_file alone):\n",
        BENCH_LOAD_RUNS);
    printf("  %-48s %10s %10s\n", "model", "us", "load");
    for (int i = 0; i < rep->load_count; i++)
        printf("  %-48s %10.1f %10.1f\n", rep->load[i].model, rep->load[i].us,
               rep->load[i].us_load);
}

/* The first line of the table: which processor measured the figures. */
static void print_table_host(const bench_host *host) {
    printf("host %s", host->cpu[0] ? host->cpu : "(processor name unknown)");
    if (host->vendor[0]) printf(", %s", host->vendor);
    if (host->family >= 0) printf(" family %d model %d", host->family, host->model);
    printf(", %ld logical CPUs\n", host->logical_cpus);
}

static void print_table(const bench_report *rep, const bench_args *a) {
    print_table_host(&rep->host);
    if (a->load_only) {
        print_table_load(rep);
        return;
    }
    printf("skinning backend %s\n\n",
           ossa_skin_backend_name(a->backend ? a->backend : ossa_skin_backend_best()));
    print_table_bandwidth(rep);
    printf("\nsample + FK + palette, ns per character (crowd of %d):\n", a->characters);
    printf("  %-48s %6s %6s %9s %7s %8s %8s %14s\n", "model", "cursor", "joints", "sample", "fk",
           "palette", "total", "fk+palette x4");
    for (int i = 0; i < rep->character_count; i++) {
        const bench_character_result *c = &rep->characters[i];
        printf("  %-48s %6s %6d %9.1f %7.1f %8.1f %8.1f %14.1f\n", c->model,
               rep->character_cursor[i] ? "yes" : "no", c->joints, c->ns_sample, c->ns_fk,
               c->ns_palette, c->ns_total, c->ns_fk_palette_many);
    }
    printf("\ncrowd through the runtime API (sample + FK + every palette):\n");
    printf("  %-48s %10s %7s %12s %14s\n", "model", "characters", "threads", "ms/frame",
           "ns/character");
    for (int i = 0; i < rep->crowd_count; i++) {
        const bench_crowd_result *c = &rep->crowd[i];
        printf("  %-48s %10d %7u %12.3f %14.1f\n", c->model, c->characters, c->threads,
               c->ms_per_frame, c->ns_per_character);
    }
    printf("\nmixing, ns per character (sampling only; crowd of %d): one clip with a cursor, a\n"
           "4-layer mix (2 normal, 1 masked, 1 additive):\n",
           a->characters);
    printf("  %-48s %9s %9s %7s\n", "model", "sample", "mix", "ratio");
    for (int i = 0; i < rep->mix_count; i++) {
        const bench_mix_result *m = &rep->mix[i];
        printf("  %-48s %9.1f %9.1f %6.1fx\n", m->model, m->ns_sample, m->ns_mix,
               m->ns_mix / m->ns_sample);
    }
    printf("\nclips, runtime bytes and ns per character to sample with a cursor (crowd of %d;\n"
           "compact within the default budget, error as declared):\n",
           a->characters);
    printf("  %-32s %-12s %8s %8s %10s %8s %8s %6s\n", "model", "clip", "plain B", "compact",
           "error", "plain ns", "compact", "ratio");
    for (int i = 0; i < rep->clip_count; i++) {
        const bench_clip_result *c = &rep->clips[i];
        printf("  %-32s %-12.12s %8zu %8zu %10.3g %8.1f %8.1f %5.2fx\n", c->model, c->clip,
               c->plain_bytes, c->compact_bytes, c->error, c->ns_plain, c->ns_compact,
               c->ns_compact / c->ns_plain);
    }
    print_table_skinning(rep);
    bench_ns_rows_print_table("inverse kinematics, ns per job (two_bone: a leg; aim: the head; "
                              "aim_chain: spine\nto head):",
                              "job", rep->ik, rep->ik_count);
    bench_ns_rows_print_table("root motion, ns per character (split: one root transform; clip: the "
                              "motion a clip\naccumulates to a position; player: what root motion "
                              "adds to a player's frame):",
                              "what", rep->motion, rep->motion_count);
    fputc('\n', stdout);
    print_table_load(rep);
    printf("\nThe machine may be shared with other work: figures are noisy.\n");
}

/* The last `depth` components of a path ("a/b/Fox.glb", 2: "b/Fox.glb"; the whole path when it
 * has fewer). */
static const char *path_tail(const char *path, int depth) {
    const char *p = path + strlen(path);
    while (p > path) {
        if (p[-1] == '/' && --depth == 0) return p;
        p--;
    }
    return path;
}

/* The label of model i in the rows: its base name, with as many parent folders as it takes to
 * tell it from every other file of the list (two Fox.glb in different folders). */
static void model_label(const char *const *models, int count, int i, char *label, size_t size) {
    int depth = 1;
    for (int j = 0; j < count; j++) {
        if (!strcmp(models[j], models[i])) continue; /* the same file */
        while (path_tail(models[i], depth) != models[i] &&
               !strcmp(path_tail(models[i], depth), path_tail(models[j], depth)))
            depth++;
    }
    snprintf(label, size, "%s", path_tail(models[i], depth));
}

/* Loads every model once before anything is measured: a model that cannot be benchmarked is
 * reported once, by its loader's error, and nothing runs. documents_only: the document is enough
 * (the load rows), else its rig and clips too. */
static int models_load(const char *const *models, int count, int documents_only) {
    for (int i = 0; i < count; i++) {
        ossa_document *doc = NULL;
        ossa_rig *rig = NULL;
        ossa_clip_set *clips = NULL;
        ossa_error error;
        ossa_result r = ossa_document_load_file(models[i], cli_load_options(), &doc, &error);
        if (r == OSSA_OK && !documents_only) r = ossa_rig_build(doc, NULL, &rig, &error);
        if (r == OSSA_OK && !documents_only)
            r = ossa_clip_set_build(doc, rig, NULL, &clips, &error);
        ossa_clip_set_free(clips);
        ossa_rig_free(rig);
        ossa_document_free(doc);
        if (r != OSSA_OK) {
            cli_report_error(models[i], &error);
            return 0;
        }
    }
    return 1;
}

/* The last-level cache: --cache-mib, else what the kernel says of cpu0's level 3 (sysconf's
 * figure can be the host's, not the virtual machine's), else sysconf's, else 32 MiB. */
static size_t cache_bytes(const bench_args *a) {
    if (a->cache_mib) return a->cache_mib << 20;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    unsigned long kib = 0;
    char unit = 0;
    int found = f && fscanf(f, "%lu%c", &kib, &unit) == 2 && kib > 0 && unit == 'K';
    if (f) fclose(f);
    if (found) return (size_t)kib << 10;
#ifdef _SC_LEVEL3_CACHE_SIZE
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (llc > 0) return (size_t)llc;
#endif
    return (size_t)32 << 20;
}

/* Each bandwidth array: --bandwidth-mib, else STREAM's rule (2x the last-level cache, here
 * within 128-512 MiB). */
static size_t bandwidth_array_bytes(const bench_args *a, size_t llc) {
    if (a->bandwidth_mib) return a->bandwidth_mib << 20;
    size_t bytes = 2 * llc;
    if (bytes < ((size_t)128 << 20)) bytes = (size_t)128 << 20;
    if (bytes > ((size_t)512 << 20)) bytes = (size_t)512 << 20;
    return bytes;
}

/* Every bound on 1 thread and on the run's threads. */
static int measure_bandwidth(const bench_report *rep, double seconds,
                             double gbs[2][BENCH_STREAM_COUNT]) {
    int status = bench_bandwidth(rep->bandwidth_bytes, 1, seconds, gbs[0]);
    if (rep->threads > 1)
        status |= bench_bandwidth(rep->bandwidth_bytes, rep->threads, seconds, gbs[1]);
    else
        memcpy(gbs[1], gbs[0], sizeof gbs[0]);
    if (status) fprintf(stderr, "ossa bench: the bandwidth kernels could not run\n");
    return status;
}

/* The synthetic mesh: the fast path's best case, inputs and outputs in memory. */
static int bench_synthetic(bench_report *rep, const bench_args *a, ossa_thread_pool *pool) {
    const uint32_t joints = 64;
    ossa_skin_mesh *big = bench_synthetic_mesh(a->vertices, joints);
    float *palette = malloc(12 * sizeof(float) * joints);
    int ok = big && palette;
    if (ok) {
        bench_synthetic_palette(joints, palette);
        const float *pal[1] = {palette};
        static char name[64]; /* rows keep pointers to model names until printed */
        snprintf(name, sizeof name, "synthetic %zu vertices, 4 influences", a->vertices);
        bench_meshes(rep, a, pool, name, WORKLOAD_SYNTHETIC, &big, pal, &joints, 1, 1);
    }
    ossa_skin_mesh_free(big);
    free(palette);
    return !ok;
}

/* Measures the bounds again when rows from `first_row` on are memory-bound, each kernel keeping
 * its best in gbs_end: a bound taken in the seconds after its rows holds for them even when the
 * machine's other tenants load the bus more at the start or the end of the run. */
static int bounds_after_rows(bench_report *rep, double seconds, int first_row) {
    int bounded = 0;
    for (int i = first_row; i < rep->skin_count; i++)
        bounded |= rep->skinning[i].bounded;
    if (!bounded) return 0;
    double again[2][BENCH_STREAM_COUNT];
    if (measure_bandwidth(rep, seconds, again)) return 1;
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < BENCH_STREAM_COUNT; k++)
            if (again[t][k] > rep->gbs_end[t][k]) rep->gbs_end[t][k] = again[t][k];
    return 0;
}

/* Each memory-bound row's bound and share of it; nonzero when a share exceeds 1. */
static int divide_by_bounds(bench_report *rep) {
    int over = 0;
    for (int i = 0; i < rep->skin_count; i++) {
        skin_row *row = &rep->skinning[i];
        if (!row->bounded) continue;
        row->bound_gbs = rep->gbs[row->threads > 1][row->bound];
        row->fraction =
            row->bound_gbs > 0
                ? row->r.mverts_per_s * 1e6 * row->memory_bytes_per_vertex / (row->bound_gbs * 1e9)
                : 0.0;
        over |= row->fraction > 1.0;
    }
    return over;
}

/* Every row but the load rows; nonzero when one could not be measured. */
static int measure_rows(bench_report *rep, const bench_args *a, ossa_thread_pool *pool) {
    int status = EXIT_OK;
    if (measure_bandwidth(rep, a->seconds, rep->gbs_start)) status = EXIT_MODEL_ERROR;
    static char labels[MAX_MODELS][256]; /* rows keep pointers to model names until printed */
    for (int i = 0; i < a->model_count; i++) {
        char *label = labels[i];
        model_label(a->models, a->model_count, i, label, sizeof labels[i]);
        for (int cursor = 1; cursor >= 0; cursor--) {
            bench_character_result *c = &rep->characters[rep->character_count];
            if (bench_characters(a->models[i], cursor, a->characters, a->seconds, c) == 0) {
                snprintf(c->model, sizeof c->model, "%s", label);
                rep->character_cursor[rep->character_count++] = cursor;
            } else {
                status = EXIT_MODEL_ERROR;
            }
        }
        for (int pass = 0; pass < (rep->threads > 1 ? 2 : 1); pass++) {
            bench_crowd_result *c = &rep->crowd[rep->crowd_count];
            if (bench_crowd(a->models[i], a->crowd, a->seconds, pass ? pool : NULL, c) == 0)
                snprintf(rep->crowd[rep->crowd_count++].model, sizeof c->model, "%s", label);
            else
                status = EXIT_MODEL_ERROR;
        }
        if (bench_mix(a->models[i], a->characters, a->seconds, &rep->mix[rep->mix_count]) == 0)
            snprintf(rep->mix[rep->mix_count++].model, sizeof rep->mix->model, "%s", label);
        int clip_rows = bench_clips(a->models[i], a->characters, a->seconds,
                                    rep->clips + rep->clip_count, MAX_ROWS - rep->clip_count);
        if (clip_rows < 0) status = EXIT_MODEL_ERROR;
        for (int r = 0; r < clip_rows; r++)
            snprintf(rep->clips[rep->clip_count + r].model, sizeof rep->clips->model, "%s", label);
        rep->clip_count += clip_rows > 0 ? clip_rows : 0;
        bench_model_skinning(rep, a, pool, a->models[i], label);
        int ik_rows = bench_ik(a->models[i], a->seconds, rep->ik + rep->ik_count);
        if (ik_rows < 0) status = EXIT_MODEL_ERROR;
        for (int r = 0; r < ik_rows; r++)
            snprintf(rep->ik[rep->ik_count + r].model, sizeof rep->ik->model, "%s", label);
        rep->ik_count += ik_rows > 0 ? ik_rows : 0;
        int motion_rows = bench_motion(a->models[i], a->seconds, rep->motion + rep->motion_count);
        if (motion_rows < 0) status = EXIT_MODEL_ERROR;
        for (int r = 0; r < motion_rows; r++)
            snprintf(rep->motion[rep->motion_count + r].model, sizeof rep->motion->model, "%s",
                     label);
        rep->motion_count += motion_rows > 0 ? motion_rows : 0;
    }
    /* the bounds again after the rows they bound and at the end; each the best of all: the
     * rows above divide by it */
    int first_row = rep->skin_count;
    if (bench_synthetic(rep, a, pool)) status = EXIT_MODEL_ERROR;
    if (bounds_after_rows(rep, a->seconds, first_row)) status = EXIT_MODEL_ERROR;
    for (int i = 0; i < a->model_count; i++) {
        first_row = rep->skin_count;
        if (bench_model_crowd(rep, a, pool, a->models[i], labels[i])) status = EXIT_MODEL_ERROR;
        if (bounds_after_rows(rep, a->seconds, first_row)) status = EXIT_MODEL_ERROR;
    }
    double end[2][BENCH_STREAM_COUNT];
    if (measure_bandwidth(rep, a->seconds, end)) status = EXIT_MODEL_ERROR;
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < BENCH_STREAM_COUNT; k++) {
            if (end[t][k] > rep->gbs_end[t][k]) rep->gbs_end[t][k] = end[t][k];
            rep->gbs[t][k] = rep->gbs_start[t][k] > rep->gbs_end[t][k] ? rep->gbs_start[t][k]
                                                                       : rep->gbs_end[t][k];
        }
    /* A share above 1 means the bound was measured while other programs held the bus or a
     * CPU (the byte counts are exact): the end's bounds are measured up to twice more, each
     * kernel keeping its best. */
    for (int retry = 0; divide_by_bounds(rep) && retry < 2; retry++) {
        double again[2][BENCH_STREAM_COUNT];
        if (measure_bandwidth(rep, a->seconds, again)) status = EXIT_MODEL_ERROR;
        for (int t = 0; t < 2; t++)
            for (int k = 0; k < BENCH_STREAM_COUNT; k++) {
                if (again[t][k] > rep->gbs_end[t][k]) rep->gbs_end[t][k] = again[t][k];
                if (again[t][k] > rep->gbs[t][k]) rep->gbs[t][k] = again[t][k];
            }
    }
    if (divide_by_bounds(rep))
        fprintf(stderr, "ossa bench: a skinning row still exceeds its bound after measuring the "
                        "bounds four times: the machine is busy, its shares are not meaningful\n");
    return status;
}

int cmd_bench(int argc, char **argv) {
    bench_args a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed) {
        free(a.model_list);
        return parsed == 1 ? EXIT_OK : EXIT_USAGE;
    }
    /* The load rows: the models given, else every shared model file; the other rows: the models
     * given, else the shared ones with a skin. */
    char *found[MAX_MODELS];
    const char *load_models[MAX_MODELS];
    int found_count = 0, load_model_count = a.model_count;
    memcpy(load_models, a.models, sizeof load_models);
    if (!a.model_count) {
        found_count = shared_model_files(found);
        load_model_count = found_count;
        for (int i = 0; i < found_count; i++) {
            load_models[i] = found[i];
            if (!a.load_only && has_skin(found[i])) a.models[a.model_count++] = found[i];
        }
        if (!a.model_count && !a.load_only)
            fprintf(stderr,
                    "ossa bench: no skinned model under %s/models (set OSSA_SHARED or give "
                    "--models); measuring the synthetic mesh only\n",
                    shared_dir());
    }
    if (!models_load(load_models, load_model_count, 1) ||
        !models_load(a.models, a.load_only ? 0 : a.model_count, 0)) {
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
    bench_host_describe(&rep->host);
    rep->cache_bytes = cache_bytes(&a);
    rep->bandwidth_bytes = bandwidth_array_bytes(&a, rep->cache_bytes);
    int status = EXIT_OK;
    for (int i = 0; i < load_model_count; i++) {
        bench_load_result *row = &rep->load[rep->load_count];
        if (bench_load(load_models[i], BENCH_LOAD_RUNS, row) != 0) {
            status = EXIT_MODEL_ERROR;
            continue;
        }
        model_label(load_models, load_model_count, i, row->model, sizeof row->model);
        rep->load_count++;
    }
    if (!a.load_only && measure_rows(rep, &a, pool)) status = EXIT_MODEL_ERROR;
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
