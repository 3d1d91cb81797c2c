/* GPU models and instanced characters (libossa-gl's model API): N characters at N times, placed
 * by N matrices, skinned by one transform-feedback draw per primitive, equal the same characters
 * skinned on the CPU by ossa_character_skin and moved by their placements (LBS through both
 * palette paths, DQS on skinned primitives, vertices skinned on the CPU through the placement
 * joint, instance ranges). The document is freed before the upload. Misuse is refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/gl.h"
#include "test_support.h"

enum { INSTANCES = 16 };

static ossa_gpu_context *context;

typedef struct scene {
    ossa_model *model;
    ossa_gpu_model *gpu;
    ossa_gpu_instances *instances;
    ossa_character *characters[INSTANCES];
    float placements[INSTANCES * 12];
} scene;

/* Placement i: a quarter turn i times about y, then a translation. */
static void make_placements(float *m) {
    for (int i = 0; i < INSTANCES; i++, m += 12) {
        float angle = (float)(i % 4) * 1.5707963f, c = cosf(angle), s = sinf(angle);
        const float rows[12] = {c, 0, s, 2.0f * (float)i, 0, 1, 0, 0.5f, -s, 0, c, -(float)i};
        memcpy(m, rows, sizeof rows);
    }
}

static void transform(const float *m, const float *in, float *out, int translate) {
    for (int r = 0; r < 3; r++)
        out[r] = m[4 * r] * in[0] + m[4 * r + 1] * in[1] + m[4 * r + 2] * in[2] +
                 (translate ? m[4 * r + 3] : 0.0f);
}

/* Loads a model (NULL: the demo), frees the document, uploads it and plays clip 0 (or the rest
 * pose) on INSTANCES characters spread over the clip. */
static int open_scene(scene *s, const char *relative) {
    memset(s, 0, sizeof *s);
    ossa_document *document = NULL;
    ossa_error error;
    ossa_result r =
        relative ? ossa_document_load_file(ossa_test_shared_path(relative), NULL, &document, &error)
                 : ossa_demo_load(NULL, &document, &error);
    CHECKF(r == OSSA_OK, "%s: %s", relative ? relative : "demo", error.message);
    if (r != OSSA_OK) return 0;
    ossa_model_desc desc = {0};
    desc.dual_quaternions = 1;
    r = ossa_model_create(document, &desc, &s->model, &error);
    ossa_document_free(document); /* the GPU model is built from the model alone */
    CHECKF(r == OSSA_OK, "%s: %s", relative, error.message);
    if (r != OSSA_OK) return 0;
    r = ossa_gpu_model_create(context, s->model, NULL, &s->gpu, &error);
    CHECKF(r == OSSA_OK, "%s: %s", relative, error.message);
    if (r != OSSA_OK) return 0;
    CHECK(ossa_gpu_model_source(s->gpu) == s->model);
    /* one palette per skin and per unskinned drawing node, one weight set per morphed node */
    uint32_t joints = 1, weights = 0;
    for (uint32_t p = 0; p < ossa_model_primitive_count(s->model); p++) {
        const ossa_model_primitive *a = ossa_model_primitive_info(s->model, p);
        int seen_palette = 0, seen_weights = 0;
        for (uint32_t q = 0; q < p; q++) {
            const ossa_model_primitive *b = ossa_model_primitive_info(s->model, q);
            seen_palette |= a->skin >= 0 ? b->skin == a->skin : b->skin < 0 && b->node == a->node;
            seen_weights |= b->target_count && b->weight_offset == a->weight_offset;
        }
        joints += seen_palette ? 0 : a->skin >= 0 ? a->joint_count : 1;
        weights += seen_weights || !a->target_count ? 0 : a->target_count;
    }
    CHECK(ossa_gpu_model_joints_per_instance(s->gpu) == joints);
    CHECK(ossa_gpu_model_weights_per_instance(s->gpu) == weights);
    CHECK(ossa_gpu_instances_create(s->gpu, &s->instances, &error) == OSSA_OK);
    const ossa_clip *clip = ossa_model_clip(s->model, 0);
    for (int i = 0; i < INSTANCES; i++) {
        CHECK(ossa_character_create(s->model, &s->characters[i], &error) == OSSA_OK);
        double t =
            clip ? ossa_clip_start(clip) + ossa_clip_duration(clip) * i / (INSTANCES - 1) : 0;
        if (s->characters[i])
            CHECK(ossa_character_update(s->characters[i], clip, t, OSSA_WRAP_CLAMP, &error) ==
                  OSSA_OK);
    }
    make_placements(s->placements);
    r = ossa_gpu_instances_upload(s->instances, s->characters, INSTANCES, s->placements, &error);
    CHECKF(r == OSSA_OK, "%s: %s", relative, error.message);
    CHECK(ossa_gpu_instances_count(s->instances) == (r == OSSA_OK ? INSTANCES : 0));
    return r == OSSA_OK;
}

static void close_scene(scene *s) {
    for (int i = 0; i < INSTANCES; i++)
        ossa_character_free(s->characters[i]);
    ossa_gpu_instances_destroy(s->instances);
    ossa_gpu_model_destroy(s->gpu);
    ossa_model_free(s->model);
}

typedef struct difference {
    double position, normal, extent;
} difference;

/* GPU output of `count` instances from `first` against the CPU skinning of the same characters,
 * moved by their placements. */
static difference compare(const scene *s, uint32_t p, ossa_skin_mode mode, const float *gpu_p,
                          const float *gpu_n, uint32_t first, uint32_t count) {
    const ossa_model_primitive *info = ossa_model_primitive_info(s->model, p);
    size_t n = info->vertex_count;
    float *cpu_p = malloc(sizeof(float) * 3 * (n + 1)),
          *cpu_n = malloc(sizeof(float) * 3 * (n + 1));
    difference d = {0, 0, 0};
    for (uint32_t k = 0; k < count && cpu_p && cpu_n; k++) {
        uint32_t i = first + k;
        ossa_skin_output out = {0};
        out.positions = cpu_p;
        out.normals = info->has_normals ? cpu_n : NULL;
        ossa_error error;
        CHECKF(ossa_character_skin(s->characters[i], p, mode, &out, n, &error) == OSSA_OK, "%s",
               error.message);
        for (size_t v = 0; v < n; v++) {
            float expected[3], normal[3];
            transform(s->placements + 12 * i, cpu_p + 3 * v, expected, 1);
            transform(s->placements + 12 * i, cpu_n + 3 * v, normal, 0);
            for (int c = 0; c < 3; c++) {
                double e = fabs(gpu_p[3 * (k * n + v) + c] - expected[c]);
                if (!(e <= d.position)) d.position = e;
                if (fabs(expected[c]) > d.extent) d.extent = fabs(expected[c]);
                if (!out.normals) continue;
                e = fabs(gpu_n[3 * (k * n + v) + c] - normal[c]);
                if (!(e <= d.normal)) d.normal = e;
            }
        }
    }
    free(cpu_p);
    free(cpu_n);
    return d;
}

static void check_difference(const char *name, uint32_t p, const char *variant, difference d) {
    /* float32 rounding of two evaluation orders: ~1e-6 of the scene's size */
    double tolerance = 2e-5 * (d.extent > 1 ? d.extent : 1);
    printf("%s prim %u %s: max |gpu - cpu| position %.3g (extent %.3g), normal %.3g\n", name, p,
           variant, d.position, d.extent, d.normal);
    CHECKF(d.position <= tolerance, "%s prim %u %s: positions differ by %g > %g", name, p, variant,
           d.position, tolerance);
    CHECKF(d.normal <= 1e-4, "%s prim %u %s: normals differ by %g", name, p, variant, d.normal);
}

static void check_model(const char *relative) {
    const char *name = relative ? relative : "demo";
    scene s;
    if (!open_scene(&s, relative)) {
        close_scene(&s);
        return;
    }
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    size_t capacity = (size_t)ossa_model_max_vertex_count(s.model) * INSTANCES;
    float *gpu_p = malloc(sizeof(float) * 3 * (capacity + 1));
    float *gpu_n = malloc(sizeof(float) * 3 * (capacity + 1));
    ossa_error error;
    for (uint32_t p = 0; gpu_p && gpu_n && p < ossa_model_primitive_count(s.model); p++) {
        const ossa_model_primitive *prim = ossa_model_primitive_info(s.model, p);
        static const struct {
            ossa_gpu_palette_path path;
            ossa_gpu_skinning_method method;
            const char *name;
        } variants[] = {{OSSA_GPU_PALETTE_TEXTURE, OSSA_GPU_LINEAR_BLEND, "texture/lbs"},
                        {OSSA_GPU_PALETTE_SSBO, OSSA_GPU_LINEAR_BLEND, "ssbo/lbs"},
                        {OSSA_GPU_PALETTE_TEXTURE, OSSA_GPU_DUAL_QUATERNION, "texture/dqs"}};
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
            int dual = variants[v].method == OSSA_GPU_DUAL_QUATERNION;
            if (variants[v].path == OSSA_GPU_PALETTE_SSBO && !info.has_ssbo) continue;
            if (dual && (prim->skin < 0 || prim->target_count)) continue;
            ossa_gpu_draw_desc desc = {0};
            desc.path = variants[v].path;
            desc.method = variants[v].method;
            CHECKF(ossa_gpu_model_skin_feedback(context, s.gpu, p, s.instances, &desc, gpu_p, gpu_n,
                                                capacity, &error) == OSSA_OK,
                   "%s: %s", name, error.message);
            check_difference(
                name, p, variants[v].name,
                compare(&s, p, dual ? OSSA_SKIN_DQS : OSSA_SKIN_LBS, gpu_p, gpu_n, 0, INSTANCES));
        }
        /* a range of instances reads the same data as the whole upload */
        ossa_gpu_draw_desc range = {0};
        range.first_instance = 5;
        range.instance_count = 3;
        CHECK(ossa_gpu_model_skin_feedback(context, s.gpu, p, s.instances, &range, gpu_p, gpu_n,
                                           capacity, &error) == OSSA_OK);
        check_difference(name, p, "instances 5..7",
                         compare(&s, p, OSSA_SKIN_LBS, gpu_p, gpu_n, 5, 3));
    }
    /* vertices skinned on the CPU, drawn through the placement joint of instance 9 */
    for (uint32_t p = 0; gpu_p && gpu_n && p < ossa_model_primitive_count(s.model); p++) {
        const ossa_model_primitive *prim = ossa_model_primitive_info(s.model, p);
        ossa_skin_output out = {0};
        out.positions = gpu_p;
        out.normals = prim->has_normals ? gpu_n : NULL;
        CHECK(ossa_character_skin(s.characters[9], p, OSSA_SKIN_LBS, &out, capacity, &error) ==
              OSSA_OK);
        CHECK(ossa_gpu_model_set_vertices(s.gpu, p, gpu_p, out.normals, prim->vertex_count,
                                          &error) == OSSA_OK);
        ossa_gpu_draw_desc desc = {0};
        desc.first_instance = 9;
        desc.instance_count = 1;
        desc.vertices_skinned = 1;
        CHECK(ossa_gpu_model_skin_feedback(context, s.gpu, p, s.instances, &desc, gpu_p, gpu_n,
                                           capacity, &error) == OSSA_OK);
        check_difference(name, p, "cpu-skinned, placed",
                         compare(&s, p, OSSA_SKIN_LBS, gpu_p, gpu_n, 9, 1));
    }
    free(gpu_p);
    free(gpu_n);
    close_scene(&s);
}

/* Misuse: refused with OSSA_ERROR_ARGUMENT or OSSA_ERROR_LIMIT, nothing uploaded or read. */
static void check_misuse(void) {
    scene a, b;
    int ok = open_scene(&a, "models/Fox/Fox.glb") &&
             open_scene(&b, "models/CesiumMan/glTF-Binary/CesiumMan.glb");
    CHECK(ok);
    ossa_error error;
    if (ok) {
        /* characters of another model */
        CHECK(ossa_gpu_instances_upload(a.instances, b.characters, INSTANCES, NULL, &error) ==
              OSSA_ERROR_ARGUMENT);
        printf("another model's characters: %s\n", error.message);
        CHECK(ossa_gpu_instances_count(a.instances) == INSTANCES); /* the previous upload stays */
        ossa_character *with_null[2] = {a.characters[0], NULL};
        CHECK(ossa_gpu_instances_upload(a.instances, with_null, 2, NULL, &error) ==
              OSSA_ERROR_ARGUMENT);
        /* 2^32 - 1 instances of 24 + 1 joints: 3.2e11 texels, computed in 64 bits, refused
         * before the (one-entry) array is read */
        CHECK(ossa_gpu_instances_upload(a.instances, a.characters, UINT32_MAX, NULL, &error) ==
              OSSA_ERROR_LIMIT);
        printf("too many instances: %s\n", error.message);
        CHECK(ossa_gpu_instances_count(a.instances) == INSTANCES);

        size_t capacity = (size_t)ossa_model_max_vertex_count(a.model) * INSTANCES;
        float *out = malloc(sizeof(float) * 3 * capacity);
        ossa_gpu_draw_desc past = {0};
        past.first_instance = INSTANCES - 2;
        past.instance_count = 3;
        CHECK(ossa_gpu_model_skin_feedback(context, a.gpu, 0, a.instances, &past, out, NULL,
                                           capacity, &error) == OSSA_ERROR_ARGUMENT);
        CHECK(ossa_gpu_model_skin_feedback(context, a.gpu, 0, a.instances, NULL, out, NULL,
                                           capacity - 1, &error) == OSSA_ERROR_ARGUMENT);
        printf("short output: %s\n", error.message);
        CHECK(ossa_gpu_model_skin_feedback(context, a.gpu, ossa_model_primitive_count(a.model),
                                           a.instances, NULL, out, NULL, capacity,
                                           &error) == OSSA_ERROR_ARGUMENT);
        /* instances of another GPU model */
        CHECK(ossa_gpu_model_skin_feedback(context, a.gpu, 0, b.instances, NULL, out, NULL,
                                           capacity, &error) == OSSA_ERROR_ARGUMENT);
        ossa_gpu_renderer *renderer = NULL;
        CHECK(ossa_gpu_renderer_create(context, 64, 64, &renderer, &error) == OSSA_OK);
        if (renderer) {
            CHECK(ossa_gpu_renderer_draw_model(renderer, a.gpu, b.instances, NULL, &error) ==
                  OSSA_ERROR_ARGUMENT);
            CHECK(ossa_gpu_renderer_draw_model(renderer, a.gpu, a.instances, &past, &error) ==
                  OSSA_ERROR_ARGUMENT);
            CHECK(ossa_gpu_renderer_draw_model(renderer, a.gpu, a.instances, NULL, &error) ==
                  OSSA_OK);
        }
        ossa_gpu_renderer_destroy(renderer);
        CHECK(ossa_gpu_model_set_vertices(a.gpu, 0, out, NULL,
                                          ossa_model_primitive_info(a.model, 0)->vertex_count + 1,
                                          &error) == OSSA_ERROR_ARGUMENT);
        CHECK(ossa_gpu_model_set_vertices(a.gpu, 0, NULL, NULL,
                                          ossa_model_primitive_info(a.model, 0)->vertex_count,
                                          &error) == OSSA_ERROR_ARGUMENT);
        free(out);
    }
    close_scene(&a);
    close_scene(&b);
}

int main(void) {
    ossa_error error;
    if (ossa_gpu_context_create_headless(&context, &error) != OSSA_OK) {
        fprintf(stderr, "no headless OpenGL context: %s\n", error.message);
        return 1;
    }
    check_model(NULL); /* the demo: two skins, several primitives */
    check_model("models/Fox/Fox.glb");
    check_model("models/CesiumMan/glTF-Binary/CesiumMan.glb");
    check_model("models/MorphStressTest/MorphStressTest.gltf"); /* unskinned, 8 morph targets */
    check_model("models/OracleSynth/Synth.gltf"); /* >4 influences, normalized weights, morph */
    check_misuse();
    ossa_gpu_context_destroy(context);
    return ossa_test_finish("gpu_model");
}
