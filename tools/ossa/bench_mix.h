/* Mixing benchmark (`ossa bench`'s mix rows): a 4-layer mix per character against one plain
 * sample. */
#ifndef OSSA_TOOL_BENCH_MIX_H
#define OSSA_TOOL_BENCH_MIX_H

typedef struct bench_mix_result {
    char model[256]; /* the model's file name */
    int characters;
    double ns_sample; /* one clip sampled with a cursor, per character */
    double ns_mix;    /* the 4-layer mix (2 normal, 1 masked, 1 additive), per character */
} bench_mix_result;

/* Poses `characters` characters of one model for about `seconds` per measure, each at its own
 * phase, with ossa_clip_sample (clip 0, a cursor per character) and with ossa_mix_sample of a
 * mix of 4 layers: clips 0 and 1 (normal, weights 0.6 and 0.4), clip 2 masked (mask 0, 1 from
 * the rig node a third of the way down the rig), clip 0 additive at weight 0.5 against its
 * start (clip k is clip k mod the clip count). Sampling only: no FK or palettes. The fastest of
 * several slices is kept. Returns 0, 1 when the model cannot be loaded or has no animation, or
 * memory runs out (a message goes to stderr). */
int bench_mix(const char *model_path, int characters, double seconds, bench_mix_result *out);

#endif
