/* JSON paths, refusals, warnings and typed readers of cJSON members. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/error.h"
#include "io/loader.h"

/* ---- paths ----
 * Paths are built for every member read, so they are appended by hand: a printf per key would
 * cost more than reading the key. They are cut at OSSA_PATH_MAX - 1 characters, as snprintf
 * would cut them. */

static void write_format(ossa_io_loader *L);

/* ossa_io_path_settle inside this file, where most calls find nothing to write */
static inline void settle(ossa_io_loader *L) {
    if (L->path_format) write_format(L);
}

static void path_append(ossa_io_loader *L, const char *text, size_t length) {
    size_t room = sizeof L->path - 1 - L->path_len;
    if (length > room) length = room;
    memcpy(L->path + L->path_len, text, length);
    L->path_len += length;
    L->path[L->path_len] = '\0';
}

/* Writes the decimal digits of value ending at end (exclusive); returns where they start. */
static char *format_decimal(char *end, unsigned long long value) {
    do {
        *--end = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    return end;
}

static void path_append_uint(ossa_io_loader *L, unsigned long long value) {
    char digits[24];
    char *start = format_decimal(digits + sizeof digits, value);
    path_append(L, start, (size_t)(digits + sizeof digits - start));
}

size_t ossa_io_path_key(ossa_io_loader *L, const char *key) {
    settle(L);
    size_t mark = L->path_len;
    if (L->path_len) path_append(L, ".", 1);
    path_append(L, key, strlen(key));
    return mark;
}

size_t ossa_io_path_index(ossa_io_loader *L, uint64_t index) {
    settle(L);
    size_t mark = L->path_len;
    path_append(L, "[", 1);
    path_append_uint(L, index);
    path_append(L, "]", 1);
    return mark;
}

void ossa_io_path_restore(ossa_io_loader *L, size_t mark) {
    settle(L);
    L->path_len = mark;
    L->path[mark] = '\0';
}

/* Validation sets a path for every object it checks, and almost none is ever read: the format
 * and its numbers are kept, and written into the path only when something reads or extends it
 * (ossa_io_path_settle). */
void ossa_io_path_set(ossa_io_loader *L, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int count = 0;
    /* strchr's vector loop finds the few conversions of a long format fastest */
    for (const char *f = strchr(fmt, '%'); f && count < OSSA_IO_PATH_NUMBERS;
         f = strchr(f + 2, '%'))
        L->path_numbers[count++] =
            f[1] == 'd' ? va_arg(args, int) : (long long)va_arg(args, unsigned);
    va_end(args);
    L->path_format = fmt;
}

void ossa_io_path_set1(ossa_io_loader *L, const char *fmt, long long first) {
    L->path_numbers[0] = first;
    L->path_format = fmt;
}

void ossa_io_path_set2(ossa_io_loader *L, const char *fmt, long long first, long long second) {
    L->path_numbers[0] = first;
    L->path_numbers[1] = second;
    L->path_format = fmt;
}

static void write_format(ossa_io_loader *L) {
    const char *f = L->path_format;
    L->path_format = NULL;
    L->path_len = 0;
    int number = 0;
    for (const char *percent; (percent = strchr(f, '%')) && number < OSSA_IO_PATH_NUMBERS;
         f = percent + 2) {
        path_append(L, f, (size_t)(percent - f));
        long long v = L->path_numbers[number++];
        if (v < 0) path_append(L, "-", 1);
        path_append_uint(L, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
    }
    path_append(L, f, strlen(f));
}

void ossa_io_path_settle(ossa_io_loader *L) {
    settle(L);
}

/* ---- refusals and warnings ---- */

OSSA_NORETURN static void fail_v(ossa_io_loader *L, ossa_result code, const char *fmt,
                                 va_list args) {
    /* The loader may have named the file before the document knew it: keep that name. */
    settle(L);
    char file[OSSA_FILE_MAX];
    snprintf(file, sizeof file, "%s", L->doc->file ? L->doc->file : L->error->file);
    ossa_error_setv(L->error, code, file, L->path, fmt, args);
    longjmp(L->fail_jump, 1);
}

void ossa_io_fail(ossa_io_loader *L, ossa_result code, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fail_v(L, code, fmt, args);
}

void ossa_io_fail_key(ossa_io_loader *L, const char *key, ossa_result code, const char *fmt, ...) {
    ossa_io_path_key(L, key);
    va_list args;
    va_start(args, fmt);
    fail_v(L, code, fmt, args);
}

/* At most this many warnings are kept; one more says that some were left out. */
#define WARNING_LIMIT 1000

static void warn_v(ossa_io_loader *L, const char *fmt, va_list args) {
    ossa_document *doc = L->doc;
    if (doc->warning_count >= WARNING_LIMIT) {
        L->warnings_dropped++;
        return;
    }
    if (doc->warning_count == L->warning_capacity) {
        uint32_t capacity = L->warning_capacity ? L->warning_capacity * 2 : 8;
        if (capacity > WARNING_LIMIT + 1) capacity = WARNING_LIMIT + 1;
        ossa_warning *grown = ossa_io_alloc_array(L, capacity, sizeof *grown);
        if (doc->warning_count) memcpy(grown, doc->warnings, doc->warning_count * sizeof *grown);
        ossa_io_release(L->storage, doc->warnings);
        doc->warnings = grown;
        L->warning_capacity = capacity;
    }
    ossa_warning *w = &doc->warnings[doc->warning_count++];
    settle(L);
    size_t n = L->path_len < sizeof w->path ? L->path_len : sizeof w->path - 1;
    memcpy(w->path, L->path, n);
    w->path[n] = '\0';
    vsnprintf(w->message, sizeof w->message, fmt, args);
}

void ossa_io_finish_warnings(ossa_io_loader *L) {
    if (!L->warnings_dropped) return;
    /* The array always has room for this one entry beyond the limit. */
    ossa_warning *w = &L->doc->warnings[L->doc->warning_count++];
    w->path[0] = '\0';
    snprintf(w->message, sizeof w->message, "%u more warnings were left out", L->warnings_dropped);
}

void ossa_io_warn(ossa_io_loader *L, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    warn_v(L, fmt, args);
    va_end(args);
}

void ossa_io_warn_key(ossa_io_loader *L, const char *key, const char *fmt, ...) {
    size_t mark = ossa_io_path_key(L, key);
    va_list args;
    va_start(args, fmt);
    warn_v(L, fmt, args);
    va_end(args);
    ossa_io_path_restore(L, mark);
}

/* ---- typed readers ---- */

static const char *json_type_name(const cJSON *item) {
    if (cJSON_IsObject(item)) return "an object";
    if (cJSON_IsArray(item)) return "an array";
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNull(item)) return "null";
    return "an unknown value";
}

/* Keys are compared often (every member against the names a reader knows): the first character
 * settles most comparisons without a call. */
static int same_key(const char *a, const char *b) {
    return a[0] == b[0] && !strcmp(a, b);
}

const char ossa_io_repeated_key[] =
    "given twice in one object: the later value counts, as glTF 2.0 asks (JSON encoding)";

/* The last member of that name: glTF 2.0 asks keys to be unique, and a client to let a later
 * value override an earlier one of the same key. */
const cJSON *ossa_io_member(const cJSON *object, const char *key) {
    if (!object) return NULL;
    const cJSON *found = NULL;
    for (const cJSON *item = object->child; item; item = item->next)
        if (item->string && same_key(item->string, key)) found = item;
    return found;
}

/* ossa_io_member for the getters: the object whose members ossa_io_check_members last checked
 * answers by the name's address (the loader passes the same literal for a name in its `known`
 * list and to the getter; the linker merges equal literals), without comparing names. Another
 * object, or a name not found by address, is looked up as usual. */
static const cJSON *lookup(const ossa_io_loader *L, const cJSON *object, const char *key) {
    if (object && object == L->checked_object)
        for (size_t k = 0; k < OSSA_IO_CHECKED_MAX && L->checked_known[k]; k++)
            if (L->checked_known[k] == key)
                return L->checked_found >> k & 1 ? L->checked_member[k] : NULL;
    return ossa_io_member(object, key);
}

void ossa_io_expect_object(ossa_io_loader *L, const cJSON *item) {
    if (!cJSON_IsObject(item))
        ossa_io_fail(L, OSSA_ERROR_INVALID, "must be an object, not %s", json_type_name(item));
}

const cJSON *ossa_io_get_object(ossa_io_loader *L, const cJSON *object, const char *key,
                                int required) {
    const cJSON *item = lookup(L, object, key);
    if (!item) {
        if (required) ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "is required but missing");
        return NULL;
    }
    if (!cJSON_IsObject(item))
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be an object, not %s",
                         json_type_name(item));
    return item;
}

uint32_t ossa_io_get_array(ossa_io_loader *L, const cJSON *object, const char *key,
                           const cJSON **out, int required) {
    const cJSON *item = lookup(L, object, key);
    *out = NULL;
    if (!item) {
        if (required) ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "is required but missing");
        return 0;
    }
    if (!cJSON_IsArray(item))
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be an array, not %s",
                         json_type_name(item));
    int size = cJSON_GetArraySize(item);
    if ((uint64_t)size > L->max_elements)
        ossa_io_fail_key(L, key, OSSA_ERROR_LIMIT, "has %d items, over the limit of %llu", size,
                         (unsigned long long)L->max_elements);
    if (size == 0) ossa_io_warn_key(L, key, "the array is empty");
    *out = item;
    return (uint32_t)size;
}

/* Without floor, a call on builds for the x86-64 baseline: whole numbers beyond 2^62 in magnitude
 * are all integers, and the others convert to int64_t exactly when they are. */
static int is_integer(const cJSON *item) {
    double v = item->valuedouble;
    if (!cJSON_IsNumber(item) || !isfinite(v)) return 0;
    return fabs(v) >= 0x1p62 || (double)(int64_t)v == v;
}

/* An index below count: what ossa_io_index_value accepts, checked without a call. */
static int is_index(const cJSON *item, uint32_t count) {
    double v = item->valuedouble;
    return cJSON_IsNumber(item) && v >= 0 && v < count && (double)(uint32_t)v == v;
}

int32_t ossa_io_index_value(ossa_io_loader *L, const cJSON *item, uint32_t count,
                            const char *what) {
    if (!is_integer(item) || item->valuedouble < 0)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "must be an index (an integer >= 0), not %s",
                     cJSON_IsNumber(item) ? "a negative or fractional number"
                                          : json_type_name(item));
    double v = item->valuedouble;
    if (v >= count)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "refers to %s %.0f, but there %s %u", what, v,
                     count == 1 ? "is only" : "are", count);
    return (int32_t)v;
}

int32_t ossa_io_get_index(ossa_io_loader *L, const cJSON *object, const char *key, uint32_t count,
                          const char *what, int required) {
    const cJSON *item = lookup(L, object, key);
    if (!item) {
        if (required) ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "is required but missing");
        return -1;
    }
    if (is_index(item, count)) return (int32_t)item->valuedouble;
    ossa_io_path_key(L, key);
    return ossa_io_index_value(L, item, count, what); /* refuses it, at the key */
}

uint64_t ossa_io_get_uint(ossa_io_loader *L, const cJSON *object, const char *key,
                          uint64_t fallback, int required) {
    const cJSON *item = lookup(L, object, key);
    if (!item) {
        if (required) ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "is required but missing");
        return fallback;
    }
    if (!is_integer(item) || item->valuedouble < 0)
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be an integer >= 0, not %s",
                         cJSON_IsNumber(item) ? "a negative or fractional number"
                                              : json_type_name(item));
    if (item->valuedouble > 9007199254740992.0)
        ossa_io_fail_key(L, key, OSSA_ERROR_LIMIT, "is too large (%g)", item->valuedouble);
    return (uint64_t)item->valuedouble;
}

double ossa_io_get_number(ossa_io_loader *L, const cJSON *object, const char *key,
                          double fallback) {
    const cJSON *item = lookup(L, object, key);
    if (!item) return fallback;
    if (!cJSON_IsNumber(item))
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be a number, not %s",
                         json_type_name(item));
    if (!isfinite(item->valuedouble))
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be a finite number");
    return item->valuedouble;
}

int ossa_io_get_bool(ossa_io_loader *L, const cJSON *object, const char *key, int fallback) {
    const cJSON *item = lookup(L, object, key);
    if (!item) return fallback;
    if (!cJSON_IsBool(item))
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be true or false, not %s",
                         json_type_name(item));
    return cJSON_IsTrue(item);
}

const char *ossa_io_get_string(ossa_io_loader *L, const cJSON *object, const char *key,
                               int required) {
    const cJSON *item = lookup(L, object, key);
    if (!item) {
        if (required) ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "is required but missing");
        return NULL;
    }
    if (!cJSON_IsString(item))
        ossa_io_fail_key(L, key, OSSA_ERROR_INVALID, "must be a string, not %s",
                         json_type_name(item));
    return item->valuestring;
}

char *ossa_io_dup_string(ossa_io_loader *L, const cJSON *object, const char *key) {
    const char *text = ossa_io_get_string(L, object, key, 0);
    return text ? ossa_io_strdup(L, text) : NULL;
}

int ossa_io_get_floats(ossa_io_loader *L, const cJSON *object, const char *key, float *out,
                       uint32_t count) {
    const cJSON *array = lookup(L, object, key);
    if (!array) return 0;
    size_t mark = ossa_io_path_key(L, key);
    if (!cJSON_IsArray(array))
        ossa_io_fail(L, OSSA_ERROR_INVALID, "must be an array of %u numbers, not %s", count,
                     json_type_name(array));
    int size = cJSON_GetArraySize(array);
    if (size != (int)count)
        ossa_io_fail(L, OSSA_ERROR_INVALID, "must have %u numbers, not %d", count, size);
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        if (!cJSON_IsNumber(item)) {
            ossa_io_path_index(L, i);
            ossa_io_fail(L, OSSA_ERROR_INVALID, "must be a number, not %s", json_type_name(item));
        }
        float v = (float)item->valuedouble;
        if (!isfinite(v)) {
            ossa_io_path_index(L, i);
            ossa_io_fail(L, OSSA_ERROR_INVALID, "must be a finite number (%g)", item->valuedouble);
        }
        out[i++] = v;
    }
    ossa_io_path_restore(L, mark);
    return 1;
}

int ossa_io_extension_used(const ossa_io_loader *L, const char *name) {
    for (uint32_t i = 0; i < L->doc->extensions_used_count; i++)
        if (same_key(L->doc->extensions_used[i], name)) return 1;
    return 0;
}

const cJSON *ossa_io_get_extension(ossa_io_loader *L, const cJSON *object, const char *name) {
    const cJSON *extensions = ossa_io_member(object, "extensions");
    const cJSON *ext = cJSON_IsObject(extensions) ? ossa_io_member(extensions, name) : NULL;
    return cJSON_IsObject(ext) && ossa_io_extension_used(L, name) ? ext : NULL;
}

void ossa_io_check_members(ossa_io_loader *L, const cJSON *object, const char *const *known) {
    L->checked_object = NULL; /* until its members are all seen */
    L->checked_known = known;
    L->checked_found = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, object) {
        const char *key = item->string;
        if (same_key(key, "extras")) continue;
        if (same_key(key, "extensions")) {
            size_t mark = ossa_io_path_key(L, key);
            ossa_io_expect_object(L, item);
            const cJSON *ext;
            cJSON_ArrayForEach(ext, item) {
                if (!cJSON_IsObject(ext))
                    ossa_io_fail_key(L, ext->string, OSSA_ERROR_INVALID,
                                     "an extension must be an object, not %s", json_type_name(ext));
                int declared = 0, handled = 0;
                for (uint32_t i = 0; i < L->doc->extensions_used_count; i++)
                    if (same_key(L->doc->extensions_used[i], ext->string)) declared = 1;
                for (const char *const *k = known; *k && !handled; k++)
                    handled = same_key(*k, ext->string);
                if (!declared)
                    ossa_io_warn_key(L, ext->string,
                                     "extension '%s' is not listed in extensionsUsed; ignored",
                                     ext->string);
                else if (!handled)
                    /* The caller reads the extensions it implements (listed in `known`). */
                    ossa_io_warn_key(L, ext->string,
                                     "extension object '%s' has no effect in ossa; ignored",
                                     ext->string);
            }
            ossa_io_path_restore(L, mark);
            continue;
        }
        int found = 0;
        for (const char *const *k = known; *k && !found; k++)
            if (same_key(*k, key)) {
                found = 1;
                size_t slot = (size_t)(k - known);
                if (slot >= OSSA_IO_CHECKED_MAX) continue;
                if (L->checked_found >> slot & 1)
                    ossa_io_warn_key(L, key, "%s", ossa_io_repeated_key);
                L->checked_found |= 1u << slot; /* the last of that name, as ossa_io_member finds */
                L->checked_member[slot] = item;
            }
        if (!found) ossa_io_warn_key(L, key, "unknown property '%s'; ignored", key);
    }
    L->checked_object = object;
}

void ossa_io_visit(ossa_io_loader *L, const char *key, const cJSON *array, ossa_io_item_fn fn) {
    if (!array) return;
    size_t top = ossa_io_path_key(L, key);
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        size_t mark = ossa_io_path_index(L, i);
        ossa_io_expect_object(L, item);
        fn(L, item, i);
        ossa_io_path_restore(L, mark);
        i++;
    }
    ossa_io_path_restore(L, top);
}
