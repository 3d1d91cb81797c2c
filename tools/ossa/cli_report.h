/* How the commands report a model's problems on stderr, and the load options they share: the file
 * as the user gave it (the library's messages carry only its base name), then the JSON path and the
 * message. */
#ifndef OSSA_TOOL_CLI_REPORT_H
#define OSSA_TOOL_CLI_REPORT_H

#include <stdio.h>

#include "ossa/document.h"
#include "ossa/model.h"
#include "ossa/result.h"

/* "error: FILE: JSON-PATH: message" (FILE: the error's own file when `file` is NULL). */
void cli_report_error(const char *file, const ossa_error *error);

/* "warning: FILE: JSON-PATH: message" for each warning of the document. */
void cli_report_warnings(const char *file, const ossa_document *document);

/* The load options of the running command (all defaults unless a command sets them from its
 * options, as bench does for --allow-unsafe-paths): for helpers that load models themselves. */
ossa_load_options *cli_load_options(void);

/* The model of a file, loaded with cli_load_options and built with desc (NULL: defaults); the
 * document is freed. NULL when it cannot be had, with the error reported. */
ossa_model *cli_load_model(const char *path, const ossa_model_desc *desc);

/* What --compact plays: "PREFIXcompact clip K "NAME": N bytes, error E (budget B)" per clip. */
void cli_report_compact_clips(FILE *out, const char *prefix, const ossa_model *model);

#endif
