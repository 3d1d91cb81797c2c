/* A model drawn as N animated characters with libossa-gl: the model, its characters, their
 * places on the ground, the GPU model and its instance buffers. Shared by render and view. */
#ifndef OSSA_TOOL_RENDER_SCENE_H
#define OSSA_TOOL_RENDER_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/gl.h"
#include "ossa/model.h"
#include "render_markers.h"
#include "sample_mix.h"

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
    float *cpu_positions, *cpu_normals; /* CPU skinning output (largest primitive) */
    uint32_t cpu_capacity;
    uint32_t selection_count;    /* clips played together as RENDER_SCENE_SELECTION */
    const ossa_clip **selection; /* selection_count */
    float *selection_times;      /* selection_count, scratch of evaluate */
    sample_mix *mix; /* NULL, or a mix every character plays; evaluate's times are mix clocks */
    /* With a mix's IK entries: their targets (small cubes) and ground planes (flat boxes). */
    render_markers targets, grounds;
    int has_markers;
} render_scene;

/* The clip argument meaning the selected clips, played together on one timeline. */
#define RENDER_SCENE_SELECTION (-2)

/* What render_scene_open loads and how. */
typedef struct render_scene_desc {
    const char *model; /* a path, NULL: the built-in demo */
    uint32_t instances;
    int cpu_skinning; /* prepare skinning on the CPU by `method` instead of the GPU's */
    ossa_gpu_skinning_method method;
    int compact; /* ossa_model_desc::compact_clips (each clip's bytes and error printed) */
    int allow_unsafe_paths; /* ossa_load_options::allow_unsafe_paths */
} render_scene_desc;

/* Loads the model, prints its warnings on stderr ("warning: MODEL: JSON-PATH: message", the
 * path as given) and uploads it for desc->instances characters. Prints the reason ("error:
 * MODEL: ...") and returns 0 on failure. */
int render_scene_open(render_scene *scene, ossa_gpu_context *context,
                      const render_scene_desc *desc);

void render_scene_close(render_scene *scene);

/* Clips of the model. */
uint32_t render_scene_clip_count(const render_scene *scene);

/* Clip `clip`, NULL for -1 (the rest pose), the selection or out of range. */
const ossa_clip *render_scene_clip(const render_scene *scene, int clip);

/* Selects clips (model indices, each < the clip count) to play together as
 * RENDER_SCENE_SELECTION: the rest pose, then each clip writes what it animates
 * (ossa_clips_sample). Returns 0 when memory runs out. */
int render_scene_select(render_scene *scene, const uint32_t *clips, uint32_t count);

/* The time range of what `clip` plays (a clip or the selection: first to last key over its
 * clips); 0 for the rest pose. */
int render_scene_range(const render_scene *scene, int clip, double *start, double *duration);

/* The time at `clock` of what `clip` plays: looped or clamped into its range (0: rest pose). */
double render_scene_time(const render_scene *scene, int clip, double clock, int loop);

/* Plays clip `clip` (-1: rest pose; RENDER_SCENE_SELECTION: the selected clips, each clamped
 * to its own range) on every character at times[i] (clip seconds). */
void render_scene_evaluate(render_scene *scene, int clip, const double *times);

/* Streams the characters' palettes and weights, each placed at its spot on the grid. */
int render_scene_upload(render_scene *scene);

/* Draws every character: GPU skinning (with the given path and method) or, with cpu_skinning,
 * vertices skinned on the CPU by ossa_character_skin (LBS or DQS as `method` says). */
int render_scene_draw(render_scene *scene, ossa_gpu_renderer *renderer, ossa_gpu_palette_path path,
                      ossa_gpu_skinning_method method, int cpu_skinning);

/* With a mix: opens the markers of its IK entries (after render_scene_bounds, which sets the
 * size they are drawn at); returns 0 on failure. */
int render_scene_open_markers(render_scene *scene);

/* Draws the IK targets of character 0 as it was last evaluated, and under it the ground planes
 * of its entries. */
int render_scene_draw_markers(render_scene *scene, ossa_gpu_renderer *renderer);

/* The root's world position of character 0 as last evaluated, without its height: where a
 * camera following root motion looks (0 without a mix with root motion). */
void render_scene_root_ground(const render_scene *scene, float out[3]);

/* Box around the skinned vertices of every instance over `samples` times of the clip; sets the
 * spacing of the instances from the first call on. */
void render_scene_bounds(render_scene *scene, int clip, int samples, float lo[3], float hi[3]);

/* The clip's name, or "animation K" / "rest pose". */
const char *render_scene_clip_name(const render_scene *scene, int clip, char *buf, size_t size);

#endif
