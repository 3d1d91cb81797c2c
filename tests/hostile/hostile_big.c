/* Hostile structures too big to write by hand: a 100,000-level node chain and a 100,000-node
 * cycle (nothing may recurse), JSON nested 10,000 deep, a skin of 65,536 joints; and the
 * bounded results promised for non-unit quaternions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hostile_cases.h"
#include "hostile_model.h"
#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "test_support.h"

#define DEEP   100000
#define JOINTS 65536

static ossa_load_options named(const char *name) {
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = name;
    return options;
}

/* nodes[i] has child i + 1 (the last one closes the ring when `ring`), translation (0, 1, 0). */
static void chain(hbytes *json, int ring) {
    hb_printf(json, "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (int i = 0; i < DEEP; i++) {
        int child = i + 1 < DEEP ? i + 1 : ring ? 0 : -1;
        hb_printf(json, "%s{\"translation\":[0,1,0]", i ? "," : "");
        if (child >= 0) hb_printf(json, ",\"children\":[%d]", child);
        hb_printf(json, "}");
    }
    hb_printf(json, "]}");
}

static void deep_chain(void) {
    hbytes json = {0};
    chain(&json, 0);
    ossa_load_options options = named("deep.gltf");
    hostile_run_bytes("node chain 100,000 levels deep", json.data, json.size, &options, OSSA_OK,
                      NULL);
    /* Bounded result: the rig keeps the chain in order and FK reaches the leaf exactly. */
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    CHECK(ossa_document_load_memory(json.data, json.size, &options, &doc, NULL) == OSSA_OK);
    if (doc) CHECK(ossa_rig_build(doc, NULL, &rig, NULL) == OSSA_OK);
    if (rig) {
        ossa_trs *local = malloc(DEEP * sizeof *local);
        float *world = malloc((size_t)DEEP * OSSA_MATRIX_FLOATS * sizeof(float));
        if (local && world) {
            ossa_pose pose = {local, NULL};
            ossa_pose_set_rest(rig, &pose);
            ossa_fk_matrices(rig, &pose, world);
            int32_t leaf = rig->rig_from_gltf[DEEP - 1];
            CHECK(leaf == DEEP - 1);
            CHECK_NEAR(world[(size_t)leaf * OSSA_MATRIX_FLOATS + 7], (double)DEEP, 0);
        }
        free(local);
        free(world);
    }
    ossa_rig_free(rig);
    ossa_document_free(doc);
    hb_free(&json);
}

static void ring(void) {
    hbytes json = {0};
    chain(&json, 1);
    ossa_load_options options = named("ring.gltf");
    hostile_run_bytes("node cycle through 100,000 nodes", json.data, json.size, &options,
                      OSSA_ERROR_INVALID, "scenes[0].nodes[0]");
    hb_free(&json);
}

/* "extras" holding `depth` nested arrays (or objects). */
static void nested(const char *name, int depth, int objects, ossa_result expect) {
    hbytes json = {0};
    hb_printf(&json, "{\"asset\":{\"version\":\"2.0\"},\"extras\":");
    for (int i = 0; i < depth; i++)
        hb_printf(&json, objects ? "{\"a\":" : "[");
    hb_printf(&json, "0");
    for (int i = 0; i < depth; i++)
        hb_printf(&json, objects ? "}" : "]");
    hb_printf(&json, "}");
    ossa_load_options options = named("nested.gltf");
    hostile_run_bytes(name, json.data, json.size, &options, expect, expect ? "" : NULL);
    hb_free(&json);
}

/* A skin of 65,536 joints: joint 0 at the origin, the others its children at (1, 2, 3) with
 * inverse binds that cancel it, so every joint matrix is the identity; a triangle bound to
 * joint 65,535 (JOINTS_0 as UNSIGNED_SHORT) skins to its bind positions. */
static void huge_skin(void) {
    size_t ibm_at = 36 + 24 + 48, bin_size = ibm_at + (size_t)JOINTS * 64;
    unsigned char *bin = calloc(bin_size, 1);
    if (!bin) return;
    static const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    memcpy(bin, positions, sizeof positions);
    for (int v = 0; v < 3; v++) {
        uint16_t joints[4] = {JOINTS - 1, 1, 0, 0};
        float weights[4] = {1, 0, 0, 0};
        memcpy(bin + 36 + 8 * v, joints, sizeof joints);
        memcpy(bin + 60 + 16 * v, weights, sizeof weights);
    }
    for (int j = 0; j < JOINTS; j++) {
        float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        if (j) m[12] = -1, m[13] = -2, m[14] = -3;
        memcpy(bin + ibm_at + (size_t)j * 64, m, sizeof m);
    }
    hbytes json = {0};
    hb_printf(&json, "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,%d]}],", JOINTS);
    hb_printf(&json, "\"nodes\":[{\"children\":[");
    for (int j = 1; j < JOINTS; j++)
        hb_printf(&json, "%s%d", j > 1 ? "," : "", j);
    hb_printf(&json, "]}");
    for (int j = 1; j < JOINTS; j++)
        hb_printf(&json, ",{\"translation\":[1,2,3]}");
    hb_printf(&json, ",{\"mesh\":0,\"skin\":0}],\"skins\":[{\"inverseBindMatrices\":3,"
                     "\"joints\":[");
    for (int j = 0; j < JOINTS; j++)
        hb_printf(&json, "%s%d", j ? "," : "", j);
    hb_printf(&json,
              "]}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
              "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],\"buffers\":[{\"byteLength\":%zu}],"
              "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},"
              "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":24},"
              "{\"buffer\":0,\"byteOffset\":60,\"byteLength\":48},"
              "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],\"accessors\":["
              "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
              "\"min\":[0,0,0],\"max\":[1,1,0]},"
              "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"VEC4\"},"
              "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
              "{\"bufferView\":3,\"componentType\":5126,\"count\":%d,\"type\":\"MAT4\"}]}",
              bin_size, ibm_at, (size_t)JOINTS * 64, JOINTS);
    hbytes glb = {0};
    glb_pack(&glb, (const char *)json.data, bin, bin_size);
    ossa_load_options options = named("joints.glb");
    hostile_run_bytes("skin with 65,536 joints", glb.data, glb.size, &options, OSSA_OK, NULL);

    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_document_load_memory(glb.data, glb.size, &options, &doc, NULL) == OSSA_OK);
    if (doc) CHECK(ossa_rig_build(doc, NULL, &rig, NULL) == OSSA_OK);
    if (rig) CHECK(ossa_skin_mesh_from_document(doc, 0, 0, 0, NULL, &mesh, NULL) == OSSA_OK);
    if (mesh) {
        CHECK(rig->skins[0].joint_count == JOINTS && rig->max_joint_count == JOINTS);
        ossa_trs *local = malloc((JOINTS + 1) * sizeof *local);
        float *world = malloc((size_t)(JOINTS + 1) * OSSA_MATRIX_FLOATS * sizeof(float));
        float *palette = malloc((size_t)JOINTS * OSSA_MATRIX_FLOATS * sizeof(float));
        float out[64 * 3];
        if (local && world && palette && ossa_skin_mesh_slot_count(mesh) <= 64) {
            ossa_pose pose = {local, NULL};
            ossa_pose_set_rest(rig, &pose);
            ossa_fk_matrices(rig, &pose, world);
            CHECK(ossa_palette_mesh(rig, 0, rig->rig_from_gltf[JOINTS], world, palette, NULL) ==
                  OSSA_OK);
            const float *last = palette + (size_t)(JOINTS - 1) * OSSA_MATRIX_FLOATS;
            static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
            double worst = 0;
            for (int i = 0; i < 12; i++)
                worst = fmax(worst, fabs((double)last[i] - identity[i]));
            CHECKF(worst < 1e-6, "joint 65,535's matrix is %.3g from the identity", worst);
            ossa_skin_frame frame;
            memset(&frame, 0, sizeof frame);
            frame.palette = palette;
            frame.joint_count = JOINTS;
            frame.order = OSSA_SKIN_ORDER_ORIGINAL;
            ossa_skin_output output = {out, 0, NULL, 0, NULL, 0};
            CHECK(ossa_skin_mesh_run(mesh, &frame, &output, 64, 0, ossa_skin_mesh_slot_count(mesh),
                                     NULL) == OSSA_OK);
            for (int i = 0; i < 9; i++)
                CHECK_NEAR(out[i], positions[i], 1e-6);
        }
        free(local), free(world), free(palette);
    }
    ossa_skin_mesh_free(mesh);
    ossa_rig_free(rig);
    ossa_document_free(doc);
    hb_free(&glb);
    hb_free(&json);
    free(bin);
}

/* Non-unit quaternions load; the rig's rest rotation and every sampled rotation are unit. */
static void unit_rotations(void) {
    unsigned char *bin = malloc(BASE_BIN_SIZE);
    if (!bin) return;
    base_bin(bin);
    bin_set_float(bin, BASE_ROTATIONS + 12, 2.0f); /* key 0: (0, 0, 0, 2) */
    bin_set_float(bin, BASE_ROTATIONS + 24, 3.0f); /* key 1: (0, 0, 3, 0.707) */
    char *json = json_replace(base_json(), "\"name\":\"tip\",\"translation\":[0,1,0]",
                              "\"name\":\"tip\",\"rotation\":[0,0,2,2]");
    hbytes glb = {0};
    glb_pack(&glb, json, bin, BASE_BIN_SIZE);
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    CHECK(ossa_document_load_memory(glb.data, glb.size, NULL, &doc, NULL) == OSSA_OK);
    if (doc) CHECK(ossa_rig_build(doc, NULL, &rig, NULL) == OSSA_OK);
    if (rig) CHECK(ossa_clip_set_build(doc, rig, NULL, &clips, NULL) == OSSA_OK);
    if (clips) {
        int32_t tip = rig->rig_from_gltf[1];
        const float *q = rig->rest[tip].rotation;
        CHECK_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1, 1e-6);
        CHECK_NEAR(q[2], sqrt(0.5), 1e-6);
        ossa_trs local[3];
        ossa_pose pose = {local, NULL};
        double worst = 0;
        for (float t = 0; t <= 2.0f; t += 0.125f) {
            ossa_clip_sample(rig, ossa_clip_set_clip(clips, 0), t, NULL, &pose);
            const float *r = local[tip].rotation;
            worst = fmax(worst, fabs(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3] - 1));
        }
        CHECKF(worst < 1e-5, "sampled rotations are off unit length by %.3g", worst);
        ossa_error none;
        memset(&none, 0, sizeof none);
        hostile_report("non-unit quaternions sample as unit", OSSA_OK, &none, OSSA_OK, NULL);
    }
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    ossa_document_free(doc);
    hb_free(&glb);
    free(json);
    free(bin);
}

void hostile_big_cases(void) {
    deep_chain();
    ring();
    nested("JSON arrays nested 10,000 deep", 10000, 0, OSSA_ERROR_JSON);
    nested("JSON objects nested 10,000 deep", 10000, 1, OSSA_ERROR_JSON);
    nested("JSON arrays nested 500 deep (under the limit)", 500, 0, OSSA_OK);
    huge_skin();
    unit_rotations();
}
