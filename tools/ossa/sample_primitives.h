/* The "primitives" part of `ossa sample --json`: morphed and skinned world-space vertices. */
#ifndef OSSA_TOOL_SAMPLE_PRIMITIVES_H
#define OSSA_TOOL_SAMPLE_PRIMITIVES_H

#include <stdint.h>
#include <stdio.h>

#include "ossa/sample.h"
#include "ossa/document.h"
#include "ossa/result.h"
#include "ossa/rig.h"

/* Which vertices to print: every vertex (all != 0), or the listed indices of each primitive
 * (indices past a smaller primitive's vertex count are left out of it; ossa sample refuses an
 * index past every primitive's count). */
typedef struct sample_vertex_filter {
    int all;
    const uint32_t *indices;
    uint32_t count;
} sample_vertex_filter;

/* One sampled frame, everything in rig order (see ossa/rig.h for the maps to glTF indices). */
typedef struct sample_frame {
    const ossa_rig *rig;
    const uint32_t *animations; /* glTF indices of the sampled animations (played together) */
    uint32_t animation_count;   /* 0: the rest pose */
    const ossa_pose *pose;      /* local TRS and morph weights (rig->weight_offset per rig node) */
    const float *world;         /* 12 floats (3x4 rows) per rig node */
    const float *palettes;      /* world-space palettes world(joint) * IBM, 12 floats per joint,
                                   skins one after another in skin order */
    const uint32_t *palette_offset; /* first float of skin s in palettes */
} sample_frame;

/* A float as a JSON number (nine significant digits, enough to read back the same float), or
 * null where JSON has none: NaN and infinity, which keys near the float range can give. */
void sample_json_float(FILE *out, double v);

/* Writes the JSON array of "primitives" for one sample (the value only, e.g. "[...]"), or with
 * `text` a line per listed vertex ("  node N mesh M primitive P vertex V position x y z
 * [normal x y z]"). Returns 0 on success; otherwise fills error and returns non-zero. */
int sample_write_primitives(FILE *out, const ossa_document *doc, const sample_frame *frame,
                            const sample_vertex_filter *filter, int text, ossa_error *error);

/* The largest vertex count of the primitives of the meshes that nodes use (0 without). */
uint64_t sample_largest_primitive(const ossa_document *doc);

#endif
