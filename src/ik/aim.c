/* Aim IK and chains of aims (ik.h). Each joint is solved in its parent's space: the shortest
 * rotation that puts the aim line (offset point + forward axis) through the target, then a roll
 * about the joint-to-target axis that brings up toward the pole. A chain carries one affine map
 * (what the joints rotated so far did to everything below them) instead of running FK. */
#include <math.h>
#include <stddef.h>

#include "ik/ik_check.h"
#include "ik/ik_math.h"
#include "ik/ik_space.h"
#include "ossa/ik.h"

/* What a chain of aims shares: the aim frame of the last node and the world-space goal. */
typedef struct aim_goal {
    ik_vec forward, up, offset; /* in the last node's local space */
    ik_vec target, pole;        /* world space */
} aim_goal;

static ossa_result check_axes(const float *forward, const float *up, const float *offset,
                              const float *target, const float *pole, const char *job,
                              ossa_error *error) {
    ossa_result r;
    if ((r = ossa_ik_check_vector(forward, 1, job, "forward axis", error)) ||
        (r = ossa_ik_check_vector(up, 1, job, "up axis", error)) ||
        (r = ossa_ik_check_vector(offset, 0, job, "offset", error)) ||
        (r = ossa_ik_check_vector(target, 0, job, "target", error)) ||
        (r = ossa_ik_check_vector(pole, 1, job, "pole", error)))
        return r;
    ik_vec f = ik_vf(forward), u = ik_vf(up);
    if (ik_length(ik_cross(f, u)) <= 1e-6 * ik_length(f) * ik_length(u))
        return ossa_ik_refuse(error, "%s: the up axis is parallel to the forward axis", job);
    return OSSA_OK;
}

/* The rotation (in the joint's parent space, about the joint) that aims the goal frame, whose
 * node has world matrix `last`, from a joint at world position `joint` whose parent's world
 * matrix has the inverse `inverse`. Returns 0 when nothing can be aimed (a target on the
 * joint). */
static int solve_aim(const aim_goal *goal, const ik_affine *inverse, ik_vec joint,
                     const ik_affine *last, ik_quat *out) {
    ik_affine frame = ik_affine_mul(inverse, last); /* the last node, seen from the parent */
    ik_vec a = ik_affine_point(inverse, joint);
    ik_vec to_target = ik_sub(ik_affine_point(inverse, goal->target), a);
    ik_vec offset = ik_sub(ik_affine_point(&frame, goal->offset), a);
    int ok;
    ik_vec forward = ik_normalize(ik_affine_vector(&frame, goal->forward), 0.0, &ok);
    double r = ik_length(to_target);
    double scale = r + ik_length(offset);
    if (!ok || !(r > IK_EPSILON * scale)) return 0;

    /* the point d = offset + l forward at distance r from the joint (l > 0, the far root of
     * |offset + l forward| = r) is what must turn onto the target */
    double along = ik_dot(offset, forward);
    double disc = along * along - ik_dot(offset, offset) + r * r;
    double l = -along + sqrt(disc > 0.0 ? disc : 0.0);
    ik_vec d = ik_add(offset, ik_scale(forward, l));
    ik_vec d_unit = ik_normalize(d, IK_EPSILON * scale, &ok);
    if (!ok) d_unit = forward;
    ik_vec axis = ik_scale(to_target, 1.0 / r);
    ik_quat q = ik_quat_between(d_unit, axis);

    /* roll about the joint-to-target axis: up's part across it onto the pole's */
    ik_vec up = ik_reject(ik_quat_rotate(q, ik_affine_vector(&frame, goal->up)), axis);
    ik_vec pole = ik_reject(ik_affine_vector(inverse, goal->pole), axis);
    double up_len = ik_length(up), pole_len = ik_length(pole);
    if (up_len > 1e-9 * ik_length(ik_affine_vector(&frame, goal->up)) && pole_len > 0.0) {
        double roll = atan2(ik_dot(ik_cross(up, pole), axis), ik_dot(up, pole));
        q = ik_quat_mul(ik_quat_axis_angle(axis, roll), q);
    }
    *out = q;
    return 1;
}

/* Runs the chain; nodes and weights are checked. */
static void run_chain(ossa_character *character, const int32_t *nodes, const float *weights,
                      uint32_t count, const aim_goal *goal) {
    const ossa_rig *rig = ossa_model_rig(ossa_character_model(character));
    const float *world = ossa_character_world(character);
    ossa_pose *pose = ossa_character_pose(character);
    const int32_t last_node = nodes[count - 1];
    /* moved: what the joints done so far did to the world of every node below them */
    ik_affine moved = ik_affine_identity();
    for (uint32_t k = 0; k < count; k++) {
        if (weights[k] == 0.0f) continue;
        int32_t node = nodes[k];
        ik_affine parent_w = ik_parent_world(rig, world, node), last_w = ik_world(world, last_node);
        ik_affine parent = ik_affine_mul(&moved, &parent_w), last = ik_affine_mul(&moved, &last_w);
        const float *joint = world + 12 * (size_t)node;
        ik_vec at = ik_affine_point(&moved, ik_v(joint[3], joint[7], joint[11]));
        ik_affine inverse;
        ik_quat q;
        /* a parent scaled to zero leaves nothing a rotation could move */
        if (!ik_affine_invert(&parent, &inverse) || !solve_aim(goal, &inverse, at, &last, &q))
            continue;
        q = ik_quat_weighted(q, weights[k]);
        ik_rotate_local(pose->local[node].rotation, q);
        if (k + 1 == count) break;
        /* world' = parent * rotation about the joint (parent space) * parent^-1 * world */
        ik_affine turn = ik_affine_rotation_about(q, ik_affine_point(&inverse, at));
        ik_affine step = ik_affine_mul(&turn, &inverse);
        step = ik_affine_mul(&parent, &step);
        moved = ik_affine_mul(&step, &moved);
    }
}

static aim_goal make_goal(const float *forward, const float *up, const float *offset,
                          const float *target, const float *pole) {
    aim_goal g = {ik_vf(forward), ik_vf(up), ik_vf(offset), ik_vf(target), ik_vf(pole)};
    return g;
}

ossa_result ossa_ik_aim(ossa_character *character, const ossa_ik_aim_job *job, ossa_error *error) {
    static const char *const JOB = "aim IK";
    if (!character || !job) return ossa_ik_refuse(error, "%s: no character or no job", JOB);
    const ossa_rig *rig = ossa_model_rig(ossa_character_model(character));
    ossa_result r;
    if ((r = ossa_ik_check_node(rig, job->node, 1, JOB, "aimed", error)) ||
        (r = ossa_ik_check_unit(job->weight, JOB, "weight", error)) ||
        (r = check_axes(job->forward, job->up, job->offset, job->target, job->pole, JOB, error)))
        return r;
    aim_goal goal = make_goal(job->forward, job->up, job->offset, job->target, job->pole);
    run_chain(character, &job->node, &job->weight, 1, &goal);
    return OSSA_OK;
}

ossa_result ossa_ik_aim_chain(ossa_character *character, const ossa_ik_aim_chain_job *job,
                              ossa_error *error) {
    static const char *const JOB = "aim chain IK";
    if (!character || !job) return ossa_ik_refuse(error, "%s: no character or no job", JOB);
    if (!job->count || !job->nodes || !job->weights)
        return ossa_ik_refuse(error, "%s: the chain needs at least one node and its weight", JOB);
    const ossa_rig *rig = ossa_model_rig(ossa_character_model(character));
    ossa_result r;
    for (uint32_t k = 0; k < job->count; k++) {
        if ((r = ossa_ik_check_node(rig, job->nodes[k], 1, JOB, "chain", error))) return r;
        if (k && !ossa_ik_is_descendant(rig, job->nodes[k - 1], job->nodes[k]))
            return ossa_ik_refuse(error, "%s: nodes[%u] = %d is not a descendant of nodes[%u] = %d",
                                  JOB, k, (int)job->nodes[k], k - 1, (int)job->nodes[k - 1]);
        if (!(job->weights[k] >= 0.0f && job->weights[k] <= 1.0f))
            return ossa_ik_refuse(error, "%s: weights[%u] must be in [0, 1] (it is %g)", JOB, k,
                                  (double)job->weights[k]);
    }
    if ((r = check_axes(job->forward, job->up, job->offset, job->target, job->pole, JOB, error)))
        return r;
    aim_goal goal = make_goal(job->forward, job->up, job->offset, job->target, job->pole);
    run_chain(character, job->nodes, job->weights, job->count, &goal);
    return OSSA_OK;
}
