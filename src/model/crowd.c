/* Updating many characters over a thread pool (model.h): every input checked first, then the
 * work split in chunks of characters. */
#include <stdatomic.h>
#include <stdio.h>

#include "clip/clip_internal.h"
#include "model/model_internal.h"

#define CHECK_GRAIN  256 /* characters per chunk of the check over the pool */
#define UPDATE_GRAIN 64  /* characters per chunk of the update: fewer chunks, less contention */

typedef struct crowd_job {
    ossa_character *const *characters;
    const ossa_clip *const *clips;
    const double *clocks;
    ossa_wrap wrap;
    atomic_int refused; /* the check over the pool found a character it refuses */
} crowd_job;

/* Whether character i may be updated: it exists and its clip (if any) is of its model. */
static int acceptable(const crowd_job *job, size_t i) {
    const ossa_character *character = job->characters[i];
    if (!character) return 0;
    const ossa_clip *clip = job->clips ? job->clips[i] : NULL;
    return !clip || clip->rig == ossa_model_rig(ossa_character_model(character));
}

static void check_range(void *user, size_t begin, size_t end) {
    crowd_job *job = user;
    for (size_t i = begin; i < end; i++)
        if (!acceptable(job, i)) atomic_store(&job->refused, 1);
}

/* Up to four characters in a row of one model are sampled, then go through FK and palettes
 * together (four poses share each vector operation where the processor allows it). */
static void update_range(void *user, size_t begin, size_t end) {
    const crowd_job *job = user;
    ossa_character *group[4];
    size_t i = begin;
    while (i < end) {
        const ossa_model *model = ossa_character_model(job->characters[i]);
        uint32_t n = 0;
        for (; i < end && n < 4 && ossa_character_model(job->characters[i]) == model; i++) {
            ossa_character_sample_checked(job->characters[i], job->clips ? job->clips[i] : NULL,
                                          job->clocks[i], job->wrap);
            group[n++] = job->characters[i];
        }
        ossa_character_finish_four(group, n);
    }
}

ossa_result ossa_characters_update(ossa_character *const *characters, uint32_t count,
                                   const ossa_clip *const *clips, const double *clocks,
                                   ossa_wrap wrap, ossa_thread_pool *pool, ossa_error *error) {
    if (count == 0) return OSSA_OK;
    if (!characters || !clocks)
        return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", "no characters or no clocks");
    if ((unsigned)wrap > OSSA_WRAP_PING_PONG)
        return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", "unknown wrap");
    crowd_job job = {characters, clips, clocks, wrap, 0};
    /* Reading each character's model misses the cache in a large crowd: the pool shares that
     * (a small crowd is not worth a second round of the pool). Only a refusal goes through the
     * characters again, in order, to name the first one refused. */
    if (pool && count >= CHECK_GRAIN * 4)
        ossa_thread_pool_for(pool, count, CHECK_GRAIN, check_range, &job);
    else
        check_range(&job, 0, count);
    for (uint32_t i = 0; atomic_load(&job.refused) && i < count; i++) {
        if (acceptable(&job, i)) continue;
        char message[128];
        if (!characters[i])
            snprintf(message, sizeof message, "character %u is NULL", i);
        else
            snprintf(message, sizeof message,
                     "the clip of character %u belongs to another model than the character", i);
        return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", message);
    }
    if (pool)
        ossa_thread_pool_for(pool, count, UPDATE_GRAIN, update_range, &job);
    else
        update_range(&job, 0, count);
    return OSSA_OK;
}
