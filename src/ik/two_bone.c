/* Two-bone IK (ik.h): the triangle start-middle-end is solved in the start's parent space by
 * the law of cosines, the middle joint bends about its own axis to the triangle's angle, and the
 * start turns the bent chain onto the target and into the pole plane. */
#include <math.h>
#include <stddef.h>

#include "ik/ik_check.h"
#include "ik/ik_math.h"
#include "ik/ik_space.h"
#include "ossa/ik.h"

static const char *const JOB = "two-bone IK";

static ossa_result check(const ossa_rig *rig, const ossa_ik_two_bone_job *job, ossa_error *error) {
    ossa_result r;
    if ((r = ossa_ik_check_node(rig, job->start, 1, JOB, "start", error)) ||
        (r = ossa_ik_check_node(rig, job->middle, 1, JOB, "middle", error)) ||
        (r = ossa_ik_check_node(rig, job->end, 0, JOB, "end", error)))
        return r;
    if (!ossa_ik_is_descendant(rig, job->start, job->middle))
        return ossa_ik_refuse(error, "%s: middle node %d is not a descendant of start node %d", JOB,
                              (int)job->middle, (int)job->start);
    if (!ossa_ik_is_descendant(rig, job->middle, job->end))
        return ossa_ik_refuse(error, "%s: end node %d is not a descendant of middle node %d", JOB,
                              (int)job->end, (int)job->middle);
    if ((r = ossa_ik_check_unit(job->weight, JOB, "weight", error)) ||
        (r = ossa_ik_check_unit(job->soften, JOB, "soften", error)) ||
        (r = ossa_ik_check_vector(job->target, 0, JOB, "target", error)) ||
        (r = ossa_ik_check_vector(job->pole, 1, JOB, "pole", error)))
        return r;
    if (!isfinite(job->twist)) return ossa_ik_refuse(error, "%s: twist is not finite", JOB);
    return OSSA_OK;
}

/* The distance the end aims at for a target at distance d (see ossa_ik_two_bone_job::soften),
 * kept within what the bones can span. */
static double reach(double d, double l1, double l2, double soften) {
    double full = l1 + l2;
    if (soften > 0.0 && soften < 1.0) {
        double s = soften * full;
        if (d > s) d = s + (full - s) * (1.0 - exp(-(d - s) / (full - s)));
    }
    double fold = fabs(l1 - l2);
    return d > full ? full : d < fold ? fold : d;
}

/* Angle between two non-zero vectors, robust near 0 and pi. */
static double angle_between(ik_vec a, ik_vec b) {
    return atan2(ik_length(ik_cross(a, b)), ik_dot(a, b));
}

ossa_result ossa_ik_two_bone(ossa_character *character, const ossa_ik_two_bone_job *job,
                             ossa_error *error) {
    if (!character || !job) return ossa_ik_refuse(error, "%s: no character or no job", JOB);
    const ossa_rig *rig = ossa_model_rig(ossa_character_model(character));
    ossa_result r = check(rig, job, error);
    if (r != OSSA_OK || job->weight == 0.0f) return r;
    const float *world = ossa_character_world(character);

    /* the start's parent space: the start's own rotation acts there as a plain rotation */
    ik_affine space = ik_parent_world(rig, world, job->start), inverse;
    if (!ik_affine_invert(&space, &inverse)) return OSSA_OK;
    ik_affine start_w = ik_world(world, job->start), middle_w = ik_world(world, job->middle);
    ik_affine end_w = ik_world(world, job->end);
    ik_vec a = ik_affine_point(&inverse, ik_affine_origin(&start_w));
    ik_vec b = ik_affine_point(&inverse, ik_affine_origin(&middle_w));
    ik_vec c = ik_affine_point(&inverse, ik_affine_origin(&end_w));
    ik_vec target = ik_affine_point(&inverse, ik_vf(job->target));
    ik_vec pole = ik_affine_vector(&inverse, ik_vf(job->pole));
    ik_vec bone1 = ik_sub(b, a), bone2 = ik_sub(c, b);
    double l1 = ik_length(bone1), l2 = ik_length(bone2);
    double tiny = 1e-9 * (l1 + l2);
    if (!(l1 > tiny && l2 > tiny)) return OSSA_OK;

    /* where the end and the middle go: e' = a + D u, m' = a + l1 (cos A u + sin A v) */
    int ok;
    ik_vec u = ik_normalize(ik_sub(target, a), tiny, &ok);
    if (!ok) u = ik_normalize(ik_sub(c, a), tiny, &ok);
    if (!ok) u = ik_scale(bone1, 1.0 / l1);
    double d = reach(ik_length(ik_sub(target, a)), l1, l2, job->soften);
    ik_vec turned =
        job->twist != 0.0f ? ik_quat_rotate(ik_quat_axis_angle(u, job->twist), pole) : pole;
    ik_vec v = ik_normalize(ik_reject(turned, u), IK_EPSILON * ik_length(turned), &ok);
    if (!ok) v = ik_normalize(ik_reject(bone1, u), tiny, &ok);
    if (!ok) v = ik_any_perpendicular(u);
    double cos_a = d > tiny ? (l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d) : 0.0;
    cos_a = cos_a > 1.0 ? 1.0 : cos_a < -1.0 ? -1.0 : cos_a;
    double sin_a = sqrt(1.0 - cos_a * cos_a);
    ik_vec m_new = ik_scale(ik_add(ik_scale(u, cos_a), ik_scale(v, sin_a)), l1);
    ik_vec e_new = ik_scale(u, d); /* both relative to a */

    /* the middle joint: bend about its current axis to the new angle between the bones; a
     * chain straight within 1e-4 rad has no axis of its own, so it bends the end away from the
     * pole (the middle toward it), the start turning it without a roll */
    ik_vec hinge = ik_normalize(ik_cross(bone1, bone2), 1e-4 * l1 * l2, &ok);
    if (!ok) hinge = ik_normalize(ik_cross(pole, bone1), IK_EPSILON * l1 * ik_length(pole), &ok);
    if (!ok) hinge = ik_any_perpendicular(ik_scale(bone1, 1.0 / l1));
    double bend = angle_between(m_new, ik_sub(e_new, m_new)) - angle_between(bone1, bone2);
    ik_quat middle_q = ik_quat_axis_angle(hinge, bend);
    ik_vec bent_end = ik_add(bone1, ik_quat_rotate(middle_q, bone2)); /* relative to a */

    /* the start: the bent triangle (0, bone1, bent_end) onto (0, m', e'), end direction first,
     * then the triangle's normal (the hinge when the triangle is flat) */
    ik_vec x1 = ik_normalize(bent_end, tiny, &ok);
    ik_vec x2 = u;
    if (!ok) x1 = ik_scale(bone1, 1.0 / l1), x2 = ik_scale(m_new, 1.0 / l1);
    ik_vec n1 = ik_normalize(ik_cross(bone1, bent_end), IK_EPSILON * l1 * (l1 + l2), &ok);
    if (!ok) n1 = hinge;
    n1 = ik_normalize(ik_reject(n1, x1), 0.0, NULL);
    ik_vec n2 = ik_normalize(ik_reject(ik_cross(v, u), x2), 0.0, NULL);
    ik_quat start_q = ik_quat_from_frames(x1, ik_cross(n1, x1), n1, x2, ik_cross(n2, x2), n2);

    /* into local rotations: the start's parent space is the solving space; the middle's parent
     * is seen from it through the start and the nodes between */
    double weight = job->weight;
    start_q = ik_quat_weighted(start_q, weight);
    middle_q = ik_quat_weighted(middle_q, weight);
    ik_affine middle_parent_w = ik_world(world, rig->parent[job->middle]);
    ik_affine middle_parent = ik_affine_mul(&inverse, &middle_parent_w);
    double frame[9];
    ik_rotation_part(&middle_parent, frame);
    ossa_pose *pose = ossa_character_pose(character);
    ik_rotate_local(pose->local[job->start].rotation, start_q);
    ik_rotate_local(pose->local[job->middle].rotation, ik_quat_conjugate_by(middle_q, frame));
    return OSSA_OK;
}
