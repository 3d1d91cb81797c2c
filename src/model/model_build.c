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

static ossa_result out_of_memory(ossa_error *error) {
    return ossa_model_fail(error, OSSA_ERROR_OUT_OF_MEMORY, NULL, "", "out of memory");
}

/* The TEXCOORD set a material's textures read: the base colour texture's, else the emissive
 * texture's. */
static uint32_t material_texcoord_set(const ossa_material *material) {
    if (material->base_color_texture.index >= 0) return material->base_color_texture.texcoord;
    return material->emissive_texture.index >= 0 ? material->emissive_texture.texcoord : 0;
}

/* The TEXCOORD_n the primitive's material reads, when n is not 0. */
static ossa_result decode_material_texcoords(const ossa_document *doc, const ossa_primitive *prim,
                                             ossa_owned *owned, ossa_model_streams *streams,
                                             ossa_error *error) {
    uint32_t set = prim->material >= 0 ? material_texcoord_set(&doc->materials[prim->material]) : 0;
    streams->material_texcoords = set == 0 ? streams->texcoords : NULL;
    for (uint32_t a = 0; set && a < prim->attribute_count; a++) {
        const ossa_attribute *attribute = &prim->attributes[a];
        if (attribute->semantic != OSSA_SEMANTIC_TEXCOORD || attribute->set != set) continue;
        if (doc->accessors[attribute->accessor].components != 2) break;
        float *uv = ossa_owned_alloc(owned, (size_t)prim->vertex_count * 2, sizeof(float));
        if (!uv) return out_of_memory(error);
        ossa_result r =
            ossa_accessor_read_float(doc, attribute->accessor, 0, prim->vertex_count, uv);
        if (r != OSSA_OK)
            return ossa_model_fail(error, r, NULL, "", "a texture coordinate set cannot be read");
        streams->material_texcoords = uv;
    }
    return OSSA_OK;
}

/* 3x4 rows of T * R * S (the quaternion normalised; a zero one, which only a file without data
 * can hold, is the identity). */
static void instance_matrix(const float t[3], const float q_in[4], const float s[3], float *m) {
    double len = sqrt((double)q_in[0] * q_in[0] + (double)q_in[1] * q_in[1] +
                      (double)q_in[2] * q_in[2] + (double)q_in[3] * q_in[3]);
    double x = 0, y = 0, z = 0, w = 1;
    if (len > 0) x = q_in[0] / len, y = q_in[1] / len, z = q_in[2] / len, w = q_in[3] / len;
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    for (int row = 0; row < 3; row++) {
        for (int c = 0; c < 3; c++)
            m[4 * row + c] = (float)(r[row][c] * s[c]);
        m[4 * row + 3] = t[row];
    }
}

/* The static instances of every instanced node (EXT_mesh_gpu_instancing), by rig node. */
static ossa_result build_node_instances(ossa_model *model, const ossa_document *doc,
                                        ossa_error *error) {
    uint32_t nodes = model->rig->node_count;
    model->node_instances = ossa_owned_alloc(&model->owned, nodes, sizeof *model->node_instances);
    model->node_instance_count =
        ossa_owned_alloc(&model->owned, nodes, sizeof *model->node_instance_count);
    if (!model->node_instances || !model->node_instance_count) return out_of_memory(error);
    for (uint32_t n = 0; n < nodes; n++) {
        const ossa_node *node = &doc->nodes[model->rig->gltf_from_rig[n]];
        uint32_t count = node->instance_count;
        if (!count) continue;
        float *matrices = ossa_owned_alloc(&model->owned, (size_t)count * 12, sizeof(float));
        float *values = ossa_owned_alloc(&model->owned, (size_t)count * 10, sizeof(float));
        if (!matrices || !values) return out_of_memory(error);
        float *t = values, *q = values + 3 * (size_t)count, *s = values + 7 * (size_t)count;
        for (uint32_t i = 0; i < count; i++) {
            t[3 * i] = t[3 * i + 1] = t[3 * i + 2] = 0.0f;
            q[4 * i] = q[4 * i + 1] = q[4 * i + 2] = 0.0f, q[4 * i + 3] = 1.0f;
            s[3 * i] = s[3 * i + 1] = s[3 * i + 2] = 1.0f;
        }
        ossa_result r = OSSA_OK;
        if (node->instance_translation >= 0)
            r = ossa_accessor_read_float(doc, node->instance_translation, 0, count, t);
        if (r == OSSA_OK && node->instance_rotation >= 0)
            r = ossa_accessor_read_float(doc, node->instance_rotation, 0, count, q);
        if (r == OSSA_OK && node->instance_scale >= 0)
            r = ossa_accessor_read_float(doc, node->instance_scale, 0, count, s);
        if (r != OSSA_OK)
            return ossa_model_fail(error, r, NULL, "", "instance transforms cannot be read");
        for (uint32_t i = 0; i < count; i++)
            instance_matrix(t + 3 * i, q + 4 * i, s + 3 * i, matrices + 12 * (size_t)i);
        model->node_instances[n] = matrices;
        model->node_instance_count[n] = count;
    }
    return OSSA_OK;
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
    /* a node with a skin draws its mesh once (every primitive: they share its morph weights) */
    info->instance_count = rig->skin[node] < 0 ? model->node_instance_count[node] : 0;
    ossa_result r = ossa_model_decode_primitive(doc, mesh, p, &model->owned, &out->streams, error);
    if (r == OSSA_OK) r = decode_material_texcoords(doc, prim, &model->owned, &out->streams, error);
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

/* The encoded image of document texture `texture` copied into the model (NULL when absent). */
static ossa_result copy_image(ossa_model *model, const ossa_document *doc, int32_t texture,
                              const uint8_t **out, size_t *size, const char **mime,
                              ossa_error *error) {
    int32_t image = texture >= 0 ? doc->textures[texture].source : -1;
    if (image < 0 || !doc->images[image].data) return OSSA_OK;
    const ossa_image *img = &doc->images[image];
    uint8_t *bytes = ossa_owned_alloc(&model->owned, (size_t)img->byte_length, 1);
    if (!bytes) return out_of_memory(error);
    memcpy(bytes, img->data, (size_t)img->byte_length);
    *out = bytes;
    *size = (size_t)img->byte_length;
    int jpeg = img->byte_length >= 2 && img->data[0] == 0xFF && img->data[1] == 0xD8;
    *mime = jpeg ? "image/jpeg" : "image/png";
    return OSSA_OK;
}

static ossa_result build_materials(ossa_model *model, const ossa_document *doc, ossa_error *error) {
    model->material_count = doc->material_count;
    model->materials =
        ossa_owned_alloc(&model->owned, doc->material_count, sizeof *model->materials);
    if (!model->materials) return out_of_memory(error);
    for (uint32_t m = 0; m < doc->material_count; m++) {
        const ossa_material *src = &doc->materials[m];
        ossa_model_material *dst = &model->materials[m];
        memcpy(dst->base_color, src->base_color_factor, sizeof dst->base_color);
        for (int k = 0; k < 3; k++)
            dst->emissive[k] = src->emissive_factor[k] * src->emissive_strength;
        dst->unlit = src->unlit;
        dst->double_sided = src->double_sided;
        dst->alpha_mode = src->alpha_mode;
        dst->alpha_cutoff = src->alpha_cutoff;
        const ossa_texture_ref *base = &src->base_color_texture, *glow = &src->emissive_texture;
        dst->texcoord = material_texcoord_set(src);
        ossa_texture_transform_matrix(base->index >= 0 ? &base->transform : NULL,
                                      dst->uv_transform);
        ossa_texture_transform_matrix(glow->index >= 0 ? &glow->transform : NULL,
                                      dst->emissive_uv_transform);
        ossa_result r = copy_image(model, doc, base->index, &dst->image, &dst->image_size,
                                   &dst->image_mime, error);
        if (r == OSSA_OK && glow->index >= 0 && glow->texcoord == dst->texcoord)
            r = copy_image(model, doc, glow->index, &dst->emissive_image, &dst->emissive_image_size,
                           &dst->emissive_image_mime, error);
        if (r != OSSA_OK) return r;
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
    if (r == OSSA_OK) r = build_node_instances(model, doc, error);
    if (r == OSSA_OK) r = build_primitives(model, doc, desc, error);
    if (r == OSSA_OK) r = build_materials(model, doc, error);
    if (r == OSSA_OK) r = ossa_model_build_material_state(model, doc, error);
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
    if (index >= 0 && (uint32_t)index < model->material_count) return model->materials[index];
    ossa_model_material white; /* glTF's default material: white, opaque, single-sided */
    memset(&white, 0, sizeof white);
    for (int k = 0; k < 4; k++)
        white.base_color[k] = 1.0f;
    white.alpha_cutoff = 0.5f;
    white.uv_transform[0] = white.uv_transform[4] = 1.0f;
    white.emissive_uv_transform[0] = white.emissive_uv_transform[4] = 1.0f;
    return white;
}

const float *ossa_model_node_instances(const ossa_model *model, uint32_t node, uint32_t *count) {
    int in_range = node < model->rig->node_count;
    if (count) *count = in_range ? model->node_instance_count[node] : 0;
    return in_range ? model->node_instances[node] : NULL;
}

uint32_t ossa_model_max_vertex_count(const ossa_model *model) {
    return model->max_vertex_count;
}
