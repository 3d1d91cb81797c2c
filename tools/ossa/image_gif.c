/* Animated GIFs through giflib, quantized to a fixed 6x7x6 colour cube with ordered dither. */
#define _POSIX_C_SOURCE 200809L /* open() */
#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

enum { LEVELS_R = 6, LEVELS_G = 7, LEVELS_B = 6 };

struct image_gif_writer {
    GifFileType *file;
    char path[OSSA_FILE_MAX]; /* for messages */
    int width, height, delay_cs;
    GifPixelType *row;
};

static ossa_result gif_error(ossa_error *error, const char *path, int code) {
    return image_fail(error, OSSA_ERROR_IO, path, "GIF: %s", GifErrorString(code));
}

ossa_result image_gif_open(const char *path, int width, int height, int delay_cs,
                           image_gif_writer **out, ossa_error *error) {
    *out = NULL;
    image_gif_writer *w = calloc(1, sizeof *w);
    if (w) w->row = malloc((size_t)width + 1);
    if (!w || !w->row) {
        if (w) free(w);
        return image_fail(error, OSSA_ERROR_OUT_OF_MEMORY, path, "out of memory");
    }
    w->width = width, w->height = height, w->delay_cs = delay_cs;
    snprintf(w->path, sizeof w->path, "%s", path);
    int code = 0;
    /* open() ourselves: EGifOpenFileName creates files readable by their owner only */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    w->file = fd >= 0 ? EGifOpenFileHandle(fd, &code) : NULL;
    if (fd >= 0 && !w->file) close(fd);
    if (fd < 0) code = E_GIF_ERR_OPEN_FAILED;
    if (!w->file) {
        free(w->row);
        free(w);
        return gif_error(error, path, code);
    }
    ColorMapObject *map = GifMakeMapObject(256, NULL);
    if (!map) {
        image_gif_close(w, NULL);
        return image_fail(error, OSSA_ERROR_OUT_OF_MEMORY, path, "out of memory");
    }
    for (int i = 0; i < LEVELS_R * LEVELS_G * LEVELS_B; i++) {
        map->Colors[i].Red = (GifByteType)(255 * (i / (LEVELS_G * LEVELS_B)) / (LEVELS_R - 1));
        map->Colors[i].Green = (GifByteType)(255 * (i / LEVELS_B % LEVELS_G) / (LEVELS_G - 1));
        map->Colors[i].Blue = (GifByteType)(255 * (i % LEVELS_B) / (LEVELS_B - 1));
    }
    EGifSetGifVersion(w->file, true);
    int ok = EGifPutScreenDesc(w->file, width, height, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    /* NETSCAPE2.0 application block: loop forever */
    static const GifByteType netscape[] = "NETSCAPE2.0";
    static const GifByteType loop[3] = {1, 0, 0};
    ok = ok && EGifPutExtensionLeader(w->file, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(w->file, 11, netscape) == GIF_OK &&
         EGifPutExtensionBlock(w->file, 3, loop) == GIF_OK &&
         EGifPutExtensionTrailer(w->file) == GIF_OK;
    if (!ok) {
        int last = w->file->Error;
        image_gif_close(w, NULL);
        return gif_error(error, path, last);
    }
    *out = w;
    return OSSA_OK;
}

/* 4x4 Bayer matrix, scaled to +-half a quantization step in quantize(). */
static const int bayer[4][4] = {{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};

static int quantize(int value, int levels, int threshold) {
    int step = 255 / (levels - 1);
    int v = value + (threshold - 8) * step / 16;
    int q = (v * (levels - 1) + 127) / 255;
    return q < 0 ? 0 : q >= levels ? levels - 1 : q;
}

ossa_result image_gif_add_frame(image_gif_writer *w, const uint8_t *rgb, ossa_error *error) {
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, w->delay_cs, NO_TRANSPARENT_COLOR};
    GifByteType extension[4];
    EGifGCBToExtension(&gcb, extension);
    if (EGifPutExtension(w->file, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK ||
        EGifPutImageDesc(w->file, 0, 0, w->width, w->height, false, NULL) != GIF_OK)
        return gif_error(error, w->path, w->file->Error);
    for (int y = 0; y < w->height; y++) {
        const uint8_t *p = rgb + (size_t)y * (size_t)w->width * 3;
        for (int x = 0; x < w->width; x++, p += 3) {
            int t = bayer[y & 3][x & 3];
            int r = quantize(p[0], LEVELS_R, t), g = quantize(p[1], LEVELS_G, t),
                b = quantize(p[2], LEVELS_B, t);
            w->row[x] = (GifPixelType)((r * LEVELS_G + g) * LEVELS_B + b);
        }
        if (EGifPutLine(w->file, w->row, w->width) != GIF_OK)
            return gif_error(error, w->path, w->file->Error);
    }
    return OSSA_OK;
}

ossa_result image_gif_close(image_gif_writer *w, ossa_error *error) {
    if (!w) return OSSA_OK;
    int code = 0;
    ossa_result result = OSSA_OK;
    if (EGifCloseFile(w->file, &code) != GIF_OK) result = gif_error(error, w->path, code);
    free(w->row);
    free(w);
    return result;
}
