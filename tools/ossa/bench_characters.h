/* Crowd benchmark of sample + forward kinematics + palette, used by `ossa bench`. */
#ifndef OSSA_TOOL_BENCH_CHARACTERS_H
#define OSSA_TOOL_BENCH_CHARACTERS_H

typedef struct bench_character_result {
    char model[256];                               /* the model's file name */
    int joints;                                    /* joints of all skins */
    int nodes;                                     /* rig nodes */
    double ns_sample, ns_fk, ns_palette, ns_total; /* per character per frame */
} bench_character_result;

/* Animates `characters` characters of one model (clip 0 looping, each at its own phase; the
 * rest pose when the model has no animation) for about `seconds`, frame after frame: sample
 * every character (with a per-character cursor when use_cursor, else the stateless search),
 * then forward kinematics of every character, then the skinning palettes
 * (inverse(world(mesh node)) * world(joint) * IBM) of every skin. The run is split into
 * slices and the figures are those of the fastest slice (the machine may be shared). The
 * cursors persist across frames, as in playback. Returns 0 on success,
 * non-zero when the model cannot be loaded or memory runs out (a message goes to stderr). */
int bench_characters(const char *model_path, int use_cursor, int characters, double seconds,
                     bench_character_result *out);

#endif
