/* Triangle lists, smooth normals and buffers for the mesh and model uploads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"

#include "influence_upload.h"

static int is_triangles(ossa_primitive_mode mode) {
    return mode == OSSA_MODE_TRIANGLES || mode == OSSA_MODE_TRIANGLE_STRIP ||
           mode == OSSA_MODE_TRIANGLE_FAN;
}

uint32_t *gpu_triangle_indices(const uint32_t *source, uint32_t n, ossa_primitive_mode mode,
                               uint32_t *count) {
    uint32_t triangles = mode == OSSA_MODE_TRIANGLES ? n / 3 : (n >= 3 ? n - 2 : 0);
    if (!is_triangles(mode)) triangles = 0; /* points and lines are skinned, never drawn */
    uint32_t *out = malloc(sizeof(uint32_t) * ((size_t)triangles * 3 + 1)); /* +1: never 0 bytes */
    if (!out) return NULL;
    for (uint32_t t = 0; t < triangles; t++) {
        uint32_t a, b, c;
        if (mode == OSSA_MODE_TRIANGLES) {
            a = 3 * t, b = 3 * t + 1, c = 3 * t + 2;
        } else if (mode == OSSA_MODE_TRIANGLE_STRIP) {
            /* keep the winding of every other triangle */
            a = t, b = t % 2 ? t + 2 : t + 1, c = t % 2 ? t + 1 : t + 2;
        } else { /* fan */
            a = 0, b = t + 1, c = t + 2;
        }
        out[3 * t] = source ? source[a] : a;
        out[3 * t + 1] = source ? source[b] : b;
        out[3 * t + 2] = source ? source[c] : c;
    }
    *count = triangles * 3;
    return out;
}

void gpu_compute_normals(const float *p, uint32_t vertex_count, const uint32_t *indices,
                         uint32_t index_count, float *n) {
    memset(n, 0, sizeof(float) * 3 * vertex_count);
    for (uint32_t i = 0; i + 2 < index_count; i += 3) {
        const float *a = p + 3 * indices[i], *b = p + 3 * indices[i + 1],
                    *c = p + 3 * indices[i + 2];
        float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float f[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                      u[0] * v[1] - u[1] * v[0]};
        for (int k = 0; k < 3; k++)
            for (int d = 0; d < 3; d++)
                n[3 * indices[i + k] + d] += f[d];
    }
    for (uint32_t v = 0; v < vertex_count; v++) {
        float len =
            sqrtf(n[3 * v] * n[3 * v] + n[3 * v + 1] * n[3 * v + 1] + n[3 * v + 2] * n[3 * v + 2]);
        for (int d = 0; d < 3; d++)
            n[3 * v + d] = len > 0 ? n[3 * v + d] / len : (d == 1);
    }
}

GLuint gpu_make_buffer(GLenum target, const void *data, size_t size, GLenum usage) {
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(target, buffer);
    glBufferData(target, (GLsizeiptr)size, data, usage);
    return buffer;
}

void gpu_primitive_set_vertices(gpu_primitive *p, const float *positions, const float *normals) {
    size_t bytes = sizeof(float) * 3 * p->vertex_count;
    glBindBuffer(GL_ARRAY_BUFFER, p->buffers[BUF_POSITION]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, positions);
    if (normals) {
        glBindBuffer(GL_ARRAY_BUFFER, p->buffers[BUF_NORMAL]);
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, normals);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void gpu_primitive_release(gpu_primitive *p) {
    glDeleteBuffers((GLsizei)(sizeof p->buffers / sizeof p->buffers[0]), p->buffers);
    if (p->targets_buffer) glDeleteBuffers(1, &p->targets_buffer);
    if (p->targets_texture) glDeleteTextures(1, &p->targets_texture);
    if (p->vao) glDeleteVertexArrays(1, &p->vao);
    gpu_influences_release(&p->influences);
}
