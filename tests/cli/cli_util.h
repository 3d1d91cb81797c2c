/* Helpers of the CLI suites: running `ossa`, reading its outputs, files written for a test. */
#ifndef OSSA_TEST_CLI_UTIL_H
#define OSSA_TEST_CLI_UTIL_H

/* stdout and stderr of the last cli() call (NUL-terminated, "" when empty). */
extern char *cli_out, *cli_err;

/* Runs `$OSSA_CLI ARGS...` (printf-style, through the shell); returns its exit code. */
int cli(const char *format, ...);

/* How many times needle occurs in text (0 for NULL text). */
int occurrences(const char *text, const char *needle);

/* A fresh folder under /tmp for this run (created), and a path inside it. */
const char *scratch_dir(void);
const char *scratch_path(const char *relative);

/* Copies a file; 1 on success. */
int copy_file(const char *from, const char *to);

/* Writes BlenderAllAnimations as scratch/RELATIVE (a .gltf) with its buffer at
 * scratch/03_all_animations.bin, named by buffer_uri, and `members` (JSON members each followed
 * by a comma, or "") first in its top-level object. Returns the path, NULL on failure. */
const char *write_blender_copy(const char *relative, const char *buffer_uri, const char *members);

/* Writes BlenderAllAnimations as scratch/sub/model.gltf with its buffer one folder up
 * ("../03_all_animations.bin"): an unsafe path that --allow-unsafe-paths lets load. Returns
 * the model's path, NULL on failure. */
const char *write_unsafe_model(void);

#endif
