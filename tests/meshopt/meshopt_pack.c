#include "meshopt_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <meshoptimizer.h>

#include "io_test_util.h"
#include "test_support.h"

/* How the original file's accessors use one buffer view. */
typedef struct view_use {
    uint32_t index_size;   /* component size of the index accessors on it (0: none, 1, 2 or 4) */
    int index_sizes_mixed; /* index accessors of different sizes */
    int triangle_lists;    /* every index accessor on it is a whole triangle list */
    int other_use;         /* used by something else than indices */
    uint32_t element_size; /* of the first non-index accessor on it, 0 when unknown */
} view_use;

static int json_int(const cJSON *object, const char *key, int fallback) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsNumber(item) ? item->valueint : fallback;
}

static uint32_t components(const char *type) {
    static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
    static const uint32_t counts[] = {1, 2, 3, 4, 4, 9, 16};
    for (int i = 0; i < 7; i++)
        if (!strcmp(names[i], type)) return counts[i];
    return 0;
}

static void note_index_use(view_use *u, uint32_t size, int triangles) {
    if (u->index_size && u->index_size != size) u->index_sizes_mixed = 1;
    u->index_size = size;
    if (!triangles) u->triangle_lists = 0;
}

static view_use *analyse_views(const cJSON *root, uint32_t view_count) {
    view_use *use = calloc(view_count + 1, sizeof *use);
    for (uint32_t v = 0; v < view_count; v++)
        use[v].triangle_lists = 1;
    const cJSON *accessors = cJSON_GetObjectItemCaseSensitive(root, "accessors");
    /* Index accessors first: which accessors are triangle-list indices. */
    int accessor_count = cJSON_GetArraySize(accessors);
    int *index_kind = calloc((size_t)accessor_count + 1, sizeof *index_kind); /* 1 tri, 2 other */
    const cJSON *mesh, *prim;
    cJSON_ArrayForEach(mesh, cJSON_GetObjectItemCaseSensitive(root, "meshes")) {
        cJSON_ArrayForEach(prim, cJSON_GetObjectItemCaseSensitive(mesh, "primitives")) {
            int a = json_int(prim, "indices", -1);
            if (a < 0 || a >= accessor_count) continue;
            int tri = json_int(prim, "mode", 4) == 4;
            if (index_kind[a] != 2) index_kind[a] = tri ? 1 : 2;
        }
    }
    int a = 0;
    const cJSON *acc;
    cJSON_ArrayForEach(acc, accessors) {
        int v = json_int(acc, "bufferView", -1);
        uint32_t csize =
            ossa_component_size((ossa_component_type)json_int(acc, "componentType", 0));
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(acc, "type");
        uint32_t n = cJSON_IsString(type) ? components(type->valuestring) : 0;
        if (v >= 0 && (uint32_t)v < view_count) {
            if (index_kind[a]) {
                int count = json_int(acc, "count", 0), offset = json_int(acc, "byteOffset", 0);
                int whole = index_kind[a] == 1 && count % 3 == 0 && offset % (3 * (int)csize) == 0;
                note_index_use(&use[v], csize, whole);
            } else {
                use[v].other_use = 1;
                if (!use[v].element_size && n <= 4) use[v].element_size = csize * n;
            }
        }
        const cJSON *sparse = cJSON_GetObjectItemCaseSensitive(acc, "sparse");
        const cJSON *indices = cJSON_GetObjectItemCaseSensitive(sparse, "indices");
        int sv = json_int(indices, "bufferView", -1);
        if (sv >= 0 && (uint32_t)sv < view_count)
            note_index_use(
                &use[sv],
                ossa_component_size((ossa_component_type)json_int(indices, "componentType", 0)), 0);
        const cJSON *values = cJSON_GetObjectItemCaseSensitive(sparse, "values");
        int vv = json_int(values, "bufferView", -1);
        if (vv >= 0 && (uint32_t)vv < view_count) use[vv].other_use = 1;
        a++;
    }
    free(index_kind);
    return use;
}

/* The mode and stride a view is stored with; PACK_PLAIN when no lossless mode holds it. */
static int choose_mode(const view_use *u, const ossa_buffer_view *v, int use_triangles,
                       uint32_t *stride) {
    uint64_t n = v->byte_length;
    int index_view = u->index_size && !u->other_use && !u->index_sizes_mixed;
    if (index_view && (u->index_size == 2 || u->index_size == 4) && n % u->index_size == 0) {
        *stride = u->index_size;
        if (use_triangles && u->triangle_lists && (n / u->index_size) % 3 == 0)
            return PACK_TRIANGLES;
        return PACK_INDICES;
    }
    if (n % 4) return PACK_PLAIN;
    if (v->byte_stride)
        *stride = v->byte_stride;
    else if (u->element_size && u->element_size % 4 == 0 && n % u->element_size == 0)
        *stride = u->element_size;
    else
        *stride = 4;
    return PACK_ATTRIBUTES;
}

/* Growing byte arrays for the two buffers of the copy. */
typedef struct bytes {
    uint8_t *data;
    size_t size, cap;
} bytes;

/* Reserves n bytes at an offset congruent to `phase` modulo 4 (keeps accessor alignment). */
static size_t reserve(bytes *b, size_t n, uint64_t phase) {
    size_t at = b->size;
    while (at % 4 != phase % 4)
        at++;
    if (at + n > b->cap) {
        b->cap = (at + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
    }
    memset(b->data + b->size, 0, at + n - b->size);
    b->size = at + n;
    return at;
}

static size_t encode(int mode, const uint8_t *src, uint64_t length, uint32_t stride, bytes *bin) {
    size_t count = (size_t)(length / stride);
    if (mode == PACK_ATTRIBUTES) {
        size_t bound = meshopt_encodeVertexBufferBound(count, stride);
        size_t at = reserve(bin, bound, 0);
        size_t n = meshopt_encodeVertexBuffer(bin->data + at, bound, src, count, stride);
        bin->size = at + n;
        return n ? at : (size_t)-1;
    }
    unsigned *indices = malloc(count * sizeof *indices + 1);
    unsigned max_index = 0;
    for (size_t i = 0; i < count; i++) {
        if (stride == 2) {
            uint16_t v;
            memcpy(&v, src + 2 * i, 2);
            indices[i] = v;
        } else {
            memcpy(&indices[i], src + 4 * i, 4);
        }
        if (indices[i] > max_index) max_index = indices[i];
    }
    size_t bound = mode == PACK_TRIANGLES
                       ? meshopt_encodeIndexBufferBound(count, (size_t)max_index + 1)
                       : meshopt_encodeIndexSequenceBound(count, (size_t)max_index + 1);
    size_t at = reserve(bin, bound, 0);
    size_t n = mode == PACK_TRIANGLES
                   ? meshopt_encodeIndexBuffer(bin->data + at, bound, indices, count)
                   : meshopt_encodeIndexSequence(bin->data + at, bound, indices, count);
    free(indices);
    bin->size = at + n;
    return n ? at : (size_t)-1;
}

/* The JSON chunk of a GLB, or the whole file (NUL-terminated copy). */
static char *json_text(const uint8_t *file, size_t size) {
    const uint8_t *json = file;
    size_t n = size;
    if (size >= 20 && !memcmp(file, "glTF", 4)) {
        n = (size_t)file[12] | (size_t)file[13] << 8 | (size_t)file[14] << 16 |
            (size_t)file[15] << 24;
        json = file + 20;
        if (n > size - 20) return NULL;
    }
    char *text = malloc(n + 1);
    memcpy(text, json, n);
    text[n] = '\0';
    return text;
}

static void add_name(cJSON *root, const char *key, const char *name) {
    cJSON *list = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!list) list = cJSON_AddArrayToObject(root, key);
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (cJSON_IsString(item) && !strcmp(item->valuestring, name)) return;
    }
    cJSON_AddItemToArray(list, cJSON_CreateString(name));
}

/* Rewrites bufferViews and buffers of root into the compressed layout. */
static int rewrite(cJSON *root, const ossa_document *doc, const view_use *use, int use_triangles,
                   pack_result *out) {
    bytes bin = {0}, decoded = {0};
    cJSON *views = cJSON_GetObjectItemCaseSensitive(root, "bufferViews");
    for (uint32_t i = 0; i < doc->buffer_view_count; i++) {
        const ossa_buffer_view *v = &doc->buffer_views[i];
        const uint8_t *src = doc->buffers[v->buffer].data + v->byte_offset;
        cJSON *view = cJSON_GetArrayItem(views, (int)i);
        uint32_t stride = 0;
        int mode = choose_mode(&use[i], v, use_triangles, &stride);
        size_t at =
            mode == PACK_PLAIN ? (size_t)-1 : encode(mode, src, v->byte_length, stride, &bin);
        if (mode != PACK_PLAIN && at == (size_t)-1) {
            fprintf(stderr, "pack: view %u does not encode\n", i);
            free(bin.data);
            free(decoded.data);
            return 0;
        }
        out->view_mode[i] = mode;
        if (mode == PACK_PLAIN) {
            size_t where = reserve(&bin, (size_t)v->byte_length, v->byte_offset);
            memcpy(bin.data + where, src, (size_t)v->byte_length);
            cJSON_ReplaceItemInObject(view, "buffer", cJSON_CreateNumber(0));
            cJSON_DeleteItemFromObject(view, "byteOffset");
            cJSON_AddNumberToObject(view, "byteOffset", (double)where);
            continue;
        }
        out->count[mode]++;
        size_t where = reserve(&decoded, (size_t)v->byte_length, v->byte_offset);
        cJSON_ReplaceItemInObject(view, "buffer", cJSON_CreateNumber(1));
        cJSON_DeleteItemFromObject(view, "byteOffset");
        cJSON_AddNumberToObject(view, "byteOffset", (double)where);
        cJSON *ext = cJSON_CreateObject();
        cJSON_AddNumberToObject(ext, "buffer", 0);
        cJSON_AddNumberToObject(ext, "byteOffset", (double)at);
        cJSON_AddNumberToObject(ext, "byteLength", (double)(bin.size - at));
        cJSON_AddNumberToObject(ext, "byteStride", stride);
        cJSON_AddNumberToObject(ext, "count", (double)(v->byte_length / stride));
        static const char *const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
        cJSON_AddStringToObject(ext, "mode", modes[mode]);
        cJSON *extensions = cJSON_AddObjectToObject(view, "extensions");
        cJSON_AddItemToObject(extensions, "EXT_meshopt_compression", ext);
    }
    cJSON *buffers = cJSON_CreateArray();
    cJSON *b0 = cJSON_CreateObject();
    cJSON_AddNumberToObject(b0, "byteLength", (double)(bin.size ? bin.size : 4));
    cJSON_AddItemToArray(buffers, b0);
    cJSON *b1 = cJSON_CreateObject();
    cJSON_AddNumberToObject(b1, "byteLength", (double)(decoded.size ? decoded.size : 4));
    cJSON *b1ext = cJSON_AddObjectToObject(cJSON_AddObjectToObject(b1, "extensions"),
                                           "EXT_meshopt_compression");
    cJSON_AddTrueToObject(b1ext, "fallback");
    cJSON_AddItemToArray(buffers, b1);
    cJSON_ReplaceItemInObject(root, "buffers", buffers);
    add_name(root, "extensionsUsed", "EXT_meshopt_compression");
    add_name(root, "extensionsRequired", "EXT_meshopt_compression");
    char *json = cJSON_PrintUnformatted(root);
    if (!bin.size) reserve(&bin, 4, 0);
    out->glb = io_make_glb(json, bin.data, bin.size, &out->glb_size);
    free(json);
    free(bin.data);
    free(decoded.data);
    return 1;
}

int pack_model(const char *path, int use_triangles, pack_result *out) {
    memset(out, 0, sizeof *out);
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, NULL, &doc, &error) != OSSA_OK) {
        fprintf(stderr, "pack: %s: %s\n", path, error.message);
        return 0;
    }
    size_t size;
    uint8_t *file = ossa_test_read_file(path, &size);
    char *text = file ? json_text(file, size) : NULL;
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(file);
    free(text);
    int ok = root != NULL;
    if (ok) {
        out->view_count = doc->buffer_view_count;
        out->view_mode = calloc(doc->buffer_view_count + 1, sizeof *out->view_mode);
        view_use *use = analyse_views(root, doc->buffer_view_count);
        ok = rewrite(root, doc, use, use_triangles, out);
        free(use);
    }
    cJSON_Delete(root);
    ossa_document_free(doc);
    if (!ok) pack_result_free(out);
    return ok;
}

void pack_result_free(pack_result *r) {
    free(r->glb);
    free(r->view_mode);
    memset(r, 0, sizeof *r);
}

int pack_write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}
