/* LD/ST unit + coalescer + L1D of one SM, on ports (see ldst.h). */
#include "mem/ldst_internal.h"
#include "mem/runahead.h"

/* The ready cycle of a hit of warp `w` whose data the L1 has at `ready`:
 * no earlier than hit_interval cycles after the warp's previous hit. */
static uint64_t warp_hit_ready(ldst *u, unsigned w, uint64_t ready)
{
    if (!u->hit_interval)
        return ready;
    if (w >= u->nhit_free) {
        unsigned n = MAX(w + 1, 2 * u->nhit_free);
        u->hit_free = g_renew(uint64_t, u->hit_free, n);
        for (unsigned i = u->nhit_free; i < n; i++)
            u->hit_free[i] = 0;
        u->nhit_free = n;
    }
    ready = MAX(ready, u->hit_free[w]);
    u->hit_free[w] = ready + u->hit_interval;
    return ready;
}

/* The ready cycle of a hit of `bytes` whose data the L1 has at `ready`,
 * through the SM's return path of hit_bytes bytes per cycle: the cycle that
 * carries its last byte (a hit alone on the path keeps its latency). */
static uint64_t hit_return_ready(ldst *u, uint64_t ready, unsigned bytes)
{
    if (!u->hit_bytes)
        return ready;
    uint64_t start = MAX(ready * u->hit_bytes, u->ret_free);
    u->ret_free = start + bytes;
    return (u->ret_free - 1) / u->hit_bytes;
}

void ldst_count_stall(ldst *u, uint64_t cycles)
{
    loadpc *r = u->busy ? u->inst[u->cur].lpc : NULL;
    u->busy_cycles += cycles;
    if (u->stall_cause == CACHE_FAIL_MSHR_FULL || u->stall_cause == CACHE_FAIL_MSHR_MERGE_LIMIT) {
        u->stall_mshr += cycles;
        if (r)
            r->stall_mshr += cycles;
    } else if (u->stall_cause == CACHE_FAIL_MISS_QUEUE_FULL) {
        u->stall_icnt += cycles;
        if (r)
            r->stall_icnt += cycles;
    } else {
        u->stall_set += cycles;
        if (r)
            r->stall_set += cycles;
    }
}

void ldst_finish(ldst *u, des_time end)
{
    uint64_t c = end / u->clk->period;
    if (u->hold)
        ldst_hold_catch_up(u, end);
    if (u->stalled && c > u->stall_last + 1)
        ldst_count_stall(u, c - u->stall_last - 1);
    u->stall_last = c;
    if (u->rq_n && u->rq_blocked && c > u->rq_fail_cycle) {
        u->rq_replay_stall += c - u->rq_fail_cycle;
        u->rq_fail_cycle = c;
    }
    cache_finish(u->l1, c);
    if (u->st) {
        stats_derived(u->st, u->name, "mean_load_latency", "cycles", "mean of load_latency",
                      stats_hist_mean(&u->latency));
        stats_derived(u->st, u->name, "mean_miss_latency", "cycles", "mean of miss_latency",
                      stats_hist_mean(&u->round_trip));
        uint64_t n = u->cst.load_iwc.samples;
        stats_derived(u->st, u->name, "mean_load_iwc", "accesses/set",
                      "mean intra-warp concentration of the loads (Wang Eq 3.1; 1 is ideal)",
                      n ? u->cst.iwc_sum / (double)n : 0.0);
        if (u->dc) {
            stats_derived(u->st, u->l1name, "dacache_fcw", "warps",
                          "DaCache: FCW at the end (static partition: its region's warps)",
                          (double)dacache_ctl_fcw(u->dc));
            stats_derived(u->st, u->l1name, "dacache_mean_fcw", "warps",
                          "DaCache: mean FCW over the retired divergent loads",
                          u->fcw_samples ? (double)u->fcw_sum / (double)u->fcw_samples : 0.0);
        }
        if (u->fb) {   /* the FCW that OAWS and FCW-Only schedule by */
            stats_derived(u->st, u->name, "sched_fcw", "warps", "OAWS / FCW-Only: FCW at the end (Fig 5.3)",
                          (double)u->fb_fcw.fcw);
            stats_derived(u->st, u->name, "sched_mean_fcw", "warps",
                          "OAWS / FCW-Only: mean FCW over the retired divergent loads",
                          u->fb_fcw_samples ? (double)u->fb_fcw_sum / (double)u->fb_fcw_samples : 0.0);
        }
    }
}

/* ---- instruction bookkeeping ------------------------------------------- */

/* The L1's state as the schedulers see it. */
void ldst_publish(ldst *u)
{
    if (!u->fb)
        return;
    mem_set_mshr_free(u->fb, cache_mshr_free(u->l1));   /* each reports a change */
    mem_set_port_free(u->fb, cache_missq_room(u->l1));
    mem_set_fcw(u->fb, u->fb_fcw.fcw);
}

/* The instruction in the unit has all its accesses through the L1: OAWS's
 * prediction for it leaves Miss_inflight. */
static void retire(ldst *u)
{
    u->busy = false;
    if (u->fb)
        mem_add_inflight(u->fb, -(int32_t)u->req.pred);
}

static void respond(ldst *u, uint32_t slot, des_time t)
{
    ldst_inst *in = &u->inst[slot];
    if (in->op == MEM_LOAD) {
        coalesce_count_mpli(&u->cst, &u->co, in->accesses, in->misses);
        if (u->dc && coalesce_is_divergent(&u->co, in->accesses)) {
            /* FCW's units are SM-wide warps: a priority stands for N_sched warps */
            const cache_params *cp = cache_get_params(u->l1);
            if (u->dc->dynamic)
                fcw_retire(&u->dc->fcw, in->prio * cp->dacache_schedulers, in->misses == 0);
            u->fcw_sum += dacache_ctl_fcw(u->dc);
            u->fcw_samples++;
        }
        if (u->fb && coalesce_is_divergent(&u->co, in->accesses)) {
            fcw_retire(&u->fb_fcw, in->gprio, in->misses == 0);
            u->fb_fcw_sum += u->fb_fcw.fcw;
            u->fb_fcw_samples++;
        }
        stats_hist_add(&u->latency, t / u->clk->period - in->issued);
        if (in->lpc)
            loadchar_done(u->lc, in->lpc, in->accesses, in->misses, in->unit, t / u->clk->period - in->ready_at);
        if (u->tr_load.t)
            trace_spans_add(&u->tr_load, "load", in->issued, t / u->clk->period);
    }
    if (in->reply && (!g_queue_is_empty(u->resp_wait) || !des_port_try_send(u->resp_out, &in->resp, t)))
        g_queue_push_tail(u->resp_wait, g_memdup2(&in->resp, sizeof in->resp));
    in->next_free = u->free_head;
    u->free_head = (int)slot;
}

/* MEM_LANE_REPORT: the access of `slot` to `line` (else its first one not
 * yet reported) has its data: a partial response with its lanes, unless it
 * is the last (the final response follows). */
static void report_lanes(ldst *u, uint32_t slot, uint64_t line, des_time t)
{
    ldst_inst *in = &u->inst[slot];
    if (!(in->flags & MEM_LANE_REPORT) || in->remaining <= 1)
        return;
    ldst_lanes *l = &u->lanes[slot];
    unsigned pick = l->n;
    for (unsigned i = 0; i < l->n; i++) {
        if (l->done[i])
            continue;
        if (pick == l->n)
            pick = i;
        if (l->line[i] == line) {
            pick = i;
            break;
        }
    }
    if (pick == l->n)
        return;
    l->done[pick] = true;
    warp_mem_resp r = in->resp;
    r.partial = 1;
    r.lanes = l->lanes[pick];
    if (!g_queue_is_empty(u->resp_wait) || !des_port_try_send(u->resp_out, &r, t))
        g_queue_push_tail(u->resp_wait, g_memdup2(&r, sizeof r));
}

static void complete_access(ldst *u, uint32_t slot, des_time t)
{
    ldst_inst *in = &u->inst[slot];
    if (--in->remaining == 0)
        respond(u, slot, t);
}

/* Lane operations of atomic access `a`: its lanes, and the most of them on
 * one address (the L2 executes those one after another). */
static void note_atomic(ldst *u, const coalesce_access *a)
{
    ldst_atomic *in = &u->atom[u->cur];
    unsigned lanes = (unsigned)sg_popcount32(a->lanes), hot = 0, word = 0;
    for (unsigned l = 0; l < COALESCE_LANES; l++) {
        if (!(a->lanes >> l & 1))
            continue;
        unsigned same = 0;
        for (unsigned m = 0; m < COALESCE_LANES; m++)
            same += (a->lanes >> m & 1) && u->req.addr[m] == u->req.addr[l];
        if (same > hot)
            word = (unsigned)(u->req.addr[l] >> 2);
        hot = MAX(hot, same);
    }
    unsigned i = in->n++;
    in->line[i] = a->line;
    in->lanes[i] = (uint8_t)lanes;
    in->hot[i] = (uint8_t)hot;
    in->word[i] = (uint8_t)word;
    in->sent[i] = false;
}

/* The lane counts of instruction `slot`'s first unsent atomic access to
 * `line` (else its first unsent one: an L1 line other than the coalescer's). */
static void atomic_lanes(ldst *u, uint32_t slot, uint64_t line, mem_pkt *m)
{
    ldst_atomic *in = &u->atom[slot];
    unsigned pick = in->n;
    for (unsigned i = 0; i < in->n; i++) {
        if (in->sent[i])
            continue;
        if (pick == in->n)
            pick = i;
        if (in->line[i] == line) {
            pick = i;
            break;
        }
    }
    if (pick == in->n)
        return;
    in->sent[pick] = true;
    m->lanes = in->lanes[pick];
    m->hot_lanes = in->hot[pick];
    m->hot_word = in->word[pick];
}

static void push_hit(ldst *u, uint64_t ready, uint32_t slot, uint64_t line)
{
    if (u->hcount == u->hcap) {
        hit_ev *n = g_new(hit_ev, u->hcap * 2);
        for (unsigned i = 0; i < u->hcount; i++)
            n[i] = u->hits[(u->hhead + i) % u->hcap];
        g_free(u->hits);
        u->hits = n;
        u->hhead = 0;
        u->hcap *= 2;
    }
    /* Sorted insert from the tail: only a delayed hit (hit_interval) moves
     * past a later-pushed one; equal ready cycles keep push order. */
    unsigned i = u->hcount++;
    for (; i > 0 && u->hits[(u->hhead + i - 1) % u->hcap].ready > ready; i--)
        u->hits[(u->hhead + i) % u->hcap] = u->hits[(u->hhead + i - 1) % u->hcap];
    u->hits[(u->hhead + i) % u->hcap] = (hit_ev){ready, slot, line};
}

/* Take the next instruction from the SM into the unit. */
static void take_request(ldst *u, uint64_t c, des_time t)
{
    warp_mem_req *r;
    if (u->busy || u->free_head < 0 || !(r = des_port_peek(u->req_in, t)))
        return;
    u->req = *r;
    des_port_pop(u->req_in, t);
    uint32_t slot = (uint32_t)u->free_head;
    ldst_inst *in = &u->inst[slot];
    u->free_head = in->next_free;
    u->nacc = coalesce_warp(&u->co, u->req.addr, u->req.active, u->req.size, u->acc);
    for (unsigned i = 0; u->req.op == MEM_STORE && i < u->nacc; i++) {
        u->partial32[i] = coalesce_partial32(&u->co, u->req.addr, u->req.size, &u->acc[i]);
        u->words32[i] = u->partial32[i] ? coalesce_words32(&u->co, u->req.addr, u->req.size, &u->acc[i]) : 0;
    }
    coalesce_count(&u->cst, &u->co, u->req.op, u->acc, u->nacc);
    unsigned sets = u->req.op == MEM_LOAD ? iwc_sets_touched(u->l1, u->acc, u->nacc) : 0;
    if (u->req.op == MEM_LOAD)
        coalesce_count_iwc(&u->cst, u->nacc, sets);
    *in = (ldst_inst){.resp = {.tag = u->req.tag, .warp = u->req.warp, .op = u->req.op,
                               .accesses = (uint8_t)MIN(u->nacc, 255u)},
                      .issued = c, .remaining = u->nacc, .accesses = u->nacc, .op = u->req.op,
                      .flags = u->req.flags, .prio = u->req.prio, .gprio = u->req.gprio, .next_free = -1,
                      .ready_at = MIN(u->req.ready_at, c > 0 ? c - 1 : 0)};
    if (u->lc && u->req.op == MEM_LOAD) {
        in->lpc = loadchar_pc(u->lc, u->req.kernel, u->req.pc);
        loadchar_load(u->lc, in->lpc, u->nacc, sets, iwc_balance(u->l1, u->acc, u->nacc));
    }
    if (u->fb && u->req.op == MEM_LOAD && coalesce_is_divergent(&u->co, u->nacc))
        dlc_coalesced(u->fb, u->req.pc, u->nacc);
    if (u->dc && u->req.op == MEM_LOAD)
        u->dc_class = (uint8_t)dacache_ctl_classify(u->dc, u->req.pc, u->req.warp, u->req.prio, u->nacc,
                                                    coalesce_is_divergent(&u->co, u->nacc));
    /* Every instruction is reported to the SM, a store too once all its
     * accesses are performed: with MEM_NO_REPLY the warp does not wait for
     * it, but its CTA ends only after that report (GPGPU-Sim's stores_done). */
    in->reply = !(u->req.flags & MEM_NO_REPLY) || u->req.op == MEM_STORE;
    u->atom[slot].n = 0;
    if (in->flags & MEM_LANE_REPORT) {
        if (!u->lanes)
            u->lanes = g_new0(ldst_lanes, u->ninst);
        ldst_lanes *l = &u->lanes[slot];
        l->n = u->nacc;
        for (unsigned i = 0; i < u->nacc; i++) {
            l->line[i] = u->acc[i].line;
            l->lanes[i] = u->acc[i].lanes;
            l->done[i] = false;
        }
    }
    u->cur = slot;
    u->next = 0;
    u->busy = true;
    u->cur_refused = false;
    if (u->nacc == 0) {
        retire(u);
        in->remaining = 1;
        complete_access(u, slot, t);
    }
}

/* DaCache's victim cache: sample the victim, look a coherent miss up. */
static void dacache_note(ldst *u, const cache_result *r, const cache_access *ca, unsigned nacc)
{
    if (r->evicted)
        dacache_ctl_evicted(u->dc, r->victim, r->victim_warp, r->victim_pc);
    if (ca->op == MEM_LOAD && r->outcome == CACHE_MISS && !coalesce_is_divergent(&u->co, nacc))
        dacache_ctl_missed(u->dc, ca->addr, ca->pc);
}

/* What the L1's answer to `ca` (of an instruction of `nacc` accesses)
 * tells DaCache and the schedulers' victim tags. */
static void note_result(ldst *u, const cache_access *ca, const cache_result *r, unsigned nacc)
{
    if (u->dc && r->outcome != CACHE_FAIL)
        dacache_note(u, r, ca, nacc);
    if (u->fb && r->evicted)
        vta_evicted(u->fb, r->victim_warp, r->victim);
    if (u->fb && ca->op == MEM_LOAD && r->outcome == CACHE_MISS)
        vta_missed(u->fb, ca->warp, ca->addr);
}

/* A load access of instruction `slot` that the L1 took: a hit completes
 * after its latency, a miss on its fill (or reply). */
static void load_taken(ldst *u, uint32_t slot, const cache_access *ca, const cache_result *r)
{
    ldst_inst *in = &u->inst[slot];
    if (r->outcome == CACHE_HIT) {
        push_hit(u, warp_hit_ready(u, ca->warp, r->ready), slot, ca->addr);
    } else if (r->outcome == CACHE_MISS || r->outcome == CACHE_BYPASSED) {
        in->misses++;
        if (in->lpc && r->outcome == CACHE_MISS)
            loadchar_miss(u->lc, in->lpc, ca->prio, r->miss_class);
        if (u->fb)
            dlc_missed(u->fb, ca->pc);
    }
}

/* MASCAR: the re-execution queue's head, retried once the L1 has changed
 * since it was last refused. True if it used the L1 port this cycle. */
static bool replay(ldst *u, uint64_t c)
{
    if (!u->rq_n || (u->rq_blocked && u->epoch == u->rq_epoch))
        return false;
    cache_access *ca = &u->rq[u->rq_head];
    cache_result r = cache_try_access(u->l1, ca, c);
    note_result(u, ca, &r, u->inst[ca->requester].accesses);
    if (r.outcome == CACHE_FAIL) {
        if (!u->rq_blocked)
            u->rq_fail_cycle = c;
        u->rq_blocked = true;
        u->rq_epoch = u->epoch;
        return true;
    }
    if (u->rq_blocked)
        u->rq_replay_stall += c - u->rq_fail_cycle;   /* cycles it could not be sent */
    u->rq_blocked = false;
    cache_access done = *ca;
    u->rq_head = (u->rq_head + 1) % u->rq_cap;
    u->rq_n--;
    load_taken(u, done.requester, &done, &r);
    return true;
}

/* MASCAR: queue a load access the L1 refused for an MSHR or the miss
 * queue, if there is room; it was refused this cycle, so a new head is
 * blocked until the L1 changes. */
static bool requeue(ldst *u, const cache_access *ca, cache_fail why, uint64_t c)
{
    if (!u->rq || ca->op != MEM_LOAD || u->rq_n == u->rq_cap ||
        (why != CACHE_FAIL_MSHR_FULL && why != CACHE_FAIL_MSHR_MERGE_LIMIT && why != CACHE_FAIL_MISS_QUEUE_FULL))
        return false;
    if (!u->rq_n) {
        u->rq_blocked = true;
        u->rq_epoch = u->epoch;
        u->rq_fail_cycle = c;
    }
    u->rq[(u->rq_head + u->rq_n) % u->rq_cap] = *ca;
    u->rq_n++;
    u->rq_queued++;
    return true;
}

/* The L1 access of coalesced access `a` of the instruction in the unit. */
static cache_access access_of(const ldst *u, const coalesce_access *a)
{
    return (cache_access){.addr = a->line,
                          .sectors = cache_sector_mask(u->l1, a->sectors, u->co.sector_bytes),
                          .requester = u->cur, .pc = u->req.pc, .warp = u->req.warp, .op = u->req.op,
                          .flags = u->req.flags, .prio = u->req.prio,
                          .dc_class = u->dc ? u->dc_class : 0,
                          .dc_region = u->dc && u->dc->dynamic ? (uint8_t)MIN(u->dc->fcw.fcw * COALESCE_LANES /
                                                            cache_get_params(u->l1)->sets + 1, 255u) : 0,
                          .seg32 = sector_mask_regroup(a->sectors, u->co.sector_bytes, 32,
                                                       cache_get_params(u->l1)->line_bytes),
                          .partial32 = u->req.op == MEM_STORE ? u->partial32[a - u->acc] : 0,
                          .words32 = u->req.op == MEM_STORE ? u->words32[a - u->acc] : 0};
}

/* Address translation: the current load access of the instruction in the
 * unit, if its page is not translated by cycle `c`, waits in `tw` (sorted by
 * ready cycle) without using the L1 port; the unit has spent its cycle on it
 * (one access per cycle, as the coalescer) and goes on with the next access
 * (hits under misses). True if it was put aside. Stores and atomics are not
 * translated (no measurement to set them by). */
static bool tlb_defer(ldst *u, uint64_t c)
{
    if (!u->tlb || u->req.op != MEM_LOAD)
        return false;
    const coalesce_access *a = &u->acc[u->next];
    uint64_t ready = tlb_translate(u->tlb, a->line, c);
    unsigned owed = tlb_take_port_cycles(u->tlb);   /* a miss's cost to the port */
    if (owed)
        u->port_free = MAX(u->port_free, c + 1 + owed);
    if (ready <= c)
        return false;
    if (u->tw_n == u->tw_cap) {
        tlb_wait *n = g_new(tlb_wait, u->tw_cap * 2);
        for (unsigned i = 0; i < u->tw_n; i++)
            n[i] = u->tw[(u->tw_head + i) % u->tw_cap];
        g_free(u->tw);
        u->tw = n;
        u->tw_head = 0;
        u->tw_cap *= 2;
    }
    unsigned i = u->tw_n++;   /* sorted insert from the tail, equal ready cycles in order */
    for (; i > 0 && u->tw[(u->tw_head + i - 1) % u->tw_cap].ready > ready; i--)
        u->tw[(u->tw_head + i) % u->tw_cap] = u->tw[(u->tw_head + i - 1) % u->tw_cap];
    u->tw[(u->tw_head + i) % u->tw_cap] = (tlb_wait){ready, access_of(u, a)};
    u->busy_cycles++;
    if (++u->next == u->nacc) {
        u->inst[u->cur].unit = c - u->inst[u->cur].ready_at;
        retire(u);
    }
    return true;
}

/* The translated head of `tw` through the L1 port, retried once the L1 has
 * changed since it was refused. True if it used the port this cycle. */
static bool tlb_replay(ldst *u, uint64_t c)
{
    if (!u->tw_n || u->tw[u->tw_head].ready > c || c < u->port_free ||
        (u->tw_blocked && u->epoch == u->tw_epoch))
        return false;
    if (u->tw_yield) {   /* alternate with the unit's hits, so neither starves the other */
        u->tw_yield = false;
        return false;
    }
    cache_access ca = u->tw[u->tw_head].ca;
    cache_result r = cache_try_access(u->l1, &ca, c);
    note_result(u, &ca, &r, u->inst[ca.requester].accesses);
    if (r.outcome == CACHE_FAIL) {
        u->tw_blocked = true;
        u->tw_epoch = u->epoch;
        return true;
    }
    u->tw_blocked = false;
    u->tw_head = (u->tw_head + 1) % u->tw_cap;
    u->tw_n--;
    load_taken(u, ca.requester, &ca, &r);
    return true;
}

/* One access through the L1 port; `last`: the cycle's last port, so an
 * instruction with accesses left after it waits for the coalescer. */
static void issue_access(ldst *u, uint64_t c, des_time t, bool last)
{
    if (tlb_defer(u, c))   /* a TLB miss needs no L1 port now */
        return;
    if (c < u->port_free) {   /* a previous atomic's lanes (or TLB misses) still hold the port */
        u->busy_cycles++;
        return;
    }
    const coalesce_access *a = &u->acc[u->next];
    cache_access ca = access_of(u, a);
    if (u->stalled && c > u->stall_last + 1)
        ldst_count_stall(u, c - u->stall_last - 1);   /* the cycles slept through */
    cache_result r = cache_try_access(u->l1, &ca, c);
    u->stalled = false;
    note_result(u, &ca, &r, u->nacc);
    if (r.outcome == CACHE_FAIL && requeue(u, &ca, r.fail, c)) {
        u->busy_cycles++;   /* the unit goes on with the next access */
        if (!u->cur_refused) {
            u->refused_all++;
            u->refused[r.fail]++;
        }
        u->cur_refused = false;
    } else if (r.outcome == CACHE_FAIL) {
        if (!u->cur_refused) {
            u->cur_refused = true;
            u->refused_all++;
            u->refused[r.fail]++;
        }
        u->stalled = true;
        u->changed = false;
        u->stall_cause = r.fail;
        u->stall_last = c;
        ldst_count_stall(u, 1);
        return;
    } else {
        u->busy_cycles++;
        u->cur_refused = false;
        if (u->req.op == MEM_ATOMIC) {
            note_atomic(u, a);
            u->port_free = c + (uint64_t)ceil(sg_popcount32(a->lanes) / u->atomic_rate);
        }
        if (u->req.op == MEM_STORE) {
            /* A store the L1 keeps (write-back) is performed here; one it sends
             * down (write-evict, write-through, bypassed) when the L2 acknowledges it. */
            if (r.outcome != CACHE_BYPASSED && cache_get_params(u->l1)->write == CACHE_WRITE_BACK)
                complete_access(u, u->cur, t);
        } else if (r.outcome == CACHE_HIT) {
            uint64_t ready = warp_hit_ready(u, u->req.warp, r.ready);
            ready = hit_return_ready(u, ready, (unsigned)sg_popcount32(a->sectors) * u->co.sector_bytes);
            push_hit(u, ready, u->cur, a->line);
        } else if (r.outcome == CACHE_MISS || r.outcome == CACHE_BYPASSED) {
            u->inst[u->cur].misses++;       /* completes on its fill or reply */
            if (u->inst[u->cur].lpc && r.outcome == CACHE_MISS)
                loadchar_miss(u->lc, u->inst[u->cur].lpc, u->req.prio, r.miss_class);
            if (u->fb && u->req.op == MEM_LOAD)
                dlc_missed(u->fb, u->req.pc);
        }
    }
    ldst_inst *in = &u->inst[u->cur];
    if (++u->next == u->nacc) {
        in->unit = c - in->ready_at;   /* (c - issued + 1) + (issued - ready_at - 1) */
        retire(u);
    } else if (last) {
        u->stall_coal++;
        if (in->lpc)
            in->lpc->stall_coal++;
    }
}

/* The packet of miss-queue request `q`, sent at t. */
mem_pkt ldst_pkt_of(ldst *u, const cache_req *q, des_time t)
{
    unsigned line = cache_get_params(u->l1)->line_bytes;
    unsigned sb = cache_get_params(u->l1)->sector_bytes;
    uint32_t s32 = q->seg32 ? q->seg32 : sector_mask_regroup(q->sectors, sb, 32, line);
    bool load = q->op == MEM_LOAD && u->load_route;
    unsigned dst = load ? u->load_route(u->load_ctx, q->line) : u->route(u->route_ctx, q->line);
    mem_pkt m = {.addr = q->line, .born = t, .id = q->requester, .src = (uint16_t)u->sm,
                 .dst = (uint16_t)dst, .op = q->op,
                 .sectors = (uint8_t)s32, .warp = q->warp, .partial = (uint8_t)(q->partial32 & s32),
                 .words = q->words32};
    if (q->kind == CACHE_REQ_BYPASS)
        m.flags = MEM_L2_ONLY;
    /* The DRAM row hint rides on the read that goes below: a fill or an
     * uncached load carries the hint of the access that queued it (its
     * instruction is still in the unit: it waits for this very request).
     * An access that merges into a miss already in flight sends nothing
     * below, so its hint is not forwarded (as in GPGPU-Sim only the first
     * miss's request leaves); the row it names is being opened for the
     * primary anyway. docs/cache.md, "Row hint". */
    if (q->kind == CACHE_REQ_FILL || q->kind == CACHE_REQ_BYPASS)
        m.flags |= u->inst[q->requester].flags & MEM_ROW_HINT;
    if (q->op == MEM_ATOMIC)
        atomic_lanes(u, q->requester, q->line, &m);
    if (q->kind == CACHE_REQ_WRITE || q->kind == CACHE_REQ_WRITEBACK) {
        m.op = MEM_STORE;
        /* store data is acknowledged (its access waits for that); a dirty
         * victim's write-back is not */
        m.flags = q->kind == CACHE_REQ_WRITEBACK ? MEM_NO_REPLY : 0;
        m.bytes = (uint16_t)(32u * (unsigned)sg_popcount32(s32));
    }
    return m;
}

/* One request from the miss queue to the crossbar (held sends: the
 * releases due now, and the requests not yet handed over). */
static void send_down(ldst *u, des_time t)
{
    if (u->hold) {
        ldst_hold_send(u, t, t);
        return;
    }
    const cache_req *q = cache_missq_head(u->l1);
    if (!q)
        return;
    mem_pkt m = ldst_pkt_of(u, q, t);
    if (des_port_try_send(u->down, &m, t)) {
        cache_missq_pop(u->l1);
        u->changed = true;
        u->epoch++;
    }
}

/* One reply from the crossbar: a fill of the L1, or an uncached access or a
 * store's acknowledgement: that access is done. */
static void take_reply(ldst *u, uint64_t c, des_time t)
{
    mem_pkt *m = des_port_peek(u->up, t);
    if (!m)
        return;
    if (m->op == MEM_LOAD && !(m->flags & MEM_L2_ONLY)) {
        cache_fill_result f = cache_fill(u->l1, m->addr, cache_sector_mask(u->l1, m->sectors, 32), c);
        if (!f.accepted) {
            u->fill_stalls++;
            return;
        }
        if (u->dc && f.evicted)
            dacache_ctl_evicted(u->dc, f.victim, f.victim_warp, f.victim_pc);
        if (u->fb && f.evicted)
            vta_evicted(u->fb, f.victim_warp, f.victim);
        u->changed = true;
        u->epoch++;
    } else {
        if (m->op == MEM_LOAD)
            report_lanes(u, m->id, m->addr, t);
        complete_access(u, m->id, t);
    }
    if (m->op != MEM_STORE && c >= m->born / u->clk->period) {
        stats_hist_add(&u->round_trip, c - m->born / u->clk->period);
        if (u->tr_miss.t)
            trace_spans_add(&u->tr_miss, m->op == MEM_LOAD ? "miss" : "atomic", m->born / u->clk->period, c);
    }
    des_port_pop(u->up, t);
}

static void flush_responses(ldst *u, des_time t)
{
    warp_mem_resp *r;
    while ((r = g_queue_peek_head(u->resp_wait)) && des_port_try_send(u->resp_out, r, t))
        g_free(g_queue_pop_head(u->resp_wait));
}

/* The unit's promise on its response port (des_port_promise; issue 20),
 * renewed before it blocks after running cycle c. An instruction completes
 * with its last access, so while it is issuing a load's accesses and
 * holds no response to send, no TLB wait and no MASCAR queue, a response
 * comes no sooner than a new instruction (`pop`, its promise on the
 * request port: a store it keeps completes at issue), its next hit, the
 * hit latency after its next cycle (an access it issues then), or a reply
 * (those on their way, and those the crossbar has not sent yet, from its
 * promise: des_port_arrival_floor); otherwise at its next cycle. The SM's
 * run-ahead then sees past the unit's wake-ups that answer nothing
 * (sm_lone.c). */
static void promise_responses(ldst *u, uint64_t c, des_time pop)
{
    des_time period = u->clk->period, next = (c + 1) * period;
    bool busy = u->busy && u->next < u->nacc;
    if (g_queue_is_empty(u->resp_wait) && busy && u->req.op == MEM_LOAD && !u->tw_n && !u->rq_n) {
        next = MIN(pop, (c + 1 + cache_get_params(u->l1)->hit_latency) * period);
        if (u->hcount)
            next = MIN(next, u->hits[u->hhead].ready * period);
        next = MIN(next, MIN(des_port_next(u->up), des_port_arrival_floor(u->up)));
    }
    des_port_promise(u->resp_out, next, DES_NEVER / 4);
}

void ldst_main(des_actor *self, void *data)
{
    ldst *u = data;
    des_time period = u->clk->period;
    des_time now = des_now(u->engine);
    runahead ra = RUNAHEAD_INIT;
    ldst_hold_start(u);
    for (;;) {
        uint64_t c;
        if (!runahead_due(self, u->clk, &ra, &now, &c))
            continue;
        des_time t = c * period;
        /* It runs ahead, up to the bound its neighbours' state gives, the
         * cycles it would have been woken for (its own next cycle, its
         * ports' deliveries and credits: des_ports_due), when only its
         * ports reach it: no feedback read by the SM, no TLB (shared by a
         * group of SMs), no timeline trace or load characterisation
         * shared with other blocks. A reply's
         * arrival and the response the next cycle then take one wake-up,
         * not two (issue 20). */
        bool ahead = !u->fb && !u->tlb && !u->lc && !stats_trace(u->st);
        des_time horizon = 0;   /* the bound, computed when first needed (0: not yet) */
    cycle:
        if (u->hold && t)   /* the sends of cycles it was not woken for */
            ldst_hold_catch_up(u, t - 1);
        flush_responses(u, t);
        take_reply(u, c, t);
        mshr_requester rq;
        uint64_t line;
        while (cache_pop_ready(u->l1, &rq, &line, c)) {
            report_lanes(u, rq.id, line, t);
            complete_access(u, rq.id, t);
            u->changed = true;
            u->epoch++;
        }
        while (u->hcount && u->hits[u->hhead].ready <= c) {
            uint32_t slot = u->hits[u->hhead].inst;
            uint64_t hline = u->hits[u->hhead].line;
            u->hhead = (u->hhead + 1) % u->hcap;
            u->hcount--;
            report_lanes(u, slot, hline, t);
            complete_access(u, slot, t);
        }
        send_down(u, t);
        take_request(u, c, t);
        if (replay(u, c)) {
            if (u->busy)
                u->busy_cycles++;   /* the port replayed: the instruction waits a cycle */
        } else if (tlb_replay(u, c)) {
            /* the port took a translated access; the unit's current access
             * still goes to the TLB, and waits for the port only on a hit */
            if (u->busy && (!u->stalled || u->changed) && !tlb_defer(u, c)) {
                u->busy_cycles++;
                u->tw_yield = true;   /* a hit waited for the port: it goes first next cycle */
            }
        } else if (u->busy && (!u->stalled || u->changed)) {
            issue_access(u, c, t, u->ports == 1);
            /* More accesses of the same instruction through the other
             * ports; the cycle is counted busy once. */
            for (unsigned k = 1; k < u->ports && u->busy && !u->stalled && c >= u->port_free; k++) {
                uint64_t busy = u->busy_cycles;
                issue_access(u, c, t, k + 1 == u->ports);
                u->busy_cycles = busy;
            }
        }
        des_count_events(u->engine, 1);
        ldst_publish(u);
        if (u->hold)   /* what this cycle queued goes from the next */
            ldst_hold_send(u, t, t + period);

        /* The next cycle with work, else sleep until a port wakes us. */
        bool again = (u->busy && (!u->stalled || u->changed)) || des_port_next(u->up) <= t ||
                     (u->rq_n && !(u->rq_blocked && u->epoch == u->rq_epoch)) ||
                     (u->tw_n && u->tw[u->tw_head].ready <= c && !(u->tw_blocked && u->epoch == u->tw_epoch)) ||
                     (!u->hold && cache_missq_head(u->l1) && des_port_room_next(u->down, t, period)) ||
                     (!u->busy && u->free_head >= 0 && des_port_next(u->req_in) <= t);
        uint64_t own = UINT64_MAX;
        if (again)
            own = c + 1;
        else if (u->hcount || (u->tw_n && !u->tw_blocked)) {
            own = u->hcount ? u->hits[u->hhead].ready : UINT64_MAX;
            if (u->tw_n && !u->tw_blocked)
                own = MIN(own, u->tw[u->tw_head].ready);
        }
        if (u->hold)
            ldst_hold_wake(u, c);
        runahead_ran(&ra, c, own);
        if (ahead) {
            uint64_t n = des_cycle_due(self, u->clk, t, own);
            if (n != UINT64_MAX && !horizon)   /* after a cycle: its sends only lower it */
                horizon = MIN(MIN(des_input_bound(self), des_output_bound(self)), des_stop_bound(self));
            if (n != UINT64_MAX && n * period < horizon) {
                c = n;
                t = c * period;
                goto cycle;
            }
        }
        /* While the instruction in the unit has accesses left, at most
         * `ports` of them a cycle, it takes no new one from the SM before
         * the cycle after its last (take_request): the SM's run-ahead sees
         * its request port stay full that long (issue 20, sm_lone.c). */
        uint64_t left = u->busy && u->next < u->nacc ? u->nacc - u->next : 0;
        des_time pop = left ? (ra.last + (left + u->ports - 1) / u->ports + 1) * period : 0;
        des_port_pop_after(u->req_in, pop);
        promise_responses(u, ra.last, pop);
        now = runahead_sleep(self, u->clk, &ra);
    }
}
