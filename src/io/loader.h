/* Internal to src/io: the state of one load, the document's memory, JSON reading helpers.
 *
 * A load either completes or stops at the first refusal: fail() fills the caller's ossa_error
 * and longjmps back to the entry point (load.c), which frees everything allocated so far. So
 * parsing code reads straight through without checking a result after every call. */
#ifndef OSSA_IO_LOADER_H
#define OSSA_IO_LOADER_H

#include <setjmp.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "io/json_tree.h"
#include "ossa/document.h"

#if defined(__GNUC__) || defined(__clang__)
#define OSSA_NORETURN     __attribute__((noreturn))
#define OSSA_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OSSA_NORETURN
#define OSSA_PRINTF(f, a)
#endif

/* The memory of a document: blocks from the allocator in a doubly linked list it owns. Small
 * allocations are carved from arena blocks (one call to the allocator for many objects); large
 * ones are blocks of their own, so releasing a large temporary gives its memory back at once.
 * Every allocation starts with this header: a block's links, or in an arena the arena mark and
 * the allocation's size. */
typedef union ossa_io_block {
    struct {
        union ossa_io_block *prev, *next;
    } link;
    struct {
        const void *mark; /* &ossa_io_arena_mark */
        size_t size;      /* bytes after the header, rounded up to the header's size */
    } arena;
    long double align_ld;
    void *align_p;
    uint64_t align_u;
} ossa_io_block;

extern const char ossa_io_arena_mark;

/* The document with what only the loader and ossa_document_free need. */
typedef struct ossa_io_storage {
    ossa_document doc;
    ossa_allocator allocator;
    ossa_io_block *blocks;
    uint8_t *arena_next; /* free room of the current arena block */
    size_t arena_room;
    size_t arena_block_size; /* of the next arena block */
} ossa_io_storage;

/* What load.c learns about the container before JSON parsing starts. */
typedef struct ossa_io_glb_bin {
    const uint8_t *data; /* the BIN chunk, NULL when there is none */
    uint64_t size;
    int owned;      /* data lies in the file's bytes, read into the document's memory */
    int referenced; /* buffer 0 points into those bytes: they are kept */
} ossa_io_glb_bin;

/* Per-accessor facts computed while loading, used by later checks. */
typedef struct ossa_io_accessor_info {
    uint32_t stride;           /* bytes between elements in the buffer view */
    uint32_t element_size;     /* bytes of one element including matrix column padding */
    int no_data_warned;        /* the "has no data" warning was given */
    int unknown_type;          /* the type is not a glTF type: read as SCALAR, cannot be used */
    int scanned;               /* the accessor pass counted non-finite values (fields below) */
    uint64_t non_finite;       /* values that are not finite numbers */
    uint64_t first_non_finite; /* the element of the first one */
    int has_uint_max;          /* uint_max is known */
    uint32_t uint_max;         /* the largest value read as unsigned integers */
} ossa_io_accessor_info;

/* The most %u or %d conversions an ossa_io_path_set format may have. */
#define OSSA_IO_PATH_NUMBERS 4

/* Known names of an object whose members the getters find without comparing names. */
#define OSSA_IO_CHECKED_MAX 24

typedef struct ossa_io_loader {
    ossa_io_storage *storage;
    ossa_document *doc;
    ossa_error *error;
    jmp_buf fail_jump;
    ossa_json_tree json; /* the parsed text (json.root), freed once the objects are built */
    uint64_t max_file_bytes, max_buffer_bytes, max_elements;
    int allow_unsafe_paths;
    int skip_images;      /* ossa_load_options::skip_images */
    const char *base_dir; /* NULL: relative URIs cannot be resolved */
    ossa_io_glb_bin bin;
    uint8_t *file_bytes; /* the file as read (NULL for memory); released once no longer needed */
    char path[OSSA_PATH_MAX]; /* read it after ossa_io_path_settle */
    size_t path_len;
    const char *path_format; /* ossa_io_path_set's, not yet written into path */
    long long path_numbers[OSSA_IO_PATH_NUMBERS]; /* its numbers */
    /* the object ossa_io_check_members last went through (NULL: none), its list of known names,
     * and the member of each of the first OSSA_IO_CHECKED_MAX names (where its bit in
     * checked_found is set; else the object has no member of that name) */
    const cJSON *checked_object;
    const char *const *checked_known;
    const cJSON *checked_member[OSSA_IO_CHECKED_MAX];
    uint32_t checked_found;
    uint32_t warning_capacity;
    uint32_t warnings_dropped;
    int quantization;                /* KHR_mesh_quantization is in extensionsRequired */
    uint8_t *buffer_used;            /* per buffer: referenced by a buffer view */
    uint8_t *buffer_placeholder;     /* per buffer: no uri and no GLB chunk; reads as zeros */
    uint8_t *view_usage;             /* per buffer view: OSSA_IO_USE_* bits */
    int32_t *view_vertex_accessor;   /* per buffer view: first vertex accessor using it, or -1 */
    ossa_io_accessor_info *acc_info; /* per accessor */
    uint32_t sampler_count, camera_count;
    int32_t *scene_of_node; /* while parsing scenes: last scene (+1) listing each node */
    uint32_t current_material;
    int32_t *material_texcoord;      /* per material: highest texCoord of its textures, -1 none */
    struct ossa_io_meshopt *meshopt; /* EXT_meshopt_compression while loading (meshopt.c) */
} ossa_io_loader;

/* How primitives use a buffer view (one view must not hold both). */
enum { OSSA_IO_USE_VERTEX = 1, OSSA_IO_USE_INDEX = 2 };

/* Memory (load.c). Allocations are zeroed; failure is OSSA_ERROR_OUT_OF_MEMORY. */
void *ossa_io_alloc(ossa_io_loader *L, size_t size);
void *ossa_io_alloc_array(ossa_io_loader *L, uint64_t count, size_t size);
/* As ossa_io_alloc_array, not zeroed: for memory the caller fills before reading it. */
void *ossa_io_alloc_uninit(ossa_io_loader *L, uint64_t count, size_t size);
/* Gives a large allocation back to the allocator; a small one stays in its arena block until the
 * document is freed, unless it was the last one made (then its room is reused). */
void ossa_io_release(ossa_io_storage *storage, void *ptr);
/* Sizes the first arena block for a document whose JSON text has json_size bytes. */
void ossa_io_arena_reserve(ossa_io_storage *storage, uint64_t json_size);
char *ossa_io_strdup(ossa_io_loader *L, const char *text);

/* Refusals and warnings at the current JSON path (json_read.c). */
OSSA_NORETURN void ossa_io_fail(ossa_io_loader *L, ossa_result code, const char *fmt, ...)
    OSSA_PRINTF(3, 4);
OSSA_NORETURN void ossa_io_fail_key(ossa_io_loader *L, const char *key, ossa_result code,
                                    const char *fmt, ...) OSSA_PRINTF(4, 5);
void ossa_io_warn(ossa_io_loader *L, const char *fmt, ...) OSSA_PRINTF(2, 3);
void ossa_io_warn_key(ossa_io_loader *L, const char *key, const char *fmt, ...) OSSA_PRINTF(3, 4);

/* After the last warning: says how many were left out beyond the limit, if any. */
void ossa_io_finish_warnings(ossa_io_loader *L);

/* The JSON path: push returns a mark to restore. */
size_t ossa_io_path_key(ossa_io_loader *L, const char *key);
size_t ossa_io_path_index(ossa_io_loader *L, uint64_t index);
void ossa_io_path_restore(ossa_io_loader *L, size_t mark);
/* Sets the whole path from a format whose only conversions are %u and %d (at most
 * OSSA_IO_PATH_NUMBERS), kept as a format until something reads the path. The format must
 * outlive the path: a string literal. */
void ossa_io_path_set(ossa_io_loader *L, const char *fmt, ...) OSSA_PRINTF(2, 3);
/* ossa_io_path_set for the formats with one or two conversions (%u or %d) that validation
 * sets for every object it checks: the numbers are kept without reading the format. */
void ossa_io_path_set1(ossa_io_loader *L, const char *fmt, long long first);
void ossa_io_path_set2(ossa_io_loader *L, const char *fmt, long long first, long long second);
/* Writes a format ossa_io_path_set kept into path and path_len. */
void ossa_io_path_settle(ossa_io_loader *L);

/* The warning for a key given twice in one object (at the key's path). */
extern const char ossa_io_repeated_key[];

/* Typed readers of JSON members. A missing optional member gives the default; a member of the
 * wrong type is refused. A key given twice counts with its later value. */
const cJSON *ossa_io_member(const cJSON *object, const char *key);
const cJSON *ossa_io_get_object(ossa_io_loader *L, const cJSON *object, const char *key,
                                int required);
/* Returns the array's size (0 when absent); *out receives it. Refuses sizes over max_elements. */
uint32_t ossa_io_get_array(ossa_io_loader *L, const cJSON *object, const char *key,
                           const cJSON **out, int required);
/* An index into a collection of `count` items; -1 when absent and not required. */
int32_t ossa_io_get_index(ossa_io_loader *L, const cJSON *object, const char *key, uint32_t count,
                          const char *what, int required);
uint64_t ossa_io_get_uint(ossa_io_loader *L, const cJSON *object, const char *key,
                          uint64_t fallback, int required);
double ossa_io_get_number(ossa_io_loader *L, const cJSON *object, const char *key, double fallback);
int ossa_io_get_bool(ossa_io_loader *L, const cJSON *object, const char *key, int fallback);
/* Returns the string member or NULL when absent (pointer into the cJSON tree). */
const char *ossa_io_get_string(ossa_io_loader *L, const cJSON *object, const char *key,
                               int required);
char *ossa_io_dup_string(ossa_io_loader *L, const cJSON *object, const char *key);
/* A fixed-length array of finite numbers; returns 1 when present. */
int ossa_io_get_floats(ossa_io_loader *L, const cJSON *object, const char *key, float *out,
                       uint32_t count);
/* An index read from an array element (path of the element already pushed). */
int32_t ossa_io_index_value(ossa_io_loader *L, const cJSON *item, uint32_t count, const char *what);
/* Warns about members outside `known` (NULL-terminated) and checks extensions/extras; an
 * extension named in `known` is one the caller reads (no "has no effect" warning). `known` never
 * lists "extensions" or "extras" (always allowed, and not kept for the getters, which then find
 * the object's other members without comparing names). */
void ossa_io_check_members(ossa_io_loader *L, const cJSON *object, const char *const *known);
/* Whether extensionsUsed lists the extension. */
int ossa_io_extension_used(const ossa_io_loader *L, const char *name);
/* The object of extension `name` in object.extensions, NULL when absent or not listed in
 * extensionsUsed (check_members warns about that). */
const cJSON *ossa_io_get_extension(ossa_io_loader *L, const cJSON *object, const char *name);
/* Calls fn for every element of array (may be NULL), with the path key[i] pushed; every element
 * must be an object. */
typedef void (*ossa_io_item_fn)(ossa_io_loader *L, const cJSON *item, uint32_t index);
void ossa_io_visit(ossa_io_loader *L, const char *key, const cJSON *array, ossa_io_item_fn fn);
/* Refuses when item is not an object. */
void ossa_io_expect_object(ossa_io_loader *L, const cJSON *item);

/* Containers and resources. */
/* Splits a GLB into its JSON and BIN chunks (glb.c). */
void ossa_io_glb_split(ossa_io_loader *L, const uint8_t *data, uint64_t size, const uint8_t **json,
                       uint64_t *json_size);
/* Decodes base64 (base64.c); returns the decoded length or -1 on bad input. out may be NULL to
 * only measure. */
int64_t ossa_io_base64_decode(const char *text, size_t length, uint8_t *out);
/* Loads the bytes a URI names (uri.c): data URI or a file relative to base_dir.
 * Returns 1 on success, 0 when the file is missing or unreadable (message in *why). */
int ossa_io_load_uri(ossa_io_loader *L, const char *uri, const char *what, uint8_t **data,
                     uint64_t *size, const char **why);
/* Reads a whole file with the loader's allocator; 0 with *why on failure. */
int ossa_io_read_file(ossa_io_loader *L, const char *path, uint64_t limit, uint8_t **data,
                      uint64_t *size, const char **why);

/* Object kinds (parse_*.c), in dependency order. */
void ossa_io_parse_asset(ossa_io_loader *L);
void ossa_io_parse_buffers(ossa_io_loader *L);
void ossa_io_parse_accessors(ossa_io_loader *L);
void ossa_io_parse_materials(ossa_io_loader *L);
void ossa_io_parse_meshes(ossa_io_loader *L);
void ossa_io_parse_nodes(ossa_io_loader *L);
void ossa_io_parse_skins(ossa_io_loader *L);
void ossa_io_parse_scenes(ossa_io_loader *L);
void ossa_io_parse_animations(ossa_io_loader *L);
/* A channel target whose path is "pointer" or that has a KHR_animation_pointer object
 * (parse_pointer.c); the loader's path is at the target. */
void ossa_io_parse_pointer(ossa_io_loader *L, const cJSON *target, ossa_animation_channel *c,
                           const char *path);

/* Rule families run once everything is parsed (validate_*.c). */
void ossa_io_validate_hierarchy(ossa_io_loader *L);
void ossa_io_validate_accessor_data(ossa_io_loader *L);
void ossa_io_validate_meshes(ossa_io_loader *L);
void ossa_io_validate_skins(ossa_io_loader *L);
void ossa_io_validate_animations(ossa_io_loader *L);

/* A reference to an accessor (parse_accessors.c): like ossa_io_get_index / ossa_io_index_value,
 * and refused when the accessor has an unknown type (which is only a warning while unused). */
int32_t ossa_io_get_accessor(ossa_io_loader *L, const cJSON *object, const char *key, int required);
int32_t ossa_io_accessor_value(ossa_io_loader *L, const cJSON *item);

/* Whether an accessor's values come from real bytes (validate_accessors.c). Accessors without a
 * bufferView (and not sparse) or on a placeholder buffer read as zeros; like the Khronos
 * validator, their values are not checked, and a warning says so once per accessor. */
int ossa_io_accessor_has_data(ossa_io_loader *L, int32_t accessor);

/* The largest value of an accessor's components read as unsigned integers (as
 * OSSA_IO_OUT_UINT reads them: indices, joints), computed once: a check of every value against a
 * bound passes at once when this is below it (validate_accessors.c). */
uint32_t ossa_io_accessor_uint_max(ossa_io_loader *L, int32_t accessor);

/* A rotation key of squared length len2 is a zero quaternion when its length is below 1e-6, and
 * is not unit when its length is more than 5e-3 from 1: compared squared, without a root. */
#define OSSA_IO_UNIT_LEN2_LOW  (0.995 * 0.995)
#define OSSA_IO_UNIT_LEN2_HIGH (1.005 * 1.005)
static inline int ossa_io_rotation_zero(double len2) {
    return len2 < 1e-12;
}
static inline int ossa_io_rotation_not_unit(double len2) {
    return len2 < OSSA_IO_UNIT_LEN2_LOW || len2 > OSSA_IO_UNIT_LEN2_HIGH;
}

/* Animation keys stored plainly as floats, checked in place (key_values.c); each returns 0, having
 * done nothing, when the accessor is not one (then the general pass runs). Key times: finite, not
 * negative, increasing. Key values: finite, and for rotations (`cubic`: only every third key, the
 * others are tangents) not zero quaternions, with the keys that are not unit counted. */
int ossa_io_check_key_times_plain(ossa_io_loader *L, int32_t accessor);
int ossa_io_check_key_values_plain(ossa_io_loader *L, int32_t accessor, int rotation, int cubic,
                                   uint64_t *non_unit, uint64_t *first_non_unit);

/* Accessor layout and element decoding (accessor.c). */
const char *ossa_io_type_name(ossa_accessor_type type);
const char *ossa_io_component_name(ossa_component_type type);
/* Decodes one component as stored (no normalization). */
double ossa_io_component_raw(const uint8_t *p, ossa_component_type type);

#endif
