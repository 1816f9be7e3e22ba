/* LD/ST unit + coalescer + L1D of one SM, on ports (see ldst.h). */
#include <glib.h>

#include "mem/ldst.h"

typedef struct ldst_inst {
    warp_mem_resp resp;
    uint64_t issued;        /* core cycle the instruction entered the unit */
    unsigned remaining;     /* accesses not yet complete */
    unsigned accesses, misses;
    uint8_t op;
    bool reply;
    int next_free;
} ldst_inst;

typedef struct hit_ev {
    uint64_t ready;
    uint32_t inst;
} hit_ev;

struct ldst {
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    char *name, *l1name;
    unsigned sm;
    stats *st;
    cache *l1;
    coalesce_params co;
    coalesce_stats cst;
    ldst_route_fn route;
    const void *route_ctx;
    des_port *req_in, *resp_out, *down, *up;
    ldst_inst *inst;
    unsigned ninst;
    int free_head;
    /* The instruction in the unit. */
    bool busy;
    uint32_t cur;
    warp_mem_req req;
    coalesce_access acc[COALESCE_MAX_ACCESSES];
    unsigned nacc, next;
    /* Hits in flight (constant latency: a FIFO). */
    hit_ev *hits;
    unsigned hhead, hcount, hcap;
    /* Responses the SM port refused (it is sized so this stays empty). */
    GQueue *resp_wait;
    /* The access at the head failed at cycle fail_cycle for fail_why and the
     * unit slept through the replays: nothing it could retry changes until
     * its next event, so the skipped cycles are counted as failed replays. */
    bool stalled;
    cache_fail fail_why;
    uint64_t fail_cycle;
    uint64_t busy_cycles, stall_coal, stall_mshr, stall_icnt, stall_set, fill_stalls;
    stats_hist latency;
};

static void ldst_main(des_actor *self, void *data);
static void count_stall(ldst *u, cache_fail why, uint64_t n);

ldst *ldst_new(des_engine *e, const char *name, unsigned sm, const cache_params *l1,
               const coalesce_params *co, unsigned max_pending, ldst_route_fn route,
               const void *route_ctx, const des_clock *core, stats *st)
{
    ldst *u = g_new0(ldst, 1);
    u->engine = e;
    u->clk = core;
    u->sm = sm;
    u->st = st;
    u->name = g_strdup_printf("%s.ldst", name);
    u->l1name = g_strdup_printf("%s.l1d", name);
    u->l1 = cache_new(l1);
    u->co = *co;
    u->route = route;
    u->route_ctx = route_ctx;
    u->ninst = max_pending ? max_pending : 1;
    u->inst = g_new0(ldst_inst, u->ninst);
    for (unsigned i = 0; i < u->ninst; i++)
        u->inst[i].next_free = i + 1 < u->ninst ? (int)i + 1 : -1;
    u->free_head = 0;
    u->hcap = 64;
    u->hits = g_new(hit_ev, u->hcap);
    u->resp_wait = g_queue_new();
    coalesce_stats_init(&u->cst);
    stats_hist_init_log2(&u->latency, 16);
    if (st) {
        cache_register_stats(u->l1, st, u->l1name);
        coalesce_register_stats(&u->cst, st, u->name);
        stats_counter(st, u->name, "busy_cycles", "cycles", "cycles the unit held an instruction", &u->busy_cycles);
        stats_counter(st, u->name, "stall_coal", "cycles",
                      "LDST_COAL: an access went through but the instruction has more left", &u->stall_coal);
        stats_counter(st, u->name, "stall_mshr", "cycles",
                      "LDST_MSHR: an access waited for an MSHR entry or merge slot", &u->stall_mshr);
        stats_counter(st, u->name, "stall_icnt", "cycles",
                      "LDST_ICNT: an access waited for room in the miss queue / interconnect", &u->stall_icnt);
        stats_counter(st, u->name, "stall_set_reserved", "cycles",
                      "an access waited because every line of its set was reserved", &u->stall_set);
        stats_counter(st, u->name, "fill_stalls", "cycles",
                      "cycles a fill could not be installed (no room for its dirty victim)", &u->fill_stalls);
        stats_histogram(st, u->name, "load_latency", "cycles",
                        "core cycles from a load entering the unit to its last data", &u->latency);
    }
    u->actor = des_actor_new(e, u->name, ldst_main, u);
    return u;
}

des_actor *ldst_actor(ldst *u) { return u->actor; }

void ldst_connect_sm(ldst *u, des_port *req_in, des_port *resp_out)
{
    u->req_in = req_in;
    u->resp_out = resp_out;
}

void ldst_connect_mem(ldst *u, des_port *down, des_port *up)
{
    u->down = down;
    u->up = up;
}

void ldst_finish(ldst *u, des_time end)
{
    uint64_t last = end / u->clk->period;
    if (u->stalled && last > u->fail_cycle) {
        /* The run ended (a cycle limit) while the unit slept through
         * replays: count those up to the last cycle of the run. */
        count_stall(u, u->fail_why, last - u->fail_cycle);
        cache_count_failures(u->l1, u->fail_why, last - u->fail_cycle);
        u->stalled = false;
    }
    cache_finish(u->l1, end / u->clk->period);
}

void ldst_free(ldst *u)
{
    if (!u)
        return;
    cache_free(u->l1);
    g_free(u->inst);
    g_free(u->hits);
    g_queue_free(u->resp_wait);
    g_free(u->name);
    g_free(u->l1name);
    g_free(u);
}

/* ---- instruction bookkeeping ------------------------------------------- */

static void respond(ldst *u, uint32_t slot, des_time t)
{
    ldst_inst *in = &u->inst[slot];
    if (in->op == MEM_LOAD) {
        coalesce_count_mpli(&u->cst, &u->co, in->accesses, in->misses);
        stats_hist_add(&u->latency, t / u->clk->period - in->issued);
    }
    if (in->reply && (!g_queue_is_empty(u->resp_wait) || !des_port_try_send(u->resp_out, &in->resp, t)))
        g_queue_push_tail(u->resp_wait, g_memdup2(&in->resp, sizeof in->resp));
    in->next_free = u->free_head;
    u->free_head = (int)slot;
}

static void complete_access(ldst *u, uint32_t slot, des_time t)
{
    ldst_inst *in = &u->inst[slot];
    if (--in->remaining == 0)
        respond(u, slot, t);
}

static void push_hit(ldst *u, uint64_t ready, uint32_t slot)
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
    u->hits[(u->hhead + u->hcount++) % u->hcap] = (hit_ev){ready, slot};
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
    coalesce_count(&u->cst, &u->co, u->req.op, u->acc, u->nacc);
    *in = (ldst_inst){.resp = {.tag = u->req.tag, .warp = u->req.warp, .op = u->req.op,
                               .accesses = (uint8_t)MIN(u->nacc, 255u)},
                      .issued = c, .remaining = u->nacc, .accesses = u->nacc, .op = u->req.op,
                      .reply = !(u->req.flags & MEM_NO_REPLY), .next_free = -1};
    u->cur = slot;
    u->next = 0;
    u->busy = true;
    if (u->nacc == 0) {
        u->busy = false;
        in->remaining = 1;
        complete_access(u, slot, t);
    }
}

static void count_stall(ldst *u, cache_fail why, uint64_t n)
{
    u->busy_cycles += n;
    if (why == CACHE_FAIL_MSHR_FULL || why == CACHE_FAIL_MSHR_MERGE_LIMIT)
        u->stall_mshr += n;
    else if (why == CACHE_FAIL_MISS_QUEUE_FULL)
        u->stall_icnt += n;
    else
        u->stall_set += n;
}

/* One access through the L1 port. Returns false when the cache refused it. */
static bool issue_access(ldst *u, uint64_t c, des_time t)
{
    const coalesce_access *a = &u->acc[u->next];
    cache_access ca = {.addr = a->line,
                       .sectors = cache_sector_mask(u->l1, a->sectors, u->co.sector_bytes),
                       .requester = u->cur, .pc = u->req.pc, .warp = u->req.warp, .op = u->req.op,
                       .flags = u->req.flags};
    cache_result r = cache_try_access(u->l1, &ca, c);
    if (r.outcome == CACHE_FAIL) {
        count_stall(u, r.fail, 1);
        u->fail_why = r.fail;
        return false;
    }
    u->busy_cycles++;
    if (u->req.op == MEM_STORE)
        complete_access(u, u->cur, t);   /* accepted: fire-and-forget below */
    else if (r.outcome == CACHE_HIT)
        push_hit(u, r.ready, u->cur);
    else if (r.outcome == CACHE_MISS || r.outcome == CACHE_BYPASSED)
        u->inst[u->cur].misses++;       /* completes on its fill or reply */
    if (++u->next == u->nacc)
        u->busy = false;
    else
        u->stall_coal++;
    return true;
}

/* One request from the miss queue to the crossbar. */
static void send_down(ldst *u, des_time t)
{
    const cache_req *q = cache_missq_head(u->l1);
    if (!q)
        return;
    unsigned line = cache_get_params(u->l1)->line_bytes;
    unsigned sb = cache_get_params(u->l1)->sector_bytes;
    uint32_t s32 = sector_mask_regroup(q->sectors, sb, 32, line);
    mem_pkt m = {.addr = q->line, .born = t, .id = q->requester, .src = (uint16_t)u->sm,
                 .dst = (uint16_t)u->route(u->route_ctx, q->line), .op = q->op,
                 .sectors = (uint8_t)s32, .warp = q->warp};
    if (q->kind == CACHE_REQ_BYPASS)
        m.flags = MEM_L2_ONLY;
    if (q->kind == CACHE_REQ_WRITE || q->kind == CACHE_REQ_WRITEBACK) {
        m.op = MEM_STORE;
        m.flags = MEM_NO_REPLY;
        m.bytes = (uint16_t)(32u * (unsigned)__builtin_popcount(s32));
    }
    if (des_port_try_send(u->down, &m, t))
        cache_missq_pop(u->l1);
}

/* One reply from the crossbar: a fill of the L1, or an uncached access done. */
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
    } else {
        complete_access(u, m->id, t);
    }
    des_port_pop(u->up, t);
}

static void flush_responses(ldst *u, des_time t)
{
    warp_mem_resp *r;
    while ((r = g_queue_peek_head(u->resp_wait)) && des_port_try_send(u->resp_out, r, t))
        g_free(g_queue_pop_head(u->resp_wait));
}

static void ldst_main(des_actor *self, void *data)
{
    ldst *u = data;
    des_time period = u->clk->period;
    des_time now = des_now(u->engine);
    for (;;) {
        uint64_t c = des_edge_at_or_after(u->clk, now) / period;
        des_time t = c * period;
        if (t > now) {
            des_wake_at(self, t);
            now = des_block(self);
            continue;
        }
        if (u->stalled) {
            /* Cycles fail_cycle+1 .. c-1 each replayed the refused access
             * with the same result: the cache and the unit were unchanged. */
            u->stalled = false;
            uint64_t n = c - u->fail_cycle - 1;
            count_stall(u, u->fail_why, n);
            cache_count_failures(u->l1, u->fail_why, n);
        }
        flush_responses(u, t);
        take_reply(u, c, t);
        mshr_requester rq;
        uint64_t line;
        while (cache_pop_ready(u->l1, &rq, &line, c))
            complete_access(u, rq.id, t);
        while (u->hcount && u->hits[u->hhead].ready <= c) {
            uint32_t slot = u->hits[u->hhead].inst;
            u->hhead = (u->hhead + 1) % u->hcap;
            u->hcount--;
            complete_access(u, slot, t);
        }
        send_down(u, t);
        take_request(u, c, t);
        bool refused = u->busy && !issue_access(u, c, t);
        des_count_events(u->engine, 1);

        /* The next cycle with work, else sleep until a port wakes us. */
        bool missq_go = cache_missq_head(u->l1) && des_port_space(u->down, t + period) > 0;
        bool again = u->busy || des_port_next(u->up) <= t || missq_go ||
                     (!u->busy && u->free_head >= 0 && des_port_next(u->req_in) <= t);
        /* A refused access is replayed every cycle, with the same result
         * until something it depends on changes: a reply (a port delivery
         * wakes us), a miss-queue send (the down port wakes us when a slot
         * frees), or a hit completing (woken below). Sleep until then and
         * count the replays on waking. Responses waiting for the SM port and
         * a reply the cache refused are still polled. */
        /* A miss-queue head the crossbar port has no room for yet is sent
         * when a slot frees: the port wakes us then. */
        if (cache_missq_head(u->l1) && !missq_go)
            des_port_wait_space(u->down, t + period);
        if (refused && !missq_go && des_port_next(u->up) > t && g_queue_is_empty(u->resp_wait)) {
            u->stalled = true;
            u->fail_cycle = c;
            again = false;
        }
        if (again)
            des_wake_at(self, t + period);
        else if (u->hcount)
            des_wake_at(self, u->hits[u->hhead].ready * period);
        now = des_block(self);
    }
}
