/* The windmill: a stone tower with a gable roof and a hub whose four sails spin. Every vertex
 * is bound rigidly (weight 1) to the tower joint or to the hub joint. */
#include <math.h>

#include "demo_math.h"
#include "demo_mesh.h"
#include "demo_scene.h"

#define TOWER_HEIGHT 4.0f
#define HUB_HEIGHT   4.2f
#define HUB_FRONT    0.62f /* z of the hub joint: in front of the tower */
#define SAIL_LENGTH  2.0f
#define JOINT_TOWER  0
#define JOINT_HUB    1

/* Fills corners of an axis-aligned box [lo, hi]. */
static void box(const float lo[3], const float hi[3], demo_hexahedron *h) {
    for (int i = 0; i < 8; i++) {
        h->corner[i][0] = (i & 1) ? hi[0] : lo[0];
        h->corner[i][1] = (i & 2) ? hi[1] : lo[1];
        h->corner[i][2] = (i & 4) ? hi[2] : lo[2];
    }
}

/* Tower (tapering upwards) and nacelle, around x = ox. */
static void build_body(demo_mesh *m, float ox) {
    demo_hexahedron h;
    for (int i = 0; i < 8; i++) {
        float half = (i & 2) ? 0.42f : 0.7f;
        h.corner[i][0] = ox + ((i & 1) ? half : -half);
        h.corner[i][1] = (i & 2) ? TOWER_HEIGHT : 0.0f;
        h.corner[i][2] = (i & 4) ? half : -half;
    }
    demo_mesh_hexahedron(m, &h, JOINT_TOWER);
    const float lo[3] = {ox - 0.45f, 3.9f, -0.55f}, hi[3] = {ox + 0.45f, 4.5f, 0.55f};
    box(lo, hi, &h);
    demo_mesh_hexahedron(m, &h, JOINT_TOWER);
}

/* A gable roof over the nacelle: a wedge whose ridge runs front to back. */
static void build_roof(demo_mesh *m, float ox) {
    demo_hexahedron h;
    for (int i = 0; i < 8; i++) {
        float half = (i & 2) ? 0.06f : 0.55f;
        h.corner[i][0] = ox + ((i & 1) ? half : -half);
        h.corner[i][1] = (i & 2) ? 4.9f : 4.5f;
        h.corner[i][2] = (i & 4) ? 0.62f : -0.62f;
    }
    demo_mesh_hexahedron(m, &h, JOINT_TOWER);
}

/* Hub and four sails in an X, in front of the hub joint at (ox, HUB_HEIGHT, HUB_FRONT). */
static void build_sails(demo_mesh *m, float ox) {
    const float centre[3] = {ox, HUB_HEIGHT, HUB_FRONT};
    demo_hexahedron h;
    const float lo[3] = {ox - 0.16f, HUB_HEIGHT - 0.16f, HUB_FRONT - 0.05f};
    const float hi[3] = {ox + 0.16f, HUB_HEIGHT + 0.16f, HUB_FRONT + 0.22f};
    box(lo, hi, &h);
    demo_mesh_hexahedron(m, &h, JOINT_HUB);
    for (int k = 0; k < 4; k++) {
        double angle = DEMO_PI / 4 + k * DEMO_PI / 2;
        float along[2] = {(float)cos(angle), (float)sin(angle)};
        float across[2] = {-along[1], along[0]};
        for (int i = 0; i < 8; i++) {
            float r = (i & 1) ? SAIL_LENGTH : 0.12f;
            float w = ((i & 1) ? 0.28f : 0.07f) * ((i & 2) ? 1.0f : -1.0f);
            h.corner[i][0] = centre[0] + r * along[0] + w * across[0];
            h.corner[i][1] = centre[1] + r * along[1] + w * across[1];
            h.corner[i][2] = centre[2] + ((i & 4) ? 0.13f : 0.07f);
        }
        demo_mesh_hexahedron(m, &h, JOINT_HUB);
    }
}

typedef void (*part_fn)(demo_mesh *m, float ox);

static void add_part(gltf_builder *b, cJSON *primitives, part_fn part, float ox, int material) {
    demo_mesh m = {0};
    part(&m, ox);
    demo_mesh_write(&m, b, primitives, material);
    demo_mesh_release(&m);
}

void demo_windmill_build(gltf_builder *b, float offset_x, cJSON *scene_nodes, demo_windmill *out) {
    static const float stone[3] = {0.72f, 0.60f, 0.46f}, roof[3] = {0.62f, 0.16f, 0.12f},
                       sails[3] = {0.93f, 0.89f, 0.80f};
    int stone_material = demo_add_material(b, "windmill_stone", stone, 0.9f);
    int roof_material = demo_add_material(b, "windmill_roof", roof, 0.7f);
    int sail_material = demo_add_material(b, "windmill_sails", sails, 0.8f);

    int mesh = gltf_next_index(b->meshes);
    cJSON *mesh_obj = gltf_append(b, b->meshes);
    gltf_set_string(b, mesh_obj, "name", "windmill");
    cJSON *primitives = gltf_array(b, mesh_obj, "primitives");
    add_part(b, primitives, build_body, offset_x, stone_material);
    add_part(b, primitives, build_roof, offset_x, roof_material);
    add_part(b, primitives, build_sails, offset_x, sail_material);

    const float tower_at[3] = {offset_x, 0, 0}, hub_offset[3] = {0, HUB_HEIGHT, HUB_FRONT};
    out->tower = demo_add_node(b, "windmill_tower", tower_at);
    out->hub = demo_add_node(b, "windmill_hub", hub_offset);
    demo_set_children(b, out->tower, &out->hub, 1);
    const int joints[2] = {out->tower, out->hub};
    const float bind[2][3] = {{offset_x, 0, 0}, {offset_x, HUB_HEIGHT, HUB_FRONT}};
    int skin = demo_add_skin(b, "windmill", joints, 2, bind);
    out->mesh_node = demo_add_skinned_mesh_node(b, "windmill", mesh, skin);
    gltf_push_int(b, scene_nodes, out->mesh_node);
    gltf_push_int(b, scene_nodes, out->tower);
}

/* Sail angle curves about the hub's z axis (negative: clockwise seen from the front). */
static void spin_steady(const void *user, double t, double value[4], double rate[4]) {
    (void)user;
    double w = 2 * DEMO_PI / OSSA_DEMO_DURATION;
    demo_quat_axis(2, -w * t, value);
    demo_quat_axis_rate(2, -w * t, -w, rate);
}

/* A gust: one turn per period, fast then slow (the angle keeps decreasing: 0.8 < 1). */
static void spin_gust(const void *user, double t, double value[4], double rate[4]) {
    (void)user;
    double w = 2 * DEMO_PI / OSSA_DEMO_DURATION;
    double angle = -(w * t + 0.8 * sin(w * t));
    double speed = -(w + 0.8 * w * cos(w * t));
    demo_quat_axis(2, angle, value);
    demo_quat_axis_rate(2, angle, speed, rate);
}

/* The tower leans slightly with the gust. */
static void tower_sway(const void *user, double t, double value[4], double rate[4]) {
    (void)user;
    double w = 2 * DEMO_PI / OSSA_DEMO_DURATION;
    demo_quat_axis(2, 0.035 * sin(w * t), value);
    demo_quat_axis_rate(2, 0.035 * sin(w * t), 0.035 * w * cos(w * t), rate);
}

/* Twelve 30-degree clicks per period. */
static void spin_clicks(const void *user, double t, double value[4], double rate[4]) {
    (void)user;
    double step = OSSA_DEMO_DURATION / 12.0;
    double clicks = floor(t / step + 1e-6);
    demo_quat_axis(2, -clicks * DEMO_PI / 6, value);
    rate[0] = rate[1] = rate[2] = rate[3] = 0;
}

void demo_windmill_animate(gltf_builder *b, demo_animation *animation, demo_clip clip,
                           const demo_windmill *windmill) {
    const double d = OSSA_DEMO_DURATION;
    switch (clip) {
    case DEMO_CLIP_IDLE: /* 45-degree keys: slerp turns at constant speed */
        demo_animation_curve(b, animation, windmill->hub, DEMO_ROTATION, DEMO_LINEAR, 9, d,
                             spin_steady, NULL);
        break;
    case DEMO_CLIP_GUST:
        demo_animation_curve(b, animation, windmill->hub, DEMO_ROTATION, DEMO_CUBICSPLINE, 13, d,
                             spin_gust, NULL);
        demo_animation_curve(b, animation, windmill->tower, DEMO_ROTATION, DEMO_CUBICSPLINE, 9, d,
                             tower_sway, NULL);
        break;
    case DEMO_CLIP_TICK:
        demo_animation_curve(b, animation, windmill->hub, DEMO_ROTATION, DEMO_STEP, 13, d,
                             spin_clicks, NULL);
        break;
    }
}
