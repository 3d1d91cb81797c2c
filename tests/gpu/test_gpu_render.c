/* `ossa render`: a GPU-skinned PNG has the silhouette of the CPU-skinned one (IoU >= 0.98), the
 * SSBO palette path draws the same frame, CPU skinning honours --method dqs, --compact draws the
 * compact clip's frame, a GIF holds the requested frames, a %d pattern writes one PNG per frame,
 * and bad arguments are usage errors. */
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "silhouette.h"
#include "test_support.h"

static void check_silhouettes(const char *model, const char *extra, const char *tag) {
    char args[2048], gpu[256], cpu[256], ssbo[256];
    snprintf(gpu, sizeof gpu, "render_%s_gpu.png", tag);
    snprintf(cpu, sizeof cpu, "render_%s_cpu.png", tag);
    snprintf(ssbo, sizeof ssbo, "render_%s_ssbo.png", tag);
    const char *common = "--no-grid --size 320x240";
    snprintf(args, sizeof args, "render '%s' %s %s --skinning gpu -o %s", model, extra, common,
             gpu);
    CHECK(run_cli(args) == 0);
    snprintf(args, sizeof args, "render '%s' %s %s --skinning cpu -o %s", model, extra, common,
             cpu);
    CHECK(run_cli(args) == 0);
    snprintf(args, sizeof args, "render '%s' %s %s --palette ssbo -o %s", model, extra, common,
             ssbo);
    CHECK(run_cli(args) == 0);
    double coverage = 0;
    double iou = silhouette_iou(gpu, cpu, &coverage);
    printf("%s: silhouette IoU gpu/cpu %.5f, coverage %.3f\n", tag, iou, coverage);
    CHECKF(iou >= 0.98, "%s: IoU %.4f", tag, iou);
    CHECKF(coverage > 0.01 && coverage < 0.9, "%s: the model covers %.3f of the frame", tag,
           coverage);
    iou = silhouette_iou(gpu, ssbo, NULL);
    CHECKF(iou >= 0.999, "%s: buffer texture vs SSBO IoU %.5f", tag, iou);
}

/* --skinning cpu --method dqs skins with dual quaternions on the CPU (ossa_character_skin): its
 * frame is the GPU's DQS frame to a few pixels, and visibly not the LBS frame (CesiumMan's
 * elbows and knees). */
static void check_cpu_dqs(void) {
    const char *model = ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb");
    static const char *const runs[][2] = {{"cpu", "lbs"}, {"cpu", "dqs"}, {"gpu", "dqs"}};
    for (int i = 0; i < 3; i++) {
        char args[2048];
        snprintf(args, sizeof args,
                 "render '%s' --time 1.0 --no-grid --size 320x240 --skinning %s --method %s -o "
                 "dqs_%s_%s.png",
                 model, runs[i][0], runs[i][1], runs[i][0], runs[i][1]);
        CHECK(run_cli(args) == 0);
    }
    long lbs_vs_dqs = pixels_differ("dqs_cpu_lbs.png", "dqs_cpu_dqs.png");
    long cpu_vs_gpu = pixels_differ("dqs_cpu_dqs.png", "dqs_gpu_dqs.png");
    printf("cpu dqs: %ld pixels differ from cpu lbs, %ld from gpu dqs\n", lbs_vs_dqs, cpu_vs_gpu);
    CHECKF(lbs_vs_dqs > 500, "cpu DQS draws like LBS (%ld pixels differ)", lbs_vs_dqs);
    CHECKF(cpu_vs_gpu >= 0 && cpu_vs_gpu * 10 < lbs_vs_dqs, "cpu DQS vs gpu DQS: %ld pixels",
           cpu_vs_gpu);
}

/* --compact plays the compact clips: it says so, clip by clip, and Fox's Run draws the plain
 * clip's frame (its declared error is a hundredth of a pixel here). */
static void check_compact(void) {
    const char *model = ossa_test_shared_path("models/Fox/Fox.glb");
    char args[2048], *out = NULL, *err = NULL;
    const char *common = "--anim 2 --time 0.3 --no-grid --size 320x240";
    snprintf(args, sizeof args, "render '%s' %s -o compact_plain.png", model, common);
    CHECK(run_cli(args) == 0);
    snprintf(args, sizeof args, "render '%s' %s --compact -o compact_compact.png", model, common);
    CHECK(ossa_test_run_cli(args, &out, &err) == 0);
    CHECKF(out && strstr(out, "compact clip 2 \"Run\": "), "--compact prints the clips: %s",
           out ? out : "");
    double iou = silhouette_iou("compact_plain.png", "compact_compact.png", NULL);
    printf("compact: silhouette IoU plain/compact %.5f\n", iou);
    CHECKF(iou >= 0.99, "compact Run: IoU %.4f", iou);
    free(out), free(err);
}

static void check_gif(void) {
    const char *model = ossa_test_shared_path("models/Fox/Fox.glb");
    char args[1024];
    snprintf(args, sizeof args, "render '%s' --anim 1 --frames 7 --size 160x120 -o render.gif",
             model);
    CHECK(run_cli(args) == 0);
    int error = 0;
    GifFileType *gif = DGifOpenFileName("render.gif", &error);
    CHECKF(gif != NULL, "render.gif does not open: %s", GifErrorString(error));
    if (!gif) return;
    CHECK(DGifSlurp(gif) == GIF_OK);
    CHECKF(gif->ImageCount == 7, "%d frames", gif->ImageCount);
    CHECK(gif->SWidth == 160 && gif->SHeight == 120);
    /* the fox moves: the first and the middle frames differ */
    if (gif->ImageCount == 7) {
        const GifByteType *a = gif->SavedImages[0].RasterBits, *b = gif->SavedImages[3].RasterBits;
        int differ = 0;
        for (int i = 0; i < 160 * 120; i++)
            differ += a[i] != b[i];
        CHECKF(differ > 50, "only %d pixels change between frames 0 and 3", differ);
    }
    DGifCloseFile(gif, &error);
}

static void check_sequence(void) {
    const char *model = ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb");
    char args[1024];
    remove("seq_003.png");
    snprintf(args, sizeof args, "render '%s' --frames 3 --size 64x48 -o seq_%%03d.png", model);
    CHECK(run_cli(args) == 0);
    const char *names[] = {"seq_000.png", "seq_001.png", "seq_002.png", "seq_003.png"};
    for (int i = 0; i < 4; i++) {
        FILE *f = fopen(names[i], "rb");
        CHECKF((f != NULL) == (i < 3), "%s %s", names[i], f ? "exists" : "is missing");
        if (f) fclose(f);
    }
}

int main(void) {
    char model[1024];
    snprintf(model, sizeof model, "%s",
             ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb"));
    check_silhouettes(model, "--time 1.0", "cesium");
    snprintf(model, sizeof model, "%s", ossa_test_shared_path("models/Fox/Fox.glb"));
    check_silhouettes(model, "--anim 2 --time 0.3 --instances 9", "fox9");
    snprintf(model, sizeof model, "%s",
             ossa_test_shared_path("models/MorphStressTest/MorphStressTest.gltf"));
    check_silhouettes(model, "--anim 1 --time 0.7", "morph");
    check_cpu_dqs();
    check_compact();
    check_gif();
    check_sequence();
    CHECK(run_cli("render --bogus -o x.png") == 2);
    CHECK(run_cli("render") == 2);
    CHECK(run_cli("render --frames 3 -o one.png") == 2);
    return ossa_test_finish("gpu_render");
}
