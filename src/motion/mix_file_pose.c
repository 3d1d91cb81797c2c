/* A character posed as a whole mix file says (motion.h): the mix, the root kept in place or
 * carried, the file's IK entries. The one place `ossa sample`, `render`, `view` and the Python
 * package take a mix file's "root_motion" and "ik" from. */
#include <stdio.h>
#include <string.h>

#include "io/error.h"
#include "mix/mix_internal.h"
#include "ossa/ik.h"
#include "ossa/motion.h"

/* The end joint's world position raised along +Y by the ground plane's height above its point. */
static void ground_target(const ossa_mix_ik *entry, const ossa_character *character,
                          float target[3]) {
    const float *w = ossa_character_world(character) + 12 * (size_t)entry->two_bone.end;
    const float *p = entry->ground_point, *n = entry->ground_normal;
    float x = w[3], y = w[7], z = w[11];
    float rise = -(n[0] * (x - p[0]) + n[2] * (z - p[2])) / n[1];
    target[0] = x, target[1] = y + rise, target[2] = z;
}

void ossa_mix_file_ik_target(const ossa_mix_file *file, uint32_t entry,
                             const ossa_character *character, float target[3]) {
    const ossa_mix_ik *ik = file && character ? ossa_mix_file_ik(file, entry) : NULL;
    if (!ik)
        memset(target, 0, 3 * sizeof(float));
    else if (ik->type == OSSA_MIX_IK_AIM)
        memcpy(target, ik->aim.target, 3 * sizeof(float));
    else if (ik->has_ground)
        ground_target(ik, character, target);
    else
        memcpy(target, ik->two_bone.target, 3 * sizeof(float));
}

/* The root's local transform: its in-place part, carried on by `carry` when given. */
static void place_root(const ossa_root_motion_desc *desc, const ossa_motion *carry,
                       ossa_trs *root) {
    ossa_root_motion_split(desc, root, NULL, root, NULL); /* the file's descriptor is checked */
    if (!carry) return;
    ossa_motion placed = {
        {root->translation[0], root->translation[1], root->translation[2]},
        {root->rotation[0], root->rotation[1], root->rotation[2], root->rotation[3]}};
    ossa_motion_compose(carry, &placed, &placed);
    for (int c = 0; c < 3; c++)
        root->translation[c] = (float)placed.translation[c];
    for (int c = 0; c < 4; c++)
        root->rotation[c] = (float)placed.rotation[c];
}

ossa_result ossa_mix_file_pose(const ossa_mix_file *file, const ossa_mix *mix, double clock,
                               const ossa_motion *carry, void *scratch, ossa_character *character,
                               ossa_error *error) {
    if (!file || !mix || !scratch || !character)
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, "", "%s",
                              "a NULL mix file, mix, scratch or character");
    if (mix->rig != ossa_model_rig(ossa_character_model(character)))
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, "", "%s",
                              "the mix was prepared for another model than the character's");
    if (mix->layer_count != ossa_mix_file_desc(file)->layer_count)
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, "", "%s",
                              "the mix was not prepared from this mix file");
    ossa_pose *pose = ossa_character_pose(character);
    ossa_mix_sample(mix, clock, scratch, pose);
    const ossa_root_motion_desc *root_motion = ossa_mix_file_root_motion(file);
    if (root_motion) place_root(root_motion, carry, &pose->local[root_motion->node]);
    ossa_character_finish(character);
    /* Each job reads the world matrices of the pose before it (ik.h). */
    for (uint32_t k = 0; k < ossa_mix_file_ik_count(file); k++) {
        const ossa_mix_ik *entry = ossa_mix_file_ik(file, k);
        ossa_result r;
        if (entry->type == OSSA_MIX_IK_AIM) {
            r = ossa_ik_aim(character, &entry->aim, error);
        } else {
            ossa_ik_two_bone_job job = entry->two_bone;
            ossa_mix_file_ik_target(file, k, character, job.target);
            r = ossa_ik_two_bone(character, &job, error);
        }
        if (r != OSSA_OK) {
            if (error) snprintf(error->path, sizeof error->path, "ik[%u]", k);
            return r;
        }
        ossa_character_finish(character);
    }
    return OSSA_OK;
}
