/* Builds the fuzzers' seed corpora: every model and invalid case of the shared corpus and the
 * built-in demo, as self-contained files (the fuzzers load from memory, where external buffers
 * cannot be resolved), in both containers:
 *
 *   make_seeds GLTF_DIR GLB_DIR SOURCE_DIR...
 *
 * A .gltf gets its external buffers embedded as base64 data URIs (GLTF_DIR) and, when it has
 * one buffer, is also packed as a .glb with that buffer in the BIN chunk (GLB_DIR). A .glb is
 * copied (GLB_DIR) and also unpacked to a .gltf with its BIN chunk as a data URI (GLTF_DIR).
 * Text that does not parse as JSON is copied unchanged: broken files are good seeds too.
 * Two more seeds use EXT_meshopt_compression in every mode and filter (made with
 * libmeshoptimizer's encoders). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <meshoptimizer.h>

#include "ossa/demo.h"

/* External files larger than this are left as URIs (the loader then refuses or warns). */
#define MAX_EMBEDDED_BYTES (8u << 20)

static const char *gltf_dir, *glb_dir;
static int written;

static unsigned char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && (unsigned long)n <= MAX_EMBEDDED_BYTES && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc((size_t)n + 1);
            if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
                free(data);
                data = NULL;
            }
            *size = (size_t)n;
        }
    }
    fclose(f);
    return data;
}

static void write_all(const char *dir, const char *name, const void *data, size_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        fprintf(stderr, "make_seeds: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
    written++;
}

static char *base64_data_uri(const unsigned char *data, size_t size) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char prefix[] = "data:application/octet-stream;base64,";
    char *out = malloc(sizeof prefix + (size + 2) / 3 * 4);
    if (!out) return NULL;
    char *o = out + sizeof prefix - 1;
    memcpy(out, prefix, sizeof prefix - 1);
    for (size_t i = 0; i < size; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        if (i + 1 < size) v |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < size) v |= data[i + 2];
        *o++ = alphabet[v >> 18 & 63];
        *o++ = alphabet[v >> 12 & 63];
        *o++ = i + 1 < size ? alphabet[v >> 6 & 63] : '=';
        *o++ = i + 2 < size ? alphabet[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

static void put_u32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A GLB of JSON text and an optional binary chunk, padded as the spec asks. */
static void write_glb(const char *name, const char *json, const unsigned char *bin,
                      size_t bin_size) {
    size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3;
    size_t bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
    unsigned char *glb = calloc(total, 1);
    if (!glb) return;
    memcpy(glb, "glTF", 4);
    put_u32(glb + 4, 2);
    put_u32(glb + 8, (uint32_t)total);
    put_u32(glb + 12, (uint32_t)json_padded);
    memcpy(glb + 16, "JSON", 4);
    memcpy(glb + 20, json, json_size);
    memset(glb + 20 + json_size, ' ', json_padded - json_size);
    if (bin) {
        unsigned char *chunk = glb + 20 + json_padded;
        put_u32(chunk, (uint32_t)bin_padded);
        memcpy(chunk + 4, "BIN\0", 4);
        memcpy(chunk + 8, bin, bin_size);
    }
    write_all(glb_dir, name, glb, total);
    free(glb);
}

/* "models/Fox/Fox.glb" -> "models_Fox_Fox" + extension. */
static void seed_name(const char *relative, const char *extension, char *out, size_t size) {
    snprintf(out, size, "%s", relative);
    char *dot = strrchr(out, '.');
    if (dot) *dot = '\0';
    for (char *c = out; *c; c++)
        if (*c == '/') *c = '_';
    strncat(out, extension, size - strlen(out) - 1);
}

static void seed_gltf(const char *path, const char *relative) {
    size_t size;
    unsigned char *text = read_all(path, &size);
    if (!text) return;
    char name[1024];
    seed_name(relative, ".gltf", name, sizeof name);
    cJSON *root = cJSON_ParseWithLength((const char *)text, size);
    if (!root) {
        write_all(gltf_dir, name, text, size);
        free(text);
        return;
    }
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", path);
    char *slash = strrchr(folder, '/');
    if (slash) slash[1] = '\0';
    cJSON *buffers = cJSON_GetObjectItemCaseSensitive(root, "buffers");
    unsigned char *only_data = NULL;
    size_t only_size = 0;
    int buffer_count = cJSON_IsArray(buffers) ? cJSON_GetArraySize(buffers) : 0;
    for (int i = 0; i < buffer_count; i++) {
        cJSON *uri = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(buffers, i), "uri");
        if (!cJSON_IsString(uri) || !strncmp(uri->valuestring, "data:", 5)) continue;
        char file[8192];
        snprintf(file, sizeof file, "%s%s", folder, uri->valuestring);
        size_t data_size;
        unsigned char *data = read_all(file, &data_size);
        if (!data) continue;
        char *data_uri = base64_data_uri(data, data_size);
        if (data_uri) cJSON_SetValuestring(uri, data_uri);
        free(data_uri);
        if (buffer_count == 1) {
            only_data = data, only_size = data_size;
        } else {
            free(data);
        }
    }
    char *json = cJSON_PrintUnformatted(root);
    if (json) write_all(gltf_dir, name, json, strlen(json));
    free(json);
    if (only_data) {
        cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(buffers, 0), "uri");
        json = cJSON_PrintUnformatted(root);
        seed_name(relative, ".glb", name, sizeof name);
        if (json) write_glb(name, json, only_data, only_size);
        free(json);
        free(only_data);
    }
    cJSON_Delete(root);
    free(text);
}

/* Writes a GLB as is and unpacked into a .gltf with its BIN chunk as buffer 0's data URI. */
static void seed_glb_bytes(const unsigned char *glb, size_t size, const char *relative) {
    char name[1024];
    seed_name(relative, ".glb", name, sizeof name);
    write_all(glb_dir, name, glb, size);
    if (size < 20 || memcmp(glb, "glTF", 4) != 0) return;
    size_t json_size = get_u32(glb + 12);
    if (json_size > size - 20) return;
    cJSON *root = cJSON_ParseWithLength((const char *)glb + 20, json_size);
    if (!root) return;
    size_t bin_at = 20 + json_size;
    cJSON *buffer = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "buffers"), 0);
    if (buffer && bin_at + 8 <= size && !cJSON_HasObjectItem(buffer, "uri")) {
        size_t bin_size = get_u32(glb + bin_at);
        if (bin_size <= size - bin_at - 8) {
            char *data_uri = base64_data_uri(glb + bin_at + 8, bin_size);
            if (data_uri) cJSON_AddStringToObject(buffer, "uri", data_uri);
            free(data_uri);
        }
    }
    char *json = cJSON_PrintUnformatted(root);
    seed_name(relative, ".gltf", name, sizeof name);
    if (json) write_all(gltf_dir, name, json, strlen(json));
    free(json);
    cJSON_Delete(root);
}

static size_t source_prefix;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st, (void)ftw;
    if (type != FTW_F) return 0;
    const char *relative = path + source_prefix;
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".gltf")) {
        seed_gltf(path, relative);
    } else if (n > 4 && !strcmp(path + n - 4, ".glb")) {
        size_t size;
        unsigned char *glb = read_all(path, &size);
        if (glb) seed_glb_bytes(glb, size, relative);
        free(glb);
    }
    return 0;
}

static void seed_demo(void) {
    for (int model = OSSA_DEMO_BOTH; model <= OSSA_DEMO_TENTACLE; model++) {
        ossa_demo_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.model = (ossa_demo_model)model;
        void *bytes = NULL;
        size_t size = 0;
        if (ossa_demo_write_glb(&desc, &bytes, &size, NULL) != OSSA_OK) {
            fprintf(stderr, "make_seeds: the demo model cannot be written\n");
            exit(1);
        }
        char name[64];
        snprintf(name, sizeof name, "demo_%s.glb", ossa_demo_model_name(desc.model));
        seed_glb_bytes(bytes, size, name);
        ossa_demo_free_glb(&desc, bytes);
    }
}

/* Appends one compressed stream to bin; returns its offset. */
static size_t add_stream(unsigned char *bin, size_t *size, size_t capacity, const void *data,
                         size_t count, size_t stride, int mode) {
    size_t at = (*size + 3) & ~(size_t)3, n;
    if (mode == 0) {
        n = meshopt_encodeVertexBuffer(bin + at, capacity - at, data, count, stride);
    } else {
        unsigned wide[64];
        for (size_t i = 0; i < count && i < 64; i++)
            wide[i] = ((const uint16_t *)data)[i];
        n = mode == 1 ? meshopt_encodeIndexBuffer(bin + at, capacity - at, wide, count)
                      : meshopt_encodeIndexSequence(bin + at, capacity - at, wide, count);
    }
    *size = at + n;
    return at;
}

/* A quad animated by a node: positions (ATTRIBUTES), octahedral normals, indices (TRIANGLES or
 * INDICES), key times, quaternion rotations and exponential translations, all compressed into a
 * GLB whose decoded views live in a fallback buffer. */
static void seed_meshopt(int index_mode) {
    static const float positions[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    static const float normals[16] = {0, 0, 1, 0, 0, 0.6f, 0.8f, 0, 0, 0.8f, 0.6f, 0, 0, 0, 1, 0};
    static const uint16_t indices[6] = {0, 1, 2, 1, 3, 2};
    static const float times[4] = {0, 0.5f, 1, 1.5f};
    static const float rotations[16] = {
        0, 0, 0, 1, 0, 0.38268343f, 0, 0.92387953f, 0, 0.70710678f, 0, 0.70710678f, 0, 1, 0, 0};
    static const float translations[12] = {0, 0, 0, 1, 0.5f, 0, 2, 1, -0.25f, 3, 1.5f, 0};
    int8_t oct[16];
    int16_t quat[16];
    uint32_t exp[12];
    meshopt_encodeFilterOct(oct, 4, 4, 8, normals);
    meshopt_encodeFilterQuat(quat, 4, 8, 12, rotations);
    meshopt_encodeFilterExp(exp, 4, 12, 16, translations);
    static const struct {
        int mode;
        const char *filter;
        size_t count, stride;
    } views[6] = {{0, "NONE", 4, 12}, {0, "OCTAHEDRAL", 4, 4}, {1, "NONE", 6, 2},
                  {0, "NONE", 4, 4},  {0, "QUATERNION", 4, 8}, {0, "EXPONENTIAL", 4, 12}};
    const void *data[6] = {positions, oct, indices, times, quat, exp};
    static const char *const modes[3] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
    unsigned char bin[2048];
    size_t bin_size = 0, decoded = 0;
    char view_json[4096] = "";
    size_t len = 0;
    for (int i = 0; i < 6; i++) {
        int mode = views[i].mode ? index_mode : 0;
        size_t at =
            add_stream(bin, &bin_size, sizeof bin, data[i], views[i].count, views[i].stride, mode);
        size_t bytes = views[i].count * views[i].stride;
        len += (size_t)snprintf(
            view_json + len, sizeof view_json - len,
            "%s{\"buffer\":1,\"byteOffset\":%zu,\"byteLength\":%zu,\"extensions\":{"
            "\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,"
            "\"byteStride\":%zu,\"count\":%zu,\"mode\":\"%s\",\"filter\":\"%s\"}}}",
            i ? "," : "", decoded, bytes, at, bin_size - at, views[i].stride, views[i].count,
            modes[mode], views[i].filter);
        decoded += (bytes + 3) & ~(size_t)3;
    }
    char json[8192];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"EXT_meshopt_compression\"],"
             "\"extensionsRequired\":[\"EXT_meshopt_compression\"],"
             "\"buffers\":[{\"byteLength\":%zu},{\"byteLength\":%zu,\"extensions\":"
             "{\"EXT_meshopt_compression\":{\"fallback\":true}}}],\"bufferViews\":[%s],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,"
             "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
             "{\"bufferView\":1,\"componentType\":5120,\"normalized\":true,\"count\":4,"
             "\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
             "\"min\":[0],\"max\":[1.5]},"
             "{\"bufferView\":4,\"componentType\":5122,\"normalized\":true,\"count\":4,"
             "\"type\":\"VEC4\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":2}]}],"
             "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],"
             "\"animations\":[{\"samplers\":[{\"input\":3,\"output\":4},{\"input\":3,"
             "\"output\":5}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"
             "\"path\":\"rotation\"}},{\"sampler\":1,\"target\":{\"node\":0,"
             "\"path\":\"translation\"}}]}]}",
             bin_size, decoded, view_json);
    char name[64];
    snprintf(name, sizeof name, "meshopt_%s.glb", modes[index_mode]);
    write_glb(name, json, bin, bin_size);
    /* The same as .gltf, its compressed data in a base64 data URI. */
    char *uri = base64_data_uri(bin, bin_size);
    cJSON *root = cJSON_Parse(json);
    if (uri && root) {
        cJSON *buffer = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "buffers"), 0);
        cJSON_AddStringToObject(buffer, "uri", uri);
        char *text = cJSON_PrintUnformatted(root);
        snprintf(name, sizeof name, "meshopt_%s.gltf", modes[index_mode]);
        if (text) write_all(gltf_dir, name, text, strlen(text));
        free(text);
    }
    cJSON_Delete(root);
    free(uri);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: make_seeds GLTF_DIR GLB_DIR SOURCE_DIR...\n");
        return 2;
    }
    gltf_dir = argv[1], glb_dir = argv[2];
    for (int i = 3; i < argc; i++) {
        const char *parent = strrchr(argv[i], '/');
        source_prefix = parent && parent[1] ? (size_t)(parent - argv[i]) + 1 : 0;
        if (nftw(argv[i], visit, 16, FTW_PHYS) != 0) {
            fprintf(stderr, "make_seeds: cannot walk %s\n", argv[i]);
            return 1;
        }
    }
    seed_demo();
    seed_meshopt(1);
    seed_meshopt(2);
    printf("make_seeds: %d seed files\n", written);
    return 0;
}
