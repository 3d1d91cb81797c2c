/* `ossa sample --mix FILE`: the mixed pose of a mix file (mix.h) at a clock, with its root motion
 * (motion.h) and IK entries (ik.h). */
#ifndef OSSA_TOOL_SAMPLE_MIX_H
#define OSSA_TOOL_SAMPLE_MIX_H

#include "ossa/mix.h"
#include "ossa/model.h"
#include "ossa/motion.h"

typedef struct sample_mix {
    ossa_mix_file *file;
    ossa_mix *mix;
    void *scratch;
    const ossa_root_motion_desc *root_motion; /* the file's, NULL without one */
    ossa_motion start;                        /* the mixed root's motion at clock 0 */
} sample_mix;

/* Reads and prepares a mix file for a model; prints its warnings on stderr as
 * "warning: FILE: JSON-PATH: message". Returns OSSA_OK or fills error (naming the mix file). */
ossa_result sample_mix_load(const char *path, const ossa_model *model, sample_mix *out,
                            ossa_error *error);

/* Poses the character with the mix at a clock (seconds): the mixed pose, the root in place when
 * the file has root motion (moved: the root carried on by its accumulated motion instead,
 * `M(0) * accumulated * in-place`), the file's IK entries, then FK and palettes. */
ossa_result sample_mix_pose(sample_mix *mix, double clock, int moved, ossa_character *character,
                            ossa_error *error);

/* The accumulated root motion from clock 0 (identity without root motion). */
ossa_result sample_mix_motion(const sample_mix *mix, double clock, ossa_motion *accumulated,
                              ossa_error *error);

void sample_mix_free(sample_mix *mix);

/* sample_mix_load for render and view: prints "error: FILE: PATH: message" on failure and
 * returns 0, else 1. */
int sample_mix_open(const char *path, const ossa_model *model, sample_mix *out);

/* Seconds worth showing: 1 s past the last weight point of any layer, at least 2 s. */
double sample_mix_span(const sample_mix *mix);

#endif
