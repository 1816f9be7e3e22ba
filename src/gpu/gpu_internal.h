/* The chip's parts, private to src/gpu. */
#ifndef SIMTGRID_GPU_INTERNAL_H
#define SIMTGRID_GPU_INTERNAL_H

#include "simtgrid/atrace.h"
#include "simtgrid/core.h"
#include "simtgrid/gpu.h"
#include "simtgrid/ideal_mem.h"

enum { CLK_CORE, CLK_ICNT, CLK_L2, CLK_DRAM, CLK_COUNT };

typedef struct gpu_hier gpu_hier;   /* L1s, crossbars, L2 slices, DRAM (gpu_hier.c) */

typedef struct gpu_kernel {
    char *path;
    isa_program *prog;         /* owned; a trace's stub is owned by its trace */
    memimg *mem;
    atrace_kernel *trace;      /* a trace-driven kernel (.traceg), or NULL */
} gpu_kernel;

struct gpu {
    const config *cfg;
    workload w;             /* launches and dumps (pointers owned by the caller) */
    stats *st;
    des_clock clk[CLK_COUNT];
    des_engine *engine;
    core_params cp;
    unsigned nsms;
    sm **sms;
    dispatcher *disp;
    ideal_mem *ideal;
    gpu_hier *hier;
    GPtrArray *kernels;        /* gpu_kernel*, one per distinct kernel file */
    uint64_t **params;         /* per launch */
    des_time end;
};

/* Builds the L1/crossbar/L2/DRAM hierarchy and connects every SM to it. */
gpu_hier *gpu_hier_build(gpu *g, GError **err);
void gpu_hier_finish(gpu_hier *h, des_time end);
void gpu_hier_summary(const gpu *g, FILE *f);
void gpu_hier_free(gpu_hier *h);
/* Every SM's L1 drops its clean lines (at a launch: l1d.launch_invalidate). */
void gpu_hier_invalidate_l1s(void *hier);

#endif
