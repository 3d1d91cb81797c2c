/* ossa sample: world transforms, morph weights, joint matrices (and skinned vertices) of a
 * model at given times of one animation, in the golden JSON format of DESIGN.md. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "ossa/model.h"
#include "sample_primitives.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ossa sample MODEL [--anim K] --time T [--time T ...] [--vertices a,b,c] "
            "[--json]\n\n"
            "Samples animation K (glTF index, default 0) at each time T (seconds; times outside\n"
            "the animation clamp to its first/last keys) and prints every node's world matrix,\n"
            "the morph weights, the world-space joint matrices world(joint) * IBM and the\n"
            "skinned world-space vertices. --vertices limits the printed vertices of each\n"
            "primitive (default: all). --json prints the golden-file format of DESIGN.md;\n"
            "without it a short table of world translations is printed.\n");
}

typedef struct sample_args {
    const char *model;
    long anim; /* -1: default */
    double *times;
    int time_count;
    uint32_t *vertices;
    uint32_t vertex_count;
    int vertices_given;
    int json;
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
    a->anim = -1;
    a->times = malloc((size_t)argc * sizeof *a->times);
    if (!a->times) return EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(arg, "--json")) {
            a->json = 1;
        } else if (!strcmp(arg, "--anim") || !strcmp(arg, "--time") || !strcmp(arg, "--vertices")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ossa sample: %s needs a value\n", arg);
                return EXIT_USAGE;
            }
            const char *value = argv[++i];
            char *end;
            errno = 0;
            if (!strcmp(arg, "--anim")) {
                a->anim = strtol(value, &end, 10);
                if (end == value || *end || errno || a->anim < 0 || a->anim > INT32_MAX) {
                    fprintf(stderr, "ossa sample: --anim wants an animation index, not '%s'\n",
                            value);
                    return EXIT_USAGE;
                }
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
    return -1;
}

static void print_floats(FILE *out, const float *v, int n) {
    fputc('[', out);
    for (int i = 0; i < n; i++)
        fprintf(out, i ? ",%.9g" : "%.9g", (double)v[i]);
    fputc(']', out);
}

/* The shortest %g form that reads back as the same double (as the golden files write times). */
static void print_shortest(FILE *out, double v) {
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
    for (uint32_t g = 0; g < doc->node_count; g++) {
        const float *w = f->world + 12 * (size_t)f->rig->rig_from_gltf[g];
        fprintf(out, "  node %3u %-24s translation %10.5f %10.5f %10.5f\n", g,
                doc->nodes[g].name ? doc->nodes[g].name : "", (double)w[3], (double)w[7],
                (double)w[11]);
    }
}

static int model_error(const ossa_error *error) {
    char text[OSSA_FILE_MAX + OSSA_PATH_MAX + OSSA_MESSAGE_MAX + 8];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "error: %s\n", text);
    return EXIT_MODEL_ERROR;
}

static int run(const sample_args *a, ossa_document *doc, const ossa_model *model,
               ossa_character *character, uint32_t *palette_offset) {
    ossa_error error = {0};
    snprintf(error.file, sizeof error.file, "%s", doc->file ? doc->file : a->model);
    const ossa_rig *rig = ossa_model_rig(model);
    const ossa_clip *clip = NULL;
    if (a->anim >= 0 || ossa_model_clip_count(model) > 0) {
        long k = a->anim < 0 ? 0 : a->anim;
        if (k >= (long)ossa_model_clip_count(model)) {
            error.code = OSSA_ERROR_ARGUMENT;
            snprintf(error.path, sizeof error.path, "animations");
            snprintf(error.message, sizeof error.message,
                     "there is no animation %ld (the model has %u)", k,
                     ossa_model_clip_count(model));
            return model_error(&error);
        }
        clip = ossa_model_clip(model, (uint32_t)k);
    }
    /* The character's palettes are the skins' world-space palettes one after another. */
    for (uint32_t s = 0; s < rig->skin_count; s++)
        palette_offset[s] =
            (uint32_t)(ossa_character_palette(character, s) - ossa_character_palette(character, 0));
    sample_frame frame = {rig,
                          clip,
                          ossa_character_pose(character),
                          ossa_character_world(character),
                          rig->skin_count ? ossa_character_palette(character, 0) : NULL,
                          palette_offset,
                          clip ? (int32_t)(a->anim < 0 ? 0 : a->anim) : -1};
    sample_vertex_filter filter = {!a->vertices_given, a->vertices, a->vertex_count};
    FILE *out = stdout;
    if (a->json) {
        fputs("{\"model\":", out);
        print_string(out, a->model);
        if (clip) {
            fprintf(out, ",\"animation\":%ld,\"animation_name\":", a->anim < 0 ? 0 : a->anim);
            print_string(out, ossa_clip_name(clip));
        } else {
            fputs(",\"animation\":null,\"animation_name\":null", out);
        }
        fputs(",\"samples\":[", out);
    }
    for (int i = 0; i < a->time_count; i++) {
        /* Through float: a time written as the shortest round trip of a key lands on it; clamped
         * to the clip's range, which sampling also does. */
        float t = (float)a->times[i];
        if (ossa_character_update(character, clip, t, OSSA_WRAP_CLAMP, &error) != OSSA_OK)
            return model_error(&error);
        if (a->json) {
            fprintf(out, "%s{\"time\":", i ? "," : "");
            print_shortest(out, a->times[i]);
            fputc(',', out);
            print_json_frame(out, doc, &frame);
            if (sample_write_primitives(out, doc, &frame, &filter, &error) != 0) {
                fflush(out);
                return model_error(&error);
            }
            fputc('}', out);
        } else {
            fprintf(out, "time %.9g\n", a->times[i]);
            print_text_frame(out, doc, &frame);
        }
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
    uint32_t *palette_offset = NULL;
    ossa_error error = {0};
    if (ossa_document_load_file(a.model, NULL, &doc, &error) != OSSA_OK ||
        ossa_model_create(doc, NULL, &model, &error) != OSSA_OK ||
        ossa_character_create(model, &character, &error) != OSSA_OK)
        code = model_error(&error);
    else if (!(palette_offset = calloc(ossa_model_rig(model)->skin_count + 1, sizeof(uint32_t))))
        code = model_error(&(ossa_error){OSSA_ERROR_OUT_OF_MEMORY, "", "", "out of memory"});
    else
        code = run(&a, doc, model, character, palette_offset);
    free(palette_offset);
    ossa_character_free(character);
    ossa_model_free(model);
    ossa_document_free(doc);
    free(a.times);
    free(a.vertices);
    return code;
}
