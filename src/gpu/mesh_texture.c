/* Decodes base colour images (PNG, JPEG) with stb_image and uploads them with glTF's default
 * sampling. */
#include <stb_image.h>

#include "mesh_texture.h"

GLuint gpu_mesh_texture(ossa_gpu_mesh *mesh, const ossa_document *document, int32_t index) {
    if (index < 0 || (uint32_t)index >= mesh->texture_count) return 0;
    if (mesh->textures[index]) return mesh->textures[index];
    const ossa_texture *texture = &document->textures[index];
    if (texture->source < 0) return 0;
    const ossa_image *image = &document->images[texture->source];
    mesh->textures[index] = gpu_texture_from_image(image->data, image->byte_length);
    return mesh->textures[index];
}

GLuint gpu_texture_from_image(const uint8_t *data, size_t size) {
    if (!data || size == 0 || size > INT32_MAX) return 0;
    int width, height, channels;
    stbi_uc *pixels = stbi_load_from_memory(data, (int)size, &width, &height, &channels, 4);
    if (!pixels) return 0;
    GLuint id;
    glGenTextures(1, &id);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_BASE_COLOR);
    glBindTexture(GL_TEXTURE_2D, id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* Stored and shaded as sRGB values: simple shading, no linear-light pipeline. */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    /* The document does not carry glTF samplers: repeat and trilinear, glTF's defaults. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glBindTexture(GL_TEXTURE_2D, 0);
    stbi_image_free(pixels);
    return id;
}
