/* `ossa sample --mix FILE`: reads a mix file, prepares the mix, writes mixed poses. */
#define _POSIX_C_SOURCE 200809L
#include "sample_mix.h"

#include "cli_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The whole file, or NULL with *why saying what went wrong. */
static char *read_text(const char *path, size_t *size, const char **why) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = !f ? strerror(errno) : "not a regular file";
        if (f) fclose(f);
        return NULL;
    }
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
            int failed = ferror(f);
            fclose(f);
            if (failed) break;
            *size = length;
            return text;
        }
    }
    *why = "cannot read it";
    free(text);
    fclose(f);
    return NULL;
}

ossa_result sample_mix_load(const char *path, const ossa_model *model, sample_mix *out,
                            ossa_error *error) {
    memset(out, 0, sizeof *out);
    size_t size = 0;
    const char *why = NULL;
    char *text = read_text(path, &size, &why);
    ossa_result r = OSSA_OK;
    if (!text) {
        memset(error, 0, sizeof *error);
        error->code = r = OSSA_ERROR_IO;
        snprintf(error->file, sizeof error->file, "%s", path);
        snprintf(error->message, sizeof error->message, "cannot read the mix file: %s", why);
    }
    const char *name = path; /* messages name the file as given */
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
    out->root_motion = r == OSSA_OK ? ossa_mix_file_root_motion(out->file) : NULL;
    ossa_motion_identity(&out->start);
    if (out->root_motion) { /* M(0): the mixed root at clock 0, split */
        ossa_pose pose = {malloc(sizeof(ossa_trs) * ossa_model_rig(model)->node_count),
                          malloc(sizeof(float) * (ossa_model_rig(model)->weight_total + 1))};
        if (pose.local && pose.weights) {
            ossa_mix_sample(out->mix, 0, out->scratch, &pose);
            r = ossa_root_motion_split(out->root_motion, &pose.local[out->root_motion->node],
                                       &out->start, NULL, error);
        } else {
            error->code = r = OSSA_ERROR_OUT_OF_MEMORY;
            snprintf(error->message, sizeof error->message, "out of memory");
        }
        free(pose.local);
        free(pose.weights);
    }
    snprintf(error->file, sizeof error->file, "%s", name);
    return r;
}

ossa_result sample_mix_motion(const sample_mix *mix, double clock, ossa_motion *accumulated,
                              ossa_error *error) {
    if (!mix->root_motion) {
        ossa_motion_identity(accumulated);
        return OSSA_OK;
    }
    return ossa_mix_root_motion(mix->mix, mix->root_motion, clock, 0, accumulated, error);
}

ossa_result sample_mix_pose(sample_mix *mix, double clock, int moved, ossa_character *character,
                            ossa_error *error) {
    ossa_motion carry;
    if (moved && mix->root_motion) { /* M(0) * accumulated */
        ossa_result r = sample_mix_motion(mix, clock, &carry, error);
        if (r != OSSA_OK) return r;
        ossa_motion_compose(&mix->start, &carry, &carry);
    }
    return ossa_mix_file_pose(mix->file, mix->mix, clock, moved && mix->root_motion ? &carry : NULL,
                              mix->scratch, character, error);
}

int sample_mix_open(const char *path, const ossa_model *model, sample_mix *out) {
    ossa_error error;
    if (sample_mix_load(path, model, out, &error) == OSSA_OK) return 1;
    cli_report_error(path, &error);
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
