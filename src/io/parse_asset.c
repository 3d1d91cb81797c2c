/* asset, extensionsUsed, extensionsRequired and the root object's members. */
#include <string.h>

#include "io/loader.h"

/* Extensions ossa implements (the renderer draws the material, texture and instancing ones): a
 * file requiring any other one is refused, except those below. */
static const char *const implemented[] = {"KHR_mesh_quantization",
                                          "EXT_meshopt_compression",
                                          "KHR_materials_unlit",
                                          "KHR_materials_emissive_strength",
                                          "KHR_texture_transform",
                                          "EXT_mesh_gpu_instancing",
                                          NULL};

/* Extensions that only change how a model looks (materials and image formats): a file requiring
 * one still loads and animates; the renderer draws it without them. */
static const char *const appearance_only[] = {
    "KHR_materials_anisotropy", "KHR_materials_clearcoat",   "KHR_materials_dispersion",
    "KHR_materials_ior",        "KHR_materials_iridescence", "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_sheen",      "KHR_materials_specular",    "KHR_materials_transmission",
    "KHR_materials_variants",   "KHR_materials_volume",      "KHR_texture_basisu",
    "EXT_texture_avif",         "EXT_texture_webp",          NULL};

static int listed(const char *const *list, const char *name) {
    for (const char *const *k = list; *k; k++)
        if (!strcmp(*k, name)) return 1;
    return 0;
}

static uint32_t read_names(ossa_io_loader *L, const char *key, char ***out) {
    const cJSON *array;
    uint32_t count = ossa_io_get_array(L, L->json.root, key, &array, 0);
    size_t top = ossa_io_path_key(L, key);
    char **names = ossa_io_alloc_array(L, count, sizeof *names);
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        size_t mark = ossa_io_path_index(L, i);
        if (!cJSON_IsString(item)) ossa_io_fail(L, OSSA_ERROR_INVALID, "must be a string");
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(names[j], item->valuestring))
                ossa_io_warn(L, "'%s' is listed twice", item->valuestring);
        names[i++] = ossa_io_strdup(L, item->valuestring);
        ossa_io_path_restore(L, mark);
    }
    ossa_io_path_restore(L, top);
    *out = names;
    return count;
}

static void parse_version(ossa_io_loader *L, const cJSON *asset, const char *key, int required) {
    const char *version = ossa_io_get_string(L, asset, key, required);
    if (!version) return;
    unsigned major = 0, minor = 0;
    const char *p = version;
    int digits = 0;
    while (*p >= '0' && *p <= '9')
        major = major * 10 + (unsigned)(*p++ - '0'), digits++;
    int ok = digits > 0 && *p == '.';
    if (ok) {
        p++;
        digits = 0;
        while (*p >= '0' && *p <= '9')
            minor = minor * 10 + (unsigned)(*p++ - '0'), digits++;
        ok = digits > 0 && *p == '\0';
    }
    if (!ok)
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID,
                         "'%s' is not a version of the form MAJOR.MINOR", version);
    if (!strcmp(key, "version")) {
        if (major != 2)
            ossa_io_fail_key(L, key, OSSA_ERROR_UNSUPPORTED, "glTF %s is not supported (only 2.x)",
                             version);
        if (minor != 0) ossa_io_warn_key(L, key, "glTF %s is newer than 2.0; read as 2.0", version);
    } else if (major != 2 || minor > 0) {
        /* minVersion is what a reader must support to load the file at all (the spec's
         * implementation note; the Khronos asset generator expects 2.0 clients to refuse 2.1). */
        ossa_io_fail_key(L, key, OSSA_ERROR_UNSUPPORTED,
                         "the file needs glTF %s or newer; ossa reads glTF 2.0", version);
    }
}

void ossa_io_parse_asset(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    doc->extensions_used_count = read_names(L, "extensionsUsed", &doc->extensions_used);
    doc->extensions_required_count = read_names(L, "extensionsRequired", &doc->extensions_required);

    const cJSON *asset = ossa_io_get_object(L, L->json.root, "asset", 1);
    size_t mark = ossa_io_path_key(L, "asset");
    static const char *const known_asset[] = {"version", "minVersion", "generator", "copyright",
                                              NULL};
    ossa_io_check_members(L, asset, known_asset);
    parse_version(L, asset, "version", 1);
    parse_version(L, asset, "minVersion", 0);
    ossa_io_get_string(L, asset, "generator", 0);
    ossa_io_get_string(L, asset, "copyright", 0);
    ossa_io_path_restore(L, mark);

    for (uint32_t i = 0; i < doc->extensions_required_count; i++) {
        const char *name = doc->extensions_required[i];
        ossa_io_path_set(L, "extensionsRequired[%u]", i);
        if (listed(appearance_only, name))
            ossa_io_warn(L,
                         "'%s' only changes how the model looks: it loads and animates, but is "
                         "not drawn",
                         name);
        else if (!strcmp(name, "KHR_draco_mesh_compression"))
            ossa_io_fail(L, OSSA_ERROR_UNSUPPORTED,
                         "the file requires extension '%s', which ossa does not implement (see "
                         "README, Known limits); gltfpack -c compresses with "
                         "EXT_meshopt_compression, which ossa reads",
                         name);
        else if (!listed(implemented, name))
            ossa_io_fail(L, OSSA_ERROR_UNSUPPORTED,
                         "the file requires extension '%s', which ossa does not implement", name);
        int used = 0;
        for (uint32_t j = 0; j < doc->extensions_used_count; j++)
            used |= !strcmp(doc->extensions_used[j], name);
        if (!used) ossa_io_warn(L, "'%s' is required but not listed in extensionsUsed", name);
        if (!strcmp(name, "KHR_mesh_quantization")) L->quantization = 1;
    }
    for (uint32_t j = 0; j < doc->extensions_used_count; j++) {
        if (strcmp(doc->extensions_used[j], "KHR_mesh_quantization") || L->quantization) continue;
        ossa_io_path_set(L, "extensionsUsed[%u]", j);
        ossa_io_warn(L, "KHR_mesh_quantization must also be listed in extensionsRequired; "
                        "quantized accessors are accepted anyway");
        L->quantization = 1;
    }
    ossa_io_path_restore(L, 0);

    static const char *const known[] = {
        "asset",  "buffers",   "bufferViews", "accessors",      "animations",         "cameras",
        "images", "materials", "meshes",      "nodes",          "samplers",           "scene",
        "scenes", "skins",     "textures",    "extensionsUsed", "extensionsRequired", NULL};
    ossa_io_check_members(L, L->json.root, known);
}
