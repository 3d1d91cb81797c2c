/* --anim of render, view and sample: one animation (K), a list played together (0,2) or all. */
#ifndef OSSA_TOOL_ANIM_SELECT_H
#define OSSA_TOOL_ANIM_SELECT_H

#include <stdint.h>

#define ANIM_SELECT_MAX 256 /* indices in a list */

typedef struct anim_select {
    int given;   /* --anim was given */
    int all;     /* --anim all */
    int several; /* all or a comma list: the animations play together (arrays in sample --json) */
    uint32_t count;
    uint32_t indices[ANIM_SELECT_MAX]; /* the listed glTF animation indices (not for all) */
} anim_select;

/* Parses the value of --anim ("all", "K" or "K,L,..."). Prints "COMMAND: --anim ..." and
 * returns 0 when the text is none of those. */
int anim_select_parse(const char *text, const char *command, anim_select *out);

/* Checks the selection against a model with clip_count animations: an index the model lacks
 * is a usage error (the command line asks for what the file does not have; the file is fine).
 * Prints "COMMAND: --anim K: MODEL has N animations ..." and returns 0 then. */
int anim_select_check(const anim_select *s, uint32_t clip_count, const char *command,
                      const char *model);

/* The selected animation indices into out (room for clip_count, or count when listed); returns
 * how many: every animation for all, the listed ones, else {0} when the model has animations. */
uint32_t anim_select_resolve(const anim_select *s, uint32_t clip_count, uint32_t *out);

#endif
