/* Helpers of the IK suites (ik_test_util.h). */
#include "ik_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

ik_subject ik_subject_load(const char *relative) {
    ik_subject s;
    memset(&s, 0, sizeof s);
    ossa_document *doc = NULL;
    int loaded =
        ossa_document_load_file(ossa_test_shared_path(relative), NULL, &doc, NULL) == OSSA_OK;
    CHECKF(loaded, "%s loads", relative);
    if (!loaded) return s;
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skip_cpu_skinning = 1;
    CHECK(ossa_model_create(doc, &desc, &s.model, NULL) == OSSA_OK);
    ossa_document_free(doc);
    if (s.model) {
        CHECK(ossa_character_create(s.model, &s.character, NULL) == OSSA_OK);
        s.rig = ossa_model_rig(s.model);
    }
    return s;
}

void ik_subject_free(ik_subject *s) {
    ossa_character_free(s->character);
    ossa_model_free(s->model);
    memset(s, 0, sizeof *s);
}

int32_t ik_node(const ik_subject *s, const char *name) {
    int32_t node = ossa_model_find_node(s->model, name);
    CHECKF(node >= 0, "node \"%s\" exists", name);
    return node;
}

double ik_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

void ik_random_unit(uint64_t *state, double out[3]) {
    double n;
    do {
        for (int i = 0; i < 3; i++)
            out[i] = 2.0 * ik_random(state) - 1.0;
        n = ik_norm(out);
    } while (n < 0.1 || n > 1.0);
    for (int i = 0; i < 3; i++)
        out[i] /= n;
}

void ik_world_position(const ossa_character *c, int32_t node, double out[3]) {
    const float *m = ossa_character_world(c) + 12 * node;
    out[0] = m[3], out[1] = m[7], out[2] = m[11];
}

void ik_world_vector(const ossa_character *c, int32_t node, const float v[3], double out[3]) {
    const float *m = ossa_character_world(c) + 12 * node;
    for (int r = 0; r < 3; r++)
        out[r] =
            (double)m[4 * r] * v[0] + (double)m[4 * r + 1] * v[1] + (double)m[4 * r + 2] * v[2];
}

void ik_world_point(const ossa_character *c, int32_t node, const float p[3], double out[3]) {
    const float *m = ossa_character_world(c) + 12 * node;
    ik_world_vector(c, node, p, out);
    for (int r = 0; r < 3; r++)
        out[r] += m[4 * r + 3];
}

double ik_dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

double ik_norm(const double a[3]) {
    return sqrt(ik_dot3(a, a));
}

void ik_sub3(const double a[3], const double b[3], double out[3]) {
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}

double ik_distance(const double a[3], const double b[3]) {
    double d[3];
    ik_sub3(a, b, d);
    return ik_norm(d);
}

void ik_cross3(const double a[3], const double b[3], double out[3]) {
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x, out[1] = y, out[2] = z;
}

double ik_angle(const double a[3], const double b[3]) {
    double c[3];
    ik_cross3(a, b, c);
    return atan2(ik_norm(c), ik_dot3(a, b));
}

ossa_trs *ik_pose_copy(const ik_subject *s) {
    size_t bytes = s->rig->node_count * sizeof(ossa_trs);
    ossa_trs *copy = malloc(bytes);
    memcpy(copy, ossa_character_pose(s->character)->local, bytes);
    return copy;
}

float *ik_world_copy(const ik_subject *s) {
    size_t bytes = 12 * sizeof(float) * s->rig->node_count;
    float *copy = malloc(bytes);
    memcpy(copy, ossa_character_world(s->character), bytes);
    return copy;
}

int ik_in_subtree(const ossa_rig *rig, int32_t ancestor, int32_t node) {
    for (int32_t n = node; n >= 0; n = rig->parent[n])
        if (n == ancestor) return 1;
    return 0;
}
