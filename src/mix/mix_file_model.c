/* ossa_mix_file_parse: the mix file reader over a model's rig and clips. */
#include <string.h>

#include "mix/mix_file.h"
#include "rig/owned.h"

ossa_result ossa_mix_file_parse(const char *json, size_t size, const char *file_name,
                                const ossa_model *model, const ossa_allocator *allocator,
                                ossa_mix_file **out, ossa_error *error) {
    ossa_owned owned;
    ossa_owned_init(&owned, allocator);
    uint32_t count = ossa_model_clip_count(model);
    const ossa_clip **clips = ossa_owned_alloc(&owned, count, sizeof *clips);
    if (!clips) {
        if (error) {
            memset(error, 0, sizeof *error);
            error->code = OSSA_ERROR_OUT_OF_MEMORY;
            strcpy(error->message, "out of memory");
        }
        *out = NULL;
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < count; k++)
        clips[k] = ossa_model_clip(model, k);
    ossa_result r = ossa_mix_file_parse_clips(json, size, file_name, ossa_model_rig(model), clips,
                                              count, allocator, out, error);
    ossa_owned_release(&owned);
    return r;
}
