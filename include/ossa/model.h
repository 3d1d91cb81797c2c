/**
 * @file model.h
 * @brief The runtime API: a model built once from a document, characters that play it, crowds
 * updated over a thread pool.
 *
 * A model (::ossa_model) holds everything read-only a program needs to animate and draw a
 * document: its rig, its clips, and every primitive that a node draws, decoded (vertex streams,
 * influences, morph targets, indices, base colour) and prepared for the CPU skinning kernels.
 * The document may be freed once the model is built. A model never changes afterwards, so any
 * number of threads may use it at once.
 *
 * A character (::ossa_character) is the per-instance state of one animated copy of a model: its
 * pose, sampling cursors, the world matrix of every node, the palette of every skin and its morph
 * weights, in one block laid out by the library. The caller either asks for its size and
 * alignment and passes memory (::ossa_character_init), or lets the library allocate it with the
 * model's allocator (::ossa_character_create).
 *
 * A frame is: ::ossa_character_update (sample a clip at a clock, forward kinematics, every
 * palette), then read the results or skin primitives into caller buffers with
 * ::ossa_character_skin. ::ossa_characters_update does the first step for many characters at
 * once over a thread pool. None of these allocate. They check their inputs (a clip of another
 * model, a buffer too small, a primitive out of range, dual quaternions that were not asked
 * for) and return ::OSSA_ERROR_ARGUMENT with a message instead of writing out of bounds; with
 * valid inputs they cannot fail.
 *
 * Palettes are world-space: `jointMatrix_j = world(joint_j) * IBM_j` (3x4 rows, 12 floats per
 * joint, the skin's joint order), so skinned vertices come out in world space, where glTF puts
 * them (the skinned mesh node's own transform is ignored). Unskinned primitives are transformed
 * by their node's world matrix.
 */
#ifndef OSSA_MODEL_H
#define OSSA_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "clip.h"
#include "document.h"
#include "result.h"
#include "rig.h"
#include "sample.h"
#include "skin.h"
#include "thread_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A model: rig, clips and prepared primitives (opaque, read-only once built). */
typedef struct ossa_model ossa_model;

/** How to build a model. Zero-initialised means the defaults. */
typedef struct ossa_model_desc {
    /** Every allocation of the model and of characters it creates; zero means malloc/free. It
     *  must outlive the model and its characters. */
    ossa_allocator allocator;
    /** 1: characters also keep the dual quaternion table of every skin (12 floats per joint, see
     *  ::ossa_skin_dual_quats), refreshed by each update, for ::OSSA_SKIN_DQS skinning. */
    int dual_quaternions;
    /** 1: do not prepare primitives for CPU skinning (a program that only draws on the GPU). */
    int skip_cpu_skinning;
    /** 1: the model's clips are compact (::ossa_clip_is_compact): keys reduced and quantized
     *  within a world-space error budget, several times smaller, sampled directly. Characters
     *  play them like plain clips. */
    int compact_clips;
    /** Compact clips' error budget: the largest distance any node or skinned vertex may move,
     *  in model units. 0: 1e-4 of the model size (0.1 mm per metre), the model size being the
     *  diagonal of the bounding box of every node and every vertex (skinned) in the rest pose
     *  (1 for a model without extent).
     *  Negative or not finite: ossa_model_create refuses the desc. */
    float compact_error;
} ossa_model_desc;

/**
 * Builds a model from a loaded document.
 * @param desc NULL for the defaults.
 * @return OSSA_ERROR_OUT_OF_MEMORY, or the error of a rig, clip or primitive that cannot be
 *         built (with its JSON path).
 */
ossa_result ossa_model_create(const ossa_document *document, const ossa_model_desc *desc,
                              ossa_model **out, ossa_error *error);

/** Frees a model. Characters of the model must be freed first. NULL is allowed. */
void ossa_model_free(ossa_model *model);

/** The document's file name as given when it was loaded ("" from memory without a name). */
const char *ossa_model_file(const ossa_model *model);

/** The rig: nodes in parent-before-child order, skins, rest pose, morph weight layout. */
const ossa_rig *ossa_model_rig(const ossa_model *model);

/** Number of clips (one per glTF animation, glTF order). */
uint32_t ossa_model_clip_count(const ossa_model *model);

/** Clip `index` (glTF animation index), NULL when out of range. */
const ossa_clip *ossa_model_clip(const ossa_model *model, uint32_t index);

/** Index of the first clip with this name, -1 when none has it. */
int32_t ossa_model_find_clip(const ossa_model *model, const char *name);

/** Rig node of the node with this name; -1 when no node has it, -2 when several do. */
int32_t ossa_model_find_node(const ossa_model *model, const char *name);

/* ---------------------------------------------------------------------------------------- */

/** One primitive as drawn by one node (a mesh drawn by two nodes gives two entries). */
typedef struct ossa_model_primitive {
    int32_t node;           /**< rig node that draws it */
    uint32_t mesh;          /**< glTF mesh index */
    uint32_t primitive;     /**< primitive index within the mesh */
    int32_t skin;           /**< glTF skin index, -1 when unskinned */
    uint32_t joint_count;   /**< joints of the skin (0 when unskinned) */
    uint32_t vertex_count;  /**< vertices of the primitive */
    uint32_t index_count;   /**< indices (0: not indexed) */
    uint32_t mode;          /**< glTF primitive mode (4 = triangles) */
    uint32_t target_count;  /**< morph targets */
    uint32_t weight_offset; /**< first of its morph weights in ::ossa_character_weights */
    uint32_t set_count;     /**< JOINTS_n / WEIGHTS_n sets (4 influences each) */
    int has_normals, has_tangents, has_texcoords;
    int32_t material; /**< glTF material index, -1 for the default material */
    /** Static copies its node draws (EXT_mesh_gpu_instancing, see ::ossa_model_node_instances);
     *  0: drawn once, as is (also every primitive of a node with a skin). The streams and
     *  ::ossa_character_skin give the one copy without its instance transforms. */
    uint32_t instance_count;
} ossa_model_primitive;

/** Decoded vertex data of a primitive, in the original vertex order; NULL where absent. */
typedef struct ossa_model_streams {
    const float *positions; /**< 3 floats per vertex */
    const float *normals;   /**< 3 floats per vertex */
    const float *tangents;  /**< 4 floats per vertex */
    const float *texcoords; /**< TEXCOORD_0, 2 floats per vertex */
    /** The TEXCOORD_n its material's textures read (ossa_model_material::texcoord),
     *  2 floats per vertex: texcoords itself when n is 0; NULL when the primitive lacks it. */
    const float *material_texcoords;
    /** 4 * set_count joints per vertex (set 0's four, then set 1's, ...) */
    const uint16_t *joints;
    /** weights as decoded (normalized integers per the spec), not renormalised; same layout */
    const float *weights;
    /** per target t: target_positions + 3 * vertex_count * t (displacements; NULL: none) */
    const float *target_positions;
    const float *target_normals;
    const float *target_tangents; /**< xyz displacements */
    const uint32_t *indices;      /**< index_count indices, NULL when not indexed */
} ossa_model_streams;

/** A material as the renderer draws it. */
typedef struct ossa_model_material {
    float base_color[4];
    /** The base colour texture's encoded image (PNG or JPEG bytes), NULL without one. */
    const uint8_t *image;
    size_t image_size;
    const char *image_mime; /**< "image/png" or "image/jpeg", NULL without an image */
    /** Emitted light, linear RGB: emissiveFactor times KHR_materials_emissive_strength (may
     *  exceed 1); added to the shaded colour. */
    float emissive[3];
    int unlit;        /**< KHR_materials_unlit: drawn as its base colour, without lighting */
    int double_sided; /**< both faces drawn; single-sided materials cull back faces */
    ossa_alpha_mode alpha_mode;
    float alpha_cutoff; /**< MASK: alpha below it is discarded (0.5 by default) */
    /** TEXCOORD_n its textures read: the base colour texture's, else the emissive texture's (0
     *  without either). */
    uint32_t texcoord;
    /** The base colour texture's KHR_texture_transform as a 2x3 row matrix M:
     *  uv' = (M[0] u + M[1] v + M[2], M[3] u + M[4] v + M[5]); the identity without one. */
    float uv_transform[6];
    /** The emissive texture's encoded image (PNG or JPEG), which multiplies emissive; NULL
     *  without one, or when it reads another TEXCOORD set than `texcoord` (then not drawn). */
    const uint8_t *emissive_image;
    size_t emissive_image_size;
    const char *emissive_image_mime;
    float emissive_uv_transform[6]; /**< its KHR_texture_transform, as uv_transform */
} ossa_model_material;

/** Number of primitives drawn by nodes of the model. */
uint32_t ossa_model_primitive_count(const ossa_model *model);

/** Primitive `index`, NULL when out of range. */
const ossa_model_primitive *ossa_model_primitive_info(const ossa_model *model, uint32_t index);

/** The decoded streams of primitive `index`; zeroed when out of range. */
ossa_model_streams ossa_model_primitive_streams(const ossa_model *model, uint32_t index);

/** The CPU-prepared mesh of primitive `index`, NULL when out of range or skipped (see desc). */
const ossa_skin_mesh *ossa_model_skin_mesh(const ossa_model *model, uint32_t index);

/** Material `index` (glTF index; -1 gives the default material: white, no image). */
ossa_model_material ossa_model_material_info(const ossa_model *model, int32_t index);

/**
 * 1 when a clip of the model animates material `index` (glTF index) through
 * KHR_animation_pointer: its base colour, emissive factor or strength, alpha cutoff or texture
 * transforms; then ::ossa_character_material gives each character's values. 0 otherwise.
 */
int ossa_model_material_animated(const ossa_model *model, int32_t index);

/**
 * The static instances of rig node `node` (EXT_mesh_gpu_instancing): 12 floats (3x4 rows) per
 * instance, T * R * S of its TRANSLATION, ROTATION (normalised) and SCALE. Instance k of the
 * node's unskinned primitives is drawn at world(node) * instance k. *count receives their number;
 * NULL with *count 0 when the node is not instanced or out of range.
 */
const float *ossa_model_node_instances(const ossa_model *model, uint32_t node, uint32_t *count);

/** Vertex count of the largest primitive (size a shared output buffer with it). */
uint32_t ossa_model_max_vertex_count(const ossa_model *model);

/* ---------------------------------------------------------------------------------------- */

/** One animated instance of a model (opaque). */
typedef struct ossa_character ossa_character;

/** Bytes a character of this model needs (for ::ossa_character_init). */
size_t ossa_character_size(const ossa_model *model);

/** Alignment a character's memory needs (a power of two, 64). */
size_t ossa_character_alignment(void);

/**
 * Lays out a character in caller memory and sets it to the rest pose (world matrices and
 * palettes computed). The memory must stay valid while the character is used; nothing needs
 * freeing.
 * @return OSSA_ERROR_ARGUMENT when memory is NULL, misaligned or smaller than
 *         ::ossa_character_size.
 */
ossa_result ossa_character_init(const ossa_model *model, void *memory, size_t size,
                                ossa_character **out, ossa_error *error);

/** Allocates a character with the model's allocator and initialises it (rest pose). */
ossa_result ossa_character_create(const ossa_model *model, ossa_character **out, ossa_error *error);

/** Frees a character made by ::ossa_character_create. NULL is allowed. */
void ossa_character_free(ossa_character *character);

/** The model of a character. */
const ossa_model *ossa_character_model(const ossa_character *character);

/**
 * Plays a clip: samples it at the clip time of `clock` (see ::ossa_clip_time), then runs
 * forward kinematics and every palette (and dual quaternion table when the model asked for
 * them). Sequential clocks use the character's cursor (O(1) key search); any clock is allowed.
 * @param clip a clip of the character's model, or NULL for the rest pose.
 * @return OSSA_ERROR_ARGUMENT when the character is NULL, the wrap is not an ::ossa_wrap value or
 *         the clip belongs to another model.
 */
ossa_result ossa_character_update(ossa_character *character, const ossa_clip *clip, double clock,
                                  ossa_wrap wrap, ossa_error *error);

/**
 * The character's pose, for programs that write it themselves (mixing, IK, procedural
 * animation): change it, then call ::ossa_character_finish.
 */
ossa_pose *ossa_character_pose(ossa_character *character);

/** Forward kinematics and palettes from the current pose (what update does after sampling). */
void ossa_character_finish(ossa_character *character);

/** World matrices, 12 floats (3x4 rows) per rig node. */
const float *ossa_character_world(const ossa_character *character);

/** World-space palette of glTF skin `skin` (12 floats per joint), NULL when out of range. */
const float *ossa_character_palette(const ossa_character *character, uint32_t skin);

/** Dual quaternion table of skin `skin` (12 floats per joint, see ::ossa_skin_dual_quats);
 *  NULL when the model was built without them or out of range. */
const float *ossa_character_dual_quats(const ossa_character *character, uint32_t skin);

/**
 * Material `index` as this character draws it: ::ossa_model_material_info with the values the
 * clip of the last ::ossa_character_update sets at its time (base colour, emissive, alpha
 * cutoff, texture transforms: the clip's material float tracks; values no track of the clip
 * animates, and every value after an update with no clip, are the document's). Materials no clip
 * animates (::ossa_model_material_animated) are the model's. Allocates nothing.
 */
ossa_model_material ossa_character_material(const ossa_character *character, int32_t index);

/**
 * For programs that write the pose themselves (::ossa_character_pose, several clips at once):
 * sets the character's animated material values from `count` clips at their clip times `times`
 * (a later clip's track wins; values no clip animates are the document's). NULL entries and
 * clips of other models are skipped. Allocates nothing; nothing to do for models whose clips
 * animate no material.
 */
void ossa_character_sample_materials(ossa_character *character, const ossa_clip *const *clips,
                                     const float *times, uint32_t count);

/** Morph weights of the pose, ossa_rig::weight_total floats (see ossa_rig::weight_offset). */
const float *ossa_character_weights(const ossa_character *character);

/**
 * Morphs and skins primitive `primitive` of the model (see ::ossa_model_primitive_info) into
 * caller buffers in world space, original vertex order. Unskinned primitives are morphed and
 * transformed by their node's world matrix.
 * @param vertex_capacity vertices each non-NULL output stream can hold.
 * @return OSSA_ERROR_ARGUMENT for a primitive out of range or skipped, outputs smaller than the
 *         primitive, or DQS without dual quaternions in the model.
 */
ossa_result ossa_character_skin(const ossa_character *character, uint32_t primitive,
                                ossa_skin_mode mode, const ossa_skin_output *output,
                                size_t vertex_capacity, ossa_error *error);

/**
 * Updates many characters, each with its own clip and clock, on a thread pool (NULL: the
 * calling thread). Same results as ::ossa_character_update on each, bit for bit. Every input is
 * checked before any character changes. Characters of one model next to each other in the
 * array go through forward kinematics and palettes four at a time
 * (::ossa_fk_palettes_world_many), so a crowd ordered by model updates fastest.
 * @param clips count clips (NULL entries: rest pose), or NULL for the rest pose everywhere.
 * @param clocks count clocks.
 * @return OSSA_ERROR_ARGUMENT (no character changed) for NULL arrays, a NULL character, a clip of
 *         another model than its character's, or a wrap that is not an ::ossa_wrap value.
 */
ossa_result ossa_characters_update(ossa_character *const *characters, uint32_t count,
                                   const ossa_clip *const *clips, const double *clocks,
                                   ossa_wrap wrap, ossa_thread_pool *pool, ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif
