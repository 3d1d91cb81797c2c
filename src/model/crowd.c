/* Updating many characters over a thread pool (model.h): every input checked first, then the
 * work split in chunks of characters. */
#include <stdio.h>

#include "clip/clip_internal.h"
#include "model/model_internal.h"

typedef struct crowd_job {
    ossa_character *const *characters;
    const ossa_clip *const *clips;
    const double *clocks;
    ossa_wrap wrap;
} crowd_job;

static void update_range(void *user, size_t begin, size_t end) {
    const crowd_job *job = user;
    for (size_t i = begin; i < end; i++)
        ossa_character_update_checked(job->characters[i], job->clips ? job->clips[i] : NULL,
                                      job->clocks[i], job->wrap);
}

ossa_result ossa_characters_update(ossa_character *const *characters, uint32_t count,
                                   const ossa_clip *const *clips, const double *clocks,
                                   ossa_wrap wrap, ossa_thread_pool *pool, ossa_error *error) {
    if (count == 0) return OSSA_OK;
    if (!characters || !clocks)
        return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", "no characters or no clocks");
    for (uint32_t i = 0; i < count; i++) {
        char message[128];
        if (!characters[i]) {
            snprintf(message, sizeof message, "character %u is NULL", i);
            return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", message);
        }
        const ossa_clip *clip = clips ? clips[i] : NULL;
        if (clip && clip->rig != ossa_model_rig(ossa_character_model(characters[i]))) {
            snprintf(message, sizeof message,
                     "the clip of character %u belongs to another model than the character", i);
            return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", message);
        }
    }
    crowd_job job = {characters, clips, clocks, wrap};
    if (pool)
        ossa_thread_pool_for(pool, count, 16, update_range, &job);
    else
        update_range(&job, 0, count);
    return OSSA_OK;
}
