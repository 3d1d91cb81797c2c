/* Clip benchmark (`ossa bench`'s clip rows): runtime bytes of each clip, plain and compact, and
 * the time to sample each form. */
#ifndef OSSA_TOOL_BENCH_CLIPS_H
#define OSSA_TOOL_BENCH_CLIPS_H

#include <stddef.h>

typedef struct bench_clip_result {
    char model[256]; /* the model's file name */
    char clip[64];   /* the clip's name, or its index */
    size_t plain_bytes, compact_bytes;
    double error, budget; /* the compact clip's declared error and its budget (model units) */
    double ns_plain, ns_compact; /* one sample with a cursor, per character (sampling only) */
} bench_clip_result;

/* Loads a model twice (plain and compact clips) and, for each of its first `max` clips, samples
 * `characters` poses at staggered phases with each form for about `seconds` per form, slices of
 * the two interleaved, on the thread's CPU clock; the fastest slice of each is kept. Returns the
 * number of rows written, -1 when the model cannot be loaded (a message goes to stderr). */
int bench_clips(const char *model_path, int characters, double seconds, bench_clip_result *out,
                int max);

#endif
