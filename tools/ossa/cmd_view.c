/* ossa view: a window that plays a model's animations (GLFW), with a screenshot mode for tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "commands.h"
#include "render_options.h"
#include "image.h"
#include "render_scene.h"

typedef struct viewer {
    render_scene scene;
    int clip, clip_count;
    double clock, speed;
    int paused;
    float yaw, pitch, zoom;
    int dragging;
    double last_x, last_y;
    float lo[3], hi[3];
} viewer;

/* Plays `clip` (RENDER_SCENE_SELECTION: the selected clips together; -1 wraps to the last). */
static void switch_clip(viewer *v, int clip) {
    if (clip != RENDER_SCENE_SELECTION)
        v->clip = v->clip_count ? (clip + v->clip_count) % v->clip_count : -1;
    else
        v->clip = clip;
    double duration;
    render_scene_range(&v->scene, v->clip, &v->clock, &duration);
    render_scene_bounds(&v->scene, v->clip, 16, v->lo, v->hi); /* as ossa render frames it */
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods) {
    (void)scancode, (void)mods;
    viewer *v = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE) return;
    switch (key) {
    case GLFW_KEY_SPACE:
        v->paused = !v->paused;
        break;
    case GLFW_KEY_RIGHT: /* from the selection: the first clip */
        switch_clip(v, v->clip == RENDER_SCENE_SELECTION ? 0 : v->clip + 1);
        break;
    case GLFW_KEY_LEFT: /* from the selection: the last clip */
        switch_clip(v, v->clip == RENDER_SCENE_SELECTION ? -1 : v->clip - 1);
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        v->speed = fmin(v->speed * 1.25, 16);
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        v->speed = fmax(v->speed / 1.25, 1.0 / 16);
        break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
        glfwSetWindowShouldClose(window, GLFW_TRUE);
        break;
    default:
        break;
    }
}

static void on_button(GLFWwindow *window, int button, int action, int mods) {
    (void)mods;
    viewer *v = glfwGetWindowUserPointer(window);
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    v->dragging = action == GLFW_PRESS;
    glfwGetCursorPos(window, &v->last_x, &v->last_y);
}

static void on_cursor(GLFWwindow *window, double x, double y) {
    viewer *v = glfwGetWindowUserPointer(window);
    if (!v->dragging) return;
    v->yaw -= 0.01f * (float)(x - v->last_x);
    v->pitch += 0.01f * (float)(y - v->last_y);
    v->pitch = fmaxf(-1.5f, fminf(1.5f, v->pitch));
    v->last_x = x, v->last_y = y;
}

static void on_scroll(GLFWwindow *window, double dx, double dy) {
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(window);
    v->zoom = fmaxf(0.1f, fminf(20.0f, v->zoom * powf(0.9f, (float)dy)));
}

static void update_title(GLFWwindow *window, const viewer *v, double time) {
    char name[128], title[256];
    render_scene_clip_name(&v->scene, v->clip, name, sizeof name);
    char which[32] = "";
    if (v->clip != RENDER_SCENE_SELECTION)
        snprintf(which, sizeof which, " (%d/%d)", v->clip + 1, v->clip_count);
    snprintf(title, sizeof title, "ossa view - %s%s  t=%.2fs  speed x%.2f%s", name, which, time,
             v->speed, v->paused ? "  [paused]" : "");
    glfwSetWindowTitle(window, title);
}

/* Draws one frame of every instance at the viewer's clock; 0 when drawing fails. */
static int draw(viewer *v, ossa_gpu_renderer *renderer, const render_options *o, int width,
                int height, double *times, double *shown_time) {
    double start, duration;
    render_scene_range(&v->scene, v->clip, &start, &duration);
    for (uint32_t i = 0; i < v->scene.instances; i++)
        times[i] = v->scene.mix
                       ? v->clock /* the mix clock */
                       : render_scene_time(&v->scene, v->clip,
                                           v->clock + duration * i / v->scene.instances, 1);
    *shown_time = times[0];
    render_scene_evaluate(&v->scene, v->clip, times);
    if (!render_scene_upload(&v->scene)) return 0;
    ossa_gpu_camera camera;
    ossa_gpu_camera_frame_bounds(&camera, v->lo, v->hi, v->yaw, v->pitch, v->zoom);
    float size = fmaxf(v->hi[0] - v->lo[0], fmaxf(v->hi[1] - v->lo[1], v->hi[2] - v->lo[2]));
    float step = powf(10.0f, floorf(log10f(size > 0 ? size : 1))) / 2;
    ossa_gpu_renderer_begin(renderer, &camera, width, height, o->grid, v->lo[1], step);
    return render_scene_draw(&v->scene, renderer, o->path, o->method, o->cpu_skinning);
}

static int run(viewer *v, ossa_gpu_context *context, const render_options *o) {
    GLFWwindow *window = ossa_gpu_context_window(context);
    ossa_gpu_renderer *renderer = NULL;
    ossa_error error;
    if (ossa_gpu_renderer_create(context, 0, 0, &renderer, &error) != OSSA_OK) {
        fprintf(stderr, "ossa view: %s\n", error.message);
        return 0;
    }
    glfwSetWindowUserPointer(window, v);
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetCursorPosCallback(window, on_cursor);
    glfwSetScrollCallback(window, on_scroll);
    glfwSwapInterval(o->screenshot ? 0 : 1);
    int screenshot_frames = o->frames > 0 ? o->frames : 10;
    double *times = malloc(sizeof(double) * v->scene.instances);
    int ok = times != NULL;
    double last = glfwGetTime();
    for (int frame = 0; ok && !glfwWindowShouldClose(window); frame++) {
        glfwPollEvents();
        double now = glfwGetTime();
        /* screenshots advance by a fixed step so they do not depend on the machine's speed */
        double dt = o->screenshot ? 1.0 / o->fps : now - last;
        last = now;
        if (!v->paused) v->clock += dt * v->speed;
        int width, height;
        glfwGetFramebufferSize(window, &width, &height);
        double shown;
        ok = draw(v, renderer, o, width, height, times, &shown);
        update_title(window, v, shown);
        if (o->screenshot && frame + 1 >= screenshot_frames) {
            uint8_t *rgb = malloc((size_t)width * (size_t)height * 3);
            ok = rgb && width > 0 && height > 0;
            if (ok) ossa_gpu_read_default_framebuffer(width, height, rgb);
            if (ok && image_png_write_rgb(o->screenshot, width, height, rgb, &error) != OSSA_OK) {
                fprintf(stderr, "ossa view: %s: %s\n", o->screenshot, error.message);
                ok = 0;
            }
            free(rgb);
            break;
        }
        glfwSwapBuffers(window);
    }
    free(times);
    ossa_gpu_renderer_destroy(renderer);
    return ok;
}

int cmd_view(int argc, char **argv) {
    render_options o;
    int parsed = render_options_parse(&o, argc, argv, 1);
    if (parsed < 0) return EXIT_OK;
    if (!parsed) return EXIT_USAGE;
    ossa_gpu_context *context = NULL;
    ossa_error error;
    if (ossa_gpu_context_create_window(o.width, o.height, "ossa view", &context, &error) !=
        OSSA_OK) {
        fprintf(stderr, "ossa view: %s\n", error.message);
        return EXIT_MODEL_ERROR;
    }
    ossa_gpu_info info;
    ossa_gpu_context_info(context, &info);
    if (o.path == OSSA_GPU_PALETTE_SSBO && !info.has_ssbo) {
        fprintf(stderr, "ossa view: --palette ssbo needs OpenGL 4.3, this is %d.%d\n", info.major,
                info.minor);
        ossa_gpu_context_destroy(context);
        return EXIT_USAGE;
    }
    viewer *v = calloc(1, sizeof *v);
    int code = v ? render_options_open_scene(&o, context, o.instances, "ossa view", &v->scene)
                 : EXIT_MODEL_ERROR;
    sample_mix mix = {0};
    if (code == EXIT_OK && o.mix) {
        if (sample_mix_open(o.mix, v->scene.model, &mix))
            v->scene.mix = &mix;
        else
            code = EXIT_MODEL_ERROR;
    }
    if (code == EXIT_OK) {
        v->clip_count = (int)render_scene_clip_count(&v->scene);
        v->speed = 1;
        v->yaw = 0.6f, v->pitch = 0.35f, v->zoom = 1;
        switch_clip(v, render_options_clip(&o, &v->scene));
        if (!run(v, context, &o)) code = EXIT_MODEL_ERROR;
    }
    if (v) render_scene_close(&v->scene);
    sample_mix_free(&mix);
    free(v);
    ossa_gpu_context_destroy(context);
    return code;
}
