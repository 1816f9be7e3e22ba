/* Dynamic warp subdivision (Meng, Tarjan, Skadron, "Dynamic Warp
 * Subdivision for Integrated Branch and Memory Divergence Tolerance", ISCA
 * 2010 and tech report CS-2010-5 [M]; docs/core.md, "Dynamic warp
 * subdivision").
 *
 * A warp-split (split) is an entity: a subset of one warp's threads with its
 * own pc, scheduled like a warp. Each split carries its own copy of the
 * warp's PDOM stack. Subdividing the entry on top of the stack T = {pc, R,
 * M} does not push the stack for the paths [M 4.1]: T becomes a *barrier*
 * entry (id B) and each child gets T's copy plus a *split* entry {path pc,
 * R, its lanes}; a split entry is replaced, not pushed again, when a split
 * subdivides further, so every split of the warp meets at T's rpc R (inner
 * post-dominators are ignored). A split that pops its split entry stands at
 * R and waits (stack-based re-convergence); when every live split sharing B
 * waits there they merge (OR of their lanes) and T pops as under Conv.
 *
 * A divergent branch subdivides when it is eligible (the basic block at its
 * post-dominator has at most core.dws_block_limit instructions, [M] 4.3;
 * the exit counts as an empty block), or with core.dws_nested_split at any
 * divergent branch inside a split (the paper's splits "keep being
 * subdivided upon future divergent branches"), and the warp-split table
 * (WST) has room; otherwise the group's own stack
 * is pushed as under Conv, so a full WST only serializes [inferred, digest
 * ambiguity A1: per-split stacks]. A divergent loop (backward) branch is no
 * exception unless core.dws_loop_split is off: then it pushes the group's
 * stack, so threads a PC-based merge joined from different loop trips ([M]
 * 5.3.2 merges across trips) re-converge at the loop exit (an ablation).
 * WST entries: every split of a subdivided warp holds one (a warp that is
 * not subdivided holds none), so splitting a whole warp takes two
 * [inferred].
 *
 * PC-based re-convergence (core.dws_pc_merge, [M] 4.5): when a group issues
 * a global memory instruction and another group is ready, the ready splits
 * of its warp that stand at its pc with the same stack merge into it (they
 * passed that instruction earlier and were served: in MV5 a resumed split
 * starts at the memory instruction it was switched out at); the 3-4 cycle
 * compare is hidden by the switch (no cycle charged). The compare also
 * runs when a split resumes after its memory instruction
 * (core.dws_pc_merge_resume [inferred, A5]: resumed splits "start with"
 * it). Groups of a warp that leave a CTA barrier at the same pc with the
 * same stack merge ([M] 5.4: splits re-converge at explicit sync).
 *
 * Memory subdivision (core.dws_mem_split, [M] 5): a load asks the memory
 * side for per-lane reports (MEM_LANE_REPORT); its first report is the hit
 * mask. Aggress splits then (run-ahead split = the lanes served, ready;
 * fall-behind split = the rest, waiting for the load, which it resumes on
 * alone); Lazy only when no other group is ready, else the group waits
 * whole; Revive as Lazy, and when no group is ready (the pipeline idles) it
 * splits one suspended group whose served lanes are a strict subset (the
 * one with the most served lanes [inferred, A2]). Stores never split
 * [inferred, A3]. BranchLimited (core.dws_branch_limited, [M] 5.3): the
 * splits of a warp wait for each other before every branch and merge.
 *
 * Scheduler slots (core.dws_slots, [M] 3.3 and 6.6): a group runs only
 * while it holds a slot; a slot is kept until the group waits at a
 * re-convergence point or a CTA barrier, dies or merges away; free slots go
 * to the oldest slot-less groups. Held groups are WS_BARRIER to the
 * scheduler (entity.held). Barrel discipline only.
 *
 * Adaptive slip (core.dws_mem_split = slip, [M] 5.7; Tarjan et al.): on a
 * partial hit the served threads run ahead as a split while the warp has
 * fewer groups than the divergence limit (dws_slip.h adapts it per
 * interval); the fall-behind split is held after its data returns until a
 * group of its warp issues the same load again (it then merges into that
 * group, as a PC-based merge), or until no other group of its warp runs.
 * Without branch subdivision (Slip) a split of a subdivided warp waits
 * before every forward conditional branch until its warp's groups are there
 * (no predication: the stack needs every thread's outcome); backward
 * branches, the loop back-edges, let the run-ahead slip into the next
 * iteration [inferred]. */
#include <string.h>

#include "core/reconv_dws_internal.h"
#include "simtgrid/bits.h"

static unsigned dws_capacity(const core_params *p) { return p->max_warps + p->dws_wst_entries; }

static void *dws_create(sm *s)
{
    dws_state *q = g_new0(dws_state, 1);
    q->e = g_new0(dws_ent, s->nent_cap);
    q->cur = -1;
    for (unsigned i = 0; i < s->nent_cap; i++)
        q->e[i].tag = -1;
    dws_slip_init(&q->slip, s->p.dws_slip_limit, s->p.warp_size, s->p.dws_slip_interval, s->p.dws_slip_mem_pct,
                  s->p.dws_slip_active_pct, 0);
    return q;
}

static void dws_destroy(void *state)
{
    dws_state *q = state;
    dws_slip_free(&q->slip);
    g_free(q->e);
    g_free(q);
}

/* ---- WST occupancy and slots ------------------------------------------ */

/* The WST's occupancy changes: integrate entries x cycles up to now. */
static void wst_account(sm *s, dws_state *q)
{
    uint64_t now = s->cycle;
    if (now > q->wst_last) {
        q->wst_area += (uint64_t)q->wst_used * (now - q->wst_last);
        if (q->wst_used >= s->p.dws_wst_entries)
            q->wst_full_cycles += now - q->wst_last;
        q->wst_last = now;
    }
}

/* Entries the warp of hw holds: its splits once it is subdivided. */
static unsigned wst_of(const sm *s, unsigned hw)
{
    unsigned n = s->hw[hw].nentities;
    return n > 1 ? n : 0;
}

static void wst_changed(sm *s, dws_state *q, unsigned hw, unsigned before)
{
    wst_account(s, q);
    q->wst_used = q->wst_used - before + wst_of(s, hw);
    if (q->wst_used > q->wst_max)
        q->wst_max = q->wst_used;
}

static bool wst_room(const sm *s, const dws_state *q, unsigned hw)
{
    unsigned need = s->hw[hw].nentities > 1 ? 1 : 2;
    return q->wst_used + need <= s->p.dws_wst_entries;
}

/* Slip: a fall-behind split stays held while another group of its warp
 * runs (not waiting at a sync point, not itself held behind). The scan
 * apart, so that the common case (no slip) stays a flag test inline. */
static bool slip_held_scan(const sm *s, const dws_state *q, unsigned e)
{
    unsigned hw = s->ent[e].hw;
    for (unsigned x = 0; x < s->nent_cap; x++) {
        const dws_ent *o = &q->e[x];
        if (x != e && s->ent[x].live && s->ent[x].hw == hw && !o->slip_behind && !o->wait_rec && !o->wait_bl &&
            !s->ent[x].at_barrier)
            return true;
    }
    return false;
}

static inline bool slip_held(const sm *s, const dws_state *q, unsigned e)
{
    return q->e[e].slip_behind && slip_held_scan(s, q, e);
}

static void set_held(sm *s, unsigned e)
{
    const dws_state *q = s->rc_state;
    const dws_ent *d = &q->e[e];
    s->ent[e].held = !d->slot || d->wait_rec || d->wait_bl || slip_held(s, q, e);
}

/* Sync points give their slot back; free slots go to the oldest groups
 * without one that can run ([M] 6.6). One pass in the common case (it runs
 * every cycle): the hand-out scans only while a group wants a slot. */
static bool slot_waits(const sm *s, const dws_ent *d, unsigned e)
{
    return d->wait_rec || d->wait_bl || s->ent[e].at_barrier || slip_held(s, s->rc_state, e);
}

static void slots_settle(sm *s)
{
    dws_state *q = s->rc_state;
    bool want = false;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        dws_ent *d = &q->e[e];
        if (!s->ent[e].live)
            continue;
        /* slot_waits and set_held in one evaluation: slip_held reads no
         * slot, so releasing one here does not change it */
        bool sh = slip_held(s, q, e);
        bool waits = d->wait_rec || d->wait_bl || s->ent[e].at_barrier || sh;
        if (d->slot && waits) {
            d->slot = false;
            q->slots_used--;
        }
        want |= !d->slot && !waits;
        s->ent[e].held = !d->slot || d->wait_rec || d->wait_bl || sh;
    }
    if (!want)
        return;
    while (q->slots_used < s->p.dws_slots) {
        int best = -1;
        for (unsigned e = 0; e < s->nent_cap; e++) {
            const dws_ent *d = &q->e[e];
            if (s->ent[e].live && !d->slot && !slot_waits(s, d, e) && (best < 0 || d->seq < q->e[best].seq))
                best = (int)e;
        }
        if (best < 0)
            break;
        q->e[best].slot = true;
        q->slots_used++;
        set_held(s, (unsigned)best);
    }
}

/* ---- entities ----------------------------------------------------------- */

static void sync_entity(sm *s, unsigned e)
{
    const dws_ent *d = &((dws_state *)s->rc_state)->e[e];
    s->ent[e].pc = pdom_top(&d->stk)->pc;
    s->ent[e].active = pdom_top(&d->stk)->mask;
}

static void ent_free(sm *s, unsigned e)
{
    dws_state *q = s->rc_state;
    dws_ent *d = &q->e[e];
    unsigned hw = s->ent[e].hw, before = wst_of(s, hw);
    if (d->slot)
        q->slots_used--;
    d->slot = d->wait_rec = d->wait_bl = d->slip_behind = false;
    d->tag = -1;
    s->ent[e].held = false;
    sm_entity_free(s, e);
    wst_changed(s, q, hw, before);
}

/* A new group of e's warp: a copy of e (stack, timing) with `lanes`. */
static unsigned ent_clone(sm *s, unsigned e)
{
    dws_state *q = s->rc_state;
    unsigned hw = s->ent[e].hw, before = wst_of(s, hw);
    unsigned n = sm_entity_new(s, hw, (int)e);
    wst_changed(s, q, hw, before);
    q->e[n] = q->e[e];
    q->e[n].slot = false;
    q->e[n].seq = q->next_seq++;
    q->e[n].tag = -1;
    q->e[n].slip_behind = false;
    s->ent[n].held = true;
    return n;
}

/* Subdivide e's top entry: e keeps (pa, ma), a new group takes (pb, mb).
 * Returns the new group. The caller checked the WST. */
static unsigned subdivide(sm *s, unsigned e, uint32_t pa, uint32_t ma, uint32_t pb, uint32_t mb)
{
    dws_state *q = s->rc_state;
    dws_ent *d = &q->e[e];
    pdom_stack *k = &d->stk;
    unsigned t = k->depth - 1;
    if (d->kind[t] != K_SPLIT) {
        /* T becomes the barrier; the paths get split entries above it */
        d->kind[t] = K_BARRIER;
        d->bar[t] = ++q->next_bar;
        uint32_t rpc = k->e[t].rpc;
        if (k->depth == PDOM_MAX_DEPTH)
            g_error("core: %s: DWS stack overflow", s->name);
        t = k->depth++;
        k->e[t] = (pdom_entry){.pc = pa, .rpc = rpc, .mask = ma};
        d->kind[t] = K_SPLIT;
        d->bar[t] = 0;
    }
    k->e[t].pc = pa;
    k->e[t].mask = ma;
    unsigned n = ent_clone(s, e);
    dws_ent *c = &q->e[n];
    c->stk.e[t].pc = pb;
    c->stk.e[t].mask = mb;
    sync_entity(s, e);
    sync_entity(s, n);
    return n;
}

/* b merges into a (entry masks OR-ed); b is freed. */
static void merge_into(sm *s, unsigned a, unsigned b)
{
    dws_state *q = s->rc_state;
    dws_ent *da = &q->e[a], *db = &q->e[b];
    for (unsigned i = 0; i < da->stk.depth; i++)
        da->stk.e[i].mask |= db->stk.e[i].mask;
    if (s->ent[a].ready_at < s->ent[b].ready_at)
        s->ent[a].ready_at = s->ent[b].ready_at;
    da->slip_behind = da->slip_behind && db->slip_behind;
    if (!da->slot && db->slot) {   /* the slot stays with the merged group */
        da->slot = true;
        db->slot = false;
    }
    ent_free(s, b);
    sync_entity(s, a);
}

/* A warp merged back into one group: the split entry on top of its barrier
 * becomes the warp's entry again, as if it had never been subdivided. */
static void collapse(sm *s, unsigned e)
{
    dws_ent *f = &((dws_state *)s->rc_state)->e[e];
    unsigned t = f->stk.depth - 1;
    if (s->hw[s->ent[e].hw].nentities == 1 && t > 0 && f->kind[t] == K_SPLIT && f->kind[t - 1] == K_BARRIER) {
        f->stk.e[t - 1].pc = f->stk.e[t].pc;
        f->stk.e[t - 1].mask = f->stk.e[t].mask;
        f->kind[t - 1] = K_PLAIN;
        f->bar[t - 1] = 0;
        f->stk.depth--;
    }
    sync_entity(s, e);
}

/* ---- re-convergence ------------------------------------------------------ */

static void after_step(sm *s, unsigned e);

/* Every live group of the warp that shares barrier id B at depth `depth`
 * waits on it: merge them and pop T as under Conv. */
static void try_stack_merge(sm *s, unsigned hw, unsigned depth, uint32_t bar)
{
    dws_state *q = s->rc_state;
    int first = -1;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        if (!s->ent[e].live || s->ent[e].hw != hw)
            continue;
        const dws_ent *d = &q->e[e];
        if (d->stk.depth < depth || d->kind[depth - 1] != K_BARRIER || d->bar[depth - 1] != bar)
            continue;
        if (!d->wait_rec || d->stk.depth != depth || s->ent[e].mem_wait)
            return;   /* one of them has not arrived (or still waits for its load) */
        if (first < 0)
            first = (int)e;
    }
    if (first < 0)
        return;
    dws_ent *f = &q->e[first];
    uint32_t lanes = 0;
    unsigned merged = 0;
    for (unsigned e = (unsigned)first; e < s->nent_cap; e++) {
        const dws_ent *d = &q->e[e];
        if (!s->ent[e].live || s->ent[e].hw != hw || d->stk.depth != depth || d->kind[depth - 1] != K_BARRIER ||
            d->bar[depth - 1] != bar)
            continue;
        lanes |= d->lanes;
        if ((int)e != first) {
            if (s->ent[first].ready_at < s->ent[e].ready_at)
                s->ent[first].ready_at = s->ent[e].ready_at;
            ent_free(s, e);
            merged++;
        }
    }
    q->merges_stack += merged;
    pdom_entry *t = &f->stk.e[depth - 1];
    f->kind[depth - 1] = K_PLAIN;
    f->bar[depth - 1] = 0;
    f->wait_rec = false;
    f->lanes = lanes;
    t->mask = lanes;
    pdom_advance(&f->stk, t->rpc);   /* T reached its rpc: pops as under Conv */
    if (pdom_empty(&f->stk)) {
        ent_free(s, (unsigned)first);
        return;
    }
    sync_entity(s, (unsigned)first);
    after_step(s, (unsigned)first);
}

/* After e's stack changed: wait at a barrier entry it reached (its split
 * entry, just popped, still lies above it: its threads, maybe none left), or
 * before a branch (BranchLimited). */
static void after_step(sm *s, unsigned e)
{
    dws_state *q = s->rc_state;
    dws_ent *d = &q->e[e];
    unsigned t = d->stk.depth - 1;
    if (d->kind[t] == K_BARRIER) {
        d->wait_rec = true;
        d->lanes = d->stk.e[t + 1].mask;
        d->stk.e[t].pc = d->stk.e[t].rpc;
        unsigned hw = s->ent[e].hw;
        if (!d->lanes)   /* all its threads exited: a sibling carries the frame */
            for (unsigned x = 0; x < s->nent_cap; x++) {
                const dws_ent *o = &q->e[x];
                if (x != e && s->ent[x].live && s->ent[x].hw == hw && o->stk.depth > t && o->kind[t] == K_BARRIER &&
                    o->bar[t] == d->bar[t]) {
                    uint32_t bar = d->bar[t];
                    ent_free(s, e);
                    try_stack_merge(s, hw, t + 1, bar);
                    return;
                }
            }
        sync_entity(s, e);
        s->ent[e].active = d->lanes;
        set_held(s, e);
        try_stack_merge(s, s->ent[e].hw, d->stk.depth, d->bar[t]);
        return;
    }
    bool slip_bl = s->p.dws_mem_split == CORE_DWS_SLIP && !s->p.dws_branch_split;
    if ((s->p.dws_branch_limited || slip_bl) && s->hw[s->ent[e].hw].nentities > 1 && !s->ent[e].trace) {
        const isa_inst *in = sm_inst_of(s, e);
        if (in->op == ISA_OP_BRA &&
            (!slip_bl || (in->guard != ISA_PRED_NONE && in->target > s->ent[e].pc))) {
            d->wait_bl = true;
            set_held(s, e);
        }
    }
}

/* BranchLimited: every group of the warp waits before the same branch. */
static void try_bl_merge(sm *s, unsigned hw)
{
    dws_state *q = s->rc_state;
    int first = -1;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        if (!s->ent[e].live || s->ent[e].hw != hw)
            continue;
        if (!q->e[e].wait_bl || s->ent[e].mem_wait)
            return;
        if (first < 0)
            first = (int)e;
        else if (!same_frame(&q->e[first], &q->e[e]))
            return;
    }
    if (first < 0)
        return;
    for (unsigned e = (unsigned)first + 1; e < s->nent_cap; e++)
        if (s->ent[e].live && s->ent[e].hw == hw) {
            merge_into(s, (unsigned)first, e);
            q->merges_bl++;
        }
    q->e[first].wait_bl = false;
    collapse(s, (unsigned)first);
    set_held(s, (unsigned)first);
}

/* PC-based re-convergence ([M] 4.5): the running group r has just issued a
 * memory instruction; the ready groups of its warp now at r's pc with the
 * same stack (they issued that instruction earlier and were served) merge
 * into r and wait with it (r.mask |= q.mask). A ready group that holds no
 * scheduler slot may merge too ([M] 6.6). With `slip`, adaptive slip's
 * merge instead: r issued the load again, and the held fall-behind splits
 * standing after it, their data back, merge into r. */
static bool may_merge(const sm *s, const dws_state *q, unsigned b, uint64_t cycle, bool slip)
{
    if (slip)
        return q->e[b].slip_behind && !s->ent[b].mem_wait;
    return idle_ready(s, b, cycle) || (!s->ent[b].mem_wait && !q->e[b].slot && !q->e[b].wait_rec &&
                                       !q->e[b].wait_bl && !s->ent[b].at_barrier);
}

static void merge_at_pc(sm *s, unsigned r, uint64_t cycle, bool slip)
{
    dws_state *q = s->rc_state;
    unsigned hw = s->ent[r].hw;
    for (unsigned b = 0; b < s->nent_cap && s->hw[hw].nentities > 1; b++) {
        if (b == r || !s->ent[b].live || s->ent[b].hw != hw || s->ent[b].pc != s->ent[r].pc)
            continue;
        if (!may_merge(s, q, b, cycle, slip) || !same_frame(&q->e[r], &q->e[b]))
            continue;
        merge_into(s, r, b);
        if (slip)
            q->merges_slip++;
        else
            q->merges_pc++;
    }
    collapse(s, r);
}

/* Slip: every group of a subdivided warp waits at a sync point (before a
 * branch or at the stack's re-convergence point) and they cannot merge
 * (different frames: a run-ahead split took a loop back-edge its
 * fall-behind did not): the groups waiting before a branch go on. */
static void slip_unblock(sm *s, unsigned hw)
{
    dws_state *q = s->rc_state;
    bool bl = false;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        if (!s->ent[e].live || s->ent[e].hw != hw)
            continue;
        const dws_ent *d = &q->e[e];
        if ((!d->wait_bl && !d->wait_rec) || s->ent[e].mem_wait)
            return;
        bl |= d->wait_bl;
    }
    if (!bl)
        return;
    for (unsigned e = 0; e < s->nent_cap; e++)
        if (s->ent[e].live && s->ent[e].hw == hw && q->e[e].wait_bl) {
            q->e[e].wait_bl = false;
            q->e[e].slip_behind = false;
            q->slip_releases++;
            set_held(s, e);
        }
}

/* Explicit synchronization ([M] 5.4: warp-splits "simply re-converge" at
 * explicit synchronization primitives; [M] 6.6 counts a barrier among the
 * synchronization points): once a CTA barrier lets the groups of a warp
 * go, those standing at the same pc with the same stack merge. */
static void barrier_merges(sm *s)
{
    dws_state *q = s->rc_state;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        if (!s->ent[e].live || !q->e[e].bar_seen || s->ent[e].at_barrier)
            continue;
        q->e[e].bar_seen = false;
        unsigned hw = s->ent[e].hw;
        for (unsigned b = e + 1; b < s->nent_cap && s->hw[hw].nentities > 1; b++) {
            if (!s->ent[b].live || s->ent[b].hw != hw || !q->e[b].bar_seen || s->ent[b].at_barrier ||
                s->ent[b].pc != s->ent[e].pc || !same_frame(&q->e[e], &q->e[b]))
                continue;
            merge_into(s, e, b);
            q->merges_bar++;
        }
        collapse(s, e);
        set_held(s, e);
    }
}

/* Groups waiting to merge whose last load has since returned. */
static void retry_merges(sm *s)
{
    dws_state *q = s->rc_state;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        if (!s->ent[e].live)
            continue;
        const dws_ent *d = &q->e[e];
        if (d->wait_rec) {
            unsigned t = d->stk.depth - 1;
            try_stack_merge(s, s->ent[e].hw, t + 1, d->bar[t]);
        } else if (d->wait_bl) {
            try_bl_merge(s, s->ent[e].hw);
        }
        if (s->p.dws_mem_split == CORE_DWS_SLIP && s->ent[e].live && (d->wait_bl || d->wait_rec))
            slip_unblock(s, s->ent[e].hw);
    }
}

/* ---- the policy's hooks ---------------------------------------------------- */

static void dws_warp_start(sm *s, unsigned hw, uint64_t cycle)
{
    dws_state *q = s->rc_state;
    unsigned e = sm_entity_new(s, hw, -1);
    dws_ent *d = &q->e[e];
    memset(d, 0, sizeof *d);
    d->tag = -1;
    d->seq = q->next_seq++;
    d->lanes = s->hw[hw].lanes;
    pdom_init(&d->stk, 0, s->hw[hw].lanes);
    s->ent[e].pc = 0;
    s->ent[e].active = s->hw[hw].lanes;
    s->ent[e].ready_at = cycle;
    s->ent[e].held = true;
    if (!q->slip_started) {   /* the first interval starts with the SM's first warp */
        q->slip_started = true;
        q->slip.start = q->slip.area_last = q->obs_last = cycle;
    }
    slots_settle(s);
}

/* A new split whose path starts at its split entry's rpc (a branch to its
 * own post-dominator) pops it at once and waits there, as Conv's stack
 * would not push that path. */
static void arrive_at_rpc(sm *s, unsigned e)
{
    dws_ent *d = &((dws_state *)s->rc_state)->e[e];
    const pdom_entry *t = pdom_top(&d->stk);
    if (d->kind[d->stk.depth - 1] != K_SPLIT || t->pc != t->rpc)
        return;
    pdom_advance(&d->stk, t->pc);
    sync_entity(s, e);
    after_step(s, e);
}

/* Exited lanes are gone from every copy of the warp's stack. */
static void drop_exited(sm *s, unsigned e, uint32_t exited)
{
    dws_state *q = s->rc_state;
    unsigned hw = s->ent[e].hw;
    for (unsigned x = 0; x < s->nent_cap; x++)
        if (s->ent[x].live && s->ent[x].hw == hw && x != e) {
            for (unsigned i = 0; i < q->e[x].stk.depth; i++)
                q->e[x].stk.e[i].mask &= ~exited;
        }
}

static void dws_after_issue(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    dws_state *q = s->rc_state;
    dws_ent *d = &q->e[e];
    sm_entity *w = &s->ent[e];
    const isa_inst *in = o->inst;
    unsigned hw = w->hw;
    uint32_t exited = o->exited & w->active;
    d->last_issue = s->cycle;
    q->cur = (int)e;
    if (exited)
        drop_exited(s, e, exited);
    d->parked = sm_is_global(in);
    d->bar_seen |= in->op == ISA_OP_BAR;
    if (sm_is_global(in)) {   /* a new memory op: the reports of an older one are void */
        d->tag = -1;
        d->decided = false;
        d->arrived = 0;
    }
    uint32_t mask = w->active & ~exited;
    uint32_t taken = in->op == ISA_OP_BRA ? o->taken & mask : 0;
    uint32_t fall = mask & ~taken;
    bool in_split = s->hw[hw].nentities > 1 || d->stk.depth > 1;
    bool diverge = in->op == ISA_OP_BRA && taken && fall;
    /* a loop branch (backward) subdivides too, unless core.dws_loop_split is off */
    bool loop_ok = s->p.dws_loop_split || in->target > pc;
    if (diverge && loop_ok && s->p.dws_branch_split && !s->p.dws_branch_limited &&
        (eligible(s, e, in) || (s->p.dws_nested_split && in_split && d->kind[d->stk.depth - 1] == K_SPLIT))) {
        if (wst_room(s, q, hw)) {
            /* both paths run as splits; the stack is not pushed ([M] 4.1) */
            for (unsigned i = 0; i < d->stk.depth; i++)
                d->stk.e[i].mask &= ~exited;
            unsigned n = subdivide(s, e, in->target, taken, pc + 1, fall);
            q->splits_branch++;
            /* a path that starts at the re-convergence point is there */
            arrive_at_rpc(s, e);
            if (s->ent[n].live)
                arrive_at_rpc(s, n);
            slots_settle(s);
            return;
        }
        q->push_full++;
    }
    step_stack(d, w, pc, o);
    if (pdom_empty(&d->stk)) {
        ent_free(s, e);
        /* siblings waiting at a barrier or branch may now be complete */
        for (unsigned x = 0; x < s->nent_cap; x++)
            if (s->ent[x].live && s->ent[x].hw == hw && q->e[x].wait_rec) {
                unsigned t = q->e[x].stk.depth - 1;
                try_stack_merge(s, hw, t + 1, q->e[x].bar[t]);
                break;
            }
        try_bl_merge(s, hw);
        slots_settle(s);
        return;
    }
    sync_entity(s, e);
    after_step(s, e);
    if (d->wait_bl)
        try_bl_merge(s, hw);
    if (s->p.dws_mem_split == CORE_DWS_SLIP && s->ent[e].live && sm_is_global(in))
        merge_at_pc(s, e, s->cycle + 1, true);
    if (s->p.dws_pc_merge && s->ent[e].live && sm_is_global(in)) {
        /* checked at memory instructions, when some other group is ready */
        bool others = false;
        for (unsigned x = 0; x < s->nent_cap && !others; x++)
            others = x != e && s->ent[x].live && s->status[x] == WS_READY;
        if (others)
            merge_at_pc(s, e, s->cycle + 1, false);
    }
    slots_settle(s);
}

/* Split the waiting group of memory op `tag` into its served lanes
 * (run-ahead, ready) and the rest (fall-behind, keeps waiting). */
static void mem_split(sm *s, unsigned e, uint64_t cycle)
{
    dws_state *q = s->rc_state;
    dws_ent *d = &q->e[e];
    uint32_t act = s->ent[e].active, ahead = d->arrived & act, behind = act & ~ahead;
    unsigned tag = (unsigned)d->tag;
    uint32_t pc = s->ent[e].pc;
    unsigned n = subdivide(s, e, pc, ahead, pc, behind);
    /* the fall-behind split inherits the load */
    s->mem[tag].entity = (uint16_t)n;
    s->ent[n].mem_wait = s->ent[e].mem_wait;
    q->e[n].tag = (int)tag;
    q->e[n].decided = true;
    q->e[n].arrived = 0;
    s->ent[e].mem_wait = 0;
    d->tag = -1;
    uint64_t at = d->arrived_at + 1;
    if (s->ent[e].ready_at < at)
        s->ent[e].ready_at = at;
    (void)cycle;
    q->splits_mem++;
    slots_settle(s);
}

/* e still waits on its load `tag` (not completed, not reused). */
static bool waits_on(const sm *s, unsigned e, int tag)
{
    return tag >= 0 && s->mem[tag].used && s->mem[tag].entity == e && s->ent[e].mem_wait;
}

static bool any_ready(const sm *s, unsigned except, uint64_t cycle)
{
    for (unsigned x = 0; x < s->nent_cap; x++)
        if (x != except && idle_ready(s, x, cycle))
            return true;
    return false;
}

static void dws_mem_partial(sm *s, unsigned tag, uint32_t lanes, uint64_t cycle)
{
    dws_state *q = s->rc_state;
    unsigned e = s->mem[tag].entity;
    dws_ent *d = &q->e[e];
    if (s->p.dws_mem_split == CORE_DWS_MEM_OFF || !s->ent[e].live)
        return;
    d->tag = (int)tag;
    d->arrived |= lanes & s->ent[e].active;
    d->arrived_at = cycle;
    if (d->decided)
        return;
    d->decided = true;   /* the first report is the hit mask */
    if (!d->arrived || d->arrived == s->ent[e].active || d->wait_rec || d->wait_bl || !wst_room(s, q, s->ent[e].hw))
        return;
    if (s->p.dws_mem_split == CORE_DWS_SLIP) {
        /* the threads that hit slip ahead, within the divergence limit */
        if (s->hw[s->ent[e].hw].nentities < q->slip.limit) {
            mem_split(s, e, cycle);
            q->e[s->mem[tag].entity].slip_behind = true;
            slots_settle(s);
        }
        return;
    }
    if (s->p.dws_mem_split == CORE_DWS_AGGRESS || !any_ready(s, e, cycle))
        mem_split(s, e, cycle);
}

/* The cycles since the last call: skipped ones are idle; the last one seen
 * issued when the issue counter grew. Those without issue while a group
 * waited on memory are memory-wait cycles ("the WPU waits for memory"; a
 * group held behind by slip does not count). */
static void slip_observe(sm *s, dws_state *q, uint64_t cycle)
{
    uint64_t act = 0;
    for (unsigned sc = 0; sc < s->p.schedulers; sc++)
        act += s->sc[sc].st.issue_cycles;
    act /= s->p.schedulers;
    if (cycle > q->obs_last && q->obs_flag)
        q->mem_wait_cycles += cycle - q->obs_last - (act > q->obs_issue ? 1 : 0);
    q->obs_last = cycle;
    q->obs_issue = act;
    q->obs_flag = false;
    for (unsigned e = 0; e < s->nent_cap && !q->obs_flag; e++)
        q->obs_flag = s->ent[e].live && s->ent[e].mem_wait;
    dws_slip_observe(&q->slip, cycle, q->mem_wait_cycles, act);
}

static void dws_before_cycle(sm *s, uint64_t cycle)
{
    dws_state *q = s->rc_state;
    if (s->p.dws_mem_split == CORE_DWS_SLIP && q->slip_started)
        slip_observe(s, q, cycle);
    barrier_merges(s);
    retry_merges(s);
    slots_settle(s);
    if (s->p.dws_mem_split != CORE_DWS_REVIVE || any_ready(s, s->nent_cap, cycle))
        return;
    /* ReviveSplit: the pipeline idles; split one suspended group whose data
     * partly arrived (the most lanes served, then the lowest id) */
    int best = -1;
    unsigned most = 0;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        const dws_ent *d = &q->e[e];
        if (!s->ent[e].live || !waits_on(s, e, d->tag) || !d->arrived || d->arrived == s->ent[e].active ||
            d->wait_rec || d->wait_bl)
            continue;
        unsigned n = (unsigned)sg_popcount32(d->arrived & s->ent[e].active);
        if (n > most) {
            most = n;
            best = (int)e;
        }
    }
    if (best >= 0 && wst_room(s, q, s->ent[best].hw))
        mem_split(s, (unsigned)best, cycle);
}

static void dws_stats(sm *s, stats *st, const char *blk, bool final)
{
    dws_state *q = s->rc_state;
    if (final) {
        wst_account(s, q);
        uint64_t span = q->wst_last > s->first_cycle ? q->wst_last - s->first_cycle : 0;
        stats_derived(st, blk, "dws_wst_mean", "entries", "mean WST entries in use over the SM's cycles",
                      span ? (double)q->wst_area / (double)span : 0);
        if (s->p.dws_mem_split == CORE_DWS_SLIP) {
            stats_derived(st, blk, "dws_slip_limit_mean", "groups",
                          "adaptive slip: divergence limit, mean over the SM's cycles",
                          dws_slip_mean(&q->slip, q->wst_last, s->first_cycle));
            stats_series *ts = stats_series_new(st, blk, "dws_slip_limit", "groups",
                                                "adaptive slip: divergence limit after each interval",
                                                (double)s->p.dws_slip_interval);
            for (unsigned i = 0; i < q->slip.history->len; i++)
                stats_series_push(ts, g_array_index(q->slip.history, unsigned, i));
        }
        return;
    }
    stats_counter(st, blk, "dws_splits_branch", "splits", "subdivisions at divergent branches", &q->splits_branch);
    stats_counter(st, blk, "dws_splits_mem", "splits", "subdivisions on memory divergence (run-ahead / fall-behind)",
                  &q->splits_mem);
    stats_counter(st, blk, "dws_merges_pc", "merges", "PC-based re-convergences (groups merged away)", &q->merges_pc);
    stats_counter(st, blk, "dws_merges_stack", "merges", "groups merged away at the stack's re-convergence point",
                  &q->merges_stack);
    stats_counter(st, blk, "dws_merges_bl", "merges", "BranchLimited: groups merged away before a branch",
                  &q->merges_bl);
    stats_counter(st, blk, "dws_merges_bar", "merges", "groups merged away on leaving a CTA barrier",
                  &q->merges_bar);
    stats_counter(st, blk, "dws_wst_max", "entries", "most WST entries in use", &q->wst_max);
    stats_counter(st, blk, "dws_wst_full_cycles", "cycles", "cycles the WST was full", &q->wst_full_cycles);
    stats_counter(st, blk, "dws_push_full", "branches",
                  "divergent branches that pushed the stack because the WST was full", &q->push_full);
    if (s->p.dws_mem_split == CORE_DWS_SLIP) {
        stats_counter(st, blk, "dws_merges_slip", "merges",
                      "adaptive slip: fall-behind splits merged when their load was issued again", &q->merges_slip);
        stats_counter(st, blk, "dws_slip_releases", "groups",
                      "adaptive slip: groups let past a branch because their warp's groups could not meet",
                      &q->slip_releases);
        stats_counter(st, blk, "dws_slip_ups", "intervals", "adaptive slip: intervals that raised the limit",
                      &q->slip.ups);
        stats_counter(st, blk, "dws_slip_downs", "intervals", "adaptive slip: intervals that lowered the limit",
                      &q->slip.downs);
        stats_counter(st, blk, "dws_slip_limit_max", "groups", "adaptive slip: highest divergence limit",
                      &q->slip.limit_max);
    }
}

/* Switch on cache access with a ready queue ([M] 3.3): the group that
 * issued last keeps the pipeline while it is ready; otherwise the ready
 * group that has waited longest since its last issue (a split created at a
 * branch queues from the branch) runs, then the oldest warp. */
static int queue_pick(sm *s, unsigned sc, const sched_view *v)
{
    dws_state *q = s->rc_state;
    if (q->cur >= 0 && s->ent[q->cur].live && s->ent[q->cur].sched == sc && v->status[q->cur] == WS_READY)
        return q->cur;
    int best = -1;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        if (!s->ent[e].live || s->ent[e].sched != sc || v->status[e] != WS_READY)
            continue;
        if (best < 0 || q->e[e].last_issue < q->e[best].last_issue ||
            (q->e[e].last_issue == q->e[best].last_issue && v->age[e] < v->age[best]))
            best = (int)e;
    }
    return best;
}

/* A group resumed after its memory instruction starts "with" it ([M] 4.5:
 * resumed splits always start with memory instructions, so the PCs are
 * compared when the running split executes one): the ready groups of its
 * warp parked at the same pc with the same stack merge into it
 * (core.dws_pc_merge_resume [inferred, digest ambiguity A5]). */
/* The pick, in the scheduler actor (reconv_ops.pick, with its copies of
 * the statuses and ages): the ready queue, or without it the scheduler's. */
static int dws_pick(sm *s, unsigned sc, uint64_t k, uint64_t *wake, uint8_t *status,
                    const sched_view *v)
{
    (void)wake, (void)status;
    return s->p.dws_ready_queue ? queue_pick(s, sc, v) : sched_pick(&s->sc[sc].s, v, k);
}

/* The SM's side of the pick r (reconv_ops.picked); the SM then records the
 * issue (sm_issue_cycle). */
static void dws_picked(sm *s, unsigned r, uint64_t k)
{
    dws_state *q = s->rc_state;
    if (q->e[r].parked) {
        q->e[r].parked = false;
        if (s->p.dws_pc_merge && s->p.dws_pc_merge_resume)
            merge_at_pc(s, r, k, false);
    }
}

const reconv_ops reconv_dws_ops = {
    .packs = false,
    .capacity = dws_capacity,
    .create = dws_create,
    .destroy = dws_destroy,
    .warp_start = dws_warp_start,
    .after_issue = dws_after_issue,
    .before_cycle = dws_before_cycle,
    .every_cycle = true,
    .mem_partial = dws_mem_partial,
    .pick = dws_pick,
    .picked = dws_picked,
    .stats = dws_stats,
};
