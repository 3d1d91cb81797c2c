/* Instancing: 64 characters at 64 different times in one transform-feedback draw give the same
 * vertices as 64 separate CPU skinnings (skin.h) of the same palettes. Linear blend through
 * both palette paths (against the prepared-mesh kernels), and the dual quaternion variant
 * (against the reference stream kernel ossa_skin_streams, for skinned meshes without morphs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/gl.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "test_support.h"

enum { INSTANCES = 64 };

static ossa_gpu_context *context;
static ossa_gpu_frame_data *frame;

typedef struct model {
    ossa_document *document;
    ossa_rig *rig;
    ossa_clip_set *clips;
    int32_t node; /* rig node of the first mesh node */
    int32_t skin;
    uint32_t joints, weights;
    float *palette, *morph; /* INSTANCES palettes and weight sets */
} model;

static int open_model(model *m, const char *relative) {
    memset(m, 0, sizeof *m);
    ossa_error error;
    CHECKF(ossa_document_load_file(ossa_test_shared_path(relative), NULL, &m->document, &error) ==
               OSSA_OK,
           "%s: %s", relative, error.message);
    if (!m->document) return 0;
    CHECK(ossa_rig_build(m->document, NULL, &m->rig, &error) == OSSA_OK);
    CHECK(m->rig && ossa_clip_set_build(m->document, m->rig, NULL, &m->clips, &error) == OSSA_OK);
    if (!m->clips) return 0;
    m->node = -1;
    for (uint32_t n = 0; n < m->rig->node_count && m->node < 0; n++)
        if (m->rig->mesh[n] >= 0) m->node = (int32_t)n;
    CHECK(m->node >= 0 && ossa_clip_set_count(m->clips) > 0);
    if (m->node < 0 || !ossa_clip_set_count(m->clips)) return 0;
    m->skin = m->rig->skin[m->node];
    m->joints = m->skin >= 0 ? m->rig->skins[m->skin].joint_count : 1;
    m->weights = m->rig->weight_count[m->node];
    return 1;
}

static void close_model(model *m) {
    free(m->palette);
    free(m->morph);
    ossa_clip_set_free(m->clips);
    ossa_rig_free(m->rig);
    ossa_document_free(m->document);
}

/* Palettes (world space) and morph weights of INSTANCES characters spread over the clip. */
static void evaluate(model *m) {
    const ossa_rig *rig = m->rig;
    const ossa_clip *clip = ossa_clip_set_clip(m->clips, 0);
    ossa_trs *local = malloc(sizeof *local * rig->node_count);
    float *weights = malloc(sizeof(float) * (rig->weight_total + 1));
    float *world = malloc(sizeof(float) * 12 * rig->node_count);
    m->palette = malloc(sizeof(float) * 12 * m->joints * INSTANCES);
    m->morph = calloc((size_t)m->weights * INSTANCES + 1, sizeof(float));
    ossa_pose pose = {local, weights};
    for (int i = 0; i < INSTANCES; i++) {
        float t = ossa_clip_start(clip) + ossa_clip_duration(clip) * (float)i / (INSTANCES - 1);
        ossa_clip_sample(rig, clip, t, NULL, &pose);
        ossa_fk_matrices(rig, &pose, world);
        float *palette = m->palette + (size_t)12 * m->joints * i;
        if (m->skin >= 0)
            CHECK(ossa_palette_world(rig, (uint32_t)m->skin, world, palette, NULL) == OSSA_OK);
        else
            memcpy(palette, world + 12 * m->node, 12 * sizeof(float));
        if (m->weights)
            memcpy(m->morph + (size_t)m->weights * i, weights + rig->weight_offset[m->node],
                   sizeof(float) * m->weights);
    }
    free(local);
    free(weights);
    free(world);
}

/* Decoded vertex streams of a primitive for ossa_skin_streams (joints as u16, weights float). */
typedef struct streams {
    float *positions, *normals, *weights[4];
    uint16_t *joints[4];
    ossa_influence_set sets[4];
    ossa_skin_input input;
} streams;

static int read_streams(const ossa_document *document, const ossa_primitive *primitive,
                        streams *s) {
    memset(s, 0, sizeof *s);
    size_t n = primitive->vertex_count;
    if (primitive->influence_sets > 4) return 0;
    s->positions = malloc(sizeof(float) * 3 * n);
    s->normals = malloc(sizeof(float) * 3 * n);
    int ok = s->positions && s->normals &&
             ossa_accessor_read_float(document, primitive->position, 0, n, s->positions) == 0;
    if (ok && primitive->normal >= 0)
        ok = ossa_accessor_read_float(document, primitive->normal, 0, n, s->normals) == 0;
    uint32_t *joints = malloc(sizeof(uint32_t) * 4 * n);
    for (uint32_t k = 0; ok && joints && k < primitive->influence_sets; k++) {
        s->weights[k] = malloc(sizeof(float) * 4 * n);
        s->joints[k] = malloc(sizeof(uint16_t) * 4 * n);
        ok = s->weights[k] && s->joints[k] &&
             ossa_accessor_read_float(document, primitive->weights[k], 0, n, s->weights[k]) == 0 &&
             ossa_accessor_read_uint(document, primitive->joints[k], 0, n, joints) == 0;
        for (size_t i = 0; ok && i < 4 * n; i++)
            s->joints[k][i] = (uint16_t)joints[i];
        ossa_influence_set set = {s->joints[k],  0, OSSA_COMPONENT_UNSIGNED_SHORT,
                                  s->weights[k], 0, OSSA_COMPONENT_FLOAT};
        s->sets[k] = set;
    }
    free(joints);
    s->input.positions = s->positions;
    s->input.normals = primitive->normal >= 0 ? s->normals : NULL;
    s->input.sets = s->sets;
    s->input.set_count = primitive->influence_sets;
    return ok;
}

static void free_streams(streams *s) {
    free(s->positions);
    free(s->normals);
    for (int k = 0; k < 4; k++)
        free(s->weights[k]), free(s->joints[k]);
}

static void check_model(const char *relative) {
    model m;
    if (!open_model(&m, relative)) {
        close_model(&m);
        return;
    }
    evaluate(&m);
    ossa_gpu_mesh *mesh = NULL;
    ossa_error error;
    CHECKF(ossa_gpu_mesh_create(context, m.document, m.rig->mesh[m.node], &mesh, &error) == OSSA_OK,
           "%s: %s", relative, error.message);
    ossa_gpu_frame_data_upload(frame, m.palette, m.joints * INSTANCES, m.morph,
                               m.weights * INSTANCES);
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    for (uint32_t p = 0; mesh && p < ossa_gpu_mesh_primitive_count(mesh); p++) {
        ossa_skin_mesh *cpu = NULL;
        CHECK(ossa_skin_mesh_from_document(m.document, (uint32_t)m.rig->mesh[m.node], p, m.skin,
                                           NULL, &cpu, &error) == OSSA_OK);
        if (!cpu) continue;
        const ossa_primitive *source = &m.document->meshes[m.rig->mesh[m.node]].primitives[p];
        streams reference;
        int have_streams = read_streams(m.document, source, &reference);
        CHECK(have_streams);
        size_t n = ossa_gpu_mesh_vertex_count(mesh, p);
        float *gpu_p = malloc(sizeof(float) * 3 * n * INSTANCES);
        float *gpu_n = malloc(sizeof(float) * 3 * n * INSTANCES);
        float *cpu_p = malloc(sizeof(float) * 3 * n), *cpu_n = malloc(sizeof(float) * 3 * n);
        static const struct {
            ossa_gpu_palette_path path;
            ossa_gpu_skinning_method method;
            int streams; /* compare with the reference stream kernel, not the prepared mesh */
            const char *name;
        } variants[] = {
            {OSSA_GPU_PALETTE_TEXTURE, OSSA_GPU_LINEAR_BLEND, 0, "texture/lbs"},
            {OSSA_GPU_PALETTE_SSBO, OSSA_GPU_LINEAR_BLEND, 0, "ssbo/lbs"},
            {OSSA_GPU_PALETTE_TEXTURE, OSSA_GPU_DUAL_QUATERNION, 1, "texture/dqs vs streams"},
            {OSSA_GPU_PALETTE_SSBO, OSSA_GPU_DUAL_QUATERNION, 0, "ssbo/dqs vs prepared"}};
        float *dual_quats = malloc(sizeof(float) * 12 * m.joints);
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
            int dual = variants[v].method == OSSA_GPU_DUAL_QUATERNION;
            if (variants[v].path == OSSA_GPU_PALETTE_SSBO && !info.has_ssbo) continue;
            if (dual && (m.skin < 0 || m.weights || !have_streams)) continue;
            ossa_gpu_skinning k = {0};
            k.path = variants[v].path;
            k.method = variants[v].method;
            k.joint_count = m.joints;
            k.unskinned = m.skin < 0;
            k.instance_count = INSTANCES;
            CHECK(ossa_gpu_skin_feedback(context, mesh, p, frame, &k, gpu_p, gpu_n, &error) ==
                  OSSA_OK);
            double worst_p = 0, worst_n = 0, extent = 0;
            for (int i = 0; i < INSTANCES; i++) {
                ossa_skin_frame f = {0};
                f.palette = m.skin >= 0 ? m.palette + (size_t)12 * m.joints * i : NULL;
                f.joint_count = m.joints;
                f.transform = m.skin >= 0 ? NULL : m.palette + (size_t)12 * i;
                f.morph_weights = m.weights ? m.morph + (size_t)m.weights * i : NULL;
                f.morph_weight_count = m.weights;
                f.order = OSSA_SKIN_ORDER_ORIGINAL;
                ossa_skin_output out = {0};
                out.positions = cpu_p;
                out.normals = ossa_skin_mesh_has_normals(cpu) ? cpu_n : NULL;
                if (dual && variants[v].streams) {
                    CHECK(ossa_skin_streams(&reference.input, f.palette, m.joints, OSSA_SKIN_DQS,
                                            &out, 0, n, NULL) == OSSA_OK);
                } else {
                    if (dual) {
                        ossa_skin_dual_quats(f.palette, m.joints, dual_quats);
                        f.dual_quats = dual_quats;
                        f.mode = OSSA_SKIN_DQS;
                    }
                    CHECK(ossa_skin_mesh_run(cpu, &f, &out, n, 0, ossa_skin_mesh_slot_count(cpu),
                                             NULL) == OSSA_OK);
                }
                for (size_t j = 0; j < 3 * n; j++) {
                    double d = fabs(gpu_p[3 * n * i + j] - cpu_p[j]);
                    if (!(d <= worst_p)) worst_p = d;
                    if (fabs(cpu_p[j]) > extent) extent = fabs(cpu_p[j]);
                    if (!out.normals) continue;
                    d = fabs(gpu_n[3 * n * i + j] - cpu_n[j]);
                    if (!(d <= worst_n)) worst_n = d;
                }
            }
            /* float32 rounding of two different evaluation orders: ~1e-6 of the model size */
            double tolerance = 2e-5 * (extent > 1 ? extent : 1);
            printf("%s prim %u %s: %d instances x %zu vertices, max |gpu - cpu| position %.3g "
                   "(extent %.3g), normal %.3g\n",
                   relative, p, variants[v].name, INSTANCES, n, worst_p, extent, worst_n);
            CHECKF(worst_p <= tolerance, "%s %s: positions differ by %g > %g", relative,
                   variants[v].name, worst_p, tolerance);
            CHECKF(worst_n <= 1e-4, "%s %s: normals differ by %g", relative, variants[v].name,
                   worst_n);
        }
        free(gpu_p);
        free(gpu_n);
        free(cpu_p);
        free(cpu_n);
        free(dual_quats);
        free_streams(&reference);
        ossa_skin_mesh_free(cpu);
    }
    ossa_gpu_mesh_destroy(mesh);
    close_model(&m);
}

int main(void) {
    ossa_error error;
    if (ossa_gpu_context_create_headless(&context, &error) != OSSA_OK) {
        fprintf(stderr, "no headless OpenGL context: %s\n", error.message);
        return 1;
    }
    CHECK(ossa_gpu_frame_data_create(context, &frame, &error) == OSSA_OK);
    check_model("models/Fox/Fox.glb"); /* skinned, u16 joints, float weights */
    check_model("models/CesiumMan/glTF-Binary/CesiumMan.glb");
    check_model("models/MorphStressTest/MorphStressTest.gltf"); /* unskinned, 8 morph targets */
    check_model("models/OracleSynth/Synth.gltf"); /* >4 influences, normalized weights, morph */
    ossa_gpu_frame_data_destroy(frame);
    ossa_gpu_context_destroy(context);
    return ossa_test_finish("gpu_instancing");
}
