/* Shared by the anim suites: a loaded model with its runtime data and per-frame buffers, and
 * a sampled frame as cJSON in the golden format (so library and CLI results compare alike). */
#ifndef OSSA_TEST_ANIM_FIXTURE_H
#define OSSA_TEST_ANIM_FIXTURE_H

#include <cjson/cJSON.h>

#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/document.h"
#include "ossa/palette.h"
#include "ossa/rig.h"

typedef struct anim_fixture {
    ossa_document *doc;
    ossa_rig *rig;
    ossa_clip_set *clips;
    ossa_pose pose;
    float *world;                      /* 12 per rig node */
    float *palettes;                   /* world-space palettes of every skin, skin order */
    uint32_t *cursor, cursor_capacity; /* a cursor for the largest clip */
} anim_fixture;

/* Loads a model and builds everything; returns 0 (and prints why) on failure. */
int anim_fixture_load(anim_fixture *f, const char *path, const ossa_load_options *options);
void anim_fixture_free(anim_fixture *f);

/* Samples clip (NULL: rest pose) at time, runs FK and palettes; cursor may be NULL. */
void anim_fixture_eval(anim_fixture *f, const ossa_clip *clip, float time, ossa_cursor *cursor);

/* The current frame as {"node_world", "morph_weights", "joint_matrices"} (golden format). */
cJSON *anim_fixture_frame_json(const anim_fixture *f);

/* Compares one computed sample against a golden sample; counts checks/failures.
 * label names the case in failure messages. */
void anim_compare_sample(const cJSON *golden, const cJSON *ours, double tolerance,
                         double tolerance_unitless, const char *label);

#endif
