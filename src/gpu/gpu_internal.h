/* Private structures of the OpenGL layer, shared by its files. */
#ifndef OSSA_GPU_INTERNAL_H
#define OSSA_GPU_INTERNAL_H

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include "ossa/gl.h"

/* Vertex attribute locations used by every program (influences are read from a texture). */
enum { GPU_ATTR_POSITION = 0, GPU_ATTR_NORMAL = 1, GPU_ATTR_UV = 2 };

/* Texture units used by every program. */
enum {
    GPU_UNIT_PALETTE = 0,
    GPU_UNIT_TARGETS = 1,
    GPU_UNIT_WEIGHTS = 2,
    GPU_UNIT_BASE_COLOR = 3,
    GPU_UNIT_EMISSIVE = 4,
    GPU_UNIT_INFLUENCES = 5,
    GPU_UNIT_MATERIALS = 6
};

/* What selects a program variant. */
typedef struct gpu_program_key {
    unsigned ssbo : 1;
    unsigned dual_quaternion : 1;
    unsigned unskinned : 1;
    unsigned morph : 1;
    unsigned feedback : 1; /* transform feedback only (no fragment stage) vs shaded */
} gpu_program_key;

typedef struct gpu_program {
    GLuint id;
    GLint palette_base, joint_count, weights_base, target_count, vertex_count, influence_texels;
    GLint view_proj, base_color, has_texture, light_dir;
    GLint uv_row0, uv_row1, emissive, unlit, alpha_mode, alpha_cutoff;
    GLint has_emissive_texture, emissive_row0, emissive_row1;
    GLint material_base, material_copies; /* per-instance animated materials */
} gpu_program;

#define GPU_PROGRAM_CACHE 64

struct ossa_gpu_context {
    EGLDisplay display;
    EGLContext egl;
    EGLSurface surface;
    struct GLFWwindow *window;
    ossa_gpu_info info;
    gpu_program_key keys[GPU_PROGRAM_CACHE];
    gpu_program programs[GPU_PROGRAM_CACHE];
    int program_count;
    GLuint empty_texture; /* a 1-texel buffer texture bound where a program reads no data */
    GLuint empty_buffer;
    /* A complete 1x1 framebuffer: draws (even with rasterizer discard) need one, and a
     * surfaceless context has no default framebuffer. */
    GLuint feedback_framebuffer, feedback_renderbuffer;
    /* Limits the per-instance data is checked against (texels, bytes; 0: no SSBO). */
    GLint64 max_texture_buffer_texels, max_ssbo_bytes;
};

/* A primitive's JOINTS_n/WEIGHTS_n sets on the GPU (see influence_upload.h). */
typedef struct gpu_influences {
    GLuint buffer, texture;     /* RGBA32F texels of two (joint, weight) pairs; 0 when none */
    uint32_t texels_per_vertex; /* vertex v's pairs are at texels [v * it, (v + 1) * it) */
    uint32_t set_count;         /* sets of the source; 0: the primitive is not skinned */
} gpu_influences;

/* How a primitive is shaded (see ossa_model_material). */
typedef struct gpu_material {
    float base_color[4];
    float emissive[3];
    float uv_transform[6];          /* 2x3 rows applied to the texture coordinates */
    float emissive_uv_transform[6]; /* the same for the emissive texture */
    float alpha_cutoff;
    int alpha_mode; /* ossa_alpha_mode */
    int unlit;
    int double_sided; /* single-sided materials cull back faces */
} gpu_material;

/* The material of an ossa_model_material (NULL: glTF's default material). */
void gpu_material_set(gpu_material *out, const ossa_model_material *material);

/* The vertex buffers of a primitive. */
enum { BUF_POSITION, BUF_NORMAL, BUF_UV, BUF_INDEX, GPU_BUFFER_COUNT };

typedef struct gpu_primitive {
    GLuint vao;
    GLuint buffers[GPU_BUFFER_COUNT];       /* by BUF_*; influences: gpu_influences */
    GLuint targets_buffer, targets_texture; /* 2 RGBA32F texels per target and vertex */
    gpu_influences influences;
    uint32_t vertex_count, index_count;
    gpu_material material;
    GLuint texture;          /* owned by the mesh's texture table, 0 when none */
    GLuint emissive_texture; /* the same */
} gpu_primitive;

struct ossa_gpu_mesh {
    ossa_gpu_context *context;
    gpu_primitive *primitives;
    uint32_t primitive_count;
    uint32_t target_count;
    GLuint *textures; /* one per document texture, 0 until used */
    uint32_t texture_count;
};

struct ossa_gpu_frame_data {
    ossa_gpu_context *context;
    GLuint palette_buffer, palette_texture;
    GLuint weights_buffer, weights_texture;
    GLuint material_buffer, material_texture; /* GPU_MATERIAL_TEXELS per instance and material */
};

/* Texels (RGBA32F) of one instance's animated material: base colour; emissive and alpha cutoff;
 * the base colour texture's transform rows; the emissive texture's. */
#define GPU_MATERIAL_TEXELS 6

/* Where a draw finds per-instance material values: texel `base` + (instance / copies) *
 * GPU_MATERIAL_TEXELS of the frame's materials; base -1: the primitive's own material. */
typedef struct gpu_instance_materials {
    int32_t base;
    uint32_t copies;
} gpu_instance_materials;

/* Makes the frame's buffers and buffer textures (empty) / deletes them. */
void gpu_frame_data_init(ossa_gpu_frame_data *frame, ossa_gpu_context *context);
void gpu_frame_data_release(ossa_gpu_frame_data *frame);

/* Draws one primitive shaded with the renderer's camera and light (no-op for points/lines). */
void gpu_renderer_draw_primitive(ossa_gpu_renderer *renderer, const gpu_primitive *primitive,
                                 uint32_t target_count, const ossa_gpu_frame_data *frame,
                                 const ossa_gpu_skinning *skinning,
                                 const gpu_instance_materials *materials);

/* Skins one primitive by transform feedback: instances x vertices positions and normals. */
ossa_result gpu_feedback_primitive(ossa_gpu_context *context, const gpu_primitive *primitive,
                                   uint32_t target_count, const ossa_gpu_frame_data *frame,
                                   const ossa_gpu_skinning *skinning, float *positions,
                                   float *normals, ossa_error *error);

/* Finds or compiles a program variant; NULL (with error filled) if it does not compile. */
const gpu_program *gpu_program_get(ossa_gpu_context *context, gpu_program_key key,
                                   ossa_error *error);

/* Links the flat-colour line program of the ground grid; 0 (with error filled) on failure. */
GLuint gpu_link_grid_program(ossa_error *error);

/* Deletes every cached program. */
void gpu_programs_release(ossa_gpu_context *context);

/* Binds the frame's palette and weights, the primitive's targets, and sets the uniforms. */
void gpu_bind_skinning(const ossa_gpu_context *context, const gpu_program *program,
                       const gpu_primitive *primitive, const ossa_gpu_frame_data *frame,
                       const ossa_gpu_skinning *skinning, uint32_t target_count);

/* The program key for a primitive drawn with the given skinning options. */
gpu_program_key gpu_key_for(const gpu_primitive *primitive, const ossa_gpu_skinning *skinning,
                            uint32_t target_count, int feedback);

/* Fills an ossa_error with code, the layer's name as file, and a formatted message. */
ossa_result gpu_fail(ossa_error *error, ossa_result code, const char *format, ...);

#endif
