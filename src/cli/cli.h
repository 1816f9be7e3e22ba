/* Subcommands of the simtgrid command; each returns the process exit code. */
#ifndef SIMTGRID_CLI_H
#define SIMTGRID_CLI_H

#include <stdbool.h>

int cli_run(int argc, char **argv, bool check_only);
int cli_kernel(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_sweep_submit(int argc, char **argv);

#endif
