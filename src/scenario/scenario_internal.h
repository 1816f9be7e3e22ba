/* Internals shared by the files of src/scenario (and its unit tests). */
#ifndef SIMTGRID_SCENARIO_INTERNAL_H
#define SIMTGRID_SCENARIO_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config_lib.h"
#include "simtgrid/scenario.h"

/* model_load, with "<named_by>: cannot read 'path'" when the file cannot be
 * read (model.c). */
bool model_load_named(config *c, const char *path, const char *named_by, GError **err);
/* Deepest chain of model files including one another (the top file counts):
 * far beyond any real model, and a bound on a mistaken or hostile tree. */
#define MODEL_MAX_INCLUDE_DEPTH 32

/* ---- scenario parts (scenario_launch.c, scenario_sweep.c) -------------- */

/* The [launch.NAME] groups of d, in file order, into s->launches. */
bool scenario_parse_launches(scenario *s, const kf_doc *d, GError **err);
void scenario_free_launches(scenario *s);
/* Every SM a launch names exists on the chip (after the sweep is parsed). */
bool scenario_check_sms(const scenario *s, const kf_doc *d, GError **err);
/* scenario_klist.c: a launch whose kernel is a kernelslist.g becomes one
 * launch per listed trace, NAME-1 ... NAME-n, chained in order; `after =
 * NAME` then waits for NAME-n. The last step of loading. */
bool scenario_is_kernel_list(const char *path);
bool scenario_expand_kernel_lists(scenario *s, const kf_doc *d, GError **err);
/* The [sweep] group of d into s->axes; every value is checked against its
 * parameter now, so no sweep point can fail mid-run. */
bool scenario_parse_sweep(scenario *s, const kf_doc *d, GError **err);
void scenario_free_sweep(scenario *s);
/* Most points a sweep may have (a typo like "1,2,...,9999" in three axes
 * would otherwise start a run that never ends). */
#define SCENARIO_MAX_POINTS 1000000u

#endif
