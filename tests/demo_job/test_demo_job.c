/* The main job renders the built-in demo model (no model argument) to an animated GIF:
 * the file has the requested frame count and every frame differs from the one before it. */
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { FRAMES = 12, WIDTH = 160, HEIGHT = 120 };

static int frames_differ(const SavedImage *a, const SavedImage *b) {
    return memcmp(a->RasterBits, b->RasterBits, (size_t)WIDTH * HEIGHT) != 0;
}

int main(void) {
    const char *cli = getenv("OSSA_CLI");
    CHECK(cli != NULL);
    if (!cli) return ossa_test_finish("demo_job");
    char command[4096];
    snprintf(command, sizeof command, "'%s' render --frames %d --size %dx%d -o demo_job.gif", cli,
             FRAMES, WIDTH, HEIGHT);
    CHECKF(system(command) == 0, "%s failed", command);

    int error = 0;
    GifFileType *gif = DGifOpenFileName("demo_job.gif", &error);
    CHECKF(gif != NULL, "demo_job.gif does not open: %s", GifErrorString(error));
    if (!gif) return ossa_test_finish("demo_job");
    CHECK(DGifSlurp(gif) == GIF_OK);
    CHECKF(gif->ImageCount == FRAMES, "%d frames", gif->ImageCount);
    CHECK(gif->SWidth == WIDTH && gif->SHeight == HEIGHT);
    for (int i = 1; i < gif->ImageCount; i++) {
        const SavedImage *a = &gif->SavedImages[i - 1], *b = &gif->SavedImages[i];
        int full = a->ImageDesc.Width == WIDTH && a->ImageDesc.Height == HEIGHT &&
                   b->ImageDesc.Width == WIDTH && b->ImageDesc.Height == HEIGHT;
        CHECKF(full, "frame %d is not a full frame", i);
        if (full)
            CHECKF(frames_differ(a, b), "frame %d equals frame %d: the model does not move", i,
                   i - 1);
    }
    DGifCloseFile(gif, &error);
    return ossa_test_finish("demo_job");
}
