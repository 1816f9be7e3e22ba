/* `simtgrid run` and `simtgrid check`: options, then the sweep runner
 * (runner.h). A run owns its output folder: it refuses a folder holding
 * another run's results unless told to replace (--force) or continue
 * (--resume) it, locks it while running, keeps the points it finished when a
 * later one fails or the run is stopped, and records every point's state in
 * DIR/manifest.tsv. */
#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/runner.h"

typedef struct run_opts {
    const char *scenario;
    const char *outdir;
    GPtrArray *sets;   /* "k=v" strings, NULL-terminated on use */
    bool check_only;
    bool quiet;
    outdir_mode mode;
    unsigned jobs;     /* 0: the number of processors */
    long point;        /* --point I, or -1 */
} run_opts;

static const char run_usage[] =
    "usage: simtgrid run SCENARIO [-o DIR] [--set KEY=VALUE]... [--jobs N] [--force | --resume] [--quiet]\n"
    "       simtgrid run SCENARIO -o DIR --point I [--set KEY=VALUE]...\n"
    "       simtgrid check SCENARIO [--set KEY=VALUE]...\n"
    "\n"
    "  -o, --out DIR     results folder (default results/NAME)\n"
    "  --set KEY=VALUE   override a model parameter (repeatable)\n"
    "  -j, --jobs N      sweep points run side by side, each in its own process\n"
    "                    (default: the number of processors); results do not depend on N\n"
    "  --force           replace the results of a previous run in DIR\n"
    "  --resume          continue the run in DIR: run only the points that are not done\n"
    "                    or whose configuration changed\n"
    "  --point I         run sweep point I alone (0-based), for a cluster job or GNU parallel:\n"
    "                    point runs may share DIR; `simtgrid sweep collect DIR` gathers them\n"
    "                    (a point already done with the same configuration is not run again)\n"
    "  -q, --quiet       no per-point summary\n"
    "\n"
    "Results layout and the manifest: docs/sweeps.md.\n";

static int need_value(const char *opt, const char *what)
{
    fprintf(stderr, "simtgrid: %s needs %s\n\n%s", opt, what, run_usage);
    return 2;
}

static int parse_jobs(const char *text, unsigned *jobs)
{
    guint64 v = 0;
    if (!g_ascii_string_to_unsigned(text, 10, 1, 1024, &v, NULL)) {
        fprintf(stderr, "simtgrid: --jobs: expected an integer from 1 to 1024, got '%s'\n", text);
        return 2;
    }
    *jobs = (unsigned)v;
    return 0;
}

/* Returns -1 for --help (exit 0), else an exit code (0: go on). */
static int parse_args(int argc, char **argv, run_opts *o)
{
    bool force = false, resume = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(run_usage, stdout);
            return -1;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            if (++i >= argc)
                return need_value(a, "a directory");
            o->outdir = argv[i];
        } else if (!strcmp(a, "--set")) {
            if (++i >= argc)
                return need_value(a, "KEY=VALUE");
            g_ptr_array_add(o->sets, argv[i]);
        } else if (!strncmp(a, "--set=", 6)) {
            g_ptr_array_add(o->sets, (char *)a + 6);
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            if (++i >= argc)
                return need_value(a, "a number of jobs");
            if (parse_jobs(argv[i], &o->jobs))
                return 2;
        } else if (!strncmp(a, "--jobs=", 7)) {
            if (parse_jobs(a + 7, &o->jobs))
                return 2;
        } else if (!strcmp(a, "--point")) {
            guint64 v = 0;
            if (++i >= argc)
                return need_value(a, "a point number");
            if (!g_ascii_string_to_unsigned(argv[i], 10, 0, G_MAXUINT32, &v, NULL)) {
                fprintf(stderr, "simtgrid: --point: expected a point number (0, 1, ...), got '%s'\n", argv[i]);
                return 2;
            }
            o->point = (long)v;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--resume")) {
            resume = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (a[0] == '-') {
            fprintf(stderr, "simtgrid: unknown option '%s'\n\n%s", a, run_usage);
            return 2;
        } else if (!o->scenario) {
            o->scenario = a;
        } else {
            fprintf(stderr, "simtgrid: unexpected argument '%s'\n\n%s", a, run_usage);
            return 2;
        }
    }
    if (force && resume) {
        fprintf(stderr, "simtgrid: --force and --resume exclude each other\n");
        return 2;
    }
    if (o->point >= 0 && (force || resume)) {
        fprintf(stderr, "simtgrid: --point excludes --force and --resume (a point run resumes by itself)\n");
        return 2;
    }
    o->mode = force ? OUTDIR_FORCE : resume ? OUTDIR_RESUME : OUTDIR_NEW;
    if (!o->scenario) {
        fprintf(stderr, "simtgrid: %s needs a scenario file\n\n%s", o->check_only ? "check" : "run",
                run_usage);
        return 2;
    }
    return 0;
}

static unsigned count_done(const plan *pl)
{
    unsigned n = 0;
    for (unsigned i = 0; i < pl->n; i++)
        n += pl->p[i].state == POINT_DONE;
    return n;
}

static int run_check(const scenario *s, plan *pl, const run_opts *o)
{
    point_opts po = {.dir = NULL, .quiet = o->quiet, .check_only = true};
    int stopped = 0;
    int rc = sweep_run(s, pl, &po, o->jobs, -1, &stopped);
    if (stopped) {
        signal(stopped, SIG_DFL);
        raise(stopped);
    }
    if (!rc)
        printf("%s: ok (%u point%s)\n", o->scenario, pl->n, pl->n == 1 ? "" : "s");
    return rc;
}

static int run_sweep(const scenario *s, plan *pl, const run_opts *o)
{
    char *dir = o->outdir ? g_strdup(o->outdir) : g_strdup_printf("results/%s", s->name);
    outdir od;
    int rc = outdir_open(&od, dir, o->mode, pl, "run");
    if (rc) {
        g_free(dir);
        return rc;
    }
    GError *err = NULL;
    if (!manifest_write(pl, dir, &err)) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        g_error_free(err);
        outdir_close(&od, pl, count_done(pl) > 0);
        g_free(dir);
        return 2;
    }
    unsigned before = count_done(pl);
    if (before && !o->quiet)
        printf("resuming %s: %u of %u point%s already done\n", dir, before, pl->n, pl->n == 1 ? "" : "s");
    /* Points side by side would draw over each other's line. */
    point_opts po = {.dir = dir, .quiet = o->quiet, .check_only = false,
                     .progress = observe_progress_wanted(o->quiet) && (o->jobs == 1 || pl->n - before == 1)};
    int stopped = 0;
    rc = sweep_run(s, pl, &po, o->jobs, -1, &stopped);
    unsigned done = count_done(pl);
    if (!rc && !stopped && s->out_csv) {
        if (!sweep_write_csv(pl, dir))
            rc = 2;
        else if (!o->quiet)
            printf("sweep table: %s/%s.csv\n", dir, s->name);
    }
    if ((rc || stopped) && done)
        fprintf(stderr, "simtgrid: %u of %u point%s done and kept in %s (manifest.tsv); "
                "'simtgrid run %s -o %s --resume' runs the rest\n", done, pl->n, pl->n == 1 ? "" : "s",
                dir, o->scenario, dir);
    outdir_close(&od, pl, done > 0);
    g_free(dir);
    if (stopped) {
        /* Die of the signal, as the shell expects of a stopped command. */
        signal(stopped, SIG_DFL);
        raise(stopped);
    }
    return rc;
}

/* --point I: one point, into a folder other point runs may share. */
static int run_point_alone(const scenario *s, plan *pl, const run_opts *o)
{
    if ((unsigned long)o->point >= pl->n) {
        fprintf(stderr, "simtgrid: --point %ld: %s has %u point%s (0 to %u)\n", o->point, o->scenario, pl->n,
                pl->n == 1 ? "" : "s", pl->n - 1);
        return 2;
    }
    char *dir = o->outdir ? g_strdup(o->outdir) : g_strdup_printf("results/%s", s->name);
    outdir od;
    int rc = outdir_open_shared(&od, dir, pl, "run");
    if (rc) {
        g_free(dir);
        return rc;
    }
    int stopped = 0;
    if (pl->p[o->point].state == POINT_DONE) {
        if (!o->quiet)
            printf("%s: point %ld already done\n", dir, o->point);
    } else {
        point_opts po = {.dir = dir, .quiet = o->quiet, .check_only = false,
                         .progress = observe_progress_wanted(o->quiet)};
        rc = sweep_run(s, pl, &po, 1, (int)o->point, &stopped);
    }
    outdir_close(&od, pl, true);
    g_free(dir);
    if (stopped) {
        signal(stopped, SIG_DFL);
        raise(stopped);
    }
    return rc;
}

int cli_run(int argc, char **argv, bool check_only)
{
    run_opts o = {.sets = g_ptr_array_new(), .check_only = check_only, .point = -1};
    int rc = parse_args(argc, argv, &o);
    if (rc) {
        g_ptr_array_free(o.sets, TRUE);
        return rc < 0 ? 0 : rc;
    }
    if (!o.jobs)
        o.jobs = g_get_num_processors();
    g_ptr_array_add(o.sets, NULL);
    GError *err = NULL;
    scenario *s = scenario_load(o.scenario, (char *const *)o.sets->pdata, &err);
    plan *pl = s ? plan_build(s, &err) : NULL;
    if (!pl) {
        fprintf(stderr, "simtgrid: %s\n", err->message);
        g_error_free(err);
        scenario_free(s);
        g_ptr_array_free(o.sets, TRUE);
        return 2;
    }
    rc = check_only ? run_check(s, pl, &o) : o.point >= 0 ? run_point_alone(s, pl, &o) : run_sweep(s, pl, &o);
    plan_free(pl);
    scenario_free(s);
    g_ptr_array_free(o.sets, TRUE);
    return rc;
}
