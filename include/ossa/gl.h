/**
 * @file gl.h
 * @brief The OpenGL layer (libossa-gl): contexts, GPU models, instanced drawing of characters,
 * offscreen frames.
 *
 * Everything here needs a current OpenGL 3.3 core (or newer) context made by
 * ::ossa_gpu_context_create_headless (EGL, no window system) or ::ossa_gpu_context_create_window
 * (GLFW). The CPU layers never call OpenGL: they produce palettes (3x4 row-major joint matrices,
 * 12 floats per joint) and morph weights, which this layer streams to the GPU once per frame.
 *
 * A frame of a crowd: upload the model once (::ossa_gpu_model_create, from an ::ossa_model, so
 * the document may be freed), update the characters on the CPU (::ossa_characters_update), stream
 * their palettes and morph weights (::ossa_gpu_instances_upload), then draw: one instanced draw
 * per primitive for every character (::ossa_gpu_renderer_draw_model).
 *
 * Skinning runs in the vertex shader. The palettes live in one buffer per frame, read either as
 * a buffer texture (RGBA32F, three texels per joint, `texelFetch`) or, with GL 4.3 or newer, as a
 * shader storage buffer. Instance `i` of a draw reads its joints at
 * `palette_base + i * joint_count` and its morph weights at `weights_base + i * target_count`,
 * so N characters of one model, each at its own clip and time, take one draw per primitive.
 * Morph targets are applied before skinning. Unskinned meshes are drawn with a one-joint
 * palette holding the node's world transform.
 *
 * The lower level (::ossa_gpu_mesh from a document, ::ossa_gpu_frame_data filled by the caller,
 * ::ossa_gpu_skinning) serves programs and tests that build their own palettes.
 */
#ifndef OSSA_GPU_H
#define OSSA_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "document.h"
#include "model.h"
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
    OSSA_GPU_DUAL_QUATERNION   /**< each rigid joint matrix as a dual quaternion, blended */
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
 * when absent), the TEXCOORD_n of the base colour texture, every JOINTS_n (as unsigned 8 or 16
 * bit integer attributes) and WEIGHTS_n (float or normalized integers, as stored), morph target
 * displacements, the material (base colour factor and texture (PNG/JPEG) with its
 * KHR_texture_transform, emissive, unlit, alpha mode, double-sided). Node instancing
 * (EXT_mesh_gpu_instancing) belongs to ::ossa_gpu_model.
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

/** Draws every primitive of a mesh, instance_count instances, shaded as its material says
 *  (see ::ossa_gpu_renderer_draw_model). */
void ossa_gpu_renderer_draw(ossa_gpu_renderer *renderer, const ossa_gpu_mesh *mesh,
                            const ossa_gpu_frame_data *frame, const ossa_gpu_skinning *skinning);

/** Waits for the frame and reads it as top-down RGB rows into rgb (width * height * 3 bytes). */
void ossa_gpu_renderer_read_rgb(ossa_gpu_renderer *renderer, uint8_t *rgb);

/** Reads the centre pixel (RGB): waits for the frame without copying it (benchmarks). */
void ossa_gpu_renderer_read_pixel(ossa_gpu_renderer *renderer, uint8_t rgb[3]);

/** Reads the current default framebuffer (a window) as top-down RGB rows. */
void ossa_gpu_read_default_framebuffer(int width, int height, uint8_t *rgb);

/* ---------------------------------------------------------------------------------------- */

/**
 * The GPU copy of a model: every primitive of ::ossa_model_primitive_info (in that order), its
 * vertex arrays, morph targets, material and texture, and the layout of the per-instance data
 * (one palette per skin and per unskinned node that draws, holding the node's static instances
 * when it has some; one weight set per morphed node).
 */
typedef struct ossa_gpu_model ossa_gpu_model;

/** How to upload a model. Zero-initialised means the defaults. */
typedef struct ossa_gpu_model_desc {
    /** 1: positions and normals will be replaced often with ::ossa_gpu_model_set_vertices
     *  (vertices skinned on the CPU), so their buffers are made for streaming. */
    int dynamic_vertices;
} ossa_gpu_model_desc;

/**
 * Uploads every primitive of a model from its decoded streams (::ossa_model_primitive_streams,
 * ::ossa_model_material_info): positions, normals (computed smooth when absent), the texture
 * coordinates of the base colour texture (ossa_model_streams::material_texcoords), joints and
 * weights as decoded (not renormalised), morph target displacements, the material and its
 * base colour texture (PNG/JPEG). The model must outlive the GPU model.
 * @param desc NULL for the defaults.
 * @return OSSA_ERROR_UNSUPPORTED for a primitive with more influence sets than the shader reads
 *         (4) or too many vertices; OSSA_ERROR_LIMIT for morph targets past GL's buffer texture
 *         size; OSSA_ERROR_OUT_OF_MEMORY.
 */
ossa_result ossa_gpu_model_create(ossa_gpu_context *context, const ossa_model *model,
                                  const ossa_gpu_model_desc *desc, ossa_gpu_model **out,
                                  ossa_error *error);

/** Frees the GPU model's GL objects. NULL is allowed. */
void ossa_gpu_model_destroy(ossa_gpu_model *gpu);

/** The model it was uploaded from. */
const ossa_model *ossa_gpu_model_source(const ossa_gpu_model *gpu);

/** Palette joints one instance takes (every palette section plus its placement joint). */
uint32_t ossa_gpu_model_joints_per_instance(const ossa_gpu_model *gpu);

/** Morph weights one instance takes. */
uint32_t ossa_gpu_model_weights_per_instance(const ossa_gpu_model *gpu);

/**
 * Replaces the positions and normals of one primitive (3 floats each per vertex, original vertex
 * order; normals may be NULL to keep them), e.g. with the output of ::ossa_character_skin, then
 * drawn with ::ossa_gpu_draw_desc::vertices_skinned.
 * @return OSSA_ERROR_ARGUMENT for a primitive out of range, NULL positions or a vertex_count
 *         that is not the primitive's.
 */
ossa_result ossa_gpu_model_set_vertices(ossa_gpu_model *gpu, uint32_t primitive,
                                        const float *positions, const float *normals,
                                        uint32_t vertex_count, ossa_error *error);

/**
 * The palettes and morph weights of N characters of one GPU model, in two streamed GL buffers.
 * Each palette section of the model holds N consecutive palettes (instance-major inside the
 * section), so instance `i` of a draw finds its joints at `base + i * joint_count`.
 */
typedef struct ossa_gpu_instances ossa_gpu_instances;

/** Creates empty instance buffers for characters of `gpu`; they grow on upload as needed. */
ossa_result ossa_gpu_instances_create(const ossa_gpu_model *gpu, ossa_gpu_instances **out,
                                      ossa_error *error);

/** Frees the buffers. NULL is allowed. */
void ossa_gpu_instances_destroy(ossa_gpu_instances *instances);

/**
 * Streams the palettes (every skin's, and the world matrix of every unskinned node that draws)
 * and morph weights of `count` characters: instance `i` is characters[i], placed by
 * placements[i] (3x4 rows, 12 floats, multiplied on the left of its matrices) or as it is when
 * placements is NULL. The previous contents are orphaned, so draws of the previous frame keep
 * their data. Allocates nothing on the CPU (the data is written into mapped GL memory).
 * @return OSSA_ERROR_LIMIT when the data of `count` instances exceeds GL's buffer texture size
 *         (sizes are computed in 64 bits and checked before any character is read);
 *         OSSA_ERROR_ARGUMENT for a NULL character or one of another model. The previous upload
 *         then stays.
 */
ossa_result ossa_gpu_instances_upload(ossa_gpu_instances *instances,
                                      ossa_character *const *characters, uint32_t count,
                                      const float *placements, ossa_error *error);

/** Instances of the last successful upload. */
uint32_t ossa_gpu_instances_count(const ossa_gpu_instances *instances);

/** How to draw (or skin by transform feedback) the instances of a GPU model. Zero: defaults. */
typedef struct ossa_gpu_draw_desc {
    ossa_gpu_palette_path path;      /**< default: buffer texture */
    ossa_gpu_skinning_method method; /**< default: linear blend */
    uint32_t first_instance;         /**< first uploaded instance drawn */
    uint32_t instance_count;         /**< 0: every uploaded instance from first_instance on */
    /** 1: the vertices were skinned on the CPU (world space, ::ossa_character_skin) and set with
     *  ::ossa_gpu_model_set_vertices; they are drawn as they are, moved by the placement only. */
    int vertices_skinned;
} ossa_gpu_draw_desc;

/**
 * Draws every triangle primitive of the model for the instances: one instanced draw per
 * primitive, shaded with the renderer's camera and light (see ::ossa_gpu_renderer_begin) as its
 * ::ossa_model_material says: base colour factor times the texture at the transformed texture
 * coordinates, lit (one key light, a fill light, ambient) plus the emissive colour (times the
 * emissive texture at its own transform of the same coordinates), or the base
 * colour alone when unlit; MASK discards below the cutoff; BLEND primitives are drawn after the
 * others, blended, without writing depth; back faces of single-sided materials are culled. A
 * primitive whose node has static instances (EXT_mesh_gpu_instancing) draws them all for every
 * character in the same draw.
 * @param desc NULL for the defaults.
 * @return OSSA_ERROR_ARGUMENT for instances of another GPU model or an instance range past the
 *         upload; OSSA_ERROR_UNSUPPORTED for the SSBO path below GL 4.3; OSSA_ERROR_LIMIT when
 *         the palettes exceed GL's shader storage block size.
 */
ossa_result ossa_gpu_renderer_draw_model(ossa_gpu_renderer *renderer, const ossa_gpu_model *gpu,
                                         const ossa_gpu_instances *instances,
                                         const ossa_gpu_draw_desc *desc, ossa_error *error);

/**
 * Skins primitive `primitive` of the model on the GPU for the instances of desc and reads the
 * results back by transform feedback: `instance_count * copies * vertex_count` positions and
 * normals (3 floats each, instance-major then static instance, original vertex order, normals
 * normalised), where copies is the primitive's ossa_model_primitive::instance_count, or 1 when
 * 0. `positions` or `normals` may be NULL. Made for tests and bounds, not for every frame (it
 * waits for the GPU).
 * @param vertex_capacity vertices each non-NULL output can hold.
 * @return the errors of ::ossa_gpu_renderer_draw_model, and OSSA_ERROR_ARGUMENT for a primitive
 *         out of range or outputs too small.
 */
ossa_result ossa_gpu_model_skin_feedback(ossa_gpu_context *context, const ossa_gpu_model *gpu,
                                         uint32_t primitive, const ossa_gpu_instances *instances,
                                         const ossa_gpu_draw_desc *desc, float *positions,
                                         float *normals, size_t vertex_capacity, ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif
