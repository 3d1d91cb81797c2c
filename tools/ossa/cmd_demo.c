/* ossa demo: writes the built-in demo model (windmill and tentacle) as a .glb file. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "ossa/demo.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ossa demo -o FILE [--model both|windmill|tentacle]\n\n"
            "Writes ossa's built-in demo model as a glTF 2.0 binary (.glb): a windmill whose\n"
            "sails spin on a rigid hub joint and a tentacle on a chain of %d joints with smooth\n"
            "weights. Each carries the animations 'idle' (LINEAR), 'gust' (CUBICSPLINE) and\n"
            "'tick' (STEP), %.0f seconds long and looping. --model picks one of the two\n"
            "(default: both, side by side). FILE ends in .glb; '-' writes to standard output.\n",
            OSSA_DEMO_TENTACLE_JOINTS, (double)OSSA_DEMO_DURATION);
}

static int write_all(const char *path, const void *bytes, size_t size) {
    int to_stdout = !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(bytes, 1, size, f) == size;
    if (to_stdout)
        ok = fflush(f) == 0 && ok;
    else
        ok = fclose(f) == 0 && ok;
    return ok;
}

int cmd_demo(int argc, char **argv) {
    const char *output = NULL;
    ossa_demo_desc desc = {0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return EXIT_OK;
        }
        if ((!strcmp(arg, "-o") || !strcmp(arg, "--output") || !strcmp(arg, "--model")) &&
            i + 1 >= argc) {
            fprintf(stderr, "ossa demo: %s needs a value\n", arg);
            return EXIT_USAGE;
        }
        if (!strcmp(arg, "-o") || !strcmp(arg, "--output")) {
            output = argv[++i];
        } else if (!strcmp(arg, "--model")) {
            const char *name = argv[++i];
            if (!ossa_demo_model_parse(name, &desc.model)) {
                fprintf(stderr, "ossa demo: unknown model '%s' (both, windmill or tentacle)\n",
                        name);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "ossa demo: unexpected argument '%s'\n\n", arg);
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!output) {
        fprintf(stderr, "ossa demo: -o FILE is required\n\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(output, "-") && !cli_has_extension(output, ".glb")) {
        fprintf(stderr,
                "ossa demo: the demo model is a binary glTF: name the file .glb, not '%s'\n",
                output);
        return EXIT_USAGE;
    }

    void *bytes;
    size_t size;
    ossa_error error;
    if (ossa_demo_write_glb(&desc, &bytes, &size, &error) != OSSA_OK) {
        char message[OSSA_FILE_MAX + OSSA_PATH_MAX + OSSA_MESSAGE_MAX];
        ossa_error_format(&error, message, sizeof message);
        fprintf(stderr, "ossa demo: %s\n", message);
        return EXIT_MODEL_ERROR;
    }
    int ok = write_all(output, bytes, size);
    int write_errno = errno;
    ossa_demo_free_glb(&desc, bytes);
    if (!ok) {
        fprintf(stderr, "ossa demo: cannot write %s: %s\n", output, strerror(write_errno));
        return EXIT_MODEL_ERROR;
    }
    if (strcmp(output, "-") != 0)
        printf("wrote %s (%zu bytes): %s demo model, animations idle, gust, tick\n", output, size,
               ossa_demo_model_name(desc.model));
    return EXIT_OK;
}
