/* Building a model (model.h) from a document: rig, clips, every drawn primitive decoded and
 * prepared, materials; and the functions that read it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/error.h"
#include "model/model_internal.h"

ossa_result ossa_model_fail(ossa_error *error, ossa_result code, const char *file, const char *path,
                            const char *message) {
    return ossa_error_set(error, code, file, path, "%s", message);
}

/* The skin a primitive is skinned by: the node's, when the primitive has influences. */
static int32_t primitive_skin(const ossa_rig *rig, uint32_t node, const ossa_primitive *prim) {
    return prim->influence_sets ? rig->skin[node] : -1;
}

static uint32_t count_primitives(const ossa_document *doc, const ossa_rig *rig) {
    uint32_t count = 0;
    for (uint32_t n = 0; n < rig->node_count; n++)
        if (rig->mesh[n] >= 0)
            for (uint32_t p = 0; p < doc->meshes[rig->mesh[n]].primitive_count; p++)
                count += doc->meshes[rig->mesh[n]].primitives[p].position >= 0;
    return count;
}

static ossa_result build_primitive(ossa_model *model, const ossa_document *doc,
                                   const ossa_model_desc *desc, uint32_t node, uint32_t mesh,
                                   uint32_t p, model_primitive *out, ossa_error *error) {
    const ossa_rig *rig = model->rig;
    const ossa_primitive *prim = &doc->meshes[mesh].primitives[p];
    ossa_model_primitive *info = &out->info;
    info->node = (int32_t)node;
    info->mesh = mesh;
    info->primitive = p;
    info->skin = primitive_skin(rig, node, prim);
    info->joint_count = info->skin >= 0 ? rig->skins[info->skin].joint_count : 0;
    info->vertex_count = (uint32_t)prim->vertex_count;
    info->index_count = prim->indices >= 0 ? (uint32_t)doc->accessors[prim->indices].count : 0;
    info->mode = (uint32_t)prim->mode;
    info->target_count = prim->target_count;
    info->weight_offset = rig->weight_offset[node];
    info->set_count = prim->influence_sets;
    info->has_normals = prim->normal >= 0;
    info->has_tangents = prim->tangent >= 0;
    info->has_texcoords = prim->texcoord0 >= 0;
    info->material = prim->material;
    ossa_result r = ossa_model_decode_primitive(doc, mesh, p, &model->owned, &out->streams, error);
    if (r == OSSA_OK && !desc->skip_cpu_skinning)
        r = ossa_model_prepare_skin_mesh(info, &out->streams, &model->owned, &out->skin_mesh,
                                         error);
    if (r != OSSA_OK && error && !error->path[0])
        snprintf(error->path, sizeof error->path, "meshes[%u].primitives[%u]", mesh, p);
    if (info->vertex_count > model->max_vertex_count) model->max_vertex_count = info->vertex_count;
    return r;
}

static ossa_result build_primitives(ossa_model *model, const ossa_document *doc,
                                    const ossa_model_desc *desc, ossa_error *error) {
    const ossa_rig *rig = model->rig;
    uint32_t count = count_primitives(doc, rig);
    model->primitives = ossa_owned_alloc(&model->owned, count, sizeof *model->primitives);
    if (!model->primitives)
        return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
    for (uint32_t n = 0; n < rig->node_count; n++) {
        if (rig->mesh[n] < 0) continue;
        uint32_t mesh = (uint32_t)rig->mesh[n];
        for (uint32_t p = 0; p < doc->meshes[mesh].primitive_count; p++) {
            if (doc->meshes[mesh].primitives[p].position < 0) continue; /* nothing to draw */
            model_primitive *out = &model->primitives[model->primitive_count++];
            ossa_result r = build_primitive(model, doc, desc, n, mesh, p, out, error);
            if (r != OSSA_OK) return r;
        }
    }
    return OSSA_OK;
}

static ossa_result build_materials(ossa_model *model, const ossa_document *doc, ossa_error *error) {
    model->material_count = doc->material_count;
    model->materials =
        ossa_owned_alloc(&model->owned, doc->material_count, sizeof *model->materials);
    if (!model->materials)
        return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
    for (uint32_t m = 0; m < doc->material_count; m++) {
        const ossa_material *src = &doc->materials[m];
        ossa_model_material *dst = &model->materials[m];
        memcpy(dst->base_color, src->base_color_factor, sizeof dst->base_color);
        int32_t texture = src->base_color_texture.index;
        int32_t image = texture >= 0 ? doc->textures[texture].source : -1;
        if (image < 0 || !doc->images[image].data) continue;
        const ossa_image *img = &doc->images[image];
        uint8_t *bytes = ossa_owned_alloc(&model->owned, (size_t)img->byte_length, 1);
        if (!bytes)
            return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
        memcpy(bytes, img->data, (size_t)img->byte_length);
        dst->image = bytes;
        dst->image_size = (size_t)img->byte_length;
        int jpeg = img->byte_length >= 2 && img->data[0] == 0xFF && img->data[1] == 0xD8;
        dst->image_mime = jpeg ? "image/jpeg" : "image/png";
    }
    return OSSA_OK;
}

static ossa_result build_palette_offsets(ossa_model *model, ossa_error *error) {
    const ossa_rig *rig = model->rig;
    model->palette_offset =
        ossa_owned_alloc(&model->owned, rig->skin_count, sizeof *model->palette_offset);
    if (!model->palette_offset)
        return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
    uint64_t joints = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        model->palette_offset[s] = (uint32_t)joints;
        joints += rig->skins[s].joint_count;
        if (joints > UINT32_MAX)
            return ossa_model_fail(error, OSSA_ERROR_LIMIT, NULL, "skins",
                                   "the skins have more than 2^32 joints in all");
    }
    model->layout.palette_joints = (uint32_t)joints;
    return OSSA_OK;
}

static ossa_result build(ossa_model *model, const ossa_document *doc, const ossa_model_desc *desc,
                         ossa_error *error) {
    int failed = 0;
    model->file = ossa_owned_strdup(&model->owned, doc->file ? doc->file : "", &failed);
    if (failed) return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
    ossa_result r = ossa_rig_build(doc, &model->allocator, &model->rig, error);
    if (r == OSSA_OK)
        r = ossa_clip_set_build(doc, model->rig, &model->allocator, &model->clips, error);
    if (r == OSSA_OK) r = build_palette_offsets(model, error);
    if (r == OSSA_OK) r = build_primitives(model, doc, desc, error);
    if (r == OSSA_OK) r = build_materials(model, doc, error);
    if (r == OSSA_OK && desc->compact_clips) r = ossa_model_compact_clips(model, desc, error);
    if (r == OSSA_OK) r = ossa_model_layout_characters(model, error);
    return r;
}

ossa_result ossa_model_create(const ossa_document *doc, const ossa_model_desc *desc,
                              ossa_model **out, ossa_error *error) {
    static const ossa_model_desc defaults;
    if (!out || !doc) {
        if (out) *out = NULL;
        return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", "no document or no output");
    }
    *out = NULL;
    if (!desc) desc = &defaults;
    if (!(desc->compact_error >= 0.0f) || isinf(desc->compact_error))
        return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, doc->file, "",
                               "compact_error must be 0 (the default) or a positive distance");
    ossa_owned owned;
    ossa_owned_init(&owned, &desc->allocator);
    ossa_model *model = owned.allocator.alloc(owned.allocator.user, sizeof *model);
    if (!model)
        return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, doc->file, "", "out of memory");
    memset(model, 0, sizeof *model);
    model->owned = owned;
    model->allocator = owned.allocator;
    model->dual_quaternions = desc->dual_quaternions != 0;
    ossa_result r = build(model, doc, desc, error);
    if (r != OSSA_OK) {
        if (error && !error->file[0] && doc->file)
            snprintf(error->file, sizeof error->file, "%s", doc->file);
        ossa_model_free(model);
        return r;
    }
    *out = model;
    return OSSA_OK;
}

void ossa_model_free(ossa_model *model) {
    if (!model) return;
    for (uint32_t p = 0; p < model->primitive_count; p++)
        ossa_skin_mesh_free(model->primitives[p].skin_mesh);
    ossa_clip_set_free(model->clips);
    ossa_rig_free(model->rig);
    ossa_allocator allocator = model->allocator;
    ossa_owned_release(&model->owned);
    allocator.free(allocator.user, model);
}

const char *ossa_model_file(const ossa_model *model) {
    return model->file;
}

const ossa_rig *ossa_model_rig(const ossa_model *model) {
    return model->rig;
}

uint32_t ossa_model_clip_count(const ossa_model *model) {
    return ossa_clip_set_count(model->clips);
}

const ossa_clip *ossa_model_clip(const ossa_model *model, uint32_t index) {
    return ossa_clip_set_clip(model->clips, index);
}

int32_t ossa_model_find_clip(const ossa_model *model, const char *name) {
    for (uint32_t c = 0; name && c < ossa_clip_set_count(model->clips); c++) {
        const char *clip_name = ossa_clip_name(ossa_clip_set_clip(model->clips, c));
        if (clip_name && !strcmp(clip_name, name)) return (int32_t)c;
    }
    return -1;
}

int32_t ossa_model_find_node(const ossa_model *model, const char *name) {
    int32_t found = -1;
    for (uint32_t n = 0; name && n < model->rig->node_count; n++) {
        if (!model->rig->names[n] || strcmp(model->rig->names[n], name)) continue;
        if (found >= 0) return -2;
        found = (int32_t)n;
    }
    return found;
}

uint32_t ossa_model_primitive_count(const ossa_model *model) {
    return model->primitive_count;
}

const ossa_model_primitive *ossa_model_primitive_info(const ossa_model *model, uint32_t index) {
    return index < model->primitive_count ? &model->primitives[index].info : NULL;
}

ossa_model_streams ossa_model_primitive_streams(const ossa_model *model, uint32_t index) {
    ossa_model_streams none;
    memset(&none, 0, sizeof none);
    return index < model->primitive_count ? model->primitives[index].streams : none;
}

const ossa_skin_mesh *ossa_model_skin_mesh(const ossa_model *model, uint32_t index) {
    return index < model->primitive_count ? model->primitives[index].skin_mesh : NULL;
}

ossa_model_material ossa_model_material_info(const ossa_model *model, int32_t index) {
    ossa_model_material white = {{1, 1, 1, 1}, NULL, 0, NULL};
    if (index < 0 || (uint32_t)index >= model->material_count) return white;
    return model->materials[index];
}

uint32_t ossa_model_max_vertex_count(const ossa_model *model) {
    return model->max_vertex_count;
}
