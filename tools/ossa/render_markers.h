/* Markers drawn beside the characters of `ossa render --mix`: unit cubes of one colour, each
 * placed by a 3x4 matrix (IK targets as small cubes, a slope as a flat box). */
#ifndef OSSA_TOOL_RENDER_MARKERS_H
#define OSSA_TOOL_RENDER_MARKERS_H

#include <stdint.h>

#include "ossa/gl.h"
#include "ossa/model.h"

typedef struct render_markers {
    ossa_model *model; /* one cube of side 1 centred on the origin */
    ossa_gpu_model *gpu;
    ossa_gpu_instances *instances;
    ossa_character **characters; /* capacity, all at the rest pose */
    uint32_t capacity;
} render_markers;

/* Builds and uploads the cube in this colour (RGB in [0, 1]) for up to `capacity` markers;
 * prints the reason and returns 0 on failure. */
int render_markers_open(render_markers *m, ossa_gpu_context *context, const float color[3],
                        uint32_t capacity);

void render_markers_close(render_markers *m);

/* Draws `count` cubes (at most the capacity), cube i moved by placements[12 i ...]. */
int render_markers_draw(render_markers *m, ossa_gpu_renderer *renderer, const float *placements,
                        uint32_t count);

#endif
