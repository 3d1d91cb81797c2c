/* Errors and warnings on stderr (see cli_report.h). */
#include "cli_report.h"

#include <stdio.h>

static void report(const char *kind, const char *file, const char *path, const char *message) {
    fprintf(stderr, "%s: %s: %s%s%s\n", kind, file, path, path[0] ? ": " : "", message);
}

void cli_report_error(const char *file, const ossa_error *error) {
    report("error", file ? file : error->file, error->path, error->message);
}

void cli_report_warnings(const char *file, const ossa_document *document) {
    for (uint32_t w = 0; w < document->warning_count; w++)
        report("warning", file ? file : document->file, document->warnings[w].path,
               document->warnings[w].message);
}

ossa_load_options *cli_load_options(void) {
    static ossa_load_options options;
    return &options;
}
