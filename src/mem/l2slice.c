/* L2 slice actor (see l2slice.h). */
#include <glib.h>

#include "mem/coalesce.h"
#include "mem/l2slice.h"
#include "simtgrid/memport.h"

typedef struct l2_req {
    mem_pkt pkt;         /* the request, echoed as the reply */
    int next_free;
} l2_req;

typedef struct l2_ev {
    uint64_t ready;
    uint32_t slot;
} l2_ev;

struct l2slice {
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    char *name;
    unsigned index;
    unsigned atomic_latency;
    cache *c;
    des_port *req_in, *reply_out, *dram_out, *dram_in;
    GArray *reqs;           /* l2_req, grown rarely */
    int free_head;
    GArray *timed;          /* l2_ev min-heap on ready: hits and atomics */
    GQueue *replies;        /* slot + 1, ready to go back */
    uint64_t replies_sent, stores, atomics, fill_stalls;
    /* The request at the head was refused at fail_cycle for fail_why and the
     * slice sleeps through its replays (counted on waking). */
    bool stalled;
    cache_fail fail_why;
    uint64_t fail_cycle;
};

static void l2_main(des_actor *self, void *data);

l2slice *l2slice_new(des_engine *e, const char *name, unsigned index, const cache_params *p,
                     unsigned atomic_latency, const des_clock *l2clk, stats *st)
{
    l2slice *s = g_new0(l2slice, 1);
    s->engine = e;
    s->clk = l2clk;
    s->name = g_strdup(name);
    s->index = index;
    s->atomic_latency = atomic_latency;
    s->c = cache_new(p);
    s->reqs = g_array_new(FALSE, FALSE, sizeof(l2_req));
    s->free_head = -1;
    s->timed = g_array_new(FALSE, FALSE, sizeof(l2_ev));
    s->replies = g_queue_new();
    if (st) {
        cache_register_stats(s->c, st, name);
        stats_counter(st, name, "replies", "packets", "replies sent to SMs", &s->replies_sent);
        stats_counter(st, name, "store_requests", "packets", "stores accepted (not answered)", &s->stores);
        stats_counter(st, name, "atomic_requests", "packets", "atomics executed here", &s->atomics);
        stats_counter(st, name, "fill_stalls", "cycles",
                      "cycles a DRAM fill waited for room for its dirty victim", &s->fill_stalls);
    }
    s->actor = des_actor_new(e, name, l2_main, s);
    return s;
}

des_actor *l2slice_actor(l2slice *s) { return s->actor; }

void l2slice_connect_xbar(l2slice *s, des_port *req_in, des_port *reply_out)
{
    s->req_in = req_in;
    s->reply_out = reply_out;
}

void l2slice_connect_dram(l2slice *s, des_port *dram_out, des_port *dram_in)
{
    s->dram_out = dram_out;
    s->dram_in = dram_in;
}

void l2slice_finish(l2slice *s, des_time end)
{
    uint64_t last = end / s->clk->period;
    if (s->stalled && last > s->fail_cycle) {   /* a cycle limit ended the run */
        cache_count_failures(s->c, s->fail_why, last - s->fail_cycle);
        s->stalled = false;
    }
    cache_finish(s->c, last);
}

void l2slice_free(l2slice *s)
{
    if (!s)
        return;
    cache_free(s->c);
    g_array_free(s->reqs, TRUE);
    g_array_free(s->timed, TRUE);
    g_queue_free(s->replies);
    g_free(s->name);
    g_free(s);
}

/* ---- small helpers ------------------------------------------------------- */

static uint32_t slot_get(l2slice *s, const mem_pkt *m)
{
    uint32_t i;
    if (s->free_head < 0) {
        l2_req z = {.next_free = -1};
        g_array_append_val(s->reqs, z);
        i = s->reqs->len - 1;
    } else {
        i = (uint32_t)s->free_head;
        s->free_head = g_array_index(s->reqs, l2_req, i).next_free;
    }
    g_array_index(s->reqs, l2_req, i).pkt = *m;
    return i;
}

static void timed_push(l2slice *s, uint64_t ready, uint32_t slot)
{
    l2_ev ev = {ready, slot};
    g_array_append_val(s->timed, ev);
    l2_ev *h = (l2_ev *)(void *)s->timed->data;
    unsigned i = s->timed->len - 1;
    while (i > 0) {
        unsigned p = (i - 1) / 2;
        if (h[p].ready < h[i].ready || (h[p].ready == h[i].ready && h[p].slot <= h[i].slot))
            break;
        l2_ev tmp = h[p];
        h[p] = h[i];
        h[i] = tmp;
        i = p;
    }
}

static bool timed_pop_due(l2slice *s, uint64_t c, uint32_t *slot)
{
    l2_ev *h = (l2_ev *)(void *)s->timed->data;
    unsigned n = s->timed->len;
    if (!n || h[0].ready > c)
        return false;
    *slot = h[0].slot;
    h[0] = h[n - 1];
    g_array_set_size(s->timed, --n);
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, m = i;
        if (l < n && (h[l].ready < h[m].ready || (h[l].ready == h[m].ready && h[l].slot < h[m].slot)))
            m = l;
        if (l + 1 < n &&
            (h[l + 1].ready < h[m].ready || (h[l + 1].ready == h[m].ready && h[l + 1].slot < h[m].slot)))
            m = l + 1;
        if (m == i)
            break;
        l2_ev tmp = h[m];
        h[m] = h[i];
        h[i] = tmp;
        i = m;
    }
    return true;
}

/* The data of request `slot` is here: an atomic still has to execute. */
static void data_ready(l2slice *s, uint32_t slot, uint64_t c)
{
    l2_req *r = &g_array_index(s->reqs, l2_req, slot);
    if (r->pkt.op == MEM_ATOMIC && s->atomic_latency)
        timed_push(s, c + s->atomic_latency, slot);
    else
        g_queue_push_tail(s->replies, GUINT_TO_POINTER(slot + 1));
}

/* ---- one L2 cycle ------------------------------------------------------ */

static void take_dram_reply(l2slice *s, uint64_t c, des_time t)
{
    mem_pkt *m = des_port_peek(s->dram_in, t);
    if (!m)
        return;
    if (m->flags & MEM_L2_ONLY) {   /* an uncached request: straight back */
        data_ready(s, m->id, c);
    } else {
        cache_fill_result f = cache_fill(s->c, m->addr, cache_sector_mask(s->c, m->sectors, 32), c);
        if (!f.accepted) {
            s->fill_stalls++;
            return;
        }
    }
    des_port_pop(s->dram_in, t);
}

static void send_replies(l2slice *s, des_time t)
{
    while (!g_queue_is_empty(s->replies)) {
        uint32_t slot = GPOINTER_TO_UINT(g_queue_peek_head(s->replies)) - 1;
        l2_req *r = &g_array_index(s->reqs, l2_req, slot);
        mem_pkt rep = r->pkt;
        rep.reply = 1;
        rep.dst = r->pkt.src;
        rep.src = (uint16_t)s->index;
        rep.bytes = (uint16_t)(32u * (unsigned)__builtin_popcount(rep.sectors ? rep.sectors : 0xF));
        if (!des_port_try_send(s->reply_out, &rep, t))
            return;
        g_queue_pop_head(s->replies);
        s->replies_sent++;
        r->next_free = s->free_head;
        s->free_head = (int)slot;
    }
}

static void send_dram(l2slice *s, des_time t)
{
    const cache_req *q = cache_missq_head(s->c);
    if (!q)
        return;
    unsigned line = cache_get_params(s->c)->line_bytes, sb = cache_get_params(s->c)->sector_bytes;
    uint32_t s32 = sector_mask_regroup(q->sectors, sb, 32, line);
    mem_pkt m = {.addr = q->line, .born = t, .id = q->requester, .op = MEM_LOAD, .sectors = (uint8_t)s32,
                 .warp = q->warp};
    if (q->kind == CACHE_REQ_BYPASS)
        m.flags = MEM_L2_ONLY;
    if (q->kind == CACHE_REQ_WRITE || q->kind == CACHE_REQ_WRITEBACK) {
        m.op = MEM_STORE;
        m.bytes = (uint16_t)(32u * (unsigned)__builtin_popcount(s32));
    }
    if (des_port_try_send(s->dram_out, &m, t))
        cache_missq_pop(s->c);
}

/* Returns false when the cache refused the request at the head (it stays in
 * the port and is replayed); *why says why. */
static bool take_request(l2slice *s, uint64_t c, des_time t, cache_fail *why)
{
    mem_pkt *m = des_port_peek(s->req_in, t);
    if (!m)
        return true;
    bool store = m->op == MEM_STORE;
    cache_access a = {.addr = m->addr, .sectors = cache_sector_mask(s->c, m->sectors, 32),
                      .warp = m->warp, .op = store ? MEM_STORE : MEM_LOAD};
    uint32_t slot = 0;
    if (!store) {
        slot = slot_get(s, m);
        a.requester = slot;
    }
    cache_result r = cache_try_access(s->c, &a, c);
    if (r.outcome == CACHE_FAIL) {   /* replay next cycle */
        if (!store) {
            g_array_index(s->reqs, l2_req, slot).next_free = s->free_head;
            s->free_head = (int)slot;
        }
        *why = r.fail;
        return false;
    }
    if (store)
        s->stores++;
    else {
        if (m->op == MEM_ATOMIC)
            s->atomics++;
        if (r.outcome == CACHE_HIT)
            timed_push(s, r.ready + (m->op == MEM_ATOMIC ? s->atomic_latency : 0), slot);
        /* MISS / HIT_RESERVED: cache_pop_ready; BYPASSED: the DRAM reply. */
    }
    des_port_pop(s->req_in, t);
    return true;
}

static void l2_main(des_actor *self, void *data)
{
    l2slice *s = data;
    des_time period = s->clk->period;
    des_time now = des_now(s->engine);
    for (;;) {
        uint64_t c = des_edge_at_or_after(s->clk, now) / period;
        des_time t = c * period;
        if (t > now) {
            des_wake_at(self, t);
            now = des_block(self);
            continue;
        }
        if (s->stalled) {
            /* Cycles fail_cycle+1 .. c-1 each replayed the refused request
             * with the same result: nothing it depends on had changed. */
            s->stalled = false;
            cache_count_failures(s->c, s->fail_why, c - s->fail_cycle - 1);
        }
        take_dram_reply(s, c, t);
        mshr_requester rq;
        uint64_t line;
        while (cache_pop_ready(s->c, &rq, &line, c))
            data_ready(s, rq.id, c);
        uint32_t slot;
        while (timed_pop_due(s, c, &slot))
            g_queue_push_tail(s->replies, GUINT_TO_POINTER(slot + 1));
        send_replies(s, t);
        send_dram(s, t);
        cache_fail why = CACHE_FAIL_NONE;
        bool refused = !take_request(s, c, t, &why);
        des_count_events(s->engine, 1);
        bool missq_go = cache_missq_head(s->c) && des_port_space(s->dram_out, t + period) > 0;
        bool again = des_port_next(s->dram_in) <= t || des_port_next(s->req_in) <= t || missq_go;
        /* A refused request is replayed every cycle with the same result
         * until a DRAM reply arrives (a port delivery wakes us) or the miss
         * queue sends (the DRAM port wakes us when a slot frees). Sleep until
         * then and count the replays on waking. A fill the cache refused is
         * still polled. */
        /* A miss-queue head the DRAM port has no room for yet is sent when
         * a slot frees: the port wakes us then. */
        if (cache_missq_head(s->c) && !missq_go)
            des_port_wait_space(s->dram_out, t + period);
        if (refused && !missq_go && des_port_next(s->dram_in) > t) {
            s->stalled = true;
            s->fail_why = why;
            s->fail_cycle = c;
            again = false;
        }
        if (again)
            des_wake_at(self, t + period);
        else if (s->timed->len)
            des_wake_at(self, MAX(g_array_index(s->timed, l2_ev, 0).ready, c + 1) * period);
        now = des_block(self);
    }
}
