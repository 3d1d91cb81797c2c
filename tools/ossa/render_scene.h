/* A model drawn as N animated characters with libossa-gl: the model, its characters, their
 * places on the ground, the GPU model and its instance buffers. Shared by render and view. */
#ifndef OSSA_TOOL_RENDER_SCENE_H
#define OSSA_TOOL_RENDER_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/gl.h"
#include "ossa/model.h"

typedef struct render_scene {
    ossa_model *model;
    ossa_gpu_context *context;
    ossa_gpu_model *gpu;
    ossa_gpu_instances *gpu_instances;
    uint32_t instances;
    ossa_character **characters; /* instances */
    const ossa_clip **clips;     /* instances, for ossa_characters_update */
    double *clocks;              /* instances */
    float *placements;           /* 12 floats per instance: a translation on the ground grid */
    float spacing;               /* distance between instances on the ground grid */
    int double_sided;            /* a material of the model is double-sided */
    float *cpu_positions, *cpu_normals; /* CPU skinning output (largest primitive) */
    uint32_t cpu_capacity;
} render_scene;

/* Loads MODEL (NULL: the built-in demo) and uploads it for `instances` characters; with
 * cpu_skinning, prepares skinning on the CPU by `method` instead. Prints the reason and returns
 * 0 on failure. */
int render_scene_open(render_scene *scene, ossa_gpu_context *context, const char *model,
                      uint32_t instances, int cpu_skinning, ossa_gpu_skinning_method method);

void render_scene_close(render_scene *scene);

/* Clips of the model. */
uint32_t render_scene_clip_count(const render_scene *scene);

/* Clip `clip`, NULL for -1 (the rest pose) or out of range. */
const ossa_clip *render_scene_clip(const render_scene *scene, int clip);

/* Plays clip `clip` (-1: rest pose) on every character at times[i] (clip seconds). */
void render_scene_evaluate(render_scene *scene, int clip, const double *times);

/* Streams the characters' palettes and weights, each placed at its spot on the grid. */
int render_scene_upload(render_scene *scene);

/* Draws every character: GPU skinning (with the given path and method) or, with cpu_skinning,
 * vertices skinned on the CPU by ossa_character_skin (LBS or DQS as `method` says). */
int render_scene_draw(render_scene *scene, ossa_gpu_renderer *renderer, ossa_gpu_palette_path path,
                      ossa_gpu_skinning_method method, int cpu_skinning);

/* Box around the skinned vertices of every instance over `samples` times of the clip; sets the
 * spacing of the instances from the first call on. */
void render_scene_bounds(render_scene *scene, int clip, int samples, float lo[3], float hi[3]);

/* The clip's name, or "animation K" / "rest pose". */
const char *render_scene_clip_name(const render_scene *scene, int clip, char *buf, size_t size);

#endif
