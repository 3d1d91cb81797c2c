/* The demo model as a runtime model: rig and clips build from it, and playing it moves the
 * vertices as designed (sails turn about the hub, the bind pose reproduces the mesh). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/demo.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "test_support.h"

#define PI    3.14159265358979323846
#define HUB_X (-2.2f) /* the hub joint's bind position in the side-by-side demo */
#define HUB_Y 4.2f

typedef struct player {
    ossa_document *doc;
    ossa_rig *rig;
    ossa_clip_set *clips;
    ossa_pose pose;
    float *world, *palette, *bind, *skinned;
} player;

static int player_open(player *p) {
    memset(p, 0, sizeof *p);
    ossa_error error;
    CHECK(ossa_demo_load(NULL, &p->doc, &error) == OSSA_OK);
    if (!p->doc) return 0;
    CHECK(ossa_rig_build(p->doc, NULL, &p->rig, &error) == OSSA_OK);
    if (!p->rig) return 0;
    CHECK(ossa_clip_set_build(p->doc, p->rig, NULL, &p->clips, &error) == OSSA_OK);
    if (!p->clips) return 0;
    p->pose.local = malloc(p->rig->node_count * sizeof(ossa_trs));
    p->pose.weights = malloc((p->rig->weight_total + 1) * sizeof(float));
    p->world = malloc(p->rig->node_count * OSSA_MATRIX_FLOATS * sizeof(float));
    p->palette = malloc(p->rig->max_joint_count * OSSA_MATRIX_FLOATS * sizeof(float));
    p->bind = malloc(1024 * 3 * sizeof(float));
    p->skinned = malloc(1024 * 3 * sizeof(float));
    return p->pose.local && p->pose.weights && p->world && p->palette && p->bind && p->skinned;
}

static void player_close(player *p) {
    free(p->pose.local), free(p->pose.weights), free(p->world), free(p->palette);
    free(p->bind), free(p->skinned);
    ossa_clip_set_free(p->clips);
    ossa_rig_free(p->rig);
    ossa_document_free(p->doc);
}

static int rig_node(const player *p, const char *name) {
    for (uint32_t i = 0; i < p->rig->node_count; i++)
        if (p->rig->names[i] && !strcmp(p->rig->names[i], name)) return (int)i;
    return -1;
}

/* Skins primitive `prim` of the mesh on rig node `node` in the current pose: bind positions
 * into p->bind, skinned positions into p->skinned. Returns the vertex count. */
static size_t skin(player *p, int node, uint32_t prim) {
    int32_t mesh = p->rig->mesh[node], skin_index = p->rig->skin[node];
    ossa_fk_matrices(p->rig, &p->pose, p->world);
    CHECK(ossa_palette_mesh(p->rig, (uint32_t)skin_index, node, p->world, p->palette, NULL) ==
          OSSA_OK);
    ossa_skin_mesh *prepared = NULL;
    CHECK(ossa_skin_mesh_from_document(p->doc, (uint32_t)mesh, prim, skin_index, NULL, &prepared,
                                       NULL) == OSSA_OK);
    if (!prepared) return 0;
    size_t n = ossa_skin_mesh_vertex_count(prepared);
    CHECK(n <= 1024);
    ossa_accessor_read_float(p->doc, p->doc->meshes[mesh].primitives[prim].position, 0, n, p->bind);
    ossa_skin_frame frame = {0};
    frame.palette = p->palette;
    frame.joint_count = p->rig->skins[skin_index].joint_count;
    frame.order = OSSA_SKIN_ORDER_ORIGINAL;
    ossa_skin_output out = {0};
    out.positions = p->skinned;
    CHECK(ossa_skin_mesh_run(prepared, &frame, &out, 1024, 0, ossa_skin_mesh_slot_count(prepared),
                             NULL) == OSSA_OK);
    ossa_skin_mesh_free(prepared);
    return n;
}

/* Sails (windmill primitive 2) at a clip time: bind positions turned by `angle` about the
 * hub's z axis (the tower does not move in these clips at these times). */
static void check_sails(player *p, int clip, float time, double angle) {
    ossa_clip_sample(p->rig, ossa_clip_set_clip(p->clips, clip), time, NULL, &p->pose);
    size_t n = skin(p, rig_node(p, "windmill"), 2);
    CHECK(n == 120);
    double c = cos(angle), s = sin(angle), worst = 0;
    for (size_t v = 0; v < n; v++) {
        double x = p->bind[3 * v] - HUB_X, y = p->bind[3 * v + 1] - HUB_Y;
        double ex = HUB_X + c * x - s * y, ey = HUB_Y + s * x + c * y, ez = p->bind[3 * v + 2];
        double err = fabs(ex - p->skinned[3 * v]) + fabs(ey - p->skinned[3 * v + 1]) +
                     fabs(ez - p->skinned[3 * v + 2]);
        if (err > worst) worst = err;
    }
    CHECKF(worst < 2e-4, "clip %d t %.3f: sails off by %.3g", clip, (double)time, worst);
}

int main(void) {
    player p;
    if (player_open(&p)) {
        CHECK(ossa_clip_set_count(p.clips) == 3);
        const char *names[3] = {"idle", "gust", "tick"};
        for (uint32_t c = 0; c < ossa_clip_set_count(p.clips) && c < 3; c++) {
            CHECK(ossa_clip_name(ossa_clip_set_clip(p.clips, c)) &&
                  !strcmp(ossa_clip_name(ossa_clip_set_clip(p.clips, c)), names[c]));
            CHECK_NEAR(ossa_clip_duration(ossa_clip_set_clip(p.clips, c)), OSSA_DEMO_DURATION, 0);
        }
        CHECK(rig_node(&p, "windmill") >= 0 && rig_node(&p, "tentacle") >= 0);

        /* Bind pose = rest pose: skinning gives back the mesh as written. */
        ossa_pose_set_rest(p.rig, &p.pose);
        size_t n = skin(&p, rig_node(&p, "tentacle"), 0);
        CHECK(n == 41 * 16 + 18);
        double worst = 0;
        for (size_t i = 0; i < 3 * n; i++)
            worst = fmax(worst, fabs((double)p.bind[i] - (double)p.skinned[i]));
        CHECKF(worst < 1e-5, "rest pose moves the tentacle by %.3g", worst);

        /* idle: one turn per period at constant speed, exact between keys too. */
        double w = 2 * PI / OSSA_DEMO_DURATION;
        check_sails(&p, 0, 0.25f, -w * 0.25);
        check_sails(&p, 0, 0.3f, -w * 0.3);
        check_sails(&p, 0, 1.9f, -w * 1.9);
        /* gust at t = 1, a key where the tower's sway (0.035 sin(w t)) is zero. */
        check_sails(&p, 1, 1.0f, -(w * 1.0 + 0.8 * sin(w * 1.0)));
        /* tick: held at the key before the time. */
        check_sails(&p, 2, 0.2f, -PI / 6);
        check_sails(&p, 2, 1.95f, -11 * PI / 6);
    }
    player_close(&p);
    return ossa_test_finish("demo_runtime");
}
