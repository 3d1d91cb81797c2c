/* Silhouettes of rendered PNGs: pixels that differ from the renderer's background. */
#ifndef OSSA_TEST_SILHOUETTE_H
#define OSSA_TEST_SILHOUETTE_H

/* Runs the ossa tool ($OSSA_CLI) with the given arguments; returns its exit status. */
int run_cli(const char *arguments);

/* Intersection over union of the silhouettes of two PNGs of equal size; -1 if one cannot be
 * read or the sizes differ. *coverage receives the first image's silhouette fraction. */
double silhouette_iou(const char *png_a, const char *png_b, double *coverage);

/* Pixels whose colour differs between two PNGs of the same size; -1 when they cannot be read or
 * differ in size. */
long pixels_differ(const char *png_a, const char *png_b);

#endif
