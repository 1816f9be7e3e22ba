/* What memory-aware warp schedulers (OAWS, MASCAR; warp_sched.h's
 * sched_view.next) see of an entity: its next instruction and its GTO rank
 * among all the SM's warps (Wang's GTO_gprio, dissertation chapter 5). */
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

int sm_sched_rank(const sm *s, unsigned sc, unsigned e)
{
    if (s->member_at[e] == NO_MEMBER)
        return -1;
    const sm_sched_state *q = &s->sc[sc];
    int rank = 0;
    for (unsigned i = 0; i < q->n; i++)
        if (q->members[i] != e && sched_older(&s->view, q->members[i], e))
            rank++;
    return rank;
}

unsigned sm_global_rank(const sm *s, unsigned e)
{
    unsigned rank = 0;
    for (unsigned q = 0; q < s->p.schedulers; q++) {
        const sm_sched_state *sc = &s->sc[q];
        for (unsigned i = 0; i < sc->n; i++)
            if (sc->members[i] != e && sched_older(&s->view, sc->members[i], e))
                rank++;
    }
    return rank;
}

void sm_sched_next(const void *host, unsigned id, sched_next *out)
{
    const sm *s = host;
    const sm_entity *w = &s->ent[id];
    const isa_inst *in = sm_inst_of(s, id);
    *out = (sched_next){.load = in->cls == ISA_CLASS_LD_GLOBAL && in->cache != ISA_CACHE_CG,
                        .store = in->cls == ISA_CLASS_ST_GLOBAL, .pc = w->pc,
                        .threads = (unsigned)sg_popcount32(w->active),
                        .sm_rank = sm_global_rank(s, id), .warp = w->hw};
}
