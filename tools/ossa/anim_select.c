/* Parsing and checking --anim (see anim_select.h). */
#include "anim_select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int anim_select_parse(const char *text, const char *command, anim_select *out) {
    memset(out, 0, sizeof *out);
    out->given = 1;
    if (text && !strcmp(text, "all")) {
        out->all = out->several = 1;
        return 1;
    }
    for (const char *p = text; p && *p;) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || v > INT32_MAX || *p == '-' || *p == '+' ||
            out->count == ANIM_SELECT_MAX || (*end && *end != ','))
            break;
        out->indices[out->count++] = (uint32_t)v;
        if (!*end) return 1;
        out->several = 1;
        p = end + 1;
    }
    fprintf(stderr,
            "%s: --anim wants an animation index (0, 1, ...), a list played together (0,2) or "
            "'all', not '%s'\n",
            command, text ? text : "");
    return 0;
}

int anim_select_check(const anim_select *s, uint32_t clip_count, const char *command,
                      const char *model) {
    for (uint32_t i = 0; s->given && !s->all && i < s->count; i++) {
        if (s->indices[i] < clip_count) continue;
        if (clip_count)
            fprintf(stderr, "%s: --anim %u: %s has %u animation%s (0 to %u)\n", command,
                    s->indices[i], model, clip_count, clip_count > 1 ? "s" : "", clip_count - 1);
        else
            fprintf(stderr, "%s: --anim %u: %s has no animations\n", command, s->indices[i], model);
        return 0;
    }
    return 1;
}

uint32_t anim_select_resolve(const anim_select *s, uint32_t clip_count, uint32_t *out) {
    if (s->all) {
        for (uint32_t i = 0; i < clip_count; i++)
            out[i] = i;
        return clip_count;
    }
    if (s->given) {
        memcpy(out, s->indices, s->count * sizeof *out);
        return s->count;
    }
    if (!clip_count) return 0;
    out[0] = 0;
    return 1;
}
