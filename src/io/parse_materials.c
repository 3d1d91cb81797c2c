/* images, samplers, textures, materials and cameras: what rendering needs, checked for types. */
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

/* A textureInfo object ({index, texCoord, ...}); returns the reference. */
static ossa_texture_ref parse_texture_info(ossa_io_loader *L, const cJSON *object, const char *key,
                                           const char *extra) {
    ossa_texture_ref ref = {-1, 0};
    const cJSON *info = ossa_io_get_object(L, object, key, 0);
    if (!info) return ref;
    size_t mark = ossa_io_path_key(L, key);
    const char *known[] = {"index", "texCoord", extra, NULL};
    ossa_io_check_members(L, info, known);
    ref.index = ossa_io_get_index(L, info, "index", L->doc->texture_count, "texture", 1);
    ref.texcoord = (uint32_t)ossa_io_get_uint(L, info, "texCoord", 0, 0);
    if (extra) ossa_io_get_number(L, info, extra, 1.0);
    if (L->material_texcoord[L->current_material] < (int32_t)ref.texcoord)
        L->material_texcoord[L->current_material] = (int32_t)ref.texcoord;
    ossa_io_path_restore(L, mark);
    return ref;
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
                                        NULL};
    ossa_io_check_members(L, item, known);
    m->name = ossa_io_dup_string(L, item, "name");
    for (int k = 0; k < 4; k++)
        m->base_color_factor[k] = 1.0f;
    m->base_color_texture.index = -1;
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
    parse_texture_info(L, item, "emissiveTexture", NULL);
    float emissive[3];
    ossa_io_get_floats(L, item, "emissiveFactor", emissive, 3);
    const char *mode = ossa_io_get_string(L, item, "alphaMode", 0);
    if (mode && strcmp(mode, "OPAQUE") && strcmp(mode, "MASK") && strcmp(mode, "BLEND"))
        ossa_io_warn_key(L, "alphaMode", "'%s' is not OPAQUE, MASK or BLEND", mode);
    ossa_io_get_number(L, item, "alphaCutoff", 0.5);
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

void ossa_io_parse_materials(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *images, *samplers, *textures, *materials, *cameras;
    doc->image_count = ossa_io_get_array(L, L->root, "images", &images, 0);
    doc->images = ossa_io_alloc_array(L, doc->image_count, sizeof *doc->images);
    for (uint32_t i = 0; i < doc->image_count; i++)
        doc->images[i].buffer_view = -1;
    ossa_io_visit(L, "images", images, parse_image);
    L->sampler_count = ossa_io_get_array(L, L->root, "samplers", &samplers, 0);
    ossa_io_visit(L, "samplers", samplers, parse_sampler);
    doc->texture_count = ossa_io_get_array(L, L->root, "textures", &textures, 0);
    doc->textures = ossa_io_alloc_array(L, doc->texture_count, sizeof *doc->textures);
    ossa_io_visit(L, "textures", textures, parse_texture);
    doc->material_count = ossa_io_get_array(L, L->root, "materials", &materials, 0);
    doc->materials = ossa_io_alloc_array(L, doc->material_count, sizeof *doc->materials);
    L->material_texcoord = ossa_io_alloc_array(L, doc->material_count, sizeof(int32_t));
    ossa_io_visit(L, "materials", materials, parse_material);
    L->camera_count = ossa_io_get_array(L, L->root, "cameras", &cameras, 0);
    ossa_io_visit(L, "cameras", cameras, parse_camera);
}
