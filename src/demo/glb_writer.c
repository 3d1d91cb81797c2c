/* The GLB container: a 12-byte header, then chunks of (length, type, data), each 4-byte
 * aligned, all integers little-endian (glTF 2.0 specification, section "Binary glTF"). */
#include "glb_writer.h"

#include <stdint.h>
#include <string.h>

#include "rig/owned.h"

#define GLB_MAGIC      0x46546C67u /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN  0x004E4942u /* "BIN\0" */

static size_t pad4(size_t n) {
    return (n + 3u) & ~(size_t)3u;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    return p + 4;
}

static uint8_t *put_chunk(uint8_t *p, uint32_t type, const void *data, size_t size, uint8_t pad) {
    size_t padded = pad4(size);
    p = put_u32(p, (uint32_t)padded);
    p = put_u32(p, type);
    memcpy(p, data, size);
    memset(p + size, pad, padded - size);
    return p + padded;
}

int glb_write(const char *json, size_t json_size, const void *bin, size_t bin_size,
              const ossa_allocator *allocator, void **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    uint64_t total = 12u + 8u + (uint64_t)pad4(json_size);
    if (bin_size > 0) total += 8u + (uint64_t)pad4(bin_size);
    if (total > UINT32_MAX) return 0;
    ossa_allocator a = ossa_allocator_resolve(allocator);
    uint8_t *bytes = ossa_alloc_array(&a, (size_t)total, 1);
    if (!bytes) return 0;
    uint8_t *p = put_u32(bytes, GLB_MAGIC);
    p = put_u32(p, 2);
    p = put_u32(p, (uint32_t)total);
    p = put_chunk(p, GLB_CHUNK_JSON, json, json_size, ' ');
    if (bin_size > 0) put_chunk(p, GLB_CHUNK_BIN, bin, bin_size, 0);
    *out = bytes;
    *out_size = (size_t)total;
    return 1;
}
