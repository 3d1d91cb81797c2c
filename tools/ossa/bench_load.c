/* Loading benchmark (bench_load.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_load.h"

#include <stdlib.h>

#include "bench_clock.h"
#include "cli_report.h"
#include "ossa/document.h"

/* Floats of the largest accessor of a document: the scratch every accessor is read into. */
static uint64_t largest_accessor(const ossa_document *doc) {
    uint64_t most = 1;
    for (uint32_t i = 0; i < doc->accessor_count; i++) {
        uint64_t n = doc->accessors[i].count * doc->accessors[i].components;
        if (n > most) most = n;
    }
    return most;
}

int bench_load(const char *model_path, int runs, bench_load_result *out) {
    ossa_document *doc = NULL;
    ossa_error error;
    /* what cgltf's harness times: no image is read (its loader never reads them) */
    ossa_load_options options = *cli_load_options();
    options.skip_images = 1;
    if (ossa_document_load_file(model_path, &options, &doc, &error) != OSSA_OK) {
        cli_report_error(model_path, &error);
        return -1;
    }
    float *scratch = malloc(largest_accessor(doc) * sizeof *scratch);
    ossa_document_free(doc);
    if (!scratch) return -1;
    double best = -1.0, best_load = -1.0;
    for (int r = 0; r < runs; r++) {
        double start = bench_now_ns();
        if (ossa_document_load_file(model_path, &options, &doc, &error) != OSSA_OK) {
            cli_report_error(model_path, &error);
            free(scratch);
            return -1;
        }
        double loaded = bench_now_ns();
        for (uint32_t i = 0; i < doc->accessor_count; i++)
            ossa_accessor_read_float(doc, (int32_t)i, 0, doc->accessors[i].count, scratch);
        ossa_document_free(doc);
        double end = bench_now_ns();
        if (best < 0.0 || end - start < best) best = end - start;
        if (best_load < 0.0 || loaded - start < best_load) best_load = loaded - start;
    }
    free(scratch);
    out->us = best / 1e3;
    out->us_load = best_load / 1e3;
    return 0;
}
