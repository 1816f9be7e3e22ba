/* `simtgrid sweep submit SCENARIO --slurm`: one Slurm job array over the
 * sweep points not yet done in the results folder, each array task running
 * `simtgrid run --point I` into that folder (docs/sweeps.md, "Slurm").
 * Submitting again after the job ends runs only the missing or failed
 * points; `simtgrid sweep collect DIR` then writes the table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "cli/cli.h"
#include "cli/slurm.h"

static const char submit_usage[] =
    "usage: simtgrid sweep submit SCENARIO --slurm [-o DIR] [--partition P] [--time T]\n"
    "                             [--chunk K] [--set KEY=VALUE]... [--dry-run]\n"
    "\n"
    "  Submits one Slurm job array (sbatch) over the sweep points of SCENARIO not yet\n"
    "  done in DIR (default results/NAME): K points per array task (default 1), each\n"
    "  `simtgrid run SCENARIO -o DIR --point I`. The script and the tasks' logs are\n"
    "  in DIR/.simtgrid/slurm/. Submit again when the job has ended to run only the\n"
    "  missing or failed points; `simtgrid sweep collect DIR` writes the table.\n"
    "  --dry-run writes the script without submitting it.\n";

typedef struct submit_opts {
    const char *scenario, *outdir, *partition, *time;
    unsigned chunk;
    bool slurm, dry_run;
    GPtrArray *sets;
} submit_opts;

static int submit_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "simtgrid sweep submit: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 2;
}

static int parse_submit(int argc, char **argv, submit_opts *o)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--slurm")) {
            o->slurm = true;
        } else if (!strcmp(a, "--dry-run")) {
            o->dry_run = true;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--out")) && has) {
            o->outdir = argv[++i];
        } else if (!strcmp(a, "--set") && has) {
            g_ptr_array_add(o->sets, argv[++i]);
        } else if (!strcmp(a, "--partition") && has) {
            o->partition = argv[++i];
            if (!slurm_word_ok(o->partition))
                return submit_error("--partition '%s': expected a partition name (letters, digits, - _ . ,)",
                                    o->partition);
        } else if (!strcmp(a, "--time") && has) {
            o->time = argv[++i];
            if (!slurm_word_ok(o->time))
                return submit_error("--time '%s': expected a Slurm time limit (e.g. 30, 2:00:00, 1-12)",
                                    o->time);
        } else if (!strcmp(a, "--chunk") && has) {
            guint64 k = 0;
            if (!g_ascii_string_to_unsigned(argv[++i], 10, 1, 1u << 20, &k, NULL))
                return submit_error("--chunk '%s': expected a number of points per task, 1 or more", argv[i]);
            o->chunk = (unsigned)k;
        } else if (a[0] == '-') {
            fprintf(stderr, "simtgrid sweep submit: unknown option or missing value '%s'\n\n%s", a,
                    submit_usage);
            return 2;
        } else if (!o->scenario) {
            o->scenario = a;
        } else {
            fprintf(stderr, "simtgrid sweep submit: unexpected argument '%s'\n\n%s", a, submit_usage);
            return 2;
        }
    }
    if (!o->scenario) {
        fprintf(stderr, "simtgrid sweep submit: a scenario file is needed\n\n%s", submit_usage);
        return 2;
    }
    if (!o->slurm) {
        fprintf(stderr, "simtgrid sweep submit: name the scheduler: --slurm (for other runners, "
                "`simtgrid sweep list` prints one command per point)\n");
        return 2;
    }
    return 0;
}

/* DIR/.simtgrid/slurm/job: the id of the last job submitted into DIR. */
static char *job_file(const char *dir)
{
    return g_build_filename(dir, ".simtgrid", "slurm", "job", NULL);
}

/* The last job submitted into DIR, while squeue still lists it (queued or
 * running): its id, else NULL. Without squeue, or when squeue no longer
 * knows the job, NULL. */
static char *job_still_queued(const char *dir)
{
    char *path = job_file(dir), *id = NULL, *squeue = g_find_program_in_path("squeue");
    if (squeue && g_file_get_contents(path, &id, NULL, NULL)) {
        g_strstrip(id);
        const char *argv[] = {squeue, "-h", "-j", id, NULL};
        char *out = NULL;
        int status = 0;
        bool listed = *id && g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                          &out, NULL, &status, NULL) &&
                      WIFEXITED(status) && WEXITSTATUS(status) == 0 && *g_strstrip(out);
        g_free(out);
        if (!listed)
            g_clear_pointer(&id, g_free);
    }
    g_free(squeue);
    g_free(path);
    return id;
}

/* Remember the job sbatch answered ("Submitted batch job N[ on cluster C]"). */
static void save_job(const char *dir, const char *answer)
{
    unsigned long long id = 0;
    const char *at = strstr(answer, "Submitted batch job ");
    if (!at || sscanf(at, "Submitted batch job %llu", &id) != 1)
        return;
    char *path = job_file(dir), *text = g_strdup_printf("%llu\n", id);
    g_file_set_contents(path, text, -1, NULL);
    g_free(text);
    g_free(path);
}

/* Run sbatch in the script's folder (the logs go there); its output is
 * passed on ("Submitted batch job N") and the job id kept. */
static int run_sbatch(const char *sbatch, const char *dir, const char *folder, const char *script)
{
    const char *argv[] = {sbatch, script, NULL};
    char *out = NULL, *err = NULL;
    int status = 0;
    GError *e = NULL;
    if (!g_spawn_sync(folder, (char **)argv, NULL, 0, NULL, NULL, &out, &err, &status, &e)) {
        fprintf(stderr, "simtgrid sweep submit: cannot run %s: %s\n", sbatch, e->message);
        g_error_free(e);
        return 1;
    }
    fputs(out, stdout);
    int rc = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "simtgrid sweep submit: sbatch refused the job (exit status %d)%s%s",
                WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), *err ? ":\n" : "\n", err);
        rc = 1;
    } else {
        fputs(err, stderr);
        save_job(dir, out);
    }
    g_free(out);
    g_free(err);
    return rc;
}

/* Writes the script into DIR/.simtgrid/slurm/NAME.sbatch; returns its
 * folder, or NULL after saying why. */
static char *write_script(const char *dir, const plan *pl, const slurm_job *job, char **script_name)
{
    char *folder = g_build_filename(dir, ".simtgrid", "slurm", NULL);
    *script_name = g_strdup_printf("%s.sbatch", pl->name);
    char *path = g_build_filename(folder, *script_name, NULL);
    char *text = slurm_script(job);
    GError *e = NULL;
    if (g_mkdir_with_parents(folder, 0755) != 0) {
        fprintf(stderr, "simtgrid sweep submit: cannot create %s: %s\n", folder, g_strerror(errno));
        g_clear_pointer(&folder, g_free);
    } else if (!g_file_set_contents(path, text, -1, &e)) {
        fprintf(stderr, "simtgrid sweep submit: %s\n", e->message);
        g_error_free(e);
        g_clear_pointer(&folder, g_free);
    } else {
        g_chmod(path, 0755);
    }
    g_free(text);
    g_free(path);
    return folder;
}

static int submit(const submit_opts *o, const char *sbatch, const scenario *s, plan *pl)
{
    char *rel = o->outdir ? g_strdup(o->outdir) : g_strdup_printf("results/%s", s->name);
    char *dir = g_canonicalize_filename(rel, NULL);
    /* Its points are not done yet: submitting now would run them twice. */
    char *queued = o->dry_run ? NULL : job_still_queued(dir);
    if (queued) {
        fprintf(stderr, "simtgrid sweep submit: job %s, submitted into %s before, is still queued or running "
                "(squeue -j %s): submit again when it has ended, or cancel it first (scancel %s)\n", queued, rel,
                queued, queued);
        g_free(queued), g_free(dir), g_free(rel);
        return 2;
    }
    outdir od;
    /* As a point run would: the manifest is written if there is none, a
     * folder of another configuration is refused, and the points done are
     * marked. */
    int rc = outdir_open_shared(&od, dir, pl, "sweep submit");
    if (rc) {
        g_free(dir), g_free(rel);
        return rc;
    }
    unsigned n = 0;
    unsigned *todo = slurm_points_todo(pl, &n);
    char *folder = NULL, *name = NULL;
    if (!n) {
        printf("%s: all %u point%s done, nothing to submit; `simtgrid sweep collect %s` writes the table\n",
               rel, pl->n, pl->n == 1 ? "" : "s", rel);
    } else {
        char *self = g_file_read_link("/proc/self/exe", NULL);
        char *scen = g_canonicalize_filename(o->scenario, NULL);
        slurm_job job = {.name = pl->name, .bin = self ? self : "simtgrid", .scenario = scen, .dir = dir,
                         .sets = (const char *const *)o->sets->pdata, .partition = o->partition,
                         .time = o->time, .chunk = o->chunk, .points = todo, .npoints = n};
        folder = write_script(dir, pl, &job, &name);
        rc = folder ? 0 : 2;
        g_free(scen);
        g_free(self);
    }
    outdir_close(&od, pl, true);
    if (folder) {
        unsigned tasks = slurm_ntasks(n, o->chunk);
        printf("%s/%s: %u of %u point%s to run, %u array task%s\n", folder, name, n, pl->n,
               pl->n == 1 ? "" : "s", tasks, tasks == 1 ? "" : "s");
        if (o->dry_run)
            printf("not submitted (--dry-run); to submit it: cd %s && sbatch %s\n", folder, name);
        else
            rc = run_sbatch(sbatch, dir, folder, name);
        if (!rc && !o->dry_run)
            printf("when the job has ended: simtgrid sweep collect %s\n", rel);
    }
    g_free(folder), g_free(name), g_free(todo), g_free(dir), g_free(rel);
    return rc;
}

int cli_sweep_submit(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(submit_usage, stdout);
            return 0;
        }
    submit_opts o = {.chunk = 1, .sets = g_ptr_array_new()};
    int rc = parse_submit(argc, argv, &o);
    g_ptr_array_add(o.sets, NULL);
    char *sbatch = NULL;
    /* Before anything is written: without sbatch nothing can be submitted. */
    if (!rc && !o.dry_run && !(sbatch = g_find_program_in_path("sbatch")))
        rc = submit_error("%s: Slurm's sbatch is not on PATH (Debian: slurm-client); "
                          "--dry-run writes the script alone, `simtgrid sweep list` gives the commands "
                          "for other runners", "sbatch not found");
    scenario *s = NULL;
    plan *pl = NULL;
    if (!rc) {
        GError *err = NULL;
        s = scenario_load(o.scenario, (char *const *)o.sets->pdata, &err);
        pl = s ? plan_build(s, &err) : NULL;
        if (!pl) {
            fprintf(stderr, "simtgrid: %s\n", err->message);
            g_error_free(err);
            rc = 2;
        }
    }
    if (!rc)
        rc = submit(&o, sbatch, s, pl);
    plan_free(pl);
    scenario_free(s);
    g_free(sbatch);
    g_ptr_array_free(o.sets, TRUE);
    return rc;
}
