/**
 * @file motion.h
 * @brief Root motion: the travel a clip contains, taken out of its root node and handed to the
 * caller as a rigid transform, for a clip, a mix at any clock and a player frame by frame.
 *
 * A root node's local transform L = (t, q, s) (in its parent's space) is split into a motion M
 * (a rigid transform: translation and rotation) and an in-place part P with `L = M * P`:
 * - ground mode, with the unit up axis u (in the root's parent space): M's translation is t
 *   without its component along u, M's rotation the twist of q about u (q's vector part
 *   projected on u, with q's w, normalised; the identity when that is zero), P's translation the
 *   height `(t . u) u`, P's rotation the swing `conj(twist) q`, P's scale s;
 * - full mode: M = (t, q), P = (0, identity, s).
 *
 * Rigid transforms compose as `(t1, q1) * (t2, q2) = (t1 + q1 t2, q1 q2)` (glTF quaternions
 * (x, y, z, w), Hamilton product), in double precision.
 *
 * A clip accumulates its motion as it loops: with `M(x)` the motion of the root at clip time x,
 * the cycle's motion is `C = M(start)^-1 * M(end)` and the motion accumulated from the clip's
 * start to the unwrapped clip position x (n whole loops, then clip time tau) is
 * `A(x) = C^n * M(start)^-1 * M(tau)` (::ossa_root_motion_clip). So
 * `M(start) * A(x) * P(tau)` is the root's local transform at tau, moved on by n cycles.
 *
 * A mix or a player accumulates the mixed motion: over a step from clock a to b each normal
 * layer moves by its delta `A(x(a))^-1 * A(x(b))` (x its unwrapped clip position, synced layers
 * included), and the step's motion is the mix of those deltas with the weights the pose mix
 * gives the root at the step's middle clock (weight curve or fade times the root's mask value;
 * translations by weighted mean, rotations by normalised weighted sum on one hemisphere; the
 * rest share below the threshold counts as no motion; additive layers add none). With one layer
 * moving, the deltas telescope and the result is exact whatever the steps.
 */
#ifndef OSSA_MOTION_H
#define OSSA_MOTION_H

#include <stdint.h>

#include "clip.h"
#include "mix.h"
#include "model.h"
#include "result.h"
#include "rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the motion keeps (the default is ground). */
typedef enum ossa_root_motion_mode {
    OSSA_ROOT_MOTION_GROUND = 0, /**< translation across the up axis and the twist about it */
    OSSA_ROOT_MOTION_FULL,       /**< the whole translation and rotation */
} ossa_root_motion_mode;

/** Where root motion comes from. Zero-initialised means rig node 0, up +Y, ground mode. */
typedef struct ossa_root_motion_desc {
    int32_t node; /**< the root's rig node (see ::ossa_model_find_node) */
    /** Up axis in the root's parent space, any non-zero length; all zero means +Y (glTF's up).
     *  Ground mode only. */
    float up[3];
    ossa_root_motion_mode mode;
} ossa_root_motion_desc;

/** A rigid transform: `p -> rotation * p + translation`. */
typedef struct ossa_motion {
    double translation[3];
    double rotation[4]; /**< unit quaternion (x, y, z, w) */
} ossa_motion;

/** The identity motion. */
void ossa_motion_identity(ossa_motion *out);

/** `out = a * b` (b first, then a). out may alias a or b. */
void ossa_motion_compose(const ossa_motion *a, const ossa_motion *b, ossa_motion *out);

/** `out = a^-1`. out may alias a. */
void ossa_motion_inverse(const ossa_motion *a, ossa_motion *out);

/** `out = a^n` (negative n: powers of the inverse), by repeated squaring (O(log |n|)). */
void ossa_motion_power(const ossa_motion *a, int64_t n, ossa_motion *out);

/**
 * Checks a root-motion descriptor for a rig.
 * @return OSSA_ERROR_ARGUMENT (path `node`, `up` or `mode`) for a node out of range or with a
 *         fixed matrix, an up axis that is not finite, an unknown mode.
 */
ossa_result ossa_root_motion_check(const ossa_rig *rig, const ossa_root_motion_desc *desc,
                                   ossa_error *error);

/**
 * Splits a root's local transform into motion and in-place part (`local = motion * in_place`,
 * see the file comment). Either output may be NULL.
 * @return OSSA_ERROR_ARGUMENT for an up axis that is not finite or an unknown mode.
 */
ossa_result ossa_root_motion_split(const ossa_root_motion_desc *desc, const ossa_trs *local,
                                   ossa_motion *motion, ossa_trs *in_place, ossa_error *error);

/**
 * The motion a clip accumulates from its start to the unwrapped clip position `position`
 * (absolute clip seconds, any real), as `wrap` maps positions to clip times: loop gives
 * `C^n * M(start)^-1 * M(tau)`; clamp and ping-pong, which never leave the clip's range, give
 * `M(start)^-1 * M(tau)` with their clip time tau. A clip of zero duration gives the identity.
 * Samples only the root's channels; allocates nothing.
 * @return OSSA_ERROR_ARGUMENT for a NULL or foreign clip (of another rig than `rig`), a bad
 *         descriptor, a non-finite position.
 */
ossa_result ossa_root_motion_clip(const ossa_rig *rig, const ossa_root_motion_desc *desc,
                                  const ossa_clip *clip, double position, ossa_mix_wrap wrap,
                                  ossa_motion *accumulated, ossa_error *error);

/**
 * The mixed motion a mix accumulates from clock 0 to `clock` (negative clocks: back from 0):
 * the deltas of steps of at most `step` seconds (0: 1/60 s) on the grid k * step, mixed as the
 * file comment says and composed. A player advanced by the same steps reports the same motion.
 * Cost: one step per `step` seconds of the clock, each sampling the root's channels of the
 * layers; allocates nothing; results depend on the clock only.
 * @return OSSA_ERROR_ARGUMENT for a bad descriptor (for the mix's rig), a non-finite clock, a
 *         step that is negative or not finite, more than 1e8 steps (1/60 s steps: 19 days).
 */
ossa_result ossa_mix_root_motion(const ossa_mix *mix, const ossa_root_motion_desc *desc,
                                 double clock, double step, ossa_motion *accumulated,
                                 ossa_error *error);

/**
 * Turns root motion on for a player (NULL: off, the default). From then on each
 * ::ossa_mix_player_advance adds the frame's mixed motion to what ::ossa_mix_player_take_motion
 * returns, and ::ossa_mix_player_apply writes the root's in-place part instead of its mixed
 * local transform. The motion pending is reset.
 * @return OSSA_ERROR_ARGUMENT for a NULL player or a bad descriptor (the player's state then is
 *         unchanged).
 */
ossa_result ossa_mix_player_set_root_motion(ossa_mix_player *player,
                                            const ossa_root_motion_desc *desc, ossa_error *error);

/**
 * The mixed root motion since the previous call (or since root motion was turned on): the
 * composition of every frame's motion since then, across wraps, cross-fades and sync groups;
 * the identity when root motion is off or the player is NULL. Resets the pending motion to the
 * identity.
 */
void ossa_mix_player_take_motion(ossa_mix_player *player, ossa_motion *delta);

/** The `"root_motion"` of a mix file (see ::ossa_mix_file_parse), NULL when it has none. */
const ossa_root_motion_desc *ossa_mix_file_root_motion(const ossa_mix_file *file);

/**
 * Poses a character as a whole mix file says, at a mix clock (seconds): the mix's pose
 * (::ossa_mix_sample); with the file's `"root_motion"`, its root node in place, or, given
 * `carry`, at `carry * in-place` (e.g. `M(0) * accumulated` to walk the root along its motion,
 * with `M(0)` the motion of the mixed root at clock 0); forward kinematics; then each `"ik"`
 * entry in file order, each followed by forward kinematics and palettes. The character's pose,
 * world matrices and palettes are then the mixed pose's. Allocates nothing.
 * @param mix made by ::ossa_mix_create from this file's descriptor.
 * @param carry NULL: the root in place (what `ossa sample --mix` writes).
 * @param scratch ::ossa_mix_scratch_size bytes, 16-byte aligned, not shared between threads.
 * @return OSSA_ERROR_ARGUMENT for a NULL argument, a mix of another model or another file (the
 *         character unchanged), or an IK entry that fails on this pose (path `ik[k]`).
 */
ossa_result ossa_mix_file_pose(const ossa_mix_file *file, const ossa_mix *mix, double clock,
                               const ossa_motion *carry, void *scratch, ossa_character *character,
                               ossa_error *error);

/**
 * The world-space target of IK entry `entry` of a mix file for a character as last finished
 * (a ground entry's depends on the pose before it); zeros for NULL or an entry out of range.
 */
void ossa_mix_file_ik_target(const ossa_mix_file *file, uint32_t entry,
                             const ossa_character *character, float target[3]);

#ifdef __cplusplus
}
#endif

#endif
