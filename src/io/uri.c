/* URIs of buffers and images: data URIs and files relative to the model's folder. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/loader.h"

int ossa_io_read_file(ossa_io_loader *L, const char *path, uint64_t limit, uint8_t **data,
                      uint64_t *size, const char **why) {
    /* open and read, not stdio: one status call and one read of the whole file, where fopen
     * allocates a buffer, asks for the status again and reads the tail in 4 KB pieces */
    int file = open(path, O_RDONLY | O_CLOEXEC);
    if (file < 0) {
        *why = "the file cannot be opened (missing or not readable)";
        return 0;
    }
    struct stat st;
    if (fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(file);
        *why = "not a regular file";
        return 0;
    }
    uint64_t n = (uint64_t)st.st_size;
    if (n > limit) {
        close(file);
        ossa_io_fail(L, OSSA_ERROR_LIMIT, "the file %s is %llu bytes, over the limit of %llu", path,
                     (unsigned long long)n, (unsigned long long)limit);
    }
    /* Allocation failure must not leak the descriptor: allocate through a check first. */
    ossa_io_storage *s = L->storage;
    ossa_io_block *block = s->allocator.alloc(s->allocator.user, sizeof(ossa_io_block) + n + 1);
    if (!block) {
        close(file);
        ossa_io_fail(L, OSSA_ERROR_OUT_OF_MEMORY, "out of memory reading %llu bytes",
                     (unsigned long long)n);
    }
    block->link.prev = NULL;
    block->link.next = s->blocks;
    if (s->blocks) s->blocks->link.prev = block;
    s->blocks = block;
    uint8_t *bytes = (uint8_t *)(block + 1);
    uint64_t got = 0;
    while (got < n) {
        uint64_t want = n - got < (1u << 30) ? n - got : (1u << 30); /* within ssize_t */
        ssize_t part = read(file, bytes + got, (size_t)want);
        if (part < 0 && errno == EINTR) continue;
        if (part <= 0) break;
        got += (uint64_t)part;
    }
    close(file);
    bytes[n] = 0;
    if (got != n) {
        ossa_io_release(s, bytes);
        *why = "the file could not be read completely";
        return 0;
    }
    *data = bytes;
    *size = n;
    return 1;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Has a scheme ("http:", "file:", ...): letters then ':' before any '/'. */
static int has_scheme(const char *uri) {
    for (const char *p = uri; *p; p++) {
        if (*p == ':') return 1;
        if (*p == '/' || *p == '?' || *p == '#') return 0;
    }
    return 0;
}

/* Percent-decodes n bytes of text into out (room for n bytes); returns the decoded length.
 * A '%' not followed by two hex digits is kept as it is and counted in *malformed. */
static size_t percent_decode(const char *text, size_t n, uint8_t *out, size_t *malformed) {
    size_t j = 0;
    *malformed = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '%' && i + 2 < n && hex_value(text[i + 1]) >= 0 &&
            hex_value(text[i + 2]) >= 0) {
            out[j++] = (uint8_t)(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
            i += 2;
            continue;
        }
        if (text[i] == '%') (*malformed)++;
        out[j++] = (uint8_t)text[i];
    }
    return j;
}

/* Writes a relative path without its "." and "segment/.." parts to out (room for the path),
 * as URI resolution does (RFC 3986, 5.2.4): "sub/../x.bin" is "x.bin" whether or not "sub"
 * exists; empty segments are dropped, as a POSIX path reads them. Returns 0 when a ".." climbs
 * above the model's folder. */
static int remove_dot_segments(const char *path, char *out) {
    char *o = out;
    const char *p = path;
    for (;;) {
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (o == out) return 0;
            /* Drop the last kept segment (it ends with '/', as this one followed it). */
            o--;
            while (o > out && o[-1] != '/')
                o--;
        } else if (n > 0 && !(n == 1 && p[0] == '.')) {
            memcpy(o, p, n);
            o += n;
            if (end) *o++ = '/';
        }
        if (!end) break;
        p = end + 1;
    }
    *o = '\0';
    return 1;
}

static int load_data_uri(ossa_io_loader *L, const char *uri, const char *what, uint8_t **data,
                         uint64_t *size) {
    const char *comma = strchr(uri, ',');
    if (!comma) ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID, "the data URI has no ','");
    const char *meta = uri + 5;
    size_t meta_len = (size_t)(comma - meta);
    int base64 = meta_len >= 7 && !memcmp(comma - 7, ";base64", 7);
    size_t mime_len = base64 ? meta_len - 7 : meta_len;
    if (!strcmp(what, "buffer")) {
        int ok = (mime_len == 24 && !memcmp(meta, "application/octet-stream", 24)) ||
                 (mime_len == 23 && !memcmp(meta, "application/gltf-buffer", 23));
        if (!ok)
            ossa_io_warn_key(L, "uri", "unexpected media type '%.*s' for a buffer data URI",
                             (int)mime_len, meta);
    }
    const char *text = comma + 1;
    size_t text_len = strlen(text);
    if (!base64) {
        /* Without ";base64" the data is the text itself, percent-encoded (RFC 2397). */
        uint8_t *bytes = ossa_io_alloc_uninit(L, text_len + 1, 1);
        size_t malformed;
        *size = percent_decode(text, text_len, bytes, &malformed);
        if (malformed)
            ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID,
                             "the data URI has a '%%' not followed by two hex digits");
        *data = bytes;
        return 1;
    }
    /* One pass: room for the longest possible result, then decode and check together. */
    uint8_t *bytes = ossa_io_alloc_uninit(L, text_len / 4 * 3 + 3, 1);
    int64_t n = ossa_io_base64_decode(text, text_len, bytes);
    if (n < 0) ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID, "the data URI is not valid base64");
    *data = bytes;
    *size = (uint64_t)n;
    return 1;
}

int ossa_io_load_uri(ossa_io_loader *L, const char *uri, const char *what, uint8_t **data,
                     uint64_t *size, const char **why) {
    if (!strncmp(uri, "data:", 5)) return load_data_uri(L, uri, what, data, size);
    if (uri[0] == '\0') ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID, "the URI is empty");
    if (has_scheme(uri)) {
        if (uri[0] == ':')
            ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID, "'%s' is not a valid URI", uri);
        *why = "only relative paths and data URIs can be loaded";
        return 0;
    }
    /* Percent-decoding gives the file name ('%' without two hex digits stays as it is). */
    size_t n = strlen(uri), malformed;
    char *name = ossa_io_alloc(L, n + 1);
    size_t j = percent_decode(uri, n, (uint8_t *)name, &malformed);
    name[j] = '\0';
    if (strlen(name) != j)
        ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID, "the URI contains an encoded NUL byte");
    char *clean = ossa_io_alloc(L, j + 1);
    int inside = name[0] != '/' && name[0] != '\\' && remove_dot_segments(name, clean);
    if (!inside && !L->allow_unsafe_paths)
        ossa_io_fail_key(L, "uri", OSSA_ERROR_INVALID,
                         "'%s' leaves the model's folder (absolute or '..'); refused unless "
                         "allow_unsafe_paths is set",
                         uri);
    if (inside) {
        ossa_io_release(L->storage, name);
        name = clean;
        j = strlen(name);
    } else {
        ossa_io_release(L->storage, clean);
    }
    if (!L->base_dir) {
        ossa_io_release(L->storage, name);
        *why = "relative URIs cannot be resolved: the model was loaded from memory without "
               "base_dir";
        return 0;
    }
    size_t dir_len = strlen(L->base_dir);
    int slash = dir_len > 0 && L->base_dir[dir_len - 1] != '/';
    char *full = ossa_io_alloc(L, dir_len + (size_t)slash + j + 1);
    memcpy(full, L->base_dir, dir_len);
    if (slash) full[dir_len] = '/';
    memcpy(full + dir_len + (size_t)slash, name, j + 1);
    if (name[0] == '/') memcpy(full, name, j + 1);
    ossa_io_release(L->storage, name);
    int ok = ossa_io_read_file(L, full, L->max_buffer_bytes, data, size, why);
    ossa_io_release(L->storage, full);
    return ok;
}
