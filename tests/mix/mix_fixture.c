#include "mix_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

int mix_model_load(const char *relative, mix_model *m) {
    memset(m, 0, sizeof *m);
    ossa_error error;
    if (ossa_document_load_file(ossa_test_shared_path(relative), NULL, &m->doc, &error) ||
        ossa_model_create(m->doc, NULL, &m->model, &error)) {
        fprintf(stderr, "%s: %s: %s\n", relative, error.path, error.message);
        mix_model_free(m);
        return 1;
    }
    m->rig = ossa_model_rig(m->model);
    m->clip_count = ossa_model_clip_count(m->model);
    return 0;
}

int mix_model_synthetic(mix_model *m) {
    memset(m, 0, sizeof *m);
    /* Accessors: 0 times [0 1], 1 time [0.5], 2 rotA, 3 rotAneg, 4 rotB, 5 transA, 6 scaleA,
     * 7 scaleB, 8 still translation. */
    static const float data[] = {
        0, 1, 0.5f,
        /* rotA: 30 degrees about x, 100 degrees about y */
        0.258819045f, 0, 0, 0.965925826f, 0, 0.766044443f, 0, 0.642787610f,
        /* rotAneg */
        -0.258819045f, -0, -0, -0.965925826f, -0, -0.766044443f, -0, -0.642787610f,
        /* rotB: far from A (negative dot products) */
        0.2f, 0.3f, -0.1f, -0.927361850f, -0.6f, 0, 0, -0.8f,
        /* transA, scaleA, scaleB, still */
        0, 1, 0, 2, 3, 4, 1, 1, 1, 2, 0.5f, 3, 0.5f, 0.5f, 0.5f, 1, 2, 1, 5, 6, 7};
    static const int comps[] = {1, 1, 4, 4, 4, 3, 3, 3, 3};
    static const int counts[] = {2, 1, 2, 2, 2, 2, 2, 2, 1};
    static const char *const types[] = {"SCALAR", "SCALAR", "VEC4", "VEC4", "VEC4",
                                        "VEC3",   "VEC3",   "VEC3", "VEC3"};
    char b64[512], views[2048] = "", accessors[2048] = "";
    ossa_test_base64((const unsigned char *)data, sizeof data, b64);
    size_t offset = 0;
    for (int a = 0; a < 9; a++) {
        size_t bytes = (size_t)counts[a] * (size_t)comps[a] * 4;
        snprintf(views + strlen(views), sizeof views - strlen(views),
                 "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", a ? "," : "", offset,
                 bytes);
        char minmax[64] = "";
        if (a == 0) snprintf(minmax, sizeof minmax, ",\"min\":[0],\"max\":[1]");
        if (a == 1) snprintf(minmax, sizeof minmax, ",\"min\":[0.5],\"max\":[0.5]");
        snprintf(accessors + strlen(accessors), sizeof accessors - strlen(accessors),
                 "%s{\"bufferView\":%d,\"componentType\":5126,\"count\":%d,\"type\":\"%s\"%s}",
                 a ? "," : "", a, counts[a], types[a], minmax);
        offset += bytes;
    }
    char json[8192];
    snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"name\":\"root\",\"children\":[1,3]},"
        "{\"name\":\"leg\",\"children\":[2],\"translation\":[1,0,0],"
        "\"rotation\":[0,0,0.382683432,0.923879533]},"
        "{\"name\":\"foot\",\"translation\":[0,-1,0],\"scale\":[1,2,1]},{\"name\":\"leg\"}],"
        "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
        "\"bufferViews\":[%s],\"accessors\":[%s],\"animations\":["
        "{\"name\":\"A\",\"samplers\":[{\"input\":0,\"output\":2},{\"input\":0,\"output\":5},"
        "{\"input\":0,\"output\":6}],\"channels\":["
        "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"translation\"}},"
        "{\"sampler\":2,\"target\":{\"node\":2,\"path\":\"scale\"}}]},"
        "{\"name\":\"Aneg\",\"samplers\":[{\"input\":0,\"output\":3},{\"input\":0,\"output\":5},"
        "{\"input\":0,\"output\":6}],\"channels\":["
        "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"translation\"}},"
        "{\"sampler\":2,\"target\":{\"node\":2,\"path\":\"scale\"}}]},"
        "{\"name\":\"B\",\"samplers\":[{\"input\":0,\"output\":4},{\"input\":0,\"output\":7}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"scale\"}}]},"
        "{\"name\":\"Still\",\"samplers\":[{\"input\":1,\"output\":8}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"translation\"}}]}]}",
        sizeof data, b64, views, accessors);
    ossa_error error;
    if (ossa_document_load_memory(json, strlen(json), NULL, &m->doc, &error) ||
        ossa_model_create(m->doc, NULL, &m->model, &error)) {
        fprintf(stderr, "synthetic model: %s: %s\n", error.path, error.message);
        mix_model_free(m);
        return 1;
    }
    m->rig = ossa_model_rig(m->model);
    m->clip_count = ossa_model_clip_count(m->model);
    return 0;
}

void mix_model_free(mix_model *m) {
    ossa_model_free(m->model);
    ossa_document_free(m->doc);
    memset(m, 0, sizeof *m);
}

const ossa_clip *mix_model_clip_at(const mix_model *m, uint32_t k) {
    return ossa_model_clip(m->model, k);
}

const ossa_clip *mix_model_clip(const mix_model *m, const char *name) {
    int32_t k = ossa_model_find_clip(m->model, name);
    return k < 0 ? NULL : ossa_model_clip(m->model, (uint32_t)k);
}

int mix_model_node(const mix_model *m, const char *name) {
    for (uint32_t g = 0; g < m->doc->node_count; g++)
        if (m->doc->nodes[g].name && !strcmp(m->doc->nodes[g].name, name)) return (int)g;
    return -1;
}

ossa_pose mix_pose_alloc(const ossa_rig *rig) {
    ossa_pose pose = {calloc(rig->node_count + 1, sizeof(ossa_trs)),
                      calloc(rig->weight_total + 1, sizeof(float))};
    return pose;
}

void mix_pose_free(ossa_pose *pose) {
    free(pose->local);
    free(pose->weights);
}

ossa_result mix_eval(const ossa_rig *rig, const ossa_mix_desc *desc, double clock,
                     ossa_pose *pose) {
    ossa_mix *mix;
    ossa_error error;
    ossa_result r = ossa_mix_create(rig, desc, &mix, &error);
    if (r != OSSA_OK) return r;
    size_t size = ossa_mix_scratch_size(mix);
    void *scratch = aligned_alloc(16, (size + 16) & ~(size_t)15);
    memset(scratch, 0xA5, size); /* any content is allowed */
    ossa_mix_sample(mix, clock, scratch, pose);
    free(scratch);
    ossa_mix_free(mix);
    return OSSA_OK;
}

/* ---- the reference, from the formulas ---- */

static double curve(const ossa_mix_layer *l, double t) {
    if (l->weight_count == 0) return 1;
    const ossa_mix_point *p = l->weights;
    if (t <= p[0].time) return p[0].weight;
    for (uint32_t i = 1; i < l->weight_count; i++)
        if (t <= p[i].time)
            return p[i - 1].weight + (p[i].weight - p[i - 1].weight) * (t - p[i - 1].time) /
                                         (p[i].time - p[i - 1].time);
    return p[l->weight_count - 1].weight;
}

static int same_group(const ossa_mix_layer *a, const ossa_mix_layer *b) {
    return a->sync && b->sync && *a->sync && !strcmp(a->sync, b->sync);
}

/* 1 / D(t) of the group of layer k (0 when every weight is 0). */
static double inverse_duration(const ossa_mix_desc *desc, uint32_t k, double t) {
    double w = 0, n = 0;
    for (uint32_t i = 0; i < desc->layer_count; i++) {
        if (!same_group(&desc->layers[i], &desc->layers[k])) continue;
        double wi = curve(&desc->layers[i], t);
        w += wi;
        n += wi * (double)ossa_clip_duration(desc->layers[i].clip);
    }
    return n > 0 ? w / n : 0;
}

/* 5-point Gauss-Legendre of 1 / D on [a, b]. */
static double gauss5(const ossa_mix_desc *desc, uint32_t k, double a, double b) {
    static const double x[5] = {0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                                0.9061798459386640};
    static const double w[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                                0.2369268850561891, 0.2369268850561891};
    double sum = 0, mid = (a + b) / 2, half = (b - a) / 2;
    for (int q = 0; q < 5; q++)
        sum += w[q] * half * inverse_duration(desc, k, mid + x[q] * half);
    return sum;
}

/* integral_a^b of 1 / D, halving intervals until two levels agree to 1e-13 (the integrand can
 * change fast where every weight but a tiny one vanishes). */
static double gauss(const ossa_mix_desc *desc, uint32_t k, double a, double b, double whole,
                    int depth) {
    double m = (a + b) / 2, left = gauss5(desc, k, a, m), right = gauss5(desc, k, m, b);
    if (depth > 40 || fabs(left + right - whole) < 1e-13) return left + right;
    return gauss(desc, k, a, m, left, depth + 1) + gauss(desc, k, m, b, right, depth + 1);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* integral_0^T of 1 / D, split at every weight point of the group (the integrand is smooth
 * between them). */
static double phase_integral(const ossa_mix_desc *desc, uint32_t k, double clock) {
    double cuts[256];
    int n = 0;
    double lo = clock < 0 ? clock : 0, hi = clock < 0 ? 0 : clock;
    cuts[n++] = lo;
    for (uint32_t i = 0; i < desc->layer_count; i++) {
        if (!same_group(&desc->layers[i], &desc->layers[k])) continue;
        for (uint32_t p = 0; p < desc->layers[i].weight_count && n < 255; p++) {
            double t = desc->layers[i].weights[p].time;
            if (t > lo && t < hi) cuts[n++] = t;
        }
    }
    cuts[n++] = hi;
    qsort(cuts, (size_t)n, sizeof *cuts, compare);
    double sum = 0;
    for (int i = 0; i + 1 < n; i++)
        sum += gauss(desc, k, cuts[i], cuts[i + 1], gauss5(desc, k, cuts[i], cuts[i + 1]), 0);
    return clock < 0 ? -sum : sum;
}

double mix_reference_layer_time(const ossa_mix_desc *desc, uint32_t layer, double clock) {
    const ossa_mix_layer *l = &desc->layers[layer];
    double start = ossa_clip_start(l->clip), d = ossa_clip_duration(l->clip);
    if (l->sync && *l->sync) {
        uint32_t first = 0;
        while (!same_group(&desc->layers[first], l))
            first++;
        const ossa_mix_layer *f = &desc->layers[first];
        double fstart = ossa_clip_start(f->clip), fd = ossa_clip_duration(f->clip);
        double speed = f->has_speed ? f->speed : 1;
        double cycles = (f->offset - fstart) / fd + speed * phase_integral(desc, layer, clock);
        return start + (cycles - floor(cycles)) * d;
    }
    double x = l->offset + (l->has_speed ? l->speed : 1) * clock;
    if (d == 0) return start;
    if (l->wrap == OSSA_MIX_CLAMP) return x < start ? start : x > start + d ? start + d : x;
    if (l->wrap == OSSA_MIX_PING_PONG) {
        double u = (x - start) - 2 * d * floor((x - start) / (2 * d));
        return start + (u <= d ? u : 2 * d - u);
    }
    return start + (x - start) - d * floor((x - start) / d);
}

/* Mask value of rig node j: walk up to the nearest node with an entry. */
static double mask_value(const ossa_rig *rig, const ossa_mix_mask *mask, int32_t j) {
    if (!mask) return 1;
    for (int32_t n = j; n >= 0; n = rig->parent[n])
        for (uint32_t e = 0; e < mask->entry_count; e++)
            if (rig->rig_from_gltf[mask->entries[e].node] == n) return mask->entries[e].value;
    return mask->default_value;
}

typedef struct dtrs {
    double t[3], q[4], s[3];
} dtrs;

static void qmul(const double *a, const double *b, double *o) {
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
                   a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(o, r, sizeof r);
}

void mix_reference(const ossa_rig *rig, const ossa_mix_desc *desc, double clock, ossa_pose *pose) {
    uint32_t n = rig->node_count, nw = rig->weight_total;
    double threshold = desc->has_threshold ? desc->threshold : 0.1;
    dtrs *acc = calloc(n + 1, sizeof *acc);
    double *sum = calloc(n + 1, sizeof *sum), *wacc = calloc(nw + 1, sizeof *wacc);
    ossa_pose layer = mix_pose_alloc(rig), ref = mix_pose_alloc(rig);
    for (uint32_t i = 0; i < desc->layer_count; i++) {
        const ossa_mix_layer *l = &desc->layers[i];
        if (l->mode != OSSA_MIX_NORMAL) continue;
        ossa_clip_sample(rig, l->clip, (float)mix_reference_layer_time(desc, i, clock), NULL,
                         &layer);
        for (uint32_t j = 0; j < n; j++) {
            double e = curve(l, clock) * mask_value(rig, l->mask, (int32_t)j);
            if (!(e > 0)) continue;
            const ossa_trs *x = &layer.local[j];
            double dot = 0;
            for (int c = 0; c < 4; c++)
                dot += acc[j].q[c] * x->rotation[c];
            for (int c = 0; c < 4; c++)
                acc[j].q[c] += e * (dot >= 0 ? 1 : -1) * x->rotation[c];
            for (int c = 0; c < 3; c++) {
                acc[j].t[c] += e * x->translation[c];
                acc[j].s[c] += e * x->scale[c];
            }
            for (uint32_t k = 0; k < rig->weight_count[j]; k++)
                wacc[rig->weight_offset[j] + k] += e * layer.weights[rig->weight_offset[j] + k];
            sum[j] += e;
        }
    }
    for (uint32_t j = 0; j < n; j++) {
        double r = sum[j] < threshold ? threshold - sum[j] : 0, w = sum[j] + r;
        const ossa_trs *rest = &rig->rest[j];
        uint32_t wo = rig->weight_offset[j], wc = rig->weight_count[j];
        if (w == 0) { /* rest values */
            for (int c = 0; c < 4; c++)
                acc[j].q[c] = rest->rotation[c];
            for (int c = 0; c < 3; c++) {
                acc[j].t[c] = rest->translation[c];
                acc[j].s[c] = rest->scale[c];
            }
            for (uint32_t k = 0; k < wc; k++)
                wacc[wo + k] = rig->rest_weights[wo + k];
            continue;
        }
        if (r > 0) {
            double dot = 0;
            for (int c = 0; c < 4; c++)
                dot += acc[j].q[c] * rest->rotation[c];
            for (int c = 0; c < 4; c++)
                acc[j].q[c] += r * (dot >= 0 ? 1 : -1) * rest->rotation[c];
        }
        double len = sqrt(acc[j].q[0] * acc[j].q[0] + acc[j].q[1] * acc[j].q[1] +
                          acc[j].q[2] * acc[j].q[2] + acc[j].q[3] * acc[j].q[3]);
        for (int c = 0; c < 4; c++)
            acc[j].q[c] /= len;
        for (int c = 0; c < 3; c++) {
            acc[j].t[c] = (acc[j].t[c] + r * rest->translation[c]) / w;
            acc[j].s[c] = (acc[j].s[c] + r * rest->scale[c]) / w;
        }
        for (uint32_t k = 0; k < wc; k++)
            wacc[wo + k] = (wacc[wo + k] + r * rig->rest_weights[wo + k]) / w;
    }
    for (uint32_t i = 0; i < desc->layer_count; i++) {
        const ossa_mix_layer *l = &desc->layers[i];
        if (l->mode != OSSA_MIX_ADDITIVE) continue;
        ossa_clip_sample(rig, l->clip, (float)mix_reference_layer_time(desc, i, clock), NULL,
                         &layer);
        if (l->reference == OSSA_MIX_REFERENCE_REST)
            ossa_pose_set_rest(rig, &ref);
        else
            ossa_clip_sample(rig, l->clip,
                             l->reference == OSSA_MIX_REFERENCE_TIME ? (float)l->reference_time
                                                                     : ossa_clip_start(l->clip),
                             NULL, &ref);
        for (uint32_t j = 0; j < n; j++) {
            double e = curve(l, clock) * mask_value(rig, l->mask, (int32_t)j);
            if (!(e > 0)) continue;
            const ossa_trs *x = &layer.local[j], *R = &ref.local[j];
            for (int c = 0; c < 3; c++) {
                acc[j].t[c] += e * ((double)x->translation[c] - R->translation[c]);
                if (R->scale[c] != 0)
                    acc[j].s[c] *= 1 + e * ((double)x->scale[c] / R->scale[c] - 1);
            }
            double conj[4] = {-R->rotation[0], -R->rotation[1], -R->rotation[2], R->rotation[3]};
            double xi[4] = {x->rotation[0], x->rotation[1], x->rotation[2], x->rotation[3]}, d[4];
            qmul(conj, xi, d);
            if (d[3] < 0)
                for (int c = 0; c < 4; c++)
                    d[c] = -d[c];
            double m[4] = {e * d[0], e * d[1], e * d[2], 1 - e + e * d[3]};
            double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
            for (int c = 0; c < 4; c++)
                m[c] /= len;
            qmul(acc[j].q, m, acc[j].q);
            uint32_t wo = rig->weight_offset[j];
            for (uint32_t k = 0; k < rig->weight_count[j]; k++)
                wacc[wo + k] += e * ((double)layer.weights[wo + k] - ref.weights[wo + k]);
        }
    }
    for (uint32_t j = 0; j < n; j++) {
        ossa_trs *out = &pose->local[j];
        for (int c = 0; c < 3; c++) {
            out->translation[c] = (float)acc[j].t[c];
            out->scale[c] = (float)acc[j].s[c];
        }
        for (int c = 0; c < 4; c++)
            out->rotation[c] = (float)acc[j].q[c];
    }
    for (uint32_t k = 0; k < nw; k++)
        pose->weights[k] = (float)wacc[k];
    free(acc), free(sum), free(wacc);
    mix_pose_free(&layer), mix_pose_free(&ref);
}

double mix_pose_distance(const ossa_rig *rig, const ossa_pose *a, const ossa_pose *b) {
    double worst = 0;
#define REL(x, y) (fabs((double)(x) - (double)(y)) / fmax(1.0, fabs((double)(y))))
    for (uint32_t j = 0; j < rig->node_count; j++) {
        const ossa_trs *p = &a->local[j], *q = &b->local[j];
        double plus = 0, minus = 0;
        for (int c = 0; c < 4; c++) {
            plus = fmax(plus, fabs((double)p->rotation[c] - q->rotation[c]));
            minus = fmax(minus, fabs((double)p->rotation[c] + q->rotation[c]));
        }
        worst = fmax(worst, fmin(plus, minus));
        for (int c = 0; c < 3; c++) {
            worst = fmax(worst, REL(p->translation[c], q->translation[c]));
            worst = fmax(worst, REL(p->scale[c], q->scale[c]));
        }
    }
    for (uint32_t k = 0; k < rig->weight_total; k++)
        worst = fmax(worst, REL(a->weights[k], b->weights[k]));
#undef REL
    return worst;
}
