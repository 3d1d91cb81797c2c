/* ossa info: a readable summary of a model (node tree with joints marked, skins, meshes,
 * animations) with its warnings on stderr, or the reason it is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli_report.h"
#include "commands.h"
#include "ossa/document.h"
#include "ossa/model.h"

static const char *const path_names[] = {"translation", "rotation", "scale", "weights"};
static const char *const interp_names[] = {"LINEAR", "STEP", "CUBICSPLINE"};

static void usage(FILE *out) {
    fprintf(out,
            "usage: ossa info MODEL [--json] [--allow-unsafe-paths]\n\n"
            "Loads MODEL (.gltf or .glb), validates it and prints its node tree (joints\n"
            "marked with *), skins, meshes (vertices, influence sets, morph targets) and\n"
            "animations (duration, channels by path and interpolation, and each\n"
            "KHR_animation_pointer with what it became: a node's channel, a mesh's weights,\n"
            "a named float track, or ignored), then each clip's runtime bytes, plain and\n"
            "compact (built within the default budget, with the error it declares; see\n"
            "README, Compact clips; in --json each animation's plain_bytes, compact_bytes,\n"
            "compact_error and compact_budget). Warnings go to\n"
            "stderr as 'warning: FILE: JSON-PATH: message'; a refused model prints\n"
            "'error: FILE: JSON-PATH: message' and exits with 1. --json prints the same facts\n"
            "(and the warnings) as one JSON object on stdout. FILE is MODEL as given.\n"
            "--allow-unsafe-paths loads buffers and images at absolute paths or outside the\n"
            "model's folder (refused by default).\n");
}

static const char *name_or_empty(const char *name) {
    return name ? name : "";
}

static void print_name(const char *name) {
    if (name) printf(" \"%s\"", name);
}

/* Indentation is capped so that very deep hierarchies stay readable. */
#define MAX_INDENT 32

static void print_node_line(const ossa_document *doc, uint32_t i, uint32_t depth,
                            const uint8_t *is_joint) {
    uint32_t indent = depth < MAX_INDENT ? depth : MAX_INDENT;
    printf("  %*s%u", (int)(indent * 2), "", i);
    if (depth > MAX_INDENT) printf(" (depth %u)", depth);
    const ossa_node *n = &doc->nodes[i];
    print_name(n->name);
    if (is_joint[i]) printf(" *");
    if (n->mesh >= 0) printf(" mesh %d", n->mesh);
    if (n->skin >= 0) printf(" skin %d", n->skin);
    if (n->camera >= 0) printf(" camera %d", n->camera);
    if (n->has_matrix) printf(" matrix");
    if (n->weight_count) printf(" %u morph weights", n->weight_count);
    printf("\n");
}

/* Depth-first, children in order, with an explicit stack (no recursion). */
static int print_tree(const ossa_document *doc) {
    uint32_t n = doc->node_count;
    uint8_t *is_joint = calloc(n ? n : 1, 1);
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    uint32_t *depth = malloc((n ? n : 1) * sizeof *depth);
    if (!is_joint || !stack || !depth) {
        free(is_joint);
        free(stack);
        free(depth);
        fprintf(stderr, "error: out of memory\n");
        return 0;
    }
    for (uint32_t s = 0; s < doc->skin_count; s++)
        for (uint32_t j = 0; j < doc->skins[s].joint_count; j++)
            is_joint[doc->skins[s].joints[j]] = 1;
    printf("nodes (%u; * = joint):\n", n);
    for (uint32_t root = 0; root < n; root++) {
        if (doc->nodes[root].parent >= 0) continue;
        uint32_t top = 0;
        stack[top] = root;
        depth[top++] = 0;
        while (top) {
            top--;
            uint32_t i = stack[top], d = depth[top];
            print_node_line(doc, i, d, is_joint);
            const ossa_node *node = &doc->nodes[i];
            for (uint32_t c = node->child_count; c-- > 0;) {
                stack[top] = (uint32_t)node->children[c];
                depth[top++] = d + 1;
            }
        }
    }
    free(is_joint);
    free(stack);
    free(depth);
    return 1;
}

static void print_skins(const ossa_document *doc) {
    printf("skins (%u):\n", doc->skin_count);
    for (uint32_t s = 0; s < doc->skin_count; s++) {
        const ossa_skin *skin = &doc->skins[s];
        printf("  %u", s);
        print_name(skin->name);
        printf(": %u joints, inverse bind matrices ", skin->joint_count);
        if (skin->inverse_bind_matrices >= 0)
            printf("accessor %d", skin->inverse_bind_matrices);
        else
            printf("identity");
        if (skin->skeleton >= 0) printf(", skeleton node %d", skin->skeleton);
        printf("\n");
    }
}

static const char *mode_name(ossa_primitive_mode mode) {
    static const char *const names[] = {"POINTS",    "LINES",          "LINE_LOOP",   "LINE_STRIP",
                                        "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};
    return (unsigned)mode < 7 ? names[mode] : "?";
}

static void print_meshes(const ossa_document *doc) {
    printf("meshes (%u):\n", doc->mesh_count);
    for (uint32_t m = 0; m < doc->mesh_count; m++) {
        const ossa_mesh *mesh = &doc->meshes[m];
        printf("  %u", m);
        print_name(mesh->name);
        printf(": %u primitive%s, %u morph targets\n", mesh->primitive_count,
               mesh->primitive_count == 1 ? "" : "s", mesh->target_count);
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const ossa_primitive *prim = &mesh->primitives[p];
            printf("    primitive %u: %s, %llu vertices", p, mode_name(prim->mode),
                   (unsigned long long)prim->vertex_count);
            if (prim->indices >= 0)
                printf(", %llu indices", (unsigned long long)doc->accessors[prim->indices].count);
            printf(", %u influence set%s, %u morph targets, attributes", prim->influence_sets,
                   prim->influence_sets == 1 ? "" : "s", prim->target_count);
            for (uint32_t a = 0; a < prim->attribute_count; a++)
                printf(" %s", prim->attributes[a].name);
            printf("\n");
        }
    }
}

/* What a KHR_animation_pointer channel became: an ordinary channel of its node, the weights of
 * the nodes drawing a mesh, a named float track, or nothing (a property ossa does not model). */
static const char *pointer_kind(const ossa_animation_channel *ch) {
    if (ch->node >= 0) return "node";
    if (ch->pointer_target == OSSA_POINTER_MESH_WEIGHTS) return "weights";
    return ch->pointer_target != OSSA_POINTER_NONE ? "float track" : "ignored";
}

static void print_pointers(const ossa_document *doc, const ossa_animation *anim) {
    for (uint32_t c = 0; c < anim->channel_count; c++) {
        const ossa_animation_channel *ch = &anim->channels[c];
        if (!ch->pointer) continue;
        printf("    pointer     %s: %s", ch->pointer, pointer_kind(ch));
        if (ch->node >= 0) printf(" %d %s", ch->node, path_names[ch->path]);
        if (ch->pointer_target == OSSA_POINTER_MESH_WEIGHTS)
            printf(" of mesh %d (%u per key)", ch->pointer_index,
                   doc->meshes[ch->pointer_index].target_count);
        else if (ch->pointer_target != OSSA_POINTER_NONE)
            printf(" (%u float%s)", ossa_pointer_target_components(ch->pointer_target),
                   ossa_pointer_target_components(ch->pointer_target) > 1 ? "s" : "");
        printf(", %s\n", interp_names[anim->samplers[ch->sampler].interpolation]);
    }
}

static void print_animations(const ossa_document *doc) {
    printf("animations (%u):\n", doc->animation_count);
    for (uint32_t a = 0; a < doc->animation_count; a++) {
        const ossa_animation *anim = &doc->animations[a];
        float start = 0, end = 0;
        int have = 0;
        for (uint32_t s = 0; s < anim->sampler_count; s++) {
            int32_t input = anim->samplers[s].input;
            float first, last;
            if (ossa_accessor_read_float(doc, input, 0, 1, &first) != OSSA_OK ||
                ossa_accessor_read_float(doc, input, doc->accessors[input].count - 1, 1, &last) !=
                    OSSA_OK)
                continue;
            if (!have || first < start) start = first;
            if (!have || last > end) end = last;
            have = 1;
        }
        printf("  %u", a);
        print_name(anim->name);
        printf(": %g s (keys %g..%g s), %u channels\n", (double)(end - start), (double)start,
               (double)end, anim->channel_count);
        for (int p = 0; p < 4; p++) {
            uint32_t counts[3] = {0, 0, 0}, total = 0;
            for (uint32_t c = 0; c < anim->channel_count; c++) {
                const ossa_animation_channel *ch = &anim->channels[c];
                if (ch->node < 0 || (int)ch->path != p) continue;
                counts[anim->samplers[ch->sampler].interpolation]++;
                total++;
            }
            if (!total) continue;
            printf("    %-11s %3u:", path_names[p], total);
            for (int i = 0; i < 3; i++)
                if (counts[i]) printf(" %s %u", interp_names[i], counts[i]);
            printf("\n");
        }
        print_pointers(doc, anim);
        uint32_t ignored = 0;
        for (uint32_t c = 0; c < anim->channel_count; c++)
            ignored += anim->channels[c].node < 0 && !anim->channels[c].pointer;
        if (ignored) printf("    ignored     %3u (no target node)\n", ignored);
    }
}

static void add_name(cJSON *object, const char *name) {
    if (name)
        cJSON_AddStringToObject(object, "name", name);
    else
        cJSON_AddNullToObject(object, "name");
}

static cJSON *json_nodes(const ossa_document *doc) {
    cJSON *nodes = cJSON_CreateArray();
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const ossa_node *n = &doc->nodes[i];
        cJSON *node = cJSON_CreateObject();
        add_name(node, n->name);
        cJSON_AddNumberToObject(node, "parent", n->parent);
        cJSON_AddItemToObject(node, "children",
                              cJSON_CreateIntArray(n->children, (int)n->child_count));
        cJSON_AddNumberToObject(node, "mesh", n->mesh);
        cJSON_AddNumberToObject(node, "skin", n->skin);
        int joint = 0;
        for (uint32_t s = 0; s < doc->skin_count; s++)
            for (uint32_t j = 0; j < doc->skins[s].joint_count; j++)
                joint |= doc->skins[s].joints[j] == (int32_t)i;
        cJSON_AddBoolToObject(node, "joint", joint);
        cJSON_AddItemToArray(nodes, node);
    }
    return nodes;
}

static cJSON *json_skins(const ossa_document *doc) {
    cJSON *skins = cJSON_CreateArray();
    for (uint32_t s = 0; s < doc->skin_count; s++) {
        const ossa_skin *sk = &doc->skins[s];
        cJSON *skin = cJSON_CreateObject();
        add_name(skin, sk->name);
        cJSON_AddItemToObject(skin, "joints",
                              cJSON_CreateIntArray(sk->joints, (int)sk->joint_count));
        cJSON_AddNumberToObject(skin, "inverse_bind_matrices", sk->inverse_bind_matrices);
        cJSON_AddNumberToObject(skin, "skeleton", sk->skeleton);
        cJSON_AddItemToArray(skins, skin);
    }
    return skins;
}

static cJSON *json_meshes(const ossa_document *doc) {
    cJSON *meshes = cJSON_CreateArray();
    for (uint32_t m = 0; m < doc->mesh_count; m++) {
        const ossa_mesh *me = &doc->meshes[m];
        cJSON *mesh = cJSON_CreateObject();
        add_name(mesh, me->name);
        cJSON_AddNumberToObject(mesh, "morph_targets", me->target_count);
        cJSON *prims = cJSON_AddArrayToObject(mesh, "primitives");
        for (uint32_t p = 0; p < me->primitive_count; p++) {
            const ossa_primitive *pr = &me->primitives[p];
            cJSON *prim = cJSON_CreateObject();
            cJSON_AddStringToObject(prim, "mode", mode_name(pr->mode));
            cJSON_AddNumberToObject(prim, "vertices", (double)pr->vertex_count);
            cJSON_AddNumberToObject(prim, "indices",
                                    pr->indices >= 0 ? (double)doc->accessors[pr->indices].count
                                                     : 0.0);
            cJSON_AddNumberToObject(prim, "influence_sets", pr->influence_sets);
            cJSON *attributes = cJSON_AddArrayToObject(prim, "attributes");
            for (uint32_t a = 0; a < pr->attribute_count; a++)
                cJSON_AddItemToArray(attributes, cJSON_CreateString(pr->attributes[a].name));
            cJSON_AddItemToArray(prims, prim);
        }
        cJSON_AddItemToArray(meshes, mesh);
    }
    return meshes;
}

/* The document's clips built plain and compact (the model's default budget), for their runtime
 * bytes; 0 (and both NULL) when it has no animation or cannot be built into a model. */
static int clip_models(const ossa_document *doc, ossa_model **plain, ossa_model **compact) {
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skip_cpu_skinning = 1;
    ossa_error error;
    *plain = *compact = NULL;
    if (!doc->animation_count || ossa_model_create(doc, &desc, plain, &error) != OSSA_OK) return 0;
    desc.compact_clips = 1;
    if (ossa_model_create(doc, &desc, compact, &error) == OSSA_OK) return 1;
    ossa_model_free(*plain);
    *plain = NULL;
    return 0;
}

/* Runtime bytes of each clip, plain and compact; nothing without clip_models. */
static void print_clip_bytes(const ossa_document *doc) {
    ossa_model *plain, *compact;
    if (!clip_models(doc, &plain, &compact)) return;
    printf("clip runtime bytes (plain, compact within the default budget):\n");
    for (uint32_t a = 0; a < ossa_model_clip_count(plain); a++) {
        const ossa_clip *p = ossa_model_clip(plain, a), *c = ossa_model_clip(compact, a);
        printf("  %u", a);
        print_name(ossa_clip_name(p));
        printf(": plain %zu B, compact %zu B (error %.3g, budget %.3g)\n",
               ossa_clip_runtime_bytes(p), ossa_clip_runtime_bytes(c),
               (double)ossa_clip_compact_error(c), (double)ossa_clip_compact_budget(c));
    }
    ossa_model_free(compact);
    ossa_model_free(plain);
}

static cJSON *json_animations(const ossa_document *doc) {
    cJSON *animations = cJSON_CreateArray();
    ossa_model *plain, *compact;
    int bytes = clip_models(doc, &plain, &compact);
    for (uint32_t a = 0; a < doc->animation_count; a++) {
        const ossa_animation *an = &doc->animations[a];
        cJSON *anim = cJSON_CreateObject();
        add_name(anim, an->name);
        float start = 0, end = 0;
        for (uint32_t s = 0; s < an->sampler_count; s++) {
            int32_t input = an->samplers[s].input;
            float first = 0, last = 0;
            ossa_accessor_read_float(doc, input, 0, 1, &first);
            ossa_accessor_read_float(doc, input, doc->accessors[input].count - 1, 1, &last);
            if (s == 0 || first < start) start = first;
            if (s == 0 || last > end) end = last;
        }
        cJSON_AddNumberToObject(anim, "start", start);
        cJSON_AddNumberToObject(anim, "end", end);
        cJSON *channels = cJSON_AddArrayToObject(anim, "channels");
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const ossa_animation_channel *ch = &an->channels[c];
            cJSON *channel = cJSON_CreateObject();
            cJSON_AddNumberToObject(channel, "node", ch->node);
            cJSON_AddStringToObject(channel, "path",
                                    ch->pointer && ch->node < 0 ? "pointer" : path_names[ch->path]);
            cJSON_AddStringToObject(channel, "interpolation",
                                    interp_names[an->samplers[ch->sampler].interpolation]);
            if (ch->pointer) { /* KHR_animation_pointer */
                cJSON_AddStringToObject(channel, "pointer", ch->pointer);
                cJSON_AddStringToObject(channel, "pointer_kind", pointer_kind(ch));
            }
            cJSON_AddItemToArray(channels, channel);
        }
        if (bytes && a < ossa_model_clip_count(plain)) { /* as print_clip_bytes */
            const ossa_clip *p = ossa_model_clip(plain, a), *c = ossa_model_clip(compact, a);
            cJSON_AddNumberToObject(anim, "plain_bytes", (double)ossa_clip_runtime_bytes(p));
            cJSON_AddNumberToObject(anim, "compact_bytes", (double)ossa_clip_runtime_bytes(c));
            cJSON_AddNumberToObject(anim, "compact_error", ossa_clip_compact_error(c));
            cJSON_AddNumberToObject(anim, "compact_budget", ossa_clip_compact_budget(c));
        }
        cJSON_AddItemToArray(animations, anim);
    }
    ossa_model_free(compact);
    ossa_model_free(plain);
    return animations;
}

static int print_json(const ossa_document *doc) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", doc->file);
    cJSON_AddItemToObject(root, "nodes", json_nodes(doc));
    cJSON_AddItemToObject(root, "skins", json_skins(doc));
    cJSON_AddItemToObject(root, "meshes", json_meshes(doc));
    cJSON_AddItemToObject(root, "animations", json_animations(doc));
    cJSON *warnings = cJSON_AddArrayToObject(root, "warnings");
    for (uint32_t w = 0; w < doc->warning_count; w++) {
        cJSON *warning = cJSON_CreateObject();
        cJSON_AddStringToObject(warning, "path", doc->warnings[w].path);
        cJSON_AddStringToObject(warning, "message", doc->warnings[w].message);
        cJSON_AddItemToArray(warnings, warning);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "error: out of memory\n");
        return 0;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return 1;
}

int cmd_info(int argc, char **argv) {
    const char *model = NULL;
    int json = 0;
    ossa_load_options options = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return EXIT_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(argv[i], "--allow-unsafe-paths")) {
            options.allow_unsafe_paths = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "ossa info: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        }
        if (model) {
            fprintf(stderr, "ossa info: only one MODEL is allowed\n\n");
            usage(stderr);
            return EXIT_USAGE;
        }
        model = argv[i];
    }
    if (!model) {
        usage(stderr);
        return EXIT_USAGE;
    }
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(model, &options, &doc, &error) != OSSA_OK) {
        cli_report_error(model, &error);
        return EXIT_MODEL_ERROR;
    }
    cli_report_warnings(model, doc);
    if (json) {
        int ok = print_json(doc);
        ossa_document_free(doc);
        return ok ? EXIT_OK : EXIT_MODEL_ERROR;
    }
    printf("%s: %u nodes, %u scenes (default %d), %u skins, %u meshes, %u animations, %u "
           "warnings\n",
           doc->file, doc->node_count, doc->scene_count, doc->scene, doc->skin_count,
           doc->mesh_count, doc->animation_count, doc->warning_count);
    for (uint32_t e = 0; e < doc->extensions_used_count; e++)
        printf("%s%s", e ? ", " : "extensions used: ", name_or_empty(doc->extensions_used[e]));
    if (doc->extensions_used_count) printf("\n");
    int ok = print_tree(doc);
    print_skins(doc);
    print_meshes(doc);
    print_animations(doc);
    print_clip_bytes(doc);
    ossa_document_free(doc);
    return ok ? EXIT_OK : EXIT_MODEL_ERROR;
}
