/* Root motion internals (motion.h): a checked descriptor with its unit up axis, the root-only
 * sampler, a clip's accumulated motion and the mix of layer deltas over one step, shared by the
 * stateless mix (mix_motion.c) and the player (mix_player.c). */
#ifndef OSSA_MOTION_INTERNAL_H
#define OSSA_MOTION_INTERNAL_H

#include "ossa/motion.h"

/* A descriptor once checked: the node and the unit up axis. */
typedef struct motion_root {
    int32_t node;
    double up[3];
    ossa_root_motion_mode mode;
} motion_root;

/* Checks a descriptor against a rig (NULL rig: the node is not checked) and resolves it. */
ossa_result ossa_motion_root_resolve(const ossa_rig *rig, const ossa_root_motion_desc *desc,
                                     motion_root *out, ossa_error *error);

/* local = motion * in_place (either output may be NULL). */
void ossa_motion_root_split(const motion_root *root, const ossa_trs *local, ossa_motion *motion,
                            ossa_trs *in_place);

/* The root's local transform in a clip at a clip time (only the root's channels sampled). */
void ossa_motion_sample_root(const ossa_clip *clip, int32_t node, float time, ossa_trs *out);

/* A(position) of motion.h for a clip of the root's rig. */
void ossa_motion_clip_accumulated(const motion_root *root, const ossa_clip *clip, double position,
                                  ossa_mix_wrap wrap, ossa_motion *out);

/* A(from)^-1 * A(to) for a clip, without the powers of the whole count of loops: only the
 * loops between the two positions (usually none or one). */
void ossa_motion_clip_delta(const motion_root *root, const ossa_clip *clip, double from, double to,
                            ossa_mix_wrap wrap, ossa_motion *out);

/* The mix of layer deltas over one step: begin, add each layer's delta between two unwrapped
 * positions with its weight (> 0), finish with the rest-pose threshold. */
typedef struct motion_blend {
    double translation[3];
    double rotation[4];
    double weight;
} motion_blend;

void ossa_motion_blend_begin(motion_blend *blend);
void ossa_motion_blend_add(motion_blend *blend, const motion_root *root, const ossa_clip *clip,
                           ossa_mix_wrap wrap, double from, double to, double weight);
void ossa_motion_blend_finish(const motion_blend *blend, double threshold, ossa_motion *out);

#endif
