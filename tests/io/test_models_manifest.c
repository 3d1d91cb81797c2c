/* Every shared model loads, and its counts match the facts in shared/models/MANIFEST.md (read
 * from the manifest's tables at run time): nodes, scenes, root nodes, skins (joints, IBM,
 * skeleton), meshes and primitives, vertices of skinned and morphed primitives, morph targets,
 * animations (names, channels, time ranges), nodes using a matrix, sparse accessors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/document.h"
#include "test_support.h"

static ossa_document *doc;
static char model[512];
static int models_checked;

static void load_model(const char *folder, const char *file) {
    ossa_document_free(doc);
    doc = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", ossa_test_shared_dir(), folder + strlen("shared/"),
             file);
    snprintf(model, sizeof model, "%s", file);
    ossa_error error;
    ossa_result r = ossa_document_load_file(path, NULL, &doc, &error);
    char text[1200];
    ossa_error_format(&error, text, sizeof text);
    CHECKF(r == OSSA_OK, "%s does not load: %s", path, text);
    if (r == OSSA_OK) models_checked++;
}

/* Splits "a; b; c" in place; returns the number of parts. */
static int split(char *text, const char *sep, char **parts, int max) {
    int n = 0;
    size_t sep_len = strlen(sep);
    char *p = text;
    while (n < max) {
        parts[n++] = p;
        char *next = strstr(p, sep);
        if (!next) break;
        *next = '\0';
        p = next + sep_len;
    }
    return n;
}

static void check_nodes(char *value) {
    unsigned nodes, scenes;
    CHECK(sscanf(value, "%u / %u", &nodes, &scenes) == 2);
    CHECKF(doc->node_count == nodes, "%s: %u nodes, manifest %u", model, doc->node_count, nodes);
    CHECKF(doc->scene_count == scenes, "%s: %u scenes, manifest %u", model, doc->scene_count,
           scenes);
    char *list = strchr(value, '[');
    uint32_t expected = 0;
    for (char *p = list + 1; *p && *p != ']';) {
        long r = strtol(p, &p, 10);
        CHECKF(r >= 0 && (uint32_t)r < doc->node_count && doc->nodes[r].parent == -1,
               "%s: node %ld should be a root", model, r);
        expected++;
        while (*p == ',' || *p == ' ')
            p++;
    }
    uint32_t roots = 0;
    for (uint32_t i = 0; i < doc->node_count; i++)
        roots += doc->nodes[i].parent == -1;
    CHECKF(roots == expected, "%s: %u roots, manifest %u", model, roots, expected);
}

static void check_skins(char *value) {
    if (!strcmp(value, "0")) {
        CHECKF(doc->skin_count == 0, "%s: %u skins, manifest none", model, doc->skin_count);
        return;
    }
    char *parts[64];
    int n = split(value, "; skin ", parts, 64);
    CHECKF(doc->skin_count == (uint32_t)n, "%s: %u skins, manifest %d", model, doc->skin_count, n);
    for (int k = 0; k < n && (uint32_t)k < doc->skin_count; k++) {
        const ossa_skin *s = &doc->skins[k];
        char *colon = strstr(parts[k], ": ");
        unsigned joints = 0;
        char ibm[8] = "", skeleton[16] = "None";
        CHECK(colon && sscanf(colon + 2, "%u joints, IBM %7[a-z], skeleton=%15[0-9A-Za-z]", &joints,
                              ibm, skeleton) == 3);
        CHECKF(s->joint_count == joints, "%s: skin %d has %u joints, manifest %u", model, k,
               s->joint_count, joints);
        CHECK((s->inverse_bind_matrices >= 0) == !strcmp(ibm, "yes"));
        int expected = !strcmp(skeleton, "None") ? -1 : atoi(skeleton);
        CHECKF(s->skeleton == expected, "%s: skin %d skeleton %d, manifest %d", model, k,
               s->skeleton, expected);
    }
}

static void check_meshes(char *value) {
    unsigned meshes, prims;
    CHECK(sscanf(value, "%u / %u", &meshes, &prims) == 2);
    uint32_t total = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        total += doc->meshes[m].primitive_count;
    CHECKF(doc->mesh_count == meshes && total == prims, "%s: %u meshes / %u primitives", model,
           doc->mesh_count, total);
}

static void check_skinned_primitives(char *value) {
    char *parts[64];
    int n = split(value, "; ", parts, 64);
    for (int k = 0; k < n; k++) {
        unsigned node, mesh, prim, vertices;
        if (sscanf(parts[k], "node %u mesh %u prim %u: %u vertices", &node, &mesh, &prim,
                   &vertices) != 4)
            continue;
        CHECK(node < doc->node_count && mesh < doc->mesh_count);
        if (node >= doc->node_count || mesh >= doc->mesh_count) continue;
        CHECKF(doc->nodes[node].mesh == (int32_t)mesh && doc->nodes[node].skin >= 0,
               "%s: node %u should have skinned mesh %u", model, node, mesh);
        CHECK(prim < doc->meshes[mesh].primitive_count);
        if (prim >= doc->meshes[mesh].primitive_count) continue;
        const ossa_primitive *p = &doc->meshes[mesh].primitives[prim];
        CHECKF(p->vertex_count == vertices, "%s: mesh %u prim %u has %llu vertices, manifest %u",
               model, mesh, prim, (unsigned long long)p->vertex_count, vertices);
        CHECK(p->influence_sets >= 1);
    }
}

static void check_morphs(char *value) {
    if (!strcmp(value, "none")) {
        for (uint32_t m = 0; m < doc->mesh_count; m++)
            CHECK(doc->meshes[m].target_count == 0);
        return;
    }
    char *parts[64];
    int n = split(value, "; mesh ", parts, 64);
    for (int k = 0; k < n; k++) {
        char *p = parts[k];
        if (!strncmp(p, "mesh ", 5)) p += 5;
        unsigned mesh = (unsigned)atoi(p);
        CHECK(mesh < doc->mesh_count);
        if (mesh >= doc->mesh_count) continue;
        const ossa_mesh *m = &doc->meshes[mesh];
        char *targets = strstr(p, "targets/primitive [");
        char *weights = strstr(p, "mesh.weights ");
        char *vertices = strstr(p, "vertices [");
        CHECK(targets && weights && vertices);
        if (!targets || !weights || !vertices) continue;
        char *q = targets + strlen("targets/primitive [");
        for (uint32_t i = 0; i < m->primitive_count; i++) {
            long t = strtol(q, &q, 10);
            CHECKF(m->primitives[i].target_count == (uint32_t)t,
                   "%s: mesh %u prim %u has %u targets, manifest %ld", model, mesh, i,
                   m->primitives[i].target_count, t);
            while (*q == ',' || *q == ' ')
                q++;
        }
        CHECKF(m->weight_count == (uint32_t)atoi(weights + strlen("mesh.weights ")),
               "%s: mesh %u has %u weights", model, mesh, m->weight_count);
        q = vertices + strlen("vertices [");
        for (uint32_t i = 0; i < m->primitive_count; i++) {
            long v = strtol(q, &q, 10);
            CHECKF(m->primitives[i].vertex_count == (uint64_t)v,
                   "%s: mesh %u prim %u has %llu vertices, manifest %ld", model, mesh, i,
                   (unsigned long long)m->primitives[i].vertex_count, v);
            while (*q == ',' || *q == ' ')
                q++;
        }
    }
}

/* The time range of an animation from the decoded key times. */
static void time_range(const ossa_animation *a, double *lo, double *hi) {
    *lo = INFINITY;
    *hi = -INFINITY;
    for (uint32_t s = 0; s < a->sampler_count; s++) {
        const ossa_accessor *in = &doc->accessors[a->samplers[s].input];
        float first, last;
        CHECK(ossa_accessor_read_float(doc, a->samplers[s].input, 0, 1, &first) == OSSA_OK);
        CHECK(ossa_accessor_read_float(doc, a->samplers[s].input, in->count - 1, 1, &last) ==
              OSSA_OK);
        if (first < *lo) *lo = first;
        if (last > *hi) *hi = last;
    }
}

static void check_animations(char *value) {
    if (!strcmp(value, "none")) {
        CHECKF(doc->animation_count == 0, "%s: %u animations, manifest none", model,
               doc->animation_count);
        return;
    }
    char *parts[64];
    int n = split(value, " s; ", parts, 64);
    CHECKF(doc->animation_count == (uint32_t)n, "%s: %u animations, manifest %d", model,
           doc->animation_count, n);
    for (int k = 0; k < n && (uint32_t)k < doc->animation_count; k++) {
        const ossa_animation *a = &doc->animations[k];
        char *p = parts[k];
        char *colon = strstr(p, ": ");
        if (p[0] == '"') {
            *(colon - 1) = '\0';
            CHECKF(a->name && !strcmp(a->name, p + 1), "%s: animation %d named %s, manifest %s",
                   model, k, a->name ? a->name : "(none)", p + 1);
        } else {
            CHECKF(a->name == NULL, "%s: animation %d should be unnamed", model, k);
        }
        unsigned channels = (unsigned)atoi(colon + 2);
        CHECKF(a->channel_count == channels, "%s: animation %d has %u channels, manifest %u", model,
               k, a->channel_count, channels);
        char *range = strrchr(colon, ',');
        double t0 = -1, t1 = -1;
        CHECK(range && sscanf(range + 1, " %lf-%lf", &t0, &t1) == 2);
        double lo, hi;
        time_range(a, &lo, &hi);
        CHECK_NEAR(lo, t0, 1e-3);
        CHECK_NEAR(hi, t1, 1e-3);
    }
}

static void check_matrix_nodes(char *value) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < doc->node_count; i++)
        count += doc->nodes[i].has_matrix != 0;
    CHECKF(count == (uint32_t)atoi(value), "%s: %u nodes use a matrix, manifest %s", model, count,
           value);
}

static void check_sparse(char *value) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < doc->accessor_count; i++)
        count += doc->accessors[i].sparse.count > 0;
    uint32_t expected = 0;
    if (value[0] == '[') {
        expected = 1;
        for (char *p = value; *p && *p != ']'; p++)
            expected += *p == ',';
    } else if (strcmp(value, "none") != 0) {
        expected = (uint32_t)atoi(value);
    }
    CHECKF(count == expected, "%s: %u sparse accessors, manifest %s", model, count, value);
}

static void check_row(char *key, char *value) {
    if (!strcmp(key, "nodes / scenes / root nodes"))
        check_nodes(value);
    else if (!strcmp(key, "skins"))
        check_skins(value);
    else if (!strcmp(key, "meshes / primitives"))
        check_meshes(value);
    else if (!strcmp(key, "skinned primitives"))
        check_skinned_primitives(value);
    else if (!strcmp(key, "morph targets"))
        check_morphs(value);
    else if (!strcmp(key, "animations"))
        check_animations(value);
    else if (!strcmp(key, "nodes using matrix"))
        check_matrix_nodes(value);
    else if (!strcmp(key, "sparse accessors"))
        check_sparse(value);
}

int main(void) {
    size_t size;
    char *text = (char *)ossa_test_read_file(ossa_test_shared_path("models/MANIFEST.md"), &size);
    CHECK(text != NULL);
    if (!text) return ossa_test_finish("io_models_manifest");
    char folder[512] = "", file[512] = "";
    int rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "| folder | ", 11)) {
            sscanf(line + 11, "%511[^ |]", folder);
            continue;
        }
        if (line[0] != '|' || !folder[0]) continue;
        /* "| FILE: key | value |" */
        char *cell = line + 2;
        char *sep = strstr(cell, " | ");
        char *colon = strstr(cell, ": ");
        if (!sep || !colon || colon > sep) continue;
        *colon = '\0';
        *sep = '\0';
        char *key = colon + 2;
        char *value = sep + 3;
        size_t n = strlen(value);
        while (n && (value[n - 1] == '|' || value[n - 1] == ' '))
            value[--n] = '\0';
        if (strcmp(cell, file) != 0) {
            snprintf(file, sizeof file, "%s", cell);
            load_model(folder, file);
        }
        if (!doc) continue;
        check_row(key, value);
        rows++;
    }
    ossa_document_free(doc);
    free(text);
    printf("io_models_manifest: %d models loaded, %d manifest rows checked\n", models_checked,
           rows);
    CHECK(models_checked >= 19);
    return ossa_test_finish("io_models_manifest");
}
