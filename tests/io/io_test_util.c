#define _POSIX_C_SOURCE 200809L
#include "io_test_util.h"

#include <stdlib.h>
#include <string.h>

static void put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

uint8_t *io_make_glb(const char *json, const void *bin, size_t bin_size, size_t *size) {
    size_t json_len = strlen(json);
    size_t json_padded = (json_len + 3) & ~(size_t)3;
    size_t bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
    uint8_t *out = calloc(1, total);
    memcpy(out, "glTF", 4);
    put_u32(out + 4, 2);
    put_u32(out + 8, (uint32_t)total);
    put_u32(out + 12, (uint32_t)json_padded);
    memcpy(out + 16, "JSON", 4);
    memcpy(out + 20, json, json_len);
    memset(out + 20 + json_len, ' ', json_padded - json_len);
    if (bin) {
        uint8_t *chunk = out + 20 + json_padded;
        put_u32(chunk, (uint32_t)bin_padded);
        memcpy(chunk + 4, "BIN", 4);
        memcpy(chunk + 8, bin, bin_size);
    }
    *size = total;
    return out;
}

ossa_result io_load_json(const char *json, const void *bin, size_t bin_size,
                         const ossa_load_options *options, ossa_document **doc, ossa_error *error) {
    char *text = strdup(json);
    for (char *p = text; *p; p++)
        if (*p == '\'') *p = '"';
    ossa_load_options defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.name = "case.gltf";
    if (!options) options = &defaults;
    ossa_result r;
    if (bin) {
        size_t size;
        uint8_t *glb = io_make_glb(text, bin, bin_size, &size);
        r = ossa_document_load_memory(glb, size, options, doc, error);
        free(glb);
    } else {
        r = ossa_document_load_memory(text, strlen(text), options, doc, error);
    }
    free(text);
    return r;
}

int io_has_warning(const ossa_document *doc, const char *path, const char *phrase) {
    for (uint32_t i = 0; doc && i < doc->warning_count; i++)
        if (!strcmp(doc->warnings[i].path, path) && strstr(doc->warnings[i].message, phrase))
            return 1;
    return 0;
}
