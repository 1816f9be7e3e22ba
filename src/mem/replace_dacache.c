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
 * The placement's class and the dynamic region come with each access from
 * the LD/ST unit's controller (dacache_ctl.c: coherent-load prioritisation,
 * FCW partitioning); without them (class 0) every line is placed by Eq 4.1.
 * DaCache-Uncon (constrained = false): victims anywhere, no bypass. */
#include "mem/replace.h"

#define DACACHE_WIDTH 32  /* Eq 4.1's Width: the warp width the thesis uses */

/* Classes of dacache_ctl.h's enum dacache_class (the controller's view of
 * the load; kept numeric here so the stack needs no controller). */
enum { GAUGED, DIVERGENT, TO_MRU, TO_LRU };

static replace_place dacache_place(const replace *r, const replace_hint *h)
{
    unsigned lru = r->ways - 1;
    /* the locality region, p + 1 ways; the floor leaves at least one way
     * replaceable when dynamic partitioning grows it past the set
     * [assumption: the thesis does not bound p by Asso] */
    unsigned region = h->region ? h->region - 1 : r->p.locality_ways;
    /* prio x N_sched x Width / N_set in 64 bits: prio is at most 255 */
    uint64_t way = (uint64_t)h->prio * r->p.schedulers * DACACHE_WIDTH / r->sets;
    unsigned pos = (unsigned)(way < lru ? way : lru);
    if (h->cls == DIVERGENT && way >= region)
        pos = lru;      /* a thrashing warp's divergent load: LRU only */
    else if (h->cls == TO_MRU)
        pos = 0;        /* coherent load with locality, or <= 5 accesses */
    else if (h->cls == TO_LRU)
        pos = lru;      /* coherent load without (known) locality */
    unsigned floor = r->p.constrained ? (region < lru ? region : lru) : 0;
    return (replace_place){.pos = (int)pos, .floor = floor,
                           .bypass = r->p.constrained && !r->p.stall};
}

/* The static locality region must leave at least one way to replace. A hit is
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
