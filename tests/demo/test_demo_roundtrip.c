/* The demo model written as GLB loads back through the document loader with the structure,
 * names, interpolation modes, weights and curves it was designed with. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/document.h"
#include "test_support.h"

#define PI 3.14159265358979323846

static int find_node(const ossa_document *doc, const char *name) {
    for (uint32_t i = 0; i < doc->node_count; i++)
        if (doc->nodes[i].name && !strcmp(doc->nodes[i].name, name)) return (int)i;
    return -1;
}

static int find_skin(const ossa_document *doc, const char *name) {
    for (uint32_t i = 0; i < doc->skin_count; i++)
        if (doc->skins[i].name && !strcmp(doc->skins[i].name, name)) return (int)i;
    return -1;
}

static float *read_floats(const ossa_document *doc, int32_t accessor) {
    const ossa_accessor *a = &doc->accessors[accessor];
    float *out = malloc((size_t)a->count * a->components * sizeof(float));
    if (out && ossa_accessor_read_float(doc, accessor, 0, a->count, out) != OSSA_OK) {
        free(out);
        out = NULL;
    }
    return out;
}

static ossa_document *load(ossa_demo_model model, size_t *glb_size) {
    ossa_demo_desc desc = {0};
    desc.model = model;
    void *bytes = NULL;
    size_t size = 0;
    ossa_error error;
    ossa_result r = ossa_demo_write_glb(&desc, &bytes, &size, &error);
    CHECKF(r == OSSA_OK, "%s", error.message);
    if (r != OSSA_OK) return NULL;
    CHECK(size > 12 && size % 4 == 0);
    CHECK(!memcmp(bytes, "glTF", 4));
    ossa_document *doc = NULL;
    ossa_load_options options = {0};
    options.name = "demo.glb";
    r = ossa_document_load_memory(bytes, size, &options, &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    ossa_demo_free_glb(&desc, bytes);
    if (glb_size) *glb_size = size;
    return doc;
}

/* Every vertex: weights sum to 1, joints within the skin, normals unit length. */
static void check_vertices(const ossa_document *doc, int mesh, uint32_t joint_count, int rigid) {
    for (uint32_t p = 0; p < doc->meshes[mesh].primitive_count; p++) {
        const ossa_primitive *prim = &doc->meshes[mesh].primitives[p];
        CHECK(prim->influence_sets == 1 && prim->normal >= 0 && prim->indices >= 0);
        CHECK(prim->material >= 0);
        if (prim->influence_sets != 1 || prim->normal < 0) continue;
        uint64_t n = prim->vertex_count;
        float *weights = read_floats(doc, prim->weights[0]);
        float *joints = read_floats(doc, prim->joints[0]);
        float *normals = read_floats(doc, prim->normal);
        CHECK(weights && joints && normals);
        if (!weights || !joints || !normals) {
            free(weights), free(joints), free(normals);
            continue;
        }
        int bad_sum = 0, bad_joint = 0, bad_normal = 0, not_rigid = 0;
        for (uint64_t v = 0; v < n; v++) {
            float sum = 0;
            for (int k = 0; k < 4; k++) {
                sum += weights[4 * v + k];
                if (weights[4 * v + k] > 0 && joints[4 * v + k] >= (float)joint_count) bad_joint++;
            }
            if (fabsf(sum - 1.0f) > 2e-7f) bad_sum++;
            if (rigid && weights[4 * v] != 1.0f) not_rigid++;
            const float *nv = normals + 3 * v;
            if (fabsf(sqrtf(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]) - 1.0f) > 1e-6f)
                bad_normal++;
        }
        CHECKF(bad_sum == 0, "%d vertices whose weights do not sum to 1", bad_sum);
        CHECKF(bad_joint == 0, "%d weighted joints outside the skin", bad_joint);
        CHECKF(bad_normal == 0, "%d normals not unit length", bad_normal);
        CHECKF(not_rigid == 0, "%d windmill vertices not bound rigidly", not_rigid);
        free(weights), free(joints), free(normals);
    }
}

/* Inverse bind matrices undo the joints' bind (rest) world transforms. */
static void check_inverse_binds(const ossa_document *doc, int skin) {
    const ossa_skin *s = &doc->skins[skin];
    CHECK(s->inverse_bind_matrices >= 0);
    float *ibm = read_floats(doc, s->inverse_bind_matrices);
    CHECK(ibm != NULL);
    if (!ibm) return;
    for (uint32_t j = 0; j < s->joint_count; j++) {
        float world[3] = {0, 0, 0}; /* the rest pose translates only */
        for (int32_t n = s->joints[j]; n >= 0; n = doc->nodes[n].parent)
            for (int c = 0; c < 3; c++)
                world[c] += doc->nodes[n].translation[c];
        for (int c = 0; c < 3; c++)
            CHECK_NEAR(ibm[16 * j + 12 + c], -world[c], 1e-6);
        CHECK(ibm[16 * j + 0] == 1 && ibm[16 * j + 5] == 1 && ibm[16 * j + 10] == 1);
    }
    free(ibm);
}

/* Every channel of the animation uses this interpolation; keys span [0, duration]. */
static void check_animation(const ossa_document *doc, uint32_t index, const char *name,
                            ossa_interpolation interpolation) {
    const ossa_animation *a = &doc->animations[index];
    CHECKF(a->name && !strcmp(a->name, name), "animation %u is %s, not %s", index,
           a->name ? a->name : "(unnamed)", name);
    CHECK(a->channel_count > 0);
    for (uint32_t c = 0; c < a->channel_count; c++) {
        const ossa_animation_sampler *s = &a->samplers[a->channels[c].sampler];
        CHECK(s->interpolation == interpolation);
        const ossa_accessor *input = &doc->accessors[s->input];
        CHECK(input->has_min_max && input->min[0] == 0.0f && input->max[0] == OSSA_DEMO_DURATION);
        uint64_t per_key = interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1;
        CHECK(doc->accessors[s->output].count == per_key * input->count);
    }
}

/* The rotation angle about z of a quaternion whose x and y are zero. */
static double angle_z(const float q[4]) {
    return 2 * atan2(q[2], q[3]);
}

static double wrap_angle(double a) {
    return a - 2 * PI * floor((a + PI) / (2 * PI));
}

/*
 * The sails' CUBICSPLINE keys follow the designed gust curve between keys too: evaluates the
 * glTF Hermite spline (tangents scaled by the key interval) at the middle of every interval.
 */
static void check_gust_spline(const ossa_document *doc, int hub) {
    const ossa_animation *gust = &doc->animations[1];
    const ossa_animation_sampler *s = NULL;
    for (uint32_t c = 0; c < gust->channel_count; c++)
        if (gust->channels[c].node == hub && gust->channels[c].path == OSSA_PATH_ROTATION)
            s = &gust->samplers[gust->channels[c].sampler];
    CHECK(s != NULL);
    if (!s) return;
    float *t = read_floats(doc, s->input), *v = read_floats(doc, s->output);
    CHECK(t && v);
    uint64_t keys = doc->accessors[s->input].count;
    double w = 2 * PI / OSSA_DEMO_DURATION, worst = 0;
    for (uint64_t k = 0; t && v && k + 1 < keys; k++) {
        double dt = t[k + 1] - t[k], u = 0.5;
        const float *p0 = v + 12 * k + 4, *b0 = v + 12 * k + 8;
        const float *a1 = v + 12 * (k + 1), *p1 = v + 12 * (k + 1) + 4;
        float q[4];
        for (int i = 0; i < 4; i++)
            q[i] = (float)((2 * u * u * u - 3 * u * u + 1) * p0[i] +
                           (u * u * u - 2 * u * u + u) * dt * b0[i] +
                           (-2 * u * u * u + 3 * u * u) * p1[i] + (u * u * u - u * u) * dt * a1[i]);
        double time = t[k] + u * dt;
        double expected = -(w * time + 0.8 * sin(w * time));
        double err = fabs(wrap_angle(angle_z(q) - expected));
        if (err > worst) worst = err;
    }
    CHECKF(worst < 2e-3, "gust spline strays %.3g rad from its curve", worst);
    free(t), free(v);
}

/* The STEP sails click by 30 degrees per key. */
static void check_ticks(const ossa_document *doc, int hub) {
    const ossa_animation *tick = &doc->animations[2];
    for (uint32_t c = 0; c < tick->channel_count; c++) {
        if (tick->channels[c].node != hub) continue;
        const ossa_animation_sampler *s = &tick->samplers[tick->channels[c].sampler];
        float *v = read_floats(doc, s->output);
        CHECK(v && doc->accessors[s->output].count == 13);
        for (uint64_t k = 0; v && k < doc->accessors[s->output].count; k++)
            CHECK_NEAR(wrap_angle(angle_z(v + 4 * k) + (double)k * PI / 6), 0, 1e-6);
        free(v);
    }
}

static void check_windmill(const ossa_document *doc) {
    int tower = find_node(doc, "windmill_tower"), hub = find_node(doc, "windmill_hub");
    int mesh_node = find_node(doc, "windmill"), skin = find_skin(doc, "windmill");
    CHECK(tower >= 0 && hub >= 0 && mesh_node >= 0 && skin >= 0);
    if (tower < 0 || hub < 0 || mesh_node < 0 || skin < 0) return;
    CHECK(doc->nodes[hub].parent == tower);
    CHECK(doc->nodes[mesh_node].skin == skin && doc->nodes[mesh_node].parent == -1);
    CHECK(doc->skins[skin].joint_count == 2);
    const ossa_mesh *mesh = &doc->meshes[doc->nodes[mesh_node].mesh];
    CHECK(mesh->primitive_count == 3); /* body, roof, sails: three materials */
    /* Three hexahedra of 24 vertices each hold the body+nacelle, roof; hub and 4 sails. */
    CHECK(mesh->primitives[0].vertex_count == 2 * 24);
    CHECK(mesh->primitives[1].vertex_count == 24);
    CHECK(mesh->primitives[2].vertex_count == 5 * 24);
    check_vertices(doc, doc->nodes[mesh_node].mesh, 2, 1);
    check_inverse_binds(doc, skin);
    check_gust_spline(doc, hub);
    check_ticks(doc, hub);
}

static void check_tentacle(const ossa_document *doc) {
    int mesh_node = find_node(doc, "tentacle"), skin = find_skin(doc, "tentacle");
    CHECK(mesh_node >= 0 && skin >= 0);
    if (mesh_node < 0 || skin < 0) return;
    const ossa_skin *s = &doc->skins[skin];
    CHECK(s->joint_count == OSSA_DEMO_TENTACLE_JOINTS && OSSA_DEMO_TENTACLE_JOINTS >= 8);
    /* One chain: each joint is the child of the one before. */
    for (uint32_t j = 1; j < s->joint_count; j++)
        CHECK(doc->nodes[s->joints[j]].parent == s->joints[j - 1]);
    CHECK(doc->nodes[s->joints[0]].parent == -1);
    const ossa_mesh *mesh = &doc->meshes[doc->nodes[mesh_node].mesh];
    CHECK(mesh->primitive_count == 1);
    /* 41 rings of 16, the tip, the base disc's centre and ring. */
    CHECK(mesh->primitives[0].vertex_count == 41 * 16 + 1 + 1 + 16);
    check_vertices(doc, doc->nodes[mesh_node].mesh, s->joint_count, 0);
    check_inverse_binds(doc, skin);

    /* Smooth weights: every vertex between the first and last joints' segment centres
     * blends at least two joints (no part of the tube moves rigidly with one joint). */
    float *weights = read_floats(doc, mesh->primitives[0].weights[0]);
    float *positions = read_floats(doc, mesh->primitives[0].position);
    CHECK(weights && positions);
    float segment = doc->nodes[s->joints[1]].translation[1];
    int rigid = 0, inside = 0;
    for (uint64_t v = 0; weights && positions && v < mesh->primitives[0].vertex_count; v++) {
        float y = positions[3 * v + 1];
        if (y < 0.5f * segment || y > ((float)s->joint_count - 0.5f) * segment) continue;
        inside++;
        int used = 0;
        for (int k = 0; k < 4; k++)
            used += weights[4 * v + k] > 0.05f;
        rigid += used < 2;
    }
    CHECKF(inside > 500 && rigid == 0, "%d of %d vertices follow one joint only", rigid, inside);
    free(positions);
    free(weights);
}

static void check_model(ossa_demo_model model, uint32_t nodes, uint32_t materials) {
    ossa_document *doc = load(model, NULL);
    if (!doc) return;
    CHECKF(doc->warning_count == 0, "%u warnings, first: %s", doc->warning_count,
           doc->warning_count ? doc->warnings[0].message : "");
    CHECK(doc->node_count == nodes);
    CHECK(doc->material_count == materials);
    CHECK(doc->scene == 0 && doc->scene_count == 1);
    CHECK(doc->animation_count == OSSA_DEMO_ANIMATIONS);
    if (doc->animation_count == 3) {
        check_animation(doc, 0, "idle", OSSA_INTERP_LINEAR);
        check_animation(doc, 1, "gust", OSSA_INTERP_CUBICSPLINE);
        check_animation(doc, 2, "tick", OSSA_INTERP_STEP);
    }
    if (model != OSSA_DEMO_TENTACLE) check_windmill(doc);
    if (model != OSSA_DEMO_WINDMILL) check_tentacle(doc);
    CHECK(doc->skin_count == (model == OSSA_DEMO_BOTH ? 2u : 1u));
    ossa_document_free(doc);
}

/* An allocator that counts what it hands out. */
typedef struct counting {
    int live, total;
} counting;

static void *count_alloc(void *user, size_t size) {
    counting *c = user;
    c->live++;
    c->total++;
    return malloc(size);
}

static void count_free(void *user, void *ptr) {
    counting *c = user;
    if (ptr) c->live--;
    free(ptr);
}

static void check_api(void) {
    /* Deterministic: the same bytes every time. */
    void *a = NULL, *b = NULL;
    size_t a_size = 0, b_size = 0;
    CHECK(ossa_demo_write_glb(NULL, &a, &a_size, NULL) == OSSA_OK);
    CHECK(ossa_demo_write_glb(NULL, &b, &b_size, NULL) == OSSA_OK);
    CHECK(a && b && a_size == b_size && !memcmp(a, b, a_size));
    ossa_demo_free_glb(NULL, a);
    ossa_demo_free_glb(NULL, b);

    counting c = {0, 0};
    ossa_demo_desc desc = {0};
    desc.allocator.alloc = count_alloc;
    desc.allocator.free = count_free;
    desc.allocator.user = &c;
    CHECK(ossa_demo_write_glb(&desc, &a, &a_size, NULL) == OSSA_OK);
    CHECK(c.live == 1);
    ossa_demo_free_glb(&desc, a);
    CHECK(c.live == 0);

    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(ossa_demo_load(&desc, &doc, &error) == OSSA_OK);
    CHECK(doc && doc->file && !strcmp(doc->file, "ossa-demo.glb"));
    CHECK(doc && doc->animation_count == 3 && doc->node_count == 14);
    ossa_document_free(doc);
    CHECKF(c.live == 0 && c.total > 1, "live %d total %d", c.live, c.total);

    desc.model = (ossa_demo_model)7;
    CHECK(ossa_demo_write_glb(&desc, &a, &a_size, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(a == NULL && error.code == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_demo_load(&desc, &doc, &error) == OSSA_ERROR_ARGUMENT && doc == NULL);
    CHECK(ossa_demo_write_glb(NULL, NULL, &a_size, &error) == OSSA_ERROR_ARGUMENT);

    ossa_demo_model model = OSSA_DEMO_BOTH;
    CHECK(ossa_demo_model_parse("tentacle", &model) && model == OSSA_DEMO_TENTACLE);
    CHECK(ossa_demo_model_parse("windmill", &model) && model == OSSA_DEMO_WINDMILL);
    CHECK(!ossa_demo_model_parse("octopus", &model) && model == OSSA_DEMO_WINDMILL);
    CHECK(!strcmp(ossa_demo_model_name(OSSA_DEMO_BOTH), "both"));
    CHECK(ossa_demo_model_name((ossa_demo_model)7) == NULL);
}

int main(void) {
    check_model(OSSA_DEMO_BOTH, 3 + 1 + OSSA_DEMO_TENTACLE_JOINTS, 4);
    check_model(OSSA_DEMO_WINDMILL, 3, 3);
    check_model(OSSA_DEMO_TENTACLE, 1 + OSSA_DEMO_TENTACLE_JOINTS, 1);
    check_api();
    return ossa_test_finish("demo_roundtrip");
}
