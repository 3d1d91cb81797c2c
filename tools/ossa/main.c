/* ossa: inspect, sample, skin, render and benchmark glTF 2.0 skeletal animation. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const ossa_command commands[] = {
    {"info", "print a model's nodes, skins, meshes, animations and warnings", cmd_info},
    {"sample", "print world matrices, morph weights and joint matrices at given times", cmd_sample},
#ifdef OSSA_HAVE_GPU
    {"render", "render animation frames offscreen to PNG or animated GIF (OpenGL)", cmd_render},
    {"view", "play a model's animations in a window (OpenGL)", cmd_view},
#endif
    {"demo", "write the built-in demo model (windmill and tentacle) as a .glb", cmd_demo},
    {"bench", "benchmark sampling, skinning and memory bandwidth (not a test)", cmd_bench},
};
static const int command_count = (int)(sizeof commands / sizeof commands[0]);

static void print_usage(FILE *out) {
    fprintf(out, "usage: ossa COMMAND [ARGS]\n\n"
                 "Skeletal animation of glTF 2.0 models.\n\ncommands:\n");
    for (int i = 0; i < command_count; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'ossa COMMAND --help' describes one command.\n"
                 "Exit codes: 0 success, 1 model error, 2 usage error.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        print_usage(stdout);
        return EXIT_OK;
    }
    for (int i = 0; i < command_count; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ossa: unknown command '%s'\n\n", argv[1]);
    print_usage(stderr);
    return EXIT_USAGE;
}
