/* Option values of the commands (cli_args.h). */
#include "cli_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void refuse(const char *command, const char *option, const char *kind, const char *text) {
    if (text)
        fprintf(stderr, "%s: %s needs %s, got '%s'\n", command, option, kind, text);
    else
        fprintf(stderr, "%s: %s needs %s after it\n", command, option, kind);
}

int cli_number(const char *command, const char *option, const char *text, double lo, double hi,
               double *out) {
    char *end = NULL;
    double v = text ? strtod(text, &end) : NAN;
    if (!text || end == text || *end || !(v >= lo && v <= hi)) {
        char kind[96];
        snprintf(kind, sizeof kind, "a number in [%g, %g]", lo, hi);
        refuse(command, option, kind, text);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_integer(const char *command, const char *option, const char *text, long long lo,
                long long hi, long long *out) {
    char *end = NULL;
    errno = 0;
    long long v = text ? strtoll(text, &end, 10) : 0;
    if (!text || end == text || *end || errno || v < lo || v > hi) {
        char kind[96];
        snprintf(kind, sizeof kind, "a whole number in [%lld, %lld]", lo, hi);
        refuse(command, option, kind, text);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_has_extension(const char *path, const char *extension) {
    size_t n = strlen(path), m = strlen(extension);
    if (n < m) return 0;
    const char *tail = path + n - m;
    int lower = 1, upper = 1;
    for (size_t i = 0; i < m; i++) {
        lower &= tail[i] == extension[i];
        upper &= tail[i] == (char)toupper((unsigned char)extension[i]);
    }
    return lower || upper;
}
