/* Hostile inputs are made from one small valid model by edits: text replacements in its JSON
 * and patches of its binary buffer, then packed as a GLB (or a .gltf with a data URI). Big
 * structures (deep hierarchies, many joints, deep JSON) are written by their own builders. */
#ifndef OSSA_HOSTILE_MODEL_H
#define OSSA_HOSTILE_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* A growable byte string; every builder returns malloc'd bytes in one. */
typedef struct hbytes {
    unsigned char *data;
    size_t size, capacity;
} hbytes;

void hb_append(hbytes *b, const void *data, size_t size);
void hb_printf(hbytes *b, const char *fmt, ...);
void hb_free(hbytes *b);

/* The base model: a two-joint chain (root, tip) skinning a triangle on node "body", one
 * animation rotating the tip and translating the root over keys at 0, 1, 2 s. The buffer
 * layout (byte offsets into the binary buffer of BASE_BIN_SIZE bytes): */
enum {
    BASE_POSITIONS = 0,      /* accessor 0: 3 x VEC3 float, view 0 */
    BASE_JOINTS = 36,        /* accessor 1: 3 x VEC4 u8, view 1 */
    BASE_WEIGHTS = 48,       /* accessor 2: 3 x VEC4 float, view 2 */
    BASE_IBM = 96,           /* accessor 3: 2 x MAT4 float, view 3 */
    BASE_TIMES = 224,        /* accessor 4: 3 x SCALAR float, view 4 */
    BASE_ROTATIONS = 236,    /* accessor 5: 3 x VEC4 float, view 5 */
    BASE_TRANSLATIONS = 284, /* accessor 6: 3 x VEC3 float, view 6 */
    BASE_BIN_SIZE = 16384    /* the rest is zeros, for cases that need a big view */
};

/* The base JSON text (no buffer URI: GLB-stored) and its binary buffer. */
const char *base_json(void);
void base_bin(unsigned char *bin);

/* The JSON with `find` replaced by `replace` (it must occur exactly once: aborts otherwise). */
char *json_replace(const char *json, const char *find, const char *replace);

/* Packs JSON and a binary chunk (NULL: none) into a GLB. */
void glb_pack(hbytes *out, const char *json, const void *bin, size_t bin_size);

/* Writes a float into the binary buffer at a byte offset. */
void bin_set_float(unsigned char *bin, size_t offset, float value);

/* Base64 of bytes (no padding errors: a correct encoding). */
void base64_append(hbytes *out, const void *data, size_t size);

#endif
