/* Input checks of the IK jobs (ik_check.h). */
#include "ik/ik_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

ossa_result ossa_ik_refuse(ossa_error *error, const char *format, ...) {
    if (error) {
        memset(error, 0, sizeof *error);
        error->code = OSSA_ERROR_ARGUMENT;
        va_list args;
        va_start(args, format);
        vsnprintf(error->message, sizeof error->message, format, args);
        va_end(args);
    }
    return OSSA_ERROR_ARGUMENT;
}

ossa_result ossa_ik_check_node(const ossa_rig *rig, int32_t node, int rotated, const char *job,
                               const char *role, ossa_error *error) {
    if (node < 0 || (uint32_t)node >= rig->node_count)
        return ossa_ik_refuse(error, "%s: %s node %d is not a rig node (the rig has %u)", job, role,
                              (int)node, rig->node_count);
    if (rotated && rig->fixed[node])
        return ossa_ik_refuse(error,
                              "%s: %s node %d (\"%s\") has a fixed matrix: its pose is ignored, "
                              "so it cannot be rotated",
                              job, role, (int)node, rig->names[node] ? rig->names[node] : "");
    return OSSA_OK;
}

int ossa_ik_is_descendant(const ossa_rig *rig, int32_t ancestor, int32_t descendant) {
    /* parents come first in rig order, so the walk up stops once it passes the ancestor */
    for (int32_t n = rig->parent[descendant]; n >= ancestor; n = rig->parent[n])
        if (n == ancestor) return 1;
    return 0;
}

ossa_result ossa_ik_check_unit(float value, const char *job, const char *name, ossa_error *error) {
    if (!(value >= 0.0f && value <= 1.0f))
        return ossa_ik_refuse(error, "%s: %s must be in [0, 1] (it is %g)", job, name,
                              (double)value);
    return OSSA_OK;
}

ossa_result ossa_ik_check_vector(const float *v, int nonzero, const char *job, const char *name,
                                 ossa_error *error) {
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return ossa_ik_refuse(error, "%s: %s has a component that is not finite", job, name);
    if (nonzero && v[0] == 0.0f && v[1] == 0.0f && v[2] == 0.0f)
        return ossa_ik_refuse(error, "%s: %s has zero length", job, name);
    return OSSA_OK;
}
