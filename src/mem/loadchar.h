/* Memory-divergence characterisation (Wang's dissertation, chapter 2): per
 * load PC and chip-wide, what the thesis's figures plot. One table for the
 * whole chip, fed by every SM's LD/ST unit (ldst_set_loadchar) and by the
 * warp schedulers' issue ranks; written as statistics at the end of the run
 * (loadchar_write). On with gpu.memdiv_stats; see docs/cache.md. */
#ifndef SIMTGRID_MEM_LOADCHAR_H
#define SIMTGRID_MEM_LOADCHAR_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cache.h"
#include "simtgrid/stats.h"

/* GTO priorities counted one by one (a histogram's most buckets); higher
 * ones share the last bucket. */
#define LOADCHAR_PRIOS 32

/* One load PC of one kernel (PCs are instruction indexes, restarting at 0
 * in every kernel). Cycles are core cycles. */
typedef struct loadpc {
    const char *kernel;                   /* its kernel's name ("" for none) */
    uint32_t pc;
    uint64_t loads, divergent, accesses;
    double iwc_sum, balance_sum;          /* Eq 3.1 and 3.2, summed over loads */
    uint64_t fully_cached, partially_cached, fully_missed;
    uint64_t misses, misses_cold, misses_intra_warp, misses_inter_warp;
    uint64_t stall_coal, stall_mshr, stall_icnt, stall_set;
    uint64_t access_cycles;               /* entering the unit to the last data */
    uint64_t occlusion_cycles;            /* unit time beyond one cycle per access */
} loadpc;

typedef struct loadchar loadchar;

/* `divergent_after`: accesses up to which a load is coherent (2). */
loadchar *loadchar_new(unsigned divergent_after);
void loadchar_free(loadchar *lc);
/* The record of `pc` in kernel `kernel` (a name that outlives `lc`, or
 * NULL), created on first use (stable until loadchar_free). */
loadpc *loadchar_pc(loadchar *lc, const char *kernel, uint32_t pc);
/* A load entering the unit: its accesses, the distinct sets they map to and
 * their balance. */
void loadchar_load(loadchar *lc, loadpc *r, unsigned accesses, unsigned sets, double balance);
/* A load access of `r` that missed (took an MSHR entry), of class `k`, for
 * a warp of GTO priority `prio` in its scheduler (Fig 2.7: MSHR use by
 * warp age). */
void loadchar_miss(loadchar *lc, loadpc *r, unsigned prio, cache_miss_class k);
/* A load whose data all arrived: `unit` cycles from being ready to leave
 * the SM (plus the port's cycle) to its last access through the L1, so its
 * time in the LD/ST unit and waiting to enter it; `access` cycles from
 * being ready to leave the SM to its last data (Wang's L1D access time, from
 * issue: the fixed cycles between issue and ready are left out). */
void loadchar_done(loadchar *lc, loadpc *r, unsigned accesses, unsigned misses, uint64_t unit,
                   uint64_t access);
/* The histogram of issues by GTO priority (Fig 2.3), for the schedulers. */
stats_hist *loadchar_issue_hist(loadchar *lc);
/* The histogram of misses by GTO priority (loadchar_miss). */
const stats_hist *loadchar_mshr_hist(const loadchar *lc);
/* Registers the per-PC blocks ("loadpc.KERNEL.PC", "loadpc.PC" for no
 * kernel) and the chip-wide "loads" block
 * in `st`; the LD/ST stall shares divide by `sm_cycles` (all SMs' cycles). */
void loadchar_write(loadchar *lc, stats *st, uint64_t sm_cycles);

#endif
