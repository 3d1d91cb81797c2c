/* GPU skinning (transform feedback, buffer-texture and SSBO palettes) against every golden
 * sample of every shared model, and against CPU skinning (skin.h) of the same palettes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "golden_palette.h"
#include "ossa/document.h"
#include "ossa/gl.h"
#include "ossa/skin.h"
#include "test_support.h"

enum { MAX_JOINTS = 256, MAX_WEIGHTS = 64 };

static ossa_gpu_context *context;
static ossa_gpu_frame_data *frame;
static int primitives_checked;

typedef struct errors {
    double position, normal;
} errors;

/* Largest distance over the listed vertices between computed values and the golden ones. */
static errors compare(const cJSON *entry, const float *positions, const float *normals,
                      uint32_t vertex_count) {
    errors e = {0, 0};
    const cJSON *vertices = cJSON_GetObjectItem(entry, "vertices");
    const cJSON *gp = cJSON_GetObjectItem(entry, "positions");
    const cJSON *gn = cJSON_GetObjectItem(entry, "normals");
    int n_normals = cJSON_GetArraySize(gn);
    for (int i = 0; i < cJSON_GetArraySize(vertices); i++) {
        int v = cJSON_GetArrayItem(vertices, i)->valueint;
        if (v < 0 || (uint32_t)v >= vertex_count) {
            e.position = INFINITY;
            return e;
        }
        for (int k = 0; k < 3; k++) {
            double d = fabs(positions[3 * v + k] -
                            cJSON_GetArrayItem(cJSON_GetArrayItem(gp, i), k)->valuedouble);
            if (!(d <= e.position)) e.position = d;
            if (i >= n_normals || !normals) continue;
            d = fabs(normals[3 * v + k] -
                     cJSON_GetArrayItem(cJSON_GetArrayItem(gn, i), k)->valuedouble);
            if (!(d <= e.normal)) e.normal = d;
        }
    }
    return e;
}

/* CPU skinning of the same palette through skin.h, in original vertex order. */
static int cpu_skin(const ossa_document *document, int mesh, int primitive, int skin,
                    const float *palette, uint32_t joints, const float *weights,
                    uint32_t weight_count, float *positions, float *normals) {
    ossa_skin_mesh *prepared = NULL;
    if (ossa_skin_mesh_from_document(document, (uint32_t)mesh, (uint32_t)primitive, skin, NULL,
                                     &prepared, NULL) != OSSA_OK)
        return 0;
    ossa_skin_frame f = {0};
    f.palette = skin >= 0 ? palette : NULL;
    f.joint_count = joints;
    f.transform = skin >= 0 ? NULL : palette;
    f.morph_weights = weight_count ? weights : NULL;
    f.morph_weight_count = weight_count;
    f.order = OSSA_SKIN_ORDER_ORIGINAL;
    ossa_skin_output out = {0};
    out.positions = positions;
    out.normals = ossa_skin_mesh_has_normals(prepared) ? normals : NULL;
    ossa_result r = ossa_skin_mesh_run(prepared, &f, &out, ossa_skin_mesh_vertex_count(prepared), 0,
                                       ossa_skin_mesh_slot_count(prepared), NULL);
    ossa_skin_mesh_free(prepared);
    return r == OSSA_OK;
}

static void check_entry(const char *name, double t, const ossa_document *document,
                        ossa_gpu_mesh **meshes, const cJSON *sample, const cJSON *entry,
                        double tolerance, double unitless) {
    int node = cJSON_GetObjectItem(entry, "node")->valueint;
    int mesh = cJSON_GetObjectItem(entry, "mesh")->valueint;
    int primitive = cJSON_GetObjectItem(entry, "primitive")->valueint;
    int skin = document->nodes[node].skin;
    static float palette[MAX_JOINTS * 12], weights[MAX_WEIGHTS];
    uint32_t joints = golden_palette(sample, skin, node, palette, MAX_JOINTS);
    uint32_t weight_count = golden_weights(sample, node, weights, MAX_WEIGHTS);
    CHECKF(joints > 0, "%s t=%g: no palette for node %d", name, t, node);
    if (!joints) return;
    if (!meshes[mesh]) {
        ossa_error error;
        CHECKF(ossa_gpu_mesh_create(context, document, mesh, &meshes[mesh], &error) == OSSA_OK,
               "%s: mesh %d: %s", name, mesh, error.message);
        if (!meshes[mesh]) return;
    }
    uint32_t vertex_count = ossa_gpu_mesh_vertex_count(meshes[mesh], (uint32_t)primitive);
    float *positions = calloc((size_t)vertex_count * 3 + 3, sizeof(float));
    float *normals = calloc((size_t)vertex_count * 3 + 3, sizeof(float));
    ossa_gpu_frame_data_upload(frame, palette, joints, weights, weight_count);
    ossa_gpu_skinning skinning = {0};
    skinning.joint_count = joints;
    skinning.unskinned = skin < 0;

    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    for (int path = 0; path < 2; path++) {
        skinning.path = path ? OSSA_GPU_PALETTE_SSBO : OSSA_GPU_PALETTE_TEXTURE;
        if (path && !info.has_ssbo) continue;
        ossa_error error;
        ossa_result r = ossa_gpu_skin_feedback(context, meshes[mesh], (uint32_t)primitive, frame,
                                               &skinning, positions, normals, &error);
        CHECKF(r == OSSA_OK, "%s: %s", name, error.message);
        errors e = compare(entry, positions, normals, vertex_count);
        CHECKF(e.position <= tolerance, "%s t=%g node %d prim %d (%s): position off by %g > %g",
               name, t, node, primitive, path ? "ssbo" : "texture", e.position, tolerance);
        CHECKF(e.normal <= unitless, "%s t=%g node %d prim %d (%s): normal off by %g > %g", name, t,
               node, primitive, path ? "ssbo" : "texture", e.normal, unitless);
        primitives_checked++;
    }

    /* the CPU layer with the same palette agrees with the golden values too */
    float *cpu_positions = calloc((size_t)vertex_count * 3 + 3, sizeof(float));
    float *cpu_normals = calloc((size_t)vertex_count * 3 + 3, sizeof(float));
    if (cpu_skin(document, mesh, primitive, skin, palette, joints, weights, weight_count,
                 cpu_positions, cpu_normals)) {
        double worst = 0;
        for (size_t i = 0; i < (size_t)vertex_count * 3; i++) {
            double d = fabs(cpu_positions[i] - positions[i]);
            if (!(d <= worst)) worst = d;
        }
        CHECKF(worst <= tolerance, "%s t=%g node %d prim %d: GPU vs CPU skinning off by %g", name,
               t, node, primitive, worst);
    }
    free(cpu_positions);
    free(cpu_normals);
    free(positions);
    free(normals);
}

/* Checks every sample of a golden file against one encoding of its model. */
static void check_model(const char *name, const cJSON *golden, const char *model) {
    double tolerance = cJSON_GetObjectItem(golden, "tolerance")->valuedouble;
    double unitless = cJSON_GetObjectItem(golden, "tolerance_unitless")->valuedouble;
    ossa_document *document = NULL;
    ossa_error error;
    CHECKF(ossa_document_load_file(ossa_test_shared_path(model), NULL, &document, &error) ==
               OSSA_OK,
           "%s: %s", model, error.message);
    if (!document) return;
    ossa_gpu_mesh **meshes = calloc(document->mesh_count + 1, sizeof *meshes);
    const cJSON *sample;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        double t = cJSON_GetObjectItem(sample, "time")->valuedouble;
        const cJSON *entry;
        cJSON_ArrayForEach(entry, cJSON_GetObjectItem(sample, "primitives")) {
            check_entry(name, t, document, meshes, sample, entry, tolerance, unitless);
        }
    }
    for (uint32_t i = 0; i < document->mesh_count; i++)
        ossa_gpu_mesh_destroy(meshes[i]);
    free(meshes);
    ossa_document_free(document);
}

static void check_golden(const char *path, void *user) {
    (void)user;
    if (strstr(path, "CROSSCHECK")) return;
    size_t size = 0;
    char *text = (char *)ossa_test_read_file(path, &size);
    cJSON *golden = text ? cJSON_ParseWithLength(text, size) : NULL;
    free(text);
    CHECKF(golden != NULL, "%s does not parse", path);
    if (!golden) return;
    const char *name = path + strlen(ossa_test_shared_dir());
    check_model(name, golden, cJSON_GetObjectItem(golden, "model")->valuestring);
    /* other encodings of the same data (e.g. .gltf next to .glb) must give the same values */
    const cJSON *variant;
    cJSON_ArrayForEach(variant, cJSON_GetObjectItem(golden, "model_variants")) {
        check_model(name, golden, variant->valuestring);
    }
    cJSON_Delete(golden);
}

int main(void) {
    ossa_error error;
    if (ossa_gpu_context_create_headless(&context, &error) != OSSA_OK) {
        fprintf(stderr, "no headless OpenGL context: %s\n", error.message);
        return 1;
    }
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    printf("OpenGL %d.%d, %s, SSBO path %s\n", info.major, info.minor, info.renderer,
           info.has_ssbo ? "tested" : "not available");
    CHECK(ossa_gpu_frame_data_create(context, &frame, &error) == OSSA_OK);
    ossa_test_walk(ossa_test_shared_path("golden"), ".json", check_golden, NULL);
    printf("%d primitive samples skinned on the GPU and compared\n", primitives_checked);
    CHECK(primitives_checked > 100);
    ossa_gpu_frame_data_destroy(frame);
    ossa_gpu_context_destroy(context);
    return ossa_test_finish("gpu_golden");
}
