/* EXT_meshopt_compression: buffer views whose bytes are decoded at load time (libmeshoptimizer),
 * so accessors, validation and animation read them as plain bytes.
 *
 * libmeshoptimizer's decoders are safe on untrusted streams but assert() their size arguments,
 * so every stride, count and filter is checked here before a decoder sees it. */
#include <string.h>

#include <meshoptimizer.h>

#include "io/meshopt.h"

#define EXTENSION "EXT_meshopt_compression"

enum { MODE_ATTRIBUTES, MODE_TRIANGLES, MODE_INDICES };
enum { FILTER_NONE, FILTER_OCTAHEDRAL, FILTER_QUATERNION, FILTER_EXPONENTIAL };
static const char *const mode_names[] = {"ATTRIBUTES", "TRIANGLES", "INDICES", NULL};
static const char *const filter_names[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", NULL};

/* The extension object of one buffer view. */
typedef struct compressed_view {
    int present;
    int32_t buffer; /* of the compressed bytes */
    uint64_t byte_offset, byte_length, count;
    uint32_t byte_stride;
    int mode, filter;
} compressed_view;

struct ossa_io_meshopt {
    compressed_view *views;  /* per buffer view */
    uint8_t *fallback;       /* per buffer: "fallback": true */
    uint32_t *decoded_views; /* per buffer: compressed views decoding into it */
    uint32_t *plain_views;   /* per buffer: views using its own bytes */
    uint64_t decoded_total;  /* bytes of every compressed view, against max_buffer_bytes */
};

/* The extension's object in `item`, or NULL when absent or not declared in extensionsUsed (then
 * ossa_io_check_members has warned that it is ignored). */
static const cJSON *extension_object(ossa_io_loader *L, const cJSON *item) {
    const cJSON *extensions = ossa_io_member(item, "extensions");
    const cJSON *ext = extensions ? ossa_io_member(extensions, EXTENSION) : NULL;
    if (!ext) return NULL;
    for (uint32_t i = 0; i < L->doc->extensions_used_count; i++)
        if (!strcmp(L->doc->extensions_used[i], EXTENSION)) return ext;
    return NULL;
}

static struct ossa_io_meshopt *state(ossa_io_loader *L) {
    if (!L->meshopt) {
        struct ossa_io_meshopt *m = ossa_io_alloc(L, sizeof *m);
        uint32_t buffers = L->doc->buffer_count;
        m->fallback = ossa_io_alloc_array(L, buffers, sizeof *m->fallback);
        m->decoded_views = ossa_io_alloc_array(L, buffers, sizeof *m->decoded_views);
        m->plain_views = ossa_io_alloc_array(L, buffers, sizeof *m->plain_views);
        L->meshopt = m;
    }
    return L->meshopt;
}

void ossa_io_meshopt_parse_buffer(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    const cJSON *ext = extension_object(L, item);
    if (!ext) return;
    size_t mark = ossa_io_path_key(L, "extensions");
    ossa_io_path_key(L, EXTENSION);
    static const char *const known[] = {"fallback", NULL};
    ossa_io_check_members(L, ext, known);
    state(L)->fallback[index] = (uint8_t)ossa_io_get_bool(L, ext, "fallback", 0);
    ossa_io_path_restore(L, mark);
}

static int name_index(const char *const *names, const char *name) {
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], name)) return i;
    return -1;
}

/* The rules the extension puts on byteStride for each mode and filter. */
static void check_stride(ossa_io_loader *L, const compressed_view *c) {
    uint32_t s = c->byte_stride;
    if (c->mode == MODE_ATTRIBUTES && (s % 4 || s > 256))
        ossa_io_fail_key(L, "byteStride", OSSA_ERROR_INVALID,
                         "is %u, but ATTRIBUTES needs a multiple of 4 up to 256", s);
    if (c->mode != MODE_ATTRIBUTES && s != 2 && s != 4)
        ossa_io_fail_key(L, "byteStride", OSSA_ERROR_INVALID, "is %u, but %s needs 2 or 4", s,
                         mode_names[c->mode]);
    if (c->mode != MODE_ATTRIBUTES && c->filter != FILTER_NONE)
        ossa_io_fail_key(L, "filter", OSSA_ERROR_INVALID, "%s applies only to ATTRIBUTES, not %s",
                         filter_names[c->filter], mode_names[c->mode]);
    if (c->mode == MODE_TRIANGLES && c->count % 3)
        ossa_io_fail_key(L, "count", OSSA_ERROR_INVALID,
                         "is %llu, but TRIANGLES needs a multiple of 3",
                         (unsigned long long)c->count);
    if ((c->filter == FILTER_OCTAHEDRAL && s != 4 && s != 8) ||
        (c->filter == FILTER_QUATERNION && s != 8))
        ossa_io_fail_key(L, "byteStride", OSSA_ERROR_INVALID, "is %u, but %s needs %s", s,
                         filter_names[c->filter], c->filter == FILTER_OCTAHEDRAL ? "4 or 8" : "8");
}

static void parse_extension(ossa_io_loader *L, const cJSON *ext, const ossa_buffer_view *v,
                            compressed_view *c) {
    ossa_document *doc = L->doc;
    static const char *const known[] = {"buffer", "byteOffset", "byteLength", "byteStride",
                                        "count",  "mode",       "filter",     NULL};
    ossa_io_check_members(L, ext, known);
    c->buffer = ossa_io_get_index(L, ext, "buffer", doc->buffer_count, "buffer", 1);
    if (state(L)->fallback[c->buffer])
        ossa_io_fail_key(L, "buffer", OSSA_ERROR_INVALID,
                         "buffer %d is a fallback buffer, which holds no compressed data",
                         c->buffer);
    c->byte_offset = ossa_io_get_uint(L, ext, "byteOffset", 0, 0);
    c->byte_length = ossa_io_get_uint(L, ext, "byteLength", 0, 1);
    if (c->byte_length == 0)
        ossa_io_fail_key(L, "byteLength", OSSA_ERROR_INVALID, "must be at least 1");
    uint64_t size = doc->buffers[c->buffer].byte_length;
    if (c->byte_offset > size || c->byte_length > size - c->byte_offset)
        ossa_io_fail_key(L, "byteLength", OSSA_ERROR_INVALID,
                         "bytes %llu..%llu lie outside buffer %d (%llu bytes)",
                         (unsigned long long)c->byte_offset,
                         (unsigned long long)c->byte_offset + c->byte_length, c->buffer,
                         (unsigned long long)size);
    uint64_t stride = ossa_io_get_uint(L, ext, "byteStride", 0, 1);
    if (stride == 0 || stride > 256)
        ossa_io_fail_key(L, "byteStride", OSSA_ERROR_INVALID,
                         "is %llu, but must be between 1 and 256", (unsigned long long)stride);
    c->byte_stride = (uint32_t)stride;
    c->count = ossa_io_get_uint(L, ext, "count", 0, 1);
    if (c->count == 0) ossa_io_fail_key(L, "count", OSSA_ERROR_INVALID, "must be at least 1");
    const char *mode = ossa_io_get_string(L, ext, "mode", 1);
    c->mode = name_index(mode_names, mode);
    if (c->mode < 0)
        ossa_io_fail_key(L, "mode", OSSA_ERROR_INVALID,
                         "'%s' is not a mode (ATTRIBUTES, TRIANGLES or INDICES)", mode);
    const char *filter = ossa_io_get_string(L, ext, "filter", 0);
    c->filter = filter ? name_index(filter_names, filter) : FILTER_NONE;
    if (c->filter < 0)
        ossa_io_fail_key(L, "filter", OSSA_ERROR_INVALID,
                         "'%s' is not a filter (NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL)",
                         filter);
    check_stride(L, c);
    if (v->byte_stride && v->byte_stride != c->byte_stride)
        ossa_io_fail_key(L, "byteStride", OSSA_ERROR_INVALID,
                         "is %u, but the buffer view's byteStride is %u", c->byte_stride,
                         v->byte_stride);
    /* The decoded data must fill the view exactly: count * byteStride == byteLength. */
    if (c->count > v->byte_length / c->byte_stride || c->count * c->byte_stride != v->byte_length)
        ossa_io_fail_key(L, "count", OSSA_ERROR_INVALID,
                         "%llu elements of %u bytes do not make the buffer view's byteLength "
                         "%llu",
                         (unsigned long long)c->count, c->byte_stride,
                         (unsigned long long)v->byte_length);
    struct ossa_io_meshopt *m = state(L);
    m->decoded_total += v->byte_length;
    if (m->decoded_total > L->max_buffer_bytes)
        ossa_io_fail(L, OSSA_ERROR_LIMIT,
                     "the compressed buffer views decode to %llu bytes, over the limit of %llu",
                     (unsigned long long)m->decoded_total, (unsigned long long)L->max_buffer_bytes);
    c->present = 1;
}

void ossa_io_meshopt_parse_view(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    const ossa_buffer_view *v = &L->doc->buffer_views[index];
    const cJSON *ext = extension_object(L, item);
    if (!ext) {
        if (L->meshopt && L->meshopt->fallback[v->buffer])
            ossa_io_fail_key(L, "buffer", OSSA_ERROR_INVALID,
                             "buffer %d is an " EXTENSION " fallback buffer, which only views "
                             "with " EXTENSION " may use",
                             v->buffer);
        if (L->meshopt) L->meshopt->plain_views[v->buffer]++;
        return;
    }
    struct ossa_io_meshopt *m = state(L);
    if (!m->views) m->views = ossa_io_alloc_array(L, L->doc->buffer_view_count, sizeof *m->views);
    size_t mark = ossa_io_path_key(L, "extensions");
    ossa_io_path_key(L, EXTENSION);
    parse_extension(L, ext, v, &m->views[index]);
    ossa_io_path_restore(L, mark);
    L->buffer_used[m->views[index].buffer] = 1;
    m->decoded_views[v->buffer]++;
}

int ossa_io_meshopt_decodes_into(const ossa_io_loader *L, uint32_t index) {
    const struct ossa_io_meshopt *m = L->meshopt;
    if (!m) return 0;
    if (m->fallback[index]) return 1;
    /* Like a fallback buffer without the flag: no bytes of its own, only compressed views. */
    int own_data = L->doc->buffers[index].uri || (index == 0 && L->bin.data);
    return !own_data && m->decoded_views[index] && !m->plain_views[index];
}

/* Decodes view c into dst (v's byteLength bytes); 0 on success, else libmeshoptimizer's error. */
static int decode(const compressed_view *c, const uint8_t *src, uint8_t *dst) {
    size_t count = (size_t)c->count, stride = c->byte_stride, size = (size_t)c->byte_length;
    if (c->mode == MODE_TRIANGLES) return meshopt_decodeIndexBuffer(dst, count, stride, src, size);
    if (c->mode == MODE_INDICES) return meshopt_decodeIndexSequence(dst, count, stride, src, size);
    int rc = meshopt_decodeVertexBuffer(dst, count, stride, src, size);
    if (rc) return rc;
    if (c->filter == FILTER_OCTAHEDRAL) meshopt_decodeFilterOct(dst, count, stride);
    if (c->filter == FILTER_QUATERNION) meshopt_decodeFilterQuat(dst, count, stride);
    if (c->filter == FILTER_EXPONENTIAL) meshopt_decodeFilterExp(dst, count, stride);
    return 0;
}

/* The state is only needed while loading: returned to the allocator once views are decoded. */
static void release_state(ossa_io_loader *L) {
    struct ossa_io_meshopt *m = L->meshopt;
    ossa_io_release(L->storage, m->views);
    ossa_io_release(L->storage, m->fallback);
    ossa_io_release(L->storage, m->decoded_views);
    ossa_io_release(L->storage, m->plain_views);
    ossa_io_release(L->storage, m);
    L->meshopt = NULL;
}

void ossa_io_meshopt_decode(ossa_io_loader *L) {
    struct ossa_io_meshopt *m = L->meshopt;
    if (!m) return;
    ossa_document *doc = L->doc;
    /* A view into a buffer with bytes of its own is decoded aside and copied once every view is
     * decoded, since its range may hold another view's compressed bytes. */
    uint8_t **aside = NULL;
    for (uint32_t i = 0; m->views && i < doc->buffer_view_count; i++) {
        const compressed_view *c = &m->views[i];
        if (!c->present) continue;
        ossa_io_path_set(L, "bufferViews[%u].extensions." EXTENSION, i);
        const ossa_buffer_view *v = &doc->buffer_views[i];
        const ossa_buffer *source = &doc->buffers[c->buffer];
        if (!source->data || L->buffer_placeholder[c->buffer] ||
            ossa_io_meshopt_decodes_into(L, (uint32_t)c->buffer))
            ossa_io_fail_key(L, "buffer", OSSA_ERROR_INVALID,
                             "buffer %d has no data of its own to decode from", c->buffer);
        uint8_t *dst;
        if (ossa_io_meshopt_decodes_into(L, (uint32_t)v->buffer)) {
            dst = (uint8_t *)doc->buffers[v->buffer].data + v->byte_offset;
        } else {
            if (!aside) aside = ossa_io_alloc_array(L, doc->buffer_view_count, sizeof *aside);
            dst = aside[i] = ossa_io_alloc(L, (size_t)v->byte_length);
        }
        int rc = decode(c, source->data + c->byte_offset, dst);
        if (rc)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "the %s data does not decode as %llu elements of %u bytes (meshoptimizer "
                         "error %d): it is truncated or corrupt, or count is wrong",
                         mode_names[c->mode], (unsigned long long)c->count, c->byte_stride, rc);
    }
    for (uint32_t i = 0; aside && i < doc->buffer_view_count; i++) {
        if (!aside[i]) continue;
        const ossa_buffer_view *v = &doc->buffer_views[i];
        memcpy((uint8_t *)doc->buffers[v->buffer].data + v->byte_offset, aside[i],
               (size_t)v->byte_length);
        ossa_io_release(L->storage, aside[i]);
    }
    ossa_io_release(L->storage, aside);
    ossa_io_path_restore(L, 0);
    release_state(L);
}
