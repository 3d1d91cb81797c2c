/* Image files of the tools (not GL, not installed): PNG frames and animated GIFs of the
 * renderer, and PNGs read back by the GPU tests. */
#ifndef OSSA_TOOL_IMAGE_H
#define OSSA_TOOL_IMAGE_H

#include <stdint.h>

#include "ossa/result.h"

/* Writes an 8-bit RGB PNG of top-down rows. */
ossa_result image_png_write_rgb(const char *path, int width, int height, const uint8_t *rgb,
                                ossa_error *error);

/* Reads a PNG as 8-bit RGB (the caller frees *rgb with free()). */
ossa_result image_png_read_rgb(const char *path, int *width, int *height, uint8_t **rgb,
                               ossa_error *error);

/* An animated GIF being written frame by frame, with one fixed 256-colour palette. */
typedef struct image_gif_writer image_gif_writer;

/* Opens path and writes the GIF header; frames are delay_cs hundredths of a second. */
ossa_result image_gif_open(const char *path, int width, int height, int delay_cs,
                           image_gif_writer **out, ossa_error *error);

/* Quantizes (6x7x6 colour cube, ordered dither) and appends one frame of RGB rows. */
ossa_result image_gif_add_frame(image_gif_writer *writer, const uint8_t *rgb, ossa_error *error);

/* Finishes and closes the file; frees the writer (also on failure). NULL is allowed. */
ossa_result image_gif_close(image_gif_writer *writer, ossa_error *error);

/* Fills error (when not NULL) with code, the file name and a formatted message. */
ossa_result image_fail(ossa_error *error, ossa_result code, const char *file, const char *format,
                       ...);

#endif
