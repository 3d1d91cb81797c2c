/* Builds glTF JSON with cJSON and packs accessor data into one binary buffer. */
#include "gltf_builder.h"

#include <stdlib.h>
#include <string.h>

static cJSON *add_top_array(gltf_builder *b, const char *key) {
    cJSON *array = cJSON_AddArrayToObject(b->root, key);
    if (!array) b->failed = 1;
    return array;
}

int gltf_builder_init(gltf_builder *b, const char *generator) {
    memset(b, 0, sizeof *b);
    b->root = cJSON_CreateObject();
    if (!b->root) {
        b->failed = 1;
        return 0;
    }
    cJSON *asset = gltf_object(b, b->root, "asset");
    gltf_set_string(b, asset, "version", "2.0");
    gltf_set_string(b, asset, "generator", generator);
    /* Keys in the order a reader expects them; empty arrays are removed when printing. */
    gltf_set_number(b, b->root, "scene", 0);
    b->scenes = add_top_array(b, "scenes");
    b->nodes = add_top_array(b, "nodes");
    b->meshes = add_top_array(b, "meshes");
    b->materials = add_top_array(b, "materials");
    b->skins = add_top_array(b, "skins");
    b->animations = add_top_array(b, "animations");
    b->accessors = add_top_array(b, "accessors");
    b->buffer_views = add_top_array(b, "bufferViews");
    return !b->failed;
}

void gltf_builder_release(gltf_builder *b) {
    cJSON_Delete(b->root);
    free(b->bin);
    memset(b, 0, sizeof *b);
}

cJSON *gltf_append(gltf_builder *b, cJSON *array) {
    if (b->failed || !array) return NULL;
    cJSON *obj = cJSON_CreateObject();
    if (!obj || !cJSON_AddItemToArray(array, obj)) {
        cJSON_Delete(obj);
        b->failed = 1;
        return NULL;
    }
    return obj;
}

int gltf_next_index(const cJSON *array) {
    return cJSON_GetArraySize(array);
}

static void check(gltf_builder *b, const void *added) {
    if (!added) b->failed = 1;
}

void gltf_set_number(gltf_builder *b, cJSON *obj, const char *key, double value) {
    if (b->failed || !obj) return;
    check(b, cJSON_AddNumberToObject(obj, key, value));
}

void gltf_set_string(gltf_builder *b, cJSON *obj, const char *key, const char *value) {
    if (b->failed || !obj) return;
    check(b, cJSON_AddStringToObject(obj, key, value));
}

void gltf_set_bool(gltf_builder *b, cJSON *obj, const char *key, int value) {
    if (b->failed || !obj) return;
    check(b, cJSON_AddBoolToObject(obj, key, value));
}

void gltf_set_floats(gltf_builder *b, cJSON *obj, const char *key, const float *values, int n) {
    cJSON *array = gltf_array(b, obj, key);
    for (int i = 0; array && i < n && !b->failed; i++) {
        cJSON *item = cJSON_CreateNumber(values[i]);
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            b->failed = 1;
        }
    }
}

void gltf_set_ints(gltf_builder *b, cJSON *obj, const char *key, const int *values, int n) {
    cJSON *array = gltf_array(b, obj, key);
    for (int i = 0; array && i < n; i++)
        gltf_push_int(b, array, values[i]);
}

cJSON *gltf_object(gltf_builder *b, cJSON *obj, const char *key) {
    if (b->failed || !obj) return NULL;
    cJSON *found = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (found) return found;
    cJSON *added = cJSON_AddObjectToObject(obj, key);
    check(b, added);
    return added;
}

cJSON *gltf_array(gltf_builder *b, cJSON *obj, const char *key) {
    if (b->failed || !obj) return NULL;
    cJSON *added = cJSON_AddArrayToObject(obj, key);
    check(b, added);
    return added;
}

void gltf_push_int(gltf_builder *b, cJSON *array, int value) {
    if (b->failed || !array) return;
    cJSON *item = cJSON_CreateNumber(value);
    if (!item || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        b->failed = 1;
    }
}

/* Appends bytes at a 4-byte aligned offset (what vertex attributes and floats need) and
 * returns that offset; SIZE_MAX on failure. */
static size_t append_bin(gltf_builder *b, const void *data, size_t size) {
    size_t offset = (b->bin_size + 3u) & ~(size_t)3u;
    size_t end = offset + ((size + 3u) & ~(size_t)3u);
    if (end > b->bin_capacity) {
        size_t capacity = b->bin_capacity ? b->bin_capacity : 4096;
        while (capacity < end)
            capacity *= 2;
        uint8_t *grown = realloc(b->bin, capacity);
        if (!grown) {
            b->failed = 1;
            return SIZE_MAX;
        }
        b->bin = grown;
        b->bin_capacity = capacity;
    }
    memset(b->bin + b->bin_size, 0, end - b->bin_size);
    memcpy(b->bin + offset, data, size);
    b->bin_size = end;
    return offset;
}

/* Adds a buffer view over the given bytes and returns its index (-1 on failure). */
static int add_buffer_view(gltf_builder *b, const void *data, size_t size, uint32_t target) {
    if (b->failed) return -1;
    size_t offset = append_bin(b, data, size);
    int index = gltf_next_index(b->buffer_views);
    cJSON *view = gltf_append(b, b->buffer_views);
    gltf_set_number(b, view, "buffer", 0);
    gltf_set_number(b, view, "byteOffset", (double)offset);
    gltf_set_number(b, view, "byteLength", (double)size);
    if (target) gltf_set_number(b, view, "target", target);
    return b->failed ? -1 : index;
}

static cJSON *add_accessor(gltf_builder *b, int view, int component_type, uint32_t count,
                           const char *type) {
    cJSON *accessor = gltf_append(b, b->accessors);
    gltf_set_number(b, accessor, "bufferView", view);
    gltf_set_number(b, accessor, "componentType", component_type);
    gltf_set_number(b, accessor, "count", count);
    gltf_set_string(b, accessor, "type", type);
    return accessor;
}

int gltf_add_float_accessor(gltf_builder *b, const float *data, uint32_t count, const char *type,
                            int components, uint32_t target, int with_bounds) {
    int index = gltf_next_index(b->accessors);
    int view = add_buffer_view(b, data, (size_t)count * (size_t)components * sizeof(float), target);
    cJSON *accessor = add_accessor(b, view, 5126, count, type);
    if (with_bounds && count > 0 && components <= 16) {
        float lo[16], hi[16];
        for (int c = 0; c < components; c++)
            lo[c] = hi[c] = data[c];
        for (uint32_t i = 1; i < count; i++)
            for (int c = 0; c < components; c++) {
                float v = data[(size_t)i * (size_t)components + (size_t)c];
                if (v < lo[c]) lo[c] = v;
                if (v > hi[c]) hi[c] = v;
            }
        gltf_set_floats(b, accessor, "min", lo, components);
        gltf_set_floats(b, accessor, "max", hi, components);
    }
    return b->failed ? -1 : index;
}

int gltf_add_uint_accessor(gltf_builder *b, const void *data, uint32_t count, int component_size,
                           const char *type, int components, uint32_t target) {
    int index = gltf_next_index(b->accessors);
    size_t size = (size_t)count * (size_t)components * (size_t)component_size;
    int view = add_buffer_view(b, data, size, target);
    add_accessor(b, view, component_size == 1 ? 5121 : 5123, count, type);
    return b->failed ? -1 : index;
}

/* Removes top-level arrays that stayed empty (glTF forbids empty arrays). */
static void drop_empty_arrays(gltf_builder *b) {
    cJSON **arrays[] = {&b->scenes, &b->nodes,      &b->meshes,    &b->materials,
                        &b->skins,  &b->animations, &b->accessors, &b->buffer_views};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        cJSON *array = *arrays[i];
        if (array && cJSON_GetArraySize(array) == 0) {
            cJSON_Delete(cJSON_DetachItemViaPointer(b->root, array));
            *arrays[i] = NULL;
        }
    }
    if (!b->scenes) cJSON_DeleteItemFromObjectCaseSensitive(b->root, "scene");
}

char *gltf_builder_print(gltf_builder *b) {
    if (b->failed) return NULL;
    if (b->bin_size > 0) {
        cJSON *buffers = gltf_array(b, b->root, "buffers");
        cJSON *buffer = gltf_append(b, buffers);
        gltf_set_number(b, buffer, "byteLength", (double)b->bin_size);
    }
    drop_empty_arrays(b);
    if (b->failed) return NULL;
    char *text = cJSON_PrintUnformatted(b->root);
    if (!text) b->failed = 1;
    return text;
}
