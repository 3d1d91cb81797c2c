/* Turns analytic curves into glTF samplers and channels. */
#include "demo_anim.h"

#include <stdlib.h>

demo_animation demo_animation_begin(gltf_builder *b, const char *name) {
    demo_animation animation;
    cJSON *obj = gltf_append(b, b->animations);
    gltf_set_string(b, obj, "name", name);
    animation.channels = gltf_array(b, obj, "channels");
    animation.samplers = gltf_array(b, obj, "samplers");
    return animation;
}

static const char *path_name(demo_path path) {
    switch (path) {
    case DEMO_TRANSLATION:
        return "translation";
    case DEMO_ROTATION:
        return "rotation";
    case DEMO_SCALE:
        return "scale";
    }
    return "";
}

static const char *interp_name(demo_interp interp) {
    switch (interp) {
    case DEMO_LINEAR:
        return "LINEAR";
    case DEMO_STEP:
        return "STEP";
    case DEMO_CUBICSPLINE:
        return "CUBICSPLINE";
    }
    return "";
}

void demo_animation_curve(gltf_builder *b, demo_animation *animation, int node, demo_path path,
                          demo_interp interp, int key_count, double duration, demo_curve_fn curve,
                          const void *user) {
    if (b->failed) return;
    int components = path == DEMO_ROTATION ? 4 : 3;
    int per_key = interp == DEMO_CUBICSPLINE ? 3 : 1; /* in-tangent, value, out-tangent */
    float *times = malloc((size_t)key_count * sizeof(float));
    float *values = malloc((size_t)key_count * (size_t)(per_key * components) * sizeof(float));
    if (!times || !values) {
        b->failed = 1;
        free(times);
        free(values);
        return;
    }
    for (int k = 0; k < key_count; k++) {
        /* The last key lands exactly on the duration so clips loop without a gap. */
        double t = k == key_count - 1 ? duration : duration * k / (key_count - 1);
        double value[4] = {0, 0, 0, 0}, rate[4] = {0, 0, 0, 0};
        curve(user, t, value, rate);
        times[k] = (float)t;
        float *out = values + (size_t)k * (size_t)(per_key * components);
        for (int c = 0; c < components; c++) {
            if (per_key == 3) {
                out[c] = (float)rate[c];
                out[components + c] = (float)value[c];
                out[2 * components + c] = (float)rate[c];
            } else {
                out[c] = (float)value[c];
            }
        }
    }
    int input = gltf_add_float_accessor(b, times, (uint32_t)key_count, "SCALAR", 1, 0, 1);
    int output = gltf_add_float_accessor(b, values, (uint32_t)(key_count * per_key),
                                         components == 4 ? "VEC4" : "VEC3", components, 0, 0);
    free(times);
    free(values);

    int sampler_index = gltf_next_index(animation->samplers);
    cJSON *sampler = gltf_append(b, animation->samplers);
    gltf_set_number(b, sampler, "input", input);
    gltf_set_string(b, sampler, "interpolation", interp_name(interp));
    gltf_set_number(b, sampler, "output", output);
    cJSON *channel = gltf_append(b, animation->channels);
    gltf_set_number(b, channel, "sampler", sampler_index);
    cJSON *target = gltf_object(b, channel, "target");
    gltf_set_number(b, target, "node", node);
    gltf_set_string(b, target, "path", path_name(path));
}
