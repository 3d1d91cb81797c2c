/* Root-motion benchmark (`ossa bench`'s root_motion rows): ns per extraction on the characters
 * whose root it knows (Fox and CesiumMan, and their variants). */
#ifndef OSSA_TOOL_BENCH_MOTION_H
#define OSSA_TOOL_BENCH_MOTION_H

#include "bench_rows.h"

/* Rows labelled "split", "clip" or "player" (see bench_motion). */
typedef bench_ns_row bench_motion_result;

/* Rows per model at most. */
#define BENCH_MOTION_ROWS 3

/* Times, for about `seconds`: "split" (a root's local transform split into motion and in-place
 * part), "clip" (the motion clip 0 accumulates up to a position: the root's channels sampled at
 * start, end and there, the split, C^n), "player" (one player frame of clip 0 with root motion:
 * advance, take; minus the same frame without). Writes up to BENCH_MOTION_ROWS rows and
 * returns how many (0 for a rig it does not know), -1 when the model cannot be loaded. */
int bench_motion(const char *model_path, double seconds, bench_motion_result *rows);

/* `,"root_motion":[{model, what, ns}, ...]`, model names printed by print_string. */
void bench_motion_print_json(const bench_motion_result *rows, int count,
                             void (*print_string)(const char *text));

/* The rows as a table. */
void bench_motion_print_table(const bench_motion_result *rows, int count);

#endif
