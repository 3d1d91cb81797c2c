/* The mix file reader on broken text: 4000 deterministic mutations (bytes replaced, inserted,
 * deleted, the text cut anywhere) of a valid file. Each one is read (under the sanitizers in
 * the ASan build) and must either give a descriptor that ossa_mix_create accepts or refuses
 * with a message, or be refused itself with a message and no file; an accepted mix is sampled. */
#include <stdlib.h>
#include <string.h>

#include "mix_fixture.h"
#include "test_support.h"

static const char valid[] =
    "{\"threshold\": 0.1, \"layers\": ["
    "{\"animation\": \"Walk\", \"weight\": [[0, 1], [1.0, 1], [1.5, 0]], \"sync\": \"legs\"},"
    "{\"animation\": 2, \"weight\": [[1.0, 0], [1.5, 1]], \"sync\": \"legs\", \"speed\": 2},"
    "{\"animation\": \"Survey\", \"weight\": 1, \"mask\": {\"default\": 0, \"nodes\": "
    "{\"b_Spine01_02\": 1}, \"indices\": {\"12\": 0.5}}},"
    "{\"animation\": 0, \"mode\": \"additive\", \"weight\": 0.5, \"reference\": 0.7, "
    "\"offset\": 0.25, \"wrap\": \"ping-pong\"}]}";

static uint32_t rng = 2024;
static uint32_t next(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

int main(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m)) return 1;
    static const char alphabet[] = "{}[],:\"0123456789.-eE aznul\\";
    size_t n = sizeof valid - 1;
    char *text = malloc(2 * n + 16);
    ossa_pose pose = mix_pose_alloc(m.rig);
    int parsed = 0, refused = 0, created = 0;
    for (int round = 0; round < 4000; round++) {
        memcpy(text, valid, n);
        size_t len = n;
        int edits = 1 + (int)(next() % 3);
        for (int e = 0; e < edits && len > 1; e++) {
            size_t at = next() % len;
            switch (next() % 4) {
            case 0: /* replace */
                text[at] = alphabet[next() % (sizeof alphabet - 1)];
                break;
            case 1: /* insert */
                memmove(text + at + 1, text + at, len - at);
                text[at] = alphabet[next() % (sizeof alphabet - 1)];
                len++;
                break;
            case 2: /* delete */
                memmove(text + at, text + at + 1, len - at - 1);
                len--;
                break;
            default: /* cut */
                len = at;
            }
        }
        /* Exactly len bytes, no terminator: the reader must not look past them. */
        char *exact = malloc(len ? len : 1);
        memcpy(exact, text, len);
        ossa_mix_file *file = (ossa_mix_file *)1;
        ossa_error error;
        memset(&error, 0, sizeof error);
        ossa_result r =
            ossa_mix_file_parse(exact, len, "hostile.json", m.model, NULL, &file, &error);
        if (r != OSSA_OK) {
            refused++;
            CHECKF(file == NULL && error.message[0] && error.code == r, "round %d", round);
        } else {
            parsed++;
            ossa_mix *mix;
            if (ossa_mix_create(m.rig, ossa_mix_file_desc(file), &mix, &error) == OSSA_OK) {
                created++;
                void *scratch = aligned_alloc(16, (ossa_mix_scratch_size(mix) + 16) & ~(size_t)15);
                ossa_mix_sample(mix, 1.25, scratch, &pose);
                free(scratch);
                ossa_mix_free(mix);
            } else {
                CHECKF(error.message[0] != '\0', "round %d: create refused without a message",
                       round);
            }
            ossa_mix_file_free(file);
        }
        free(exact);
    }
    CHECKF(refused > 1000 && parsed > 100 && created > 100, "%d refused, %d read, %d created",
           refused, parsed, created);
    mix_pose_free(&pose);
    free(text);
    mix_model_free(&m);
    return ossa_test_finish("mix_file_hostile");
}
