/* Crowd benchmark of sample + forward kinematics + palette, used by `ossa bench`. */
#ifndef OSSA_TOOL_BENCH_CHARACTERS_H
#define OSSA_TOOL_BENCH_CHARACTERS_H

typedef struct bench_character_result {
    char model[256];                               /* the model's file name */
    int joints;                                    /* joints of all skins */
    int nodes;                                     /* rig nodes */
    double ns_sample, ns_fk, ns_palette, ns_total; /* per character per frame */
    double ns_fk_palette_many; /* FK + palettes four characters at a time (not in ns_total) */
} bench_character_result;

/* Animates `characters` characters of one model (clip 0 looping, each at its own phase; the
 * rest pose when the model has no animation) for about `seconds`, frame after frame: sample
 * every character (with a per-character cursor when use_cursor, else the stateless search),
 * then forward kinematics of every character, then the palettes of every skin (world-space,
 * world(joint) * IBM, as ossa_character_update computes them), each a call per character;
 * then FK and palettes again through one ossa_fk_palettes_world_many call over the crowd. The
 * run is split into slices and the figures are those of the fastest slice (the machine may be
 * shared). The cursors persist across frames, as in playback. Returns 0 on success, non-zero
 * when the model cannot be loaded or memory runs out (a message goes to stderr). */
int bench_characters(const char *model_path, int use_cursor, int characters, double seconds,
                     bench_character_result *out);

#endif
