/* Keyframed animation channels computed from analytic curves. */
#ifndef OSSA_DEMO_ANIM_H
#define OSSA_DEMO_ANIM_H

#include "gltf_builder.h"

typedef enum demo_interp { DEMO_LINEAR, DEMO_STEP, DEMO_CUBICSPLINE } demo_interp;
typedef enum demo_path { DEMO_TRANSLATION, DEMO_ROTATION, DEMO_SCALE } demo_path;

/*
 * A curve: the value (3 floats, or 4 for a rotation quaternion x, y, z, w) at time t in
 * seconds, and its rate of change per second (used as CUBICSPLINE tangents).
 */
typedef void (*demo_curve_fn)(const void *user, double t, double value[4], double rate[4]);

/* One glTF animation being filled with channels. */
typedef struct demo_animation {
    cJSON *channels, *samplers;
} demo_animation;

/* Appends an animation with this name; channels are added with demo_animation_curve. */
demo_animation demo_animation_begin(gltf_builder *b, const char *name);

/*
 * Samples curve at key_count keys evenly spaced over [0, duration] and adds a sampler and a
 * channel animating path of node. CUBICSPLINE keys carry the rate as in- and out-tangent,
 * so the spline follows the curve's slope.
 */
void demo_animation_curve(gltf_builder *b, demo_animation *animation, int node, demo_path path,
                          demo_interp interp, int key_count, double duration, demo_curve_fn curve,
                          const void *user);

#endif
