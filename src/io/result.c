#include "ossa/result.h"

#include <stdio.h>

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
