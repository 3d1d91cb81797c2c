/* ossa quick start: load a model, sample its first animation at 0.5 s, print world positions.
 * cc quickstart.c $(pkg-config --cflags --libs ossa) && ./a.out model.glb */
#include <ossa/palette.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    ossa_document *doc;
    ossa_rig *rig;
    ossa_clip_set *clips;
    if (argc < 2 || ossa_document_load_file(argv[1], NULL, &doc, NULL) ||
        ossa_rig_build(doc, NULL, &rig, NULL) ||
        ossa_clip_set_build(doc, rig, NULL, &clips, NULL) || clips->clip_count == 0)
        return 1;
    ossa_pose pose = {malloc(rig->node_count * sizeof(ossa_trs)),
                      malloc((rig->weight_total + 1) * sizeof(float))};
    float *world = malloc(rig->node_count * OSSA_MATRIX_FLOATS * sizeof(float));
    ossa_clip_sample(rig, &clips->clips[0], 0.5f, NULL, &pose); /* stateless sampling */
    ossa_fk_matrices(rig, &pose, world); /* 3x4 row-major world matrix per node */
    for (uint32_t i = 0; i < rig->node_count; i++)
        printf("%-16s %8.3f %8.3f %8.3f\n", rig->names[i] ? rig->names[i] : "(node)",
               world[12 * i + 3], world[12 * i + 7], world[12 * i + 11]);
    free(world), free(pose.local), free(pose.weights);
    ossa_clip_set_free(clips), ossa_rig_free(rig), ossa_document_free(doc);
    return 0;
}
