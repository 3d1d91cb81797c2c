#include "anim_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

int anim_fixture_load(anim_fixture *f, const char *path, const ossa_load_options *options) {
    memset(f, 0, sizeof *f);
    ossa_error error;
    char text[1100];
    if (ossa_document_load_file(path, options, &f->doc, &error) != OSSA_OK ||
        ossa_rig_build(f->doc, NULL, &f->rig, &error) != OSSA_OK ||
        ossa_clip_set_build(f->doc, f->rig, NULL, &f->clips, &error) != OSSA_OK) {
        ossa_error_format(&error, text, sizeof text);
        fprintf(stderr, "%s: %s\n", path, text);
        anim_fixture_free(f);
        return 0;
    }
    uint32_t palette_floats = 0, cursor_size = 0;
    for (uint32_t s = 0; s < f->rig->skin_count; s++)
        palette_floats += ossa_palette_floats(f->rig, s);
    for (uint32_t c = 0; c < ossa_clip_set_count(f->clips); c++)
        if (ossa_cursor_size(ossa_clip_set_clip(f->clips, c)) > cursor_size)
            cursor_size = ossa_cursor_size(ossa_clip_set_clip(f->clips, c));
    f->pose.local = calloc(f->rig->node_count + 1, sizeof(ossa_trs));
    f->pose.weights = calloc(f->rig->weight_total + 1, sizeof(float));
    f->world = calloc(12 * (size_t)f->rig->node_count + 1, sizeof(float));
    f->palettes = calloc(palette_floats + 1, sizeof(float));
    f->cursor = calloc(cursor_size + 1, sizeof(uint32_t));
    f->cursor_capacity = cursor_size;
    return 1;
}

void anim_fixture_free(anim_fixture *f) {
    free(f->pose.local);
    free(f->pose.weights);
    free(f->world);
    free(f->palettes);
    free(f->cursor);
    ossa_clip_set_free(f->clips);
    ossa_rig_free(f->rig);
    ossa_document_free(f->doc);
    memset(f, 0, sizeof *f);
}

void anim_fixture_eval(anim_fixture *f, const ossa_clip *clip, float time, ossa_cursor *cursor) {
    if (clip)
        ossa_clip_sample(f->rig, clip, time, cursor, &f->pose);
    else
        ossa_pose_set_rest(f->rig, &f->pose);
    ossa_fk_palettes_world(f->rig, &f->pose, f->world, f->palettes);
}

static cJSON *matrix_json(const float *m) {
    double c[16] = {m[0], m[4], m[8],  0, m[1], m[5], m[9],  0,
                    m[2], m[6], m[10], 0, m[3], m[7], m[11], 1};
    return cJSON_CreateDoubleArray(c, 16);
}

cJSON *anim_fixture_frame_json(const anim_fixture *f) {
    const ossa_rig *rig = f->rig;
    cJSON *frame = cJSON_CreateObject();
    cJSON *nodes = cJSON_AddArrayToObject(frame, "node_world");
    for (uint32_t g = 0; g < f->doc->node_count; g++)
        cJSON_AddItemToArray(nodes, matrix_json(f->world + 12 * (size_t)rig->rig_from_gltf[g]));
    cJSON *morph = cJSON_AddArrayToObject(frame, "morph_weights");
    for (uint32_t g = 0; g < f->doc->node_count; g++) {
        int32_t r = rig->rig_from_gltf[g];
        if (!rig->weight_count[r]) continue;
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddNumberToObject(entry, "node", g);
        cJSON *w = cJSON_AddArrayToObject(entry, "weights");
        for (uint32_t k = 0; k < rig->weight_count[r]; k++)
            cJSON_AddItemToArray(w, cJSON_CreateNumber(f->pose.weights[rig->weight_offset[r] + k]));
        cJSON_AddItemToArray(morph, entry);
    }
    cJSON *joints = cJSON_AddArrayToObject(frame, "joint_matrices");
    const float *palette = f->palettes;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddNumberToObject(entry, "skin", s);
        cJSON *mats = cJSON_AddArrayToObject(entry, "matrices");
        for (uint32_t j = 0; j < rig->skins[s].joint_count; j++, palette += 12)
            cJSON_AddItemToArray(mats, matrix_json(palette));
        cJSON_AddItemToArray(joints, entry);
    }
    return frame;
}

static double number_at(const cJSON *array, int i) {
    const cJSON *item = cJSON_GetArrayItem(array, i);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

/* Translation within tolerance; 3x3 part within tolerance_unitless times the golden's scale
 * (its largest column length), as golden/README.md defines. */
static void compare_matrix(const cJSON *golden, const cJSON *ours, double tol, double tol_u,
                           const char *label) {
    CHECKF(cJSON_GetArraySize(golden) == 16 && cJSON_GetArraySize(ours) == 16, "%s: matrix size",
           label);
    double scale = 0.0;
    for (int c = 0; c < 3; c++) {
        double len = 0.0;
        for (int r = 0; r < 3; r++)
            len += number_at(golden, 4 * c + r) * number_at(golden, 4 * c + r);
        scale = fmax(scale, sqrt(len));
    }
    double linear_tol = tol_u * (scale > 0.0 ? scale : 1.0);
    double worst_linear = 0.0, worst_translation = 0.0;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            double d = fabs(number_at(golden, 4 * c + r) - number_at(ours, 4 * c + r));
            worst_linear = isnan(d) || d > worst_linear ? d : worst_linear;
        }
    for (int r = 0; r < 3; r++) {
        double d = fabs(number_at(golden, 12 + r) - number_at(ours, 12 + r));
        worst_translation = isnan(d) || d > worst_translation ? d : worst_translation;
    }
    CHECKF(worst_linear <= linear_tol, "%s: 3x3 part off by %.3g (tolerance %.3g)", label,
           worst_linear, linear_tol);
    CHECKF(worst_translation <= tol, "%s: translation off by %.3g (tolerance %.3g)", label,
           worst_translation, tol);
}

void anim_compare_sample(const cJSON *golden, const cJSON *ours, double tol, double tol_u,
                         const char *label) {
    char where[512];
    const cJSON *gn = cJSON_GetObjectItem(golden, "node_world");
    const cJSON *on = cJSON_GetObjectItem(ours, "node_world");
    CHECKF(cJSON_GetArraySize(gn) == cJSON_GetArraySize(on), "%s: node count %d vs %d", label,
           cJSON_GetArraySize(gn), cJSON_GetArraySize(on));
    for (int i = 0; i < cJSON_GetArraySize(gn) && i < cJSON_GetArraySize(on); i++) {
        snprintf(where, sizeof where, "%s node_world[%d]", label, i);
        compare_matrix(cJSON_GetArrayItem(gn, i), cJSON_GetArrayItem(on, i), tol, tol_u, where);
    }
    const cJSON *gm = cJSON_GetObjectItem(golden, "morph_weights");
    const cJSON *om = cJSON_GetObjectItem(ours, "morph_weights");
    CHECKF(cJSON_GetArraySize(gm) == cJSON_GetArraySize(om), "%s: morph entries %d vs %d", label,
           cJSON_GetArraySize(gm), cJSON_GetArraySize(om));
    for (int i = 0; i < cJSON_GetArraySize(gm) && i < cJSON_GetArraySize(om); i++) {
        const cJSON *g = cJSON_GetArrayItem(gm, i), *o = cJSON_GetArrayItem(om, i);
        const cJSON *gw = cJSON_GetObjectItem(g, "weights"),
                    *ow = cJSON_GetObjectItem(o, "weights");
        CHECKF(cJSON_GetObjectItem(g, "node")->valueint ==
                       cJSON_GetObjectItem(o, "node")->valueint &&
                   cJSON_GetArraySize(gw) == cJSON_GetArraySize(ow),
               "%s: morph_weights[%d] node or count differ", label, i);
        for (int k = 0; k < cJSON_GetArraySize(gw) && k < cJSON_GetArraySize(ow); k++)
            CHECKF(fabs(number_at(gw, k) - number_at(ow, k)) <= tol_u,
                   "%s: morph_weights[%d][%d] %.9g vs %.9g (tolerance %.3g)", label, i, k,
                   number_at(gw, k), number_at(ow, k), tol_u);
    }
    const cJSON *gj = cJSON_GetObjectItem(golden, "joint_matrices");
    const cJSON *oj = cJSON_GetObjectItem(ours, "joint_matrices");
    CHECKF(cJSON_GetArraySize(gj) == cJSON_GetArraySize(oj), "%s: skins %d vs %d", label,
           cJSON_GetArraySize(gj), cJSON_GetArraySize(oj));
    for (int s = 0; s < cJSON_GetArraySize(gj) && s < cJSON_GetArraySize(oj); s++) {
        const cJSON *g = cJSON_GetObjectItem(cJSON_GetArrayItem(gj, s), "matrices");
        const cJSON *o = cJSON_GetObjectItem(cJSON_GetArrayItem(oj, s), "matrices");
        CHECKF(cJSON_GetArraySize(g) == cJSON_GetArraySize(o), "%s: skin %d joint count", label, s);
        for (int j = 0; j < cJSON_GetArraySize(g) && j < cJSON_GetArraySize(o); j++) {
            snprintf(where, sizeof where, "%s skin %d joint %d", label, s, j);
            compare_matrix(cJSON_GetArrayItem(g, j), cJSON_GetArrayItem(o, j), tol, tol_u, where);
        }
    }
}
