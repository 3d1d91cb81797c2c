/* The base model and the edit helpers of hostile_model.h. */
#include "hostile_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_append(hbytes *b, const void *data, size_t size) {
    if (b->size + size + 1 > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 256;
        while (cap < b->size + size + 1)
            cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (!grown) abort();
        b->data = grown, b->capacity = cap;
    }
    if (size) memcpy(b->data + b->size, data, size);
    b->size += size;
    b->data[b->size] = '\0';
}

void hb_printf(hbytes *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) abort();
    if ((size_t)n < sizeof small) {
        hb_append(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) abort();
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    hb_append(b, big, (size_t)n);
    free(big);
}

void hb_free(hbytes *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

const char *base_json(void) {
    return "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,2]}],"
           "\"nodes\":[{\"name\":\"root\",\"children\":[1]},"
           "{\"name\":\"tip\",\"translation\":[0,1,0]},"
           "{\"name\":\"body\",\"mesh\":0,\"skin\":0}],"
           "\"meshes\":[{\"primitives\":[{\"attributes\":"
           "{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
           "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":3}],"
           "\"animations\":[{\"samplers\":[{\"input\":4,\"output\":5},{\"input\":4,\"output\":6}],"
           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
           "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}]}],"
           "\"buffers\":[{\"byteLength\":16384}],"
           "\"bufferViews\":["
           "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36,\"target\":34962},"
           "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":12,\"target\":34962},"
           "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48,\"target\":34962},"
           "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":128},"
           "{\"buffer\":0,\"byteOffset\":224,\"byteLength\":12},"
           "{\"buffer\":0,\"byteOffset\":236,\"byteLength\":48},"
           "{\"buffer\":0,\"byteOffset\":284,\"byteLength\":36}],"
           "\"accessors\":["
           "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
           "\"min\":[0,0,0],\"max\":[1,1,0]},"
           "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
           "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
           "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
           "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\","
           "\"min\":[0],\"max\":[2]},"
           "{\"bufferView\":5,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
           "{\"bufferView\":6,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]}";
}

void bin_set_float(unsigned char *bin, size_t offset, float value) {
    memcpy(bin + offset, &value, sizeof value);
}

void base_bin(unsigned char *bin) {
    memset(bin, 0, BASE_BIN_SIZE);
    static const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const float weights[12] = {0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0};
    /* Column-major: identity, then a translation by (0, -1, 0) (the tip's inverse bind). */
    static const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,
                                  1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    static const float times[3] = {0, 1, 2};
    static const float rotations[12] = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 0, 1};
    static const float translations[9] = {0, 0, 0, 1, 0, 0, 0, 0, 0};
    static const unsigned char joints[12] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
    memcpy(bin + BASE_POSITIONS, positions, sizeof positions);
    memcpy(bin + BASE_JOINTS, joints, sizeof joints);
    memcpy(bin + BASE_WEIGHTS, weights, sizeof weights);
    memcpy(bin + BASE_IBM, ibm, sizeof ibm);
    memcpy(bin + BASE_TIMES, times, sizeof times);
    memcpy(bin + BASE_ROTATIONS, rotations, sizeof rotations);
    memcpy(bin + BASE_TRANSLATIONS, translations, sizeof translations);
}

char *json_replace(const char *json, const char *find, const char *replace) {
    const char *at = strstr(json, find);
    if (!at || strstr(at + 1, find)) {
        fprintf(stderr, "hostile: '%s' must occur exactly once in the base JSON\n", find);
        abort();
    }
    size_t before = (size_t)(at - json), find_len = strlen(find), replace_len = strlen(replace);
    size_t after = strlen(at + find_len);
    char *out = malloc(before + replace_len + after + 1);
    if (!out) abort();
    memcpy(out, json, before);
    memcpy(out + before, replace, replace_len);
    memcpy(out + before + replace_len, at + find_len, after + 1);
    return out;
}

static void put_u32(hbytes *out, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    hb_append(out, b, 4);
}

void glb_pack(hbytes *out, const char *json, const void *bin, size_t bin_size) {
    size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3;
    size_t bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
    hb_append(out, "glTF", 4);
    put_u32(out, 2);
    put_u32(out, (uint32_t)total);
    put_u32(out, (uint32_t)json_padded);
    hb_append(out, "JSON", 4);
    hb_append(out, json, json_size);
    hb_append(out, "   ", json_padded - json_size);
    if (bin) {
        put_u32(out, (uint32_t)bin_padded);
        hb_append(out, "BIN\0", 4);
        hb_append(out, bin, bin_size);
        hb_append(out, "\0\0\0", bin_padded - bin_size);
    }
}

void base64_append(hbytes *out, const void *data, size_t size) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < size) v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < size) v |= p[i + 2];
        char q[4] = {alphabet[v >> 18 & 63], alphabet[v >> 12 & 63],
                     i + 1 < size ? alphabet[v >> 6 & 63] : '=',
                     i + 2 < size ? alphabet[v & 63] : '='};
        hb_append(out, q, 4);
    }
}
