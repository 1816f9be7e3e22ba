/* The `simtgrid` command: dispatches to the subcommands. Exit codes: 0 ok,
 * 1 the simulation itself failed (e.g. a deadlock), 2 bad input or usage. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "simtgrid/params_print.h"

static const char usage[] =
    "usage: simtgrid COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  run SCENARIO [-o DIR] [--set KEY=VALUE]...   simulate; one JSON per sweep point,\n"
    "      [--jobs N] [--force | --resume]          a CSV row per point (default DIR: results/NAME);\n"
    "                                               `simtgrid run --help` for the options\n"
    "  check SCENARIO [--set KEY=VALUE]...          validate a scenario, its model and kernels\n"
    "  sweep list SCENARIO [-o DIR]                 one `run --point I` command line per point\n"
    "  sweep submit SCENARIO --slurm [-o DIR]       one Slurm job array over the points not yet done\n"
    "  sweep collect DIR                            gather point runs: manifest and sweep table\n"
    "  params [--json]                              every model parameter: name, type, unit,\n"
    "                                               default, range, description\n"
    "  kernel check KERNEL.sasm                     parse a kernel; print its CFG, reconvergence\n"
    "                                               points and data declarations\n"
    "  gen PROFILE.ini -o KERNEL.sasm [--seed N]    write a synthetic kernel from a profile\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 success, 1 simulation failure, 2 bad input.\n"
    "Documentation: README.md and docs/ in the source tree.\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("simtgrid %s\n", SIMTGRID_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cli_run(argc - 2, argv + 2, false);
    if (!strcmp(cmd, "check"))
        return cli_run(argc - 2, argv + 2, true);
    if (!strcmp(cmd, "params")) {
        if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
            fputs("usage: simtgrid params [--json]\n\nEvery model parameter: name, type, unit, default, "
                  "range and description (--json: the same as a JSON document).\n", stdout);
            return 0;
        }
        if (argc > 2 && !strcmp(argv[2], "--json"))
            params_print_json(stdout);
        else if (argc > 2) {
            fprintf(stderr, "simtgrid params: unknown option '%s' (expected --json)\n", argv[2]);
            return 2;
        } else
            params_print_text(stdout);
        return 0;
    }
    if (!strcmp(cmd, "kernel"))
        return cli_kernel(argc - 2, argv + 2);
    if (!strcmp(cmd, "gen"))
        return cli_gen(argc - 2, argv + 2);
    if (!strcmp(cmd, "sweep"))
        return cli_sweep(argc - 2, argv + 2);
    fprintf(stderr, "simtgrid: unknown command '%s'\n\n%s", cmd, usage);
    return 2;
}
