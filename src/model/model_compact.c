/* Compact clips for a model (ossa_model_desc::compact_clips): the model's size and each node's
 * vertex radius, which set the clips' world-space budget and how it is measured. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip/clip_compact.h"
#include "model/model_internal.h"
#include "ossa/palette.h"

static void transform_point(const float *m, const float *p, float *out) {
    for (int r = 0; r < 3; r++)
        out[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
}

static float length3(const float *v) {
    return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static void grow_box(float *box, const float *p) {
    for (int c = 0; c < 3; c++) {
        box[c] = fminf(box[c], p[c]);
        box[3 + c] = fmaxf(box[3 + c], p[c]);
    }
}

/* How far morph targets can move vertex v (every weight at 1). */
static float morph_reach(const ossa_model_primitive *info, const ossa_model_streams *s,
                         uint32_t v) {
    float reach = 0.0f;
    for (uint32_t t = 0; s->target_positions && t < info->target_count; t++)
        reach += length3(s->target_positions + 3 * ((size_t)info->vertex_count * t + v));
    return reach;
}

/* One primitive's vertices: each influencing joint's (or the drawing node's) vertex radius, and
 * the rest-pose bounding box. */
static void measure_primitive(const ossa_model *model, const model_primitive *prim,
                              const float *world, float *radius, float *box) {
    const ossa_rig *rig = model->rig;
    const ossa_model_primitive *info = &prim->info;
    const ossa_model_streams *s = &prim->streams;
    for (uint32_t v = 0; v < info->vertex_count; v++) {
        const float *p = s->positions + 3 * (size_t)v;
        float reach = morph_reach(info, s, v), q[3], at[3] = {0, 0, 0};
        if (info->skin < 0) {
            float *r = &radius[info->node];
            *r = fmaxf(*r, length3(p) + reach);
            transform_point(world + 12 * (size_t)info->node, p, at);
            grow_box(box, at);
            continue;
        }
        const ossa_rig_skin *skin = &rig->skins[info->skin];
        for (uint32_t i = 0; i < 4 * info->set_count; i++) {
            float w = s->weights[(size_t)v * 4 * info->set_count + i];
            uint16_t j = s->joints[(size_t)v * 4 * info->set_count + i];
            if (!(w != 0.0f) || j >= skin->joint_count) continue;
            int32_t node = skin->joints[j];
            transform_point(skin->inverse_bind + 12 * (size_t)j, p, q);
            radius[node] = fmaxf(radius[node], length3(q) + reach);
            float moved[3];
            transform_point(world + 12 * (size_t)node, q, moved);
            for (int c = 0; c < 3; c++)
                at[c] += w * moved[c];
        }
        grow_box(box, at);
    }
}

ossa_result ossa_model_compact_clips(ossa_model *model, const ossa_model_desc *desc,
                                     ossa_error *error) {
    const ossa_rig *rig = model->rig;
    float *radius = calloc(rig->node_count + 1, sizeof *radius);
    float *world = calloc(12 * (size_t)rig->node_count + 1, sizeof *world);
    ossa_trs *rest = calloc(rig->node_count + 1, sizeof *rest);
    float *weights = calloc(rig->weight_total + 1, sizeof *weights);
    ossa_result r = OSSA_ERROR_OUT_OF_MEMORY;
    if (radius && world && rest && weights) {
        memcpy(rest, rig->rest, rig->node_count * sizeof *rest);
        ossa_pose pose = {rest, weights};
        ossa_fk_matrices(rig, &pose, world);
        float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
        for (uint32_t n = 0; n < rig->node_count; n++) {
            const float *m = world + 12 * (size_t)n;
            float at[3] = {m[3], m[7], m[11]};
            grow_box(box, at);
        }
        for (uint32_t p = 0; p < model->primitive_count; p++)
            measure_primitive(model, &model->primitives[p], world, radius, box);
        float d[3] = {box[3] - box[0], box[4] - box[1], box[5] - box[2]};
        float size = rig->node_count ? length3(d) : 0.0f;
        model->size = isfinite(size) ? size : 0.0f;
        /* a model without extent in its rest pose is taken as 1 unit across: budget 0.1 mm,
         * and its joints keep their orientation within the same lever arm as other models' */
        float extent = model->size > 0.0f ? model->size : 1.0f;
        float budget = desc->compact_error > 0.0f ? desc->compact_error : 1e-4f * extent;
        if (!(budget > 0.0f)) budget = 1e-4f; /* a size so small that 1e-4 of it is 0 */
        ossa_compact_params params = {budget, radius, 0.05f * extent};
        ossa_clip_set *compact = NULL;
        r = ossa_clip_set_compact(model->clips, &params, &model->allocator, &compact, error);
        if (r == OSSA_OK) {
            ossa_clip_set_free(model->clips);
            model->clips = compact;
        }
    } else {
        ossa_model_fail(error, r, NULL, "", "out of memory");
    }
    free(radius);
    free(world);
    free(rest);
    free(weights);
    return r;
}
