/* Rows of `ossa bench` that give one time per model and label (IK jobs, root motion), and how
 * they print in the table and in --json. */
#ifndef OSSA_TOOL_BENCH_ROWS_H
#define OSSA_TOOL_BENCH_ROWS_H

typedef struct bench_ns_row {
    char model[256];   /* the model's file name */
    const char *label; /* what was timed */
    double ns;         /* per call, the fastest slice */
} bench_ns_row;

/* Prints `,"KEY":[{"model":..., "LABEL_KEY":"...", "ns":...}, ...]`. */
void bench_ns_rows_print_json(const char *key, const char *label_key, const bench_ns_row *rows,
                              int count, void (*print_string)(const char *text));

/* Prints the title, then a model / LABEL_HEADER / ns table; nothing without rows. */
void bench_ns_rows_print_table(const char *title, const char *label_header,
                               const bench_ns_row *rows, int count);

#endif
