/* buffers and bufferViews: metadata, then the bytes of every buffer a view uses. */
#include <string.h>

#include "io/loader.h"
#include "io/meshopt.h"

static void parse_buffer_views(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    uint32_t count = ossa_io_get_array(L, L->json.root, "bufferViews", &array, 0);
    size_t top = ossa_io_path_key(L, "bufferViews");
    doc->buffer_views = ossa_io_alloc_array(L, count, sizeof *doc->buffer_views);
    L->view_usage = ossa_io_alloc_array(L, count, 1);
    L->view_vertex_accessor = ossa_io_alloc_array(L, count, sizeof *L->view_vertex_accessor);
    for (uint32_t k = 0; k < count; k++)
        L->view_vertex_accessor[k] = -1;
    doc->buffer_view_count = count;
    static const char *const known[] = {"buffer",
                                        "byteOffset",
                                        "byteLength",
                                        "byteStride",
                                        "target",
                                        "name",
                                        "EXT_meshopt_compression",
                                        NULL};
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, item);
        ossa_io_check_members(L, item, known);
        ossa_buffer_view *v = &doc->buffer_views[i];
        v->buffer = ossa_io_get_index(L, item, "buffer", doc->buffer_count, "buffer", 1);
        v->byte_offset = ossa_io_get_uint(L, item, "byteOffset", 0, 0);
        v->byte_length = ossa_io_get_uint(L, item, "byteLength", 0, 1);
        if (v->byte_length == 0)
            ossa_io_fail_key(L, "byteLength", OSSA_ERROR_INVALID, "must be at least 1");
        uint64_t stride = ossa_io_get_uint(L, item, "byteStride", 0, 0);
        if (ossa_io_member(item, "byteStride") && (stride < 4 || stride > 252 || stride % 4))
            ossa_io_fail_key(L, "byteStride", OSSA_ERROR_INVALID,
                             "must be a multiple of 4 between 4 and 252 (it is %llu)",
                             (unsigned long long)stride);
        /* The Khronos validator's rule, not the schema's: harmless, as every accessor must still
         * fit in the view (then it holds one element at most). */
        if (stride > v->byte_length)
            ossa_io_warn_key(L, "byteStride", "%llu is greater than the view's byteLength %llu",
                             (unsigned long long)stride, (unsigned long long)v->byte_length);
        v->byte_stride = (uint32_t)stride;
        v->target = (uint32_t)ossa_io_get_uint(L, item, "target", 0, 0);
        if (v->target && v->target != 34962 && v->target != 34963)
            ossa_io_fail_key(L, "target", OSSA_ERROR_INVALID,
                             "must be 34962 (ARRAY_BUFFER) or 34963 (ELEMENT_ARRAY_BUFFER), not "
                             "%u",
                             v->target);
        if (v->target == 34963 && v->byte_stride)
            ossa_io_warn_key(L, "byteStride",
                             "an index buffer view (target 34963) should not have a byteStride");
        const ossa_buffer *b = &doc->buffers[v->buffer];
        if (v->byte_offset > b->byte_length)
            ossa_io_fail_key(
                L, "byteOffset", OSSA_ERROR_INVALID, "%llu lies outside buffer %d (%llu bytes)",
                (unsigned long long)v->byte_offset, v->buffer, (unsigned long long)b->byte_length);
        if (v->byte_length > b->byte_length - v->byte_offset)
            ossa_io_fail_key(L, "byteLength", OSSA_ERROR_INVALID,
                             "bytes %llu..%llu lie outside buffer %d (%llu bytes)",
                             (unsigned long long)v->byte_offset,
                             (unsigned long long)(v->byte_offset + v->byte_length), v->buffer,
                             (unsigned long long)b->byte_length);
        L->buffer_used[v->buffer] = 1;
        ossa_io_meshopt_parse_view(L, item, i);
        ossa_io_path_restore(L, mark);
        i++;
    }
    ossa_io_path_restore(L, top);
}

/* Loads the bytes of buffer i (the path points at its object). */
static void load_buffer(ossa_io_loader *L, uint32_t i) {
    ossa_buffer *b = &L->doc->buffers[i];
    if (ossa_io_meshopt_decodes_into(L, i)) { /* filled by decoding, never loaded */
        b->data = ossa_io_alloc(L, (size_t)b->byte_length);
        return;
    }
    if (!b->uri) {
        if (i != 0 || !L->bin.data) {
            /* A placeholder: its bytes are not available anywhere; they read as zeros. */
            ossa_io_warn(L,
                         "the buffer has no uri and is not a GLB BIN chunk; its %llu bytes "
                         "read as zeros",
                         (unsigned long long)b->byte_length);
            b->data = ossa_io_alloc(L, (size_t)b->byte_length);
            L->buffer_placeholder[i] = 1;
            return;
        }
        if (L->bin.size < b->byte_length)
            ossa_io_fail_key(L, "byteLength", OSSA_ERROR_GLB,
                             "is %llu, but the GLB BIN chunk holds only %llu bytes",
                             (unsigned long long)b->byte_length, (unsigned long long)L->bin.size);
        if (L->bin.size - b->byte_length > 3)
            ossa_io_warn(L, "the GLB BIN chunk has %llu bytes beyond byteLength %llu",
                         (unsigned long long)(L->bin.size - b->byte_length),
                         (unsigned long long)b->byte_length);
        if (L->bin.owned) { /* the file's bytes, kept as the document's: no copy */
            b->data = L->bin.data;
            L->bin.referenced = 1;
            return;
        }
        uint8_t *copy = ossa_io_alloc_uninit(L, b->byte_length, 1);
        memcpy(copy, L->bin.data, (size_t)b->byte_length);
        b->data = copy;
        return;
    }
    uint8_t *data = NULL;
    uint64_t size = 0;
    const char *why = NULL;
    if (!ossa_io_load_uri(L, b->uri, "buffer", &data, &size, &why)) {
        if (!L->buffer_used[i]) {
            ossa_io_warn_key(L, "uri", "buffer '%s' cannot be loaded (%s); no buffer view uses it",
                             b->uri, why);
            return;
        }
        ossa_io_fail_key(L, "uri", OSSA_ERROR_IO, "buffer '%s' cannot be loaded: %s", b->uri, why);
    }
    if (size < b->byte_length)
        ossa_io_fail_key(
            L, "byteLength", OSSA_ERROR_INVALID, "is %llu, but '%s' holds only %llu bytes",
            (unsigned long long)b->byte_length,
            strncmp(b->uri, "data:", 5) ? b->uri : "the data URI", (unsigned long long)size);
    if (size > b->byte_length && !strncmp(b->uri, "data:", 5))
        ossa_io_warn_key(L, "byteLength", "is %llu, but the data URI holds %llu bytes",
                         (unsigned long long)b->byte_length, (unsigned long long)size);
    b->data = data;
}

void ossa_io_parse_buffers(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    uint32_t count = ossa_io_get_array(L, L->json.root, "buffers", &array, 0);
    size_t top = ossa_io_path_key(L, "buffers");
    doc->buffers = ossa_io_alloc_array(L, count, sizeof *doc->buffers);
    L->buffer_used = ossa_io_alloc_array(L, count, 1);
    L->buffer_placeholder = ossa_io_alloc_array(L, count, 1);
    doc->buffer_count = count;
    static const char *const known[] = {"uri", "byteLength", "name", "EXT_meshopt_compression",
                                        NULL};
    uint64_t total = 0;
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, item);
        ossa_io_check_members(L, item, known);
        ossa_io_meshopt_parse_buffer(L, item, i);
        ossa_buffer *b = &doc->buffers[i];
        b->uri = ossa_io_dup_string(L, item, "uri");
        b->byte_length = ossa_io_get_uint(L, item, "byteLength", 0, 1);
        if (b->byte_length == 0)
            ossa_io_fail_key(L, "byteLength", OSSA_ERROR_INVALID, "must be at least 1");
        total += b->byte_length;
        if (total > L->max_buffer_bytes)
            ossa_io_fail_key(L, "byteLength", OSSA_ERROR_LIMIT,
                             "the buffers total %llu bytes, over the limit of %llu",
                             (unsigned long long)total, (unsigned long long)L->max_buffer_bytes);
        ossa_io_path_restore(L, mark);
        i++;
    }
    ossa_io_path_restore(L, top);
    if (L->bin.data && (count == 0 || doc->buffers[0].uri))
        ossa_io_warn(L, "the GLB BIN chunk is not used by buffer 0; ignored");
    parse_buffer_views(L);
    top = ossa_io_path_key(L, "buffers");
    i = 0;
    cJSON_ArrayForEach(item, array) {
        size_t mark = ossa_io_path_index(L, i);
        load_buffer(L, i);
        if (!doc->buffers[i].data) doc->buffers[i].byte_length = 0;
        ossa_io_path_restore(L, mark);
        i++;
    }
    ossa_io_path_restore(L, top);
    ossa_io_meshopt_decode(L);
}
