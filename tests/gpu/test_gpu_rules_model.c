/* The gpu_rules model: glTF JSON and a binary buffer built in memory, loaded as a GLB. */
#include "test_gpu_rules_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo/glb_writer.h"
#include "demo/gltf_builder.h"

enum { VERTICES = RULES_RINGS * RULES_SEGMENTS, SLOTS = 8 };

void rules_joint_scale(int joint, float scale[3]) {
    static const float scales[RULES_JOINTS][3] = {{1, 1, 1},          {1.3f, 1.3f, 1.3f},
                                                  {1.5f, 0.8f, 1.2f}, {0.7f, 0.7f, 0.7f},
                                                  {0.6f, 1.4f, 1.0f}, {1, 1, 1}};
    memcpy(scale, scales[joint], sizeof scales[joint]);
}

/* A tube of radius 0.5 around the y axis from y = 0 to 2, shifted by x0. */
static void tube(float x0, float *positions, float *normals, uint16_t *indices) {
    for (int r = 0; r < RULES_RINGS; r++)
        for (int s = 0; s < RULES_SEGMENTS; s++) {
            float a = 6.2831853f * (float)s / RULES_SEGMENTS;
            int v = r * RULES_SEGMENTS + s;
            float n[3] = {cosf(a), 0, sinf(a)};
            memcpy(normals + 3 * v, n, sizeof n);
            positions[3 * v] = x0 + 0.5f * n[0];
            positions[3 * v + 1] = 2.0f * (float)r / (RULES_RINGS - 1);
            positions[3 * v + 2] = 0.5f * n[2];
        }
    int k = 0;
    for (int r = 0; r + 1 < RULES_RINGS; r++)
        for (int s = 0; s < RULES_SEGMENTS; s++) {
            uint16_t a = (uint16_t)(r * RULES_SEGMENTS + s),
                     b = (uint16_t)(r * RULES_SEGMENTS + (s + 1) % RULES_SEGMENTS);
            uint16_t c = (uint16_t)(a + RULES_SEGMENTS), d = (uint16_t)(b + RULES_SEGMENTS);
            uint16_t quad[6] = {a, c, b, b, c, d}; /* counter-clockwise seen from outside */
            memcpy(indices + k, quad, sizeof quad);
            k += 6;
        }
}

/* A weight in [0.05, 0.65) from a vertex and slot, deterministic. */
static float some_weight(int v, int k) {
    unsigned h = (unsigned)(v * 2654435761u) ^ (unsigned)(k * 40503u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return 0.05f + 0.6f * (float)(h % 1000u) / 1000.0f;
}

/* Influences of primitive 0 (8 slots per vertex: set 0 then set 1). */
static void two_sets(uint16_t *joints, float *weights) {
    for (int v = 0; v < VERTICES; v++) {
        int r = v / RULES_SEGMENTS, s = v % RULES_SEGMENTS;
        uint16_t *j = joints + SLOTS * v;
        float *w = weights + SLOTS * v;
        for (int k = 0; k < SLOTS; k++) {
            j[k] = (uint16_t)((r + k) % RULES_JOINTS); /* slots k and k + 6 repeat a joint */
            w[k] = some_weight(v, k);
        }
        if (r == 0 || (r == 5 && s < 4)) {
            memset(w, 0, SLOTS * sizeof *w); /* all zero: the vertex stays in place */
        } else if (r == 7 && s < 3) {
            memset(w, 0, 4 * sizeof *w); /* set 1 only */
        } else if (r % 3 != 1) {
            w[3] = 0; /* 3 to 5 influences, holes in both sets */
            w[5] = w[6] = w[7] = 0;
            if (s % 2) w[4] = 0;
        }
    }
}

/* Influences of primitive 1: one set of unsigned bytes, normalized weights. */
static void one_set(uint8_t *joints, uint8_t *weights) {
    for (int v = 0; v < VERTICES; v++) {
        int r = v / RULES_SEGMENTS, s = v % RULES_SEGMENTS;
        for (int k = 0; k < 4; k++) {
            joints[4 * v + k] = (uint8_t)((r + 2 * k + 1) % RULES_JOINTS);
            weights[4 * v + k] = (uint8_t)(30 + (int)(300.0f * some_weight(v, k + 8)));
        }
        if (r == 0) memset(weights + 4 * v, 0, 4);
        if (r == 4 && s % 3 == 0) memset(weights + 4 * v + 1, 0, 3); /* one influence */
    }
}

/* Morph displacements: a bulge along the normal growing with height, normals tilted. */
static void morph_target(const float *positions, const float *normals, float *dp, float *dn) {
    for (int v = 0; v < VERTICES; v++) {
        float y = positions[3 * v + 1];
        for (int c = 0; c < 3; c++) {
            dp[3 * v + c] = 0.2f * y * normals[3 * v + c] + (c == 1 ? 0.1f : 0.0f);
            dn[3 * v + c] = c == 1 ? 0.3f : 0.0f;
        }
    }
}

static void set_attribute(gltf_builder *b, cJSON *attributes, const char *name, int accessor) {
    gltf_set_number(b, attributes, name, accessor);
}

/* One primitive: positions, normals, indices, the morph target, then its influence sets. */
static cJSON *add_primitive(gltf_builder *b, cJSON *primitives, float x0) {
    static float positions[3 * VERTICES], normals[3 * VERTICES], dp[3 * VERTICES], dn[3 * VERTICES];
    static uint16_t indices[6 * (RULES_RINGS - 1) * RULES_SEGMENTS];
    tube(x0, positions, normals, indices);
    morph_target(positions, normals, dp, dn);
    cJSON *primitive = gltf_append(b, primitives);
    cJSON *attributes = gltf_object(b, primitive, "attributes");
    set_attribute(b, attributes, "POSITION",
                  gltf_add_float_accessor(b, positions, VERTICES, "VEC3", 3, GLTF_ARRAY_BUFFER, 1));
    set_attribute(b, attributes, "NORMAL",
                  gltf_add_float_accessor(b, normals, VERTICES, "VEC3", 3, GLTF_ARRAY_BUFFER, 0));
    gltf_set_number(b, primitive, "indices",
                    gltf_add_uint_accessor(b, indices, 6 * (RULES_RINGS - 1) * RULES_SEGMENTS, 2,
                                           "SCALAR", 1, GLTF_ELEMENT_ARRAY_BUFFER));
    cJSON *target = gltf_append(b, gltf_array(b, primitive, "targets"));
    set_attribute(b, target, "POSITION",
                  gltf_add_float_accessor(b, dp, VERTICES, "VEC3", 3, GLTF_ARRAY_BUFFER, 1));
    set_attribute(b, target, "NORMAL",
                  gltf_add_float_accessor(b, dn, VERTICES, "VEC3", 3, GLTF_ARRAY_BUFFER, 0));
    return attributes;
}

static int build(gltf_builder *b) {
    static uint16_t joints2[SLOTS * VERTICES];
    static float weights2[SLOTS * VERTICES];
    static uint8_t joints1[4 * VERTICES], weights1[4 * VERTICES];
    two_sets(joints2, weights2);
    one_set(joints1, weights1);

    int scene_nodes[2] = {0, RULES_JOINTS};
    for (int j = 0; j < RULES_JOINTS; j++) {
        cJSON *node = gltf_append(b, b->nodes);
        float scale[3], translation[3] = {0, j ? 0.3f : 0.0f, 0};
        rules_joint_scale(j, scale);
        /* a rest pose that turns: joint j by 0.8 j radians about an axis of its own */
        float half = 0.4f * (float)j, axis[3] = {0.6f, 0.0f, 0.8f};
        if (j % 2) axis[0] = 0.0f, axis[1] = 0.6f;
        float rotation[4] = {axis[0] * sinf(half), axis[1] * sinf(half), axis[2] * sinf(half),
                             cosf(half)};
        gltf_set_floats(b, node, "translation", translation, 3);
        gltf_set_floats(b, node, "rotation", rotation, 4);
        gltf_set_floats(b, node, "scale", scale, 3);
        int child = j + 1;
        if (j + 1 < RULES_JOINTS) gltf_set_ints(b, node, "children", &child, 1);
    }
    cJSON *mesh_node = gltf_append(b, b->nodes);
    gltf_set_number(b, mesh_node, "mesh", 0);
    gltf_set_number(b, mesh_node, "skin", 0);
    int joint_nodes[RULES_JOINTS] = {0, 1, 2, 3, 4, 5};
    gltf_set_ints(b, gltf_append(b, b->skins), "joints", joint_nodes, RULES_JOINTS);
    gltf_set_ints(b, gltf_append(b, b->scenes), "nodes", scene_nodes, 2);

    cJSON *mesh = gltf_append(b, b->meshes);
    float mesh_weights[1] = {0.5f};
    gltf_set_floats(b, mesh, "weights", mesh_weights, 1);
    cJSON *primitives = gltf_array(b, mesh, "primitives");
    cJSON *attributes = add_primitive(b, primitives, 0.0f);
    for (int set = 0; set < 2; set++) {
        char name[16];
        snprintf(name, sizeof name, "JOINTS_%d", set);
        /* set `set` of every vertex, in accessors of its own */
        uint16_t j[4 * VERTICES];
        float w[4 * VERTICES];
        for (int v = 0; v < VERTICES; v++) {
            memcpy(j + 4 * v, joints2 + SLOTS * v + 4 * set, 4 * sizeof *j);
            memcpy(w + 4 * v, weights2 + SLOTS * v + 4 * set, 4 * sizeof *w);
        }
        set_attribute(b, attributes, name,
                      gltf_add_uint_accessor(b, j, VERTICES, 2, "VEC4", 4, GLTF_ARRAY_BUFFER));
        snprintf(name, sizeof name, "WEIGHTS_%d", set);
        set_attribute(b, attributes, name,
                      gltf_add_float_accessor(b, w, VERTICES, "VEC4", 4, GLTF_ARRAY_BUFFER, 0));
    }
    attributes = add_primitive(b, primitives, 1.5f);
    set_attribute(b, attributes, "JOINTS_0",
                  gltf_add_uint_accessor(b, joints1, VERTICES, 1, "VEC4", 4, GLTF_ARRAY_BUFFER));
    int weights = gltf_add_uint_accessor(b, weights1, VERTICES, 1, "VEC4", 4, GLTF_ARRAY_BUFFER);
    gltf_set_bool(b, cJSON_GetArrayItem(b->accessors, weights), "normalized", 1);
    set_attribute(b, attributes, "WEIGHTS_0", weights);
    return !b->failed;
}

ossa_document *rules_model_load(void) {
    gltf_builder b;
    char *json = NULL;
    void *glb = NULL;
    size_t size = 0;
    ossa_allocator malloc_free = {0};
    ossa_document *document = NULL;
    ossa_error error;
    if (gltf_builder_init(&b, "ossa gpu_rules test") && build(&b) &&
        (json = gltf_builder_print(&b)) != NULL &&
        glb_write(json, strlen(json), b.bin, b.bin_size, &malloc_free, &glb, &size) &&
        ossa_document_load_memory(glb, size, NULL, &document, &error) != OSSA_OK)
        fprintf(stderr, "the rules model does not load: %s: %s\n", error.path, error.message);
    cJSON_free(json);
    free(glb);
    gltf_builder_release(&b);
    return document;
}
