/* One L2 slice of a memory partition, as an actor.
 *
 * Requests (mem_pkt) come from the request crossbar, one accepted per L2
 * cycle: loads (fills of an L1, or L2-only loads) and atomics look the line
 * up (atomics execute here, `atomic_latency` cycles after their data is
 * present); stores update the slice per its write policy and are
 * acknowledged hit_latency cycles after acceptance (a header-only reply),
 * unless sent MEM_NO_REPLY (an L1's dirty write-back). Misses take an MSHR entry and go to the partition's DRAM channel;
 * dirty victims are written back. Replies carry the data sectors back to the
 * requesting SM through the reply crossbar. */
#ifndef SIMTGRID_MEM_L2SLICE_H
#define SIMTGRID_MEM_L2SLICE_H

#include "mem/cache.h"
#include "simtgrid/des.h"
#include "simtgrid/mempkt.h"

typedef struct l2slice l2slice;

/* `index` is this slice's crossbar port; `name` its statistics block. */
l2slice *l2slice_new(des_engine *e, const char *name, unsigned index, const cache_params *p,
                     unsigned atomic_latency, const des_clock *l2clk, stats *st);
des_actor *l2slice_actor(l2slice *s);
void l2slice_connect_xbar(l2slice *s, des_port *req_in, des_port *reply_out);
void l2slice_connect_dram(l2slice *s, des_port *dram_out, des_port *dram_in);
void l2slice_finish(l2slice *s, des_time end);
void l2slice_free(l2slice *s);

#endif
