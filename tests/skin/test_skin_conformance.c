/*
 * Conformance: the "primitives" of every golden file anim<K>.json (world-space positions and
 * normals of morphed and skinned vertices) within the file's tolerances, through the library
 * (rig, clip, pose, palette, prepared skin mesh) and through `ossa sample --json`, which must
 * also list exactly the golden's primitives.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "test_support.h"

static int golden_files, primitives_compared;

typedef struct tolerances {
    double position, unitless;
} tolerances;

/* Compares one golden primitive with world-space positions/normals of all its vertices. */
static void compare_vertices(const cJSON *golden_prim, const float *positions, const float *normals,
                             int has_normals, size_t vertex_count, tolerances tol,
                             const char *label) {
    const cJSON *vertices = cJSON_GetObjectItem(golden_prim, "vertices");
    const cJSON *gp = cJSON_GetObjectItem(golden_prim, "positions");
    const cJSON *gn = cJSON_GetObjectItem(golden_prim, "normals");
    int count = cJSON_GetArraySize(vertices), bad = 0;
    double worst_p = 0, worst_n = 0;
    CHECKF(cJSON_GetArraySize(gn) == (has_normals ? count : 0), "%s: normals listed", label);
    for (int i = 0; i < count; i++) {
        int v = cJSON_GetArrayItem(vertices, i)->valueint;
        if (v < 0 || (size_t)v >= vertex_count) {
            bad++;
            continue;
        }
        for (int c = 0; c < 3; c++) {
            double want = cJSON_GetArrayItem(cJSON_GetArrayItem(gp, i), c)->valuedouble;
            double d = fabs(positions[3 * v + c] - want);
            if (!(d <= tol.position)) bad++;
            if (d > worst_p || d != d) worst_p = d;
            if (has_normals && cJSON_GetArraySize(gn) == count) {
                want = cJSON_GetArrayItem(cJSON_GetArrayItem(gn, i), c)->valuedouble;
                d = fabs(normals[3 * v + c] - want);
                if (!(d <= tol.unitless)) bad++;
                if (d > worst_n || d != d) worst_n = d;
            }
        }
    }
    CHECKF(bad == 0, "%s: %d values off (worst position %g of %g, normal %g of %g)", label, bad,
           worst_p, tol.position, worst_n, tol.unitless);
    primitives_compared++;
}

/* The library path: everything from the document, nothing from the CLI. */
static void check_library(const char *model, const cJSON *golden, int anim, tolerances tol,
                          const char *name) {
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    ossa_error error;
    int ok = ossa_document_load_file(ossa_test_shared_path(model), NULL, &doc, &error) == OSSA_OK &&
             ossa_rig_build(doc, NULL, &rig, &error) == OSSA_OK &&
             ossa_clip_set_build(doc, rig, NULL, &clips, &error) == OSSA_OK;
    CHECKF(ok, "%s: %s loads: %s", name, model, ok ? "" : error.message);
    if (ok) CHECK(anim >= 0 && (uint32_t)anim < ossa_clip_set_count(clips));
    if (!ok || anim < 0 || (uint32_t)anim >= ossa_clip_set_count(clips)) {
        ossa_clip_set_free(clips);
        ossa_rig_free(rig);
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
    const cJSON *sample;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        double t = cJSON_GetObjectItem(sample, "time")->valuedouble;
        ossa_clip_sample(rig, ossa_clip_set_clip(clips, anim), (float)t, NULL, &pose);
        ossa_fk_palettes_world(rig, &pose, world, palettes);
        const cJSON *prim;
        cJSON_ArrayForEach(prim, cJSON_GetObjectItem(sample, "primitives")) {
            int node = cJSON_GetObjectItem(prim, "node")->valueint;
            int p = cJSON_GetObjectItem(prim, "primitive")->valueint;
            const ossa_node *gn = &doc->nodes[node];
            CHECK(gn->mesh == cJSON_GetObjectItem(prim, "mesh")->valueint);
            ossa_skin_mesh *mesh = NULL;
            if (ossa_skin_mesh_from_document(doc, (uint32_t)gn->mesh, (uint32_t)p, gn->skin, NULL,
                                             &mesh, &error) != OSSA_OK) {
                CHECKF(0, "%s node %d primitive %d: %s", name, node, p, error.message);
                continue;
            }
            int32_t r = rig->rig_from_gltf[node];
            ossa_skin_frame frame = {0};
            if (gn->skin >= 0) {
                frame.palette = palettes + offset[gn->skin];
                frame.joint_count = rig->skins[gn->skin].joint_count;
            }
            frame.transform = world + 12 * (size_t)r;
            frame.morph_weights = weights + rig->weight_offset[r];
            frame.morph_weight_count = rig->weight_count[r];
            frame.order = OSSA_SKIN_ORDER_ORIGINAL;
            size_t n = ossa_skin_mesh_vertex_count(mesh);
            float *op = calloc(3 * n + 3, sizeof(float)), *on = calloc(3 * n + 3, sizeof(float));
            ossa_skin_output out = {op, 0,    ossa_skin_mesh_has_normals(mesh) ? on : NULL,
                                    0,  NULL, 0};
            for (int b = OSSA_SKIN_BACKEND_SCALAR; b < OSSA_SKIN_BACKEND_COUNT; b++) {
                if (!ossa_skin_backend_supported((ossa_skin_backend)b)) continue;
                frame.backend = (ossa_skin_backend)b;
                CHECKF(ossa_skin_mesh_run(mesh, &frame, &out, n, 0, ossa_skin_mesh_slot_count(mesh),
                                          &error) == OSSA_OK,
                       "%s: %s", name, error.message);
                char label[800];
                snprintf(label, sizeof label, "%s [library %s %s] t=%.9g node %d prim %d", name,
                         model, ossa_skin_backend_name((ossa_skin_backend)b), t, node, p);
                compare_vertices(prim, op, on, ossa_skin_mesh_has_normals(mesh), n, tol, label);
            }
            free(op);
            free(on);
            ossa_skin_mesh_free(mesh);
        }
    }
    free(local);
    free(weights);
    free(world);
    free(palettes);
    free(offset);
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    ossa_document_free(doc);
}

static char *read_command_output(const char *command) {
    FILE *p = popen(command, "r");
    if (!p) return NULL;
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) break;
            buf = bigger;
            cap *= 2;
        }
    }
    int status = pclose(p);
    if (buf) buf[len] = '\0';
    if (status != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A CLI primitive's values as flat arrays indexed by vertex (vertices it did not print: NaN). */
static size_t cli_arrays(const cJSON *prim, float **positions, float **normals) {
    const cJSON *vertices = cJSON_GetObjectItem(prim, "vertices");
    size_t n = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, vertices) if ((size_t)v->valueint + 1 > n) n = (size_t)v->valueint + 1;
    *positions = malloc((3 * n + 3) * sizeof(float));
    *normals = malloc((3 * n + 3) * sizeof(float));
    for (size_t i = 0; i < 3 * n; i++)
        (*positions)[i] = (*normals)[i] = NAN;
    const cJSON *ps = cJSON_GetObjectItem(prim, "positions"),
                *ns = cJSON_GetObjectItem(prim, "normals");
    int i = 0;
    cJSON_ArrayForEach(v, vertices) {
        for (int c = 0; c < 3; c++) {
            (*positions)[3 * v->valueint + c] =
                (float)cJSON_GetArrayItem(cJSON_GetArrayItem(ps, i), c)->valuedouble;
            const cJSON *nv = cJSON_GetArrayItem(ns, i);
            if (nv) (*normals)[3 * v->valueint + c] = (float)cJSON_GetArrayItem(nv, c)->valuedouble;
        }
        i++;
    }
    return n;
}

static void check_cli(const char *model, const cJSON *golden, int anim, tolerances tol,
                      const char *name) {
    const char *cli = getenv("OSSA_CLI");
    CHECKF(cli && *cli, "OSSA_CLI is set");
    if (!cli || !*cli) return;
    size_t cap = 8192, len;
    char *command = malloc(cap);
    len = (size_t)snprintf(command, cap, "'%s' sample '%s' --anim %d --json", cli,
                           ossa_test_shared_path(model), anim);
    const cJSON *sample;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        if (cap - len < 64) command = realloc(command, cap *= 2);
        len += (size_t)snprintf(command + len, cap - len, " --time %.17g",
                                cJSON_GetObjectItem(sample, "time")->valuedouble);
    }
    char *text = read_command_output(command);
    free(command);
    CHECKF(text != NULL, "%s: ossa sample runs for %s", name, model);
    cJSON *ours = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECKF(ours != NULL, "%s: ossa sample prints JSON", name);
    if (!ours) return;
    const cJSON *ours_samples = cJSON_GetObjectItem(ours, "samples");
    int i = 0;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        const cJSON *mine = cJSON_GetArrayItem(ours_samples, i++);
        CHECKF(mine != NULL, "%s: CLI sample %d", name, i);
        if (!mine) break;
        const cJSON *gprims = cJSON_GetObjectItem(sample, "primitives");
        const cJSON *mprims = cJSON_GetObjectItem(mine, "primitives");
        CHECKF(cJSON_GetArraySize(mprims) == cJSON_GetArraySize(gprims),
               "%s: CLI lists %d primitives, the golden %d", name, cJSON_GetArraySize(mprims),
               cJSON_GetArraySize(gprims));
        int k = 0;
        const cJSON *gp;
        cJSON_ArrayForEach(gp, gprims) {
            const cJSON *mp = cJSON_GetArrayItem(mprims, k++);
            int same = mp &&
                       cJSON_GetObjectItem(mp, "node")->valueint ==
                           cJSON_GetObjectItem(gp, "node")->valueint &&
                       cJSON_GetObjectItem(mp, "mesh")->valueint ==
                           cJSON_GetObjectItem(gp, "mesh")->valueint &&
                       cJSON_GetObjectItem(mp, "primitive")->valueint ==
                           cJSON_GetObjectItem(gp, "primitive")->valueint;
            CHECKF(same, "%s: CLI primitive %d is the golden's", name, k - 1);
            if (!same) continue;
            float *positions, *normals;
            size_t n = cli_arrays(mp, &positions, &normals);
            char label[800];
            snprintf(label, sizeof label, "%s [cli %s] t=%.9g node %d prim %d", name, model,
                     cJSON_GetObjectItem(sample, "time")->valuedouble,
                     cJSON_GetObjectItem(gp, "node")->valueint,
                     cJSON_GetObjectItem(gp, "primitive")->valueint);
            compare_vertices(gp, positions, normals,
                             cJSON_GetArraySize(cJSON_GetObjectItem(mp, "normals")) > 0, n, tol,
                             label);
            free(positions);
            free(normals);
        }
    }
    cJSON_Delete(ours);
}

static void check_golden(const char *path, void *user) {
    (void)user;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, "anim", 4) != 0) return;
    size_t size;
    char *text = (char *)ossa_test_read_file(path, &size);
    cJSON *golden = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECKF(golden != NULL, "%s parses", path);
    if (!golden) return;
    golden_files++;
    const char *name = path + strlen(ossa_test_shared_dir()) + 1;
    int anim = cJSON_GetObjectItem(golden, "animation")->valueint;
    tolerances tol = {cJSON_GetObjectItem(golden, "tolerance")->valuedouble,
                      cJSON_GetObjectItem(golden, "tolerance_unitless")->valuedouble};
    const char *model = cJSON_GetObjectItem(golden, "model")->valuestring;
    check_library(model, golden, anim, tol, name);
    check_cli(model, golden, anim, tol, name);
    const cJSON *variant;
    cJSON_ArrayForEach(variant, cJSON_GetObjectItem(golden, "model_variants")) {
        check_library(variant->valuestring, golden, anim, tol, name);
        check_cli(variant->valuestring, golden, anim, tol, name);
    }
    cJSON_Delete(golden);
}

int main(void) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/golden", ossa_test_shared_dir());
    ossa_test_walk(dir, ".json", check_golden, NULL);
    CHECKF(golden_files >= 30, "found %d golden files", golden_files);
    CHECKF(primitives_compared > 100, "compared %d primitives", primitives_compared);
    return ossa_test_finish("skin_conformance");
}
