/* The "primitives" part of `ossa sample --json`: morphed and skinned world-space vertices. */
#ifndef OSSA_TOOL_SAMPLE_PRIMITIVES_H
#define OSSA_TOOL_SAMPLE_PRIMITIVES_H

#include <stdint.h>
#include <stdio.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/result.h"
#include "ossa/rig.h"

/* Which vertices to print: every vertex (all != 0), or the listed indices of each primitive
 * (indices past a primitive's vertex count are skipped). */
typedef struct sample_vertex_filter {
    int all;
    const uint32_t *indices;
    uint32_t count;
} sample_vertex_filter;

/* One sampled frame, everything in rig order (see ossa/rig.h for the maps to glTF indices). */
typedef struct sample_frame {
    const ossa_rig *rig;
    const ossa_clip *clip; /* the sampled clip, NULL when the model has no animation */
    const ossa_pose *pose; /* local TRS and morph weights (rig->weight_offset per rig node) */
    const float *world;    /* 12 floats (3x4 rows) per rig node */
    const float *palettes; /* world-space palettes world(joint) * IBM, 12 floats per joint,
                              skins one after another in skin order */
    const uint32_t *palette_offset; /* first float of skin s in palettes */
    int32_t animation;              /* glTF animation index of clip, -1 without a clip */
} sample_frame;

/* Writes the JSON array of "primitives" for one sample (the value only, e.g. "[...]").
 * Returns 0 on success; otherwise fills error and returns non-zero. */
int sample_write_primitives(FILE *out, const ossa_document *doc, const sample_frame *frame,
                            const sample_vertex_filter *filter, ossa_error *error);

#endif
