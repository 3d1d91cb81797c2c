/* What the hostile cases share: the table row with its check, and loading + running bytes. */
#ifndef OSSA_HOSTILE_CASES_H
#define OSSA_HOSTILE_CASES_H

#include <stddef.h>

#include "ossa/document.h"

extern int hostile_case_count;

/* Prints a table row and checks the result (and, for errors, the JSON path prefix, unless
 * path is NULL). */
void hostile_report(const char *name, ossa_result got, const ossa_error *error, ossa_result expect,
                    const char *path);

/* Loads bytes from memory; when they load, runs the whole runtime pipeline on them, which must
 * go through every stage. Returns the load's result. */
ossa_result hostile_load_and_run(const char *name, const unsigned char *data, size_t size,
                                 const ossa_load_options *options, ossa_error *error);

/* hostile_load_and_run, then hostile_report. */
void hostile_run_bytes(const char *name, const unsigned char *data, size_t size,
                       const ossa_load_options *options, ossa_result expect, const char *path);

/* The cases of hostile_big.c: deep and cyclic hierarchies, deep JSON, a 65,536-joint skin,
 * quaternion normalisation results. */
void hostile_big_cases(void);

#endif
