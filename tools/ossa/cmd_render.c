/* ossa render: offscreen frames of an animated model as PNG, PNG sequence or animated GIF. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "commands.h"
#include "render_options.h"
#include "image.h"
#include "render_scene.h"

typedef enum output_kind { OUTPUT_PNG, OUTPUT_PNG_SEQUENCE, OUTPUT_GIF } output_kind;

/* Creates the folders of a file path that do not exist yet (mkdir -p of its folder). Prints
 * the problem and returns 0 when one cannot be made. */
static int make_parent_folders(const char *file) {
    char path[4096];
    snprintf(path, sizeof path, "%s", file);
    char *slash = strrchr(path, '/');
    if (!slash || slash == path) return 1;
    *slash = '\0';
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char end = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "ossa render: cannot create the folder %s: %s\n", path,
                    strerror(errno));
            return 0;
        }
        if (!end) return 1;
        *p = '/';
    }
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(int done, int total) {
    int width = 40, filled = total ? done * width / total : width;
    fprintf(stderr, "\r[%.*s%*s] %d/%d", filled, "########################################",
            width - filled, "", done, total);
    if (done == total) fputc('\n', stderr);
}

/* A camera on the animated bounds, from the front-right and a little above. */
static void frame_camera(render_scene *scene, int clip, ossa_gpu_camera *camera, float *ground,
                         float *step) {
    float lo[3], hi[3];
    render_scene_bounds(scene, clip, 16, lo, hi);
    ossa_gpu_camera_frame_bounds(camera, lo, hi, 0.6f, 0.35f, 1.0f);
    *ground = lo[1];
    float size = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
    *step = powf(10.0f, floorf(log10f(size > 0 ? size : 1))) / 2;
}

/* Times of every instance: instance i runs i/N of the clip ahead of instance 0. */
static void instance_times(const render_scene *scene, int clip, double clock, int loop,
                           double *times) {
    double start, duration;
    render_scene_range(scene, clip, &start, &duration);
    for (uint32_t i = 0; i < scene->instances; i++)
        times[i] = scene->mix ? clock /* every character at the mix clock */
                              : render_scene_time(scene, clip,
                                                  clock + duration * i / scene->instances, loop);
}

static int write_frames(const render_options *o, render_scene *scene, ossa_gpu_renderer *renderer,
                        output_kind kind) {
    int clip = render_options_clip(o, scene);
    double start, span;
    int animated = render_scene_range(scene, clip, &start, &span);
    if (scene->mix) start = 0, span = sample_mix_span(scene->mix), animated = 1;
    if (!isnan(o->time)) start = o->time;
    double duration = o->duration >= 0 ? o->duration : (animated && span > 0 ? span : 2);
    int frames = kind == OUTPUT_PNG ? 1
                 : o->frames > 0    ? o->frames
                                    : (int)lround(duration * o->fps);
    if (frames < 1) frames = 1;
    ossa_gpu_camera camera, follow;
    float ground, step, origin[3], root[3];
    frame_camera(scene, clip, &camera, &ground, &step);
    render_scene_root_ground(scene, origin); /* root motion: the camera follows the root */
    if (!render_scene_open_markers(scene)) return 0;

    size_t bytes = (size_t)o->width * (size_t)o->height * 3;
    uint8_t *rgb = malloc(bytes);
    double *times = malloc(sizeof(double) * scene->instances);
    image_gif_writer *gif = NULL;
    ossa_error error;
    int ok = rgb && times && make_parent_folders(o->output);
    if (ok && kind == OUTPUT_GIF &&
        image_gif_open(o->output, o->width, o->height, (int)lround(100 / o->fps), &gif, &error) !=
            OSSA_OK)
        ok = 0;
    int show_progress = frames > 1 && isatty(2);
    int drew = 1; /* the scene prints its own errors */
    for (int f = 0; ok && f < frames; f++) {
        instance_times(scene, clip, start + f / o->fps, kind != OUTPUT_PNG, times);
        render_scene_evaluate(scene, clip, times);
        render_scene_root_ground(scene, root);
        follow = camera;
        for (int c = 0; c < 3; c++)
            follow.eye[c] += root[c] - origin[c], follow.target[c] += root[c] - origin[c];
        ossa_gpu_renderer_begin(renderer, &follow, o->width, o->height, o->grid, ground, step);
        drew = render_scene_upload(scene) &&
               render_scene_draw(scene, renderer, o->path, o->method, o->cpu_skinning) &&
               render_scene_draw_markers(scene, renderer);
        if (!drew) break;
        ossa_gpu_renderer_read_rgb(renderer, rgb);
        if (kind == OUTPUT_GIF) {
            ok = image_gif_add_frame(gif, rgb, &error) == OSSA_OK;
        } else {
            char path[4096];
            if (kind == OUTPUT_PNG_SEQUENCE)
                snprintf(path, sizeof path, o->output, f);
            else
                snprintf(path, sizeof path, "%s", o->output);
            ok = image_png_write_rgb(path, o->width, o->height, rgb, &error) == OSSA_OK;
        }
        if (show_progress) progress(f + 1, frames);
    }
    if (gif && image_gif_close(gif, ok ? &error : NULL) != OSSA_OK) ok = 0;
    if (!drew) {
        ok = 0;
    } else if (!ok && rgb && times) {
        fprintf(stderr, "ossa render: cannot write %s: %s\n", error.file, error.message);
    } else if (ok) { /* said on any stdout: a script needs to know where the frames went */
        if (kind == OUTPUT_PNG_SEQUENCE)
            printf("ossa render: wrote %d frames to %s\n", frames, o->output);
        else
            printf("ossa render: wrote %s (%d frame%s)\n", o->output, frames,
                   frames > 1 ? "s" : "");
    }
    free(rgb);
    free(times);
    return ok;
}

/* Frames per second for 1, 100 and 1000 instances, and CPU time in sampling + palettes.
 * Returns an exit code. */
static int bench(const render_options *o, ossa_gpu_context *context) {
    static const unsigned counts[] = {1, 100, 1000};
    int frames = o->frames > 0 ? o->frames : 30;
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    printf("renderer: %s (OpenGL %d.%d), %dx%d, %d frames per run, %s palette, %s skinning\n",
           info.renderer, info.major, info.minor, o->width, o->height, frames,
           o->path == OSSA_GPU_PALETTE_SSBO ? "ssbo" : "buffer-texture",
           o->cpu_skinning ? "cpu" : "gpu");
    printf("%10s %10s %14s %16s %14s\n", "instances", "fps", "ms/frame", "cpu anim ms/frm",
           "us/character");
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        render_scene scene;
        int code = render_options_open_scene(o, context, counts[k], "ossa render", &scene);
        if (code != EXIT_OK) {
            render_scene_close(&scene);
            return code;
        }
        ossa_gpu_renderer *renderer = NULL;
        ossa_error error;
        if (ossa_gpu_renderer_create(context, o->width, o->height, &renderer, &error) != OSSA_OK) {
            fprintf(stderr, "ossa render: %s\n", error.message);
            render_scene_close(&scene);
            return EXIT_MODEL_ERROR;
        }
        int clip = render_options_clip(o, &scene);
        ossa_gpu_camera camera;
        float ground, step;
        frame_camera(&scene, clip, &camera, &ground, &step);
        double *times = malloc(sizeof(double) * scene.instances);
        uint8_t pixel[3];
        double cpu = 0, begin = now_seconds();
        for (int f = 0; times && f < frames; f++) {
            instance_times(&scene, clip, f / o->fps, 1, times);
            double t0 = now_seconds();
            render_scene_evaluate(&scene, clip, times);
            cpu += now_seconds() - t0;
            if (!render_scene_upload(&scene)) break;
            ossa_gpu_renderer_begin(renderer, &camera, o->width, o->height, o->grid, ground, step);
            if (!render_scene_draw(&scene, renderer, o->path, o->method, o->cpu_skinning)) break;
            ossa_gpu_renderer_read_pixel(renderer, pixel); /* waits for the frame */
        }
        double wall = now_seconds() - begin;
        printf("%10u %10.1f %14.2f %16.3f %14.3f\n", counts[k], frames / wall, 1e3 * wall / frames,
               1e3 * cpu / frames, 1e6 * cpu / frames / counts[k]);
        fflush(stdout);
        free(times);
        ossa_gpu_renderer_destroy(renderer);
        render_scene_close(&scene);
    }
    return EXIT_OK;
}

/* 1 when a frame pattern holds exactly one conversion of the frame number, %d with an optional
 * zero flag and width of at most two digits (%04d), and otherwise only %% for a percent sign:
 * the pattern is given to snprintf, so anything else would read arguments that are not there. */
static int frame_pattern_ok(const char *pattern) {
    int conversions = 0;
    for (const char *c = pattern; *c; c++) {
        if (*c != '%') continue;
        if (c[1] == '%') {
            c++;
            continue;
        }
        c++;
        if (*c == '0') c++;
        for (int digits = 0; *c >= '0' && *c <= '9'; c++)
            if (++digits > 2) return 0;
        if (*c != 'd') return 0;
        conversions++;
    }
    return conversions == 1;
}

int cmd_render(int argc, char **argv) {
    render_options o;
    int parsed = render_options_parse(&o, argc, argv, 0);
    if (parsed < 0) return EXIT_OK;
    if (!parsed) return EXIT_USAGE;
    output_kind kind = OUTPUT_PNG;
    if (!o.bench) {
        if (!o.output) {
            fprintf(stderr, "ossa render: give an output with -o (out.gif, out.png or "
                            "dir/%%04d.png)\n");
            return EXIT_USAGE;
        }
        if (strchr(o.output, '%')) {
            kind = OUTPUT_PNG_SEQUENCE;
            if (!frame_pattern_ok(o.output) || !cli_has_extension(o.output, ".png")) {
                fprintf(stderr,
                        "ossa render: a frame pattern has one %%d for the frame number "
                        "(%%04d pads it to four digits; %%%% is a percent sign) and ends "
                        "in .png, not '%s'\n",
                        o.output);
                return EXIT_USAGE;
            }
        } else if (cli_has_extension(o.output, ".gif")) {
            kind = OUTPUT_GIF;
        } else if (!cli_has_extension(o.output, ".png")) {
            fprintf(stderr, "ossa render: the output must end in .gif or .png\n");
            return EXIT_USAGE;
        }
        if (kind == OUTPUT_PNG && o.frames > 1) {
            fprintf(stderr,
                    "ossa render: one .png holds one frame; use a .gif or a %%04d.png "
                    "pattern for %d frames\n",
                    o.frames);
            return EXIT_USAGE;
        }
    }
    ossa_gpu_context *context = NULL;
    ossa_error error;
    if (ossa_gpu_context_create_headless(&context, &error) != OSSA_OK) {
        fprintf(stderr, "ossa render: %s\n", error.message);
        return EXIT_MODEL_ERROR;
    }
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    if (o.path == OSSA_GPU_PALETTE_SSBO && !info.has_ssbo) {
        fprintf(stderr, "ossa render: --palette ssbo needs OpenGL 4.3, this is %d.%d\n", info.major,
                info.minor);
        ossa_gpu_context_destroy(context);
        return EXIT_USAGE;
    }
    int code;
    if (o.bench) {
        code = bench(&o, context);
    } else {
        render_scene scene;
        code = render_options_open_scene(&o, context, o.instances, "ossa render", &scene);
        sample_mix mix = {0};
        if (code == EXIT_OK && o.mix) {
            if (sample_mix_open(o.mix, scene.model, &mix))
                scene.mix = &mix;
            else
                code = EXIT_MODEL_ERROR;
        }
        ossa_gpu_renderer *renderer = NULL;
        if (code == EXIT_OK &&
            ossa_gpu_renderer_create(context, o.width, o.height, &renderer, &error) != OSSA_OK) {
            fprintf(stderr, "ossa render: %s\n", error.message);
            code = EXIT_MODEL_ERROR;
        }
        if (code == EXIT_OK && !write_frames(&o, &scene, renderer, kind)) code = EXIT_MODEL_ERROR;
        ossa_gpu_renderer_destroy(renderer);
        render_scene_close(&scene);
        sample_mix_free(&mix);
    }
    ossa_gpu_context_destroy(context);
    return code;
}
