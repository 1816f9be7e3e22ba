/* Training of the divergent load classifier of simtgrid/memfeedback.h by
 * the LD/ST unit (Wang's dissertation, section 5.3): an entry per divergent
 * load PC, updated when a load is coalesced and on each of its misses. */
#ifndef SIMTGRID_MEM_DLC_H
#define SIMTGRID_MEM_DLC_H

#include "simtgrid/memfeedback.h"

/* A divergent load at `pc` was coalesced into `accesses` accesses: inserts
 * its entry (#inst = 1) or updates it. */
void dlc_coalesced(mem_feedback *f, uint32_t pc, unsigned accesses);
/* An access of the load at `pc` missed in the L1D (a PC not in the DLC is ignored). */
void dlc_missed(mem_feedback *f, uint32_t pc);

/* CCWS's victim tag arrays: `line` (line address), brought in by warp slot
 * `warp`, was evicted; warp slot `warp` missed on `line` (a hit in its
 * array counts in vta_hits and leaves it). */
void vta_evicted(mem_feedback *f, uint16_t warp, uint64_t line);
void vta_missed(mem_feedback *f, uint16_t warp, uint64_t line);

#endif
