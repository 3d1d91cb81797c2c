/* OpenGL contexts: headless through EGL, windowed through GLFW. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gpu_internal.h"

ossa_result gpu_fail(ossa_error *error, ossa_result code, const char *format, ...) {
    if (error) {
        memset(error, 0, sizeof *error);
        error->code = code;
        va_list args;
        va_start(args, format);
        vsnprintf(error->message, sizeof error->message, format, args);
        va_end(args);
    }
    return code;
}

/* Reads the version and limits once the context is current; refuses anything below 3.3. */
static ossa_result finish_setup(ossa_gpu_context *context, ossa_error *error) {
    int version = epoxy_gl_version();
    context->info.major = version / 10;
    context->info.minor = version % 10;
    context->info.has_ssbo = version >= 43;
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    snprintf(context->info.renderer, sizeof context->info.renderer, "%s",
             renderer ? renderer : "unknown");
    if (version < 33)
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "OpenGL %d.%d found, 3.3 core needed",
                        context->info.major, context->info.minor);
    GLint texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    context->max_texture_buffer_texels = texels;
    if (context->info.has_ssbo)
        glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &context->max_ssbo_bytes);
    /* Programs that read no morph data still need something bound to their samplers. */
    const float zero[4] = {0, 0, 0, 0};
    glGenBuffers(1, &context->empty_buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, context->empty_buffer);
    glBufferData(GL_TEXTURE_BUFFER, sizeof zero, zero, GL_STATIC_DRAW);
    glGenTextures(1, &context->empty_texture);
    glBindTexture(GL_TEXTURE_BUFFER, context->empty_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, context->empty_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    glGenRenderbuffers(1, &context->feedback_renderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, context->feedback_renderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glGenFramebuffers(1, &context->feedback_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, context->feedback_framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              context->feedback_renderbuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return OSSA_OK;
}

/* Tries core profiles from 4.6 down to 3.3 on an initialised EGL display. */
static EGLContext create_egl_context(EGLDisplay display, EGLConfig config) {
    static const int versions[][2] = {{4, 6}, {4, 5}, {4, 3}, {4, 1}, {3, 3}};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                     versions[i][0],
                                     EGL_CONTEXT_MINOR_VERSION,
                                     versions[i][1],
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_NONE};
        EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
        if (context != EGL_NO_CONTEXT) return context;
    }
    return EGL_NO_CONTEXT;
}

/* The default display with a tiny pbuffer: for EGL stacks without the surfaceless platform. */
static int open_pbuffer(ossa_gpu_context *context) {
    context->display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (context->display == EGL_NO_DISPLAY || !eglInitialize(context->display, NULL, NULL))
        return 0;
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!eglChooseConfig(context->display, config_attributes, &config, 1, &count) || count < 1)
        return 0;
    const EGLint surface_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    context->surface = eglCreatePbufferSurface(context->display, config, surface_attributes);
    if (context->surface == EGL_NO_SURFACE || !eglBindAPI(EGL_OPENGL_API)) return 0;
    context->egl = create_egl_context(context->display, config);
    return context->egl != EGL_NO_CONTEXT;
}

static int open_surfaceless(ossa_gpu_context *context) {
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) return 0;
    context->display =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (context->display == EGL_NO_DISPLAY || !eglInitialize(context->display, NULL, NULL))
        return 0;
    if (!epoxy_has_egl_extension(context->display, "EGL_KHR_surfaceless_context") ||
        !eglBindAPI(EGL_OPENGL_API))
        return 0;
    context->egl = create_egl_context(context->display, EGL_NO_CONFIG_KHR);
    return context->egl != EGL_NO_CONTEXT;
}

static void close_egl(ossa_gpu_context *context) {
    if (context->display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(context->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context->egl != EGL_NO_CONTEXT) eglDestroyContext(context->display, context->egl);
    if (context->surface != EGL_NO_SURFACE) eglDestroySurface(context->display, context->surface);
    /* No eglTerminate: an EGL display is one per process and platform, shared with any other
     * EGL user of the application; terminating it would destroy their contexts too. */
    eglReleaseThread();
    context->display = EGL_NO_DISPLAY;
    context->egl = EGL_NO_CONTEXT;
    context->surface = EGL_NO_SURFACE;
}

ossa_result ossa_gpu_context_create_headless(ossa_gpu_context **out, ossa_error *error) {
    *out = NULL;
    ossa_gpu_context *context = calloc(1, sizeof *context);
    if (!context) return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    context->display = EGL_NO_DISPLAY;
    context->egl = EGL_NO_CONTEXT;
    context->surface = EGL_NO_SURFACE;
    int opened = open_surfaceless(context);
    if (!opened) {
        close_egl(context);
        opened = open_pbuffer(context);
    }
    if (!opened ||
        !eglMakeCurrent(context->display, context->surface, context->surface, context->egl)) {
        close_egl(context);
        free(context);
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED,
                        "no headless OpenGL 3.3 core context through EGL (is Mesa's "
                        "libegl-mesa0 installed?)");
    }
    ossa_result result = finish_setup(context, error);
    if (result != OSSA_OK) {
        ossa_gpu_context_destroy(context);
        return result;
    }
    *out = context;
    return OSSA_OK;
}

ossa_result ossa_gpu_context_create_window(int width, int height, const char *title,
                                           ossa_gpu_context **out, ossa_error *error) {
    *out = NULL;
    if (!glfwInit())
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED,
                        "GLFW could not start (no display? try xvfb-run -a)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    GLFWwindow *window = glfwCreateWindow(width, height, title, NULL, NULL);
    if (!window) {
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "GLFW could not open a 3.3 core window");
    }
    ossa_gpu_context *context = calloc(1, sizeof *context);
    if (!context) {
        glfwDestroyWindow(window);
        return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    context->display = EGL_NO_DISPLAY;
    context->window = window;
    glfwMakeContextCurrent(window);
    ossa_result result = finish_setup(context, error);
    if (result != OSSA_OK) {
        ossa_gpu_context_destroy(context);
        return result;
    }
    *out = context;
    return OSSA_OK;
}

struct GLFWwindow *ossa_gpu_context_window(const ossa_gpu_context *context) {
    return context->window;
}

void ossa_gpu_context_info(const ossa_gpu_context *context, ossa_gpu_info *info) {
    *info = context->info;
}

void ossa_gpu_context_destroy(ossa_gpu_context *context) {
    if (!context) return;
    gpu_programs_release(context);
    if (context->empty_texture) glDeleteTextures(1, &context->empty_texture);
    if (context->empty_buffer) glDeleteBuffers(1, &context->empty_buffer);
    if (context->feedback_framebuffer) glDeleteFramebuffers(1, &context->feedback_framebuffer);
    if (context->feedback_renderbuffer) glDeleteRenderbuffers(1, &context->feedback_renderbuffer);
    /* GLFW stays initialised: it is process-wide and the application may own other windows */
    if (context->window) glfwDestroyWindow(context->window);
    close_egl(context);
    free(context);
}
