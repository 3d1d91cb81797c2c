/* Errors and warnings on stderr (see cli_report.h). */
#include "cli_report.h"

#include <stdio.h>
#include <string.h>

static void report(const char *kind, const char *file, const char *path, const char *message) {
    fprintf(stderr, "%s: %s: %s%s%s\n", kind, file, path, path[0] ? ": " : "", message);
}

void cli_report_error(const char *file, const ossa_error *error) {
    report("error", file ? file : error->file, error->path, error->message);
    /* the library names its load option; on the command line it is a flag */
    if (strstr(error->message, "allow_unsafe_paths"))
        fprintf(stderr, "(give --allow-unsafe-paths to load it anyway)\n");
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

ossa_model *cli_load_model(const char *path, const ossa_model_desc *desc) {
    ossa_document *doc = NULL;
    ossa_model *model = NULL;
    ossa_error error;
    ossa_result r = ossa_document_load_file(path, cli_load_options(), &doc, &error);
    if (r == OSSA_OK) r = ossa_model_create(doc, desc, &model, &error);
    ossa_document_free(doc);
    if (r != OSSA_OK) cli_report_error(path, &error);
    return model;
}

void cli_report_compact_clips(FILE *out, const char *prefix, const ossa_model *model) {
    for (uint32_t i = 0; i < ossa_model_clip_count(model); i++) {
        const ossa_clip *clip = ossa_model_clip(model, i);
        const char *name = ossa_clip_name(clip);
        fprintf(out, "%scompact clip %u%s%s%s: %zu bytes, error %.3g (budget %.3g)\n", prefix, i,
                name ? " \"" : "", name ? name : "", name ? "\"" : "",
                ossa_clip_runtime_bytes(clip), (double)ossa_clip_compact_error(clip),
                (double)ossa_clip_compact_budget(clip));
    }
}
