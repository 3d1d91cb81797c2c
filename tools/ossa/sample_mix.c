/* `ossa sample --mix FILE`: reads a mix file, prepares the mix, writes mixed poses. */
#include "sample_mix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static char *read_text(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t capacity = 0, length = 0;
    for (;;) {
        if (length == capacity) {
            capacity = capacity ? 2 * capacity : 4096;
            char *grown = realloc(text, capacity);
            if (!grown) break;
            text = grown;
        }
        size_t n = fread(text + length, 1, capacity - length, f);
        length += n;
        if (n == 0) {
            fclose(f);
            *size = length;
            return text;
        }
    }
    free(text);
    fclose(f);
    return NULL;
}

ossa_result sample_mix_load(const char *path, const ossa_model *model, sample_mix *out,
                            ossa_error *error) {
    memset(out, 0, sizeof *out);
    size_t size = 0;
    char *text = read_text(path, &size);
    ossa_result r = OSSA_OK;
    if (!text) {
        memset(error, 0, sizeof *error);
        error->code = r = OSSA_ERROR_IO;
        snprintf(error->message, sizeof error->message, "cannot read the mix file");
    }
    const char *name = base_name(path);
    if (r == OSSA_OK) r = ossa_mix_file_parse(text, size, name, model, NULL, &out->file, error);
    free(text);
    for (uint32_t w = 0; r == OSSA_OK && w < ossa_mix_file_warning_count(out->file); w++) {
        const ossa_warning *warning = ossa_mix_file_warning(out->file, w);
        fprintf(stderr, "warning: %s: %s: %s\n", name, warning->path, warning->message);
    }
    if (r == OSSA_OK)
        r = ossa_mix_create(ossa_model_rig(model), ossa_mix_file_desc(out->file), &out->mix, error);
    if (r == OSSA_OK) {
        out->scratch = aligned_alloc(16, ossa_mix_scratch_size(out->mix) + 16);
        if (!out->scratch) {
            error->code = r = OSSA_ERROR_OUT_OF_MEMORY;
            snprintf(error->message, sizeof error->message, "out of memory");
        }
    }
    snprintf(error->file, sizeof error->file, "%s", name);
    return r;
}

void sample_mix_pose(sample_mix *mix, double clock, ossa_character *character) {
    ossa_mix_sample(mix->mix, clock, mix->scratch, ossa_character_pose(character));
    ossa_character_finish(character);
}

int sample_mix_open(const char *path, const ossa_model *model, sample_mix *out) {
    ossa_error error;
    if (sample_mix_load(path, model, out, &error) == OSSA_OK) return 1;
    char text[OSSA_FILE_MAX + OSSA_PATH_MAX + OSSA_MESSAGE_MAX + 8];
    ossa_error_format(&error, text, sizeof text);
    fprintf(stderr, "error: %s\n", text);
    sample_mix_free(out);
    return 0;
}

double sample_mix_span(const sample_mix *mix) {
    const ossa_mix_desc *desc = ossa_mix_file_desc(mix->file);
    double span = 2;
    for (uint32_t i = 0; i < desc->layer_count; i++) {
        const ossa_mix_layer *l = &desc->layers[i];
        if (l->weight_count && l->weights[l->weight_count - 1].time + 1 > span)
            span = l->weights[l->weight_count - 1].time + 1;
    }
    return span;
}

void sample_mix_free(sample_mix *mix) {
    free(mix->scratch);
    ossa_mix_free(mix->mix);
    ossa_mix_file_free(mix->file);
    memset(mix, 0, sizeof *mix);
}
