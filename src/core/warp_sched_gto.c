/* Greedy-then-oldest (GTO): keep issuing the member issued last while it is
 * READY, otherwise the oldest READY member (B. Wang, "Mitigating GPU Memory
 * Divergence for Data-Intensive Applications", dissertation, Auburn 2015,
 * chapter 1: age 0 = oldest = highest priority). Age is the order in which warps were given to the SM; ties
 * (warps split from one warp) go to the lower slot, then lower id. Needs no
 * state of its own: s->last is the scheduler's. */
#include "core/warp_sched.h"

static int gto_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    if (s->last >= 0 && v->status[s->last] == WS_READY && sched_position(s, (unsigned)s->last) >= 0)
        return s->last;
    int best = -1;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->status[id] == WS_READY && (best < 0 || sched_older(v, id, (unsigned)best)))
            best = (int)id;
    }
    return best;
}

const sched_ops sched_gto_ops = {
    .takes_lone_ready = true,   /* the greedy one if READY, else the oldest READY */
    .pick = gto_pick,
};
