/* The subcommands of the ossa tool. Each lives in its own cmd_NAME.c. */
#ifndef OSSA_TOOL_COMMANDS_H
#define OSSA_TOOL_COMMANDS_H

/* Exit codes shared by every subcommand. */
enum { EXIT_OK = 0, EXIT_MODEL_ERROR = 1, EXIT_USAGE = 2 };

typedef struct ossa_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
} ossa_command;

int cmd_info(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
