/* IK benchmark (`ossa bench`'s ik rows): ns per call of the two-bone, aim and aim-chain jobs on
 * the characters whose joints it knows (Fox and CesiumMan, and their variants). */
#ifndef OSSA_TOOL_BENCH_IK_H
#define OSSA_TOOL_BENCH_IK_H

#include "bench_rows.h"

/* Rows labelled "two_bone" (a leg), "aim" (the head), "aim_chain" (spine to head). */
typedef bench_ns_row bench_ik_result;

/* Rows per model at most. */
#define BENCH_IK_JOBS 3

/* Runs each job of a known rig on one character (clip 0 at 0.3 s), targets cycling around the
 * joint, for about `seconds` split into slices; writes up to BENCH_IK_JOBS rows and returns how
 * many (0 for a rig it does not know), or -1 when the model cannot be loaded (a message goes to
 * stderr). */
int bench_ik(const char *model_path, double seconds, bench_ik_result *rows);

/* `,"ik":[{model, job, ns}, ...]`, model names printed by print_string (JSON-escaped). */
void bench_ik_print_json(const bench_ik_result *rows, int count,
                         void (*print_string)(const char *text));

/* The rows as a table. */
void bench_ik_print_table(const bench_ik_result *rows, int count);

#endif
