/* Silhouette comparison of rendered frames, and running the ossa tool from a test. */
#include "silhouette.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "ossa/gl.h"

int run_cli(const char *arguments) {
    const char *cli = getenv("OSSA_CLI");
    if (!cli) return -1;
    size_t size = strlen(cli) + strlen(arguments) + 16;
    char *command = malloc(size);
    if (!command) return -1;
    snprintf(command, size, "'%s' %s", cli, arguments);
    printf("$ %s\n", command);
    fflush(stdout);
    int status = system(command);
    free(command);
    return status == -1 ? -1 : (status >> 8) & 0xff;
}

static int is_model(const uint8_t *p, const uint8_t background[3]) {
    return p[0] != background[0] || p[1] != background[1] || p[2] != background[2];
}

double silhouette_iou(const char *png_a, const char *png_b, double *coverage) {
    int wa, ha, wb, hb;
    uint8_t *a = NULL, *b = NULL;
    double iou = -1;
    if (image_png_read_rgb(png_a, &wa, &ha, &a, NULL) == OSSA_OK &&
        image_png_read_rgb(png_b, &wb, &hb, &b, NULL) == OSSA_OK && wa == wb && ha == hb) {
        uint8_t background[3];
        ossa_gpu_renderer_background(background);
        size_t both = 0, either = 0, in_a = 0, n = (size_t)wa * (size_t)ha;
        for (size_t i = 0; i < n; i++) {
            int x = is_model(a + 3 * i, background), y = is_model(b + 3 * i, background);
            both += x && y;
            either += x || y;
            in_a += x;
        }
        iou = either ? (double)both / (double)either : 1.0;
        if (coverage) *coverage = (double)in_a / (double)n;
    }
    free(a);
    free(b);
    return iou;
}

long pixels_differ(const char *png_a, const char *png_b) {
    int wa, ha, wb, hb;
    uint8_t *a = NULL, *b = NULL;
    long differ = -1;
    if (image_png_read_rgb(png_a, &wa, &ha, &a, NULL) == OSSA_OK &&
        image_png_read_rgb(png_b, &wb, &hb, &b, NULL) == OSSA_OK && wa == wb && ha == hb) {
        differ = 0;
        for (size_t i = 0; i < (size_t)wa * (size_t)ha; i++)
            differ += memcmp(a + 3 * i, b + 3 * i, 3) != 0;
    }
    free(a);
    free(b);
    return differ;
}
