/* Models and scenario files (GLib key files). Format: docs/scenarios.md.
 *
 * A model file sets parameters, group = everything before the last dot of the
 * name:   [l1d]  sets = 64   sets l1d.sets.  `[model] include = other.ini`
 * (path relative to the including file; several, comma-separated, applied in
 * order) loads other models first; the including file then overrides them.
 *
 * A scenario file:
 *   [scenario] model = path.ini   name = text   seed = 1
 *   [set]      l1d.sets = 128                 (overrides of the model)
 *   [launch.NAME] kernel = k.sasm  grid = 4[,y,z]  block = 256[,y,z]
 *              sms = all | 0-3,7  start = 0 (core cycles) | after = OTHER
 *              args = 1, 2 (kernel parameters, integers)
 *   [sweep]    l1d.sets = 32, 64, 128         (cross product, in file order)
 *   [output]   json = true  csv = true  timeseries = false  trace = false
 *              timeseries_interval = 1000 (core cycles)  trace_start = 0
 *              trace_end = 0 (core cycles; 0: the end)  trace_blocks = sm0, dram*
 *              dump = ARRAY, ...  dump_count = 64  (.data arrays written into
 *              the result JSON after the run: their first dump_count elements)
 * Precedence, lowest first: parameter defaults, model includes, model,
 * scenario [set], --set on the command line; a swept key takes each listed
 * value in turn and overrides all of those. */
#ifndef SIMTGRID_SCENARIO_H
#define SIMTGRID_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include "simtgrid/config.h"
#include "simtgrid/workload.h"

typedef struct sweep_axis {
    char *key;
    char **values;       /* NULL-terminated */
    unsigned nvalues;
    char *origin;
} sweep_axis;

typedef struct scenario {
    char *path;
    char *name;
    char *model_path;
    uint64_t seed;
    config *cfg;         /* model + [set] + --set, before any sweep value */
    launch *launches;
    unsigned nlaunches;
    sweep_axis *axes;
    unsigned naxes;
    bool out_json, out_csv, out_timeseries, out_trace;
    uint64_t timeseries_interval;  /* core cycles per time-series row */
    uint64_t trace_start, trace_end;   /* trace window, core cycles (end 0: the end of the run) */
    char **trace_blocks;           /* trace block filter (globs), NULL-terminated, or NULL: all */
    char **dump;         /* [output] dump: array names, NULL-terminated, or NULL */
    char *dump_origin;   /* "file:line" of the dump key */
    unsigned dump_count;
} scenario;

/* Load and validate. `sets` is a NULL-terminated list of "key=value" from the
 * command line (may be NULL). Every error names file, line, key and what was
 * expected; returns NULL and sets *err. Launch kernels are checked to exist
 * but not parsed here. */
scenario *scenario_load(const char *path, char *const *sets, GError **err);
void scenario_free(scenario *s);
/* What the chip runs (simtgrid/workload.h): a view of s's launches and
 * [output] dump, valid while s lives. */
workload scenario_workload(const scenario *s);

/* Load a model file alone into `c` (includes first). */
bool model_load(config *c, const char *path, GError **err);

/* Sweep: number of points (1 when there is no sweep) and the configuration of
 * point i (0-based; the last axis varies fastest). The caller frees it. */
unsigned scenario_npoints(const scenario *s);
config *scenario_point(const scenario *s, unsigned i, GError **err);
/* "l1d.sets=64,core.sched=gto" for point i (empty string with no sweep). */
char *scenario_point_label(const scenario *s, unsigned i);

#endif
