/* The model of the gpu_rules suite, written by the test: a skin of 6 joints and one mesh of
 * two tubes, built to exercise every skinning rule of ossa/skin.h.
 *
 * - primitive 0: two influence sets (JOINTS_0/1 unsigned short, WEIGHTS_0/1 float): every
 *   third ring has 8 positive weights (repeated joints among them), others 3 to 5; weights
 *   sum to 0.3 .. 2.6, never to one; ring 0 and a patch of ring 5 have all weights zero, and
 *   a few vertices have weights in set 1 only.
 * - primitive 1: one set (unsigned byte joints, normalized unsigned byte weights summing to
 *   anything but 255), ring 0 all zero, some vertices with a single influence.
 * - one morph target (positions and normals) on both, mesh weight 0.5.
 * - the joint nodes (a chain) carry rotations and uniform and non-uniform scales: the rest pose
 *   of a character of the model (most palettes of the tests are built by the test itself,
 *   with the same scales).
 */
#ifndef OSSA_TEST_GPU_RULES_MODEL_H
#define OSSA_TEST_GPU_RULES_MODEL_H

#include "ossa/document.h"

enum { RULES_JOINTS = 6, RULES_RINGS = 10, RULES_SEGMENTS = 12 };

/* The scale of joint j: x, y, z (uniform for joints 1 and 3, non-uniform for 2 and 4). */
void rules_joint_scale(int joint, float scale[3]);

/* Builds the model as a GLB in memory and loads it; NULL (with a message) on failure. */
ossa_document *rules_model_load(void);

#endif
