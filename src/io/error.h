/* The one way the library fills an ossa_error (result.h): every layer calls these. */
#ifndef OSSA_IO_ERROR_H
#define OSSA_IO_ERROR_H

#include <stdarg.h>

#include "ossa/result.h"

#if defined(__GNUC__) || defined(__clang__)
#define OSSA_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OSSA_PRINTF(f, a)
#endif

/*
 * Clears *error and fills it: code, file (NULL or "": none), JSON path (NULL or "": none) and
 * the message from a printf format (cut to fit). error may be NULL. Returns code, so a failing
 * function can `return ossa_error_set(...)`.
 */
ossa_result ossa_error_set(ossa_error *error, ossa_result code, const char *file, const char *path,
                           const char *format, ...) OSSA_PRINTF(5, 6);

/* ossa_error_set with a va_list. */
ossa_result ossa_error_setv(ossa_error *error, ossa_result code, const char *file, const char *path,
                            const char *format, va_list args);

#endif
