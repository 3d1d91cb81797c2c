/* The spaces the IK jobs solve in: a node's parent space, from the character's world matrices. */
#ifndef OSSA_IK_SPACE_H
#define OSSA_IK_SPACE_H

#include "ik/ik_math.h"
#include "ossa/rig.h"

/* World matrix of a rig node, in double. */
static inline ik_affine ik_world(const float *world, int32_t node) {
    return ik_affine_from_floats(world + 12 * (size_t)node);
}

/* World matrix of a node's parent (the identity for a root). */
static inline ik_affine ik_parent_world(const ossa_rig *rig, const float *world, int32_t node) {
    int32_t parent = rig->parent[node];
    return parent < 0 ? ik_affine_identity() : ik_world(world, parent);
}

#endif
