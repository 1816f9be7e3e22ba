/* Adaptive slip's divergence limit (Tarjan, Meng, Skadron, "Increasing
 * memory miss tolerance for SIMD cores", SC 2009, as used in Meng, Tarjan,
 * Skadron, DWS tech report CS-2010-5, section 5.7): over each interval the
 * WPU's memory-wait and active cycles are counted; more than mem_pct % of
 * the interval waiting for memory raises the limit by one, else more than
 * active_pct % active lowers it by one, within [1, max]. */
#pragma once
#include <stdint.h>

#include <glib.h>

typedef struct dws_slip {
    unsigned limit, max;
    unsigned mem_pct, active_pct;
    uint64_t interval;
    uint64_t start;                 /* cycle the current interval began */
    uint64_t mem0, active0;         /* the counters then */
    GArray *history;                /* unsigned: the limit after each interval */
    uint64_t ups, downs;
    uint64_t limit_max;
    uint64_t area, area_last;       /* limit x cycles (time-weighted mean) */
} dws_slip;

void dws_slip_init(dws_slip *c, unsigned limit, unsigned max, uint64_t interval, unsigned mem_pct,
                   unsigned active_pct, uint64_t start);
void dws_slip_free(dws_slip *c);
/* At cycle `now` with the cumulative memory-wait and active cycle counts:
 * closes the interval when `now` reached its end (the first call at or
 * after it; the counters' growth since its start is judged over its actual
 * length) and adapts the limit. */
void dws_slip_observe(dws_slip *c, uint64_t now, uint64_t mem_cycles, uint64_t active_cycles);
/* The time-weighted mean limit from the first call's cycle to `now`. */
double dws_slip_mean(dws_slip *c, uint64_t now, uint64_t first);
