/* Marker cubes (render_markers.h): a glTF cube written here, loaded as a model. */
#include "render_markers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, const ossa_error *error) {
    char text[1024];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "ossa: %s: %s\n", what, text);
    return 0;
}

static void base64(const unsigned char *in, size_t n, char *out) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        *out++ = digits[v >> 18 & 63];
        *out++ = digits[v >> 12 & 63];
        *out++ = i + 1 < n ? digits[v >> 6 & 63] : '=';
        *out++ = i + 2 < n ? digits[v & 63] : '=';
    }
    *out = '\0';
}

/* 24 positions, 24 normals (a face's 4 corners share its normal), 36 uint16 indices. */
typedef struct cube_data {
    float positions[24][3];
    float normals[24][3];
    uint16_t indices[36];
} cube_data;

static void cube(cube_data *c) {
    for (int face = 0; face < 6; face++) {
        int axis = face / 2;
        float sign = face % 2 ? -1.0f : 1.0f;
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int k = 0; k < 4; k++) {
            float *p = c->positions[4 * face + k], *n = c->normals[4 * face + k];
            memset(p, 0, 3 * sizeof(float));
            memset(n, 0, 3 * sizeof(float));
            p[axis] = 0.5f * sign, n[axis] = sign;
            p[u] = 0.5f * corners[k][0] * sign, p[v] = 0.5f * corners[k][1];
        }
        static const int order[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            c->indices[6 * face + k] = (uint16_t)(4 * face + order[k]);
    }
}

static int build_model(render_markers *m, const float color[3]) {
    cube_data c;
    cube(&c);
    char data[4 * sizeof c / 3 + 8], json[8192];
    base64((const unsigned char *)&c, sizeof c, data);
    snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":"
        "{\"POSITION\":0,\"NORMAL\":1},\"indices\":2,\"material\":0}]}],"
        "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[%g,%g,%g,1]}}],"
        "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":288},"
        "{\"buffer\":0,\"byteOffset\":288,\"byteLength\":288},"
        "{\"buffer\":0,\"byteOffset\":576,\"byteLength\":72}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":24,\"type\":"
        "\"VEC3\",\"min\":[-0.5,-0.5,-0.5],\"max\":[0.5,0.5,0.5]},{\"bufferView\":1,"
        "\"componentType\":5126,\"count\":24,\"type\":\"VEC3\"},{\"bufferView\":2,"
        "\"componentType\":5123,\"count\":36,\"type\":\"SCALAR\"}]}",
        (double)color[0], (double)color[1], (double)color[2], sizeof c, data);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = ossa_document_load_memory(json, strlen(json), NULL, &doc, &error);
    if (r == OSSA_OK) r = ossa_model_create(doc, NULL, &m->model, &error);
    ossa_document_free(doc);
    return r == OSSA_OK || fail("building the marker cube", &error);
}

int render_markers_open(render_markers *m, ossa_gpu_context *context, const float color[3],
                        uint32_t capacity) {
    memset(m, 0, sizeof *m);
    if (!build_model(m, color)) return 0;
    ossa_error error;
    if (ossa_gpu_model_create(context, m->model, NULL, &m->gpu, &error) != OSSA_OK ||
        ossa_gpu_instances_create(m->gpu, &m->instances, &error) != OSSA_OK)
        return fail("uploading the marker cube", &error);
    m->characters = calloc(capacity ? capacity : 1, sizeof *m->characters);
    if (!m->characters) return 0;
    m->capacity = capacity;
    for (uint32_t i = 0; i < capacity; i++)
        if (ossa_character_create(m->model, &m->characters[i], &error) != OSSA_OK)
            return fail("creating markers", &error);
    return 1;
}

void render_markers_close(render_markers *m) {
    for (uint32_t i = 0; m->characters && i < m->capacity; i++)
        ossa_character_free(m->characters[i]);
    free(m->characters);
    ossa_gpu_instances_destroy(m->instances);
    ossa_gpu_model_destroy(m->gpu);
    ossa_model_free(m->model);
    memset(m, 0, sizeof *m);
}

int render_markers_draw(render_markers *m, ossa_gpu_renderer *renderer, const float *placements,
                        uint32_t count) {
    if (count > m->capacity) count = m->capacity;
    if (!count) return 1;
    ossa_error error;
    if (ossa_gpu_instances_upload(m->instances, m->characters, count, placements, &error) !=
            OSSA_OK ||
        ossa_gpu_renderer_draw_model(renderer, m->gpu, m->instances, NULL, &error) != OSSA_OK)
        return fail("drawing markers", &error);
    return 1;
}
