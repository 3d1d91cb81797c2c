/**
 * @file mix.h
 * @brief Mixing animations: weighted layers, masks, additive layers, synchronised layers, a
 * stateful player with cross-fades, and the mix file (JSON).
 *
 * A mix is a list of layers, each a clip with a weight over time, a clock mapping (speed,
 * offset, wrap), a mode (normal or additive) and an optional mask. ::ossa_mix_sample writes the
 * mixed pose at any clock on its own (it is stateless), with these rules per rig node j (glTF
 * quaternions (x, y, z, w), Hamilton product):
 *
 * - Clip time of a layer at clock T: `x = offset + speed * T`, then loop:
 *   `start + ((x - start) mod D)` (floor modulo), clamp: x clamped to [start, end], ping-pong:
 *   `u = (x - start) mod 2D`, `start + (u <= D ? u : 2D - u)`; D = 0 gives start. D and start
 *   are ::ossa_clip_duration and ::ossa_clip_start. The layer's pose is the clip sampled there.
 * - Mask: `mask[j]` is the value of the nearest node on j's ancestor-or-self chain that has an
 *   entry, else the mask's default; no mask is 1 everywhere. `e[j] = w(T) * mask[j]`.
 * - Weights over time: points (T, w), linear between points and held outside.
 * - A value e at or below ::OSSA_MIX_MIN_WEIGHT counts as 0 (the layer is left out there).
 * - Normal layers with e > 0, in layer order: `S = sum e`, `r = threshold - S` when
 *   `S < threshold`, else 0, `W = S + r` (W <= ::OSSA_MIX_MIN_WEIGHT: rest values). Translation,
 * scale and morph weights: `(sum e x + r x_rest) / W`. Rotation: `a = 0`; for each layer, then the
 * rest pose when r > 0: `a += e * (dot(a, q) >= 0 ? q : -q)`; the result is `a / |a|`.
 * - Additive layers, after every normal layer, in layer order, where e > 0, against a reference
 *   pose R (the clip at its start, the rest pose, or the clip at a given clip time):
 *   `t += e (t_i - t_R)`; `d = conj(q_R) q_i` (negated when d.w < 0),
 *   `q = q * normalize((1 - e) identity + e d)`; per scale component
 *   `s = s (1 + e (s_i / s_R - 1))` (unchanged where s_R = 0); `w += e (w_i - w_R)`.
 * - Synchronised layers (same ::ossa_mix_layer::sync name) share a phase:
 *   `D(t) = sum(w_k(t) D_k) / sum(w_k(t))` over the group's layer weights (masks left out),
 *   `phi(T) = frac((o - start_1) / D_1 + v * integral_0^T dt / D(t))` with the group's first
 *   layer's offset o, speed v, start and duration; the integral is exact per linear piece of
 *   the weight curves (closed form) and holds still while every weight of the group is 0.
 *   Layer k samples its clip at `start_k + phi * D_k`; the wrap, speed and offset of the other
 *   layers are ignored.
 *
 * A mix (::ossa_mix) is prepared once from a descriptor (masks resolved per rig node, additive
 * references sampled, the phase integral of every sync group tabulated at its weight points);
 * afterwards it is read-only and may be shared by threads. Sampling needs a caller-owned
 * scratch block of ::ossa_mix_scratch_size bytes per thread and allocates nothing.
 */
#ifndef OSSA_MIX_H
#define OSSA_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "clip.h"
#include "document.h"
#include "ik.h"
#include "model.h"
#include "result.h"
#include "rig.h"
#include "sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest layer weight, mask value and rest-pose threshold a mix takes: the blend runs in
 *  float, where larger factors overflow. */
#define OSSA_MIX_MAX_WEIGHT 1e6

/** A layer's weight at a node (weight times mask) at or below this counts as 0, and so does a
 *  total: products of smaller ones underflow float, where a rotation would lose its length. */
#define OSSA_MIX_MIN_WEIGHT 1e-12

/** How a layer's clock maps onto its clip's range (the default is loop). */
typedef enum ossa_mix_wrap {
    OSSA_MIX_LOOP = 0,  /**< start + ((x - start) mod D), floor modulo */
    OSSA_MIX_CLAMP,     /**< x clamped to [start, end] */
    OSSA_MIX_PING_PONG, /**< forward, backward, forward, ... */
} ossa_mix_wrap;

/** How a layer combines with the others (the default is normal). */
typedef enum ossa_mix_mode {
    OSSA_MIX_NORMAL = 0, /**< weighted mean with the other normal layers */
    OSSA_MIX_ADDITIVE,   /**< its difference to a reference pose is added on top */
} ossa_mix_mode;

/** The reference pose of an additive layer (the default is the clip at its start). */
typedef enum ossa_mix_reference {
    OSSA_MIX_REFERENCE_START = 0, /**< the clip sampled at its start */
    OSSA_MIX_REFERENCE_REST,      /**< the rig's rest pose */
    OSSA_MIX_REFERENCE_TIME,      /**< the clip sampled at ::ossa_mix_layer::reference_time */
} ossa_mix_reference;

/** One point of a weight curve: the weight at a mix clock time. */
typedef struct ossa_mix_point {
    double time;   /**< seconds of the mix clock; strictly increasing along a curve */
    double weight; /**< >= 0, at most ::OSSA_MIX_MAX_WEIGHT */
} ossa_mix_point;

/** One entry of a mask: a node and its value (it applies to the node's descendants too). */
typedef struct ossa_mix_mask_entry {
    uint32_t node; /**< glTF node index */
    float value;   /**< >= 0, at most ::OSSA_MIX_MAX_WEIGHT */
} ossa_mix_mask_entry;

/** A mask: a value per node, inherited down the node hierarchy. */
typedef struct ossa_mix_mask {
    float default_value; /**< the value of nodes with no entry on their ancestor-or-self chain */
    uint32_t entry_count;
    const ossa_mix_mask_entry *entries; /**< at most one entry per node */
} ossa_mix_mask;

/** One layer of a mix. Zero-initialised fields mean the defaults (see each field). */
typedef struct ossa_mix_layer {
    /** The animation: a clip of the rig the mix is created for (required). */
    const ossa_clip *clip;
    /** The weight curve; no points means weight 1, one point a constant weight. */
    uint32_t weight_count;
    const ossa_mix_point *weights;
    /** Clip seconds per mix second, used when has_speed is 1 (else 1). */
    double speed;
    int has_speed;
    double offset;                /**< clip time at clock 0 (absolute clip time), default 0 */
    ossa_mix_wrap wrap;           /**< default loop */
    ossa_mix_mode mode;           /**< default normal */
    ossa_mix_reference reference; /**< additive layers: default the clip at its start */
    double reference_time;        /**< absolute clip time for ::OSSA_MIX_REFERENCE_TIME */
    const ossa_mix_mask *mask;    /**< NULL: 1 everywhere */
    /** Sync group name (NULL or "": none). Layers with the same name share a phase; the group's
     *  first layer gives its speed and offset, the other members' speed, offset and wrap are
     *  ignored. */
    const char *sync;
} ossa_mix_layer;

/** A mix. Zero-initialised fields mean the defaults. */
typedef struct ossa_mix_desc {
    /** Rest-pose threshold used when has_threshold is 1 (else 0.1): normal layer weights
     *  summing below it are completed by the rest pose. */
    float threshold;
    int has_threshold;
    uint32_t layer_count;
    const ossa_mix_layer *layers;
    /** Allocations of the mix; zero means malloc/free. It must outlive the mix. */
    ossa_allocator allocator;
} ossa_mix_desc;

/** A prepared mix (opaque, read-only once created). */
typedef struct ossa_mix ossa_mix;

/**
 * Prepares a mix for a rig. The rig and the layers' clips must outlive the mix; the descriptor
 * (weights, masks, names) is copied.
 * @return OSSA_ERROR_ARGUMENT with the path of the offending field (e.g. `layers[1].weights[2]`)
 *         for a missing clip, weight times that do not increase, a value that is negative,
 *         not finite or (weights, mask values, threshold) above ::OSSA_MIX_MAX_WEIGHT, a mask
 *         entry out of range or given twice, a sync group with a clip of zero duration;
 *         OSSA_ERROR_OUT_OF_MEMORY.
 */
ossa_result ossa_mix_create(const ossa_rig *rig, const ossa_mix_desc *desc, ossa_mix **out,
                            ossa_error *error);

/** Frees a mix. NULL is allowed. */
void ossa_mix_free(ossa_mix *mix);

/** Number of layers of a mix. */
uint32_t ossa_mix_layer_count(const ossa_mix *mix);

/** Bytes of scratch memory ::ossa_mix_sample needs (any content; 16-byte aligned). */
size_t ossa_mix_scratch_size(const ossa_mix *mix);

/**
 * Writes the mixed pose at a mix clock (seconds) into `pose` (a pose of the mix's rig; every
 * node and weight is written). Allocates nothing; results depend on the clock only.
 * @param scratch ::ossa_mix_scratch_size bytes, 16-byte aligned, not shared between threads.
 */
void ossa_mix_sample(const ossa_mix *mix, double clock, void *scratch, ossa_pose *pose);

/** Weight of layer `layer` at a clock (its curve, without the mask). */
double ossa_mix_layer_weight(const ossa_mix *mix, uint32_t layer, double clock);

/** Clip time (absolute) at which layer `layer` samples its clip at a clock (synced or not). */
double ossa_mix_layer_time(const ossa_mix *mix, uint32_t layer, double clock);

/**
 * The phase integral of the sync group of layer `layer`: `integral_0^clock dt / D(t)` (cycles
 * per unit of speed), exact per linear piece of the weight curves; 0 for a layer that is not
 * synced. Exposed for tests and for players that integrate the phase themselves.
 */
double ossa_mix_sync_integral(const ossa_mix *mix, uint32_t layer, double clock);

/**
 * Resolves a mask for a rig: `out[j]` (rig order, ossa_rig::node_count floats) is the value of
 * the nearest entry on j's ancestor-or-self chain, else the default.
 * @return OSSA_ERROR_ARGUMENT for an entry out of range or given twice, a value that is
 *         negative, not finite or above ::OSSA_MIX_MAX_WEIGHT (path `entries[k]`).
 */
ossa_result ossa_mix_mask_resolve(const ossa_rig *rig, const ossa_mix_mask *mask, float *out,
                                  ossa_error *error);

/* ---------------------------------------------------------------------------------------- */

/**
 * A player: the stateful form of a mix for one character. Clips are played (each a layer),
 * cross-faded, synchronised, sped up; the player's clock advances frame by frame and the phase
 * of each sync group is integrated over each frame with the same closed form as the mix, so a
 * change of weights never makes a clip time jump. Its memory is one caller block sized by
 * ::ossa_mix_player_size (cursors and scratch poses included): nothing allocates.
 */
typedef struct ossa_mix_player ossa_mix_player;

/** How to lay out a player. Zero-initialised means the defaults. */
typedef struct ossa_mix_player_desc {
    uint32_t max_layers; /**< layers playing at once (fading out ones included); 0 means 8 */
    float threshold;     /**< rest-pose threshold used when has_threshold is 1 (else 0.1) */
    int has_threshold;
} ossa_mix_player_desc;

/** How to play a clip. Zero-initialised means the defaults. */
typedef struct ossa_mix_play_desc {
    /** Seconds over which the new layer fades in from 0; a normal layer also fades every other
     *  normal layer out to 0 over the same time (a cross-fade), and layers that reach 0 are
     *  removed. 0 cuts. */
    double fade;
    double weight; /**< target weight when has_weight is 1 (else 1), >= 0, at most
                        ::OSSA_MIX_MAX_WEIGHT */
    int has_weight;
    double speed; /**< clip seconds per player second when has_speed is 1 (else 1) */
    int has_speed;
    double time;                  /**< clip time to start at, in seconds after the clip's start */
    ossa_mix_wrap wrap;           /**< default loop */
    ossa_mix_mode mode;           /**< additive layers fade nothing out */
    ossa_mix_reference reference; /**< additive layers: default the clip at its start */
    double reference_time;        /**< absolute clip time for ::OSSA_MIX_REFERENCE_TIME */
    /** Per rig node (see ::ossa_mix_mask_resolve), NULL: 1 everywhere. Caller memory that must
     *  stay valid while the layer plays. */
    const float *mask;
    /** Sync group (0: none). Layers of one group share a phase. The layer that starts a group
     *  gives its phase (from its time) and its speed, kept while any layer of the group plays
     *  (as the first layer of a mix's group does); a layer joining a playing group takes its
     *  phase, and its own time and speed are ignored. */
    uint32_t sync;
} ossa_mix_play_desc;

/** Bytes of memory a player of this model needs. */
size_t ossa_mix_player_size(const ossa_model *model, const ossa_mix_player_desc *desc);

/**
 * Lays out a player in caller memory (16-byte aligned, ::ossa_mix_player_size bytes), with no
 * layer and its clock at 0. Nothing needs freeing.
 * @param desc NULL for the defaults.
 */
ossa_result ossa_mix_player_init(const ossa_model *model, const ossa_mix_player_desc *desc,
                                 void *memory, size_t size, ossa_mix_player **out,
                                 ossa_error *error);

/**
 * Plays a clip from now (see ::ossa_mix_play_desc for the cross-fade).
 * @return OSSA_ERROR_ARGUMENT when the player is NULL, the clip is of another model, every layer
 *         is in use, a value is not finite or a weight is negative, or a synced clip has zero
 *         duration.
 */
ossa_result ossa_mix_player_play(ossa_mix_player *player, const ossa_clip *clip,
                                 const ossa_mix_play_desc *desc, ossa_error *error);

/** Fades every layer out to 0 over `fade` seconds (0 or NaN: now); they are removed at 0. A NULL
 *  player is ignored. */
void ossa_mix_player_stop(ossa_mix_player *player, double fade);

/** Advances the player's clock by dt seconds (a dt below 0, NaN or infinite counts as 0): clip
 *  times, sync phases, fades; removes layers whose fade-out ended. A NULL player is ignored. */
void ossa_mix_player_advance(ossa_mix_player *player, double dt);

/**
 * Writes the player's mixed pose into a character of its model and runs the character's
 * forward kinematics and palettes (::ossa_character_finish). With no layer: the rest pose. With
 * root motion on (::ossa_mix_player_set_root_motion in motion.h) the root keeps its in-place part.
 * @return OSSA_ERROR_ARGUMENT when the player or the character is NULL or the character is of
 *         another model.
 */
ossa_result ossa_mix_player_apply(ossa_mix_player *player, ossa_character *character,
                                  ossa_error *error);

/** The player's clock (seconds advanced since init). */
double ossa_mix_player_clock(const ossa_mix_player *player);

/** Layers playing, in play order. */
uint32_t ossa_mix_player_layer_count(const ossa_mix_player *player);

/** The clip of layer `layer`, NULL when out of range. */
const ossa_clip *ossa_mix_player_layer_clip(const ossa_mix_player *player, uint32_t layer);

/** Current weight of layer `layer` (0 when out of range). */
double ossa_mix_player_layer_weight(const ossa_mix_player *player, uint32_t layer);

/** Current clip time (absolute) of layer `layer` (0 when out of range). */
double ossa_mix_player_layer_time(const ossa_mix_player *player, uint32_t layer);

/* ---------------------------------------------------------------------------------------- */

/** A mix read from a JSON mix file: its descriptor and the storage behind it (opaque). */
typedef struct ossa_mix_file ossa_mix_file;

/**
 * Reads a mix file (JSON) for a model, as strictly as glTF: unknown keys, ignored values and
 * an empty `"layers"` (the rest pose) are warnings, bad values are refused with their JSON path
 * (e.g. `layers[2].mask.nodes.Spine`), and so are a key given twice in one object and a UTF-8 byte
 * order mark. Animations are named by glTF index or name, mask nodes by name (`"nodes"`; a name
 * shared by several nodes is refused) or glTF index (`"indices"`). Optional `"root_motion"`
 * (`{"node": name or glTF index, "mode": "ground" | "full", "up": [x, y, z]}`, see motion.h and
 * ::ossa_mix_file_root_motion) and `"ik"` (an array of entries, see ::ossa_mix_ik:
 * `{"type": "two_bone", "start", "middle", "end": nodes, "target" or "ground", "pole",
 * "weight", "soften", "twist"}` and `{"type": "aim", "node", "forward", "up", "target", "pole",
 * "offset", "weight"}`; weight defaults to 1, offset, soften and twist to 0).
 * @param json the text, `size` bytes (no terminator needed).
 * @param file_name the name errors carry (may be NULL).
 * @param allocator NULL for malloc/free; it must outlive the file.
 * @return OSSA_ERROR_JSON for text that does not parse, OSSA_ERROR_INVALID for a bad value,
 *         OSSA_ERROR_OUT_OF_MEMORY.
 */
ossa_result ossa_mix_file_parse(const char *json, size_t size, const char *file_name,
                                const ossa_model *model, const ossa_allocator *allocator,
                                ossa_mix_file **out, ossa_error *error);

/** The descriptor of a mix file, valid while the file lives (layers point at the model). */
const ossa_mix_desc *ossa_mix_file_desc(const ossa_mix_file *file);

/** Number of warnings of a mix file. */
uint32_t ossa_mix_file_warning_count(const ossa_mix_file *file);

/** Warning `index` (JSON path and message), NULL when out of range. */
const ossa_warning *ossa_mix_file_warning(const ossa_mix_file *file, uint32_t index);

/** The kind of an IK entry of a mix file. */
typedef enum ossa_mix_ik_type {
    OSSA_MIX_IK_TWO_BONE = 0, /**< `"type": "two_bone"`: ::ossa_mix_ik::two_bone */
    OSSA_MIX_IK_AIM,          /**< `"type": "aim"`: ::ossa_mix_ik::aim */
} ossa_mix_ik_type;

/**
 * An entry of a mix file's `"ik"` array: a job to run on the mixed pose, in file order, after
 * mixing and before the final forward kinematics (with ::ossa_character_finish between jobs, as
 * ik.h says). Nodes are rig nodes (named in the file by name or glTF index).
 *
 * A two-bone entry may give `"ground": {"point": [x, y, z], "normal": [x, y, z]}` instead of a
 * target: the caller then aims the end joint at its own current world position raised along +Y
 * by the height of that plane above `point` there (feet following a slope; has_ground is 1).
 */
typedef struct ossa_mix_ik {
    ossa_mix_ik_type type;
    ossa_ik_two_bone_job two_bone; /**< two-bone entries */
    ossa_ik_aim_job aim;           /**< aim entries */
    int has_ground;                /**< two-bone entries with a ground plane instead of a target */
    float ground_point[3];         /**< a point of the ground plane, world space */
    float ground_normal[3];        /**< its normal, world space, with a non-zero y */
} ossa_mix_ik;

/** Number of IK entries of a mix file. */
uint32_t ossa_mix_file_ik_count(const ossa_mix_file *file);

/** IK entry `index`, NULL when out of range. */
const ossa_mix_ik *ossa_mix_file_ik(const ossa_mix_file *file, uint32_t index);

/** Frees a mix file. NULL is allowed. */
void ossa_mix_file_free(ossa_mix_file *file);

#ifdef __cplusplus
}
#endif

#endif
