/* `simtgrid sweep list` and `simtgrid sweep collect`: sweeps beyond one
 * process tree (docs/sweeps.md). `list` prints one command line per point,
 * each `simtgrid run SCENARIO -o DIR --point I`, for GNU parallel or any
 * job runner; `collect DIR` gathers the points' state into the manifest and,
 * once every point is done, writes the sweep table exactly as a local run
 * would. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/runner.h"

static const char sweep_usage[] =
    "usage: simtgrid sweep list SCENARIO [-o DIR] [--set KEY=VALUE]...\n"
    "       simtgrid sweep submit SCENARIO --slurm [-o DIR] [--partition P] [--time T] [--chunk K]\n"
    "                             [--set KEY=VALUE]... [--dry-run]\n"
    "       simtgrid sweep collect DIR\n"
    "\n"
    "  list     one command line per sweep point: `simtgrid run SCENARIO -o DIR --point I`\n"
    "           (feed them to GNU parallel, a job array, ...)\n"
    "  submit   one Slurm job array over the points not yet done in DIR (sbatch);\n"
    "           `simtgrid sweep submit --help` for the options\n"
    "  collect  gather the points run into DIR: update DIR/manifest.tsv and, when every\n"
    "           point is done, write the sweep table DIR/NAME.csv (exit 1 while some are not)\n";

static int usage_error(const char *why)
{
    fprintf(stderr, "simtgrid sweep: %s\n\n%s", why, sweep_usage);
    return 2;
}

static int sweep_list(int argc, char **argv)
{
    const char *scen = NULL, *out_dir = NULL;
    GPtrArray *sets = g_ptr_array_new();
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) && i + 1 < argc)
            out_dir = argv[++i];
        else if (!strcmp(argv[i], "--set") && i + 1 < argc)
            g_ptr_array_add(sets, argv[++i]);
        else if (argv[i][0] != '-' && !scen)
            scen = argv[i];
        else
            rc = usage_error("unexpected argument");
    }
    if (!rc && !scen)
        rc = usage_error("list needs a scenario file");
    g_ptr_array_add(sets, NULL);
    GError *err = NULL;
    scenario *s = rc ? NULL : scenario_load(scen, (char *const *)sets->pdata, &err);
    if (!rc && !s) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        g_error_free(err);
        rc = 2;
    }
    if (s) {
        /* This very binary, so the lines run the same simtgrid. */
        char *self = g_file_read_link("/proc/self/exe", NULL);
        char *bin = g_shell_quote(self ? self : "simtgrid");
        char *dir = out_dir ? g_strdup(out_dir) : g_strdup_printf("results/%s", s->name);
        char *qs = g_shell_quote(scen), *qd = g_shell_quote(dir);
        GString *tail = g_string_new(NULL);
        for (guint k = 0; k + 1 < sets->len; k++) {
            char *q = g_shell_quote(g_ptr_array_index(sets, k));
            g_string_append_printf(tail, " --set %s", q);
            g_free(q);
        }
        for (unsigned i = 0; i < scenario_npoints(s); i++)
            printf("%s run %s -o %s --point %u%s\n", bin, qs, qd, i, tail->str);
        g_string_free(tail, TRUE);
        g_free(qs), g_free(qd), g_free(dir), g_free(bin), g_free(self);
        scenario_free(s);
    }
    g_ptr_array_free(sets, TRUE);
    return rc;
}

static int sweep_collect(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-')
        return usage_error("collect needs one results folder");
    outdir od;
    plan *pl = NULL;
    int rc = outdir_open_collect(&od, argv[0], &pl, "sweep collect");
    if (rc)
        return rc;
    unsigned done = 0, failed = 0;
    for (unsigned i = 0; i < pl->n; i++) {
        done += pl->p[i].state == POINT_DONE;
        failed += pl->p[i].state == POINT_FAILED;
    }
    GError *err = NULL;
    if (!manifest_write(pl, argv[0], &err)) {
        fprintf(stderr, "simtgrid sweep collect: %s\n", err->message);
        g_error_free(err);
        rc = 2;
    }
    printf("%s: %u of %u point%s done, %u failed, %u missing\n", argv[0], done, pl->n, pl->n == 1 ? "" : "s",
           failed, pl->n - done - failed);
    for (unsigned i = 0; i < pl->n; i++)
        if (pl->p[i].state == POINT_FAILED)
            printf("  point %u failed: %s\n", i, pl->p[i].error ? pl->p[i].error : "");
    if (!rc && done == pl->n && pl->csv) {
        if (!sweep_write_csv(pl, argv[0]))
            rc = 2;
        else
            printf("sweep table: %s/%s.csv\n", argv[0], pl->name);
    } else if (!rc && done < pl->n) {
        rc = 1;
    }
    outdir_close(&od, pl, true);
    plan_free(pl);
    return rc;
}

int cli_sweep(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if ((!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) && strcmp(argv[0], "submit")) {
            fputs(sweep_usage, stdout);
            return 0;
        }
    if (argc >= 1 && !strcmp(argv[0], "list"))
        return sweep_list(argc - 1, argv + 1);
    if (argc >= 1 && !strcmp(argv[0], "submit"))
        return cli_sweep_submit(argc - 1, argv + 1);
    if (argc >= 1 && !strcmp(argv[0], "collect"))
        return sweep_collect(argc - 1, argv + 1);
    return usage_error(argc ? "unknown sweep command" : "a sweep command is needed");
}
