/* Option values of the commands: numbers read whole and within a range (a refusal says on stderr
 * which option wanted what and what it got: "COMMAND: OPTION needs ..."), file extensions. */
#ifndef OSSA_TOOL_CLI_ARGS_H
#define OSSA_TOOL_CLI_ARGS_H

/* A number in [lo, hi] from text (NULL: the option had no value). Returns 0 after the message. */
int cli_number(const char *command, const char *option, const char *text, double lo, double hi,
               double *out);

/* A whole number in [lo, hi], as cli_number. */
int cli_integer(const char *command, const char *option, const char *text, long long lo,
                long long hi, long long *out);

/* 1 when path ends in `extension` (".png"), written in lower or in upper case. */
int cli_has_extension(const char *path, const char *extension);

#endif
