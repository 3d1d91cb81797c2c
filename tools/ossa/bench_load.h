/* Loading benchmark (`ossa bench`'s load rows): what a program pays to get a file's data ready,
 * timed like cgltf's side-by-side harness (../shared/anchors/cgltf/) so the two compare like for
 * like. */
#ifndef OSSA_TOOL_BENCH_LOAD_H
#define OSSA_TOOL_BENCH_LOAD_H

/* Loads per file; the fastest counts. */
#define BENCH_LOAD_RUNS 50

typedef struct bench_load_result {
    char model[256];
    double us; /* load (images not read) + every accessor read as floats + free: cgltf's parse, load
                  buffers, validate and unpack of every accessor (and its free) */
    double us_load; /* ossa_document_load_file alone (parse, buffers, every check) */
} bench_load_result;

/* The best of `runs` loads of one file (each part the best of its own). 0 on success, -1 when the
 * file does not load (the error reported). */
int bench_load(const char *model_path, int runs, bench_load_result *out);

#endif
