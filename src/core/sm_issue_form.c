/* Issue of a formation policy's entity (reconv_ops.form: LWM sub-warps, TBC
 * compacted warps). The policy lists the sub-warps of the fetched
 * instruction, each with the threads on its lanes; sub-warp i enters the
 * back end at k_i = max(k + at_i, k_{i-1} + P, its unit's free cycle) and is
 * timed exactly as a warp_size-thread warp instruction issued at k_i
 * (sm_issue.c): same unit passes, bank conflicts, completion and request
 * cycle. The scheduler's fetch port stays blocked until the last sub-warp
 * has issued ([P] 3.1.1: fetch stalls while a large warp is broken down).
 * Barrel re-fetch: after the last sub-warp completes (strict), unless the
 * policy's after_issue lets the entity go earlier. */
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

void sm_issue_formed(sm *s, unsigned sc, unsigned e, uint64_t k, slot_timing *t)
{
    sm_entity *w = &s->ent[e];
    sm_cta *c = &s->cta[w->cta];
    const isa_program *prog = c->launch->il.prog;
    const core_params *p = &s->p;
    sm_sched_state *st = &s->sc[sc];
    uint32_t pc = w->pc;
    const isa_inst *in = isa_program_inst(prog, pc);
    /* The scheduler actor forms the sub-warps (the policy's hook, sm.c
     * sm_form) with its pick (SAF_FORM, sm_issue_cycle), or on its own. */
    sched_reply *r = &st->formed;
    if (!r->formed || r->id != (int32_t)e)
        sched_actor_exchange(&st->act, s->sched_group, &s->sched_tick,
                             (sched_msg){.kind = SA_FORM, .issued = (int32_t)e, .k = k}, r);
    const sm_subwarp *sw = r->formed;
    unsigned n = r->nsub, threads = r->threads;
    r->formed = NULL;   /* used */
    core_unit_kind u = sm_unit_of(p, in);
    const core_unit_params *up = &p->unit[u];
    unsigned latency = sm_latency_of(p, in, u);
    unsigned first, step;
    sm_units_of(p, u, sc, &first, &step);
    bool global = sm_is_global(in), reply = global && sm_needs_reply(s, in);
    uint64_t next = k, last_done = 0, last_k = k;
    unsigned exited = 0;
    isa_exec_out o;
    for (unsigned i = 0; i < n; i++) {
        sm_unit *unit = &s->units[u][first];
        for (unsigned j = first + step; j < up->count; j += step)
            if (s->units[u][j].free_at < unit->free_at)
                unit = &s->units[u][j];
        uint64_t ki = max_u64(max_u64(k + sw[i].at, next), unit->free_at);
        c->ic->clock = ki;
        isa_exec(prog, pc, sw[i].lane, sw[i].mask, &o);
        if (o.fault)
            sm_fault(s, e, pc, &o);
        unsigned lat_extra;
        unsigned passes = sm_unit_passes(s, u, &o, in, &lat_extra);
        sm_unit_claim(unit, ki, (uint64_t)up->ii * passes, false);   /* ki: after free_at */
        uint64_t extra = sm_pass_extra(s, u, in, passes) + lat_extra;
        uint64_t done = ki + p->pipeline_depth - 1 + (latency - 1) + extra;
        if (p->rf_banks)
            sm_rf_book_banks(s, st, in, ki);
        unsigned nthreads = (unsigned)sg_popcount32(sw[i].mask);
        s->warp_insts++;
        st->st.issued++;
        s->class_count[in->cls]++;
        stats_hist_add(&s->active_threads, nthreads);
        /* FU lanes per cycle of the sub-warp's port passes (the ring holds
         * 64 cycles ahead of the fetch: later passes are not counted) */
        unsigned simd = p->simd_width;
        for (unsigned ps = 0; ps < s->passes_port && ki + ps < k + 64; ps++) {
            uint32_t chunk = simd >= 32 ? UINT32_MAX : ((UINT32_C(1) << simd) - 1) << (ps * simd);
            st->lanes_ring[(ki + ps) % 64] += (uint16_t)sg_popcount32(sw[i].mask & chunk);
        }
        st->cur_threads = nthreads;
        if (c->end < done)
            c->end = done;
        if (s->hook)
            s->hook(s->hook_ctx, s->id, ki, sc, w->hw, pc, sw[i].mask);
        if (global && o.mem_lanes)
            sm_send_request(s, e, &o, reply, done, ki + (latency - 1) + extra, k, pc);
        exited += (unsigned)sg_popcount32(o.exited);
        s->rc->subwarp_done(s, e, i, &o, ki, done);
        last_done = max_u64(last_done, done);
        last_k = ki;
        next = ki + s->passes_port;
    }
    t->unit = u;
    t->done = last_done;
    t->send_at = 0;
    t->threads = threads;
    st->port_free = next;
    s->thread_insts += threads;
    sm_count_rf(s, in, threads);
    if (p->refetch_latency && !sm_is_control(in) && !reply)
        w->ready_at = last_k + p->refetch_latency;
    else
        w->ready_at = last_done + 1;
    o.inst = in;
    sm_issue_retire(s, e, pc, in, &o, exited, last_done);
}
