/* CTAs on an SM: arrival (hw warps and their entities), completion reports,
 * barriers, and the entity bookkeeping the reconvergence policies use.
 *
 * A CTA is resident from its arrival cycle to its end cycle: the latest
 * completion of any of its instructions or memory responses. Its report
 * leaves for the dispatcher at end + 1, when its warp slots are freed.
 *
 * Barriers (bar.sync): a warp that issues one waits until every unfinished
 * entity of its CTA waits at a barrier (the isa reference runner's rule:
 * warps, not threads, arrive, so a PDOM warp arriving with part of its
 * threads still counts). The waiters may be fetched again at
 * (latest arrival's completion) + 1 + core.barrier_latency. */
#include <string.h>

#include "core/sm_internal.h"

unsigned sm_entity_new(sm *s, unsigned hw, int parent)
{
    if (!s->nfree_ent)
        g_error("core: %s has no free warp entity (policy %s)", s->name, s->p.reconv->name);
    unsigned id = s->free_ent[--s->nfree_ent];
    sm_hw *h = &s->hw[hw];
    if (parent >= 0) {
        s->ent[id] = s->ent[parent];
    } else {
        memset(&s->ent[id], 0, sizeof s->ent[id]);
        s->ent[id].hw = (uint16_t)hw;
        s->ent[id].cta = h->cta;
        s->ent[id].sched = (uint16_t)(hw % s->p.schedulers);
    }
    s->ent[id].live = true;
    s->age[id] = parent >= 0 ? s->age[parent] : h->age;
    s->slot[id] = hw / s->p.schedulers;
    s->status[id] = WS_DEP;   /* not pickable before statuses are computed */
    sm_sched_state *q = &s->sc[s->ent[id].sched];
    sm_members_add(s, q, id);
    sched_actor_report_new(&q->act, s->sched_group, &s->sched_tick, id, WS_DEP, s->age[id],
                           s->slot[id], parent);
    if (h->nentities++ > 0)
        s->splits++;
    s->cta[h->cta].live_entities++;
    return id;
}

void sm_entity_free(sm *s, unsigned e)
{
    sm_entity_touched(s, e);
    sm_entity *w = &s->ent[e];
    sm_hw *h = &s->hw[w->hw];
    w->live = false;
    if (!sm_sched_leave(s, e, WS_GONE))
        sm_set_status(s, e, WS_GONE);
    if (--h->nentities > 0)
        s->splits--;
    s->cta[w->cta].live_entities--;
    s->free_ent[s->nfree_ent++] = e;
    sm_barrier_check(s, w->cta);
}

bool sm_sched_leave(sm *s, unsigned e, uint8_t status)
{
    sm_sched_state *q = &s->sc[s->ent[e].sched];
    if (!sm_members_remove(s, q, e))
        return false;
    s->status[e] = status;
    sched_actor_report_flag(&q->act, s->sched_group, &s->sched_tick, e, status, SCHED_REMOVE, 0);
    return true;
}

void sm_threads_exited(sm *s, unsigned cta, unsigned n)
{
    sm_cta *c = &s->cta[cta];
    c->live_threads -= n;
    if (!c->live_threads)
        sm_cta_maybe_done(s, cta);
}

void sm_cta_arrive(sm *s, const cta_start_msg *m, uint64_t cycle)
{
    unsigned slot = 0;
    while (slot < s->p.max_ctas && s->cta[slot].live)
        slot++;
    if (slot == s->p.max_ctas)
        g_error("core: %s was sent a CTA but has no free CTA slot", s->name);
    sm_cta *c = &s->cta[slot];
    const core_launch_rt *l = m->launch;
    if (c->ic && c->launch == l) {
        isa_cta_reset(c->ic, m->cta);
    } else {
        isa_cta_free(c->ic);
        c->ic = isa_cta_new(&l->il, m->cta);
    }
    if (s->fb)
        mem_dlc_launch(s->fb, l->index);
    c->live = true;
    c->reported = false;
    c->launch = l;
    c->code = l->il.prog ? isa_program_code(l->il.prog) : NULL;
    c->id = m->cta;
    c->start = c->end = cycle;
    c->nwarps = l->nwarps;
    c->live_threads = c->ic->nthreads;
    c->live_entities = 0;
    c->bar_waiting = 0;
    c->bar_done = 0;
    c->mem_outstanding = 0;
    if (s->resident++ == 0 && s->ever_resident && cycle > s->empty_since)
        sm_account_empty(s, cycle - s->empty_since);
    if (!s->ever_resident) {
        s->ever_resident = true;
        s->first_cycle = cycle;
    }
    unsigned ws = s->p.warp_size;
    unsigned next_hw = 0;
    for (unsigned w = 0; w < l->nwarps; w++) {
        while (next_hw < s->p.max_warps && s->hw[next_hw].live)
            next_hw++;
        if (next_hw == s->p.max_warps)
            g_error("core: %s was sent a CTA but has no free warp slot", s->name);
        sm_hw *h = &s->hw[next_hw];
        memset(h, 0, sizeof *h);
        s->hw_epoch[next_hw]++;   /* a fresh scoreboard */
        h->live = true;
        h->cta = (uint16_t)slot;
        h->age = s->age_counter++;
        for (unsigned l2 = 0; l2 < ws; l2++) {
            uint32_t t = w * ws + l2;
            if (t < c->ic->nthreads) {
                h->lane[l2] = isa_cta_thread(c->ic, t);
                h->lanes |= UINT32_C(1) << l2;
            }
        }
        c->hw[w] = (uint16_t)next_hw;
        if (l->trace) {
            sm_trace_warp_start(s, next_hw, atrace_warp_of(l->trace, c->id, w), cycle);
        } else {
            s->rc->warp_start(s, next_hw, cycle);
        }
    }
}

void sm_cta_maybe_done(sm *s, unsigned cta)
{
    sm_cta *c = &s->cta[cta];
    if (!c->live || c->reported || c->live_threads || c->mem_outstanding)
        return;
    c->reported = true;
    cta_done_msg r = {.launch = c->launch->index, .sm = s->id, .cta = c->id,
                      .start_cycle = c->start, .end_cycle = c->end};
    /* keep the reports in end-cycle order (they leave at end + 1) */
    unsigned i = s->nreports;
    while (i > 0 && s->reports[i - 1].end_cycle > r.end_cycle) {
        s->reports[i] = s->reports[i - 1];
        i--;
    }
    s->reports[i] = r;
    s->nreports++;
}

static void cta_release(sm *s, uint64_t cta_id, uint32_t launch, uint64_t end)
{
    for (unsigned i = 0; i < s->p.max_ctas; i++) {
        sm_cta *c = &s->cta[i];
        if (!c->live || c->id != cta_id || c->launch->index != launch)
            continue;
        for (unsigned w = 0; w < c->nwarps; w++)
            s->hw[c->hw[w]].live = false;
        c->live = false;
        s->ctas_done++;
        if (--s->resident == 0)
            s->empty_since = end + 1;
        return;
    }
}

void sm_send_reports(sm *s, uint64_t cycle)
{
    unsigned sent = 0;
    while (sent < s->nreports && s->reports[sent].end_cycle + 1 <= cycle) {
        const cta_done_msg *r = &s->reports[sent];
        if (!des_port_try_send(s->done_out, r, des_cycles(s->clk, cycle)))
            break;   /* sized never to fill; retried next cycle otherwise */
        cta_release(s, r->cta, r->launch, r->end_cycle);
        sent++;
    }
    if (sent) {
        memmove(s->reports, s->reports + sent, (s->nreports - sent) * sizeof s->reports[0]);
        s->nreports -= sent;
    }
}

void sm_barrier_arrive(sm *s, unsigned e, uint64_t done)
{
    sm_entity_touched(s, e);
    sm_entity *w = &s->ent[e];
    sm_cta *c = &s->cta[w->cta];
    w->at_barrier = true;
    c->bar_waiting++;
    if (c->bar_done < done)
        c->bar_done = done;
    s->barrier_waits++;
    sm_barrier_check(s, w->cta);
}

void sm_barrier_check(sm *s, unsigned cta)
{
    sm_cta *c = &s->cta[cta];
    if (!c->bar_waiting || c->bar_waiting != c->live_entities)
        return;
    uint64_t ready = c->bar_done + 1 + s->p.barrier_latency;
    for (unsigned e = 0; e < s->nent_cap; e++) {
        sm_entity *w = &s->ent[e];
        if (w->live && w->cta == cta && w->at_barrier) {
            sm_entity_touched(s, e);
            w->at_barrier = false;
            if (w->ready_at < ready)
                w->ready_at = ready;
        }
    }
    c->bar_waiting = 0;
    c->bar_done = 0;
}
