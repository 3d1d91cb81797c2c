/* Helpers of the IK suites: shared models as characters, node lookup, a seeded random source,
 * world-space vectors of nodes, pose snapshots. */
#ifndef OSSA_IK_TEST_UTIL_H
#define OSSA_IK_TEST_UTIL_H

#include <stdint.h>

#include "ossa/ik.h"
#include "ossa/model.h"

/* A model of the shared corpus and one character of it (NULLs when it does not load). */
typedef struct ik_subject {
    ossa_model *model;
    ossa_character *character;
    const ossa_rig *rig;
} ik_subject;

ik_subject ik_subject_load(const char *relative);
void ik_subject_free(ik_subject *s);

/* Rig node by name (a failed check when missing). */
int32_t ik_node(const ik_subject *s, const char *name);

/* Deterministic random numbers. */
double ik_random(uint64_t *state);                   /* [0, 1) */
void ik_random_unit(uint64_t *state, double out[3]); /* uniform on the sphere */

/* World position of a node (double), and a world matrix applied to a vector or a point. */
void ik_world_position(const ossa_character *c, int32_t node, double out[3]);
void ik_world_vector(const ossa_character *c, int32_t node, const float v[3], double out[3]);
void ik_world_point(const ossa_character *c, int32_t node, const float p[3], double out[3]);

double ik_distance(const double a[3], const double b[3]);
double ik_norm(const double a[3]);
double ik_dot3(const double a[3], const double b[3]);
void ik_cross3(const double a[3], const double b[3], double out[3]);
void ik_sub3(const double a[3], const double b[3], double out[3]);
/* Angle between two non-zero vectors (radians). */
double ik_angle(const double a[3], const double b[3]);

/* Copies of a character's pose locals and world matrices (the caller frees them). */
ossa_trs *ik_pose_copy(const ik_subject *s);
float *ik_world_copy(const ik_subject *s);

/* 1 when `node` is `ancestor` or lies below it. */
int ik_in_subtree(const ossa_rig *rig, int32_t ancestor, int32_t node);

#endif
