/* Parsing the options shared by `ossa render` and `ossa view`. */
#include "render_options.h"

#include "cli_args.h"
#include "commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char render_help[] =
    "usage: ossa render [MODEL] [--anim K|K,L,...|all] [--fps F] [--duration S | --frames N]\n"
    "                   [--size WxH] [--instances N] [--skinning gpu|cpu] [--palette "
    "texture|ssbo]\n"
    "                   [--method lbs|dqs] [--time T] [--no-grid] [--mix FILE]\n"
    "                   [--compact] [--allow-unsafe-paths]\n"
    "                   -o out.gif|out.png|dir/%04d.png\n"
    "       ossa render [MODEL] --bench [--frames N] [--size WxH]\n\n"
    "Renders animation K of MODEL (glTF index or name, as ossa info lists them; default 0;\n"
    "default model: the built-in demo) offscreen with OpenGL\n"
    "(headless EGL; Mesa llvmpipe works without a GPU). An .gif output is animated; an .png\n"
    "output is one frame at --time T (clip seconds, default the clip's start); a pattern with\n"
    "one %d (%04d: four digits) writes one PNG per frame. A missing output folder is created.\n"
    "It prints the model's warnings and the files it wrote. --anim 0,2 or --anim all plays several "
    "animations together on the\n"
    "file's timeline: each writes the nodes it animates (the others keep their rest pose),\n"
    "held at its first/last key outside its own keys; the output spans all of them.\n"
    "--instances N draws N characters, each at its own time, in\n"
    "one draw call per primitive. --skinning cpu skins on the CPU instead (for comparison).\n"
    "--bench prints frames per second for 1, 100 and 1000 instances and the CPU time per frame\n"
    "spent sampling and building palettes. --allow-unsafe-paths loads buffers and images at\n"
    "absolute paths or outside the model's folder (refused by default).\n"
    "--mix FILE plays a mix file (see `ossa sample --help`) instead of animation K: --time\n"
    "and the frames are mix clocks (default from 0 to 1 s past the last weight point).\n"
    "--compact plays the model's clips in their compact form (reduced 16-bit keys within the\n"
    "default world-space budget, see ossa info) and prints each one's bytes and error.\n"
    "Exit codes: 0 success, 1 model error, 2 usage error (an --anim the model lacks too).\n";

static const char view_help[] =
    "usage: ossa view [MODEL] [--anim K|K,L,...|all] [--size WxH] [--instances N]\n"
    "                 [--skinning gpu|cpu] [--palette texture|ssbo] [--method lbs|dqs] "
    "[--no-grid]\n"
    "                 [--mix FILE] [--compact] [--allow-unsafe-paths]\n"
    "                 [--screenshot out.png [--frames N] [--fps F]]\n\n"
    "Plays MODEL's animations in a window (default: the built-in demo model), from animation\n"
    "K (glTF index or name); --anim 0,2 (or Walk,Run) or --anim all plays several together\n"
    "(as ossa render does).\n"
    "  space pause, left/right previous/next animation, +/- speed, drag to orbit,\n"
    "  scroll to zoom, Esc or q to quit. The title shows the animation and its time.\n"
    "--screenshot writes the window's pixels after N frames (default 10), each 1/F s of\n"
    "animation later (default 25 per second, whatever the machine's speed), and exits.\n"
    "--mix FILE plays a mix file (see `ossa sample --help`) at the viewer's clock.\n"
    "--compact plays the model's clips in their compact form (see ossa render --help).\n"
    "Exit codes: 0 success, 1 model error, 2 usage error (an --anim the model lacks too).\n";

/* An option with two values: *second is 1 for the second one. */
static int choice(const char *command, const char *option, const char *text, const char *first,
                  const char *second, int *is_second) {
    if (!text || (strcmp(text, first) && strcmp(text, second))) {
        fprintf(stderr, "%s: %s wants %s or %s, not '%s'\n", command, option, first, second,
                text ? text : "");
        return 0;
    }
    *is_second = !strcmp(text, second);
    return 1;
}

int render_options_parse(render_options *o, int argc, char **argv, int view) {
    memset(o, 0, sizeof *o);
    o->fps = 25;
    o->duration = -1;
    o->frames = -1;
    o->width = view ? 800 : 480;
    o->height = view ? 600 : 360;
    o->instances = 1;
    o->time = NAN;
    o->grid = 1;
    const char *command = view ? "ossa view" : "ossa render";
    int fps_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(view ? view_help : render_help, stdout);
            return -1;
        } else if (!strcmp(a, "--anim")) {
            if (!anim_select_parse(next, view ? "ossa view" : "ossa render", &o->anim)) return 0;
            i++;
        } else if (!strcmp(a, "--allow-unsafe-paths")) {
            o->allow_unsafe_paths = 1;
        } else if (!strcmp(a, "--fps")) {
            if (!cli_number(command, a, next, 0.1, 1000, &o->fps)) return 0;
            fps_given = 1, i++;
        } else if (!view && !strcmp(a, "--duration")) {
            if (!cli_number(command, a, next, 0, 3600, &o->duration)) return 0;
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (!cli_integer(command, a, next, 1, 100000, &n)) return 0;
            o->frames = (int)n, i++;
        } else if (!strcmp(a, "--instances")) {
            if (!cli_integer(command, a, next, 1, 100000, &n)) return 0;
            o->instances = (unsigned)n, i++;
        } else if (!view && !strcmp(a, "--time")) {
            if (!cli_number(command, a, next, -1e6, 1e6, &o->time)) return 0;
            i++;
        } else if (!strcmp(a, "--size")) {
            if (!next || sscanf(next, "%dx%d", &o->width, &o->height) != 2 || o->width < 16 ||
                o->height < 16 || o->width > 8192 || o->height > 8192) {
                fprintf(stderr, "%s: --size needs WxH between 16 and 8192, e.g. 640x480\n",
                        command);
                return 0;
            }
            i++;
        } else if (!strcmp(a, "--skinning")) {
            if (!choice(command, a, next, "gpu", "cpu", &o->cpu_skinning)) return 0;
            i++;
        } else if (!strcmp(a, "--palette")) {
            int ssbo;
            if (!choice(command, a, next, "texture", "ssbo", &ssbo)) return 0;
            o->path = ssbo ? OSSA_GPU_PALETTE_SSBO : OSSA_GPU_PALETTE_TEXTURE, i++;
        } else if (!strcmp(a, "--method")) {
            int dqs;
            if (!choice(command, a, next, "lbs", "dqs", &dqs)) return 0;
            o->method = dqs ? OSSA_GPU_DUAL_QUATERNION : OSSA_GPU_LINEAR_BLEND, i++;
        } else if (!strcmp(a, "--no-grid")) {
            o->grid = 0;
        } else if (!strcmp(a, "--compact")) {
            o->compact = 1;
        } else if (!strcmp(a, "--mix") && next) {
            o->mix = next, i++;
        } else if (!view && !strcmp(a, "--bench")) {
            o->bench = 1;
        } else if (!view && !strcmp(a, "-o") && next) {
            o->output = next, i++;
        } else if (view && !strcmp(a, "--screenshot") && next) {
            o->screenshot = next, i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "%s: unknown or incomplete option '%s' (see --help)\n", command, a);
            return 0;
        } else if (!o->model) {
            o->model = a;
        } else {
            fprintf(stderr, "%s: more than one model given ('%s', '%s')\n", command, o->model, a);
            return 0;
        }
    }
    if (o->duration >= 0 && o->frames > 0) {
        fprintf(stderr, "%s: give --duration or --frames, not both\n", command);
        return 0;
    }
    if (o->mix && o->anim.given) {
        fprintf(stderr, "%s: --anim and --mix exclude each other\n", command);
        return 0;
    }
    if (view && !o->screenshot && (o->frames > 0 || fps_given)) {
        fprintf(stderr,
                "%s: --frames and --fps set the steps of --screenshot; the window plays "
                "in real time\n",
                command);
        return 0;
    }
    return 1;
}

int render_options_open_scene(const render_options *o, ossa_gpu_context *context,
                              uint32_t instances, const char *command, render_scene *scene) {
    render_scene_desc desc = {o->model,  instances,  o->cpu_skinning,
                              o->method, o->compact, o->allow_unsafe_paths};
    if (!render_scene_open(scene, context, &desc)) return EXIT_MODEL_ERROR;
    uint32_t clip_count = render_scene_clip_count(scene);
    if (!anim_select_check(&o->anim, scene->model, command,
                           o->model ? o->model : "the built-in demo model"))
        return EXIT_USAGE;
    if (!o->anim.several) return EXIT_OK;
    uint32_t *clips = malloc(sizeof *clips * (clip_count + o->anim.count + 1));
    int ok = clips &&
             render_scene_select(scene, clips, anim_select_resolve(&o->anim, scene->model, clips));
    free(clips);
    if (!ok) fprintf(stderr, "%s: out of memory\n", command);
    return ok ? EXIT_OK : EXIT_MODEL_ERROR;
}

int render_options_clip(const render_options *o, const render_scene *scene) {
    if (o->anim.several) return RENDER_SCENE_SELECTION;
    if (!render_scene_clip_count(scene)) return -1;
    uint32_t clip = 0;
    anim_select_resolve(&o->anim, scene->model, &clip); /* one index: several is 0 */
    return (int)clip;
}
