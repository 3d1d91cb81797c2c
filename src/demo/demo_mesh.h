/* Growable triangle mesh with the vertex streams of a skinned glTF primitive. */
#ifndef OSSA_DEMO_MESH_H
#define OSSA_DEMO_MESH_H

#include <stdint.h>

#include "gltf_builder.h"

typedef struct demo_mesh {
    float *positions; /* 3 per vertex */
    float *normals;   /* 3 per vertex, unit length */
    uint8_t *joints;  /* 4 per vertex (JOINTS_0) */
    float *weights;   /* 4 per vertex (WEIGHTS_0), summing to 1 */
    uint16_t *indices;
    uint32_t vertex_count, vertex_capacity;
    uint32_t index_count, index_capacity;
    int failed; /* an allocation failed or the mesh outgrew 16-bit indices */
} demo_mesh;

void demo_mesh_release(demo_mesh *m);

/* Adds a vertex and returns its index (0 once failed). */
uint32_t demo_mesh_vertex(demo_mesh *m, const float position[3], const float normal[3],
                          const uint8_t joints[4], const float weights[4]);

void demo_mesh_triangle(demo_mesh *m, uint32_t a, uint32_t b, uint32_t c);

/* Eight corners: corner[i] is the corner at (x, y, z) = (i & 1, (i >> 1) & 1, (i >> 2) & 1)
 * of a unit cube deformed into place (a box, a frustum, a wedge, a sail). */
typedef struct demo_hexahedron {
    float corner[8][3];
} demo_hexahedron;

/* Adds a flat-shaded hexahedron bound rigidly to one joint; faces are oriented outwards
 * whatever the corners' handedness. */
void demo_mesh_hexahedron(demo_mesh *m, const demo_hexahedron *h, uint8_t joint);

/*
 * Writes the mesh's streams as accessors and returns a primitive object (appended to the
 * primitives array) using the given material, or NULL once failed.
 */
cJSON *demo_mesh_write(const demo_mesh *m, gltf_builder *b, cJSON *primitives, int material);

#endif
