/* KHR_animation_pointer: a channel target's JSON pointer (RFC 6901) resolved to what ossa
 * models. Node translation / rotation / scale / weights become ordinary channels (node and path
 * set), a mesh's weights and material, camera and light properties a pointer target. A pointer
 * that is not a JSON pointer, names an element that does not exist, or a property the file does
 * not define (one without a default, or whose enclosing object is absent) is refused; a
 * well-formed pointer to anything else is a warning naming it, and the channel is ignored. */
#include <string.h>

#include "io/loader.h"

#define MAX_TOKENS  10
#define TOKEN_CHARS 64

typedef struct pointer_tokens {
    uint32_t count;
    char token[MAX_TOKENS][TOKEN_CHARS];
} pointer_tokens;

/* The collections a pointer may index, by the tokens that lead to the index. */
enum {
    COLLECTION_NODES,
    COLLECTION_MESHES,
    COLLECTION_MATERIALS,
    COLLECTION_CAMERAS,
    COLLECTION_LIGHTS
};

static const struct {
    const char *prefix[3];
    uint32_t length;
} collections[] = {{{"nodes"}, 1},
                   {{"meshes"}, 1},
                   {{"materials"}, 1},
                   {{"cameras"}, 1},
                   {{"extensions", "KHR_lights_punctual", "lights"}, 3}};

/* A modelled property: the tokens after the collection's index. node_path >= 0: an ordinary
 * channel of that ossa_path; else the pointer target. has_default: defined as soon as its
 * enclosing object is. */
static const struct {
    int collection;
    const char *suffix;
    int node_path;
    ossa_pointer_target target;
    int has_default;
} forms[] = {
    {COLLECTION_NODES, "translation", OSSA_PATH_TRANSLATION, OSSA_POINTER_NONE, 1},
    {COLLECTION_NODES, "rotation", OSSA_PATH_ROTATION, OSSA_POINTER_NONE, 1},
    {COLLECTION_NODES, "scale", OSSA_PATH_SCALE, OSSA_POINTER_NONE, 1},
    {COLLECTION_NODES, "weights", OSSA_PATH_WEIGHTS, OSSA_POINTER_NONE, 1},
    {COLLECTION_MESHES, "weights", -1, OSSA_POINTER_MESH_WEIGHTS, 1},
    {COLLECTION_MATERIALS, "pbrMetallicRoughness/baseColorFactor", -1, OSSA_POINTER_BASE_COLOR, 1},
    {COLLECTION_MATERIALS, "emissiveFactor", -1, OSSA_POINTER_EMISSIVE, 1},
    {COLLECTION_MATERIALS, "alphaCutoff", -1, OSSA_POINTER_ALPHA_CUTOFF, 1},
    {COLLECTION_MATERIALS, "extensions/KHR_materials_emissive_strength/emissiveStrength", -1,
     OSSA_POINTER_EMISSIVE_STRENGTH, 1},
    {COLLECTION_MATERIALS,
     "pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset", -1,
     OSSA_POINTER_BASE_COLOR_UV_OFFSET, 1},
    {COLLECTION_MATERIALS,
     "pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/rotation", -1,
     OSSA_POINTER_BASE_COLOR_UV_ROTATION, 1},
    {COLLECTION_MATERIALS,
     "pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/scale", -1,
     OSSA_POINTER_BASE_COLOR_UV_SCALE, 1},
    {COLLECTION_MATERIALS, "emissiveTexture/extensions/KHR_texture_transform/offset", -1,
     OSSA_POINTER_EMISSIVE_UV_OFFSET, 1},
    {COLLECTION_MATERIALS, "emissiveTexture/extensions/KHR_texture_transform/rotation", -1,
     OSSA_POINTER_EMISSIVE_UV_ROTATION, 1},
    {COLLECTION_MATERIALS, "emissiveTexture/extensions/KHR_texture_transform/scale", -1,
     OSSA_POINTER_EMISSIVE_UV_SCALE, 1},
    {COLLECTION_CAMERAS, "perspective/yfov", -1, OSSA_POINTER_CAMERA_YFOV, 0},
    {COLLECTION_CAMERAS, "perspective/aspectRatio", -1, OSSA_POINTER_CAMERA_ASPECT_RATIO, 0},
    {COLLECTION_CAMERAS, "perspective/znear", -1, OSSA_POINTER_CAMERA_ZNEAR, 0},
    {COLLECTION_CAMERAS, "perspective/zfar", -1, OSSA_POINTER_CAMERA_ZFAR, 0},
    {COLLECTION_CAMERAS, "orthographic/xmag", -1, OSSA_POINTER_CAMERA_XMAG, 0},
    {COLLECTION_CAMERAS, "orthographic/ymag", -1, OSSA_POINTER_CAMERA_YMAG, 0},
    {COLLECTION_CAMERAS, "orthographic/znear", -1, OSSA_POINTER_CAMERA_ZNEAR, 0},
    {COLLECTION_CAMERAS, "orthographic/zfar", -1, OSSA_POINTER_CAMERA_ZFAR, 0},
    {COLLECTION_LIGHTS, "color", -1, OSSA_POINTER_LIGHT_COLOR, 1},
    {COLLECTION_LIGHTS, "intensity", -1, OSSA_POINTER_LIGHT_INTENSITY, 1},
    {COLLECTION_LIGHTS, "range", -1, OSSA_POINTER_LIGHT_RANGE, 0},
    {COLLECTION_LIGHTS, "spot/innerConeAngle", -1, OSSA_POINTER_LIGHT_SPOT_INNER_ANGLE, 1},
    {COLLECTION_LIGHTS, "spot/outerConeAngle", -1, OSSA_POINTER_LIGHT_SPOT_OUTER_ANGLE, 1},
};

uint32_t ossa_pointer_target_components(ossa_pointer_target target) {
    switch (target) {
    case OSSA_POINTER_NONE:
        return 0;
    case OSSA_POINTER_BASE_COLOR:
        return 4;
    case OSSA_POINTER_EMISSIVE:
    case OSSA_POINTER_LIGHT_COLOR:
        return 3;
    case OSSA_POINTER_BASE_COLOR_UV_OFFSET:
    case OSSA_POINTER_BASE_COLOR_UV_SCALE:
    case OSSA_POINTER_EMISSIVE_UV_OFFSET:
    case OSSA_POINTER_EMISSIVE_UV_SCALE:
        return 2;
    default:
        return 1;
    }
}

/* Splits the pointer into unescaped tokens; refuses what is not a JSON pointer. Returns 0 when
 * it has more (or longer) tokens than any pointer ossa models. */
static int split(ossa_io_loader *L, const char *pointer, pointer_tokens *out) {
    if (pointer[0] != '/')
        ossa_io_fail_key(L, "pointer", OSSA_ERROR_INVALID,
                         "'%s' is not a JSON pointer to a property (it must start with '/')",
                         pointer);
    int fits = 1;
    out->count = 0;
    for (const char *p = pointer; *p;) {
        p++; /* the '/' */
        size_t length = 0;
        char token[TOKEN_CHARS];
        for (; *p && *p != '/'; p++) {
            char ch = *p;
            if (ch == '~') {
                if (p[1] != '0' && p[1] != '1')
                    ossa_io_fail_key(L, "pointer", OSSA_ERROR_INVALID,
                                     "'%s' is not a JSON pointer: '~' must be followed by 0 or 1",
                                     pointer);
                ch = *++p == '0' ? '~' : '/';
            }
            if (length + 1 < TOKEN_CHARS)
                token[length] = ch;
            else
                fits = 0;
            length++;
        }
        if (!fits || out->count == MAX_TOKENS) {
            fits = 0;
            continue;
        }
        memcpy(out->token[out->count], token, length);
        out->token[out->count++][length] = '\0';
    }
    return fits;
}

/* The array a collection's tokens lead to in the JSON, NULL when absent. */
static const cJSON *collection_array(const ossa_io_loader *L, int collection) {
    const cJSON *at = L->json.root;
    for (uint32_t k = 0; at && k < collections[collection].length; k++)
        at = ossa_io_member(at, collections[collection].prefix[k]);
    return cJSON_IsArray(at) ? at : NULL;
}

/* 1 when tokens [first, count) spell `suffix` ("a/b/c"). */
static int suffix_matches(const pointer_tokens *t, uint32_t first, const char *suffix) {
    for (uint32_t k = first; k < t->count; k++) {
        size_t n = strlen(t->token[k]);
        if (strncmp(suffix, t->token[k], n) || (suffix[n] != '/' && suffix[n] != '\0')) return 0;
        suffix += n;
        if (*suffix == '\0') return k + 1 == t->count;
        suffix++;
    }
    return 0;
}

/* The element index a token names, refused when it is not a canonical index of the array. */
static int32_t element_index(ossa_io_loader *L, const char *pointer, const char *token,
                             const cJSON *array) {
    uint32_t count = array ? (uint32_t)cJSON_GetArraySize(array) : 0;
    int canonical = token[0] >= '0' && token[0] <= '9' && (token[0] != '0' || !token[1]);
    uint64_t value = 0;
    for (const char *p = token; canonical && *p; p++) {
        canonical = *p >= '0' && *p <= '9';
        value = value * 10 + (uint64_t)(*p - '0');
        if (value > UINT32_MAX) break;
    }
    if (!canonical)
        ossa_io_fail_key(L, "pointer", OSSA_ERROR_INVALID, "'%s': '%s' is not an array index",
                         pointer, token);
    if (value >= count)
        ossa_io_fail_key(L, "pointer", OSSA_ERROR_INVALID,
                         "'%s': index %s is out of range (the array has %u elements)", pointer,
                         token, count);
    return (int32_t)value;
}

/* Refuses a pointer to a property the file does not define: every object on the way must be
 * there, and the property itself unless it has a default. */
static void check_defined(ossa_io_loader *L, const char *pointer, const cJSON *element,
                          const pointer_tokens *t, uint32_t first, int has_default) {
    const cJSON *at = element;
    for (uint32_t k = first; k < t->count; k++) {
        const cJSON *next = ossa_io_member(at, t->token[k]);
        int last = k + 1 == t->count;
        if (last ? !next && !has_default : !cJSON_IsObject(next))
            ossa_io_fail_key(L, "pointer", OSSA_ERROR_INVALID,
                             "'%s' points to a property the file does not define ('%s' is "
                             "absent)",
                             pointer, t->token[k]);
        at = next;
    }
}

void ossa_io_parse_pointer(ossa_io_loader *L, const cJSON *target, ossa_animation_channel *c,
                           const char *path) {
    c->node = -1;
    c->path = OSSA_PATH_TRANSLATION;
    const cJSON *ext = ossa_io_get_extension(L, target, "KHR_animation_pointer");
    if (ext && strcmp(path, "pointer")) {
        ossa_io_path_key(L, "extensions");
        ossa_io_fail_key(L, "KHR_animation_pointer", OSSA_ERROR_INVALID,
                         "needs the target's path to be 'pointer', not '%s'", path);
    }
    if (!ext && !ossa_io_extension_used(L, "KHR_animation_pointer")) {
        /* a file without the extension: 'pointer' is an unknown path, as for any reader */
        ossa_io_warn_key(L, "path",
                         "'pointer' needs KHR_animation_pointer, which extensionsUsed does not "
                         "list; the channel is ignored");
        return;
    }
    if (!ext)
        ossa_io_fail_key(L, "path", OSSA_ERROR_INVALID,
                         "is 'pointer' without a KHR_animation_pointer object "
                         "in the target's extensions giving the pointer");
    if (ossa_io_member(target, "node"))
        ossa_io_fail_key(L, "node", OSSA_ERROR_INVALID,
                         "must not be set when the path is 'pointer' (KHR_animation_pointer)");
    size_t mark = ossa_io_path_key(L, "extensions");
    ossa_io_path_key(L, "KHR_animation_pointer");
    static const char *const known[] = {"pointer", NULL};
    ossa_io_check_members(L, ext, known);
    const char *pointer = ossa_io_get_string(L, ext, "pointer", 1);
    c->pointer = ossa_io_strdup(L, pointer);
    pointer_tokens t;
    int fits = split(L, pointer, &t);
    for (int col = 0; fits && col < (int)(sizeof collections / sizeof collections[0]); col++) {
        uint32_t n = collections[col].length;
        if (t.count <= n) continue;
        uint32_t k = 0;
        while (k < n && !strcmp(t.token[k], collections[col].prefix[k]))
            k++;
        if (k < n) continue;
        const cJSON *array = collection_array(L, col);
        int32_t index = element_index(L, pointer, t.token[n], array);
        const cJSON *element = cJSON_GetArrayItem(array, index);
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            if (forms[f].collection != col || !suffix_matches(&t, n + 1, forms[f].suffix)) continue;
            check_defined(L, pointer, element, &t, n + 1, forms[f].has_default);
            if (forms[f].node_path >= 0) {
                c->node = index;
                c->path = (ossa_path)forms[f].node_path;
            } else {
                c->pointer_target = forms[f].target;
                c->pointer_index = index;
            }
            ossa_io_path_restore(L, mark);
            return;
        }
        break;
    }
    ossa_io_warn_key(L, "pointer",
                     "'%s' animates a property ossa does not model; the channel "
                     "is ignored",
                     pointer);
    ossa_io_path_restore(L, mark);
}
