/* Command-line options of `ossa render` and `ossa view`. */
#ifndef OSSA_TOOL_RENDER_OPTIONS_H
#define OSSA_TOOL_RENDER_OPTIONS_H

#include "anim_select.h"
#include "ossa/gl.h"
#include "render_scene.h"

typedef struct render_options {
    const char *model; /* NULL: the built-in demo */
    const char *output;
    anim_select anim;
    double fps;
    double duration; /* < 0: the clip's */
    int frames;      /* < 0: duration * fps */
    int width, height;
    unsigned instances;
    int cpu_skinning;
    ossa_gpu_palette_path path;
    ossa_gpu_skinning_method method;
    double time; /* start (clip seconds); NAN: the clip's start */
    int grid;
    int bench;
    const char *screenshot; /* view only */
    int allow_unsafe_paths; /* buffer and image URIs may leave the model's folder */
    const char *mix;        /* a mix file: every character plays its mixed pose (mix clocks) */
    int compact;            /* the model's clips in compact form */
} render_options;

/* Parses argv[1..] into options (defaults first). Prints the problem and returns 0 on error;
 * returns -1 after printing help for --help. `view` accepts --screenshot instead of -o. */
int render_options_parse(render_options *o, int argc, char **argv, int view);

/* Opens the scene of the options for `instances` characters and selects what --anim plays.
 * Returns EXIT_OK, EXIT_USAGE (an --anim the model lacks) or EXIT_MODEL_ERROR, the problem
 * printed; the scene is to be closed in every case. */
int render_options_open_scene(const render_options *o, ossa_gpu_context *context,
                              uint32_t instances, const char *command, render_scene *scene);

/* What --anim plays in an open scene: a clip, RENDER_SCENE_SELECTION or -1 (rest pose). */
int render_options_clip(const render_options *o, const render_scene *scene);

#endif
