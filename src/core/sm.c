/* The SM actor: construction, ports, and the cycle loop.
 *
 * Speed (DESIGN.md section 2): the SM simulates many cycles per wake-up.
 *  - Run-ahead: nothing can reach the SM sooner than its input ports'
 *    latencies (memory responses, new CTAs), so from global time `now` it
 *    simulates every cycle up to now + H - 1, H = the smallest input
 *    latency; when it is the one SM holding CTAs, further, to the bounds
 *    of its senders' state (sm_lone.c). It sends requests stamped with
 *    its local time. Its output ports' credits (a freed slot is seen one
 *    latency after the pop) are the only thing it cannot know ahead:
 *    when the request port looks full at a local cycle that a pop not
 *    yet simulated could still free, the cycle is abandoned before it
 *    changes anything and redone when global time reaches it.
 *  - Skipping: a cycle in which nothing issued and no issue port is busy
 *    repeats until the next timed event (a warp leaving the pipeline, a
 *    unit freeing, a queued request, a report, a port delivery); the cycles
 *    in between are accounted arithmetically (sm_account_replay) and the
 *    scheduler is told how many passed. With every warp waiting on memory
 *    there is no timed event: the SM blocks with no wake-up and the
 *    response's delivery wakes it. */
#include <string.h>

#include "core/sm_lone.h"

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static uint64_t cycle_at_or_after(const sm *s, des_time t)
{
    if (t == DES_NEVER)
        return NEVER_CYCLE;
    return des_edge_at_or_after(s->clk, t) / s->clk->period;
}

static uint64_t next_event(const sm *s, uint64_t wake)
{
    uint64_t n = wake;
    if (s->sendq_count)
        n = min_u64(n, s->sendq_at[s->sendq_head]);
    if (s->nreports)
        n = min_u64(n, s->reports[0].end_cycle + 1);
    if (s->resp_in)
        n = min_u64(n, cycle_at_or_after(s, des_port_next(s->resp_in)));
    if (s->cta_in)
        n = min_u64(n, cycle_at_or_after(s, des_port_next(s->cta_in)));
    return n;
}

/* Running ahead, whether no pop not yet made can free a request slot by
 * cycle n (the port's credit bound, kept): a full port then stays full. */
static bool port_sure(sm *s, uint64_t n)
{
    des_time t = des_cycles(s->clk, n);
    return s->credit_on && t < des_port_credit_kept(&s->req_sure, s->req_out, t);
}

/* Simulates cycle k. Returns the next cycle in which something may change
 * (NEVER_CYCLE: only a port delivery can), or sets *aborted. */
static uint64_t sm_cycle(sm *s, uint64_t k, des_time now, bool *aborted)
{
    des_time t = des_cycles(s->clk, k);
    sm_send_ready_requests(s, k);
    if (s->resp_in) {
        warp_mem_resp *r;
        while ((r = des_port_peek(s->resp_in, t))) {
            warp_mem_resp copy = *r;
            des_port_pop(s->resp_in, t);
            sm_mem_response(s, &copy, k);
        }
    }
    sm_send_reports(s, k);
    if (s->cta_in) {
        cta_start_msg *m;
        while ((m = des_port_peek(s->cta_in, t))) {
            cta_start_msg copy = *m;
            des_port_pop(s->cta_in, t);
            sm_cta_arrive(s, &copy, k);
        }
    }
    s->snap_valid = false;
    s->wait_port = false;
    if (!s->resident)
        return next_event(s, NEVER_CYCLE);
    /* Free request slots, once per cycle (sends below keep it current). A
     * full request port seen ahead of global time may not be full. */
    s->req_space = s->req_out ? des_port_space(s->req_out, t) : 0;
    if (s->req_out && t >= now + des_port_latency(s->req_out) && s->req_space <= s->sendq_count &&
        !port_sure(s, k)) {
        *aborted = true;
        return k;
    }
    /* Other SMs busy: past the plain bound, a cycle in which a global
     * access could issue waits for the engine's time (sm_lone.c). */
    if (t > s->global_end && sm_request_room(s) && sm_may_issue_global(s, k)) {
        *aborted = true;
        return k;
    }
    if (s->rc->before_cycle && (s->splits || s->rc->every_cycle)) {
        sm_statuses_changed(s);
        s->rc->before_cycle(s, k);
    }
    uint64_t wake = NEVER_CYCLE;
    bool busy = false;
    unsigned first = s->p.issue_rotate ? (unsigned)(k % s->p.schedulers) : 0;
    for (unsigned i = 0; i < s->p.schedulers; i++) {
        unsigned sc = first + i < s->p.schedulers ? first + i : first + i - s->p.schedulers;
        sm_sched_state *q = &s->sc[sc];
        if (q->port_free > k) {
            sm_account_issue_cycle(s, sc, k);
            busy = true;
            continue;
        }
        uint8_t worst;
        if (sm_issue_cycle(s, sc, k, &wake, &worst)) {
            sm_account_issue_cycle(s, sc, k);
            busy = true;
        } else {
            sm_account_idle_cycle(s, sc, k, worst);
        }
    }
    if (((const sched_ops *)s->p.scheduler->ops)->cycle_end)
        for (unsigned sc = 0; sc < s->p.schedulers; sc++)
            sm_sched_ask(s, sc, SA_END, k);
    s->cycles++;
    if (s->error)
        return NEVER_CYCLE;
    if (busy)
        return k + 1;
    for (unsigned sc = 0; sc < s->p.schedulers; sc++)
        if (s->sc[sc].port_free > k + 1)
            return k + 1;
    s->snap_valid = true;
    uint64_t n = next_event(s, wake);
    return n > k ? n : k + 1;
}

static void sm_main(des_actor *self, void *data)
{
    sm *s = data;
    des_time now = des_now(s->engine);
    for (;;) {
        uint64_t kn = cycle_at_or_after(s, now);
        if (s->cycle < kn) {
            if (s->snap_valid)
                sm_account_replay(s, kn - s->cycle);
            s->cycle = kn;
        }
        des_time h = DES_NEVER;
        if (s->resp_in)
            h = min_u64(h, des_port_latency(s->resp_in));
        if (s->cta_in)
            h = min_u64(h, des_port_latency(s->cta_in));
        uint64_t horizon = h == DES_NEVER ? NEVER_CYCLE - 1 : (now + h - 1) / s->clk->period;
        sm_lone ahead;
        uint64_t plain = horizon;
        sm_lone_start(&ahead, s, self, &horizon);
        s->credit_on = ahead.on;
        s->global_end = ahead.multi ? des_cycles(s->clk, plain) : DES_NEVER;
        uint64_t next = s->cycle, simulated = 0;
        for (;;) {
            if (s->cycle > horizon && (!ahead.on || !sm_lone_extend(&ahead, s, self, &horizon)))
                break;
            if (s->cycle > ahead.shallow && sm_lone_pops(s, s->cycle)) {
                next = s->cycle;   /* a pop past the plain bound: when woken */
                break;
            }
            if (ahead.on)
                sm_lone_before(&ahead, s);
            bool aborted = false;
            uint64_t k = s->cycle;
            uint64_t nx = sm_cycle(s, k, now, &aborted);
            simulated++;
            if (aborted) {
                next = k;
                break;
            }
            if (ahead.on)
                sm_lone_after(&ahead, s, &horizon, des_cycles(s->clk, k));
            if (nx == NEVER_CYCLE || (s->wait_port && nx > k + 1 && !port_sure(s, nx))) {
                /* Nothing timed before a port event; or the request port is
                 * full and its pop (a port wake-up) may come before nx: the
                 * idle cycles are replayed when the SM next wakes. */
                s->cycle = k + 1;
                next = nx;
                break;
            }
            if (ahead.on && nx > horizon + 1)
                (void)sm_lone_extend(&ahead, s, self, &horizon);
            uint64_t until = nx < horizon + 1 ? nx : horizon + 1;
            if (until > k + 1 && s->snap_valid)
                sm_account_replay(s, until - k - 1);
            s->cycle = until > k + 1 ? until : k + 1;
            next = nx > s->cycle ? nx : s->cycle;
            if (nx > horizon + 1)
                break;
        }
        des_count_events(s->engine, simulated);
        if (s->error)
            next = NEVER_CYCLE;
        if (next != NEVER_CYCLE)
            des_wake_at(self, des_cycles(s->clk, next));
        now = des_block(self);
    }
}

/* The formation policy's hook as the scheduler actor calls it (SA_FORM). */
static const void *sm_form(void *host, unsigned e, uint64_t k, unsigned *n, unsigned *threads)
{
    sm *s = host;
    return s->rc->form(s, e, k, n, threads);
}

/* The formation policy's own pick as the scheduler actor calls it (SAF_OWN). */
static int sm_pick(void *host, unsigned part, uint64_t k, uint8_t *status, const sched_view *v)
{
    sm *s = host;
    return s->rc->pick(s, part, k, s->pick_wake, status, v);
}

sm *sm_new(des_engine *e, const core_params *p, unsigned id, const des_clock *core, stats *st)
{
    sm *s = g_new0(sm, 1);
    s->p = *p;
    s->id = id;
    s->name = g_strdup_printf("sm%u", id);
    s->engine = e;
    s->clk = core;
    s->rc = p->reconv->ops;
    s->nent_cap = s->rc->capacity(p);
    s->ent = g_new0(sm_entity, s->nent_cap);
    s->free_ent = g_new(unsigned, s->nent_cap);
    for (unsigned i = 0; i < s->nent_cap; i++)
        s->free_ent[i] = s->nent_cap - 1 - i;   /* lowest id first */
    s->nfree_ent = s->nent_cap;
    s->status = g_new(uint8_t, s->nent_cap);
    memset(s->status, WS_GONE, s->nent_cap);
    s->age = g_new0(uint64_t, s->nent_cap);
    s->slot = g_new0(uint32_t, s->nent_cap);
    s->member_at = g_new(uint32_t, s->nent_cap);
    for (unsigned i = 0; i < s->nent_cap; i++)
        s->member_at[i] = NO_MEMBER;
    s->pred = g_new0(uint8_t, s->nent_cap);
    s->view = (sched_view){.status = s->status, .age = s->age, .slot = s->slot, .host = s,
                           .next = sm_sched_next, .pred = s->pred};
    s->hw = g_new0(sm_hw, p->max_warps);
    s->hw_epoch = g_new0(uint64_t, p->max_warps);
    s->cta = g_new0(sm_cta, p->max_ctas);
    s->nmem_cap = p->discipline == CORE_BARREL ? s->nent_cap : p->max_warps * p->mem_pending_per_warp;
    s->mem = g_new0(sm_mem_op, s->nmem_cap);
    s->free_tag = g_new(unsigned, s->nmem_cap);
    for (unsigned i = 0; i < s->nmem_cap; i++)
        s->free_tag[i] = s->nmem_cap - 1 - i;
    s->nfree_tag = s->nmem_cap;
    s->sendq_cap = s->nmem_cap + 64;
    s->sendq = g_new0(warp_mem_req, s->sendq_cap);
    s->sendq_at = g_new0(uint64_t, s->sendq_cap);
    s->reports = g_new0(cta_done_msg, p->max_ctas);
    for (unsigned u = 0; u < CORE_UNIT_KINDS; u++) {
        s->units[u] = g_new0(sm_unit, p->unit[u].count);
        if (u == CORE_UNIT_SMEM && p->smem_queue)
            for (unsigned i = 0; i < p->unit[u].count; i++)
                s->units[u][i].q = g_new0(sm_unit_queue, 1);
    }
    s->passes_port = (p->warp_size + p->simd_width - 1) / p->simd_width;
    s->sc = g_new0(sm_sched_state, p->schedulers);
    unsigned slots = (p->max_warps + p->schedulers - 1) / p->schedulers;
    for (unsigned i = 0; i < p->schedulers; i++) {
        sched_init(&s->sc[i].s, p->scheduler->ops, s->nent_cap, slots, &s->p);
        s->sc[i].members = g_new(unsigned, s->nent_cap);
    }
    char *gname = g_strdup_printf("%s.scheds", s->name);
    s->sched_group = des_lgroup_new(gname);
    g_free(gname);
    for (unsigned i = 0; i < p->schedulers; i++) {
        char *name = g_strdup_printf("%s.sched%u", s->name, i);
        sched_actor_init(&s->sc[i].act, s->sched_group, name, &s->sc[i].s, &s->view, s->nent_cap,
                         NULL);
        g_free(name);
    }
    for (unsigned i = 0; i < p->schedulers; i++) {
        sched_actor *a = &s->sc[i].act;
        a->form = s->rc->form ? sm_form : NULL;
        a->pick = s->rc->pick ? sm_pick : NULL;
        a->part = i;
        a->form_host = s;
    }
    des_lgroup_run(s->sched_group, 0);   /* the actors' first run */
    s->rc_state = s->rc->create(s);
    sm_stats_register(s, st);
    sm_trace_tracks(s, stats_trace(st));
    s->actor = des_actor_new(e, s->name, sm_main, s);
    return s;
}

void sm_finish_at_limit(sm *s, uint64_t last)
{
    if (s->wait_port && s->snap_valid && s->cycle <= last) {
        sm_account_replay(s, last + 1 - s->cycle);
        s->cycle = last + 1;
    }
}

des_actor *sm_actor(sm *s) { return s->actor; }
unsigned sm_id(const sm *s) { return s->id; }
unsigned sm_max_outstanding(const sm *s) { return s->nmem_cap; }
const char *sm_error(const sm *s) { return s->error; }

void sm_connect_mem(sm *s, des_port *req_out, des_port *resp_in)
{
    s->req_out = req_out;
    s->resp_in = resp_in;
}

void sm_share_busy_count(sm *s, const unsigned *busy_sms) { s->busy_sms = busy_sms; }

void sm_expect_store_acks(sm *s) { s->store_acks = true; }
void sm_send_priority(sm *s) { s->send_prio = true; }
void sm_keep_probe_rows(sm *s) { s->probe_rows = true; }

void sm_count_issue_ranks(sm *s, struct stats_hist *h)
{
    s->send_prio = true;   /* the LD/ST unit counts MSHR use by the same rank */
    for (unsigned q = 0; q < s->p.schedulers; q++)
        s->sc[q].s.rank_hist = h;
}

bool sm_wants_feedback(const sm *s)
{
    return ((const sched_ops *)s->p.scheduler->ops)->mem_state;
}

void sm_set_feedback(sm *s, mem_feedback *fb)
{
    s->fb = fb;
    /* Each scheduler actor reads its own copy, reported through fb's box
     * (the SM's: one reader per actor). */
    s->mbox = g_new0(mem_report_box, 1);
    s->mbox->nreaders = s->p.schedulers;
    s->mbox->seen = g_new0(unsigned, s->p.schedulers);
    fb->box = s->mbox;
    for (unsigned i = 0; i < s->p.schedulers; i++)
        sched_actor_watch_mem(&s->sc[i].act, fb, i);
}

void sm_connect_dispatch(sm *s, des_port *cta_in, des_port *done_out)
{
    s->cta_in = cta_in;
    s->done_out = done_out;
}

void sm_set_issue_hook(sm *s, sm_issue_hook fn, void *ctx)
{
    s->hook = fn;
    s->hook_ctx = ctx;
}

void sm_free(sm *s)
{
    if (!s)
        return;
    g_free(s->tr_sched);
    s->rc->destroy(s->rc_state);
    for (unsigned i = 0; i < s->p.max_ctas; i++)
        isa_cta_free(s->cta[i].ic);
    for (unsigned i = 0; i < s->p.schedulers; i++) {
        sched_free(&s->sc[i].s);
        g_free(s->sc[i].members);
        sched_actor_free(&s->sc[i].act);
    }
    des_lgroup_free(s->sched_group);
    if (s->mbox) {   /* no block writes fb's box once the SMs go */
        g_free(s->mbox->w);
        g_free(s->mbox->seen);
        g_free(s->mbox);
    }
    for (unsigned u = 0; u < CORE_UNIT_KINDS; u++) {
        for (unsigned i = 0; i < s->p.unit[u].count; i++)
            g_free(s->units[u][i].q);
        g_free(s->units[u]);
    }
    g_free(s->sc);
    g_free(s->reports);
    g_free(s->sendq);
    g_free(s->sendq_at);
    g_free(s->free_tag);
    g_free(s->mem);
    g_free(s->cta);
    g_free(s->hw);
    g_free(s->hw_epoch);
    g_free(s->slot);
    g_free(s->member_at);
    g_free(s->age);
    g_free(s->pred);
    g_free(s->status);
    g_free(s->free_ent);
    g_free(s->ent);
    g_free(s->error);
    g_free(s->name);
    g_free(s);
}
