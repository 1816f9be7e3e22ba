/* `simtgrid sweep submit --slurm`: which points a submission runs and the
 * batch script of its job array (docs/sweeps.md, "Slurm"). Pure functions of
 * their inputs, so the tests check them without Slurm. */
#ifndef SIMTGRID_CLI_SLURM_H
#define SIMTGRID_CLI_SLURM_H

#include "cli/runner.h"

/* The points of `pl` a submission runs: those not done (missing or failed),
 * in point order; their count in *n. */
unsigned *slurm_points_todo(const plan *pl, unsigned *n);

/* Array tasks for `npoints` points, `chunk` per task (the last may hold
 * fewer): ceil(npoints / chunk). */
unsigned slurm_ntasks(unsigned npoints, unsigned chunk);

typedef struct slurm_job {
    const char *name;            /* scenario name: the job is simtgrid-NAME */
    const char *bin;             /* simtgrid, absolute */
    const char *scenario;        /* absolute */
    const char *dir;             /* the results folder, absolute */
    const char *const *sets;     /* --set values, NULL-terminated (NULL: none) */
    const char *partition;       /* NULL: the cluster's default */
    const char *time;            /* NULL: the partition's default */
    unsigned chunk;              /* points per task, >= 1 */
    const unsigned *points;      /* the points to run (slurm_points_todo) */
    unsigned npoints;            /* >= 1 */
} slurm_job;

/* The batch script: array task T runs points[T*chunk .. T*chunk+chunk-1],
 * one after another, each `simtgrid run SCENARIO -o DIR --point I`; the task
 * fails if one of them does. Its log is written beside it, relative to the
 * folder sbatch is run in. */
char *slurm_script(const slurm_job *j);

/* A partition or time limit that can stand in an #SBATCH line (letters,
 * digits and - _ : . ,). */
bool slurm_word_ok(const char *s);

#endif
