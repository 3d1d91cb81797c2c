#include "ossa/result.h"

#include <stdio.h>
#include <string.h>

#include "io/error.h"

const char *ossa_result_name(ossa_result result) {
    switch (result) {
    case OSSA_OK:
        return "ok";
    case OSSA_ERROR_IO:
        return "file error";
    case OSSA_ERROR_JSON:
        return "JSON syntax error";
    case OSSA_ERROR_GLB:
        return "broken GLB container";
    case OSSA_ERROR_INVALID:
        return "invalid glTF";
    case OSSA_ERROR_UNSUPPORTED:
        return "unsupported glTF feature";
    case OSSA_ERROR_OUT_OF_MEMORY:
        return "out of memory";
    case OSSA_ERROR_LIMIT:
        return "resource limit exceeded";
    case OSSA_ERROR_ARGUMENT:
        return "invalid argument";
    }
    return "unknown error";
}

int ossa_error_format(const ossa_error *error, char *buf, size_t size) {
    const char *file = error->file[0] ? error->file : NULL;
    const char *path = error->path[0] ? error->path : NULL;
    return snprintf(buf, size, "%s%s%s%s%s", file ? file : "", file ? ": " : "", path ? path : "",
                    path ? ": " : "", error->message);
}

ossa_result ossa_error_setv(ossa_error *error, ossa_result code, const char *file, const char *path,
                            const char *format, va_list args) {
    if (!error) return code;
    memset(error, 0, sizeof *error);
    error->code = code;
    snprintf(error->file, sizeof error->file, "%s", file ? file : "");
    snprintf(error->path, sizeof error->path, "%s", path ? path : "");
    vsnprintf(error->message, sizeof error->message, format, args);
    return code;
}

ossa_result ossa_error_set(ossa_error *error, ossa_result code, const char *file, const char *path,
                           const char *format, ...) {
    va_list args;
    va_start(args, format);
    ossa_error_setv(error, code, file, path, format, args);
    va_end(args);
    return code;
}
