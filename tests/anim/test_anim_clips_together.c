/* ossa_clips_sample: several clips sampled together into one pose equal, bit for bit, the rest
 * pose with each clip's own channels copied in from that clip sampled alone (ossa_clip_sample),
 * a later clip winning where two animate the same property; cursors change nothing; misuse is
 * refused with nothing written. Models: one clip per object (BlenderAllAnimations), the demo
 * (windmill and tentacle clips), clips over the same nodes (SyntheticInterp, Fox). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/sample.h"
#include "test_support.h"

typedef struct model {
    ossa_document *doc;
    ossa_rig *rig;
    ossa_clip_set *clips;
} model;

static int load(model *m, const char *path) {
    memset(m, 0, sizeof *m);
    ossa_result r = path ? ossa_document_load_file(path, NULL, &m->doc, NULL)
                         : ossa_demo_load(NULL, &m->doc, NULL);
    if (r == OSSA_OK) r = ossa_rig_build(m->doc, NULL, &m->rig, NULL);
    if (r == OSSA_OK) r = ossa_clip_set_build(m->doc, m->rig, NULL, &m->clips, NULL);
    CHECKF(r == OSSA_OK, "%s does not load", path ? path : "the demo");
    return r == OSSA_OK;
}

static void unload(model *m) {
    ossa_clip_set_free(m->clips);
    ossa_rig_free(m->rig);
    ossa_document_free(m->doc);
}

static ossa_pose pose_new(const ossa_rig *rig) {
    ossa_pose p = {calloc(rig->node_count + 1, sizeof(ossa_trs)),
                   calloc(rig->weight_total + 1, sizeof(float))};
    return p;
}

static void pose_free(ossa_pose *p) {
    free(p->local);
    free(p->weights);
}

/* The expected pose: rest, then for each animation in order, the values of its channels'
 * targets from the clip sampled alone. */
static void expected(const model *m, const uint32_t *anims, const float *times, uint32_t count,
                     ossa_pose *out) {
    const ossa_rig *rig = m->rig;
    ossa_pose alone = pose_new(rig);
    ossa_pose_set_rest(rig, out);
    for (uint32_t k = 0; k < count; k++) {
        const ossa_clip *clip = ossa_clip_set_clip(m->clips, anims[k]);
        CHECK(ossa_clip_sample(rig, clip, times[k], NULL, &alone) == OSSA_OK);
        const ossa_animation *a = &m->doc->animations[anims[k]];
        for (uint32_t c = 0; c < a->channel_count; c++) {
            int32_t g = a->channels[c].node;
            if (g < 0) continue;
            int32_t r = rig->rig_from_gltf[g];
            switch (a->channels[c].path) {
            case OSSA_PATH_TRANSLATION:
                memcpy(out->local[r].translation, alone.local[r].translation, 3 * sizeof(float));
                break;
            case OSSA_PATH_ROTATION:
                memcpy(out->local[r].rotation, alone.local[r].rotation, 4 * sizeof(float));
                break;
            case OSSA_PATH_SCALE:
                memcpy(out->local[r].scale, alone.local[r].scale, 3 * sizeof(float));
                break;
            default:
                memcpy(out->weights + rig->weight_offset[r], alone.weights + rig->weight_offset[r],
                       rig->weight_count[r] * sizeof(float));
                break;
            }
        }
    }
    pose_free(&alone);
}

static int same_pose(const ossa_rig *rig, const ossa_pose *a, const ossa_pose *b) {
    return !memcmp(a->local, b->local, rig->node_count * sizeof(ossa_trs)) &&
           (!rig->weight_total ||
            !memcmp(a->weights, b->weights, rig->weight_total * sizeof(float)));
}

/* Every animation together, and each list of two, at times across the clips' ranges (each clip
 * at its own time), with and without cursors. */
static void check_model(const char *label, const char *path) {
    model m;
    if (!load(&m, path)) return;
    uint32_t n = ossa_clip_set_count(m.clips);
    CHECKF(n >= 2, "%s: %u clips", label, n);
    const ossa_clip **clips = calloc(n, sizeof *clips);
    uint32_t *anims = calloc(n, sizeof *anims), cursor_total = 0;
    float *times = calloc(n, sizeof *times);
    ossa_cursor *cursors = calloc(n, sizeof *cursors);
    for (uint32_t k = 0; k < n; k++)
        cursor_total += ossa_cursor_size(ossa_clip_set_clip(m.clips, k)) + 1;
    uint32_t *keys = calloc(cursor_total, sizeof *keys);
    ossa_pose got = pose_new(m.rig), want = pose_new(m.rig), cursored = pose_new(m.rig);
    int mismatches = 0, cases = 0;
    for (int step = 0; step <= 40; step++) {
        /* every clip, in order and reversed, then the pairs (k, k+1) */
        for (uint32_t variant = 0; variant < 2 + n; variant++) {
            uint32_t count = variant < 2 ? n : 2;
            for (uint32_t k = 0; k < count; k++) {
                anims[k] = variant == 0 ? k : variant == 1 ? n - 1 - k : (variant - 2 + k) % n;
                clips[k] = ossa_clip_set_clip(m.clips, anims[k]);
                /* each its own time: a phase shifted per clip, past both ends too */
                float start = ossa_clip_start(clips[k]), d = ossa_clip_duration(clips[k]);
                times[k] = start + d * (-0.1f + 1.2f * (float)((step + 7 * k) % 41) / 40.0f);
            }
            expected(&m, anims, times, count, &want);
            CHECK(ossa_clips_sample(m.rig, clips, times, count, NULL, &got) == OSSA_OK);
            uint32_t *p = keys;
            for (uint32_t k = 0; k < count; k++) {
                cursors[k].keys = p;
                cursors[k].capacity = ossa_cursor_size(clips[k]);
                p += cursors[k].capacity + 1;
            }
            CHECK(ossa_clips_sample(m.rig, clips, times, count, cursors, &cursored) == OSSA_OK);
            mismatches += !same_pose(m.rig, &got, &want) + !same_pose(m.rig, &got, &cursored);
            cases++;
        }
    }
    printf("%s: %u clips, %d cases, %d mismatches\n", label, n, cases, mismatches);
    CHECKF(mismatches == 0, "%s: %d of %d poses differ from the clips sampled alone", label,
           mismatches, cases);
    pose_free(&got);
    pose_free(&want);
    pose_free(&cursored);
    free(clips);
    free(anims);
    free(times);
    free(cursors);
    free(keys);
    unload(&m);
}

/* BlenderAllAnimations: three clips, one object each; together they differ from any one alone
 * (the point of playing them together) and equal the per-object composition. */
static void check_disjoint(void) {
    model m;
    if (!load(&m, ossa_test_shared_path("models/BlenderAllAnimations/03_all_animations.gltf")))
        return;
    const ossa_clip *clips[3];
    float times[3] = {1.0f, 1.0f, 1.0f};
    for (int k = 0; k < 3; k++)
        clips[k] = ossa_clip_set_clip(m.clips, (uint32_t)k);
    ossa_pose together = pose_new(m.rig), alone = pose_new(m.rig);
    CHECK(ossa_clips_sample(m.rig, clips, times, 3, NULL, &together) == OSSA_OK);
    for (int k = 0; k < 3; k++) {
        CHECK(ossa_clip_sample(m.rig, clips[k], 1.0f, NULL, &alone) == OSSA_OK);
        CHECKF(!same_pose(m.rig, &together, &alone), "all three == clip %d alone", k);
    }
    /* count 0: the rest pose */
    ossa_pose rest = pose_new(m.rig);
    ossa_pose_set_rest(m.rig, &rest);
    CHECK(ossa_clips_sample(m.rig, clips, times, 0, NULL, &together) == OSSA_OK);
    CHECK(same_pose(m.rig, &together, &rest));
    pose_free(&rest);
    pose_free(&together);
    pose_free(&alone);
    unload(&m);
}

/* A NULL clip, a clip of another rig, a cursor too small: OSSA_ERROR_ARGUMENT, pose untouched. */
static void check_misuse(void) {
    model fox, demo;
    if (!load(&fox, ossa_test_shared_path("models/Fox/Fox.glb"))) return;
    if (!load(&demo, NULL)) {
        unload(&fox);
        return;
    }
    ossa_pose pose = pose_new(fox.rig);
    memset(pose.local, 0x5a, fox.rig->node_count * sizeof(ossa_trs));
    ossa_trs *copy = malloc(fox.rig->node_count * sizeof(ossa_trs));
    memcpy(copy, pose.local, fox.rig->node_count * sizeof(ossa_trs));
    float times[2] = {0.5f, 0.5f};
    const ossa_clip *with_null[2] = {ossa_clip_set_clip(fox.clips, 0), NULL};
    const ossa_clip *other_rig[2] = {ossa_clip_set_clip(fox.clips, 0),
                                     ossa_clip_set_clip(demo.clips, 0)};
    const ossa_clip *fine[2] = {ossa_clip_set_clip(fox.clips, 0), ossa_clip_set_clip(fox.clips, 1)};
    uint32_t keys[64] = {0};
    ossa_cursor small[2] = {{keys, ossa_cursor_size(fine[0])},
                            {keys + 32, ossa_cursor_size(fine[1]) - 1}};
    CHECK(ossa_cursor_size(fine[0]) <= 32 && ossa_cursor_size(fine[1]) >= 1);
    CHECK(ossa_clips_sample(fox.rig, with_null, times, 2, NULL, &pose) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_clips_sample(fox.rig, other_rig, times, 2, NULL, &pose) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_clips_sample(fox.rig, fine, times, 2, small, &pose) == OSSA_ERROR_ARGUMENT);
    CHECK(!memcmp(copy, pose.local, fox.rig->node_count * sizeof(ossa_trs)));
    CHECK(ossa_clips_sample(fox.rig, fine, times, 2, NULL, &pose) == OSSA_OK);
    free(copy);
    pose_free(&pose);
    unload(&demo);
    unload(&fox);
}

int main(void) {
    check_model("BlenderAllAnimations",
                ossa_test_shared_path("models/BlenderAllAnimations/03_all_animations.gltf"));
    check_model("demo", NULL);
    check_model("SyntheticInterp",
                ossa_test_shared_path("models/SyntheticInterp/SyntheticInterp.gltf"));
    check_model("Fox", ossa_test_shared_path("models/Fox/Fox.glb"));
    check_model("MorphStressTest",
                ossa_test_shared_path("models/MorphStressTest/MorphStressTest.gltf"));
    check_disjoint();
    check_misuse();
    return ossa_test_finish("anim_clips_together");
}
