/* A whole chip built from a configuration: clocks, SMs, CTA dispatcher,
 * memory pipeline (ideal, or L1/crossbar/L2/DRAM), wired by ports. */
#ifndef SIMTGRID_GPU_H
#define SIMTGRID_GPU_H

#include <stdio.h>

#include "simtgrid/config.h"
#include "simtgrid/des.h"
#include "simtgrid/stats.h"
#include "simtgrid/workload.h"

typedef struct gpu gpu;

typedef struct gpu_result {
    uint64_t core_cycles;        /* simulated SM-clock cycles until the last CTA ended, or
                                    until sim.max_cycles when the run was truncated */
    bool truncated;              /* stopped by sim.max_cycles (on_limit = stop) with CTAs left */
    uint64_t unfinished_ctas;    /* CTAs that had not finished when the run ended */
    uint64_t warp_insts;         /* warp instructions issued, all SMs */
    uint64_t thread_insts;       /* thread instructions (active lanes) issued */
    double core_mhz;
    des_counters des;            /* SimGrid wake-ups, timestamps, events */
} gpu_result;

/* Build the chip for one configuration and run `w`'s launches on it. Loads
 * the kernels (errors name the kernel file and line). Registers every
 * block's statistics in `st`. Must be the only engine of the process. `w`'s
 * pointers must stay valid until gpu_free. */
gpu *gpu_build(const config *c, const workload *w, stats *st, GError **err);
/* Simulate until every launch has finished (or sim.max_cycles). Fails if the
 * run ended with work left (a deadlock), naming what was left. */
bool gpu_run(gpu *g, gpu_result *r, GError **err);
/* The workload's [output] dump arrays as a JSON object {name: [values]}
 * (integers, or numbers for float arrays). */
struct json_writer;
void gpu_write_arrays(const gpu *g, struct json_writer *w);
/* A few human-readable lines about the run (per launch, key rates). */
void gpu_print_summary(const gpu *g, const gpu_result *r, FILE *f);
void gpu_free(gpu *g);
/* For observers of a running chip (time series, progress; simtgrid/des.h
 * des_add_probe): its engine, its core clock, and the CTAs not yet
 * finished of all launches. */
des_engine *gpu_engine(const gpu *g);
const des_clock *gpu_core_clock(const gpu *g);
uint64_t gpu_unfinished_ctas(const gpu *g);
/* A time series is written: the SMs keep its rows as they were
 * (sm_keep_probe_rows). */
void gpu_keep_probe_rows(gpu *g);

#endif
