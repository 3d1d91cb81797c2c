/* Root-motion benchmark (bench_motion.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_motion.h"
#include "cli_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "ossa/motion.h"

volatile double bench_motion_sink;

/* Roots the benchmark knows, with their up axis in the root's parent space. */
static const char *const KNOWN[] = {"b_Hip_01", "Skeleton_torso_joint_1"};

typedef struct motion_case {
    int kind; /* 0 split, 1 clip, 2 player with root motion, 3 player without */
    const ossa_rig *rig;
    const ossa_clip *clip;
    ossa_root_motion_desc desc;
    ossa_trs local;
    ossa_mix_player *player;
    double sink;
} motion_case;

static void run_call(motion_case *c, long i) {
    ossa_motion m;
    if (c->kind == 0) {
        c->local.translation[0] = (float)(i & 15); /* not hoisted out of the loop */
        ossa_root_motion_split(&c->desc, &c->local, &m, &c->local, NULL);
    } else if (c->kind == 1) {
        ossa_root_motion_clip(c->rig, &c->desc, c->clip, 0.0173 * (double)i, OSSA_MIX_LOOP, &m,
                              NULL);
    } else {
        ossa_mix_player_advance(c->player, 1.0 / 60);
        ossa_mix_player_take_motion(c->player, &m);
    }
    c->sink += m.translation[0];
}

/* Fastest ns per call over the slices. */
static void call_case(void *context, long i) {
    run_call(context, i);
}

static double measure(motion_case *c, double seconds) {
    return bench_fastest_ns_per_call(call_case, c, seconds);
}

int bench_motion(const char *model_path, double seconds, bench_motion_result *rows) {
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skip_cpu_skinning = 1;
    ossa_model *model = cli_load_model(model_path, &desc);
    if (!model) return -1;
    motion_case c;
    memset(&c, 0, sizeof c);
    c.rig = ossa_model_rig(model);
    c.clip = ossa_model_clip(model, 0);
    c.desc.node = -1;
    for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN && c.desc.node < 0; k++)
        c.desc.node = ossa_model_find_node(model, KNOWN[k]);
    int count = 0;
    size_t size = ossa_mix_player_size(model, NULL);
    void *memory = c.clip && c.desc.node >= 0 ? aligned_alloc(16, (size + 15) & ~(size_t)15) : NULL;
    if (memory && ossa_mix_player_init(model, NULL, memory, size, &c.player, NULL) == OSSA_OK &&
        ossa_mix_player_play(c.player, c.clip, NULL, NULL) == OSSA_OK) {
        c.desc.up[2] = 1; /* both known roots have the world's up on their parent's +Z */
        c.local = c.rig->rest[c.desc.node];
        static const char *const names[BENCH_MOTION_ROWS] = {"split", "clip", "player"};
        const char *base = strrchr(model_path, '/');
        for (int kind = 0; kind < BENCH_MOTION_ROWS; kind++, count++) {
            snprintf(rows[count].model, sizeof rows[count].model, "%s",
                     base ? base + 1 : model_path);
            rows[count].label = names[kind];
            c.kind = kind;
            ossa_mix_player_set_root_motion(c.player, kind == 2 ? &c.desc : NULL, NULL);
            rows[count].ns = measure(&c, seconds / (BENCH_MOTION_ROWS + 1));
        }
        /* the player's row is what root motion adds to a frame */
        c.kind = 3;
        ossa_mix_player_set_root_motion(c.player, NULL, NULL);
        double without = measure(&c, seconds / (BENCH_MOTION_ROWS + 1));
        rows[count - 1].ns = rows[count - 1].ns > without ? rows[count - 1].ns - without : 0;
    }
    free(memory);
    ossa_model_free(model);
    bench_motion_sink = c.sink; /* the results stay observable: no call is optimised away */
    return count;
}
