/* Base colour textures of a mesh, decoded on first use. */
#ifndef OSSA_GPU_MESH_TEXTURE_H
#define OSSA_GPU_MESH_TEXTURE_H

#include "gpu_internal.h"

/* The GL texture of document texture `index`, decoded (PNG/JPEG) and uploaded on first use;
 * 0 when the image is missing or does not decode (the material colour is used alone). */
GLuint gpu_mesh_texture(ossa_gpu_mesh *mesh, const ossa_document *document, int32_t index);

/* A GL texture (mipmapped, repeat) of an encoded PNG or JPEG image; 0 when it does not decode. */
GLuint gpu_texture_from_image(const uint8_t *data, size_t size);

#endif
