/* Misuse of the per-frame jobs (skin.h, palette.h) and of the prepared mesh builder: every
 * check is an OSSA_ERROR_ARGUMENT (or OSSA_ERROR_LIMIT) with a message, and nothing is written:
 * output buffers sit between guard bytes and must come back byte for byte as they were. Each
 * case starts from a valid call that succeeds, so the refusal is the one thing that changed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "test_support.h"

/* ---- guarded buffers ------------------------------------------------------------------- */

#define GUARD   64 /* bytes before and after every output */
#define PATTERN 0xA5

typedef struct guarded {
    unsigned char *raw;
    size_t bytes; /* the usable part */
    float *data;  /* raw + GUARD: 64-byte aligned */
} guarded;

static guarded guarded_new(size_t floats) {
    guarded g;
    g.bytes = floats * sizeof(float);
    g.raw = aligned_alloc(64, (g.bytes + 2 * GUARD + 63) & ~(size_t)63);
    memset(g.raw, PATTERN, g.bytes + 2 * GUARD);
    g.data = (float *)(g.raw + GUARD);
    return g;
}

static void guarded_reset(guarded *g) {
    memset(g->raw, PATTERN, g->bytes + 2 * GUARD);
}

/* 1 when no byte of the buffer or its guards changed. */
static int untouched(const guarded *g) {
    for (size_t i = 0; i < g->bytes + 2 * GUARD; i++)
        if (g->raw[i] != PATTERN) return 0;
    return 1;
}

/* 1 when the guards are intact and the usable part was written somewhere. */
static int written_within(const guarded *g) {
    for (size_t i = 0; i < GUARD; i++)
        if (g->raw[i] != PATTERN || g->raw[GUARD + g->bytes + i] != PATTERN) return 0;
    return !untouched(g);
}

static void guarded_free(guarded *g) {
    free(g->raw);
}

/* A refused call: the code, a message, and every buffer untouched. */
#define CHECK_REFUSED(call, expected, error, ...)                                                  \
    do {                                                                                           \
        memset(&(error), 0, sizeof(error));                                                        \
        ossa_result refused_ = (call);                                                             \
        CHECKF(refused_ == (expected), "%s gave %s", #call, ossa_result_name(refused_));           \
        CHECKF((error).code == (expected) && (error).message[0], "%s: no error filled", #call);    \
        const guarded *buffers_[] = {__VA_ARGS__};                                                 \
        for (size_t b_ = 0; b_ < sizeof buffers_ / sizeof buffers_[0]; b_++)                       \
            CHECKF(untouched(buffers_[b_]), "%s wrote output %zu (%s)", #call, b_,                 \
                   (error).message);                                                               \
    } while (0)

/* ---- a small prepared mesh ------------------------------------------------------------- */

/* Three vertices on two joints, with normals and one morph target; no tangents. */
static const float positions[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const float normals[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const uint8_t joints[3][4] = {{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};
static const float weights[3][4] = {{0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
static const float displacement[3][3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
static const float palette[24] = {1, 0,  0, 1, 0, 1, 0, 2, 0, 0, 1, 3,
                                  0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0};

static ossa_influence_set one_set(void) {
    ossa_influence_set set = {joints,  0, OSSA_COMPONENT_UNSIGNED_BYTE,
                              weights, 0, OSSA_COMPONENT_FLOAT};
    return set;
}

static ossa_skin_mesh *small_mesh(int with_normals) {
    static ossa_influence_set set;
    static ossa_morph_target_streams target;
    set = one_set();
    target = (ossa_morph_target_streams){displacement[0], 0, NULL, 0, NULL, 0};
    ossa_skin_mesh_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.input.positions = positions[0];
    desc.input.normals = with_normals ? normals[0] : NULL;
    desc.input.sets = &set;
    desc.input.set_count = 1;
    desc.vertex_count = 3;
    desc.joint_count = 2;
    desc.targets = &target;
    desc.target_count = 1;
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, NULL) == OSSA_OK);
    return mesh;
}

/* ---- ossa_skin_mesh_run ---------------------------------------------------------------- */

static void test_mesh_run(void) {
    ossa_skin_mesh *mesh = small_mesh(1), *bare = small_mesh(0);
    if (!mesh || !bare) return;
    size_t slots = ossa_skin_mesh_slot_count(mesh);
    CHECK(slots > 3); /* padding: a buffer of vertex_count elements is too small in slot order */
    float dq[24];
    ossa_skin_dual_quats(palette, 2, dq);
    const float morph = 0.5f;
    guarded p = guarded_new(3 * slots), n = guarded_new(3 * slots), t = guarded_new(4 * slots);
    ossa_error error;

    ossa_skin_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.palette = palette;
    frame.dual_quats = dq;
    frame.joint_count = 2;
    frame.morph_weights = &morph;
    frame.morph_weight_count = 1;
    frame.order = OSSA_SKIN_ORDER_PREPARED;
    ossa_skin_output out = {p.data, 0, n.data, 0, NULL, 0};

    /* The valid call every case below changes in one place. */
    CHECK(ossa_skin_mesh_run(mesh, &frame, &out, slots, 0, slots, &error) == OSSA_OK);
    CHECK(written_within(&p) && written_within(&n));
    guarded_reset(&p), guarded_reset(&n);

    ossa_skin_frame f = frame;
    f.palette = NULL;
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    f = frame;
    f.joint_count = 1; /* a palette of another skin, one joint short */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    CHECK(strstr(error.message, "1 joints") != NULL);
    f = frame;
    f.mode = OSSA_SKIN_DQS;
    f.dual_quats = NULL; /* once a silent no-op */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    CHECK(strstr(error.message, "dual_quats") != NULL);
    f = frame;
    f.morph_weights = NULL; /* a count without weights */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    f = frame;
    f.mode = (ossa_skin_mode)7;
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    f = frame;
    f.order = (ossa_skin_order)2;
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    f = frame;
    f.backend = OSSA_SKIN_BACKEND_COUNT;
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, slots, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &out, slots, 5, 4, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    CHECK_REFUSED(ossa_skin_mesh_run(NULL, &frame, &out, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, NULL, &out, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, NULL, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);

    /* Outputs: positions are required, streams the mesh lacks are refused, strides checked. */
    ossa_skin_output o = out;
    o.positions = NULL;
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &o, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    o = out;
    o.tangents = t.data; /* the mesh has no tangents: once silently left unwritten */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &o, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n, &t);
    CHECK_REFUSED(ossa_skin_mesh_run(bare, &frame, &out, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    o = out;
    o.positions_stride = 8; /* smaller than xyz */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &o, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    o = out;
    o.normals_stride = 14; /* not a multiple of 4 */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &o, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    o = out;
    o.positions = (float *)((unsigned char *)p.data + 2); /* misaligned */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &o, slots, 0, slots, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);

    /* Capacity: slot order needs `end` elements (more than the vertices), original order the
     * vertex count. */
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &out, 3, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    CHECK(strstr(error.message, "holds 3") != NULL);
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &frame, &out, slots - 1, 0, slots + 100, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    f = frame;
    f.order = OSSA_SKIN_ORDER_ORIGINAL;
    CHECK_REFUSED(ossa_skin_mesh_run(mesh, &f, &out, 2, 0, slots, &error), OSSA_ERROR_ARGUMENT,
                  error, &p, &n);
    CHECK(ossa_skin_mesh_run(mesh, &f, &out, 3, 0, slots, &error) == OSSA_OK);
    CHECK(written_within(&p) && written_within(&n));
    guarded_reset(&p), guarded_reset(&n);
    /* A range wholly past the slots writes nothing and needs no room. */
    CHECK(ossa_skin_mesh_run(mesh, &frame, &out, 0, slots, slots + 16, &error) == OSSA_OK);
    CHECK(untouched(&p) && untouched(&n));

    /* More morph weights than targets cannot write out of bounds: the extra ones are ignored. */
    const float many[4] = {0.5f, 9, 9, 9};
    f = frame;
    f.morph_weights = many;
    f.morph_weight_count = 4;
    guarded q = guarded_new(3 * slots);
    ossa_skin_output oq = {q.data, 0, NULL, 0, NULL, 0};
    CHECK(ossa_skin_mesh_run(mesh, &f, &oq, slots, 0, slots, &error) == OSSA_OK);
    CHECK(ossa_skin_mesh_run(mesh, &frame, &out, slots, 0, slots, &error) == OSSA_OK);
    CHECK(written_within(&q) && !memcmp(q.data, p.data, 3 * slots * sizeof(float)));

    guarded_free(&p), guarded_free(&n), guarded_free(&t), guarded_free(&q);
    ossa_skin_mesh_free(mesh);
    ossa_skin_mesh_free(bare);
}

/* ---- ossa_skin_streams ----------------------------------------------------------------- */

static void test_streams(void) {
    ossa_influence_set set = one_set();
    ossa_skin_input in = {positions[0], 0, normals[0], 0, NULL, 0, &set, 1};
    guarded p = guarded_new(9), n = guarded_new(9), t = guarded_new(12);
    ossa_skin_output out = {p.data, 0, n.data, 0, NULL, 0};
    ossa_error error;
    CHECK(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error) == OSSA_OK);
    CHECK(written_within(&p) && written_within(&n));
    guarded_reset(&p), guarded_reset(&n);

    CHECK_REFUSED(ossa_skin_streams(&in, NULL, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    CHECK_REFUSED(ossa_skin_streams(&in, palette, 2, (ossa_skin_mode)3, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    CHECK_REFUSED(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_LBS, &out, 2, 1, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    CHECK_REFUSED(ossa_skin_streams(NULL, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    ossa_skin_input bad = in;
    bad.positions = NULL;
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    bad = in;
    bad.normals = NULL; /* normals asked for that the input lacks */
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    bad = in;
    bad.positions_stride = 4;
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    bad = in;
    bad.sets = NULL;
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    ossa_influence_set bad_set = set;
    bad_set.joints_type = OSSA_COMPONENT_FLOAT;
    bad = in;
    bad.sets = &bad_set;
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    bad_set = set;
    bad_set.weights_stride = 8; /* 4 floats need 16 bytes */
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    bad_set = set;
    bad_set.weights = NULL;
    CHECK_REFUSED(ossa_skin_streams(&bad, palette, 2, OSSA_SKIN_LBS, &out, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    ossa_skin_output o = out;
    o.tangents = t.data;
    CHECK_REFUSED(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_LBS, &o, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n, &t);
    o = out;
    o.normals_stride = 6;
    CHECK_REFUSED(ossa_skin_streams(&in, palette, 2, OSSA_SKIN_LBS, &o, 0, 3, &error),
                  OSSA_ERROR_ARGUMENT, error, &p, &n);
    guarded_free(&p), guarded_free(&n), guarded_free(&t);
}

/* ---- palette.h ------------------------------------------------------------------------- */

static void test_palettes(void) {
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    ossa_error error;
    CHECK(ossa_demo_load(NULL, &doc, &error) == OSSA_OK);
    if (doc) CHECK(ossa_rig_build(doc, NULL, &rig, &error) == OSSA_OK);
    if (!rig) {
        ossa_document_free(doc);
        return;
    }
    CHECK(rig->skin_count > 0);
    uint32_t skins = rig->skin_count, nodes = rig->node_count;
    ossa_trs *local = malloc(nodes * sizeof *local);
    ossa_pose pose = {local, NULL};
    ossa_pose_set_rest(rig, &pose);
    float *world = malloc(12 * sizeof(float) * nodes);
    ossa_fk_matrices(rig, &pose, world);
    guarded pal = guarded_new(12 * rig->max_joint_count), m = guarded_new(12);

    CHECK(ossa_palette_world(rig, 0, world, pal.data, &error) == OSSA_OK);
    CHECK(written_within(&pal));
    guarded_reset(&pal);
    CHECK_REFUSED(ossa_palette_world(rig, skins, world, pal.data, &error), OSSA_ERROR_ARGUMENT,
                  error, &pal);
    CHECK_REFUSED(ossa_palette_mesh(rig, skins, -1, world, pal.data, &error), OSSA_ERROR_ARGUMENT,
                  error, &pal);
    CHECK_REFUSED(ossa_palette_mesh(rig, 0, (int32_t)nodes, world, pal.data, &error),
                  OSSA_ERROR_ARGUMENT, error, &pal);
    CHECK_REFUSED(ossa_palette_mesh(rig, 0, -2, world, pal.data, &error), OSSA_ERROR_ARGUMENT,
                  error, &pal);
    CHECK(ossa_palette_floats(rig, skins) == 0);
    CHECK(ossa_palette_floats(rig, 0) == 12 * rig->skins[0].joint_count);

    CHECK(ossa_local_matrix(rig, &pose, nodes - 1, m.data, &error) == OSSA_OK);
    CHECK(written_within(&m));
    guarded_reset(&m);
    CHECK_REFUSED(ossa_local_matrix(rig, &pose, nodes, m.data, &error), OSSA_ERROR_ARGUMENT, error,
                  &m);

    guarded_free(&pal), guarded_free(&m);
    free(local), free(world);
    ossa_rig_free(rig);
    ossa_document_free(doc);
}

/* ---- ossa_skin_mesh_create ------------------------------------------------------------- */

static void test_mesh_create(void) {
    ossa_influence_set set = one_set();
    ossa_skin_mesh_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.input.positions = positions[0];
    desc.input.sets = &set;
    desc.input.set_count = 1;
    desc.vertex_count = 3;
    desc.joint_count = 2;
    ossa_skin_mesh *mesh = NULL;
    ossa_error error;
    CHECK(ossa_skin_mesh_create(&desc, &mesh, &error) == OSSA_OK);
    ossa_skin_mesh_free(mesh);

    ossa_skin_mesh_desc d = desc;
    d.input.positions_stride = 8;
    mesh = (ossa_skin_mesh *)&d; /* must come back NULL */
    CHECK(ossa_skin_mesh_create(&d, &mesh, &error) == OSSA_ERROR_ARGUMENT && !mesh);
    d = desc;
    d.input.sets = NULL;
    CHECK(ossa_skin_mesh_create(&d, &mesh, &error) == OSSA_ERROR_ARGUMENT && !mesh);
    d = desc;
    d.target_count = 2; /* targets NULL */
    CHECK(ossa_skin_mesh_create(&d, &mesh, &error) == OSSA_ERROR_ARGUMENT && !mesh);
    d = desc;
    d.input.set_count = 64; /* 256 influences do not fit a vertex's count byte */
    ossa_influence_set sets[64];
    for (int s = 0; s < 64; s++)
        sets[s] = set;
    d.input.sets = sets;
    CHECK(ossa_skin_mesh_create(&d, &mesh, &error) == OSSA_ERROR_LIMIT && !mesh);
    CHECK(strstr(error.message, "63") != NULL);
    d.input.set_count = 63;
    CHECK(ossa_skin_mesh_create(&d, &mesh, &error) == OSSA_OK);
    if (mesh) CHECK(ossa_skin_mesh_max_influences(mesh) == 2); /* repeats merged */
    ossa_skin_mesh_free(mesh);
}

/* ---- the allocator --------------------------------------------------------------------- */

typedef struct counting {
    size_t allocs, frees;
} counting;

static void *count_alloc(void *user, size_t size) {
    ((counting *)user)->allocs++;
    return malloc(size);
}

static void count_free(void *user, void *ptr) {
    ((counting *)user)->frees++;
    free(ptr);
}

/* A prepared mesh from a document takes its scratch (decoded streams) from the caller's
 * allocator too: more blocks pass through it than the mesh keeps, and all come back. */
static void test_allocator(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(ossa_demo_load(NULL, &doc, &error) == OSSA_OK);
    if (!doc) return;
    int checked = 0;
    for (uint32_t n = 0; n < doc->node_count && !checked; n++) {
        const ossa_node *node = &doc->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        counting c = {0, 0};
        ossa_allocator a = {count_alloc, count_free, &c};
        ossa_skin_mesh *mesh = NULL;
        CHECK(ossa_skin_mesh_from_document(doc, (uint32_t)node->mesh, 0, node->skin, &a, &mesh,
                                           &error) == OSSA_OK);
        size_t kept = c.allocs - c.frees;
        /* the mesh keeps at most its 8 blocks; the document's streams were decoded into more */
        CHECKF(kept <= 8 && c.allocs >= kept + 4, "%zu allocations, %zu kept", c.allocs, kept);
        ossa_skin_mesh_free(mesh);
        CHECK(c.allocs == c.frees);
        checked = 1;
    }
    CHECK(checked);
    ossa_document_free(doc);
}

int main(void) {
    test_mesh_run();
    test_streams();
    test_palettes();
    test_mesh_create();
    test_allocator();
    return ossa_test_finish("misuse");
}
