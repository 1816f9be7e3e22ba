/* The batch script of `simtgrid sweep submit --slurm` (slurm.h). One job
 * array covers every point still to run; the point list is written into the
 * script, so a resubmission's array holds only the points not yet done,
 * whatever their numbers. */
#include <string.h>

#include "cli/slurm.h"

unsigned *slurm_points_todo(const plan *pl, unsigned *n)
{
    unsigned *todo = g_new(unsigned, pl->n ? pl->n : 1);
    *n = 0;
    for (unsigned i = 0; i < pl->n; i++)
        if (pl->p[i].state != POINT_DONE)
            todo[(*n)++] = i;
    return todo;
}

unsigned slurm_ntasks(unsigned npoints, unsigned chunk)
{
    return chunk ? (npoints + chunk - 1) / chunk : 0;
}

bool slurm_word_ok(const char *s)
{
    if (!s || !*s)
        return false;
    for (const char *c = s; *c; c++)
        if (!g_ascii_isalnum(*c) && !strchr("-_:.,", *c))
            return false;
    return true;
}

/* A job name Slurm takes as is: simtgrid-NAME, or simtgrid for an odd name. */
static void append_job_name(GString *t, const char *name)
{
    bool ok = slurm_word_ok(name) && !strchr(name, ',') && !strchr(name, ':');
    g_string_append_printf(t, "#SBATCH --job-name=simtgrid%s%s\n", ok ? "-" : "", ok ? name : "");
}

char *slurm_script(const slurm_job *j)
{
    GString *t = g_string_new("#!/bin/bash\n");
    g_string_append_printf(t, "# Written by `simtgrid sweep submit --slurm` (docs/sweeps.md): %u point%s of\n"
                           "# %s, %u per array task, into %s.\n",
                           j->npoints, j->npoints == 1 ? "" : "s", j->scenario, j->chunk, j->dir);
    append_job_name(t, j->name);
    g_string_append_printf(t, "#SBATCH --array=0-%u\n", slurm_ntasks(j->npoints, j->chunk) - 1);
    g_string_append(t, "#SBATCH --ntasks=1\n");
    /* Relative: beside this script (sbatch runs in its folder). */
    g_string_append(t, "#SBATCH --output=%x-%A_%a.out\n");
    if (j->partition)
        g_string_append_printf(t, "#SBATCH --partition=%s\n", j->partition);
    if (j->time)
        g_string_append_printf(t, "#SBATCH --time=%s\n", j->time);
    g_string_append(t, "set -u\n");
    g_string_append(t, ": \"${SLURM_ARRAY_TASK_ID:?not an array task: submit this script with sbatch}\"\n");
    g_string_append(t, "points=(");
    for (unsigned k = 0; k < j->npoints; k++)
        g_string_append_printf(t, "%s%u", k ? " " : "", j->points[k]);
    g_string_append_printf(t, ")\nchunk=%u\n", j->chunk);
    char *bin = g_shell_quote(j->bin), *scen = g_shell_quote(j->scenario), *dir = g_shell_quote(j->dir);
    GString *sets = g_string_new(NULL);
    for (unsigned k = 0; j->sets && j->sets[k]; k++) {
        char *q = g_shell_quote(j->sets[k]);
        g_string_append_printf(sets, " --set %s", q);
        g_free(q);
    }
    /* Every point of the chunk runs, even after a failure: each records its
     * own state, and the task's exit status says whether all succeeded. */
    g_string_append_printf(t,
                           "rc=0\n"
                           "for i in \"${points[@]:$((SLURM_ARRAY_TASK_ID * chunk)):chunk}\"; do\n"
                           "  %s run %s -o %s --point \"$i\"%s || rc=1\n"
                           "done\n"
                           "exit $rc\n",
                           bin, scen, dir, sets->str);
    g_string_free(sets, TRUE);
    g_free(bin), g_free(scen), g_free(dir);
    return g_string_free(t, FALSE);
}
