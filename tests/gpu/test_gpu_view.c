/* `ossa view` under Xvfb: the window's screenshot after 5 frames shows the model where the
 * offscreen renderer draws it at the same time (silhouette IoU >= 0.98). */
#include <stdio.h>
#include <stdlib.h>

#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/rig.h"
#include "silhouette.h"
#include "test_support.h"

/* The first key time of the model's first animation: where view starts playing. */
static double clip_start(const char *model) {
    ossa_document *document = NULL;
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    double start = -1;
    if (ossa_document_load_file(model, NULL, &document, NULL) == OSSA_OK &&
        ossa_rig_build(document, NULL, &rig, NULL) == OSSA_OK &&
        ossa_clip_set_build(document, rig, NULL, &clips, NULL) == OSSA_OK &&
        ossa_clip_set_count(clips))
        start = ossa_clip_start(ossa_clip_set_clip(clips, 0));
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    ossa_document_free(document);
    return start;
}

int main(void) {
    char model[1024], args[2048];
    snprintf(model, sizeof model, "%s",
             ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb"));
    remove("view_screenshot.png");
    /* xvfb-run starts a private X server; view advances 1/25 s per frame in screenshot mode */
    const char *cli = getenv("OSSA_CLI");
    CHECK(cli != NULL);
    if (!cli) return ossa_test_finish("gpu_view");
    snprintf(args, sizeof args,
             "xvfb-run -a -s '-screen 0 640x480x24' '%s' view '%s' --no-grid --size 320x240 "
             "--screenshot view_screenshot.png --frames 5",
             cli, model);
    printf("$ %s\n", args);
    fflush(stdout);
    int status = system(args);
    CHECKF(status == 0, "view exited with status %d", status);
    double start = clip_start(model);
    CHECK(start >= 0);
    /* the screenshot shows the clip 5 frames of 1/25 s after its first key */
    snprintf(args, sizeof args, "render '%s' --no-grid --size 320x240 --time %.9g -o view_ref.png",
             model, start + 5 / 25.0);
    CHECK(run_cli(args) == 0);
    double coverage = 0;
    double iou = silhouette_iou("view_screenshot.png", "view_ref.png", &coverage);
    printf("view vs render: silhouette IoU %.5f, coverage %.3f\n", iou, coverage);
    CHECKF(iou >= 0.98, "IoU %.4f", iou);
    CHECKF(coverage > 0.01, "the model covers %.4f of the window", coverage);
    return ossa_test_finish("gpu_view");
}
