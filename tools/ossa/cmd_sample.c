/* ossa sample: world transforms, morph weights, joint matrices (and skinned vertices) of a
 * model at given times of one animation, in the golden JSON format of DESIGN.md. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_select.h"
#include "cli_report.h"
#include "commands.h"
#include "ossa/model.h"
#include "sample_mix.h"
#include "sample_primitives.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ossa sample MODEL [--anim K|K,L,...|all | --mix FILE] --time T [--time T ...]\n"
            "                   [--vertices a,b,c] [--json] [--compact] [--allow-unsafe-paths]\n\n"
            "Samples animation K (glTF index or name, as ossa info lists them; default 0) at\n"
            "each time T (seconds; times outside the animation clamp to its first/last keys).\n"
            "An element of digits only is an index. --anim 0,2 (or Walk,Run) or --anim all\n"
            "samples several animations together on the file's timeline: the rest pose, then each\n"
            "animation writes the properties it animates (a later one wins where two animate\n"
            "the same), each clamped to its own keys.\n"
            "--mix FILE samples the mixed pose of a mix file instead (JSON: layers with\n"
            "weights over time, masks, additive layers, sync groups; see include/ossa/mix.h)\n"
            "at each mix clock T; --json then has animation and animation_name null and mix.\n"
            "With the file's \"root_motion\", each sample also has a root_motion object (the\n"
            "motion accumulated since clock 0) and node_world has the root in place; the file's\n"
            "\"ik\" entries are applied after mixing.\n\n"
            "Without --json, for each time: every node's world translation (a table), the\n"
            "morph weights of every node that has some, the world-space joint matrices\n"
            "world(joint) * IBM of every skin (3x4, row by row) and, for the vertices listed\n"
            "with --vertices, their skinned world-space positions and normals.\n\n"
            "--json prints the golden-file format of DESIGN.md: {model, animation,\n"
            "animation_name, samples: [{time, node_world, morph_weights, joint_matrices,\n"
            "primitives}]} with every vertex of each primitive unless --vertices lists some.\n"
            "With several animations, animation and animation_name are arrays (indices, names\n"
            "or null) instead of a number and a string; without animations both are null.\n"
            "A value that is not finite (keys near the float range overflow interpolation) is\n"
            "written as null.\n\n"
            "--compact samples the model's clips in their compact form (reduced 16-bit keys\n"
            "within the default world-space budget) and prints each clip's bytes and declared\n"
            "error on stderr.\n"
            "--vertices lists vertex indices; one past the largest primitive is a usage error,\n"
            "a smaller primitive leaves out those past its count. --allow-unsafe-paths loads\n"
            "buffers at absolute paths or outside the model's folder (refused by default).\n"
            "Exit codes: 0 success, 1 model error, 2 usage error (an --anim or --vertices the\n"
            "model lacks too).\n");
}

typedef struct sample_args {
    const char *model;
    anim_select anim;
    const char *mix;
    double *times;
    int time_count;
    uint32_t *vertices;
    uint32_t vertex_count;
    int vertices_given;
    int json;
    int compact;
    int allow_unsafe_paths;
} sample_args;

static int parse_number_list(const char *text, sample_args *a) {
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    a->vertices = malloc(cap * sizeof *a->vertices);
    if (!a->vertices) return 0;
    const char *p = text;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || v > UINT32_MAX || *p == '-') return 0;
        a->vertices[a->vertex_count++] = (uint32_t)v;
        if (*end == '\0') return 1;
        if (*end != ',') return 0;
        p = end + 1;
    }
}

/* Returns -1 on success, else the exit code (help or usage error). */
static int parse_args(int argc, char **argv, sample_args *a) {
    a->times = malloc((size_t)argc * sizeof *a->times);
    if (!a->times) return EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(arg, "--json")) {
            a->json = 1;
        } else if (!strcmp(arg, "--compact")) {
            a->compact = 1;
        } else if (!strcmp(arg, "--allow-unsafe-paths")) {
            a->allow_unsafe_paths = 1;
        } else if (!strcmp(arg, "--mix") && i + 1 < argc) {
            a->mix = argv[++i];
        } else if (!strcmp(arg, "--anim") || !strcmp(arg, "--time") || !strcmp(arg, "--vertices") ||
                   !strcmp(arg, "--mix")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ossa sample: %s needs a value\n", arg);
                return EXIT_USAGE;
            }
            const char *value = argv[++i];
            char *end;
            errno = 0;
            if (!strcmp(arg, "--anim")) {
                if (!anim_select_parse(value, "ossa sample", &a->anim)) return EXIT_USAGE;
            } else if (!strcmp(arg, "--time")) {
                double t = strtod(value, &end);
                if (end == value || *end || errno == ERANGE || !isfinite(t)) {
                    fprintf(stderr, "ossa sample: --time wants a number of seconds, not '%s'\n",
                            value);
                    return EXIT_USAGE;
                }
                a->times[a->time_count++] = t;
            } else {
                free(a->vertices);
                a->vertices = NULL;
                a->vertex_count = 0;
                a->vertices_given = 1;
                if (!parse_number_list(value, a)) {
                    fprintf(stderr, "ossa sample: --vertices wants indices like 0,5,7, not '%s'\n",
                            value);
                    return EXIT_USAGE;
                }
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "ossa sample: unknown option '%s'\n", arg);
            return EXIT_USAGE;
        } else if (!a->model) {
            a->model = arg;
        } else {
            fprintf(stderr, "ossa sample: more than one model given ('%s')\n", arg);
            return EXIT_USAGE;
        }
    }
    if (!a->model || a->time_count == 0) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (a->mix && a->anim.given) {
        fprintf(stderr, "ossa sample: --anim and --mix exclude each other\n");
        return EXIT_USAGE;
    }
    return -1;
}

static void print_floats(FILE *out, const float *v, int n) {
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', out);
        sample_json_float(out, v[i]);
    }
    fputc(']', out);
}

/* The shortest %g form that reads back as the same double (as the golden files write times);
 * null for NaN and infinity, as sample_json_float. */
static void print_shortest(FILE *out, double v) {
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v) break;
    }
    fputs(text, out);
}

/* A 3x4 row matrix as the 16 column-major floats of a glTF 4x4. */
static void print_matrix(FILE *out, const float *m) {
    float c[16] = {m[0], m[4], m[8],  0.0f, m[1], m[5], m[9],  0.0f,
                   m[2], m[6], m[10], 0.0f, m[3], m[7], m[11], 1.0f};
    print_floats(out, c, 16);
}

static void print_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void print_json_frame(FILE *out, const ossa_document *doc, const sample_frame *f) {
    const ossa_rig *rig = f->rig;
    fputs("\"node_world\":[", out);
    for (uint32_t g = 0; g < doc->node_count; g++) {
        if (g) fputc(',', out);
        print_matrix(out, f->world + 12 * (size_t)rig->rig_from_gltf[g]);
    }
    fputs("],\"morph_weights\":[", out);
    int first = 1;
    for (uint32_t g = 0; g < doc->node_count; g++) {
        int32_t r = rig->rig_from_gltf[g];
        if (!rig->weight_count[r]) continue;
        fprintf(out, "%s{\"node\":%u,\"weights\":", first ? "" : ",", g);
        print_floats(out, f->pose->weights + rig->weight_offset[r], (int)rig->weight_count[r]);
        fputc('}', out);
        first = 0;
    }
    fputs("],\"joint_matrices\":[", out);
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        fprintf(out, "%s{\"skin\":%u,\"matrices\":[", s ? "," : "", s);
        for (uint32_t j = 0; j < rig->skins[s].joint_count; j++) {
            if (j) fputc(',', out);
            print_matrix(out, f->palettes + f->palette_offset[s] + 12 * (size_t)j);
        }
        fputs("]}", out);
    }
    fputs("],\"primitives\":", out);
}

static void print_text_frame(FILE *out, const ossa_document *doc, const sample_frame *f) {
    const ossa_rig *rig = f->rig;
    for (uint32_t g = 0; g < doc->node_count; g++) {
        const float *w = f->world + 12 * (size_t)rig->rig_from_gltf[g];
        fprintf(out, "  node %3u %-24s translation %10.5f %10.5f %10.5f\n", g,
                doc->nodes[g].name ? doc->nodes[g].name : "", (double)w[3], (double)w[7],
                (double)w[11]);
    }
    for (uint32_t g = 0; g < doc->node_count; g++) {
        int32_t r = rig->rig_from_gltf[g];
        if (!rig->weight_count[r]) continue;
        fprintf(out, "  node %3u morph weights", g);
        for (uint32_t k = 0; k < rig->weight_count[r]; k++)
            fprintf(out, " %.6g", (double)f->pose->weights[rig->weight_offset[r] + k]);
        fputc('\n', out);
    }
    for (uint32_t s = 0; s < rig->skin_count; s++)
        for (uint32_t j = 0; j < rig->skins[s].joint_count; j++) {
            const float *m = f->palettes + f->palette_offset[s] + 12 * (size_t)j;
            fprintf(out, "  skin %u joint %3u matrix", s, j);
            for (int k = 0; k < 12; k++)
                fprintf(out, "%s%.6g", k % 4 ? " " : (k ? " | " : " "), (double)m[k]);
            fputc('\n', out);
        }
}

/* "root_motion":{"translation":[...],"rotation":[...]}, (the motion accumulated since clock 0) */
static void print_json_motion(FILE *out, const ossa_motion *motion) {
    fputs("\"root_motion\":{\"translation\":[", out);
    for (int c = 0; c < 3; c++) {
        if (c) fputc(',', out);
        print_shortest(out, motion->translation[c]);
    }
    fputs("],\"rotation\":[", out);
    for (int c = 0; c < 4; c++) {
        if (c) fputc(',', out);
        print_shortest(out, motion->rotation[c]);
    }
    fputs("]},", out);
}

static int model_error(const char *model, const ossa_error *error) {
    cli_report_error(model, error);
    return EXIT_MODEL_ERROR;
}

/* "animation":K,"animation_name":"..." (arrays with several animations, null without). */
static void print_animations(FILE *out, const sample_args *a, const ossa_model *model,
                             const uint32_t *animations, uint32_t count) {
    if (!a->anim.several) {
        if (!count) {
            fputs(",\"animation\":null,\"animation_name\":null", out);
            return;
        }
        fprintf(out, ",\"animation\":%u,\"animation_name\":", animations[0]);
        print_string(out, ossa_clip_name(ossa_model_clip(model, animations[0])));
        return;
    }
    fputs(",\"animation\":[", out);
    for (uint32_t k = 0; k < count; k++)
        fprintf(out, k ? ",%u" : "%u", animations[k]);
    fputs("],\"animation_name\":[", out);
    for (uint32_t k = 0; k < count; k++) {
        const char *name = ossa_clip_name(ossa_model_clip(model, animations[k]));
        if (k) fputc(',', out);
        if (name)
            print_string(out, name);
        else
            fputs("null", out);
    }
    fputc(']', out);
}

/* Samples the selected animations at t into the character: one through ossa_character_update,
 * several together through ossa_clips_sample (each writes only what it animates). */
static ossa_result sample_at(const ossa_model *model, ossa_character *character,
                             const ossa_clip **clips, float *times, uint32_t count, int several,
                             float t, ossa_error *error) {
    if (!several)
        return ossa_character_update(character, count ? clips[0] : NULL, t, OSSA_WRAP_CLAMP, error);
    for (uint32_t k = 0; k < count; k++)
        times[k] = t; /* sampling holds each clip's first/last key outside its keys */
    if (ossa_clips_sample(ossa_model_rig(model), clips, times, count, NULL,
                          ossa_character_pose(character)) != OSSA_OK)
        return OSSA_ERROR_ARGUMENT; /* the clips are the model's: cannot happen */
    ossa_character_finish(character);
    return OSSA_OK;
}

static int run(const sample_args *a, ossa_document *doc, const ossa_model *model,
               ossa_character *character, uint32_t *palette_offset, uint32_t *animations,
               const ossa_clip **clips, float *clip_times, sample_mix *mix) {
    ossa_error error = {0};
    const ossa_rig *rig = ossa_model_rig(model);
    if (!anim_select_check(&a->anim, model, "ossa sample", a->model)) return EXIT_USAGE;
    uint64_t largest = sample_largest_primitive(doc);
    for (uint32_t i = 0; i < a->vertex_count; i++)
        if (a->vertices[i] >= largest) {
            fprintf(stderr,
                    "ossa sample: --vertices %u: the largest primitive of %s has %llu vertices\n",
                    a->vertices[i], a->model, (unsigned long long)largest);
            return EXIT_USAGE;
        }
    if (a->mix && sample_mix_load(a->mix, model, mix, &error) != OSSA_OK) {
        cli_report_error(a->mix, &error); /* the error is the mix file's */
        return EXIT_MODEL_ERROR;
    }
    uint32_t count = a->mix ? 0 : anim_select_resolve(&a->anim, model, animations);
    for (uint32_t k = 0; k < count; k++)
        clips[k] = ossa_model_clip(model, animations[k]);
    /* The character's palettes are the skins' world-space palettes one after another. */
    for (uint32_t s = 0; s < rig->skin_count; s++)
        palette_offset[s] =
            (uint32_t)(ossa_character_palette(character, s) - ossa_character_palette(character, 0));
    sample_frame frame = {rig,
                          animations,
                          count,
                          ossa_character_pose(character),
                          ossa_character_world(character),
                          rig->skin_count ? ossa_character_palette(character, 0) : NULL,
                          palette_offset};
    /* text lists no vertex unless asked: every vertex of a mesh is a long table */
    sample_vertex_filter filter = {a->json && !a->vertices_given, a->vertices, a->vertex_count};
    FILE *out = stdout;
    if (a->json) {
        fputs("{\"model\":", out);
        print_string(out, a->model);
        if (a->mix) {
            fputs(",\"animation\":null,\"animation_name\":null,\"mix\":", out);
            print_string(out, a->mix);
        } else {
            print_animations(out, a, model, animations, count);
        }
        fputs(",\"samples\":[", out);
    }
    for (int i = 0; i < a->time_count; i++) {
        /* Through float: a time written as the shortest round trip of a key lands on it; clamped
         * to the clip's range, which sampling also does. */
        float t = (float)a->times[i];
        ossa_motion motion;
        if (a->mix) {
            if (sample_mix_pose(mix, a->times[i], 0, character, &error) != OSSA_OK ||
                sample_mix_motion(mix, a->times[i], &motion, &error) != OSSA_OK)
                return model_error(a->model, &error);
        } else if (sample_at(model, character, clips, clip_times, count, a->anim.several, t,
                             &error) != OSSA_OK)
            return model_error(a->model, &error);
        if (a->json) {
            fprintf(out, "%s{\"time\":", i ? "," : "");
            print_shortest(out, a->times[i]);
            fputc(',', out);
            if (a->mix && mix->root_motion) print_json_motion(out, &motion);
            print_json_frame(out, doc, &frame);
        } else {
            fprintf(out, "time %.9g\n", a->times[i]);
            if (a->mix && mix->root_motion)
                fprintf(
                    out, "  root_motion translation %.9g %.9g %.9g rotation %.9g %.9g %.9g %.9g\n",
                    motion.translation[0], motion.translation[1], motion.translation[2],
                    motion.rotation[0], motion.rotation[1], motion.rotation[2], motion.rotation[3]);
            print_text_frame(out, doc, &frame);
        }
        if ((a->json || a->vertices_given) &&
            sample_write_primitives(out, doc, &frame, &filter, !a->json, &error) != 0) {
            fflush(out);
            return model_error(a->model, &error);
        }
        if (a->json) fputc('}', out);
    }
    if (a->json) fputs("]}\n", out);
    return EXIT_OK;
}

int cmd_sample(int argc, char **argv) {
    sample_args a = {0};
    int code = parse_args(argc, argv, &a);
    if (code >= 0) {
        free(a.times);
        free(a.vertices);
        return code;
    }
    ossa_document *doc = NULL;
    ossa_model *model = NULL;
    ossa_character *character = NULL;
    uint32_t *palette_offset = NULL, *animations = NULL;
    const ossa_clip **clips = NULL;
    float *clip_times = NULL;
    sample_mix mix = {0};
    ossa_error error = {0};
    ossa_load_options options = {0};
    options.allow_unsafe_paths = a.allow_unsafe_paths;
    ossa_model_desc desc = {0};
    desc.compact_clips = a.compact;
    if (ossa_document_load_file(a.model, &options, &doc, &error) != OSSA_OK ||
        ossa_model_create(doc, &desc, &model, &error) != OSSA_OK ||
        ossa_character_create(model, &character, &error) != OSSA_OK) {
        code = model_error(a.model, &error);
    } else {
        if (a.compact) cli_report_compact_clips(stderr, "ossa sample: ", model);
        uint32_t n = ossa_model_clip_count(model) + a.anim.count + 1;
        palette_offset = calloc(ossa_model_rig(model)->skin_count + 1, sizeof(uint32_t));
        animations = calloc(n, sizeof *animations);
        clips = calloc(n, sizeof *clips);
        clip_times = calloc(n, sizeof *clip_times);
        if (!palette_offset || !animations || !clips || !clip_times)
            code = model_error(a.model,
                               &(ossa_error){OSSA_ERROR_OUT_OF_MEMORY, "", "", "out of memory"});
        else
            code =
                run(&a, doc, model, character, palette_offset, animations, clips, clip_times, &mix);
    }
    free(palette_offset);
    free(animations);
    free(clips);
    free(clip_times);
    sample_mix_free(&mix);
    ossa_character_free(character);
    ossa_model_free(model);
    ossa_document_free(doc);
    free(a.times);
    free(a.vertices);
    return code;
}
