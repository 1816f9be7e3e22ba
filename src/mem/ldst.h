/* The LD/ST unit of one SM with its coalescer and L1D, as an actor.
 *
 * From the SM it takes warp_mem_req (one global memory warp instruction, the
 * addresses of its active lanes) and answers warp_mem_resp when all of the
 * instruction's data is back. In between, per core cycle:
 *   - the unit holds one instruction and sends one of its coalesced line
 *     accesses through the single L1 port (a hit is ready hit_latency later;
 *     a miss takes an MSHR entry and queues a fill request; an L2-only load
 *     or an atomic goes down uncached); an access refused by a reservation
 *     failure replays next cycle with its cause counted, and the unit stays
 *     busy: the next instruction waits (the LD/ST stall categories);
 *   - one request leaves the miss queue for the request crossbar;
 *   - one reply from the reply crossbar fills the L1 (or completes an
 *     uncached access or acknowledges a store); the requesters it satisfies
 *     complete.
 * A store access completes when it is performed: when a write-back L1
 * accepts it, else when the L2 acknowledges it. A store instruction is
 * answered then, even one sent MEM_NO_REPLY (the SM's CTA waits for it). */
#ifndef SIMTGRID_MEM_LDST_H
#define SIMTGRID_MEM_LDST_H

#include "mem/cache.h"
#include "mem/coalesce.h"
#include "simtgrid/des.h"
#include "simtgrid/mempkt.h"
#include "simtgrid/memfeedback.h"
#include "simtgrid/memport.h"

/* Where a line goes: crossbar output (L2 slice) of an address. */
typedef unsigned (*ldst_route_fn)(const void *ctx, uint64_t addr);

typedef struct ldst ldst;

/* `name` is the statistics block of the SM ("sm3"): counters go under
 * "sm3.ldst" and "sm3.l1d". `max_pending` bounds the instructions in flight
 * (the SM's response port capacity). */
ldst *ldst_new(des_engine *e, const char *name, unsigned sm, const cache_params *l1,
               const coalesce_params *co, unsigned max_pending, ldst_route_fn route,
               const void *route_ctx, const des_clock *core, stats *st);
/* An atomic access of n lanes holds the L1 port ceil(n / lanes_per_cycle)
 * core cycles (the lanes go through one by one; default 32: one cycle). */
void ldst_set_atomic_rate(ldst *u, double lanes_per_cycle);
/* One warp's L1 hits return at most one line per `cycles` core cycles
 * (0: no limit, each hit ready hit_latency after its access). */
void ldst_set_hit_interval(ldst *u, unsigned cycles);
/* The L1 returns at most `bytes_per_cycle` bytes of hit data (each hit's
 * touched sectors) per core cycle to the SM (0: no limit). */
void ldst_set_hit_bytes(ldst *u, unsigned bytes_per_cycle);
/* Empties the L1 of its clean lines (a kernel launch: l1d.launch_invalidate). */
void ldst_invalidate_l1(ldst *u);
/* The L1 takes up to n accesses (lines) of the instruction in the unit per
 * core cycle (default 1: a single port). */
void ldst_set_accesses_per_cycle(ldst *u, unsigned n);
/* Loads (fills and uncached loads) go where `route` says instead of the
 * unit's route; stores and atomics keep it (two L2 partitions: a load goes
 * to the SM's near partition, docs/cache.md). NULL: one route for all. */
void ldst_set_load_route(ldst *u, ldst_route_fn route, const void *ctx);
/* Address translation of the unit's loads (tlb.h): a load access waits for
 * its page's translation, off the L1 port, while the unit goes on with the
 * next access; it then takes the port ahead of new accesses. The unit does
 * not own `t`. */
struct tlb;
void ldst_set_tlb(ldst *u, struct tlb *t);
des_actor *ldst_actor(ldst *u);
/* Publish the L1's state and train the DLC and FCW in `fb` (shared with the
 * SM: sm_set_feedback); FCW stays at or above `fcw_min`, the SM's warp
 * schedulers (one locality warp each, Wang section 4.2.4). */
void ldst_set_feedback(ldst *u, mem_feedback *fb, unsigned fcw_min);
/* Feed the chip's memory-divergence characterisation table (loadchar.h;
 * gpu.memdiv_stats): off (NULL) by default. */
typedef struct loadchar loadchar;
void ldst_set_loadchar(ldst *u, loadchar *lc);
/* MASCAR's re-execution queue of `entries` load accesses (Sethia et al.,
 * HPCA 2015; core.mascar_reexec): a load access the L1 refuses for want of
 * an MSHR entry or miss-queue room waits there and is replayed, head first,
 * once the L1 has changed, while the unit goes on with the next access; the
 * unit stalls as without it only when the queue is full. 0: none (default). */
void ldst_set_reexec(ldst *u, unsigned entries);
/* The SM side: requests in (sender: the SM) and responses out (receiver). */
void ldst_connect_sm(ldst *u, des_port *req_in, des_port *resp_out);
/* The memory side: requests down (to the request crossbar) and replies up. */
void ldst_connect_mem(ldst *u, des_port *down, des_port *up);
void ldst_finish(ldst *u, des_time end);
void ldst_free(ldst *u);

#endif
