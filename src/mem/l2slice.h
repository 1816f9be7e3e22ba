/* One L2 slice of a memory partition, as an actor.
 *
 * Requests (mem_pkt) come from the request crossbar, one accepted per L2
 * cycle: loads (fills of an L1, or L2-only loads) and atomics look the line
 * up (atomics execute here, in the slice's atomic unit once their data is
 * present: see l2slice_set_atomic_unit); stores update the slice per its write policy and are
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
/* The atomic unit (docs/chip.md, "Atomics, lane by lane"): one request at
 * a time, booked when the slice learns when its data is present (a hit on
 * acceptance, a miss at its fill), each holding it while it
 * starts its lane operations, `ops_per_cycle` per L2 cycle, those on one
 * address `same_address_cycles` apart; the reply leaves `atomic_latency`
 * cycles after the last one starts. Defaults 1 and 1. With `forward`
 * (l2.atomic_forward) a request whose lanes all hit the one word the
 * previous request's lanes all hit starts `same_address_cycles` after the
 * unit's last op and runs its lanes that far apart, whatever the rate. */
void l2slice_set_atomic_unit(l2slice *s, double ops_per_cycle, double same_address_cycles, bool forward);
/* With forwarding, a forwarded request's ops `cycles` apart instead of
 * `same_address_cycles` (0 keeps that; l2.atomic_forward_cycles). Call
 * after l2slice_set_atomic_unit. */
void l2slice_set_atomic_forward_cycles(l2slice *s, double cycles);
/* l2.atomic_line_gap: a request not forwarded starts no earlier than
 * `cycles` after the previous request on its line started; the unit takes
 * other lines' requests meanwhile (0, the default: no per-line state). */
void l2slice_set_atomic_line_gap(l2slice *s, double cycles);
/* l2.atomic_held_line_lanes_per_cycle: a request (not forwarded) on the
 * line the unit's previous request was on runs its lane operations this
 * many per cycle instead of ops_per_cycle (0, the default: off). */
void l2slice_set_atomic_held_line_rate(l2slice *s, double lanes_per_cycle);
/* L2 cycles a store that writes part of a 32-B segment (mem_pkt.partial)
 * holds the slice's request port: the sector's old bytes read and merged
 * before the write (1, the default: as any request). */
void l2slice_set_partial_write_cycles(l2slice *s, unsigned cycles);
/* Byte enables: partial stores that write every 4-B word of a segment
 * between them complete it (cache_set_byte_enables; l2.byte_enables). */
void l2slice_set_byte_enables(l2slice *s, bool on);
/* Which loads of a sector that stores wrote only in part fetch it from
 * below first (lazy fetch-on-read) instead of being served from its written
 * bytes: none (the default), all, or only the other partition's copy fills
 * (l2.partial_fetch, docs/chip.md). */
typedef enum l2_partial_fetch {
    L2_PARTIAL_FETCH_NONE,
    L2_PARTIAL_FETCH_ALL,
    L2_PARTIAL_FETCH_COPIES,
} l2_partial_fetch;
void l2slice_set_partial_fetch(l2slice *s, l2_partial_fetch mode);
/* Two L2 partitions: a load of a line homed in the other partition (a copy)
 * that misses and needs a new MSHR entry is refused unless more than
 * `entries` are free; the rest are kept for this slice's own lines, among
 * them the other partition's misses (0, the default: no reserve). */
void l2slice_set_home_reserve(l2slice *s, unsigned entries);
des_actor *l2slice_actor(l2slice *s);
void l2slice_connect_xbar(l2slice *s, des_port *req_in, des_port *reply_out);
void l2slice_connect_dram(l2slice *s, des_port *dram_out, des_port *dram_in);
/* Two L2 partitions (l2.partitions = 2, docs/cache.md): `home` gives the
 * slice an address belongs to. A load miss on a line homed elsewhere (a
 * copy this slice keeps for its partition's SMs) goes on `req_out` to the
 * home slice, not to DRAM; its reply, on `reply_in`, fills the copy. As a
 * home slice it serves such misses from `req_in` like the crossbar's loads
 * and answers on `reply_out`. */
typedef unsigned (*l2slice_home_fn)(const void *ctx, uint64_t addr);
void l2slice_connect_peer(l2slice *s, des_port *req_out, des_port *reply_in, des_port *req_in,
                          des_port *reply_out, l2slice_home_fn home, const void *ctx);
void l2slice_finish(l2slice *s, des_time end);
void l2slice_free(l2slice *s);

#endif
