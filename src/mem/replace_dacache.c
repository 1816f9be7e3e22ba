/* DaCache (B. Wang, "Mitigating GPU Memory Divergence for Data-Intensive
 * Applications", dissertation, Auburn 2015, chapter 4): an LRU stack
 * (position 0 = MRU) that places lines by the issuing warp's GTO priority.
 *
 *   gauged insertion (Eq 4.1): way = min(prio x N_sched x Width / N_set,
 *       ways - 1), Width = 32 lanes. The thesis's Fermi L1D (2 schedulers,
 *       32 sets, 8 ways) gives way = min(2 prio, 7): priority 0 inserts at
 *       MRU, 2 at position 4, >= 4 at LRU.
 *   incremental promotion: a hit moves the line N (default 4) positions
 *       toward MRU, so dead lines of retired old warps sink.
 *   constrained replacement: stack positions 0..p are the locality region
 *       and never give a victim; with no replaceable line in the thrashing
 *       region p+1..ways-1 the load bypasses the L1D, its request shrunk to
 *       the 32-B segments it needs (default), or replays (DaCache-Stall).
 *       locality_ways = p+1; F = 0.5 gives p = 3.
 * Coherent-load prioritisation (victim cache, CLP) and the dynamic FCW
 * partitioning are not modelled here (docs/cache.md). */
#include "mem/replace.h"

#define DACACHE_WIDTH 32  /* Eq 4.1's Width: the warp width the thesis uses */

static replace_place dacache_place(const replace *r, unsigned prio)
{
    /* prio x N_sched x Width / N_set in 64 bits: prio is at most 255 */
    uint64_t way = (uint64_t)prio * r->p.schedulers * DACACHE_WIDTH / r->sets;
    return (replace_place){.pos = (int)(way < r->ways - 1 ? way : r->ways - 1),
                           .floor = r->p.locality_ways, .bypass = !r->p.stall};
}

/* The locality region must leave at least one way to replace. A hit is
 * the LRU stack's, promoting by DaCache's own N. */
static bool dacache_init(replace *r)
{
    r->p.promote_by = r->p.dacache_promote;
    return r->p.locality_ways < r->ways && r->p.schedulers >= 1;
}

const replace_ops replace_dacache_ops = {
    .init = dacache_init,
    .insert = replace_lru_insert,
    .hit = replace_lru_hit,
    .invalidate = replace_lru_invalidate,
    .victim = replace_lru_victim,  /* nearest LRU at or beyond the floor */
    .place = dacache_place,
};
