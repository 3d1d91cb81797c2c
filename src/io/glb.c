/* The GLB container: a 12-byte header, a JSON chunk, an optional BIN chunk. */
#include <string.h>

#include "io/loader.h"

#define GLB_CHUNK_JSON 0x4E4F534Au
#define GLB_CHUNK_BIN  0x004E4942u

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void ossa_io_glb_split(ossa_io_loader *L, const uint8_t *data, uint64_t size, const uint8_t **json,
                       uint64_t *json_size) {
    if (size < 12)
        ossa_io_fail(L, OSSA_ERROR_GLB, "the GLB header is truncated (%llu of 12 bytes)",
                     (unsigned long long)size);
    uint32_t version = read_u32(data + 4);
    uint32_t length = read_u32(data + 8);
    if (version != 2)
        ossa_io_fail(L, OSSA_ERROR_GLB, "GLB version %u is not supported (only 2)", version);
    if (length > size)
        ossa_io_fail(L, OSSA_ERROR_GLB, "the GLB header declares %u bytes but the file has %llu",
                     length, (unsigned long long)size);
    if (length < size) {
        ossa_io_warn(L, "%llu bytes after the end of the GLB data (%u bytes) are ignored",
                     (unsigned long long)(size - length), length);
        size = length;
    }
    uint64_t offset = 12;
    int chunk_index = 0;
    *json = NULL;
    *json_size = 0;
    L->bin.data = NULL;
    L->bin.size = 0;
    while (offset < size) {
        if (size - offset < 8)
            ossa_io_fail(L, OSSA_ERROR_GLB, "chunk %d: the chunk header is truncated", chunk_index);
        uint32_t chunk_length = read_u32(data + offset);
        uint32_t chunk_type = read_u32(data + offset + 4);
        offset += 8;
        if (chunk_length > size - offset)
            ossa_io_fail(L, OSSA_ERROR_GLB,
                         "chunk %d declares %u bytes but only %llu remain in the file", chunk_index,
                         chunk_length, (unsigned long long)(size - offset));
        if (chunk_length % 4 != 0)
            ossa_io_fail(L, OSSA_ERROR_GLB, "chunk %d has length %u, which is not a multiple of 4",
                         chunk_index, chunk_length);
        if (chunk_index == 0) {
            if (chunk_type != GLB_CHUNK_JSON)
                ossa_io_fail(L, OSSA_ERROR_GLB,
                             "the first chunk must be JSON, but its type is 0x%08x", chunk_type);
            *json = data + offset;
            *json_size = chunk_length;
        } else if (chunk_type == GLB_CHUNK_BIN) {
            if (chunk_index != 1)
                ossa_io_fail(L, OSSA_ERROR_GLB,
                             "chunk %d is a BIN chunk; it must be the second chunk and the only "
                             "one",
                             chunk_index);
            L->bin.data = data + offset;
            L->bin.size = chunk_length;
        } else if (chunk_type == GLB_CHUNK_JSON) {
            ossa_io_fail(L, OSSA_ERROR_GLB, "chunk %d is a second JSON chunk", chunk_index);
        } else {
            ossa_io_warn(L, "GLB chunk %d has unknown type 0x%08x; ignored", chunk_index,
                         chunk_type);
        }
        offset += chunk_length;
        chunk_index++;
    }
    if (chunk_index == 0) ossa_io_fail(L, OSSA_ERROR_GLB, "the GLB file has no JSON chunk");
}
