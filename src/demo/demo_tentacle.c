/* The tentacle: a tapered tube on a chain of joints along +y, with smooth weights (each
 * vertex follows the up to four nearest joints with Gaussian falloff). */
#include <math.h>
#include <stdio.h>

#include "demo_math.h"
#include "demo_mesh.h"
#include "demo_scene.h"

#define JOINTS            OSSA_DEMO_TENTACLE_JOINTS
#define SEGMENT           0.42f /* joint spacing */
#define LENGTH            (SEGMENT * JOINTS)
#define RINGS_PER_SEGMENT 4
#define SIDES             16
#define RADIUS_BASE       0.42f
#define RADIUS_TIP        0.08f
#define TIP_HEIGHT        0.14f /* of the cone closing the tube */
#define FALLOFF           0.7   /* Gaussian width, in segments */

/* Weights of the four joints nearest to height y (joint i owns [i, i+1] segments). */
static void smooth_weights(float y, uint8_t joints[4], float weights[4]) {
    double s = y / SEGMENT;
    int first = (int)floor(s - 1.5); /* the four segment centres nearest to s */
    if (first < 0) first = 0;
    if (first > JOINTS - 4) first = JOINTS - 4;
    double w[4], sum = 0;
    for (int k = 0; k < 4; k++) {
        double d = (s - (first + k + 0.5)) / FALLOFF;
        w[k] = exp(-d * d);
        sum += w[k];
    }
    float total = 0;
    for (int k = 0; k < 4; k++) {
        joints[k] = (uint8_t)(first + k);
        weights[k] = (float)(w[k] / sum);
        total += weights[k];
    }
    /* Absorb float rounding in the largest weight so the sum is 1 to the last bit possible. */
    int largest = 0;
    for (int k = 1; k < 4; k++)
        if (weights[k] > weights[largest]) largest = k;
    weights[largest] += 1.0f - total;
}

static float radius_at(float y) {
    return RADIUS_BASE + (RADIUS_TIP - RADIUS_BASE) * y / LENGTH;
}

static void build_mesh(demo_mesh *m, float ox) {
    const int rings = JOINTS * RINGS_PER_SEGMENT + 1;
    const float slope = (RADIUS_BASE - RADIUS_TIP) / LENGTH; /* the tube's normal leans up */
    uint8_t joints[4];
    float weights[4];
    uint32_t first_ring = m->vertex_count;
    for (int j = 0; j < rings; j++) {
        float y = LENGTH * (float)j / (float)(rings - 1);
        float r = radius_at(y);
        smooth_weights(y, joints, weights);
        for (int a = 0; a < SIDES; a++) {
            double phi = 2 * DEMO_PI * a / SIDES;
            float c = (float)cos(phi), s = (float)sin(phi);
            float position[3] = {ox + r * c, y, r * s}, normal[3] = {c, slope, s};
            demo_normalize3(normal);
            demo_mesh_vertex(m, position, normal, joints, weights);
        }
    }
    for (int j = 0; j + 1 < rings; j++)
        for (int a = 0; a < SIDES; a++) {
            uint32_t v00 = first_ring + (uint32_t)(j * SIDES + a);
            uint32_t v01 = first_ring + (uint32_t)(j * SIDES + (a + 1) % SIDES);
            demo_mesh_triangle(m, v00, v00 + SIDES, v01 + SIDES);
            demo_mesh_triangle(m, v00, v01 + SIDES, v01);
        }

    /* The tip: a cone over the last ring. */
    const float up[3] = {0, 1, 0}, down[3] = {0, -1, 0};
    const float tip[3] = {ox, LENGTH + TIP_HEIGHT, 0};
    smooth_weights(LENGTH, joints, weights);
    uint32_t apex = demo_mesh_vertex(m, tip, up, joints, weights);
    uint32_t last_ring = first_ring + (uint32_t)((rings - 1) * SIDES);
    for (int a = 0; a < SIDES; a++)
        demo_mesh_triangle(m, last_ring + (uint32_t)a, apex,
                           last_ring + (uint32_t)((a + 1) % SIDES));

    /* The base: a flat disc with its own vertices so its normal points down. */
    smooth_weights(0, joints, weights);
    const float base_centre[3] = {ox, 0, 0};
    uint32_t centre = demo_mesh_vertex(m, base_centre, down, joints, weights);
    for (int a = 0; a < SIDES; a++) {
        double phi = 2 * DEMO_PI * a / SIDES;
        float position[3] = {ox + RADIUS_BASE * (float)cos(phi), 0, RADIUS_BASE * (float)sin(phi)};
        demo_mesh_vertex(m, position, down, joints, weights);
    }
    for (int a = 0; a < SIDES; a++)
        demo_mesh_triangle(m, centre, centre + 1 + (uint32_t)a,
                           centre + 1 + (uint32_t)((a + 1) % SIDES));
}

void demo_tentacle_build(gltf_builder *b, float offset_x, cJSON *scene_nodes, demo_tentacle *out) {
    static const float skin_colour[3] = {0.56f, 0.26f, 0.66f};
    int material = demo_add_material(b, "tentacle_skin", skin_colour, 0.5f);
    int mesh = gltf_next_index(b->meshes);
    cJSON *mesh_obj = gltf_append(b, b->meshes);
    gltf_set_string(b, mesh_obj, "name", "tentacle");
    demo_mesh m = {0};
    build_mesh(&m, offset_x);
    demo_mesh_write(&m, b, gltf_array(b, mesh_obj, "primitives"), material);
    demo_mesh_release(&m);

    float bind[JOINTS][3];
    out->offset_x = offset_x;
    for (int i = 0; i < JOINTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "tentacle_%d", i);
        const float root[3] = {offset_x, 0, 0}, link[3] = {0, SEGMENT, 0};
        out->joints[i] = demo_add_node(b, name, i == 0 ? root : link);
        if (i > 0) demo_set_children(b, out->joints[i - 1], &out->joints[i], 1);
        bind[i][0] = offset_x;
        bind[i][1] = SEGMENT * (float)i;
        bind[i][2] = 0;
    }
    int skin = demo_add_skin(b, "tentacle", out->joints, JOINTS, (const float(*)[3])bind);
    out->mesh_node = demo_add_skinned_mesh_node(b, "tentacle", mesh, skin);
    gltf_push_int(b, scene_nodes, out->mesh_node);
    gltf_push_int(b, scene_nodes, out->joints[0]);
}

/* What a curve needs to know: which joint it drives and where the tentacle stands. */
typedef struct joint_curve {
    int joint;
    float offset_x;
} joint_curve;

#define OMEGA (2 * DEMO_PI / OSSA_DEMO_DURATION)

/* A wave travelling up the chain: sideways (z) and forwards (x), a quarter period apart. */
static void wave(const void *user, double t, double value[4], double rate[4]) {
    const joint_curve *c = user;
    double phase = OMEGA * t - 0.55 * c->joint;
    double side = 0.2 * sin(phase), side_rate = 0.2 * OMEGA * cos(phase);
    double fore = 0.12 * cos(phase), fore_rate = -0.12 * OMEGA * sin(phase);
    double qz[4], qx[4], dqz[4], dqx[4], a[4], b2[4];
    demo_quat_axis(2, side, qz);
    demo_quat_axis(0, fore, qx);
    demo_quat_axis_rate(2, side, side_rate, dqz);
    demo_quat_axis_rate(0, fore, fore_rate, dqx);
    demo_quat_mul(qz, qx, value);
    demo_quat_mul(dqz, qx, a); /* product rule */
    demo_quat_mul(qz, dqx, b2);
    for (int i = 0; i < 4; i++)
        rate[i] = a[i] + b2[i];
}

/* The root rises and sinks a little. */
static void bob(const void *user, double t, double value[4], double rate[4]) {
    const joint_curve *c = user;
    value[0] = c->offset_x;
    value[1] = 0.04 * (1 - cos(OMEGA * t));
    value[2] = 0;
    rate[0] = rate[2] = 0;
    rate[1] = 0.04 * OMEGA * sin(OMEGA * t);
}

/* Curling forwards (about x), more strongly towards the tip, and back. */
static void curl(const void *user, double t, double value[4], double rate[4]) {
    const joint_curve *c = user;
    double amount = 0.12 + 0.035 * c->joint;
    double k = 0.5 * (1 - cos(OMEGA * t)), k_rate = 0.5 * OMEGA * sin(OMEGA * t);
    demo_quat_axis(0, amount * k, value);
    demo_quat_axis_rate(0, amount * k, amount * k_rate, rate);
}

/* The tip swells while the tentacle curls. */
static void swell(const void *user, double t, double value[4], double rate[4]) {
    (void)user;
    double s = 1 + 0.25 * (1 - cos(OMEGA * t)), s_rate = 0.25 * OMEGA * sin(OMEGA * t);
    for (int i = 0; i < 3; i++) {
        value[i] = s;
        rate[i] = s_rate;
    }
}

/* Four held poses: straight, bent left, an S, bent right (then straight again). */
static void snap(const void *user, double t, double value[4], double rate[4]) {
    const joint_curve *c = user;
    int pose = (int)floor(t / (OSSA_DEMO_DURATION / 4.0) + 1e-6) % 4;
    double angle = 0;
    if (pose == 1) angle = 0.14;
    if (pose == 2) angle = 0.3 * sin(2 * DEMO_PI * c->joint / JOINTS);
    if (pose == 3) angle = -0.14;
    demo_quat_axis(2, angle, value);
    rate[0] = rate[1] = rate[2] = rate[3] = 0;
}

void demo_tentacle_animate(gltf_builder *b, demo_animation *animation, demo_clip clip,
                           const demo_tentacle *tentacle) {
    const double d = OSSA_DEMO_DURATION;
    joint_curve curves[JOINTS];
    for (int i = 0; i < JOINTS; i++) {
        curves[i].joint = i;
        curves[i].offset_x = tentacle->offset_x;
        int node = tentacle->joints[i];
        switch (clip) {
        case DEMO_CLIP_IDLE:
            demo_animation_curve(b, animation, node, DEMO_ROTATION, DEMO_LINEAR, 17, d, wave,
                                 &curves[i]);
            break;
        case DEMO_CLIP_GUST:
            demo_animation_curve(b, animation, node, DEMO_ROTATION, DEMO_CUBICSPLINE, 9, d, curl,
                                 &curves[i]);
            break;
        case DEMO_CLIP_TICK:
            demo_animation_curve(b, animation, node, DEMO_ROTATION, DEMO_STEP, 5, d, snap,
                                 &curves[i]);
            break;
        }
    }
    if (clip == DEMO_CLIP_IDLE)
        demo_animation_curve(b, animation, tentacle->joints[0], DEMO_TRANSLATION, DEMO_LINEAR, 9, d,
                             bob, &curves[0]);
    if (clip == DEMO_CLIP_GUST)
        demo_animation_curve(b, animation, tentacle->joints[JOINTS - 1], DEMO_SCALE,
                             DEMO_CUBICSPLINE, 9, d, swell, NULL);
}
