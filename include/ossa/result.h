/**
 * @file result.h
 * @brief Results, errors and warnings shared by every layer of ossa.
 *
 * Functions that can fail return an ::ossa_result and fill an ::ossa_error. The library never
 * prints: the caller decides what to show. Every message names the file and the JSON path of
 * the offending value, so `ossa_error_format` gives lines such as
 * `Fox.glb: animations[0].samplers[2].input: key times must increase (t[3] = 0.5 after t[2] =
 * 0.5)`.
 */
#ifndef OSSA_RESULT_H
#define OSSA_RESULT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What kind of failure happened. */
typedef enum ossa_result {
    OSSA_OK = 0,
    OSSA_ERROR_IO,      /**< a file could not be opened or read */
    OSSA_ERROR_JSON,    /**< the JSON text does not parse */
    OSSA_ERROR_GLB,     /**< the GLB container is truncated or lies about its lengths */
    OSSA_ERROR_INVALID, /**< the glTF violates the spec in a way that would give wrong results */
    OSSA_ERROR_UNSUPPORTED,   /**< valid glTF that ossa does not implement (a required extension) */
    OSSA_ERROR_OUT_OF_MEMORY, /**< the allocator returned NULL */
    OSSA_ERROR_LIMIT,         /**< a resource limit of the load options was exceeded */
    OSSA_ERROR_ARGUMENT       /**< the caller passed an invalid argument */
} ossa_result;

#define OSSA_FILE_MAX    256
#define OSSA_PATH_MAX    256
#define OSSA_MESSAGE_MAX 512

/** A failure: its kind, the file (base name as given), the JSON path and a sentence. */
typedef struct ossa_error {
    ossa_result code;
    char file[OSSA_FILE_MAX]; /**< e.g. "Fox.glb"; "" when loading from memory without a name */
    char path[OSSA_PATH_MAX]; /**< e.g. "animations[0].samplers[2].input"; "" for the file */
    char message[OSSA_MESSAGE_MAX]; /**< what is wrong, in words a user understands */
} ossa_error;

/** Something harmless to animation and skinning that a careful user still wants to hear. */
typedef struct ossa_warning {
    char path[OSSA_PATH_MAX];
    char message[OSSA_MESSAGE_MAX];
} ossa_warning;

/** A short English name for a result code ("ok", "invalid glTF", ...). */
const char *ossa_result_name(ossa_result result);

/**
 * Writes "FILE: PATH: MESSAGE" (parts that are empty are left out) into buf.
 * @return the length the full text needs, like snprintf.
 */
int ossa_error_format(const ossa_error *error, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
