#include "motion_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

int motion_model_load(const char *relative, motion_model *m) {
    memset(m, 0, sizeof *m);
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(ossa_test_shared_path(relative), NULL, &doc, &error) != OSSA_OK)
        return -1;
    ossa_result r = ossa_model_create(doc, NULL, &m->model, &error);
    ossa_document_free(doc);
    if (r != OSSA_OK) return -1;
    m->rig = ossa_model_rig(m->model);
    return ossa_character_create(m->model, &m->character, &error) == OSSA_OK ? 0 : -1;
}

void motion_model_free(motion_model *m) {
    ossa_character_free(m->character);
    ossa_model_free(m->model);
    memset(m, 0, sizeof *m);
}

ossa_root_motion_desc motion_root_desc(const motion_model *m, const char *node) {
    ossa_root_motion_desc desc = {0};
    desc.node = ossa_model_find_node(m->model, node);
    CHECKF(desc.node >= 0, "node %s", node);
    if (desc.node < 0) return desc;
    ossa_character_update(m->character, NULL, 0, OSSA_WRAP_CLAMP, NULL); /* rest pose */
    int32_t parent = m->rig->parent[desc.node];
    if (parent < 0) {
        desc.up[1] = 1;
        return desc;
    }
    /* The parent's world rows: up in its space is the column of world Y through its inverse,
     * i.e. the row 1 of the linear part, divided by the squared column lengths. */
    const float *w = ossa_character_world(m->character) + 12 * (size_t)parent;
    for (int c = 0; c < 3; c++) {
        double col2 =
            (double)w[c] * w[c] + (double)w[4 + c] * w[4 + c] + (double)w[8 + c] * w[8 + c];
        desc.up[c] = (float)(w[4 + c] / col2);
    }
    return desc;
}

double motion_distance(const ossa_motion *a, const ossa_motion *b) {
    double d = 0, plus = 0, minus = 0;
    for (int c = 0; c < 3; c++)
        d = fmax(d, fabs(a->translation[c] - b->translation[c]));
    for (int c = 0; c < 4; c++) {
        plus = fmax(plus, fabs(a->rotation[c] - b->rotation[c]));
        minus = fmax(minus, fabs(a->rotation[c] + b->rotation[c]));
    }
    return fmax(d, fmin(plus, minus));
}

double trs_distance(const ossa_trs *a, const ossa_trs *b) {
    double d = 0, plus = 0, minus = 0;
    for (int c = 0; c < 3; c++) {
        d = fmax(d, fabs((double)a->translation[c] - b->translation[c]));
        d = fmax(d, fabs((double)a->scale[c] - b->scale[c]));
    }
    for (int c = 0; c < 4; c++) {
        plus = fmax(plus, fabs((double)a->rotation[c] - b->rotation[c]));
        minus = fmax(minus, fabs((double)a->rotation[c] + b->rotation[c]));
    }
    return fmax(d, fmin(plus, minus));
}

static void quat_matrix(const double *q, double m[3][3]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - z * w), m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w), m[2][1] = 2 * (y * z + x * w), m[2][2] = 1 - 2 * (x * x + y * y);
}

/* The unit quaternion of a rotation matrix (Shepperd's method). */
static void matrix_quat(double m[3][3], double *q) {
    double trace = m[0][0] + m[1][1] + m[2][2];
    if (trace > 0) {
        double s = 2 * sqrt(1 + trace);
        q[3] = s / 4, q[0] = (m[2][1] - m[1][2]) / s, q[1] = (m[0][2] - m[2][0]) / s,
        q[2] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double s = 2 * sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
        q[3] = (m[2][1] - m[1][2]) / s, q[0] = s / 4, q[1] = (m[0][1] + m[1][0]) / s,
        q[2] = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        double s = 2 * sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
        q[3] = (m[0][2] - m[2][0]) / s, q[0] = (m[0][1] + m[1][0]) / s, q[1] = s / 4,
        q[2] = (m[1][2] + m[2][1]) / s;
    } else {
        double s = 2 * sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
        q[3] = (m[1][0] - m[0][1]) / s, q[0] = (m[0][2] + m[2][0]) / s,
        q[1] = (m[1][2] + m[2][1]) / s, q[2] = s / 4;
    }
}

void motion_compose_by_matrix(const ossa_motion *a, const ossa_motion *b, ossa_motion *out) {
    double ma[3][3], mb[3][3], m[3][3], t[3];
    quat_matrix(a->rotation, ma);
    quat_matrix(b->rotation, mb);
    for (int r = 0; r < 3; r++) {
        t[r] = a->translation[r];
        for (int c = 0; c < 3; c++) {
            t[r] += ma[r][c] * b->translation[c];
            m[r][c] = 0;
            for (int k = 0; k < 3; k++)
                m[r][c] += ma[r][k] * mb[k][c];
        }
    }
    memcpy(out->translation, t, sizeof t);
    matrix_quat(m, out->rotation);
}

ossa_trs motion_to_trs(const ossa_motion *m, const float *scale) {
    ossa_trs t;
    for (int c = 0; c < 3; c++)
        t.translation[c] = (float)m->translation[c], t.scale[c] = scale[c];
    for (int c = 0; c < 4; c++)
        t.rotation[c] = (float)m->rotation[c];
    return t;
}
