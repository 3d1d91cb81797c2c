/* Shared by the mix suites: models (shared corpus or a small glTF written here), poses, and a
 * reference mix in double precision written from the formulas of issue 12 / mix.h, with its
 * own clip-time mapping, mask walk and a numeric (Gauss-Legendre) phase integral. */
#ifndef OSSA_TEST_MIX_FIXTURE_H
#define OSSA_TEST_MIX_FIXTURE_H

#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/mix.h"
#include "ossa/model.h"
#include "ossa/rig.h"
#include "ossa/sample.h"

typedef struct mix_model {
    ossa_document *doc; /* kept for node names */
    ossa_model *model;
    const ossa_rig *rig;
    uint32_t clip_count;
} mix_model;

/* Loads a model of the shared corpus (path relative to it); 0 on success. */
int mix_model_load(const char *relative, mix_model *m);

/* A small glTF: nodes 0 "root" (children 1, 3), 1 "leg" (child 2), 2 "foot", 3 "leg" (a second
 * node of that name). Animations: "A" rotates node 1 (keys q0 at 0, q1 at 1) and translates
 * node 2; "Aneg" is "A" with every rotation key negated; "B" rotates node 1 the other way
 * round (keys far from A's, so blends take hemisphere flips); "Still" has one key at 0.5
 * (duration 0). */
int mix_model_synthetic(mix_model *m);

void mix_model_free(mix_model *m);

/* Clip k (glTF animation index). */
const ossa_clip *mix_model_clip_at(const mix_model *m, uint32_t k);

/* The clip with this name (NULL when none). */
const ossa_clip *mix_model_clip(const mix_model *m, const char *name);

/* glTF index of the node with this name (the first), -1 when none. */
int mix_model_node(const mix_model *m, const char *name);

ossa_pose mix_pose_alloc(const ossa_rig *rig);
void mix_pose_free(ossa_pose *pose);

/* Creates the mix, samples it at a clock into pose; returns the create result. */
ossa_result mix_eval(const ossa_rig *rig, const ossa_mix_desc *desc, double clock, ossa_pose *pose);

/* The reference: the same mix computed from the formulas, in double, into pose. */
void mix_reference(const ossa_rig *rig, const ossa_mix_desc *desc, double clock, ossa_pose *pose);

/* The reference clip time of a layer (synced layers by numeric integration of the phase). */
double mix_reference_layer_time(const ossa_mix_desc *desc, uint32_t layer, double clock);

/* Largest difference between two poses: translations, scales and weights relative to
 * max(1, |value|); rotations up to sign (min over q, -q). */
double mix_pose_distance(const ossa_rig *rig, const ossa_pose *a, const ossa_pose *b);

#endif
