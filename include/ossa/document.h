/**
 * @file document.h
 * @brief The document layer: a faithful, validated view of a glTF 2.0 file and its buffers.
 *
 * A document is loaded from a `.gltf` (external, `data:` or GLB-stored buffers) or `.glb` file,
 * or from memory. Loading validates everything that could make results wrong or memory unsafe
 * and refuses it with an ::ossa_error naming the file and JSON path; what is harmless is
 * accepted and reported as an ::ossa_warning. A loaded document is read-only and owns all of
 * its memory: one call to ::ossa_document_free releases it.
 *
 * Indices into the document's arrays are `int32_t`; -1 means "absent".
 */
#ifndef OSSA_DOCUMENT_H
#define OSSA_DOCUMENT_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Allocator callbacks; all NULL means the C library's malloc/free. */
typedef struct ossa_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} ossa_allocator;

/** Options for loading. Zero-initialised means the defaults. */
typedef struct ossa_load_options {
    ossa_allocator allocator;
    /** Allow buffer/image URIs that are absolute paths or escape the model's folder with "..". */
    int allow_unsafe_paths;
    /** Largest file (the .gltf/.glb itself) accepted; 0 means 1 GiB. */
    uint64_t max_file_bytes;
    /** Largest total of all buffers; 0 means 2 GiB. */
    uint64_t max_buffer_bytes;
    /** Largest element count of any one array or accessor; 0 means 2^28. */
    uint64_t max_elements;
    /** Name used in messages when loading from memory (e.g. "Fox.glb"); may be NULL. */
    const char *name;
    /** Folder against which relative URIs resolve when loading from memory; NULL: none allowed. */
    const char *base_dir;
    /** Do not read images given by URI (files or data URIs): their `data` stays NULL and a missing
     * file is not warned. For programs that animate and do not draw textures; images stored in a
     * buffer view still point at their bytes. */
    int skip_images;
} ossa_load_options;

typedef enum ossa_component_type {
    OSSA_COMPONENT_BYTE = 5120,
    OSSA_COMPONENT_UNSIGNED_BYTE = 5121,
    OSSA_COMPONENT_SHORT = 5122,
    OSSA_COMPONENT_UNSIGNED_SHORT = 5123,
    OSSA_COMPONENT_UNSIGNED_INT = 5125,
    OSSA_COMPONENT_FLOAT = 5126
} ossa_component_type;

/** Accessor element types; the value is the number of components. */
typedef enum ossa_accessor_type {
    OSSA_TYPE_SCALAR = 1,
    OSSA_TYPE_VEC2 = 2,
    OSSA_TYPE_VEC3 = 3,
    OSSA_TYPE_VEC4 = 4,
    OSSA_TYPE_MAT2 = 0x104, /**< 4 components (column-aligned in the buffer) */
    OSSA_TYPE_MAT3 = 0x109, /**< 9 components (column-aligned in the buffer) */
    OSSA_TYPE_MAT4 = 0x110  /**< 16 components */
} ossa_accessor_type;

/**
 * A buffer's bytes. A buffer without uri outside a GLB (a placeholder) reads as byte_length zero
 * bytes, and accessors on it are not validated (both with a warning); a buffer whose uri cannot be
 * loaded is refused unless no buffer view uses it (then: warning, data NULL, byte_length 0).
 */
typedef struct ossa_buffer {
    const uint8_t *data; /**< byte_length bytes (NULL only when byte_length is 0) */
    uint64_t byte_length;
    char *uri; /**< as written, or NULL (GLB-stored) */
} ossa_buffer;

typedef struct ossa_buffer_view {
    int32_t buffer;
    uint64_t byte_offset;
    uint64_t byte_length;
    uint32_t byte_stride; /**< 0 when not given (tightly packed) */
    uint32_t target;      /**< 34962 ARRAY_BUFFER, 34963 ELEMENT_ARRAY_BUFFER, 0 absent */
} ossa_buffer_view;

typedef struct ossa_accessor_sparse {
    uint32_t count; /**< 0: the accessor is not sparse */
    int32_t indices_buffer_view;
    uint64_t indices_byte_offset;
    ossa_component_type indices_component_type; /**< UNSIGNED_BYTE, _SHORT or _INT */
    int32_t values_buffer_view;
    uint64_t values_byte_offset;
} ossa_accessor_sparse;

typedef struct ossa_accessor {
    char *name;
    int32_t buffer_view; /**< -1: all zeros (then sparse values, if any); like the Khronos
                              validator, the values of such accessors are not validated */
    uint64_t byte_offset;
    ossa_component_type component_type;
    int normalized;
    uint64_t count;
    ossa_accessor_type type;
    uint32_t components; /**< 1, 2, 3, 4, 4, 9 or 16 */
    int has_min_max;
    float min[16], max[16];
    ossa_accessor_sparse sparse;
} ossa_accessor;

typedef enum ossa_semantic {
    OSSA_SEMANTIC_POSITION,
    OSSA_SEMANTIC_NORMAL,
    OSSA_SEMANTIC_TANGENT,
    OSSA_SEMANTIC_TEXCOORD,
    OSSA_SEMANTIC_COLOR,
    OSSA_SEMANTIC_JOINTS,
    OSSA_SEMANTIC_WEIGHTS,
    OSSA_SEMANTIC_CUSTOM /**< application-specific, name starting with '_' */
} ossa_semantic;

typedef struct ossa_attribute {
    char *name; /**< as written, e.g. "TEXCOORD_0" */
    ossa_semantic semantic;
    uint32_t set; /**< the _n of TEXCOORD_n, COLOR_n, JOINTS_n, WEIGHTS_n; 0 otherwise */
    int32_t accessor;
} ossa_attribute;

/** One morph target of a primitive: displacement accessors, -1 where absent. */
typedef struct ossa_morph_target {
    int32_t position;
    int32_t normal;
    int32_t tangent;
} ossa_morph_target;

typedef enum ossa_primitive_mode {
    OSSA_MODE_POINTS = 0,
    OSSA_MODE_LINES = 1,
    OSSA_MODE_LINE_LOOP = 2,
    OSSA_MODE_LINE_STRIP = 3,
    OSSA_MODE_TRIANGLES = 4,
    OSSA_MODE_TRIANGLE_STRIP = 5,
    OSSA_MODE_TRIANGLE_FAN = 6
} ossa_primitive_mode;

typedef struct ossa_primitive {
    ossa_primitive_mode mode;
    int32_t indices; /**< -1: not indexed */
    int32_t material;
    ossa_attribute *attributes;
    uint32_t attribute_count;
    ossa_morph_target *targets;
    uint32_t target_count;
    /* Shortcuts into attributes (accessor indices, -1 absent). */
    int32_t position, normal, tangent, texcoord0, color0;
    uint32_t influence_sets; /**< number of JOINTS_n/WEIGHTS_n pairs (n = 0..influence_sets-1) */
    int32_t *joints;         /**< influence_sets accessor indices */
    int32_t *weights;        /**< influence_sets accessor indices */
    uint64_t vertex_count;   /**< count of the POSITION accessor (0 without POSITION) */
} ossa_primitive;

typedef struct ossa_mesh {
    char *name;
    ossa_primitive *primitives;
    uint32_t primitive_count;
    float *weights; /**< default morph weights, weight_count of them (may be NULL) */
    uint32_t weight_count;
    uint32_t target_count; /**< morph targets per primitive (the same for all of them) */
} ossa_mesh;

typedef struct ossa_node {
    char *name;
    int32_t parent; /**< computed: -1 for roots */
    int32_t *children;
    uint32_t child_count;
    int32_t mesh, skin, camera;
    int has_matrix;
    float matrix[16];     /**< column-major as written; identity if not given */
    float translation[3]; /**< default 0 */
    float rotation[4];    /**< x, y, z, w; default 0,0,0,1 */
    float scale[3];       /**< default 1 */
    float *weights;       /**< node.weights override, or NULL */
    uint32_t weight_count;
    /** EXT_mesh_gpu_instancing: static copies of the node's mesh, each placed by
     *  node world * T * R * S of its instance (accessors validated: TRANSLATION VEC3 float,
     *  ROTATION VEC4 float or normalized byte/short, SCALE VEC3 float, equal counts, finite
     *  values, non-zero rotations). instance_count 0: not instanced; absent accessors are -1. */
    uint32_t instance_count;
    int32_t instance_translation, instance_rotation, instance_scale;
} ossa_node;

typedef struct ossa_scene {
    char *name;
    int32_t *nodes;
    uint32_t node_count;
} ossa_scene;

typedef struct ossa_skin {
    char *name;
    int32_t *joints;
    uint32_t joint_count;
    int32_t inverse_bind_matrices; /**< accessor, -1: identity */
    int32_t skeleton;              /**< node, -1 when absent */
} ossa_skin;

typedef enum ossa_path {
    OSSA_PATH_TRANSLATION,
    OSSA_PATH_ROTATION,
    OSSA_PATH_SCALE,
    OSSA_PATH_WEIGHTS
} ossa_path;

typedef enum ossa_interpolation {
    OSSA_INTERP_LINEAR,
    OSSA_INTERP_STEP,
    OSSA_INTERP_CUBICSPLINE
} ossa_interpolation;

typedef struct ossa_animation_sampler {
    int32_t input;  /**< accessor of key times (validated: finite, >= 0, strictly increasing) */
    int32_t output; /**< accessor of key values */
    ossa_interpolation interpolation;
} ossa_animation_sampler;

/**
 * What a KHR_animation_pointer channel animates besides node properties. Pointers to a node's
 * translation, rotation, scale or weights are ordinary channels (node and path set, target
 * OSSA_POINTER_NONE); the others have node -1 and one of these targets. Material, camera and
 * light targets become named float tracks of the clip (::ossa_clip_float_track); a mesh's
 * weights animate the nodes that draw the mesh (see ::ossa_clip_set_build).
 */
typedef enum ossa_pointer_target {
    OSSA_POINTER_NONE = 0,             /**< ordinary or node target, or an ignored pointer */
    OSSA_POINTER_MESH_WEIGHTS,         /**< /meshes/i/weights, one float per morph target */
    OSSA_POINTER_BASE_COLOR,           /**< /materials/i/pbrMetallicRoughness/baseColorFactor */
    OSSA_POINTER_EMISSIVE,             /**< /materials/i/emissiveFactor (3) */
    OSSA_POINTER_EMISSIVE_STRENGTH,    /**< .../KHR_materials_emissive_strength/emissiveStrength */
    OSSA_POINTER_ALPHA_CUTOFF,         /**< /materials/i/alphaCutoff */
    OSSA_POINTER_BASE_COLOR_UV_OFFSET, /**< baseColorTexture's KHR_texture_transform offset (2) */
    OSSA_POINTER_BASE_COLOR_UV_ROTATION, /**< ... rotation (1, radians) */
    OSSA_POINTER_BASE_COLOR_UV_SCALE,    /**< ... scale (2) */
    OSSA_POINTER_EMISSIVE_UV_OFFSET,     /**< emissiveTexture's KHR_texture_transform offset */
    OSSA_POINTER_EMISSIVE_UV_ROTATION,   /**< ... rotation */
    OSSA_POINTER_EMISSIVE_UV_SCALE,      /**< ... scale */
    OSSA_POINTER_CAMERA_YFOV,            /**< /cameras/i/perspective/yfov */
    OSSA_POINTER_CAMERA_ASPECT_RATIO,    /**< /cameras/i/perspective/aspectRatio */
    OSSA_POINTER_CAMERA_ZNEAR,           /**< /cameras/i/perspective/znear or orthographic/znear */
    OSSA_POINTER_CAMERA_ZFAR,            /**< /cameras/i/perspective/zfar or orthographic/zfar */
    OSSA_POINTER_CAMERA_XMAG,            /**< /cameras/i/orthographic/xmag */
    OSSA_POINTER_CAMERA_YMAG,            /**< /cameras/i/orthographic/ymag */
    OSSA_POINTER_LIGHT_COLOR,            /**< /extensions/KHR_lights_punctual/lights/i/color */
    OSSA_POINTER_LIGHT_INTENSITY,        /**< .../lights/i/intensity */
    OSSA_POINTER_LIGHT_RANGE,            /**< .../lights/i/range */
    OSSA_POINTER_LIGHT_SPOT_INNER_ANGLE, /**< .../lights/i/spot/innerConeAngle */
    OSSA_POINTER_LIGHT_SPOT_OUTER_ANGLE  /**< .../lights/i/spot/outerConeAngle */
} ossa_pointer_target;

typedef struct ossa_animation_channel {
    int32_t sampler;
    int32_t node; /**< -1: no target node, or key times without data (the channel is ignored,
                       with a warning) */
    ossa_path path;
    /** KHR_animation_pointer's pointer as written; NULL for an ordinary target. A well-formed
     *  pointer to a property ossa does not model leaves node -1 and target NONE (the channel is
     *  ignored, with a warning naming the pointer). */
    char *pointer;
    ossa_pointer_target pointer_target;
    int32_t pointer_index; /**< the mesh, material, camera or light of pointer_target, else -1 */
} ossa_animation_channel;

typedef struct ossa_animation {
    char *name;
    ossa_animation_channel *channels;
    uint32_t channel_count;
    ossa_animation_sampler *samplers;
    uint32_t sampler_count;
} ossa_animation;

/** KHR_texture_transform of a texture reference: uv' = offset + R(rotation) (scale * uv), where
 *  R(a) maps (u, v) to (u cos a + v sin a, v cos a - u sin a) (counter-clockwise in UV space). */
typedef struct ossa_texture_transform {
    int present;     /**< the extension was given (and is listed in extensionsUsed) */
    float offset[2]; /**< default 0, 0 */
    float rotation;  /**< radians, default 0 */
    float scale[2];  /**< default 1, 1 */
} ossa_texture_transform;

typedef struct ossa_texture_ref {
    int32_t index;     /**< texture, -1 when absent */
    uint32_t texcoord; /**< which TEXCOORD_n (KHR_texture_transform's texCoord when it gives one) */
    ossa_texture_transform transform;
} ossa_texture_ref;

/** How a material's alpha is used (glTF alphaMode). */
typedef enum ossa_alpha_mode {
    OSSA_ALPHA_OPAQUE = 0, /**< alpha ignored (also for an unknown alphaMode, with a warning) */
    OSSA_ALPHA_MASK,       /**< fragments with alpha below alpha_cutoff are discarded */
    OSSA_ALPHA_BLEND       /**< blended over what is behind */
} ossa_alpha_mode;

typedef struct ossa_material {
    char *name;
    float base_color_factor[4];
    ossa_texture_ref base_color_texture;
    int double_sided;
    float emissive_factor[3];          /**< default 0, 0, 0 */
    ossa_texture_ref emissive_texture; /**< -1 index when absent */
    float emissive_strength;           /**< KHR_materials_emissive_strength, 1 by default */
    int unlit;                         /**< KHR_materials_unlit */
    ossa_alpha_mode alpha_mode;
    float alpha_cutoff; /**< default 0.5 */
} ossa_material;

typedef struct ossa_texture {
    int32_t source;  /**< image, -1 when absent */
    int32_t sampler; /**< -1 when absent */
} ossa_texture;

typedef struct ossa_image {
    char *name;
    char *uri;           /**< as written (NULL when stored in a buffer view) */
    char *mime_type;     /**< may be NULL */
    int32_t buffer_view; /**< -1 when given by uri */
    const uint8_t *data; /**< the encoded bytes (PNG/JPEG), NULL when they could not be loaded */
    uint64_t byte_length;
} ossa_image;

/** A loaded glTF document. Read-only; all memory is owned by it. */
typedef struct ossa_document {
    char *file; /**< base name used in messages */
    ossa_buffer *buffers;
    uint32_t buffer_count;
    ossa_buffer_view *buffer_views;
    uint32_t buffer_view_count;
    ossa_accessor *accessors;
    uint32_t accessor_count;
    ossa_node *nodes;
    uint32_t node_count;
    ossa_scene *scenes;
    uint32_t scene_count;
    int32_t scene; /**< the default scene, -1 when absent */
    ossa_mesh *meshes;
    uint32_t mesh_count;
    ossa_skin *skins;
    uint32_t skin_count;
    ossa_animation *animations;
    uint32_t animation_count;
    ossa_material *materials;
    uint32_t material_count;
    ossa_texture *textures;
    uint32_t texture_count;
    ossa_image *images;
    uint32_t image_count;
    char **extensions_used;
    uint32_t extensions_used_count;
    char **extensions_required;
    uint32_t extensions_required_count;
    ossa_warning *warnings;
    uint32_t warning_count;
} ossa_document;

/**
 * Loads a `.gltf` or `.glb` file (the format is told by the content, not the name).
 * @param options may be NULL for the defaults.
 * @param out receives the document on success, NULL on failure.
 * @param error filled on failure; may be NULL.
 */
ossa_result ossa_document_load_file(const char *path, const ossa_load_options *options,
                                    ossa_document **out, ossa_error *error);

/** Loads from memory; the bytes are copied as needed and may be freed after the call. */
ossa_result ossa_document_load_memory(const void *data, size_t size,
                                      const ossa_load_options *options, ossa_document **out,
                                      ossa_error *error);

/** Frees a document and everything it owns. NULL is allowed. */
void ossa_document_free(ossa_document *document);

/**
 * A texture transform as a 2x3 row matrix M: uv' = (M[0] u + M[1] v + M[2], M[3] u + M[4] v +
 * M[5]). NULL or one not present gives the identity.
 */
void ossa_texture_transform_matrix(const ossa_texture_transform *transform, float matrix[6]);

/** Floats per key of a pointer target (4 for a base colour, 1 for a cutoff, ...); for
 *  OSSA_POINTER_MESH_WEIGHTS, 1 per morph target; 0 for OSSA_POINTER_NONE. */
uint32_t ossa_pointer_target_components(ossa_pointer_target target);

/** Bytes per component of a component type (1, 2 or 4); 0 for an unknown type. */
uint32_t ossa_component_size(ossa_component_type type);

/**
 * Decodes elements [first, first + count) of an accessor as floats into out, tightly packed
 * (`components` floats per element). Normalized integers follow the spec
 * (e.g. max(c / 127, -1) for BYTE); other integers convert to their value. Sparse values
 * replace base values; an accessor without a buffer view reads as zeros. Matrix columns are
 * returned without their buffer alignment padding.
 */
ossa_result ossa_accessor_read_float(const ossa_document *document, int32_t accessor,
                                     uint64_t first, uint64_t count, float *out);

/**
 * As ::ossa_accessor_read_float for accessors of unsigned integers (UNSIGNED_BYTE, UNSIGNED_SHORT,
 * UNSIGNED_INT: indices, JOINTS), values as stored, without normalization. Other component types
 * give OSSA_ERROR_ARGUMENT, as do an accessor index or element range outside the accessor.
 */
ossa_result ossa_accessor_read_uint(const ossa_document *document, int32_t accessor, uint64_t first,
                                    uint64_t count, uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif
