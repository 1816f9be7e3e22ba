/* The sweep runner behind `simtgrid run` and `simtgrid check`.
 *
 * A run owns its output folder (docs/sweeps.md):
 *   DIR/manifest.tsv      one line per sweep point: done, failed (with the
 *                         error) or missing, and the point's configuration hash
 *   DIR/BASE.json         the result of a finished point (BASE: NAME or NAME-pI)
 *   DIR/BASE.trace.json, DIR/BASE.series.csv   its trace and time series, if asked
 *   DIR/NAME.csv          the sweep table, written once every point is done
 *   DIR/.simtgrid/        the run's private state: `lock` (held while a run
 *                         writes into DIR), BASE.csv (each point's CSV row, to
 *                         rebuild the table on --resume), temporaries
 * Only files named by this layout are ever written or removed.
 *
 * Points run in separate processes (SimGrid allows one engine per process),
 * up to --jobs at a time; each point's files depend only on that point, so
 * the results do not depend on the number of jobs. */
#ifndef SIMTGRID_CLI_RUNNER_H
#define SIMTGRID_CLI_RUNNER_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "simtgrid/scenario.h"

typedef enum point_state { POINT_MISSING, POINT_DONE, POINT_FAILED } point_state;

typedef struct plan_point {
    char *base;      /* file stem: NAME, or NAME-pI in a sweep */
    char *label;     /* "l1d.sets=64,..." (empty without a sweep) */
    char *hash;      /* hex SHA-256 of everything that determines the result */
    point_state state;
    char *error;     /* why it failed (POINT_FAILED), else NULL */
} plan_point;

/* What a run will produce: one entry per sweep point, in point order. */
typedef struct plan {
    char *name;      /* scenario name: the CSV is NAME.csv */
    bool json;       /* [output] json: a result document per point */
    bool csv;        /* [output] csv: the sweep table */
    unsigned n;
    plan_point *p;
} plan;

/* plan.c: the points of `s` with their configuration hashes (kernel text,
 * launches, the whole resolved configuration). NULL with *err on bad input. */
plan *plan_build(const scenario *s, GError **err);
void plan_free(plan *pl);
const char *point_state_name(point_state st);

/* manifest.c: DIR/manifest.tsv, written atomically (temporary + rename). */
bool manifest_write(const plan *pl, const char *dir, GError **err);
/* The manifest in DIR as a plan (states, hashes, errors), brought up to
 * date with the points' state files; NULL without one, NULL with *err when
 * it exists but cannot be read. */
plan *manifest_read(const char *dir, GError **err);
/* DIR/.simtgrid/BASE.state of point i: its own record of its state (a
 * missing point has none). */
void state_write(const char *dir, const plan *pl, unsigned i);

/* outdir.c: taking and releasing the output folder. */
typedef struct outdir {
    char *dir;
    char *priv;          /* DIR/.simtgrid */
    int lock_fd;
    bool created_dir, created_priv;
} outdir;
typedef enum outdir_mode { OUTDIR_NEW, OUTDIR_FORCE, OUTDIR_RESUME } outdir_mode;
/* Create (if needed) and lock DIR, then check that it may be written: a
 * folder holding another run's results is refused unless `mode` says to
 * replace it (FORCE: the old run's files are removed, and only those) or to
 * continue it (RESUME: points whose result is present and whose hash is
 * unchanged are marked done in `pl`). Exit code 2 on refusal, 0 on success. */
int outdir_open(outdir *od, const char *dir, outdir_mode mode, plan *pl, const char *cmd);
/* For `run --point I`: several such runs may write DIR at once (a Slurm job
 * array, GNU parallel), each one point. They share the folder lock (a whole
 * run or a collect, which need it alone, are refused meanwhile), and the
 * first writes the manifest; a manifest planned from another scenario or
 * configuration is refused. Marks points already done in `pl`. */
int outdir_open_shared(outdir *od, const char *dir, plan *pl, const char *cmd);
/* For `sweep collect`: DIR alone, with its manifest read into *pl. */
int outdir_open_collect(outdir *od, const char *dir, plan **pl, const char *cmd);
/* Release the lock. With `keep` false (nothing finished) remove what the run
 * wrote: its manifest, its private folder and DIR if this run created it. */
void outdir_close(outdir *od, const plan *pl, bool keep);
/* Remove the files point i of `pl` owns in DIR (result, row, temporaries). */
void outdir_remove_point(const char *dir, const plan *pl, unsigned i);

/* point.c: run point i in this process (a forked child): build, simulate,
 * write DIR/BASE.json and DIR/.simtgrid/BASE.csv; on failure write the
 * message to DIR/.simtgrid/BASE.err too. Returns the exit code. */
typedef struct point_opts {
    const char *dir;     /* NULL for `check` */
    bool quiet;
    bool check_only;
    bool progress;       /* the progress line (one point at a time on a terminal) */
} point_opts;
int point_run(const scenario *s, const plan *pl, unsigned i, const point_opts *o);

/* observe.c: the time series and the progress line of a running point
 * (NULL `series`: none; progress only when wanted). observe_finish writes the
 * last partial interval and clears the progress line. */
struct gpu;
struct stats;
typedef struct observer observer;
observer *observe_start(struct gpu *g, const struct stats *st, const scenario *s, unsigned point,
                        FILE *series, uint64_t interval, bool progress);
void observe_finish(observer *o, uint64_t end_cycle);
/* A progress line: not with --quiet, and only on a terminal. */
bool observe_progress_wanted(bool quiet);

/* sweep.c: run the points of `pl` not yet done (only point `only` when it
 * is not -1), `jobs` at a time, updating the manifest (not for a single
 * point: other point runs may share the folder) and the point's state file
 * as each ends. SIGINT/SIGTERM stop the running points too; the
 * signal number is returned in *stopped_by (0 when not stopped). Returns the
 * exit code of the first failed point, else 0. */
int sweep_run(const scenario *s, plan *pl, const point_opts *o, unsigned jobs, int only, int *stopped_by);
/* DIR/NAME.csv from the rows of a complete plan: the point, its sweep
 * values (from the labels) and its statistics. A local run and a collect of
 * point runs give the same bytes. */
bool sweep_write_csv(const plan *pl, const char *dir);

#endif
