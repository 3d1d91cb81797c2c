/* One set of skinning rules (ossa/skin.h) on the CPU and the GPU: transform feedback of the GPU
 * shaders against the CPU kernels, for LBS and DQS, on a model written to break every rule
 * (weights not summing to one, all-zero vertices, 8 influences, repeated joints, normalized
 * byte weights, a morph target) with uniformly and non-uniformly scaled joints; rendered
 * silhouettes of GPU- and CPU-skinned frames; the runtime model's upload against its
 * characters; DQS on the shared models; the influence packer.
 *
 * Tolerance: positions within 1e-5 of the model's size, normals within 1e-5. Both sides
 * compute in float (2^-24 = 6e-8 relative rounding); a vertex takes ~50 rounded operations
 * (up to 8 influences blended, the matrix applied), the GPU's DQS adds its float quaternion
 * extraction and pow() for the cube root where the CPU uses double precision, so agreement is
 * expected near 1e-6 and 1e-5 leaves a margin of ~10. A rule applied differently moves
 * vertices by 1e-2 of the size or more (weights summing to 0.3 .. 2.6, a scale of 1.5 where
 * cbrt|det| is 1.13, a vertex collapsing to the origin), 1000 times the tolerance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "golden_palette.h"
#include "gpu/influence_upload.h"
#include "image.h"
#include "ossa/document.h"
#include "ossa/gl.h"
#include "ossa/model.h"
#include "ossa/skin.h"
#include "silhouette.h"
#include "test_gpu_rules_model.h"
#include "test_support.h"

enum { POSES = 3, MAX_JOINTS = 256, MAX_WEIGHTS = 64, IMAGE = 200 };

static const double RELATIVE_TOLERANCE = 1e-5, NORMAL_TOLERANCE = 1e-5;

static ossa_gpu_context *context;
static ossa_gpu_frame_data *frame;
static int has_ssbo;

/* ---------------------------------------------------------------------------------------- */

/* Joint j of a pose: translation * rotation(axis, angle) * scale(rules_joint_scale). Pose 0
 * turns joint 2 by 200 degrees about x and joint 3 by 30 degrees about y: their quaternions
 * fall in opposite hemispheres, so DQS must flip one (the antipodality fix). */
static void pose_joint(int pose, int j, float *m) {
    float axis[3] = {sinf(1.3f * (float)(j + 3 * pose)), cosf(0.7f * (float)(j + pose)), 0.4f};
    float angle = 1.9f * (float)(j + 1) * (float)(pose + 1);
    if (pose == 0 && j == 2) axis[0] = 1, axis[1] = axis[2] = 0, angle = 3.4906585f;
    if (pose == 0 && j == 3) axis[1] = 1, axis[0] = axis[2] = 0, angle = 0.5235988f;
    float len = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    float x = axis[0] / len, y = axis[1] / len, z = axis[2] / len;
    float c = cosf(angle), s = sinf(angle), t = 1 - c;
    float r[9] = {t * x * x + c,     t * x * y - s * z, t * x * z + s * y,
                  t * x * y + s * z, t * y * y + c,     t * y * z - s * x,
                  t * x * z - s * y, t * y * z + s * x, t * z * z + c};
    float scale[3];
    rules_joint_scale(j, scale);
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++)
            m[4 * row + col] = r[3 * row + col] * scale[col];
        m[4 * row + 3] = 0.3f * sinf((float)(5 * j + 7 * pose + row));
    }
}

static void pose_palette(int pose, float *palette) {
    for (int j = 0; j < RULES_JOINTS; j++)
        pose_joint(pose, j, palette + 12 * j);
}

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

/* CPU skinning of a document primitive (prepared mesh), outputs in original vertex order. */
static void cpu_skin(const ossa_document *document, uint32_t mesh, uint32_t primitive,
                     const float *palette, uint32_t joints, float morph_weight, ossa_skin_mode mode,
                     float *positions, float *normals) {
    ossa_skin_mesh *prepared = NULL;
    ossa_error error;
    CHECKF(ossa_skin_mesh_from_document(document, mesh, primitive, 0, NULL, &prepared, &error) ==
               OSSA_OK,
           "prepared mesh: %s", error.message);
    if (!prepared) return;
    static float dual_quats[MAX_JOINTS * 12];
    ossa_skin_dual_quats(palette, joints, dual_quats);
    ossa_skin_frame f = {0};
    f.palette = palette;
    f.joint_count = joints;
    f.dual_quats = dual_quats;
    f.morph_weights = &morph_weight;
    f.morph_weight_count = 1;
    f.mode = mode;
    f.order = OSSA_SKIN_ORDER_ORIGINAL;
    ossa_skin_output out = {0};
    out.positions = positions;
    out.normals = normals;
    size_t n = ossa_skin_mesh_vertex_count(prepared);
    CHECKF(ossa_skin_mesh_run(prepared, &f, &out, n, 0, ossa_skin_mesh_slot_count(prepared),
                              &error) == OSSA_OK,
           "CPU skinning: %s", error.message);
    ossa_skin_mesh_free(prepared);
}

/* Diagonal of the bounding box of n points. */
static double extent(const float *p, size_t n) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t v = 0; v < n; v++)
        for (int c = 0; c < 3; c++) {
            if (p[3 * v + c] < lo[c]) lo[c] = p[3 * v + c];
            if (p[3 * v + c] > hi[c]) hi[c] = p[3 * v + c];
        }
    double d = 0;
    for (int c = 0; c < 3; c++)
        d += ((double)hi[c] - lo[c]) * ((double)hi[c] - lo[c]);
    return sqrt(d);
}

typedef struct deviation {
    double position; /* largest distance, relative to the CPU result's size */
    double normal;   /* largest distance between unit normals (NULL normals: 0) */
} deviation;

static double distance3(const float *a, const float *b) {
    double d = 0;
    for (int c = 0; c < 3; c++)
        d += ((double)a[c] - b[c]) * ((double)a[c] - b[c]);
    return sqrt(d);
}

static deviation compare(const float *cpu_p, const float *cpu_n, const float *gpu_p,
                         const float *gpu_n, size_t n) {
    deviation e = {0, 0};
    double size = extent(cpu_p, n);
    for (size_t v = 0; v < n; v++) {
        double d = distance3(cpu_p + 3 * v, gpu_p + 3 * v) / size;
        if (!(d <= e.position)) e.position = d; /* NaN counts as infinitely far */
        if (!cpu_n) continue;
        d = distance3(cpu_n + 3 * v, gpu_n + 3 * v);
        if (!(d <= e.normal)) e.normal = d;
    }
    return e;
}

static const char *mode_name(ossa_skin_mode mode) {
    return mode == OSSA_SKIN_DQS ? "dqs" : "lbs";
}

/* ---------------------------------------------------------------------------------------- */

/* The model breaks what it is meant to: sums of weights far from one, all-zero vertices, 8
 * influences, non-uniform scales where cbrt|det| differs from the x column's length. */
static void check_model_coverage(const ossa_document *document) {
    const ossa_primitive *p = &document->meshes[0].primitives[0];
    CHECK(document->mesh_count == 1 && document->meshes[0].primitive_count == 2);
    CHECK(p->influence_sets == 2 && document->meshes[0].primitives[1].influence_sets == 1);
    uint32_t n = (uint32_t)p->vertex_count;
    float *w0 = calloc((size_t)n * 4, sizeof(float)), *w1 = calloc((size_t)n * 4, sizeof(float));
    CHECK(ossa_accessor_read_float(document, p->weights[0], 0, n, w0) == OSSA_OK);
    CHECK(ossa_accessor_read_float(document, p->weights[1], 0, n, w1) == OSSA_OK);
    int zero = 0, eight = 0;
    double worst = 0;
    for (uint32_t v = 0; v < n; v++) {
        double sum = 0;
        int positive = 0;
        for (int k = 0; k < 4; k++) {
            sum += w0[4 * v + k] + w1[4 * v + k];
            positive += (w0[4 * v + k] > 0) + (w1[4 * v + k] > 0);
        }
        zero += positive == 0;
        eight += positive == 8;
        if (positive && fabs(sum - 1) > worst) worst = fabs(sum - 1);
    }
    printf("primitive 0: %d all-zero vertices, %d with 8 influences, |sum - 1| up to %.2f\n", zero,
           eight, worst);
    CHECK(zero >= RULES_SEGMENTS && eight >= RULES_SEGMENTS && worst > 0.5);
    free(w0);
    free(w1);
    float m[12];
    pose_joint(1, 2, m);
    double column = sqrt(m[0] * m[0] + m[4] * m[4] + m[8] * m[8]);
    double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
                 m[2] * (m[4] * m[9] - m[5] * m[8]);
    CHECKF(fabs(column - cbrt(fabs(det))) > 0.1, "joint 2: x column %.3f, cbrt|det| %.3f", column,
           cbrt(fabs(det)));
    /* pose 0 needs the antipodality fix: two joints' quaternions in opposite hemispheres */
    float palette[12 * RULES_JOINTS], dq[12 * RULES_JOINTS];
    pose_palette(0, palette);
    ossa_skin_dual_quats(palette, RULES_JOINTS, dq);
    float dot = dq[24] * dq[36] + dq[25] * dq[37] + dq[26] * dq[38] + dq[27] * dq[39];
    CHECKF(dot < -0.1f, "joints 2 and 3 of pose 0: quaternion dot %g", dot);
}

/* GPU feedback of two instances (poses a and b, morph weights 0.5 and -0.25) against the CPU,
 * for every primitive, both methods and both palette paths. */
static void check_feedback(const ossa_document *document, ossa_gpu_mesh *mesh, int a, int b) {
    static float palette[2 * 12 * RULES_JOINTS];
    pose_palette(a, palette);
    pose_palette(b, palette + 12 * RULES_JOINTS);
    const float morph[2] = {0.5f, -0.25f};
    ossa_gpu_frame_data_upload(frame, palette, 2 * RULES_JOINTS, morph, 2);
    for (uint32_t prim = 0; prim < 2; prim++) {
        uint32_t n = ossa_gpu_mesh_vertex_count(mesh, prim);
        float *gpu_p = calloc((size_t)n * 6, sizeof(float)), *gpu_n = calloc(n * 6, sizeof(float));
        float *cpu_p = calloc((size_t)n * 3, sizeof(float)), *cpu_n = calloc(n * 3, sizeof(float));
        for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++)
            for (int path = 0; path < 1 + has_ssbo; path++) {
                ossa_gpu_skinning skinning = {0};
                skinning.path = path ? OSSA_GPU_PALETTE_SSBO : OSSA_GPU_PALETTE_TEXTURE;
                skinning.method =
                    mode == OSSA_SKIN_DQS ? OSSA_GPU_DUAL_QUATERNION : OSSA_GPU_LINEAR_BLEND;
                skinning.joint_count = RULES_JOINTS;
                skinning.instance_count = 2;
                ossa_error error;
                CHECKF(ossa_gpu_skin_feedback(context, mesh, prim, frame, &skinning, gpu_p, gpu_n,
                                              &error) == OSSA_OK,
                       "feedback: %s", error.message);
                for (int instance = 0; instance < 2; instance++) {
                    cpu_skin(document, 0, prim, palette + 12 * RULES_JOINTS * instance,
                             RULES_JOINTS, morph[instance], (ossa_skin_mode)mode, cpu_p, cpu_n);
                    size_t at = (size_t)3 * n * (size_t)instance;
                    deviation e = compare(cpu_p, cpu_n, gpu_p + at, gpu_n + at, n);
                    printf("primitive %u pose %d %s %s: positions %.2e of the size, normals "
                           "%.2e\n",
                           prim, instance ? b : a, mode_name((ossa_skin_mode)mode),
                           path ? "ssbo" : "texture", e.position, e.normal);
                    CHECKF(e.position <= RELATIVE_TOLERANCE && e.normal <= NORMAL_TOLERANCE,
                           "primitive %u pose %d %s: GPU and CPU differ (%g, %g)", prim,
                           instance ? b : a, mode_name((ossa_skin_mode)mode), e.position, e.normal);
                }
            }
        free(gpu_p);
        free(gpu_n);
        free(cpu_p);
        free(cpu_n);
    }
}

/* Joints beyond the skinning's joint count are ignored (rule 2): the GPU with 5 joints against
 * the stream kernel with 5 joints on the same decoded influences (primitive 0, no morphing). */
static void check_joint_beyond_count(const ossa_document *document, ossa_gpu_mesh *mesh) {
    const ossa_primitive *p = &document->meshes[0].primitives[0];
    uint32_t n = (uint32_t)p->vertex_count;
    float *positions = calloc((size_t)n * 3, sizeof(float)), *normals = calloc(n * 3, 4);
    uint32_t *j32 = calloc((size_t)n * 4, sizeof(uint32_t));
    uint16_t *joints[2] = {calloc((size_t)n * 4, 2), calloc((size_t)n * 4, 2)};
    float *weights[2] = {calloc((size_t)n * 4, 4), calloc((size_t)n * 4, 4)};
    ossa_influence_set sets[2];
    memset(sets, 0, sizeof sets);
    CHECK(ossa_accessor_read_float(document, p->position, 0, n, positions) == OSSA_OK);
    CHECK(ossa_accessor_read_float(document, p->normal, 0, n, normals) == OSSA_OK);
    for (int s = 0; s < 2; s++) {
        CHECK(ossa_accessor_read_uint(document, p->joints[s], 0, n, j32) == OSSA_OK);
        CHECK(ossa_accessor_read_float(document, p->weights[s], 0, n, weights[s]) == OSSA_OK);
        for (size_t i = 0; i < (size_t)n * 4; i++)
            joints[s][i] = (uint16_t)j32[i];
        sets[s].joints = joints[s];
        sets[s].joints_type = OSSA_COMPONENT_UNSIGNED_SHORT;
        sets[s].weights = weights[s];
        sets[s].weights_type = OSSA_COMPONENT_FLOAT;
    }
    ossa_skin_input input = {0};
    input.positions = positions;
    input.normals = normals;
    input.sets = sets;
    input.set_count = 2;
    float palette[12 * RULES_JOINTS];
    pose_palette(2, palette);
    ossa_gpu_frame_data_upload(frame, palette, RULES_JOINTS - 1, NULL, 0);
    float *cpu_p = calloc((size_t)n * 3, 4), *cpu_n = calloc((size_t)n * 3, 4);
    float *gpu_p = calloc((size_t)n * 3, 4), *gpu_n = calloc((size_t)n * 3, 4);
    for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++) {
        ossa_skin_output out = {cpu_p, 0, cpu_n, 0, NULL, 0};
        ossa_error error;
        CHECKF(ossa_skin_streams(&input, palette, RULES_JOINTS - 1, (ossa_skin_mode)mode, &out, 0,
                                 n, &error) == OSSA_OK,
               "stream kernel: %s", error.message);
        ossa_gpu_skinning skinning = {0};
        skinning.method = mode == OSSA_SKIN_DQS ? OSSA_GPU_DUAL_QUATERNION : OSSA_GPU_LINEAR_BLEND;
        skinning.joint_count = RULES_JOINTS - 1;
        skinning.skip_morph = 1;
        CHECKF(ossa_gpu_skin_feedback(context, mesh, 0, frame, &skinning, gpu_p, gpu_n, &error) ==
                   OSSA_OK,
               "feedback: %s", error.message);
        deviation e = compare(cpu_p, cpu_n, gpu_p, gpu_n, n);
        printf("joint 5 beyond a count of 5, %s: positions %.2e, normals %.2e\n",
               mode_name((ossa_skin_mode)mode), e.position, e.normal);
        CHECKF(e.position <= RELATIVE_TOLERANCE && e.normal <= NORMAL_TOLERANCE,
               "%s with 5 joints: GPU and stream kernel differ (%g, %g)",
               mode_name((ossa_skin_mode)mode), e.position, e.normal);
    }
    free(positions), free(normals), free(j32), free(cpu_p), free(cpu_n), free(gpu_p), free(gpu_n);
    for (int s = 0; s < 2; s++)
        free(joints[s]), free(weights[s]);
}

/* Rule 8: an unskinned draw takes the node matrix exactly, also when DQS is asked for (a
 * non-uniform scale would not survive a dual quaternion). */
static void check_unskinned_dqs(const ossa_document *document, ossa_gpu_mesh *mesh) {
    const ossa_primitive *p = &document->meshes[0].primitives[1];
    uint32_t n = (uint32_t)p->vertex_count;
    float *rest = calloc((size_t)n * 3, 4), *expect = calloc((size_t)n * 3, 4),
          *gpu_p = calloc((size_t)n * 3, 4);
    CHECK(ossa_accessor_read_float(document, p->position, 0, n, rest) == OSSA_OK);
    float m[12];
    pose_joint(1, 4, m); /* scale (0.6, 1.4, 1.0) */
    for (uint32_t v = 0; v < n; v++)
        for (int r = 0; r < 3; r++)
            expect[3 * v + r] = m[4 * r] * rest[3 * v] + m[4 * r + 1] * rest[3 * v + 1] +
                                m[4 * r + 2] * rest[3 * v + 2] + m[4 * r + 3];
    ossa_gpu_frame_data_upload(frame, m, 1, NULL, 0);
    ossa_gpu_skinning skinning = {0};
    skinning.method = OSSA_GPU_DUAL_QUATERNION;
    skinning.joint_count = 1;
    skinning.unskinned = 1;
    skinning.skip_morph = 1;
    CHECK(ossa_gpu_skin_feedback(context, mesh, 1, frame, &skinning, gpu_p, NULL, NULL) == OSSA_OK);
    deviation e = compare(expect, NULL, gpu_p, NULL, n);
    printf("unskinned with the DQS method: positions %.2e of the size\n", e.position);
    CHECKF(e.position <= RELATIVE_TOLERANCE, "unskinned DQS draw is off by %g", e.position);
    free(rest), free(expect), free(gpu_p);
}

/* The runtime model's upload (ossa_gpu_model, influences from ossa_model_streams) skins its
 * character like ossa_character_skin: the rest pose of the joint chain (rotations, uniform and
 * non-uniform scales), morph weight 0.5, LBS and DQS. */
static void check_model_path(const ossa_document *document) {
    ossa_model_desc desc = {0};
    desc.dual_quaternions = 1;
    ossa_model *model = NULL;
    ossa_character *character = NULL;
    ossa_gpu_model *gpu = NULL;
    ossa_gpu_instances *instances = NULL;
    ossa_error error;
    CHECKF(ossa_model_create(document, &desc, &model, &error) == OSSA_OK, "%s", error.message);
    if (model) CHECK(ossa_character_create(model, &character, &error) == OSSA_OK);
    if (character)
        CHECKF(ossa_gpu_model_create(context, model, NULL, &gpu, &error) == OSSA_OK, "%s",
               error.message);
    if (gpu) CHECK(ossa_gpu_instances_create(gpu, &instances, &error) == OSSA_OK);
    if (instances)
        CHECKF(ossa_gpu_instances_upload(instances, &character, 1, NULL, &error) == OSSA_OK, "%s",
               error.message);
    uint32_t primitives = model ? ossa_model_primitive_count(model) : 0;
    CHECK(primitives == 2);
    for (uint32_t prim = 0; instances && prim < primitives; prim++) {
        size_t n = ossa_model_primitive_info(model, prim)->vertex_count;
        float *cpu_p = calloc(n * 3, 4), *cpu_n = calloc(n * 3, 4);
        float *gpu_p = calloc(n * 3, 4), *gpu_n = calloc(n * 3, 4);
        for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++) {
            ossa_skin_output out = {cpu_p, 0, cpu_n, 0, NULL, 0};
            CHECKF(ossa_character_skin(character, prim, (ossa_skin_mode)mode, &out, n, &error) ==
                       OSSA_OK,
                   "%s", error.message);
            ossa_gpu_draw_desc draw = {0};
            draw.method = mode == OSSA_SKIN_DQS ? OSSA_GPU_DUAL_QUATERNION : OSSA_GPU_LINEAR_BLEND;
            CHECKF(ossa_gpu_model_skin_feedback(context, gpu, prim, instances, &draw, gpu_p, gpu_n,
                                                n, &error) == OSSA_OK,
                   "%s", error.message);
            deviation e = compare(cpu_p, cpu_n, gpu_p, gpu_n, n);
            printf("model path, primitive %u rest pose %s: positions %.2e of the size, normals "
                   "%.2e\n",
                   prim, mode_name((ossa_skin_mode)mode), e.position, e.normal);
            CHECKF(e.position <= RELATIVE_TOLERANCE && e.normal <= NORMAL_TOLERANCE,
                   "model path, primitive %u %s: GPU and CPU differ (%g, %g)", prim,
                   mode_name((ossa_skin_mode)mode), e.position, e.normal);
        }
        free(cpu_p), free(cpu_n), free(gpu_p), free(gpu_n);
    }
    ossa_gpu_instances_destroy(instances);
    ossa_gpu_model_destroy(gpu);
    ossa_character_free(character);
    ossa_model_free(model);
}

/* ---------------------------------------------------------------------------------------- */

/* Renders the mesh GPU-skinned and CPU-skinned (uploaded vertices, identity palette) from the
 * same camera: the silhouettes must match, and the shading nearly everywhere. */
static void check_silhouettes(const ossa_document *document, ossa_gpu_mesh *mesh,
                              ossa_gpu_mesh *cpu_mesh, int pose, ossa_skin_mode mode) {
    static float palette[12 * (RULES_JOINTS + 1)];
    pose_palette(pose, palette);
    memcpy(palette + 12 * RULES_JOINTS, identity, sizeof identity);
    const float morph = 0.5f;
    ossa_gpu_frame_data_upload(frame, palette, RULES_JOINTS + 1, &morph, 1);
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t prim = 0; prim < 2; prim++) {
        uint32_t n = ossa_gpu_mesh_vertex_count(mesh, prim);
        float *p = calloc((size_t)n * 3, 4), *nrm = calloc((size_t)n * 3, 4);
        cpu_skin(document, 0, prim, palette, RULES_JOINTS, morph, mode, p, nrm);
        ossa_gpu_mesh_update_vertices(cpu_mesh, prim, p, nrm);
        for (uint32_t v = 0; v < n; v++)
            for (int c = 0; c < 3; c++) {
                if (p[3 * v + c] < lo[c]) lo[c] = p[3 * v + c];
                if (p[3 * v + c] > hi[c]) hi[c] = p[3 * v + c];
            }
        free(p);
        free(nrm);
    }
    ossa_gpu_renderer *renderer = NULL;
    ossa_error error;
    CHECKF(ossa_gpu_renderer_create(context, IMAGE, IMAGE, &renderer, &error) == OSSA_OK, "%s",
           error.message);
    if (!renderer) return;
    ossa_gpu_camera camera;
    ossa_gpu_camera_frame_bounds(&camera, lo, hi, 0.6f, 0.35f, 1.0f);
    uint8_t *rgb[2] = {malloc(IMAGE * IMAGE * 3), malloc(IMAGE * IMAGE * 3)};
    char names[2][64];
    for (int cpu = 0; cpu < 2; cpu++) {
        ossa_gpu_skinning skinning = {0};
        skinning.method = mode == OSSA_SKIN_DQS ? OSSA_GPU_DUAL_QUATERNION : OSSA_GPU_LINEAR_BLEND;
        skinning.joint_count = cpu ? 1 : RULES_JOINTS;
        skinning.palette_base = cpu ? RULES_JOINTS : 0;
        skinning.unskinned = cpu;
        skinning.skip_morph = cpu;
        ossa_gpu_renderer_begin(renderer, &camera, IMAGE, IMAGE, 0, 0, 0);
        ossa_gpu_renderer_draw(renderer, cpu ? cpu_mesh : mesh, frame, &skinning);
        ossa_gpu_renderer_read_rgb(renderer, rgb[cpu]);
        snprintf(names[cpu], sizeof names[cpu], "rules_pose%d_%s_%s.png", pose, mode_name(mode),
                 cpu ? "cpu" : "gpu");
        CHECK(image_png_write_rgb(names[cpu], IMAGE, IMAGE, rgb[cpu], NULL) == OSSA_OK);
    }
    double coverage = 0, iou = silhouette_iou(names[0], names[1], &coverage);
    int shaded_apart = 0;
    for (int i = 0; i < IMAGE * IMAGE * 3; i++)
        shaded_apart += abs(rgb[0][i] - rgb[1][i]) > 2;
    printf("pose %d %s: silhouette IoU %.5f, coverage %.3f, %d channel values differ by > 2\n",
           pose, mode_name(mode), iou, coverage, shaded_apart);
    CHECKF(iou >= 0.999, "pose %d %s: IoU %.5f", pose, mode_name(mode), iou);
    CHECKF(coverage > 0.05 && coverage < 0.9, "the model covers %.3f of the frame", coverage);
    CHECKF(shaded_apart <= IMAGE * IMAGE * 3 / 1000, "%d channel values differ", shaded_apart);
    free(rgb[0]);
    free(rgb[1]);
    ossa_gpu_renderer_destroy(renderer);
}

/* ---------------------------------------------------------------------------------------- */

/* The packer: positive weights only, in set order, two pairs per texel, zero pairs after. */
static void check_packing(void) {
    const uint16_t joints[2 * 8] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const float weights[2 * 8] = {0.5f, 0, 0.25f, -1, 0, 0.125f, 0, 0, /* vertex 0 */
                                  0,    0, 0,     0,  0, 0,      0, NAN};
    gpu_influence_streams streams = {joints, weights, 2, 2};
    uint32_t per_vertex = gpu_influence_texels_per_vertex(&streams);
    CHECKF(per_vertex == 2, "%u texels per vertex for 3 influences", per_vertex);
    float texels[2 * 2 * 4];
    memset(texels, 0xff, sizeof texels);
    gpu_influence_pack(&streams, per_vertex, texels);
    const float expect[16] = {1, 0.5f, 3, 0.25f, 6, 0.125f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(memcmp(texels, expect, sizeof expect) == 0);
    streams.vertex_count = 1;
    streams.weights = weights + 8; /* only zero and NaN weights: nothing to upload */
    CHECK(gpu_influence_texels_per_vertex(&streams) == 0);
    streams.set_count = 0;
    CHECK(gpu_influence_texels_per_vertex(&streams) == 0);
}

/* ---------------------------------------------------------------------------------------- */

/* DQS on the shared models: GPU against CPU at every golden sample's palette. */
static int shared_checked;

static void check_shared_entry(const ossa_document *document, ossa_gpu_mesh **meshes,
                               const cJSON *sample, const cJSON *entry, const char *name) {
    int node = cJSON_GetObjectItem(entry, "node")->valueint;
    uint32_t mesh = (uint32_t)cJSON_GetObjectItem(entry, "mesh")->valueint;
    uint32_t prim = (uint32_t)cJSON_GetObjectItem(entry, "primitive")->valueint;
    int skin = document->nodes[node].skin;
    if (skin < 0 || document->meshes[mesh].primitives[prim].influence_sets == 0) return;
    static float palette[MAX_JOINTS * 12], weights[MAX_WEIGHTS], dual_quats[MAX_JOINTS * 12];
    uint32_t joints = golden_palette(sample, skin, node, palette, MAX_JOINTS);
    uint32_t weight_count = golden_weights(sample, node, weights, MAX_WEIGHTS);
    if (!joints) return;
    if (!meshes[mesh] &&
        ossa_gpu_mesh_create(context, document, (int32_t)mesh, &meshes[mesh], NULL) != OSSA_OK)
        return;
    ossa_skin_mesh *prepared = NULL;
    if (ossa_skin_mesh_from_document(document, mesh, prim, skin, NULL, &prepared, NULL) != OSSA_OK)
        return;
    uint32_t n = ossa_gpu_mesh_vertex_count(meshes[mesh], prim);
    float *cpu_p = calloc((size_t)n * 3 + 3, 4), *cpu_n = calloc((size_t)n * 3 + 3, 4);
    float *gpu_p = calloc((size_t)n * 3 + 3, 4), *gpu_n = calloc((size_t)n * 3 + 3, 4);
    ossa_skin_dual_quats(palette, joints, dual_quats);
    ossa_skin_frame f = {0};
    f.palette = palette;
    f.joint_count = joints;
    f.dual_quats = dual_quats;
    f.morph_weights = weight_count ? weights : NULL;
    f.morph_weight_count = weight_count;
    f.mode = OSSA_SKIN_DQS;
    f.order = OSSA_SKIN_ORDER_ORIGINAL;
    int has_normals = ossa_skin_mesh_has_normals(prepared);
    ossa_skin_output out = {cpu_p, 0, has_normals ? cpu_n : NULL, 0, NULL, 0};
    ossa_error error;
    CHECKF(ossa_skin_mesh_run(prepared, &f, &out, n, 0, ossa_skin_mesh_slot_count(prepared),
                              &error) == OSSA_OK,
           "%s: CPU skinning: %s", name, error.message);
    ossa_skin_mesh_free(prepared);

    ossa_gpu_frame_data_upload(frame, palette, joints, weights, weight_count);
    ossa_gpu_skinning skinning = {0};
    skinning.method = OSSA_GPU_DUAL_QUATERNION;
    skinning.joint_count = joints;
    CHECKF(ossa_gpu_skin_feedback(context, meshes[mesh], prim, frame, &skinning, gpu_p, gpu_n,
                                  &error) == OSSA_OK,
           "%s: %s", name, error.message);
    deviation e = compare(cpu_p, has_normals ? cpu_n : NULL, gpu_p, gpu_n, n);
    CHECKF(e.position <= RELATIVE_TOLERANCE && e.normal <= NORMAL_TOLERANCE,
           "%s node %d primitive %u: DQS on the GPU and CPU differ (%g, %g)", name, node, prim,
           e.position, e.normal);
    shared_checked++;
    free(cpu_p), free(cpu_n), free(gpu_p), free(gpu_n);
}

static void check_shared_golden(const char *path, void *user) {
    (void)user;
    if (strstr(path, "CROSSCHECK")) return;
    size_t size = 0;
    char *text = (char *)ossa_test_read_file(path, &size);
    cJSON *golden = text ? cJSON_ParseWithLength(text, size) : NULL;
    free(text);
    if (!golden) return;
    const char *model = cJSON_GetObjectItem(golden, "model")->valuestring;
    ossa_document *document = NULL;
    if (ossa_document_load_file(ossa_test_shared_path(model), NULL, &document, NULL) == OSSA_OK) {
        ossa_gpu_mesh **meshes = calloc(document->mesh_count + 1, sizeof *meshes);
        const cJSON *sample, *entry;
        cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
            cJSON_ArrayForEach(entry, cJSON_GetObjectItem(sample, "primitives")) {
                check_shared_entry(document, meshes, sample, entry, model);
            }
        }
        for (uint32_t i = 0; i < document->mesh_count; i++)
            ossa_gpu_mesh_destroy(meshes[i]);
        free(meshes);
    }
    ossa_document_free(document);
    cJSON_Delete(golden);
}

/* ---------------------------------------------------------------------------------------- */

int main(void) {
    ossa_error error;
    if (ossa_gpu_context_create_headless(&context, &error) != OSSA_OK) {
        fprintf(stderr, "no headless OpenGL context: %s\n", error.message);
        return 1;
    }
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    has_ssbo = info.has_ssbo;
    CHECK(ossa_gpu_frame_data_create(context, &frame, &error) == OSSA_OK);
    check_packing();

    ossa_document *document = rules_model_load();
    CHECK(document != NULL);
    ossa_gpu_mesh *mesh = NULL, *cpu_mesh = NULL;
    if (document) {
        check_model_coverage(document);
        CHECKF(ossa_gpu_mesh_create(context, document, 0, &mesh, &error) == OSSA_OK, "%s",
               error.message);
        CHECK(ossa_gpu_mesh_create(context, document, 0, &cpu_mesh, NULL) == OSSA_OK);
    }
    if (mesh && cpu_mesh) {
        check_feedback(document, mesh, 0, 1);
        check_feedback(document, mesh, 2, 0);
        check_joint_beyond_count(document, mesh);
        check_unskinned_dqs(document, mesh);
        check_model_path(document);
        for (int mode = OSSA_SKIN_LBS; mode <= OSSA_SKIN_DQS; mode++)
            for (int pose = 0; pose < POSES; pose++)
                check_silhouettes(document, mesh, cpu_mesh, pose, (ossa_skin_mode)mode);
    }
    ossa_gpu_mesh_destroy(mesh);
    ossa_gpu_mesh_destroy(cpu_mesh);
    ossa_document_free(document);

    ossa_test_walk(ossa_test_shared_path("golden"), ".json", check_shared_golden, NULL);
    printf("%d skinned primitive samples of the shared models: DQS on the GPU == CPU\n",
           shared_checked);
    CHECK(shared_checked > 50);

    ossa_gpu_frame_data_destroy(frame);
    ossa_gpu_context_destroy(context);
    return ossa_test_finish("gpu_rules");
}
