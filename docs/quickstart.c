/* ossa quick start: load a model, play its first animation at 0.5 s, print world positions.
 * cc quickstart.c $(pkg-config --cflags --libs ossa) && ./a.out model.glb */
#include <ossa/model.h>
#include <stdio.h>

int main(int argc, char **argv) {
    ossa_document *doc;
    ossa_model *model;
    ossa_character *character;
    if (argc < 2 || ossa_document_load_file(argv[1], NULL, &doc, NULL)) return 1;
    ossa_result r = ossa_model_create(doc, NULL, &model, NULL);
    ossa_document_free(doc); /* the model keeps what it needs */
    if (r || ossa_character_create(model, &character, NULL)) return 1;
    /* sample the clip at 0.5 s (looping), forward kinematics, every skin's palette */
    ossa_character_update(character, ossa_model_clip(model, 0), 0.5, OSSA_WRAP_LOOP, NULL);
    const ossa_rig *rig = ossa_model_rig(model);
    const float *world = ossa_character_world(character); /* 3x4 rows per node */
    for (uint32_t i = 0; i < rig->node_count; i++)
        printf("%-16s %8.3f %8.3f %8.3f\n", rig->names[i] ? rig->names[i] : "(node)",
               world[12 * i + 3], world[12 * i + 7], world[12 * i + 11]);
    ossa_character_free(character);
    ossa_model_free(model);
    return 0;
}
