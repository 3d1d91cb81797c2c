/* A model prepared for drawing N animated characters: document, rig, clips, GPU meshes, and
 * the per-frame palettes and morph weights of every instance. Shared by render and view. */
#ifndef OSSA_TOOL_RENDER_SCENE_H
#define OSSA_TOOL_RENDER_SCENE_H

#include <stdint.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/gl.h"
#include "ossa/rig.h"
#include "ossa/skin.h"

/* A node that draws a mesh. */
typedef struct render_drawable {
    int32_t rig_node;
    int32_t skin; /* -1: unskinned, drawn with its world matrix as a one-joint palette */
    uint32_t joint_count;
    uint32_t palette_base; /* first joint of instance 0 */
    uint32_t weight_count;
    uint32_t weights_base; /* first morph weight of instance 0 */
    ossa_gpu_mesh *gpu;
    ossa_skin_mesh **cpu; /* per primitive, built for CPU skinning only */
    uint32_t primitive_count;
} render_drawable;

typedef struct render_scene {
    ossa_document *document;
    ossa_rig *rig;
    ossa_clip_set *clips;
    ossa_gpu_context *context;
    ossa_gpu_frame_data *frame;
    render_drawable *drawables;
    uint32_t drawable_count;
    uint32_t instances;
    float spacing; /* distance between instances on the ground grid */
    /* per frame */
    ossa_trs *local;
    float *pose_weights;
    float *world;
    uint32_t *cursor_keys; /* instances * cursor stride */
    uint32_t cursor_stride;
    float *palette; /* every drawable's instances, then one identity joint */
    uint32_t palette_joints;
    float *weights;
    uint32_t weight_total;
    float *cpu_positions, *cpu_normals; /* scratch for CPU skinning (largest primitive) */
} render_scene;

/* Loads MODEL (NULL: the built-in demo) and uploads its meshes for `instances` characters.
 * cpu_skinning also prepares CPU skinning meshes. Prints the reason and returns 0 on failure. */
int render_scene_open(render_scene *scene, ossa_gpu_context *context, const char *model,
                      uint32_t instances, int cpu_skinning);

void render_scene_close(render_scene *scene);

/* Samples clip `clip` (-1: rest pose) for every instance at times[i] (clip seconds) and builds
 * palettes and weights; instance i stands at its place on the grid. Uploads them when upload. */
void render_scene_evaluate(render_scene *scene, int clip, const float *times, int upload);

/* Draws every instance: GPU skinning (with the given path and method) or, with cpu_skinning,
 * vertices skinned by skin.h and drawn unskinned. */
void render_scene_draw(render_scene *scene, ossa_gpu_renderer *renderer, ossa_gpu_palette_path path,
                       ossa_gpu_skinning_method method, int cpu_skinning);

/* Box around the skinned vertices of every instance over `samples` times of the clip. */
void render_scene_bounds(render_scene *scene, int clip, int samples, float lo[3], float hi[3]);

/* The clip's name, or "animation K" / "rest pose". */
const char *render_scene_clip_name(const render_scene *scene, int clip, char *buf, size_t size);

#endif
