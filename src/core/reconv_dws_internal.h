/* Dynamic warp subdivision's per-group state and the small pure helpers of
 * reconv_dws.c (docs/core.md, "Dynamic warp subdivision"), kept apart to keep
 * that file short; static inline, so splitting costs no call. */
#ifndef SIMTGRID_CORE_RECONV_DWS_INTERNAL_H
#define SIMTGRID_CORE_RECONV_DWS_INTERNAL_H

#include "core/dws_slip.h"
#include "core/sm_internal.h"

enum { K_PLAIN, K_BARRIER, K_SPLIT };

typedef struct dws_ent {
    pdom_stack stk;
    uint32_t bar[PDOM_MAX_DEPTH];   /* barrier id of a K_BARRIER entry */
    uint8_t kind[PDOM_MAX_DEPTH];
    uint32_t lanes;                 /* waiting at a barrier entry: the threads it brings */
    bool slot;                      /* holds a scheduler slot */
    bool wait_rec;                  /* waits at its top (barrier) entry's rpc */
    bool wait_bl;                   /* BranchLimited: waits before the branch at its pc */
    bool slip_behind;               /* slip: a fall-behind split, held until revisited */
    bool parked;                    /* its last issue was a global memory instruction */
    bool bar_seen;                  /* issued a CTA barrier not yet left */
    uint64_t seq;                   /* creation order (slot hand-out) */
    uint64_t last_issue;            /* cycle of its last issue (ready-queue order) */
    /* its outstanding load (memory subdivision) */
    int tag;                        /* -1: none */
    bool decided;                   /* the hit mask was seen and judged */
    uint32_t arrived;               /* lanes whose data is there */
    uint64_t arrived_at;            /* cycle of the last of them */
} dws_ent;

typedef struct dws_state {
    dws_ent *e;                     /* per entity */
    uint32_t next_bar;
    uint64_t next_seq;
    unsigned wst_used, slots_used;
    /* statistics */
    uint64_t splits_branch, splits_mem, merges_pc, merges_stack, merges_bl, merges_bar;
    uint64_t wst_max, wst_full_cycles, wst_area, wst_last;   /* area: entries x cycles */
    uint64_t push_full;              /* divergences that pushed because the WST was full */
    int cur;                         /* the group that issued last (-1: none) */
    /* adaptive slip */
    bool slip_started;
    dws_slip slip;
    uint64_t merges_slip, slip_releases;
    /* memory-wait cycles: no issue while some group waits on a load */
    uint64_t obs_last, obs_issue, mem_wait_cycles;
    bool obs_flag;
} dws_state;

/* Same pc and the same stack apart from masks: the two may merge. */
static inline bool same_frame(const dws_ent *a, const dws_ent *b)
{
    if (a->stk.depth != b->stk.depth)
        return false;
    for (unsigned i = 0; i < a->stk.depth; i++)
        if (a->stk.e[i].pc != b->stk.e[i].pc || a->stk.e[i].rpc != b->stk.e[i].rpc ||
            a->kind[i] != b->kind[i] || a->bar[i] != b->bar[i])
            return false;
    return true;
}

static inline bool idle_ready(const sm *s, unsigned e, uint64_t cycle)
{
    const sm_entity *w = &s->ent[e];
    return w->live && !w->at_barrier && !w->mem_wait && !w->held && w->ready_at <= cycle;
}

/* The static eligibility heuristic ([M] 4.3): the block at the branch's
 * post-dominator has at most core.dws_block_limit instructions. */
static inline bool eligible(const sm *s, unsigned e, const isa_inst *br)
{
    if (br->reconv == ISA_PC_EXIT)
        return true;
    const isa_program *prog = sm_prog_of(s, e);
    uint32_t n = isa_program_ninst(prog);
    for (uint32_t pc = br->reconv, len = 1; pc < n; pc++, len++) {
        if (len > s->p.dws_block_limit)
            return false;
        const isa_inst *in = isa_program_inst(prog, pc);
        if (sm_is_control(in) || (pc + 1 < n && isa_program_inst(prog, pc + 1)->block != in->block))
            return true;
    }
    return true;
}

/* The group's own stack after a non-subdividing instruction: a branch or
 * exit updates it as PDOM does, anything else advances the pc. */
static inline void step_stack(dws_ent *d, const sm_entity *w, uint32_t pc, const isa_exec_out *o)
{
    unsigned d0 = d->stk.depth;
    pdom_issue(&d->stk, pc, o, o->exited & w->active);
    for (unsigned i = d0; i < d->stk.depth; i++)   /* pushed: plain entries */
        d->kind[i] = K_PLAIN, d->bar[i] = 0;
}

#endif
