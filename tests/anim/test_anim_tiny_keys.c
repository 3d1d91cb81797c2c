/* Rotation key components below 2^-40 in magnitude are stored as zero (clip_build.c): Fox's
 * animations hold such values (1e-22 and less where the exporter meant zero) and no exact zero;
 * their plain clips keep none of them, and their zeros are those values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip/clip_internal.h"
#include "ossa/clip.h"
#include "ossa/model.h"
#include "test_support.h"

#define TINY 0x1p-40f

/* Rotation components of the document's channels: how many are tiny but not zero, and how many
 * are zero. */
static uint32_t tiny_in_document(const ossa_document *doc, uint32_t *zeros) {
    uint32_t tiny = 0;
    *zeros = 0;
    for (uint32_t a = 0; a < doc->animation_count; a++) {
        const ossa_animation *anim = &doc->animations[a];
        for (uint32_t c = 0; c < anim->channel_count; c++) {
            const ossa_animation_channel *ch = &anim->channels[c];
            if (ch->path != OSSA_PATH_ROTATION || ch->node < 0) continue;
            const ossa_accessor *out = &doc->accessors[anim->samplers[ch->sampler].output];
            uint64_t n = out->count * out->components;
            float *v = malloc(n * sizeof *v + 1);
            CHECK(v && ossa_accessor_read_float(doc, anim->samplers[ch->sampler].output, 0,
                                                out->count, v) == OSSA_OK);
            for (uint64_t i = 0; v && i < n; i++)
                tiny += v[i] != 0.0f && fabsf(v[i]) < TINY, *zeros += v[i] == 0.0f;
            free(v);
        }
    }
    return tiny;
}

/* The clip's rotation track values: none tiny; returns how many are exactly zero. */
static uint32_t zeros_in_clip(const ossa_clip *clip) {
    uint32_t zeros = 0;
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const ossa_track *track = &clip->tracks[t];
        if (track->path != OSSA_PATH_ROTATION) continue;
        uint32_t keys = clip->timelines[track->timeline].key_count;
        uint32_t floats =
            keys * track->components * (track->interpolation == OSSA_INTERP_CUBICSPLINE ? 3u : 1u);
        const float *v = clip->values + track->value_offset;
        for (uint32_t i = 0; i < floats; i++) {
            CHECKF(v[i] == 0.0f || fabsf(v[i]) >= TINY, "track %u value %u is %g", t, i,
                   (double)v[i]);
            zeros += v[i] == 0.0f;
        }
    }
    return zeros;
}

static void test_fox(void) {
    const char *path = ossa_test_shared_path("models/Fox/Fox.glb");
    ossa_document *doc = NULL;
    ossa_error error;
    if (ossa_document_load_file(path, NULL, &doc, &error) != OSSA_OK) {
        CHECKF(0, "%s loads: %s", path, error.message);
        return;
    }
    uint32_t raw_zeros, tiny = tiny_in_document(doc, &raw_zeros);
    CHECKF(tiny >= 10 && raw_zeros == 0, "Fox's rotations hold %u tiny components, %u zeros", tiny,
           raw_zeros);
    ossa_model *model = NULL;
    CHECK(ossa_model_create(doc, NULL, &model, &error) == OSSA_OK);
    uint32_t zeros = 0;
    for (uint32_t c = 0; model && c < ossa_model_clip_count(model); c++)
        zeros += zeros_in_clip(ossa_model_clip(model, c));
    /* Every zero of the clips was a tiny value; tracks folded into the base pose are not
     * counted. */
    CHECKF(zeros > 0 && zeros <= tiny, "zeros %u, tiny values %u", zeros, tiny);
    ossa_model_free(model);
    ossa_document_free(doc);
}

int main(void) {
    test_fox();
    return ossa_test_finish("anim_tiny_keys");
}
