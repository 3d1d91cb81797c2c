/* images, samplers, textures, materials and cameras: what rendering needs, checked for types. */
#include <math.h>
#include <string.h>

#include "io/loader.h"

static void parse_image(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_image *im = &L->doc->images[index];
    static const char *const known[] = {"uri", "mimeType", "bufferView", "name", NULL};
    ossa_io_check_members(L, item, known);
    im->name = ossa_io_dup_string(L, item, "name");
    im->uri = ossa_io_dup_string(L, item, "uri");
    im->mime_type = ossa_io_dup_string(L, item, "mimeType");
    im->buffer_view =
        ossa_io_get_index(L, item, "bufferView", L->doc->buffer_view_count, "buffer view", 0);
    if (im->uri && im->buffer_view >= 0)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "has both uri and bufferView");
    if (!im->uri && im->buffer_view < 0)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "has neither uri nor bufferView");
    if (im->buffer_view >= 0) {
        if (!im->mime_type) ossa_io_warn(L, "mimeType is required with bufferView");
        const ossa_buffer_view *v = &L->doc->buffer_views[im->buffer_view];
        const ossa_buffer *b = &L->doc->buffers[v->buffer];
        if (b->data && !L->buffer_placeholder[v->buffer]) {
            im->data = b->data + v->byte_offset;
            im->byte_length = v->byte_length;
        }
        return;
    }
    if (L->skip_images) return;
    uint8_t *data = NULL;
    uint64_t size = 0;
    const char *why = NULL;
    if (ossa_io_load_uri(L, im->uri, "image", &data, &size, &why)) {
        im->data = data;
        im->byte_length = size;
    } else {
        ossa_io_warn_key(L, "uri",
                         "image '%s' cannot be loaded (%s); rendering falls back to "
                         "the base colour",
                         im->uri, why);
    }
}

static void parse_sampler(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    (void)index;
    static const char *const known[] = {"magFilter", "minFilter", "wrapS", "wrapT", "name", NULL};
    ossa_io_check_members(L, item, known);
    ossa_io_get_uint(L, item, "magFilter", 0, 0);
    ossa_io_get_uint(L, item, "minFilter", 0, 0);
    ossa_io_get_uint(L, item, "wrapS", 0, 0);
    ossa_io_get_uint(L, item, "wrapT", 0, 0);
    ossa_io_get_string(L, item, "name", 0);
}

static void parse_texture(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_texture *t = &L->doc->textures[index];
    static const char *const known[] = {"source", "sampler", "name", NULL};
    ossa_io_check_members(L, item, known);
    t->source = ossa_io_get_index(L, item, "source", L->doc->image_count, "image", 0);
    t->sampler = ossa_io_get_index(L, item, "sampler", L->sampler_count, "sampler", 0);
    ossa_io_get_string(L, item, "name", 0);
}

/* KHR_texture_transform of a textureInfo (path at the textureInfo). */
static void parse_texture_transform(ossa_io_loader *L, const cJSON *info, ossa_texture_ref *ref) {
    ossa_texture_transform *t = &ref->transform;
    const cJSON *ext = ossa_io_get_extension(L, info, "KHR_texture_transform");
    if (!ext) return;
    size_t mark = ossa_io_path_key(L, "extensions");
    ossa_io_path_key(L, "KHR_texture_transform");
    static const char *const known[] = {"offset", "rotation", "scale", "texCoord", NULL};
    ossa_io_check_members(L, ext, known);
    t->present = 1;
    ossa_io_get_floats(L, ext, "offset", t->offset, 2);
    t->rotation = (float)ossa_io_get_number(L, ext, "rotation", 0.0);
    ossa_io_get_floats(L, ext, "scale", t->scale, 2);
    if (ossa_io_member(ext, "texCoord"))
        ref->texcoord = (uint32_t)ossa_io_get_uint(L, ext, "texCoord", 0, 0);
    ossa_io_path_restore(L, mark);
}

/* No texture: index -1, the identity transform. */
static ossa_texture_ref no_texture(void) {
    ossa_texture_ref ref;
    memset(&ref, 0, sizeof ref);
    ref.index = -1;
    ref.transform.scale[0] = ref.transform.scale[1] = 1.0f;
    return ref;
}

/* A textureInfo object ({index, texCoord, ...}); returns the reference. */
static ossa_texture_ref parse_texture_info(ossa_io_loader *L, const cJSON *object, const char *key,
                                           const char *extra) {
    ossa_texture_ref ref = no_texture();
    const cJSON *info = ossa_io_get_object(L, object, key, 0);
    if (!info) return ref;
    size_t mark = ossa_io_path_key(L, key);
    const char *known[] = {"index", "texCoord", "KHR_texture_transform", extra, NULL};
    ossa_io_check_members(L, info, known);
    ref.index = ossa_io_get_index(L, info, "index", L->doc->texture_count, "texture", 1);
    ref.texcoord = (uint32_t)ossa_io_get_uint(L, info, "texCoord", 0, 0);
    if (extra) ossa_io_get_number(L, info, extra, 1.0);
    parse_texture_transform(L, info, &ref);
    if (L->material_texcoord[L->current_material] < (int32_t)ref.texcoord)
        L->material_texcoord[L->current_material] = (int32_t)ref.texcoord;
    ossa_io_path_restore(L, mark);
    return ref;
}

/* The material extensions ossa draws: KHR_materials_unlit, KHR_materials_emissive_strength. */
static void parse_material_extensions(ossa_io_loader *L, const cJSON *item, ossa_material *m) {
    const cJSON *unlit = ossa_io_get_extension(L, item, "KHR_materials_unlit");
    const cJSON *strength = ossa_io_get_extension(L, item, "KHR_materials_emissive_strength");
    size_t mark = ossa_io_path_key(L, "extensions");
    if (unlit) {
        size_t inner = ossa_io_path_key(L, "KHR_materials_unlit");
        static const char *const none[] = {NULL};
        ossa_io_check_members(L, unlit, none);
        m->unlit = 1;
        ossa_io_path_restore(L, inner);
    }
    if (strength) {
        size_t inner = ossa_io_path_key(L, "KHR_materials_emissive_strength");
        static const char *const known[] = {"emissiveStrength", NULL};
        ossa_io_check_members(L, strength, known);
        double value = ossa_io_get_number(L, strength, "emissiveStrength", 1.0);
        if (value < 0)
            ossa_io_fail_key(L, "emissiveStrength", OSSA_ERROR_INVALID,
                             "must be at least 0, not %g", value);
        m->emissive_strength = (float)value;
        ossa_io_path_restore(L, inner);
    }
    ossa_io_path_restore(L, mark);
}

static void parse_material(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_material *m = &L->doc->materials[index];
    L->current_material = index;
    L->material_texcoord[index] = -1;
    static const char *const known[] = {"name",
                                        "pbrMetallicRoughness",
                                        "normalTexture",
                                        "occlusionTexture",
                                        "emissiveTexture",
                                        "emissiveFactor",
                                        "alphaMode",
                                        "alphaCutoff",
                                        "doubleSided",
                                        "KHR_materials_unlit",
                                        "KHR_materials_emissive_strength",
                                        NULL};
    ossa_io_check_members(L, item, known);
    m->name = ossa_io_dup_string(L, item, "name");
    for (int k = 0; k < 4; k++)
        m->base_color_factor[k] = 1.0f;
    m->base_color_texture = no_texture();
    const cJSON *pbr = ossa_io_get_object(L, item, "pbrMetallicRoughness", 0);
    if (pbr) {
        size_t mark = ossa_io_path_key(L, "pbrMetallicRoughness");
        static const char *const known_pbr[] = {"baseColorFactor",          "baseColorTexture",
                                                "metallicFactor",           "roughnessFactor",
                                                "metallicRoughnessTexture", NULL};
        ossa_io_check_members(L, pbr, known_pbr);
        ossa_io_get_floats(L, pbr, "baseColorFactor", m->base_color_factor, 4);
        m->base_color_texture = parse_texture_info(L, pbr, "baseColorTexture", NULL);
        ossa_io_get_number(L, pbr, "metallicFactor", 1.0);
        ossa_io_get_number(L, pbr, "roughnessFactor", 1.0);
        parse_texture_info(L, pbr, "metallicRoughnessTexture", NULL);
        ossa_io_path_restore(L, mark);
    }
    parse_texture_info(L, item, "normalTexture", "scale");
    parse_texture_info(L, item, "occlusionTexture", "strength");
    m->emissive_texture = parse_texture_info(L, item, "emissiveTexture", NULL);
    ossa_io_get_floats(L, item, "emissiveFactor", m->emissive_factor, 3);
    m->emissive_strength = 1.0f;
    parse_material_extensions(L, item, m);
    const char *mode = ossa_io_get_string(L, item, "alphaMode", 0);
    if (mode && !strcmp(mode, "MASK"))
        m->alpha_mode = OSSA_ALPHA_MASK;
    else if (mode && !strcmp(mode, "BLEND"))
        m->alpha_mode = OSSA_ALPHA_BLEND;
    else if (mode && strcmp(mode, "OPAQUE"))
        ossa_io_warn_key(L, "alphaMode", "'%s' is not OPAQUE, MASK or BLEND; drawn opaque", mode);
    double cutoff = ossa_io_get_number(L, item, "alphaCutoff", 0.5);
    if (cutoff < 0)
        ossa_io_fail_key(L, "alphaCutoff", OSSA_ERROR_INVALID, "must be at least 0, not %g",
                         cutoff);
    m->alpha_cutoff = (float)cutoff;
    m->double_sided = ossa_io_get_bool(L, item, "doubleSided", 0);
}

static void parse_camera(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    (void)index;
    static const char *const known[] = {"type", "perspective", "orthographic", "name", NULL};
    ossa_io_check_members(L, item, known);
    const char *type = ossa_io_get_string(L, item, "type", 1);
    if (strcmp(type, "perspective") && strcmp(type, "orthographic"))
        ossa_io_warn_key(L, "type", "'%s' is not perspective or orthographic", type);
    ossa_io_get_object(L, item, "perspective", 0);
    ossa_io_get_object(L, item, "orthographic", 0);
}

void ossa_texture_transform_matrix(const ossa_texture_transform *t, float m[6]) {
    static const float identity[6] = {1, 0, 0, 0, 1, 0};
    memcpy(m, identity, sizeof identity);
    if (!t || !t->present) return;
    /* offset + R * (scale * uv), R turning counter-clockwise in UV space (v points down) */
    float c = cosf(t->rotation), s = sinf(t->rotation);
    m[0] = c * t->scale[0], m[1] = s * t->scale[1], m[2] = t->offset[0];
    m[3] = -s * t->scale[0], m[4] = c * t->scale[1], m[5] = t->offset[1];
}

void ossa_io_parse_materials(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *images, *samplers, *textures, *materials, *cameras;
    doc->image_count = ossa_io_get_array(L, L->json.root, "images", &images, 0);
    doc->images = ossa_io_alloc_array(L, doc->image_count, sizeof *doc->images);
    for (uint32_t i = 0; i < doc->image_count; i++)
        doc->images[i].buffer_view = -1;
    ossa_io_visit(L, "images", images, parse_image);
    L->sampler_count = ossa_io_get_array(L, L->json.root, "samplers", &samplers, 0);
    ossa_io_visit(L, "samplers", samplers, parse_sampler);
    doc->texture_count = ossa_io_get_array(L, L->json.root, "textures", &textures, 0);
    doc->textures = ossa_io_alloc_array(L, doc->texture_count, sizeof *doc->textures);
    ossa_io_visit(L, "textures", textures, parse_texture);
    doc->material_count = ossa_io_get_array(L, L->json.root, "materials", &materials, 0);
    doc->materials = ossa_io_alloc_array(L, doc->material_count, sizeof *doc->materials);
    L->material_texcoord = ossa_io_alloc_array(L, doc->material_count, sizeof(int32_t));
    ossa_io_visit(L, "materials", materials, parse_material);
    L->camera_count = ossa_io_get_array(L, L->json.root, "cameras", &cameras, 0);
    ossa_io_visit(L, "cameras", cameras, parse_camera);
}
