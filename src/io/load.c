/* Entry points of the document layer: options, the document's memory, the load sequence. */
#include <string.h>

#include "io/error.h"
#include "io/loader.h"
#include "rig/owned.h"

const char ossa_io_arena_mark = 0;

/* Allocations up to this size come from arena blocks. */
#define ARENA_LARGEST 4096
/* Arena blocks: the first sized from the JSON text (ossa_io_arena_reserve), each next one twice
 * the previous, within these bounds. */
#define ARENA_BLOCK_MIN 8192
#define ARENA_BLOCK_MAX ((size_t)4 << 20)
#define ARENA_FIRST_MAX ((size_t)96 << 10)

/* A block of its own from the allocator, linked into the document's list; not zeroed. */
static void *own_block(ossa_io_loader *L, size_t size) {
    ossa_io_storage *s = L->storage;
    if (size > SIZE_MAX - sizeof(ossa_io_block))
        ossa_io_fail(L, OSSA_ERROR_OUT_OF_MEMORY, "allocation of %zu bytes is too large", size);
    ossa_io_block *block = s->allocator.alloc(s->allocator.user, sizeof(ossa_io_block) + size);
    if (!block)
        ossa_io_fail(L, OSSA_ERROR_OUT_OF_MEMORY, "out of memory allocating %zu bytes", size);
    block->link.prev = NULL;
    block->link.next = s->blocks;
    if (s->blocks) s->blocks->link.prev = block;
    s->blocks = block;
    return block + 1;
}

/* size bytes from the current arena block, a new one when it has no room; not zeroed. */
static void *arena_alloc(ossa_io_loader *L, size_t size) {
    ossa_io_storage *s = L->storage;
    size_t need = sizeof(ossa_io_block) + (size + sizeof(ossa_io_block) - 1) /
                                              sizeof(ossa_io_block) * sizeof(ossa_io_block);
    if (need > s->arena_room) {
        size_t block_size =
            s->arena_block_size < ARENA_BLOCK_MIN ? ARENA_BLOCK_MIN : s->arena_block_size;
        s->arena_next = own_block(L, block_size);
        s->arena_room = block_size;
        s->arena_block_size = block_size < ARENA_BLOCK_MAX ? 2 * block_size : ARENA_BLOCK_MAX;
    }
    ossa_io_block *header = (ossa_io_block *)(void *)s->arena_next;
    header->arena.mark = &ossa_io_arena_mark;
    header->arena.size = need - sizeof(ossa_io_block);
    s->arena_next += need;
    s->arena_room -= need;
    return header + 1;
}

static void *alloc_uninit(ossa_io_loader *L, size_t size) {
    return size <= ARENA_LARGEST ? arena_alloc(L, size) : own_block(L, size);
}

void ossa_io_arena_reserve(ossa_io_storage *s, uint64_t json_size) {
    /* The document's objects take about as many bytes as their JSON text, unless the text is
     * mostly data URIs (their bytes are blocks of their own): a first block of at most
     * ARENA_FIRST_MAX, the next ones grow. */
    uint64_t size = json_size + json_size / 2;
    s->arena_block_size = size > ARENA_FIRST_MAX ? ARENA_FIRST_MAX : (size_t)size;
}

void *ossa_io_alloc(ossa_io_loader *L, size_t size) {
    void *p = alloc_uninit(L, size);
    memset(p, 0, size);
    return p;
}

static size_t array_bytes(ossa_io_loader *L, uint64_t count, size_t size) {
    if (size && count > (SIZE_MAX - sizeof(ossa_io_block)) / size)
        ossa_io_fail(L, OSSA_ERROR_OUT_OF_MEMORY, "array of %llu items is too large",
                     (unsigned long long)count);
    return (size_t)(count * size);
}

void *ossa_io_alloc_array(ossa_io_loader *L, uint64_t count, size_t size) {
    return ossa_io_alloc(L, array_bytes(L, count, size));
}

void *ossa_io_alloc_uninit(ossa_io_loader *L, uint64_t count, size_t size) {
    return alloc_uninit(L, array_bytes(L, count, size));
}

void ossa_io_release(ossa_io_storage *s, void *ptr) {
    if (!ptr) return;
    ossa_io_block *block = (ossa_io_block *)ptr - 1;
    if (block->arena.mark == &ossa_io_arena_mark) {
        uint8_t *end = (uint8_t *)ptr + block->arena.size;
        if (end == s->arena_next) { /* the last allocation: its room is reused */
            s->arena_room += block->arena.size + sizeof(ossa_io_block);
            s->arena_next = (uint8_t *)block;
        }
        return;
    }
    if (block->link.prev)
        block->link.prev->link.next = block->link.next;
    else
        s->blocks = block->link.next;
    if (block->link.next) block->link.next->link.prev = block->link.prev;
    s->allocator.free(s->allocator.user, block);
}

char *ossa_io_strdup(ossa_io_loader *L, const char *text) {
    size_t n = strlen(text);
    char *copy = alloc_uninit(L, n + 1);
    memcpy(copy, text, n);
    copy[n] = '\0';
    return copy;
}

void ossa_document_free(ossa_document *document) {
    if (!document) return;
    ossa_io_storage *s = (ossa_io_storage *)document;
    ossa_io_block *block = s->blocks;
    while (block) {
        ossa_io_block *next = block->link.next;
        s->allocator.free(s->allocator.user, block);
        block = next;
    }
    s->allocator.free(s->allocator.user, s);
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void set_error(ossa_error *error, ossa_result code, const char *file, const char *msg) {
    ossa_error_set(error, code, file, NULL, "%s", msg);
}

static int has_bom(const uint8_t *data, uint64_t size) {
    return size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF;
}

/* Parses the JSON text and builds the document; runs inside the setjmp of load(). */
static void parse_document(ossa_io_loader *L, const uint8_t *json, uint64_t json_size) {
    if (has_bom(json, json_size))
        ossa_io_fail(L, OSSA_ERROR_JSON,
                     "the JSON text starts with a UTF-8 byte order mark, which glTF forbids");
    ossa_io_arena_reserve(L->storage, json_size);
    ossa_json_failure why;
    if (!ossa_json_tree_parse((const char *)json, (size_t)json_size, &L->storage->allocator,
                              &L->json, &why)) {
        if (why.code == OSSA_ERROR_JSON)
            ossa_io_fail(L, why.code, "%s (near byte %zu)", why.what, why.offset);
        ossa_io_fail(L, why.code, "%s", why.what);
    }
    if (!cJSON_IsObject(L->json.root))
        ossa_io_fail(L, OSSA_ERROR_JSON, "the JSON text is not an object");
    /* The tree holds copies of the text's strings: a file's bytes are needed from here on only
     * for the GLB BIN chunk (then buffer 0 points into them). */
    if (!L->bin.owned) {
        ossa_io_release(L->storage, L->file_bytes);
        L->file_bytes = NULL;
    }
    ossa_io_parse_asset(L);
    ossa_io_parse_buffers(L);
    ossa_io_parse_accessors(L);
    ossa_io_parse_materials(L);
    ossa_io_parse_meshes(L);
    ossa_io_parse_nodes(L);
    ossa_io_parse_skins(L);
    ossa_io_parse_scenes(L);
    ossa_io_parse_animations(L);
    ossa_json_tree_free(&L->json, &L->storage->allocator); /* json.root becomes NULL */
    ossa_io_validate_hierarchy(L);
    ossa_io_validate_accessor_data(L);
    ossa_io_validate_meshes(L);
    ossa_io_validate_skins(L);
    ossa_io_validate_animations(L);
    ossa_io_finish_warnings(L);
}

/* Reads the file if asked, splits a GLB, parses; runs inside the setjmp of load(). */
static void run(ossa_io_loader *L, const uint8_t *data, uint64_t size, const char *file_name,
                const char *read_path) {
    L->doc->file = ossa_io_strdup(L, file_name ? file_name : "");
    uint8_t *bytes = NULL;
    if (read_path) {
        const char *why = NULL;
        if (!ossa_io_read_file(L, read_path, L->max_file_bytes, &bytes, &size, &why))
            ossa_io_fail(L, OSSA_ERROR_IO, "%s", why);
        data = L->file_bytes = bytes;
    } else if (size > L->max_file_bytes) {
        ossa_io_fail(L, OSSA_ERROR_LIMIT, "the model is %llu bytes, over the limit of %llu",
                     (unsigned long long)size, (unsigned long long)L->max_file_bytes);
    }
    if (size == 0) ossa_io_fail(L, OSSA_ERROR_JSON, "the file is empty");
    const uint8_t *json = data;
    uint64_t json_size = size;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        ossa_io_glb_split(L, data, size, &json, &json_size);
        L->bin.owned = bytes != NULL;
    } else if (size > 0 && size < 4 && memcmp(data, "glTF", size) == 0)
        ossa_io_fail(L, OSSA_ERROR_GLB, "the GLB header is truncated (%llu bytes)",
                     (unsigned long long)size);
    parse_document(L, json, json_size);
    if (!L->bin.referenced) ossa_io_release(L->storage, L->file_bytes);
}

/* Runs the load; a refusal anywhere inside longjmps back here. */
static ossa_result guarded_run(ossa_io_loader *L, const uint8_t *data, uint64_t size,
                               const char *file_name, const char *read_path) {
    if (setjmp(L->fail_jump) != 0) return L->error->code;
    run(L, data, size, file_name, read_path);
    return OSSA_OK;
}

/* The common sequence for file and memory: container, JSON, objects, validation. */
static ossa_result load(const uint8_t *data, uint64_t size, const ossa_load_options *options,
                        const char *file_name, const char *base_dir, const char *read_path,
                        ossa_document **out, ossa_error *error_out) {
    ossa_load_options defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!options) options = &defaults;
    ossa_error local_error;
    ossa_error *const error = error_out ? error_out : &local_error;
    memset(error, 0, sizeof *error);
    if (out) *out = NULL;
    if (!out) {
        set_error(error, OSSA_ERROR_ARGUMENT, file_name, "no place to store the document");
        return OSSA_ERROR_ARGUMENT;
    }
    ossa_allocator allocator = ossa_allocator_resolve(&options->allocator);
    ossa_io_storage *storage = allocator.alloc(allocator.user, sizeof *storage);
    if (!storage) {
        set_error(error, OSSA_ERROR_OUT_OF_MEMORY, file_name, "out of memory");
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    memset(storage, 0, sizeof *storage);
    storage->allocator = allocator;
    storage->doc.scene = -1;

    ossa_io_loader *L = allocator.alloc(allocator.user, sizeof *L);
    if (!L) {
        allocator.free(allocator.user, storage);
        set_error(error, OSSA_ERROR_OUT_OF_MEMORY, file_name, "out of memory");
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    memset(L, 0, sizeof *L);
    L->storage = storage;
    L->doc = &storage->doc;
    L->error = error;
    L->max_file_bytes = options->max_file_bytes ? options->max_file_bytes : (1ull << 30);
    L->max_buffer_bytes = options->max_buffer_bytes ? options->max_buffer_bytes : (2ull << 30);
    L->max_elements = options->max_elements ? options->max_elements : (1ull << 28);
    L->allow_unsafe_paths = options->allow_unsafe_paths;
    L->skip_images = options->skip_images;
    L->base_dir = base_dir;
    if (file_name) strncpy(error->file, file_name, OSSA_FILE_MAX - 1);

    ossa_result result = guarded_run(L, data, size, file_name, read_path);
    if (result != OSSA_OK) {
        ossa_json_tree_free(&L->json, &allocator);
        ossa_document_free(&storage->doc);
        storage = NULL;
    }
    allocator.free(allocator.user, L);
    if (storage) *out = &storage->doc;
    return result;
}

ossa_result ossa_document_load_memory(const void *data, size_t size,
                                      const ossa_load_options *options, ossa_document **out,
                                      ossa_error *error) {
    const char *name = options && options->name ? options->name : "";
    if (!data && size) {
        set_error(error, OSSA_ERROR_ARGUMENT, name, "no data given");
        if (out) *out = NULL;
        return OSSA_ERROR_ARGUMENT;
    }
    return load(data, size, options, name, options ? options->base_dir : NULL, NULL, out, error);
}

ossa_result ossa_document_load_file(const char *path, const ossa_load_options *options,
                                    ossa_document **out, ossa_error *error) {
    if (!path) {
        set_error(error, OSSA_ERROR_ARGUMENT, "", "no file name given");
        if (out) *out = NULL;
        return OSSA_ERROR_ARGUMENT;
    }
    /* The folder of the model, against which relative URIs resolve. */
    const char *name = base_name(path);
    size_t dir_len = (size_t)(name - path);
    char dir_buf[4096];
    if (dir_len >= sizeof dir_buf) {
        set_error(error, OSSA_ERROR_ARGUMENT, name, "the path is too long");
        if (out) *out = NULL;
        return OSSA_ERROR_ARGUMENT;
    }
    memcpy(dir_buf, path, dir_len);
    dir_buf[dir_len] = '\0';
    if (dir_len == 0) strcpy(dir_buf, "./");
    return load(NULL, 0, options, name, dir_buf, path, out, error);
}
