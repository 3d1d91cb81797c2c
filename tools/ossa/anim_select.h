/* --anim of render, view and sample: one animation (K or its name), a list played together
 * (0,2 or Walk,Survey) or all. */
#ifndef OSSA_TOOL_ANIM_SELECT_H
#define OSSA_TOOL_ANIM_SELECT_H

#include <stdint.h>

#include "ossa/model.h"

#define ANIM_SELECT_MAX  256  /* animations in a list */
#define ANIM_SELECT_TEXT 1024 /* bytes of --anim's value */

typedef struct anim_select {
    int given;   /* --anim was given */
    int all;     /* --anim all */
    int several; /* all or a comma list: the animations play together (arrays in sample --json) */
    uint32_t count;
    uint32_t indices[ANIM_SELECT_MAX]; /* the listed glTF animation indices (names: unused) */
    /* A name instead of an index: where it starts in text (its index is the model's clip of
     * that name), else ANIM_SELECT_INDEX. */
    uint16_t name_at[ANIM_SELECT_MAX];
    char text[ANIM_SELECT_TEXT]; /* --anim's value, each comma replaced by a NUL */
} anim_select;

#define ANIM_SELECT_INDEX 0xffffu

/* Parses the value of --anim ("all", or a list of one or more glTF animation indices or names,
 * separated by commas; an element of digits only is an index). Prints "COMMAND: --anim ..." and
 * returns 0 when the text is none of those. */
int anim_select_parse(const char *text, const char *command, anim_select *out);

/* Checks the selection against a model: a name it lacks or an index past its clip_count
 * animations is a usage error (the command line asks for what the file does not have; the file
 * is fine). Prints "COMMAND: --anim K: MODEL has N animations ..." and returns 0 then. */
int anim_select_check(const anim_select *s, const ossa_model *model, const char *command,
                      const char *model_name);

/* The selected animation indices into out (room for the model's clip count, or count when
 * listed); returns how many: every animation for all, the listed ones (after
 * anim_select_check), else {0} when the model has animations. */
uint32_t anim_select_resolve(const anim_select *s, const ossa_model *model, uint32_t *out);

#endif
