/**
 * @file ik.h
 * @brief Inverse kinematics on a posed character: two-bone chains (legs, arms), aims (a head
 * looking at a target) and chains of aims (spine, neck, head sharing a look-at).
 *
 * IK runs after sampling or mixing and before the final forward kinematics:
 *
 * ```c
 * ossa_character_update(character, clip, clock, OSSA_WRAP_LOOP, NULL); // pose + world
 * ossa_ik_two_bone(character, &left_leg, NULL);  // writes local rotations of hip and knee
 * ossa_ik_aim_chain(character, &look_at, NULL);  // writes local rotations of spine ... head
 * ossa_character_finish(character);              // world matrices and palettes of the result
 * ```
 *
 * A job reads the character's world matrices as last computed (by ::ossa_character_update or
 * ::ossa_character_finish) and writes local rotations into its pose (::ossa_character_pose);
 * nothing else of the pose changes. A pose written by the caller (mixing) needs
 * ::ossa_character_finish before the jobs, so that the world matrices are its own. Two jobs whose
 * joints lie one under the other (an aim of the spine, then a two-bone arm) need
 * ::ossa_character_finish between them; jobs on separate branches (two legs, a head) do not. A
 * chain of aims updates the world transforms it needs between its joints itself.
 *
 * Targets and poles are in world space (the scene root). Each job solves in the space of the
 * parent of the joint it rotates (world matrices inverted in double precision), so the parents'
 * scale, non-uniform included, is handled as follows:
 * - exact under any scale of the ancestors (affine maps keep points, lines and planes): a
 *   two-bone end landing on a reachable target, its middle joint in the plane of start, target
 *   and pole, an out-of-reach chain straight on the line from start to target; an aim's forward
 *   line through the target and, with a zero offset, its forward-up plane through the pole
 *   (under any scale of the aimed joint itself too);
 * - measured in the parent's space, so equal to world space only when the ancestors' scale is
 *   uniform: reach (bone lengths, "out of reach", the soften distance), the twist angle, an aim's
 *   up-versus-pole roll when the offset is off the forward axis, and the angles that weights
 *   scale;
 * - within a two-bone chain, the middle joint's rotation acts through the start joint and the
 *   nodes between start and middle: exact when their scale is uniform (mirrors included),
 *   otherwise computed with the rotation part of their product: the middle joint still lands in
 *   the pole plane, but the end misses the target by what their non-uniform scale distorts
 *   (Fox's and CesiumMan's thighs scaled 1.05 along x: up to 2.5% of the chain's length).
 *
 * Every job checks its inputs (nodes out of range, not a chain, a fixed-matrix node to rotate,
 * weights outside [0, 1] or NaN, zero-length or parallel axes, non-finite vectors) and returns
 * ::OSSA_ERROR_ARGUMENT with a message and the pose untouched; otherwise it cannot fail. Jobs
 * allocate nothing. Weight 0 leaves the pose unchanged bit for bit.
 */
#ifndef OSSA_IK_H
#define OSSA_IK_H

#include <stdint.h>

#include "model.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Two-bone IK: rotates `start` and `middle` so that `end` reaches `target`. `middle` must be a
 * descendant of `start` and `end` of `middle` (rig nodes, e.g. hip, knee, ankle; nodes in
 * between keep their local transforms and ride along).
 *
 * The chain bends in the plane of start, target and pole: the middle joint lies on the pole's
 * side of the start-to-target line, after the pole is turned by `twist` about that line. A
 * reachable target is reached exactly; a target beyond the chain's length gives a straight
 * chain pointing at it; one nearer than |bone1 - bone2| a folded chain pointing at it. The
 * middle joint's bend is a rotation about its current bending axis (the normal of start,
 * middle, end), so a knee keeps bending like a knee; a chain straight within 1e-4 rad has no
 * such axis and bends its middle toward the pole, the start turning without a roll.
 * Bone lengths are those of the current pose. With a bone of zero length nothing is written.
 */
typedef struct ossa_ik_two_bone_job {
    int32_t start, middle, end; /**< rig nodes (see ::ossa_model_find_node) */
    float target[3];            /**< where the end joint should be, world space */
    float pole[3];              /**< direction the middle joint bends toward, world space */
    /** 0: the pose is unchanged; 1: full correction; between, the corrections of both joints
     *  are scaled along their shortest arcs (slerp from the identity). */
    float weight;
    /** Soft reach, in [0, 1]: 0 and 1 disable it. Otherwise, with the chain's length L and
     *  the start-to-target distance d, the end aims at distance d while d <= soften * L, and
     *  beyond at `s + (L - s) (1 - exp(-(d - s) / (L - s)))` with s = soften * L: continuous
     *  with a continuous slope, increasing in d, and below L, so the chain approaches full
     *  extension smoothly instead of snapping straight (the target is then not reached). */
    float soften;
    float twist; /**< radians, turns the bend plane about the start-to-target axis */
} ossa_ik_two_bone_job;

/** Runs a two-bone job on a character's pose (see the file comment for what it reads). */
ossa_result ossa_ik_two_bone(ossa_character *character, const ossa_ik_two_bone_job *job,
                             ossa_error *error);

/**
 * Aim: rotates one joint so that its `forward` axis points at `target`, then rolls it about
 * the joint-to-target axis so that its `up` axis turns toward `pole`.
 *
 * `offset` is a point in the joint's local space (e.g. the eyes relative to the head) that
 * should lie on the aim line: the job turns the joint so that the line through the offset
 * point along `forward` passes through the target. A target nearer the joint than the offset
 * point's distance from the forward axis cannot be aimed at exactly; the job then turns the
 * offset point's direction toward it. The roll puts the part of `up` perpendicular to the
 * joint-to-target axis along the part of the pole perpendicular to it; with a zero offset (or
 * one on the forward axis) the forward-up plane then contains the pole, up on its side.
 */
typedef struct ossa_ik_aim_job {
    int32_t node;     /**< the rig node to rotate */
    float forward[3]; /**< aim axis in the node's local space, non-zero */
    float up[3];      /**< in the node's local space, non-zero, not parallel to forward */
    float offset[3];  /**< a point of the aim line in the node's local space; 0: the joint */
    float target[3];  /**< world space */
    float pole[3];    /**< world-space direction up should turn toward, non-zero */
    float weight;     /**< in [0, 1]: the rotation scaled along its shortest arc */
} ossa_ik_aim_job;

/** Runs an aim job on a character's pose (see the file comment for what it reads). */
ossa_result ossa_ik_aim(ossa_character *character, const ossa_ik_aim_job *job, ossa_error *error);

/**
 * A look-at spread over several joints (spine, neck, head): joint k is aimed with weight
 * weights[k] so that the LAST joint's forward axis (through its offset point) turns toward the
 * target and its up toward the pole, each joint doing a share. Joints run from the first
 * (root-most) to the last; each sees the rotations of the ones before (the world transforms it
 * needs are updated between joints, no full forward kinematics). With weights[count - 1] = 1
 * the last joint aims exactly, whatever the others did; e.g. {0.3, 0.5, 1} spreads a look-at
 * over three joints.
 */
typedef struct ossa_ik_aim_chain_job {
    const int32_t *nodes; /**< count rig nodes, each a descendant of the one before */
    const float *weights; /**< count weights in [0, 1] */
    uint32_t count;       /**< at least 1 */
    float forward[3];     /**< in the last node's local space, as ::ossa_ik_aim_job */
    float up[3];          /**< in the last node's local space */
    float offset[3];      /**< in the last node's local space */
    float target[3];      /**< world space */
    float pole[3];        /**< world space */
} ossa_ik_aim_chain_job;

/** Runs a chain of aims on a character's pose (see the file comment for what it reads). */
ossa_result ossa_ik_aim_chain(ossa_character *character, const ossa_ik_aim_chain_job *job,
                              ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif
