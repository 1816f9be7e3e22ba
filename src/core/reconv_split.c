/* NREC and the MIMD bound (Fung's DWF thesis, sections 3.1, 2.1.4 and
 * 5.1.1).
 *
 * NREC (SIMD serialization without reconvergence): when a branch diverges
 * the entity splits, one entity per next pc; the new entity follows its
 * parent in the scheduler's order; split entities never merge again, so a
 * warp fragments down to single threads.
 *
 * MIMD: threads are free-running. Entities split like NREC, but entities
 * of one warp that stand at the same pc and are idle merge again before
 * each cycle, and one issue slot may carry several entities of the same unit
 * kind (any thread on any lane), up to warp_size threads (reconv_ops.packs;
 * sm_issue.c). The slot still takes warp_size / simd_width cycles: the
 * "scheduler cycle" bound of the DWF thesis. Shared-memory instructions
 * issue alone; global ones too unless core.mimd_pack_memory lets a slot
 * take several entities' accesses (sm_pack_mem.c). */
#include "core/sm_internal.h"

typedef struct split_state {
    int *head;   /* per hw warp: first entity in the merge pass, -1 */
    int *next;   /* per entity: next entity of the same hw warp */
} split_state;

static unsigned split_capacity(const core_params *p) { return p->max_warps * p->warp_size; }

static void *split_create(sm *s)
{
    split_state *st = g_new0(split_state, 1);
    st->head = g_new(int, s->p.max_warps);
    st->next = g_new(int, s->nent_cap);
    return st;
}

static void split_destroy(void *state)
{
    split_state *st = state;
    g_free(st->head);
    g_free(st->next);
    g_free(st);
}

static void split_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    unsigned e = sm_entity_new(s, hw, -1);
    s->ent[e].pc = 0;
    s->ent[e].active = s->hw[hw].lanes;
    s->ent[e].ready_at = cycle;
}

static void split_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    sm_entity *w = &s->ent[e];
    uint32_t mask = w->active & ~o->exited;
    if (!mask) {
        sm_entity_free(s, e);
        return;
    }
    if (o->inst->op != ISA_OP_BRA) {
        w->pc = pc + 1;
        w->active = mask;
        return;
    }
    uint32_t taken = o->taken & mask, fall = mask & ~taken;
    if (taken && fall) {
        /* the parent keeps the taken path (it runs first, as under PDOM) */
        w->pc = o->inst->target;
        w->active = taken;
        unsigned n = sm_entity_new(s, w->hw, (int)e);
        s->ent[n].pc = pc + 1;
        s->ent[n].active = fall;
    } else {
        w->pc = taken ? o->inst->target : pc + 1;
        w->active = mask;
    }
}

static bool idle_at(const sm_entity *w, uint64_t cycle)
{
    return w->live && !w->at_barrier && !w->mem_wait && w->ready_at <= cycle;
}

static void mimd_before_cycle(sm *s, uint64_t cycle)
{
    split_state *st = s->rc_state;
    for (unsigned h = 0; h < s->p.max_warps; h++)
        st->head[h] = -1;
    /* lists of idle entities per warp, in decreasing id order */
    for (unsigned e = 0; e < s->nent_cap; e++) {
        const sm_entity *w = &s->ent[e];
        if (!idle_at(w, cycle) || s->hw[w->hw].nentities < 2)
            continue;
        st->next[e] = st->head[w->hw];
        st->head[w->hw] = (int)e;
    }
    for (unsigned h = 0; h < s->p.max_warps; h++) {
        for (int a = st->head[h]; a >= 0; a = st->next[a]) {
            if (!s->ent[a].live)
                continue;
            for (int b = st->next[a]; b >= 0; b = st->next[b]) {
                sm_entity *wa = &s->ent[a], *wb = &s->ent[b];
                if (!wb->live || wb->pc != wa->pc)
                    continue;
                /* keep the lower id (b < a: the list runs downwards) */
                wb->active |= wa->active;
                if (wb->ready_at < wa->ready_at)
                    wb->ready_at = wa->ready_at;
                sm_entity_free(s, (unsigned)a);
                break;
            }
        }
    }
}

const reconv_ops reconv_nrec_ops = {
    .packs = false,
    .capacity = split_capacity,
    .create = split_create,
    .destroy = split_destroy,
    .warp_start = split_warp_start,
    .after_issue = split_after_issue,
    .before_cycle = NULL,
};

const reconv_ops reconv_mimd_ops = {
    .packs = true,
    .capacity = split_capacity,
    .create = split_create,
    .destroy = split_destroy,
    .warp_start = split_warp_start,
    .after_issue = split_after_issue,
    .before_cycle = mimd_before_cycle,
};
