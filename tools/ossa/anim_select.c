/* Parsing and checking --anim (see anim_select.h). */
#include "anim_select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element `p` of a list (NUL-terminated within out->text) as the next index or name: 0 when it
 * is empty or an index too large. */
static int add_element(char *p, anim_select *out) {
    uint32_t i = out->count;
    out->name_at[i] = (uint16_t)(p - out->text);
    if (!*p) return 0;
    if (strspn(p, "0123456789") == strlen(p)) { /* digits only: an index */
        errno = 0;
        unsigned long v = strtoul(p, NULL, 10);
        if (errno || v > INT32_MAX) return 0;
        out->indices[i] = (uint32_t)v;
        out->name_at[i] = ANIM_SELECT_INDEX;
    }
    out->count++;
    return 1;
}

int anim_select_parse(const char *text, const char *command, anim_select *out) {
    memset(out, 0, sizeof *out);
    out->given = 1;
    if (text && !strcmp(text, "all")) {
        out->all = out->several = 1;
        return 1;
    }
    size_t length = text ? strlen(text) : 0;
    if (length > 0 && length < sizeof out->text) {
        memcpy(out->text, text, length + 1);
        for (char *p = out->text; out->count < ANIM_SELECT_MAX;) {
            char *comma = strchr(p, ',');
            if (comma) *comma = '\0';
            if (!add_element(p, out)) break;
            if (!comma) return 1;
            out->several = 1;
            p = comma + 1;
        }
    }
    fprintf(stderr,
            "%s: --anim wants an animation index (0, 1, ...) or name, a list played together "
            "(0,2 or Walk,Run) or 'all', not '%s'\n",
            command, text ? text : "");
    return 0;
}

/* Element i's animation index: its number, or the model's clip of its name (-1: none). */
static int64_t element_index(const anim_select *s, uint32_t i, const ossa_model *model) {
    if (s->name_at[i] == ANIM_SELECT_INDEX) return s->indices[i];
    return ossa_model_find_clip(model, s->text + s->name_at[i]);
}

/* "0 "Survey", 1 "Walk", 2 "Run"" after a name the model lacks. */
static void print_names(const ossa_model *model) {
    uint32_t count = ossa_model_clip_count(model);
    for (uint32_t i = 0; i < count; i++) {
        const char *name = ossa_clip_name(ossa_model_clip(model, i));
        fprintf(stderr, "%s%u%s%s%s", i ? ", " : "", i, name ? " \"" : " (unnamed)",
                name ? name : "", name ? "\"" : "");
    }
}

int anim_select_check(const anim_select *s, const ossa_model *model, const char *command,
                      const char *model_name) {
    uint32_t clip_count = ossa_model_clip_count(model);
    for (uint32_t i = 0; s->given && !s->all && i < s->count; i++) {
        int64_t index = element_index(s, i, model);
        if (index >= 0 && index < clip_count) continue;
        if (s->name_at[i] != ANIM_SELECT_INDEX) {
            fprintf(stderr, "%s: --anim %s: %s has no animation of that name", command,
                    s->text + s->name_at[i], model_name);
            if (clip_count) {
                fprintf(stderr, " (it has ");
                print_names(model);
                fprintf(stderr, ")");
            }
            fprintf(stderr, "\n");
        } else if (clip_count) {
            fprintf(stderr, "%s: --anim %u: %s has %u animation%s (0 to %u)\n", command,
                    s->indices[i], model_name, clip_count, clip_count > 1 ? "s" : "",
                    clip_count - 1);
        } else {
            fprintf(stderr, "%s: --anim %u: %s has no animations\n", command, s->indices[i],
                    model_name);
        }
        return 0;
    }
    return 1;
}

uint32_t anim_select_resolve(const anim_select *s, const ossa_model *model, uint32_t *out) {
    uint32_t clip_count = ossa_model_clip_count(model);
    if (s->all) {
        for (uint32_t i = 0; i < clip_count; i++)
            out[i] = i;
        return clip_count;
    }
    if (s->given) {
        for (uint32_t i = 0; i < s->count; i++)
            out[i] = (uint32_t)element_index(s, i, model);
        return s->count;
    }
    if (!clip_count) return 0;
    out[0] = 0;
    return 1;
}
