/* PDOM reconvergence (the baseline of every paper): one entity per hardware
 * warp, whose pc and lanes are the top of the warp's PDOM stack (pdom.h). */
#include "core/sm_internal.h"

typedef struct pdom_state {
    pdom_stack *stack;   /* per hw warp */
} pdom_state;

static unsigned pdom_capacity(const core_params *p) { return p->max_warps; }

static void *pdom_create(sm *s)
{
    pdom_state *st = g_new0(pdom_state, 1);
    st->stack = g_new0(pdom_stack, s->p.max_warps);
    return st;
}

static void pdom_destroy(void *state)
{
    pdom_state *st = state;
    g_free(st->stack);
    g_free(st);
}

static void pdom_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    pdom_state *st = s->rc_state;
    unsigned e = sm_entity_new(s, hw, -1);
    s->ent[e].pc = 0;
    s->ent[e].active = s->hw[hw].lanes;
    s->ent[e].ready_at = cycle;
    pdom_init(&st->stack[hw], 0, s->hw[hw].lanes);
}

static void pdom_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    pdom_state *st = s->rc_state;
    sm_entity *w = &s->ent[e];
    pdom_stack *stk = &st->stack[w->hw];
    pdom_issue(stk, pc, o, o->exited);
    if (pdom_empty(stk)) {
        sm_entity_free(s, e);
        return;
    }
    w->pc = pdom_top(stk)->pc;
    w->active = pdom_top(stk)->mask;
}

const reconv_ops reconv_pdom_ops = {
    .packs = false,
    .stable_statuses = true,
    .capacity = pdom_capacity,
    .create = pdom_create,
    .destroy = pdom_destroy,
    .warp_start = pdom_warp_start,
    .after_issue = pdom_after_issue,
    .before_cycle = NULL,
};
