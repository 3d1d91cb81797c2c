/* Splitting a root's local transform into motion and in-place part (motion.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "motion/motion_internal.h"

static ossa_result fail(ossa_error *error, const char *path, const char *fmt, ...) {
    if (!error) return OSSA_ERROR_ARGUMENT;
    memset(error, 0, sizeof *error);
    error->code = OSSA_ERROR_ARGUMENT;
    snprintf(error->path, sizeof error->path, "%s", path);
    va_list args;
    va_start(args, fmt);
    vsnprintf(error->message, sizeof error->message, fmt, args);
    va_end(args);
    return OSSA_ERROR_ARGUMENT;
}

ossa_result ossa_motion_root_resolve(const ossa_rig *rig, const ossa_root_motion_desc *desc,
                                     motion_root *out, ossa_error *error) {
    if (!desc) return fail(error, "", "the root-motion descriptor is NULL");
    if (rig && (desc->node < 0 || (uint32_t)desc->node >= rig->node_count))
        return fail(error, "node", "the root node %d is not a rig node (the rig has %u)",
                    (int)desc->node, rig->node_count);
    if (rig && rig->fixed[desc->node])
        return fail(error, "node", "the root node %d has a matrix: its motion cannot be split",
                    (int)desc->node);
    if ((unsigned)desc->mode > OSSA_ROOT_MOTION_FULL)
        return fail(error, "mode", "unknown root-motion mode %d", (int)desc->mode);
    double up[3] = {desc->up[0], desc->up[1], desc->up[2]};
    if (!isfinite(up[0]) || !isfinite(up[1]) || !isfinite(up[2]))
        return fail(error, "up", "the up axis must be finite");
    double length = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
    if (length == 0) up[1] = length = 1; /* all zero: +Y */
    if (!isfinite(length) || !(length > 0))
        return fail(error, "up", "the up axis is too short or too long to normalise");
    out->node = desc->node;
    out->mode = desc->mode;
    for (int c = 0; c < 3; c++)
        out->up[c] = up[c] / length;
    return OSSA_OK;
}

ossa_result ossa_root_motion_check(const ossa_rig *rig, const ossa_root_motion_desc *desc,
                                   ossa_error *error) {
    motion_root root;
    if (!rig) return fail(error, "", "the rig is NULL");
    return ossa_motion_root_resolve(rig, desc, &root, error);
}

void ossa_motion_root_split(const motion_root *root, const ossa_trs *local, ossa_motion *motion,
                            ossa_trs *in_place) {
    double t[3] = {local->translation[0], local->translation[1], local->translation[2]};
    double q[4] = {local->rotation[0], local->rotation[1], local->rotation[2], local->rotation[3]};
    double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int c = 0; qn > 0 && c < 4; c++)
        q[c] /= qn;
    ossa_motion m;
    ossa_motion_identity(&m);
    if (root->mode == OSSA_ROOT_MOTION_FULL) {
        memcpy(m.translation, t, sizeof t);
        if (qn > 0) memcpy(m.rotation, q, sizeof q);
    } else {
        const double *u = root->up;
        double height = t[0] * u[0] + t[1] * u[1] + t[2] * u[2];
        double along = q[0] * u[0] + q[1] * u[1] + q[2] * u[2];
        double twist[4] = {along * u[0], along * u[1], along * u[2], q[3]};
        double tn = sqrt(along * along + q[3] * q[3]);
        for (int c = 0; c < 3; c++)
            m.translation[c] = t[c] - height * u[c];
        /* A half turn about an axis across u has no twist: leave the identity. */
        if (tn > 1e-12)
            for (int c = 0; c < 4; c++)
                m.rotation[c] = twist[c] / tn;
    }
    if (in_place) {
        /* P = M^-1 * L: translation conj(qm) (t - tm), rotation conj(qm) q, scale s. */
        ossa_motion inverse, l = {{t[0], t[1], t[2]}, {q[0], q[1], q[2], q[3]}}, p;
        if (!(qn > 0)) ossa_motion_identity(&l), memcpy(l.translation, t, sizeof t);
        ossa_motion_inverse(&m, &inverse);
        ossa_motion_compose(&inverse, &l, &p);
        for (int c = 0; c < 3; c++) {
            in_place->translation[c] = (float)p.translation[c];
            in_place->scale[c] = local->scale[c];
        }
        for (int c = 0; c < 4; c++)
            in_place->rotation[c] = (float)p.rotation[c];
    }
    if (motion) *motion = m;
}

ossa_result ossa_root_motion_split(const ossa_root_motion_desc *desc, const ossa_trs *local,
                                   ossa_motion *motion, ossa_trs *in_place, ossa_error *error) {
    motion_root root;
    if (!local) return fail(error, "", "the local transform is NULL");
    ossa_result r = ossa_motion_root_resolve(NULL, desc, &root, error);
    if (r == OSSA_OK) ossa_motion_root_split(&root, local, motion, in_place);
    return r;
}
