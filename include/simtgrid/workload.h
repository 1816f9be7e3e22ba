/* What a chip runs: its kernel launches and the arrays to write out after
 * the run. The scenario layer fills it (scenario_workload, from a scenario
 * file) and the chip builder reads it (gpu_build), so the chip does not
 * depend on scenario files. docs/scenarios.md describes the keys. */
#ifndef SIMTGRID_WORKLOAD_H
#define SIMTGRID_WORKLOAD_H

#include <stdint.h>

typedef struct launch {
    char *name;          /* from [launch.NAME] */
    char *kernel;        /* absolute or relative-to-cwd path of the .sasm */
    uint32_t grid[3];    /* CTAs */
    uint32_t block[3];   /* threads per CTA */
    int sm_first, sm_last;  /* -1, -1 = all SMs; else the lowest and highest SM named */
    unsigned *sms;       /* the SMs named, ascending, no repeats ("0-3,7" gives 0,1,2,3,7);
                            NULL with nsms 0 = all SMs. Checked against gpu.sms
                            (every sweep value of it too) when loading. */
    unsigned nsms;
    uint64_t start;      /* core cycles, when `after` is NULL */
    char *after;         /* name of another launch, or NULL */
    int64_t *args;       /* kernel parameters */
    unsigned nargs;
    char *origin;        /* "file:line" of the [launch.NAME] group */
} launch;

typedef struct workload {
    const launch *launches;
    unsigned nlaunches;
    char *const *dump;       /* [output] dump: array names, NULL-terminated, or NULL */
    const char *dump_origin; /* "file:line" of the dump key (for errors) */
    unsigned dump_count;     /* elements written per array */
} workload;

#endif
