/* Parsing the options shared by `ossa render` and `ossa view`. */
#include "render_options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char render_help[] =
    "usage: ossa render [MODEL] [--anim K] [--fps F] [--duration S | --frames N] [--size WxH]\n"
    "                   [--instances N] [--skinning gpu|cpu] [--palette texture|ssbo]\n"
    "                   [--method lbs|dqs] [--time T] [--no-grid] [--mix FILE]\n"
    "                   -o out.gif|out.png|dir/%04d.png\n"
    "       ossa render [MODEL] --bench [--frames N] [--size WxH]\n\n"
    "Renders animation K of MODEL (default: the built-in demo model) offscreen with OpenGL\n"
    "(headless EGL; Mesa llvmpipe works without a GPU). An .gif output is animated; an .png\n"
    "output is one frame at --time T (clip seconds, default the clip's start); a pattern with\n"
    "%d writes one PNG per frame. --instances N draws N characters, each at its own time, in\n"
    "one draw call per primitive. --skinning cpu skins on the CPU instead (for comparison).\n"
    "--bench prints frames per second for 1, 100 and 1000 instances and the CPU time per frame\n"
    "spent sampling and building palettes.\n"
    "--mix FILE plays a mix file (see `ossa sample --help`) instead of animation K: --time\n"
    "and the frames are mix clocks (default from 0 to 1 s past the last weight point).\n";

static const char view_help[] =
    "usage: ossa view [MODEL] [--anim K] [--size WxH] [--instances N] [--skinning gpu|cpu]\n"
    "                 [--palette texture|ssbo] [--method lbs|dqs] [--no-grid]\n"
    "                 [--screenshot out.png --frames N]\n\n"
    "Plays MODEL's animations in a window (default: the built-in demo model).\n"
    "  space pause, left/right previous/next animation, +/- speed, drag to orbit,\n"
    "  scroll to zoom, Esc or q to quit. The title shows the animation and its time.\n"
    "--screenshot writes the window's pixels after N frames (default 10) and exits.\n"
    "--mix FILE plays a mix file (see `ossa sample --help`) at the viewer's clock.\n";

static int number(const char *option, const char *text, double lo, double hi, double *out) {
    char *end = NULL;
    double v = text ? strtod(text, &end) : NAN;
    if (!text || end == text || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "ossa: %s needs a number in [%g, %g], got '%s'\n", option, lo, hi,
                text ? text : "");
        return 0;
    }
    *out = v;
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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        double v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(view ? view_help : render_help, stdout);
            return -1;
        } else if (!strcmp(a, "--anim")) {
            if (!number(a, next, 0, 1e6, &v)) return 0;
            o->anim = (int)v, i++;
        } else if (!strcmp(a, "--fps")) {
            if (!number(a, next, 0.1, 1000, &o->fps)) return 0;
            i++;
        } else if (!strcmp(a, "--duration")) {
            if (!number(a, next, 0, 3600, &o->duration)) return 0;
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (!number(a, next, 1, 100000, &v)) return 0;
            o->frames = (int)v, i++;
        } else if (!strcmp(a, "--instances")) {
            if (!number(a, next, 1, 100000, &v)) return 0;
            o->instances = (unsigned)v, i++;
        } else if (!strcmp(a, "--time")) {
            if (!number(a, next, -1e6, 1e6, &o->time)) return 0;
            i++;
        } else if (!strcmp(a, "--size")) {
            if (!next || sscanf(next, "%dx%d", &o->width, &o->height) != 2 || o->width < 16 ||
                o->height < 16 || o->width > 8192 || o->height > 8192) {
                fprintf(stderr, "ossa: --size needs WxH between 16 and 8192, e.g. 640x480\n");
                return 0;
            }
            i++;
        } else if (!strcmp(a, "--skinning") && next &&
                   (!strcmp(next, "gpu") || !strcmp(next, "cpu"))) {
            o->cpu_skinning = !strcmp(next, "cpu"), i++;
        } else if (!strcmp(a, "--palette") && next &&
                   (!strcmp(next, "texture") || !strcmp(next, "ssbo"))) {
            o->path = strcmp(next, "ssbo") ? OSSA_GPU_PALETTE_TEXTURE : OSSA_GPU_PALETTE_SSBO, i++;
        } else if (!strcmp(a, "--method") && next &&
                   (!strcmp(next, "lbs") || !strcmp(next, "dqs"))) {
            o->method = strcmp(next, "dqs") ? OSSA_GPU_LINEAR_BLEND : OSSA_GPU_DUAL_QUATERNION, i++;
        } else if (!strcmp(a, "--no-grid")) {
            o->grid = 0;
        } else if (!strcmp(a, "--mix") && next) {
            o->mix = next, i++;
        } else if (!view && !strcmp(a, "--bench")) {
            o->bench = 1;
        } else if (!view && !strcmp(a, "-o") && next) {
            o->output = next, i++;
        } else if (view && !strcmp(a, "--screenshot") && next) {
            o->screenshot = next, i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ossa: unknown or incomplete option '%s' (see --help)\n", a);
            return 0;
        } else if (!o->model) {
            o->model = a;
        } else {
            fprintf(stderr, "ossa: more than one model given ('%s', '%s')\n", o->model, a);
            return 0;
        }
    }
    if (o->duration >= 0 && o->frames > 0) {
        fprintf(stderr, "ossa: give --duration or --frames, not both\n");
        return 0;
    }
    return 1;
}
