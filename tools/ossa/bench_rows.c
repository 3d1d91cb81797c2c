/* Printing the time-per-label rows of `ossa bench` (bench_rows.h). */
#include "bench_rows.h"

#include <stdio.h>

void bench_ns_rows_print_json(const char *key, const char *label_key, const bench_ns_row *rows,
                              int count, void (*print_string)(const char *text)) {
    printf(",\"%s\":[", key);
    for (int i = 0; i < count; i++) {
        printf("%s{\"model\":", i ? "," : "");
        print_string(rows[i].model);
        printf(",\"%s\":\"%s\",\"ns\":%.1f}", label_key, rows[i].label, rows[i].ns);
    }
    fputc(']', stdout);
}

void bench_ns_rows_print_table(const char *title, const char *label_header,
                               const bench_ns_row *rows, int count) {
    if (!count) return;
    printf("\n%s\n", title);
    printf("  %-48s %10s %9s\n", "model", label_header, "ns");
    for (int i = 0; i < count; i++)
        printf("  %-48s %10s %9.1f\n", rows[i].model, rows[i].label, rows[i].ns);
}
