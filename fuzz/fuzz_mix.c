/* libFuzzer target: mix files (JSON, mix.h) read for Fox, then everything a mix file drives:
 * the mix prepared and sampled at several clocks, its root motion split and accumulated, the
 * character posed by the whole file (ossa_mix_file_pose: root in place, IK entries).
 * Contracts: a refusal has a consistent error and no object; a mix that is accepted gives
 * finite poses (Fox's clips are finite, and the reader refuses values that are not); root
 * motion and IK on them are finite too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_contract.h"
#include "ossa/mix.h"
#include "ossa/motion.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ossa_model *fox;
static ossa_character *character;

/* Fox and a character of it, once per process. */
static void open_fox(void) {
    if (fox) return;
    ossa_document *doc = NULL;
    ossa_error error;
    REQUIRE(ossa_document_load_file(OSSA_FUZZ_FOX, NULL, &doc, &error) == OSSA_OK, "%s: %s",
            OSSA_FUZZ_FOX, error.message);
    REQUIRE(ossa_model_create(doc, NULL, &fox, &error) == OSSA_OK, "model: %s", error.message);
    ossa_document_free(doc);
    REQUIRE(ossa_character_create(fox, &character, &error) == OSSA_OK, "character: %s",
            error.message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    open_fox();
    const ossa_rig *rig = ossa_model_rig(fox);
    ossa_mix_file *file = NULL;
    ossa_mix *mix = NULL;
    ossa_error error;
    memset(&error, 0, sizeof error);
    ossa_result r =
        ossa_mix_file_parse((const char *)data, size, "fuzz.json", fox, NULL, &file, &error);
    if (r != OSSA_OK) {
        check_refusal("ossa_mix_file_parse", r, &error, file);
        return 0;
    }
    r = ossa_mix_create(rig, ossa_mix_file_desc(file), &mix, &error);
    if (r != OSSA_OK) {
        check_refusal("ossa_mix_create", r, &error, mix);
        ossa_mix_file_free(file);
        return 0;
    }
    void *scratch = aligned_alloc(16, (ossa_mix_scratch_size(mix) + 15) / 16 * 16 + 16);
    REQUIRE(scratch != NULL, "harness out of memory");
    const ossa_root_motion_desc *root = ossa_mix_file_root_motion(file);
    const double clocks[] = {0.0, 0.4, 1.7, 3.25, -2.0, 1e4};
    for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
        ossa_pose *pose = ossa_character_pose(character);
        ossa_mix_sample(mix, clocks[i], scratch, pose);
        REQUIRE(all_finite(pose->local[0].translation,
                           sizeof(ossa_trs) / sizeof(float) * rig->node_count) &&
                    all_finite(pose->weights, rig->weight_total),
                "the mix at clock %g is not finite", clocks[i]);
        if (root && fabs(clocks[i]) < 10.0) { /* its cost grows with the clock */
            ossa_motion motion;
            ossa_trs *local = &pose->local[root->node];
            r = ossa_root_motion_split(root, local, &motion, local, &error);
            REQUIRE(r == OSSA_OK, "root motion split: %s", error.message);
            r = ossa_mix_root_motion(mix, root, clocks[i], 1.0 / 60.0, &motion, &error);
            if (r != OSSA_OK)
                check_refusal("ossa_mix_root_motion", r, &error, NULL);
            else
                REQUIRE(isfinite(motion.translation[0] + motion.translation[1] +
                                 motion.translation[2] + motion.rotation[0] + motion.rotation[1] +
                                 motion.rotation[2] + motion.rotation[3]),
                        "root motion at clock %g is not finite", clocks[i]);
        }
        /* the whole file: the root in place, the IK entries (a job may refuse a chain that is
         * not one, never give matrices that are not finite) */
        r = ossa_mix_file_pose(file, mix, clocks[i], NULL, scratch, character, &error);
        if (r != OSSA_OK)
            check_refusal("ossa_mix_file_pose", r, &error, NULL);
        else
            REQUIRE(all_finite(ossa_character_world(character), 12 * (size_t)rig->node_count),
                    "the posed mix at clock %g has world matrices that are not finite", clocks[i]);
    }
    free(scratch);
    ossa_mix_free(mix);
    ossa_mix_file_free(file);
    return 0;
}
