/**
 * @file gl.h
 * @brief The OpenGL layer: contexts, GPU skinning, instanced drawing, offscreen frames, images.
 *
 * Everything here needs a current OpenGL 3.3 core (or newer) context made by
 * ::ossa_gpu_context_create_headless (EGL, no window system) or ::ossa_gpu_context_create_window
 * (GLFW). The CPU layers never call OpenGL: they produce palettes (3x4 row-major joint matrices,
 * 12 floats per joint) and morph weights, which this layer streams to the GPU once per frame.
 *
 * Skinning runs in the vertex shader. The palette lives in one buffer per frame, read either as
 * a buffer texture (RGBA32F, three texels per joint, `texelFetch`) or, with GL 4.3 or newer, as a
 * shader storage buffer. Instance `i` of a draw reads its joints at
 * `palette_base + i * joint_count` and its morph weights at `weights_base + i * target_count`,
 * so N characters of one model, each at its own clip and time, take one draw per primitive.
 * Morph targets are applied before skinning. Unskinned meshes are drawn with a one-joint
 * palette holding the node's world transform.
 *
 * The shaders skin by the rules written in ossa/skin.h (its file comment), the CPU's: weights
 * divided by their sum, all-zero-weight vertices left in place, every influence set, DQS scale
 * cbrt|det|. Each primitive's influences live in a buffer texture of (joint, weight) pairs.
 */
#ifndef OSSA_GPU_H
#define OSSA_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "document.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct GLFWwindow;

/** An OpenGL context and the shader programs compiled in it. */
typedef struct ossa_gpu_context ossa_gpu_context;

/** What the context offers. */
typedef struct ossa_gpu_info {
    int major, minor;   /**< OpenGL version */
    int has_ssbo;       /**< GL >= 4.3: the shader storage buffer palette path is available */
    char renderer[128]; /**< GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
} ossa_gpu_info;

/** Where the vertex shader reads the palette from. */
typedef enum ossa_gpu_palette_path {
    OSSA_GPU_PALETTE_TEXTURE = 0, /**< buffer texture, RGBA32F, GL 3.3 */
    OSSA_GPU_PALETTE_SSBO         /**< shader storage buffer, GL 4.3 */
} ossa_gpu_palette_path;

/** How influences are blended. */
typedef enum ossa_gpu_skinning_method {
    OSSA_GPU_LINEAR_BLEND = 0, /**< weighted sum of joint matrices */
    OSSA_GPU_DUAL_QUATERNION   /**< dual quaternions, as rule 6 of ossa/skin.h says */
} ossa_gpu_skinning_method;

/**
 * Creates a headless context through EGL (Mesa's surfaceless platform, else the default display
 * with a pbuffer), asking for the newest core profile from 4.6 down to 3.3, and makes it current.
 */
ossa_result ossa_gpu_context_create_headless(ossa_gpu_context **out, ossa_error *error);

/**
 * Opens a GLFW window of width x height with a 3.3+ core context and makes it current.
 * ::ossa_gpu_context_window returns the window for event handling. GLFW is initialised if
 * needed and left initialised (it is process-wide): the application calls glfwTerminate, if
 * it wants to, after destroying the context.
 */
ossa_result ossa_gpu_context_create_window(int width, int height, const char *title,
                                           ossa_gpu_context **out, ossa_error *error);

/** The GLFW window of a window context, NULL for a headless one. */
struct GLFWwindow *ossa_gpu_context_window(const ossa_gpu_context *context);

/** Fills info about the context. */
void ossa_gpu_context_info(const ossa_gpu_context *context, ossa_gpu_info *info);

/**
 * Destroys the context, its programs and its window. NULL is allowed. The EGL display and GLFW
 * stay initialised: both are shared by everything in the process that uses them.
 */
void ossa_gpu_context_destroy(ossa_gpu_context *context);

/* ---------------------------------------------------------------------------------------- */

/** The GPU copy of one glTF mesh: vertex arrays, morph targets, materials and textures. */
typedef struct ossa_gpu_mesh ossa_gpu_mesh;

/**
 * Uploads every primitive of document mesh `mesh`: positions, normals (computed flat
 * when absent), TEXCOORD_0, the influences of every JOINTS_n/WEIGHTS_n set (any number of
 * sets; the pairs with a positive weight, in a buffer texture), morph target displacements,
 * the material's base colour factor and base colour texture (PNG/JPEG).
 * @return OSSA_ERROR_LIMIT when a primitive's influences exceed the context's
 *         GL_MAX_TEXTURE_BUFFER_SIZE (the message names it), OSSA_ERROR_OUT_OF_MEMORY.
 */
ossa_result ossa_gpu_mesh_create(ossa_gpu_context *context, const ossa_document *document,
                                 int32_t mesh, ossa_gpu_mesh **out, ossa_error *error);

/** Frees the mesh's GL objects. NULL is allowed. */
void ossa_gpu_mesh_destroy(ossa_gpu_mesh *mesh);

/** Number of primitives (all of the glTF mesh, in order; points and lines are skinned but not
 * drawn). */
uint32_t ossa_gpu_mesh_primitive_count(const ossa_gpu_mesh *mesh);

/** Vertices of uploaded primitive `primitive`. */
uint32_t ossa_gpu_mesh_vertex_count(const ossa_gpu_mesh *mesh, uint32_t primitive);

/** Morph targets per primitive of the mesh. */
uint32_t ossa_gpu_mesh_target_count(const ossa_gpu_mesh *mesh);

/**
 * Replaces the positions and normals of one primitive (3 floats each per vertex; normals may
 * be NULL to keep them). Used to draw vertices skinned on the CPU with an identity palette.
 */
void ossa_gpu_mesh_update_vertices(ossa_gpu_mesh *mesh, uint32_t primitive, const float *positions,
                                   const float *normals);

/* ---------------------------------------------------------------------------------------- */

/**
 * The per-frame data of every character: one streamed buffer of palettes and one of morph
 * weights. Upload once per frame, then draw as many meshes and instances as they cover.
 */
typedef struct ossa_gpu_frame_data ossa_gpu_frame_data;

/** Creates empty frame buffers; they grow on upload as needed. */
ossa_result ossa_gpu_frame_data_create(ossa_gpu_context *context, ossa_gpu_frame_data **out,
                                       ossa_error *error);

/** Frees the buffers. NULL is allowed. */
void ossa_gpu_frame_data_destroy(ossa_gpu_frame_data *frame);

/**
 * Streams `joint_count` joint matrices (12 floats each, 3x4 rows) and `weight_count` morph
 * weights (weights may be NULL when weight_count is 0). The previous contents are orphaned so
 * draws of the previous frame keep their data.
 */
void ossa_gpu_frame_data_upload(ossa_gpu_frame_data *frame, const float *palette,
                                uint32_t joint_count, const float *weights, uint32_t weight_count);

/** Which program a draw or feedback uses and where its instances find their data. */
typedef struct ossa_gpu_skinning {
    ossa_gpu_palette_path path;
    ossa_gpu_skinning_method method;
    uint32_t palette_base; /**< first joint of instance 0 in the uploaded palette */
    uint32_t joint_count;  /**< joints per instance (1 for an unskinned mesh) */
    uint32_t weights_base; /**< first morph weight of instance 0 */
    int unskinned;         /**< ignore JOINTS/WEIGHTS: every vertex uses joint 0 fully */
    int skip_morph;        /**< ignore morph targets (vertices already morphed, e.g. on the CPU) */
    uint32_t instance_count; /**< 0 means 1 */
} ossa_gpu_skinning;

/**
 * Skins one primitive on the GPU and reads the results back with transform feedback:
 * `instance_count * vertex_count` positions and normals (3 floats each, instance-major, the
 * normals normalised). `positions` or `normals` may be NULL.
 */
ossa_result ossa_gpu_skin_feedback(ossa_gpu_context *context, const ossa_gpu_mesh *mesh,
                                   uint32_t primitive, const ossa_gpu_frame_data *frame,
                                   const ossa_gpu_skinning *skinning, float *positions,
                                   float *normals, ossa_error *error);

/* ---------------------------------------------------------------------------------------- */

/** A camera: a view and a perspective projection. */
typedef struct ossa_gpu_camera {
    float eye[3], target[3], up[3];
    float fov_y;         /**< radians */
    float z_near, z_far; /**< clip planes, 0 < z_near < z_far */
} ossa_gpu_camera;

/** Places a camera that sees the box [lo, hi] from the given yaw/pitch (radians) and zoom. */
void ossa_gpu_camera_frame_bounds(ossa_gpu_camera *camera, const float lo[3], const float hi[3],
                                  float yaw, float pitch, float zoom);

/** Draws shaded meshes, a ground grid, into an offscreen framebuffer or the window. */
typedef struct ossa_gpu_renderer ossa_gpu_renderer;

/**
 * Creates a renderer. width x height > 0 gives it an offscreen framebuffer (colour + depth)
 * that ::ossa_gpu_renderer_read_rgb reads; 0 x 0 draws to the current default framebuffer.
 */
ossa_result ossa_gpu_renderer_create(ossa_gpu_context *context, int width, int height,
                                     ossa_gpu_renderer **out, ossa_error *error);

/** Frees the renderer's GL objects. NULL is allowed. */
void ossa_gpu_renderer_destroy(ossa_gpu_renderer *renderer);

/** The background colour ::ossa_gpu_renderer_begin clears to (RGB, 0..255). */
void ossa_gpu_renderer_background(uint8_t rgb[3]);

/**
 * Starts a frame: binds the target (viewport width x height for the default framebuffer),
 * clears it, sets the camera; draws the ground grid at height ground_y unless grid is 0.
 */
void ossa_gpu_renderer_begin(ossa_gpu_renderer *renderer, const ossa_gpu_camera *camera, int width,
                             int height, int grid, float ground_y, float grid_step);

/** Draws every primitive of a mesh, instance_count instances, with simple lighting. */
void ossa_gpu_renderer_draw(ossa_gpu_renderer *renderer, const ossa_gpu_mesh *mesh,
                            const ossa_gpu_frame_data *frame, const ossa_gpu_skinning *skinning);

/** Waits for the frame and reads it as top-down RGB rows into rgb (width * height * 3 bytes). */
void ossa_gpu_renderer_read_rgb(ossa_gpu_renderer *renderer, uint8_t *rgb);

/** Reads the centre pixel (RGB): waits for the frame without copying it (benchmarks). */
void ossa_gpu_renderer_read_pixel(ossa_gpu_renderer *renderer, uint8_t rgb[3]);

/** Reads the current default framebuffer (a window) as top-down RGB rows. */
void ossa_gpu_read_default_framebuffer(int width, int height, uint8_t *rgb);

/* ---------------------------------------------------------------------------------------- */

/** Writes an 8-bit RGB PNG of top-down rows. */
ossa_result ossa_png_write_rgb(const char *path, int width, int height, const uint8_t *rgb,
                               ossa_error *error);

/** Reads a PNG as 8-bit RGB (the caller frees *rgb with free()). */
ossa_result ossa_png_read_rgb(const char *path, int *width, int *height, uint8_t **rgb,
                              ossa_error *error);

/** An animated GIF being written frame by frame, with one fixed 256-colour palette. */
typedef struct ossa_gif_writer ossa_gif_writer;

/** Opens path and writes the GIF header; frames are delay_cs hundredths of a second. */
ossa_result ossa_gif_open(const char *path, int width, int height, int delay_cs,
                          ossa_gif_writer **out, ossa_error *error);

/** Quantizes (6x7x6 colour cube, ordered dither) and appends one frame of RGB rows. */
ossa_result ossa_gif_add_frame(ossa_gif_writer *writer, const uint8_t *rgb, ossa_error *error);

/** Finishes and closes the file; frees the writer (also on failure). NULL is allowed. */
ossa_result ossa_gif_close(ossa_gif_writer *writer, ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif
