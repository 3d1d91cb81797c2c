/* Crowd benchmark of the runtime API (`ossa bench`'s crowd rows): ossa_characters_update over a
 * thread pool, a frame at a time. */
#ifndef OSSA_TOOL_BENCH_CROWD_H
#define OSSA_TOOL_BENCH_CROWD_H

#include "ossa/thread_pool.h"

typedef struct bench_crowd_result {
    char model[256]; /* the model's file name */
    int characters;
    unsigned threads;
    double ms_per_frame;     /* one frame of every character: sample, FK, every palette */
    double ns_per_character; /* ms_per_frame / characters */
} bench_crowd_result;

/* Updates `characters` characters of one model (clip 0 looping, each at its own phase) frame
 * after frame for about `seconds` with ossa_characters_update on `pool` (NULL: the calling
 * thread), and keeps the fastest of several slices. Returns 0, or 1 when the model cannot be
 * loaded or memory runs out (a message goes to stderr). */
int bench_crowd(const char *model_path, int characters, double seconds, ossa_thread_pool *pool,
                bench_crowd_result *out);

#endif
