/* Input checks shared by the IK jobs: each fills the caller's ossa_error with a sentence naming
 * the job and the offending value and returns OSSA_ERROR_ARGUMENT, or returns OSSA_OK. */
#ifndef OSSA_IK_CHECK_H
#define OSSA_IK_CHECK_H

#include <stdint.h>

#include "ossa/result.h"
#include "ossa/rig.h"

/* OSSA_ERROR_ARGUMENT with a printf-style message. */
ossa_result ossa_ik_refuse(ossa_error *error, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* `node` is a rig node; with `rotated` also one whose pose is used (not a fixed matrix). */
ossa_result ossa_ik_check_node(const ossa_rig *rig, int32_t node, int rotated, const char *job,
                               const char *role, ossa_error *error);

/* `descendant` lies strictly below `ancestor` (both valid rig nodes). */
int ossa_ik_is_descendant(const ossa_rig *rig, int32_t ancestor, int32_t descendant);

/* A weight (or ratio) in [0, 1], not NaN. */
ossa_result ossa_ik_check_unit(float value, const char *job, const char *name, ossa_error *error);

/* Three finite floats; with `nonzero` also not all zero. */
ossa_result ossa_ik_check_vector(const float *v, int nonzero, const char *job, const char *name,
                                 ossa_error *error);

#endif
