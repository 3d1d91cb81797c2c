/* The built-in demo model: assembles the windmill and the tentacle into a GLB in memory. */
#include "ossa/demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "demo_scene.h"
#include "io/error.h"
#include "rig/owned.h"
#include "glb_writer.h"

/* Side by side, the models stand this far left and right of the origin. */
#define SPACING 2.2f

static const char *const clip_names[OSSA_DEMO_ANIMATIONS] = {"idle", "gust", "tick"};

static void fail(ossa_error *error, ossa_result code, const char *message) {
    ossa_error_set(error, code, "ossa-demo.glb", NULL, "%s", message);
}

/* Builds the whole document; returns 0 when an allocation failed. */
static int build(gltf_builder *b, ossa_demo_model model) {
    int windmill_on = model != OSSA_DEMO_TENTACLE, tentacle_on = model != OSSA_DEMO_WINDMILL;
    float shift = (windmill_on && tentacle_on) ? SPACING : 0.0f;
    cJSON *scene = gltf_append(b, b->scenes);
    gltf_set_string(b, scene, "name", ossa_demo_model_name(model));
    cJSON *scene_nodes = gltf_array(b, scene, "nodes");
    demo_windmill windmill;
    demo_tentacle tentacle;
    if (windmill_on) demo_windmill_build(b, -shift, scene_nodes, &windmill);
    if (tentacle_on) demo_tentacle_build(b, shift, scene_nodes, &tentacle);
    for (int clip = 0; clip < OSSA_DEMO_ANIMATIONS; clip++) {
        demo_animation animation = demo_animation_begin(b, clip_names[clip]);
        if (windmill_on) demo_windmill_animate(b, &animation, (demo_clip)clip, &windmill);
        if (tentacle_on) demo_tentacle_animate(b, &animation, (demo_clip)clip, &tentacle);
    }
    return !b->failed;
}

ossa_result ossa_demo_write_glb(const ossa_demo_desc *desc, void **bytes, size_t *size,
                                ossa_error *error) {
    static const ossa_demo_desc defaults = {0};
    if (!desc) desc = &defaults;
    if (!bytes || !size) {
        fail(error, OSSA_ERROR_ARGUMENT, "bytes and size must not be NULL");
        return OSSA_ERROR_ARGUMENT;
    }
    *bytes = NULL;
    *size = 0;
    if (!ossa_demo_model_name(desc->model)) {
        fail(error, OSSA_ERROR_ARGUMENT, "unknown demo model");
        return OSSA_ERROR_ARGUMENT;
    }
    gltf_builder b;
    char *json = NULL;
    int ok = gltf_builder_init(&b, "ossa demo") && build(&b, desc->model) &&
             (json = gltf_builder_print(&b)) != NULL &&
             glb_write(json, strlen(json), b.bin, b.bin_size, &desc->allocator, bytes, size);
    cJSON_free(json);
    gltf_builder_release(&b);
    if (!ok) {
        fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory while generating the demo model");
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    return OSSA_OK;
}

void ossa_demo_free_glb(const ossa_demo_desc *desc, void *bytes) {
    ossa_allocator a = ossa_allocator_resolve(desc ? &desc->allocator : NULL);
    ossa_free(&a, bytes);
}

ossa_result ossa_demo_load(const ossa_demo_desc *desc, ossa_document **out, ossa_error *error) {
    if (!out) {
        fail(error, OSSA_ERROR_ARGUMENT, "out must not be NULL");
        return OSSA_ERROR_ARGUMENT;
    }
    *out = NULL;
    void *bytes;
    size_t size;
    ossa_result result = ossa_demo_write_glb(desc, &bytes, &size, error);
    if (result != OSSA_OK) return result;
    ossa_load_options options = {0};
    if (desc) options.allocator = desc->allocator;
    options.name = "ossa-demo.glb";
    result = ossa_document_load_memory(bytes, size, &options, out, error);
    ossa_demo_free_glb(desc, bytes);
    return result;
}

const char *ossa_demo_model_name(ossa_demo_model model) {
    switch (model) {
    case OSSA_DEMO_BOTH:
        return "both";
    case OSSA_DEMO_WINDMILL:
        return "windmill";
    case OSSA_DEMO_TENTACLE:
        return "tentacle";
    }
    return NULL;
}

int ossa_demo_model_parse(const char *name, ossa_demo_model *model) {
    static const ossa_demo_model all[] = {OSSA_DEMO_BOTH, OSSA_DEMO_WINDMILL, OSSA_DEMO_TENTACLE};
    for (size_t i = 0; name && i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(name, ossa_demo_model_name(all[i]))) {
            *model = all[i];
            return 1;
        }
    return 0;
}
