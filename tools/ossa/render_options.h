/* Command-line options of `ossa render` and `ossa view`. */
#ifndef OSSA_TOOL_RENDER_OPTIONS_H
#define OSSA_TOOL_RENDER_OPTIONS_H

#include "ossa/gl.h"

typedef struct render_options {
    const char *model; /* NULL: the built-in demo */
    const char *output;
    int anim;
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
    const char *mix;        /* a mix file: every character plays its mixed pose (mix clocks) */
} render_options;

/* Parses argv[1..] into options (defaults first). Prints the problem and returns 0 on error;
 * returns -1 after printing help for --help. `view` accepts --screenshot instead of -o. */
int render_options_parse(render_options *o, int argc, char **argv, int view);

#endif
