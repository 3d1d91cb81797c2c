/* Shared by the motion suites: shared models, root nodes with the world's up in their parent's
 * space, motions built and compared independently of the library's composition. */
#ifndef OSSA_TEST_MOTION_UTIL_H
#define OSSA_TEST_MOTION_UTIL_H

#include "ossa/document.h"
#include "ossa/model.h"
#include "ossa/motion.h"

typedef struct motion_model {
    ossa_model *model;
    const ossa_rig *rig;
    ossa_character *character;
} motion_model;

/* Loads a model of the shared corpus (path relative to it); 0 on success. */
int motion_model_load(const char *relative, motion_model *m);
void motion_model_free(motion_model *m);

/* A ground-mode descriptor for the named node, up = world +Y seen from the node's parent at
 * the rest pose (CesiumMan's skeleton: its +Z). */
ossa_root_motion_desc motion_root_desc(const motion_model *m, const char *node);

/* Distance between two motions: max of the translation difference and of the rotation
 * difference up to sign. */
double motion_distance(const ossa_motion *a, const ossa_motion *b);

/* Distance between two TRS (translation, rotation up to sign, scale). */
double trs_distance(const ossa_trs *a, const ossa_trs *b);

/* a * b computed here from 3x3 matrices (an independent check of ossa_motion_compose). */
void motion_compose_by_matrix(const ossa_motion *a, const ossa_motion *b, ossa_motion *out);

/* The TRS with the motion's translation and rotation and the given scale. */
ossa_trs motion_to_trs(const ossa_motion *m, const float *scale);

#endif
