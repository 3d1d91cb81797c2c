/* Mesh construction for the demo model: vertices, triangles, flat-shaded hexahedra. */
#include "demo_mesh.h"

#include <stdlib.h>
#include <string.h>

#include "demo_math.h"

void demo_mesh_release(demo_mesh *m) {
    free(m->positions);
    free(m->normals);
    free(m->joints);
    free(m->weights);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

/* Grows one stream to capacity elements of size bytes; 0 on failure. */
static int grow(void **stream, uint32_t capacity, size_t size) {
    void *grown = realloc(*stream, (size_t)capacity * size);
    if (!grown) return 0;
    *stream = grown;
    return 1;
}

static int reserve_vertex(demo_mesh *m) {
    if (m->vertex_count < m->vertex_capacity) return 1;
    if (m->vertex_count >= 65535u) return 0; /* 65535 is primitive restart: never an index */
    uint32_t capacity = m->vertex_capacity ? m->vertex_capacity * 2 : 256;
    if (capacity > 65535u) capacity = 65535u;
    int ok = grow((void **)&m->positions, capacity, 3 * sizeof(float)) &&
             grow((void **)&m->normals, capacity, 3 * sizeof(float)) &&
             grow((void **)&m->joints, capacity, 4) &&
             grow((void **)&m->weights, capacity, 4 * sizeof(float));
    if (ok) m->vertex_capacity = capacity;
    return ok;
}

uint32_t demo_mesh_vertex(demo_mesh *m, const float position[3], const float normal[3],
                          const uint8_t joints[4], const float weights[4]) {
    if (m->failed || !reserve_vertex(m)) {
        m->failed = 1;
        return 0;
    }
    uint32_t v = m->vertex_count++;
    memcpy(m->positions + 3 * v, position, 3 * sizeof(float));
    memcpy(m->normals + 3 * v, normal, 3 * sizeof(float));
    memcpy(m->joints + 4 * v, joints, 4);
    memcpy(m->weights + 4 * v, weights, 4 * sizeof(float));
    return v;
}

void demo_mesh_triangle(demo_mesh *m, uint32_t a, uint32_t b, uint32_t c) {
    if (m->failed) return;
    if (m->index_count + 3 > m->index_capacity) {
        uint32_t capacity = m->index_capacity ? m->index_capacity * 2 : 768;
        if (!grow((void **)&m->indices, capacity, sizeof(uint16_t))) {
            m->failed = 1;
            return;
        }
        m->index_capacity = capacity;
    }
    m->indices[m->index_count++] = (uint16_t)a;
    m->indices[m->index_count++] = (uint16_t)b;
    m->indices[m->index_count++] = (uint16_t)c;
}

/* One face of the hexahedron: four corners in cyclic order; flipped to face away from the
 * centre. */
static void face(demo_mesh *m, const demo_hexahedron *h, const int q[4], const float centre[3],
                 uint8_t joint) {
    float e1[3], e2[3], n[3], out[3];
    demo_sub3(h->corner[q[2]], h->corner[q[0]], e1);
    demo_sub3(h->corner[q[3]], h->corner[q[1]], e2);
    demo_cross3(e1, e2, n);
    demo_sub3(h->corner[q[0]], centre, out);
    int flip = demo_dot3(n, out) < 0;
    if (flip) n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
    demo_normalize3(n);
    const uint8_t joints[4] = {joint, 0, 0, 0};
    const float weights[4] = {1, 0, 0, 0};
    uint32_t v[4];
    for (int i = 0; i < 4; i++)
        v[i] = demo_mesh_vertex(m, h->corner[q[flip ? 3 - i : i]], n, joints, weights);
    demo_mesh_triangle(m, v[0], v[1], v[2]);
    demo_mesh_triangle(m, v[0], v[2], v[3]);
}

void demo_mesh_hexahedron(demo_mesh *m, const demo_hexahedron *h, uint8_t joint) {
    static const int faces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                    {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
    float centre[3] = {0, 0, 0};
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 3; c++)
            centre[c] += h->corner[i][c] / 8;
    for (int f = 0; f < 6; f++)
        face(m, h, faces[f], centre, joint);
}

cJSON *demo_mesh_write(const demo_mesh *m, gltf_builder *b, cJSON *primitives, int material) {
    if (m->failed) b->failed = 1;
    if (b->failed) return NULL;
    int position =
        gltf_add_float_accessor(b, m->positions, m->vertex_count, "VEC3", 3, GLTF_ARRAY_BUFFER, 1);
    int normal =
        gltf_add_float_accessor(b, m->normals, m->vertex_count, "VEC3", 3, GLTF_ARRAY_BUFFER, 0);
    int joints =
        gltf_add_uint_accessor(b, m->joints, m->vertex_count, 1, "VEC4", 4, GLTF_ARRAY_BUFFER);
    int weights =
        gltf_add_float_accessor(b, m->weights, m->vertex_count, "VEC4", 4, GLTF_ARRAY_BUFFER, 0);
    int indices = gltf_add_uint_accessor(b, m->indices, m->index_count, 2, "SCALAR", 1,
                                         GLTF_ELEMENT_ARRAY_BUFFER);
    cJSON *primitive = gltf_append(b, primitives);
    cJSON *attributes = gltf_object(b, primitive, "attributes");
    gltf_set_number(b, attributes, "POSITION", position);
    gltf_set_number(b, attributes, "NORMAL", normal);
    gltf_set_number(b, attributes, "JOINTS_0", joints);
    gltf_set_number(b, attributes, "WEIGHTS_0", weights);
    gltf_set_number(b, primitive, "indices", indices);
    gltf_set_number(b, primitive, "material", material);
    return primitive;
}
