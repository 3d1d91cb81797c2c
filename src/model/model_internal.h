/* The model's layout (model.h), shared by its build, its characters and its crowds. */
#ifndef OSSA_MODEL_INTERNAL_H
#define OSSA_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/model.h"
#include "rig/owned.h"

/* Where each part of a character lives, as byte offsets from the character's start. */
typedef struct character_layout {
    size_t local, weights, cursor, world, palettes, dual_quats, materials, size;
    uint32_t cursor_capacity; /* the largest cursor of any clip */
    uint32_t palette_joints;  /* joints of every skin, one after another */
} character_layout;

/* The decoded data of one drawn primitive: streams plus the CPU-prepared mesh. */
typedef struct model_primitive {
    ossa_model_primitive info;
    ossa_model_streams streams;
    ossa_skin_mesh *skin_mesh; /* NULL when the desc skipped CPU skinning */
} model_primitive;

struct ossa_model {
    ossa_owned owned; /* every block below except rig, clips and the skin meshes */
    ossa_allocator allocator;
    char *file;
    ossa_rig *rig;
    ossa_clip_set *clips;
    model_primitive *primitives;
    uint32_t primitive_count;
    uint32_t max_vertex_count;
    ossa_model_material *materials; /* indexed by glTF material */
    uint32_t material_count;
    float **node_instances;        /* per rig node: 12 floats per static instance, or NULL */
    uint32_t *node_instance_count; /* per rig node: EXT_mesh_gpu_instancing copies, 0: none */
    uint32_t *palette_offset;      /* first joint of each skin in the character's palettes */
    int dual_quaternions;
    /* Animated materials (character_material.c), NULL when no clip animates one: per material
     * 1 when some clip animates it, and the document's values in a character's layout. */
    uint8_t *material_animated;
    float *material_rest;
    float size; /* rest-pose bounding box diagonal of nodes and vertices (set with compact clips) */
    character_layout layout;
};

/* Decodes the streams of primitive `primitive` of mesh `mesh` into memory of `owned`. */
ossa_result ossa_model_decode_primitive(const ossa_document *document, uint32_t mesh,
                                        uint32_t primitive, ossa_owned *owned,
                                        ossa_model_streams *streams, ossa_error *error);

/* Builds the CPU skinning mesh of a decoded primitive with the allocator of `owned` (which also
 * keeps its small descriptor arrays). */
ossa_result ossa_model_prepare_skin_mesh(const ossa_model_primitive *info,
                                         const ossa_model_streams *streams, ossa_owned *owned,
                                         ossa_skin_mesh **out, ossa_error *error);

/* Replaces the model's clips by their compact form (model_compact.c), within desc's budget. */
ossa_result ossa_model_compact_clips(ossa_model *model, const ossa_model_desc *desc,
                                     ossa_error *error);

/* Sets the character layout of a built model; OSSA_ERROR_LIMIT when it passes SIZE_MAX. */
ossa_result ossa_model_layout_characters(ossa_model *model, ossa_error *error);

/* Update of one character whose inputs were checked. */
void ossa_character_update_checked(ossa_character *character, const ossa_clip *clip, double clock,
                                   ossa_wrap wrap);

/* The update's first part: the pose (and animated materials) alone, without FK or palettes. */
void ossa_character_sample_checked(ossa_character *character, const ossa_clip *clip, double clock,
                                   ossa_wrap wrap);

/* ossa_character_finish of 1-4 characters of one model, their FK and palettes together
 * (ossa_fk_palettes_world_many). */
void ossa_character_finish_four(ossa_character *const *characters, uint32_t count);

/* Floats of one material's animated values in a character (character_material.c). */
#define MATERIAL_STATE_FLOATS 19

/* Sets model->material_animated and material_rest from the document's pointer channels. */
ossa_result ossa_model_build_material_state(ossa_model *model, const ossa_document *doc,
                                            ossa_error *error);

/* A character's material values for `count` clips at their clip times (later clips win; the
 * document's values where none animates them); nothing when the model animates no material.
 * NULL clips and clips of other models are skipped. */
void ossa_model_sample_materials(const ossa_model *model, const ossa_clip *const *clips,
                                 const float *times, uint32_t count, float *state);

/* A character's material values (MATERIAL_STATE_FLOATS per material), NULL without. */
const float *ossa_character_material_state(const ossa_character *character);

/* Fills an error (code, the model's file, path, message). Returns code. */
ossa_result ossa_model_fail(ossa_error *error, ossa_result code, const char *file, const char *path,
                            const char *message);

#endif
