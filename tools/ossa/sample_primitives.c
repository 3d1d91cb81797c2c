/*
 * The "primitives" of `ossa sample --json`: world-space positions and normals of the listed
 * vertices of every primitive of a skinned node, and of every unskinned mesh node that the
 * sampled animations move (a translation/rotation/scale channel on the node or an ancestor)
 * or morph (a weights channel on the node, or on its mesh) — the selection the golden files use.
 * Skinned: morph, then skin with the world-space palette world(joint) * IBM (the mesh node's
 * own transform is ignored, as the spec says); unskinned: morph, then the node's world matrix.
 */
#include "sample_primitives.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/error.h"
#include "ossa/skin.h"

/* Marks glTF nodes that the animation moves (moved[n]) or morphs (morphed[n]). */
static void mark_animated(const ossa_document *doc, const sample_frame *f, uint8_t *moved,
                          uint8_t *morphed) {
    for (uint32_t a = 0; a < f->animation_count; a++) {
        const ossa_animation *anim = &doc->animations[f->animations[a]];
        for (uint32_t c = 0; c < anim->channel_count; c++) {
            int32_t n = anim->channels[c].node;
            if (anim->channels[c].pointer_target == OSSA_POINTER_MESH_WEIGHTS)
                for (uint32_t k = 0; k < doc->node_count; k++) /* see ossa_clip_set_build */
                    if (doc->nodes[k].mesh == anim->channels[c].pointer_index &&
                        !doc->nodes[k].weights)
                        morphed[k] = 1;
            if (n < 0) continue;
            if (anim->channels[c].path == OSSA_PATH_WEIGHTS)
                morphed[n] = 1;
            else
                moved[n] = 1;
        }
    }
}

static int moved_or_ancestor(const ossa_document *doc, const uint8_t *moved, int32_t n) {
    for (; n >= 0; n = doc->nodes[n].parent)
        if (moved[n]) return 1;
    return 0;
}

void sample_json_float(FILE *out, double v) {
    if (isfinite(v))
        fprintf(out, "%.9g", v);
    else
        fputs("null", out);
}

static void print_xyz_list(FILE *out, const float *values, const uint32_t *which, uint32_t count) {
    fputc('[', out);
    for (uint32_t i = 0; i < count; i++) {
        const float *v = values + 3 * (size_t)which[i];
        fputs(i ? ",[" : "[", out);
        for (int c = 0; c < 3; c++) {
            if (c) fputc(',', out);
            sample_json_float(out, v[c]);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

static void print_text_vertices(FILE *out, uint32_t node, int32_t mesh, uint32_t p,
                                const float *positions, const float *normals, const uint32_t *which,
                                uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        const float *v = positions + 3 * (size_t)which[i];
        fprintf(out, "  node %u mesh %d primitive %u vertex %u position %.6g %.6g %.6g", node, mesh,
                p, which[i], (double)v[0], (double)v[1], (double)v[2]);
        if (normals) {
            const float *d = normals + 3 * (size_t)which[i];
            fprintf(out, " normal %.6g %.6g %.6g", (double)d[0], (double)d[1], (double)d[2]);
        }
        fputc('\n', out);
    }
}

/* Skins one primitive into positions/normals (original order); 0 on success. */
static int skin_primitive(const ossa_document *doc, const sample_frame *f, uint32_t node,
                          uint32_t p, float *positions, float *normals, ossa_error *error) {
    const ossa_rig *rig = f->rig;
    const ossa_node *gn = &doc->nodes[node];
    int32_t r = rig->rig_from_gltf[node];
    ossa_skin_mesh *mesh = NULL;
    if (ossa_skin_mesh_from_document(doc, (uint32_t)gn->mesh, p, gn->skin, NULL, &mesh, error) !=
        OSSA_OK)
        return 1;
    ossa_skin_frame frame;
    memset(&frame, 0, sizeof frame);
    if (gn->skin >= 0) {
        frame.palette = f->palettes + f->palette_offset[gn->skin];
        frame.joint_count = rig->skins[gn->skin].joint_count;
    } else {
        frame.transform = f->world + 12 * (size_t)r;
    }
    frame.morph_weights = f->pose->weights + rig->weight_offset[r];
    frame.morph_weight_count = rig->weight_count[r];
    frame.order = OSSA_SKIN_ORDER_ORIGINAL;
    ossa_skin_output out = {positions, 0,    ossa_skin_mesh_has_normals(mesh) ? normals : NULL,
                            0,         NULL, 0};
    ossa_result result = ossa_skin_mesh_run(mesh, &frame, &out, ossa_skin_mesh_vertex_count(mesh),
                                            0, ossa_skin_mesh_slot_count(mesh), error);
    ossa_skin_mesh_free(mesh);
    return result != OSSA_OK;
}

int sample_write_primitives(FILE *out, const ossa_document *doc, const sample_frame *f,
                            const sample_vertex_filter *filter, int text, ossa_error *error) {
    uint8_t *moved = calloc(doc->node_count + 1, 1), *morphed = calloc(doc->node_count + 1, 1);
    int status = 0, first = 1;
    if (!moved || !morphed) {
        ossa_error_set(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        status = 1;
    }
    if (!status) mark_animated(doc, f, moved, morphed);
    if (!text) fputc('[', out);
    for (uint32_t n = 0; !status && n < doc->node_count; n++) {
        const ossa_node *gn = &doc->nodes[n];
        if (gn->mesh < 0) continue;
        if (gn->skin < 0 && !morphed[n] && !moved_or_ancestor(doc, moved, (int32_t)n)) continue;
        const ossa_mesh *m = &doc->meshes[gn->mesh];
        for (uint32_t p = 0; !status && p < m->primitive_count; p++) {
            size_t count = (size_t)m->primitives[p].vertex_count;
            float *positions = calloc(3 * count + 3, sizeof(float));
            float *normals = calloc(3 * count + 3, sizeof(float));
            uint32_t *which = calloc(count + 1, sizeof(uint32_t));
            if (!positions || !normals || !which) {
                ossa_error_set(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, NULL, "out of memory");
                status = 1;
            } else if (skin_primitive(doc, f, n, p, positions, normals, error)) {
                status = 1;
            } else {
                uint32_t listed = 0;
                if (filter->all)
                    for (uint32_t v = 0; v < count; v++)
                        which[listed++] = v;
                else
                    for (uint32_t i = 0; i < filter->count; i++)
                        if (filter->indices[i] < count) which[listed++] = filter->indices[i];
                int has_normals = m->primitives[p].normal >= 0;
                if (text) {
                    print_text_vertices(out, n, gn->mesh, p, positions,
                                        has_normals ? normals : NULL, which, listed);
                } else {
                    fprintf(out, "%s{\"node\":%u,\"mesh\":%d,\"primitive\":%u,\"vertices\":[",
                            first ? "" : ",", n, gn->mesh, p);
                    for (uint32_t i = 0; i < listed; i++)
                        fprintf(out, "%s%u", i ? "," : "", which[i]);
                    fputs("],\"positions\":", out);
                    print_xyz_list(out, positions, which, listed);
                    fputs(",\"normals\":", out);
                    print_xyz_list(out, normals, which, has_normals ? listed : 0);
                    fputc('}', out);
                }
                first = 0;
            }
            free(positions);
            free(normals);
            free(which);
        }
    }
    if (!text) fputc(']', out);
    free(moved);
    free(morphed);
    return status;
}

uint64_t sample_largest_primitive(const ossa_document *doc) {
    uint64_t largest = 0;
    for (uint32_t n = 0; n < doc->node_count; n++) {
        if (doc->nodes[n].mesh < 0) continue;
        const ossa_mesh *m = &doc->meshes[doc->nodes[n].mesh];
        for (uint32_t p = 0; p < m->primitive_count; p++)
            if (m->primitives[p].vertex_count > largest) largest = m->primitives[p].vertex_count;
    }
    return largest;
}
