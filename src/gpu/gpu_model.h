/* Private structures of GPU models and their instances. */
#ifndef OSSA_GPU_MODEL_H
#define OSSA_GPU_MODEL_H

#include "gpu_internal.h"

#define GPU_NO_SECTION UINT32_MAX

/* One palette per instance: a skin's joints, or the world matrix of an unskinned node (one per
 * static instance of the node: world * instance k, see ossa_model_node_instances). A node's
 * "CPU" section holds world * instance k * world^-1: what moves its vertices skinned on the CPU
 * (already in world space) to instance k. */
typedef struct gpu_palette_section {
    int32_t skin;           /* glTF skin, -1: the world matrix of `node` */
    int32_t node;           /* rig node (unskinned sections) */
    int cpu;                /* the CPU-skinned variant of an instanced node's section */
    uint32_t joint_count;   /* joints per instance (the static instances of an unskinned node) */
    uint32_t offset;        /* joints of the sections before it, per instance */
    const float *instances; /* static instances (joint_count of them), NULL: none */
} gpu_palette_section;

/* One set of morph weights per instance: a node's weights in ossa_character_weights, repeated
 * for each static instance of the node. */
typedef struct gpu_weight_section {
    uint32_t source;  /* first weight in ossa_character_weights */
    uint32_t targets; /* weights of the node */
    uint32_t count;   /* targets * copies */
    uint32_t offset;  /* weights of the sections before it, per instance */
} gpu_weight_section;

typedef struct gpu_model_primitive {
    gpu_primitive gl;
    uint32_t target_count;
    uint32_t palette_section;
    uint32_t cpu_section;    /* GPU_NO_SECTION unless its node is instanced */
    uint32_t weight_section; /* GPU_NO_SECTION without morph targets */
    uint32_t copies;         /* static instances drawn per character (1 when not instanced) */
    int32_t material_slot;   /* its material's in slot_materials, -1 when not animated */
} gpu_model_primitive;

struct ossa_gpu_model {
    ossa_gpu_context *context;
    const ossa_model *model;
    gpu_model_primitive *primitives;
    uint32_t primitive_count;
    gpu_palette_section *palettes;
    uint32_t palette_count;
    gpu_weight_section *weights;
    uint32_t weight_count;
    uint32_t joints_per_instance; /* every section, plus the placement joint (last) */
    uint32_t weights_per_instance;
    GLuint *textures; /* one per distinct material and image (base colour, emissive), owned here */
    int32_t *texture_materials;
    uint32_t texture_count;
    /* the animated materials (ossa_model_material_animated) its primitives draw, uploaded per
     * instance by ossa_gpu_instances_upload */
    int32_t *slot_materials;
    uint32_t material_slot_count;
};

struct ossa_gpu_instances {
    const ossa_gpu_model *model;
    ossa_gpu_frame_data frame;
    uint32_t count;
};

/* Uploads one primitive of a model from its decoded streams into p (fills error on failure). */
ossa_result gpu_model_upload_primitive(const ossa_model *model, uint32_t index,
                                       const ossa_gpu_model_desc *desc, gpu_primitive *p,
                                       ossa_error *error);

#endif
