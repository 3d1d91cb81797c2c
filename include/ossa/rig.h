/**
 * @file rig.h
 * @brief The runtime rig: every node of a document in parent-before-child order, rest
 * transforms, skins and default morph weights, as flat read-only arrays.
 *
 * A rig is built once from an ::ossa_document and never changes afterwards, so any number of
 * threads may read it at once. It does not refer to the document: the document may be freed.
 *
 * Rig order: every glTF node appears exactly once (also nodes that no scene lists), and
 * `parent[i] < i` for every node (`-1` for roots), so one forward pass over the arrays visits
 * parents before children. Within that rule nodes follow a depth-first walk of the glTF
 * hierarchy (roots and children in glTF order), which keeps chains of joints adjacent.
 *
 * Nodes given by a `matrix`: the matrix is decomposed into translation, rotation and scale
 * (a negative determinant negates the x scale). When T * R * S rebuilt from that decomposition
 * differs from the matrix by more than 1e-5 of the matrix's largest linear entry (shear or
 * non-orthogonal axes, which TRS cannot express) the node is marked `fixed`: forward kinematics
 * then uses the original matrix for that node and ignores its pose TRS. The spec forbids
 * animating nodes that have a matrix, so this loses nothing on valid files.
 */
#ifndef OSSA_RIG_H
#define OSSA_RIG_H

#include <stdint.h>

#include "document.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A local transform: translation, rotation quaternion (x, y, z, w) and scale. */
typedef struct ossa_trs {
    float translation[3];
    float rotation[4];
    float scale[3];
} ossa_trs;

/** One skin of the rig. */
typedef struct ossa_rig_skin {
    uint32_t joint_count;
    const int32_t *joints;     /**< rig node of each joint, in the skin's joint order */
    const float *inverse_bind; /**< 12 floats (3x4 rows) per joint; identity when absent */
    uint32_t mesh_node_count;  /**< rig nodes that have a mesh and use this skin */
    const int32_t *mesh_nodes;
} ossa_rig_skin;

/** The runtime rig. All arrays are indexed by rig node unless said otherwise. */
typedef struct ossa_rig {
    uint32_t node_count;
    const int32_t *parent;        /**< parent rig node, -1 for roots; parent[i] < i */
    const int32_t *gltf_from_rig; /**< glTF node index of each rig node */
    const int32_t *rig_from_gltf; /**< rig node of each glTF node (indexed by glTF index) */
    const char *const *names;     /**< node names; NULL entries for unnamed nodes */
    const ossa_trs *rest;         /**< rest local transform (rotations normalised) */
    const uint8_t *fixed;         /**< 1: the node's local transform is fixed_local (see above) */
    const float *fixed_local;     /**< 12 floats per node; meaningful where fixed[i] is 1 */
    const int32_t *mesh;          /**< glTF mesh index, -1 without a mesh */
    const int32_t *skin;          /**< skin index, -1 without a skin */

    /** Morph weights: node i owns weight_count[i] floats at weight_offset[i] of a weight array
     *  of weight_total floats (0 for nodes whose mesh has no morph targets). */
    uint32_t weight_total;
    const uint32_t *weight_offset;
    const uint32_t *weight_count;
    const float *rest_weights; /**< node.weights, else mesh.weights, else 0 */

    uint32_t skin_count;
    const ossa_rig_skin *skins; /**< indexed by glTF skin index */
    uint32_t max_joint_count;   /**< largest joint_count of any skin (0 without skins) */
} ossa_rig;

/**
 * Builds the rig of a document.
 * @param allocator may be NULL for malloc/free; it must outlive the rig.
 * @param out receives the rig on success, NULL on failure.
 * @param error filled on failure (out of memory, or a document whose node hierarchy is not a
 *        forest); may be NULL.
 * @return OSSA_ERROR_LIMIT (with the JSON path where the total passed the limit) when a float
 *         array sized by the rig would not be indexable by a uint32_t: 12 * node_count world
 *         floats, weight_total morph weights, or 12 floats per joint of all skins together.
 *         Totals are computed in 64 bits, so they never wrap.
 */
ossa_result ossa_rig_build(const ossa_document *document, const ossa_allocator *allocator,
                           ossa_rig **out, ossa_error *error);

/** Frees a rig. NULL is allowed. */
void ossa_rig_free(ossa_rig *rig);

#ifdef __cplusplus
}
#endif

#endif
