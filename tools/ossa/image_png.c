/* PNG files through libpng: 8-bit RGB in and out. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

static ossa_result file_error(ossa_error *error, const char *path, const char *what) {
    return image_fail(error, OSSA_ERROR_IO, path, "%s", what);
}

ossa_result image_png_write_rgb(const char *path, int width, int height, const uint8_t *rgb,
                                ossa_error *error) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&image, path, 0, rgb, width * 3, NULL)) {
        ossa_result result = file_error(error, path, image.message);
        png_image_free(&image);
        return result;
    }
    return OSSA_OK;
}

ossa_result image_png_read_rgb(const char *path, int *width, int *height, uint8_t **rgb,
                               ossa_error *error) {
    *rgb = NULL;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        return file_error(error, path, image.message);
    image.format = PNG_FORMAT_RGB;
    uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!pixels) {
        png_image_free(&image);
        return image_fail(error, OSSA_ERROR_OUT_OF_MEMORY, path, "out of memory");
    }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        ossa_result result = file_error(error, path, image.message);
        png_image_free(&image);
        return result;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    *rgb = pixels;
    return OSSA_OK;
}
