/* An animation-pointer file animating a material renders changing colours: `ossa render` of the
 * suite's cubes, unlit (KHR_materials_unlit draws the base colour exactly), whose base colour a
 * KHR_animation_pointer channel takes from red (t = 0) to blue (t = 1); at each time the cubes'
 * pixels are the animated factor. Two instances half a clip apart, drawn in one instanced draw,
 * show both colours at once (also when their vertices are skinned on the CPU and drawn one
 * instance at a time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "pointer_files.h"
#include "test_support.h"

enum { SIZE = 96 };

/* Counts the pixels within 1 of rgb in a rendered PNG; -1 when it cannot be read. */
static long count_colour(const char *png, const int rgb[3]) {
    int w = 0, h = 0;
    uint8_t *pixels = NULL;
    ossa_error error;
    if (image_png_read_rgb(png, &w, &h, &pixels, &error) != OSSA_OK) return -1;
    long n = 0;
    for (long i = 0; i < (long)w * h; i++) {
        int near = 1;
        for (int k = 0; k < 3; k++)
            near &= abs(pixels[3 * i + k] - rgb[k]) <= 1;
        n += near;
    }
    free(pixels);
    return n;
}

static void render(const char *args, const char *png) {
    char command[512];
    snprintf(command, sizeof command, "render pointer_colour.glb --size %dx%d --no-grid %s -o %s",
             SIZE, SIZE, args, png);
    char *err = NULL;
    int code = ossa_test_run_cli(command, NULL, &err);
    CHECKF(code == 0, "ossa %s: exit %d: %s", command, code, err ? err : "");
    free(err);
}

int main(void) {
    static char json[16384];
    char channel[512];
    pointer_channel(channel, sizeof channel, S_BASE_COLOR,
                    "/materials/0/pbrMetallicRoughness/baseColorFactor");
    pointer_json(json, sizeof json, channel,
                 "'KHR_animation_pointer','KHR_texture_transform','KHR_materials_unlit'",
                 "'extensions':{'KHR_materials_unlit':{}}");
    pointer_write_glb("pointer_colour.glb", json);
    static const struct {
        const char *time;
        int rgb[3];
    } frames[] = {{"0", {255, 0, 0}}, {"0.5", {128, 0, 128}}, {"1", {0, 0, 255}}};
    const char *pngs[] = {"pointer_colour_0.png", "pointer_colour_half.png",
                          "pointer_colour_1.png"};
    for (int f = 0; f < 3; f++) {
        char args[64];
        snprintf(args, sizeof args, "--time %s", frames[f].time);
        render(args, pngs[f]);
        /* the three cubes cover hundreds of pixels, all of the animated colour */
        long at = count_colour(pngs[f], frames[f].rgb);
        printf("t = %s: %ld pixels of (%d, %d, %d)\n", frames[f].time, at, frames[f].rgb[0],
               frames[f].rgb[1], frames[f].rgb[2]);
        CHECKF(at > 300, "t = %s: %ld pixels of the animated colour", frames[f].time, at);
        for (int g = 0; g < 3; g++)
            if (g != f) CHECKF(count_colour(pngs[f], frames[g].rgb) == 0, "t = %s", frames[f].time);
    }
    /* two characters, instance 1 half a clip ahead: both colours in one frame */
    render("--time 0 --instances 2", "pointer_colour_instances.png");
    long red = count_colour("pointer_colour_instances.png", frames[0].rgb);
    long purple = count_colour("pointer_colour_instances.png", frames[1].rgb);
    printf("two instances: %ld red pixels, %ld purple\n", red, purple);
    CHECK(red > 100 && purple > 100);
    CHECK(count_colour("pointer_colour_instances.png", frames[2].rgb) == 0);
    /* CPU-skinned vertices, drawn one instance at a time: the same materials per instance */
    render("--time 0 --instances 2 --skinning cpu", "pointer_colour_cpu.png");
    CHECK(count_colour("pointer_colour_cpu.png", frames[0].rgb) == red);
    CHECK(count_colour("pointer_colour_cpu.png", frames[1].rgb) == purple);
    return ossa_test_finish("pointer_render");
}
