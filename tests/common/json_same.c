/* Comparing cJSON trees (json_same.h). */
#include "json_same.h"

#include <stdio.h>
#include <string.h>

static int differ(char *why, size_t why_size, const char *what, const cJSON *at) {
    snprintf(why, why_size, "%s at key \"%s\"", what, at && at->string ? at->string : "");
    return 0;
}

int json_same(const cJSON *a, const cJSON *b, char *why, size_t why_size) {
    if (!a || !b) return differ(why, why_size, "a missing value", a ? a : b);
    if ((a->type & 0xFF) != (b->type & 0xFF)) return differ(why, why_size, "types differ", a);
    if ((a->string == NULL) != (b->string == NULL) ||
        (a->string && strcmp(a->string, b->string) != 0))
        return differ(why, why_size, "keys differ", a);
    if (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring) != 0)
        return differ(why, why_size, "strings differ", a);
    if (cJSON_IsNumber(a) && (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0 ||
                              a->valueint != b->valueint))
        return differ(why, why_size, "numbers differ", a);
    if (cJSON_IsTrue(a) && a->valueint != b->valueint)
        return differ(why, why_size, "true differs", a);
    const cJSON *x = a->child, *y = b->child;
    if ((x == NULL) != (y == NULL)) return differ(why, why_size, "member counts differ", a);
    if (x && (x->prev == NULL || x->prev->next != NULL || y->prev == NULL || y->prev->next != NULL))
        return differ(why, why_size, "the first member's prev is not the last", a);
    for (; x && y; x = x->next, y = y->next) {
        if (!json_same(x, y, why, why_size)) return 0;
        if (x->next && x->next->prev != x) return differ(why, why_size, "prev links differ", x);
    }
    if (x || y) return differ(why, why_size, "member counts differ", a);
    return 1;
}

cJSON *json_parse_cjson(const char *text, size_t size) {
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
    if (!root) return NULL;
    size_t at = (size_t)(end - text);
    while (at < size &&
           (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
        at++;
    while (at < size && text[at] == '\0')
        at++;
    if (at != size) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int json_has_long_number(const char *text, size_t size) {
    size_t run = 0;
    for (size_t i = 0; i < size; i++) {
        run = strchr("0123456789+-.eE", text[i]) && text[i] ? run + 1 : 0;
        if (run > 63) return 1;
    }
    return 0;
}
