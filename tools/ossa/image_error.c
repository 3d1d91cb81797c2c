/* The error helper of the image files. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "image.h"

ossa_result image_fail(ossa_error *error, ossa_result code, const char *file, const char *format,
                       ...) {
    if (!error) return code;
    memset(error, 0, sizeof *error);
    error->code = code;
    snprintf(error->file, sizeof error->file, "%s", file ? file : "");
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    return code;
}
