/* Trace-driven warps: one entity per hardware warp, its pc the index of the
 * next record of the warp's trace and its lanes that record's mask. The
 * trace already holds what reconvergence decided on the real GPU, so the
 * walker only steps; after the last record every thread of the warp exits. */
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

void sm_trace_warp_start(sm *s, unsigned hw, const atrace_warp *t, uint64_t cycle)
{
    sm_hw *h = &s->hw[hw];
    if (t->n == 0) { /* a warp the trace lacks runs nothing */
        sm_threads_exited(s, h->cta, (unsigned)sg_popcount32(h->lanes));
        return;
    }
    unsigned e = sm_entity_new(s, hw, -1);
    s->ent[e].trace = t;
    s->ent[e].pc = 0;
    s->ent[e].active = t->rec[0].mask;
    s->ent[e].ready_at = cycle;
}

void sm_trace_after_issue(sm *s, unsigned e, uint32_t pc)
{
    sm_entity *w = &s->ent[e];
    const atrace_warp *t = w->trace;
    if (pc + 1 >= t->n) {
        sm_entity_free(s, e);
        return;
    }
    w->pc = pc + 1;
    w->active = t->rec[pc + 1].mask;
}
