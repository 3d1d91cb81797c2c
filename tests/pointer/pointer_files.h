/* Files of the KHR_animation_pointer suites, written by the tests: a cube (with two morph
 * targets) drawn by three nodes, a camera, a material, and an animation whose channels the test
 * gives, over one BIN chunk of keys (see pointer_files.c for the accessors and samplers). */
#ifndef OSSA_TEST_POINTER_FILES_H
#define OSSA_TEST_POINTER_FILES_H

#include <stddef.h>
#include <stdint.h>

/* Samplers of the animation, all on key times {0, 1} (accessor 4). */
enum {
    S_TRANSLATION,           /* LINEAR (0,0,0) -> (1,2,3) */
    S_ROTATION,              /* LINEAR identity -> a quarter turn about y */
    S_SCALE,                 /* LINEAR (1,1,1) -> (2,0.5,1) */
    S_NODE_WEIGHTS,          /* LINEAR (0,1) -> (1,0) */
    S_MESH_WEIGHTS,          /* LINEAR (0.5,0) -> (0,0.5) */
    S_BASE_COLOR,            /* LINEAR (1,0,0,1) -> (0,0,1,1) */
    S_UV_OFFSET,             /* STEP (0,0) -> (0.5,0.25) */
    S_YFOV,                  /* CUBICSPLINE 0.5 -> 1.0, zero tangents */
    S_EMISSIVE,              /* LINEAR (0,0,0) -> (0,1,0) */
    S_ROTATION_AS_BASE_COLOR /* CUBICSPLINE over the rotation's keys: for malformed counts */
};

/* Accessors of note: 5 is a VEC3 (translation keys), 9 a VEC4 (base colour keys), 8 a SCALAR
 * of 4 values (node weights keys). */

/* The glTF JSON (with ' for ") of the file: `channels` is the animation's channel array content,
 * `extensions_used` the extensionsUsed content, `material` the material object's members after
 * pbrMetallicRoughness (may be ""). Writes into json (size bytes). */
void pointer_json(char *json, size_t size, const char *channels, const char *extensions_used,
                  const char *material);

/* The BIN chunk every file uses. */
const uint8_t *pointer_bin(size_t *size);

/* A pointer channel (JSON text with ') on sampler s: {"sampler":s,"target":{"path":"pointer",
 * "extensions":{"KHR_animation_pointer":{"pointer":pointer}}}}, written into out. */
void pointer_channel(char *out, size_t size, int sampler, const char *pointer);

/* Writes a GLB of the JSON (' for ") and the BIN chunk to path. */
void pointer_write_glb(const char *path, const char *json);

#endif
