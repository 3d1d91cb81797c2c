/* `ossa render` and `ossa view` as a new user meets them: an --anim the model lacks is a usage
 * error (2) in both, a name plays what its index does, --anim all / a list plays the animations
 * together (the frame differs from each alone, the order of clips on different objects does not
 * matter, a GIF spans them), render prints the model's warnings (a texture transform it does not
 * draw) and where it wrote (stdout is a file here), creates the folders of -o, names a bad
 * --skinning / --palette / --method value and the path it could not write or load (once), and
 * honours --allow-unsafe-paths. */
#define _POSIX_C_SOURCE 200809L
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "silhouette.h"
#include "test_support.h"

static char fox[1024], blender[1024];

static void check_exit_codes(void) {
    CHECK(cli("render '%s' --anim 3 -o '%s'", fox, scratch_path("x.png")) == 2);
    CHECKF(strstr(cli_err, "ossa render: --anim 3:") && strstr(cli_err, "has 3 animations"), "%s",
           cli_err);
    CHECK(cli("render '%s' --anim 0,5 -o '%s'", fox, scratch_path("x.png")) == 2);
    CHECK(cli("render '%s' --anim 9 --bench --frames 1", fox) == 2);
    CHECK(cli("render --anim 1x -o '%s'", scratch_path("x.png")) == 2);
    CHECK(cli("render --skinning foo -o x.png") == 2 && strstr(cli_err, "'foo'"));
    CHECK(cli("render --palette bar -o x.png") == 2 && strstr(cli_err, "'bar'"));
    CHECK(cli("render --method baz -o x.png") == 2 && strstr(cli_err, "'baz'"));
    /* counts are whole numbers; numbers are read whole and within their range */
    CHECK(cli("render --frames 1.5 -o x.gif") == 2);
    CHECKF(strstr(cli_err, "--frames needs a whole number in [1, 100000], got '1.5'"), "%s",
           cli_err);
    CHECK(cli("render --instances 0 -o x.png") == 2 && strstr(cli_err, "--instances needs"));
    CHECK(cli("render --fps 10x -o x.gif") == 2 && strstr(cli_err, "got '10x'"));
    /* a model that cannot be loaded: 1, its path as given, once */
    CHECK(cli("render /nonexistent/dir/m.gltf -o '%s'", scratch_path("x.png")) == 1);
    CHECKF(!strncmp(cli_err, "error: /nonexistent/dir/m.gltf: ", 32), "%s", cli_err);
    CHECK(occurrences(cli_err, "m.gltf") == 1);
    /* an output that cannot be written: 1, the path once */
    CHECK(cli("render --size 32x32 -o /proc/ossa-cannot-write.png") == 1);
    CHECKF(occurrences(cli_err, "/proc/ossa-cannot-write.png") == 1, "%s", cli_err);
    /* a frame pattern goes to snprintf: only one %d (with a width) and %% pass */
    static const char *const bad_patterns[] = {"f_%s.png",    "f_%n.png",  "f_%d%d.png",
                                               "f_%123d.png", "f_%ld.png", "f_%04d.gif"};
    for (size_t i = 0; i < sizeof bad_patterns / sizeof *bad_patterns; i++) {
        CHECKF(cli("render --frames 2 -o '%s'", scratch_path(bad_patterns[i])) == 2, "%s",
               bad_patterns[i]);
        CHECKF(strstr(cli_err, "a frame pattern has one %d"), "%s", cli_err);
    }
    /* --anim and --mix, and view's screenshot-only steps, are refused, not ignored */
    CHECK(cli("render '%s' --anim 1 --mix x.json -o x.png", fox) == 2);
    CHECKF(strstr(cli_err, "--anim and --mix exclude each other"), "%s", cli_err);
    CHECK(cli("view '%s' --mix x.json --anim 0", fox) == 2);
    CHECK(cli("view '%s' --frames 3", fox) == 2 && strstr(cli_err, "--screenshot"));
    CHECK(cli("view '%s' --fps 10", fox) == 2 && strstr(cli_err, "--screenshot"));
    CHECK(cli("view '%s' --time 1", fox) == 2 && strstr(cli_err, "unknown"));
    CHECK(cli("view '%s' --duration 1", fox) == 2 && strstr(cli_err, "unknown"));
    /* view: the same rule (under Xvfb) */
    const char *xvfb = "xvfb-run -a -s '-screen 0 320x240x24'";
    char command[4096];
    snprintf(command, sizeof command,
             "%s '%s' view '%s' --anim 3 --screenshot '%s' >/dev/null 2>&1", xvfb,
             getenv("OSSA_CLI"), fox, scratch_path("v.png"));
    int status = system(command);
    CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 2, "view --anim 3 exits with %d",
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    snprintf(command, sizeof command,
             "%s '%s' view '%s' --anim all --size 160x120 --screenshot '%s' --frames 2", xvfb,
             getenv("OSSA_CLI"), blender, scratch_path("view_all.png"));
    CHECK(system(command) == 0);
    CHECK(pixels_differ(scratch_path("view_all.png"), scratch_path("view_all.png")) == 0);
}

static int gif_frames(const char *path) {
    int error = 0;
    GifFileType *gif = DGifOpenFileName(path, &error);
    if (!gif) return -1;
    int frames = DGifSlurp(gif) == GIF_OK ? gif->ImageCount : -1;
    DGifCloseFile(gif, &error);
    return frames;
}

static void check_anim_lists(void) {
    const char *common = "--no-grid --size 160x120 --time 1.2";
    static const char *const anims[] = {"all", "2,1,0", "0", "1", "2", "0,2"};
    char png[6][1024];
    for (int i = 0; i < 6; i++) {
        char name[64];
        snprintf(name, sizeof name, "anim_%d.png", i);
        snprintf(png[i], sizeof png[i], "%s", scratch_path(name));
        CHECK(cli("render '%s' --anim %s %s -o '%s'", blender, anims[i], common, png[i]) == 0);
    }
    /* the clips animate different objects: their order does not matter */
    CHECK(pixels_differ(png[0], png[1]) == 0);
    /* a clip by name (ConeAction is animation 1) draws what its index draws */
    const char *named = scratch_path("anim_named.png");
    CHECK(cli("render '%s' --anim ConeAction %s -o '%s'", blender, common, named) == 0);
    CHECK(pixels_differ(png[3], named) == 0);
    CHECK(pixels_differ(png[2], named) > 100);
    for (int i = 2; i < 6; i++) {
        long d = pixels_differ(png[0], png[i]);
        CHECKF(d > 100, "--anim all vs --anim %s: %ld pixels differ", anims[i], d);
    }
    /* a GIF of all three spans their keys (0 to 2 s): 10 frames at 5 per second */
    const char *gif = scratch_path("all.gif");
    CHECK(cli("render '%s' --anim all --fps 5 --size 96x72 -o '%s'", blender, gif) == 0);
    CHECK(gif_frames(gif) == 10);
    CHECKF(strstr(cli_out, "ossa render: wrote ") && strstr(cli_out, "all.gif (10 frames)"), "%s",
           cli_out);
}

static void check_output_and_warnings(void) {
    /* -o into folders that do not exist yet */
    const char *pattern = scratch_path("new/deeper/f_%02d.png");
    CHECK(cli("render '%s' --frames 3 --size 64x48 -o '%s'", fox, pattern) == 0);
    for (int f = 0; f < 4; f++) {
        char name[64];
        snprintf(name, sizeof name, "new/deeper/f_%02d.png", f);
        FILE *file = fopen(scratch_path(name), "rb");
        CHECKF((file != NULL) == (f < 3), "%s %s", name, file ? "exists" : "is missing");
        if (file) fclose(file);
    }
    CHECKF(strstr(cli_out, "wrote 3 frames to ") && strstr(cli_out, "new/deeper/f_%02d.png"), "%s",
           cli_out);
    /* the model's warnings, named by the path given */
    const char *quad = ossa_test_shared_path("models/AssimpSimpleSkin/quad_skin.glb");
    char prefix[1200];
    snprintf(prefix, sizeof prefix, "warning: %s: nodes[22]: ", quad);
    CHECK(cli("render '%s' --size 64x48 -o '%s'", quad, scratch_path("quad.png")) == 0);
    CHECKF(strstr(cli_err, prefix) != NULL, "%s", cli_err);
    CHECK(strstr(cli_out, "quad.png (1 frame)") != NULL);
    /* an extension that is not drawn (KHR_texture_transform now is): said, not drawn silently */
    const char *transform =
        write_blender_copy("transform.gltf", "03_all_animations.bin",
                           "\"extensionsUsed\":[\"KHR_materials_clearcoat\"],"
                           "\"extensionsRequired\":[\"KHR_materials_clearcoat\"],");
    CHECK(transform != NULL);
    snprintf(prefix, sizeof prefix, "warning: %s: extensionsRequired[0]: ", transform);
    CHECK(cli("render '%s' --size 64x48 -o '%s'", transform, scratch_path("t.png")) == 0);
    CHECKF(strstr(cli_err, prefix) && strstr(cli_err, "KHR_materials_clearcoat"), "%s", cli_err);
}

static void check_unsafe_paths(void) {
    const char *model = write_unsafe_model();
    CHECK(model != NULL);
    if (!model) return;
    CHECK(cli("render '%s' --size 64x48 -o '%s'", model, scratch_path("u.png")) == 1);
    CHECK(strstr(cli_err, "buffers[0].uri") && occurrences(cli_err, model) == 1);
    CHECK(cli("render '%s' --size 64x48 --allow-unsafe-paths -o '%s'", model,
              scratch_path("u.png")) == 0);
}

int main(void) {
    if (!getenv("OSSA_CLI")) {
        fprintf(stderr, "OSSA_CLI is not set\n");
        return 1;
    }
    snprintf(fox, sizeof fox, "%s", ossa_test_shared_path("models/Fox/Fox.glb"));
    snprintf(blender, sizeof blender, "%s",
             ossa_test_shared_path("models/BlenderAllAnimations/03_all_animations.gltf"));
    check_exit_codes();
    check_anim_lists();
    check_output_and_warnings();
    check_unsafe_paths();
    char cleanup[128];
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", scratch_dir());
    CHECK(system(cleanup) == 0);
    free(cli_out);
    free(cli_err);
    return ossa_test_finish("cli_render_first_contact");
}
