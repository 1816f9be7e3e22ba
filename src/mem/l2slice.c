/* L2 slice actor (see l2slice.h). */
#include <glib.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "mem/atomic_lines.h"
#include "mem/coalesce.h"
#include "mem/l2slice.h"
#include "mem/runahead.h"
#include "mem/snaps.h"
#include "simtgrid/memport.h"
#include "simtgrid/trace.h"
#include "simtgrid/bits.h"

typedef struct l2_req {
    mem_pkt pkt;         /* the request, echoed as the reply */
    uint64_t arrived;    /* L2 cycle the slice accepted it */
    int next_free;
} l2_req;

typedef struct l2_ev {
    uint64_t ready;
    uint32_t slot;
} l2_ev;

struct l2slice {
    /* Trace: each load or atomic from arrival to its reply ("l2sN.req"),
     * each miss from leaving for DRAM to its fill ("l2sN.dram"). */
    trace_spans tr_req, tr_dram;
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    char *name;
    unsigned index;
    unsigned atomic_latency;
    double atomic_rate, atomic_same;   /* ops per cycle; cycles between same-address ops */
    double atomic_forward_same;         /* ... between forwarded ones (l2.atomic_forward_cycles) */
    double atomic_line_gap;  /* l2.atomic_line_gap: 0 = the unit in order, no per-line state */
    atomic_lines *atomic_lines; /* per-line next start (with a gap) */
    double atomic_held_rate; /* l2.atomic_held_line_lanes_per_cycle: 0 = off */
    bool atomic_booked;      /* a request has had the unit (atomic_line is one) */
    double atomic_free;     /* L2 cycle (fractional) the atomic unit can start its next op */
    bool atomic_forward;    /* a request on the word the unit updated last follows at atomic_same */
    double atomic_last;     /* start of the unit's last op, ... */
    uint64_t atomic_line;   /* ... its request's line and word (all its lanes on it: atomic_one_word) */
    uint8_t atomic_word;
    bool atomic_one_word;
    unsigned partial_write_cycles;
    l2_partial_fetch partial_fetch;
    uint64_t port_free;     /* L2 cycle the slice takes its next request (a partial write holds it) */
    cache *c;
    des_port *req_in, *reply_out, *dram_out, *dram_in;
    /* The other partition (NULL with one): misses of copies go out on
     * peer_out, their fills come back on peer_in; the home side takes
     * such misses on peer_req_in and answers on peer_rep_out. */
    des_port *peer_out, *peer_in, *peer_req_in, *peer_rep_out;
    l2slice_home_fn home;
    const void *home_ctx;
    unsigned home_reserve;  /* MSHR entries a copy's miss may not take */
    GArray *reqs;           /* l2_req, grown rarely */
    int free_head;
    GArray *timed;          /* l2_ev min-heap on ready: hits and atomics */
    GQueue *replies;        /* slot + 1, ready to go back */
    struct l2_counts {
        uint64_t replies_sent, stores, store_acks, atomics, atomic_ops, fill_stalls, far_sent, far_served;
    } cnt;
    stats_hist latency, dram_latency;
    /* Statistics saved before each cycle run past the earliest possible
     * end of the run (snaps.h; with statistics and no timeline trace): the
     * cache's, then cnt, then the two histograms' counts. */
    snaps held;
    /* A refused request waits, without retrying, until the cache changes (a
     * fill, a requester leaving the MSHRs, a miss-queue slot freed). Each
     * input (crossbar, other partition) keeps its own state: two slices
     * each refusing a crossbar request that waits on a fill from the other
     * would otherwise never take the peer request the other waits on. */
    bool blocked, changed, peer_blocked, peer_changed;
    des_time credit_at[4];  /* credit_bound's per port (reply, peer reply, DRAM, peer): valid until reached */
    stats *st;
};

static void l2_main(des_actor *self, void *data);

/* What the slice saves of a histogram: all but the bounds (stats.h). */
#define HIST_WORDS (offsetof(stats_hist, lo) / sizeof(uint64_t))
#define CNT_WORDS (sizeof(struct l2_counts) / sizeof(uint64_t))
_Static_assert(offsetof(stats_hist, lo) % sizeof(uint64_t) == 0, "stats_hist's counts are whole words");

l2slice *l2slice_new(des_engine *e, const char *name, unsigned index, const cache_params *p,
                     unsigned atomic_latency, const des_clock *l2clk, stats *st)
{
    l2slice *s = g_new0(l2slice, 1);
    s->engine = e;
    s->clk = l2clk;
    s->name = g_strdup(name);
    s->index = index;
    s->atomic_latency = atomic_latency;
    s->atomic_rate = 1;
    s->atomic_same = 1;
    s->partial_write_cycles = 1;
    s->c = cache_new(p);
    s->reqs = g_array_new(FALSE, FALSE, sizeof(l2_req));
    s->free_head = -1;
    s->timed = g_array_new(FALSE, FALSE, sizeof(l2_ev));
    s->replies = g_queue_new();
    s->st = st;
    stats_hist_init_log2(&s->latency, 16);
    stats_hist_init_log2(&s->dram_latency, 16);
    if (stats_trace(st)) {
        double us = (double)l2clk->period / (double)des_ticks_per_us_of(e);
        char *a = g_strdup_printf("%s.req", name), *b = g_strdup_printf("%s.dram", name);
        trace_spans_init(&s->tr_req, stats_trace(st), a, us);
        trace_spans_init(&s->tr_dram, stats_trace(st), b, us);
        g_free(a), g_free(b);
    }
    if (st) {
        cache_register_stats(s->c, st, name);
        stats_counter(st, name, "replies", "packets", "replies sent to SMs", &s->cnt.replies_sent);
        stats_counter(st, name, "store_requests", "packets", "stores accepted", &s->cnt.stores);
        stats_counter(st, name, "store_acks", "packets",
                      "stores acknowledged to their SM (those sent without MEM_NO_REPLY)", &s->cnt.store_acks);
        stats_counter(st, name, "atomic_requests", "packets", "atomics executed here", &s->cnt.atomics);
        stats_counter(st, name, "atomic_lane_ops", "operations",
                      "lane operations of those atomics (each one by one in the atomic unit)", &s->cnt.atomic_ops);
        stats_counter(st, name, "fill_stalls", "cycles",
                      "cycles a DRAM fill waited for room for its dirty victim", &s->cnt.fill_stalls);
        stats_histogram(st, name, "load_latency", "cycles",
                        "L2 cycles from accepting a load or atomic to sending its reply", &s->latency);
        stats_histogram(st, name, "miss_latency", "cycles",
                        "L2 cycles from a request leaving for DRAM to its data coming back",
                        &s->dram_latency);
    }
    if (st && !stats_trace(st))
        snaps_init(&s->held, cache_stats_words(s->c) + CNT_WORDS + 2 * HIST_WORDS);
    s->actor = des_actor_new(e, name, l2_main, s);
    des_actor_wake_on_edges(s->actor, l2clk);   /* l2_main acts on edges only */
    return s;
}

void l2slice_set_atomic_unit(l2slice *s, double ops_per_cycle, double same_address_cycles, bool forward)
{
    s->atomic_rate = ops_per_cycle;
    s->atomic_same = same_address_cycles;
    s->atomic_forward = forward;
    s->atomic_forward_same = same_address_cycles;
}

void l2slice_set_atomic_forward_cycles(l2slice *s, double cycles)
{
    if (cycles > 0)
        s->atomic_forward_same = cycles;
}

void l2slice_set_atomic_held_line_rate(l2slice *s, double lanes_per_cycle)
{
    s->atomic_held_rate = lanes_per_cycle;
}

void l2slice_set_atomic_line_gap(l2slice *s, double cycles)
{
    s->atomic_line_gap = cycles;
    if (cycles > 0 && !s->atomic_lines)
        s->atomic_lines = atomic_lines_new();
}

void l2slice_set_partial_write_cycles(l2slice *s, unsigned cycles)
{
    s->partial_write_cycles = cycles ? cycles : 1;
}

void l2slice_set_byte_enables(l2slice *s, bool on)
{
    cache_set_byte_enables(s->c, on);
}

void l2slice_set_partial_fetch(l2slice *s, l2_partial_fetch mode)
{
    s->partial_fetch = mode;
}

void l2slice_set_home_reserve(l2slice *s, unsigned entries)
{
    s->home_reserve = entries;
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

void l2slice_connect_peer(l2slice *s, des_port *req_out, des_port *reply_in, des_port *req_in,
                          des_port *reply_out, l2slice_home_fn home, const void *ctx)
{
    s->peer_out = req_out;
    s->peer_in = reply_in;
    s->peer_req_in = req_in;
    s->peer_rep_out = reply_out;
    s->home = home;
    s->home_ctx = ctx;
    if (s->st) {   /* only with two partitions: one-partition results keep their statistics */
        stats_counter(s->st, s->name, "far_requests", "packets",
                      "misses of lines homed in the other L2 partition sent to their home slice", &s->cnt.far_sent);
        stats_counter(s->st, s->name, "far_served", "packets",
                      "such misses from the other partition served here (hit or DRAM)", &s->cnt.far_served);
    }
}

void l2slice_finish(l2slice *s, des_time end)
{
    /* Statistics as of the end: those saved before the first cycle run
     * after it, if it ran any (l2_main). */
    uint64_t last = end / s->clk->period;
    const uint64_t *b = snaps_after(&s->held, last);
    if (b) {
        cache_finish_saved(s->c, b, last);
        b += cache_stats_words(s->c);
        memcpy(&s->cnt, b, sizeof s->cnt);
        memcpy(&s->latency, b + CNT_WORDS, HIST_WORDS * sizeof *b);
        memcpy(&s->dram_latency, b + CNT_WORDS + HIST_WORDS, HIST_WORDS * sizeof *b);
    } else {
        cache_finish(s->c, last);
    }
    if (s->st) {
        stats_derived(s->st, s->name, "mean_load_latency", "cycles", "mean of load_latency",
                      stats_hist_mean(&s->latency));
        stats_derived(s->st, s->name, "mean_miss_latency", "cycles", "mean of miss_latency",
                      stats_hist_mean(&s->dram_latency));
    }
}

void l2slice_free(l2slice *s)
{
    if (!s)
        return;
    cache_free(s->c);
    g_array_free(s->reqs, TRUE);
    g_array_free(s->timed, TRUE);
    g_queue_free(s->replies);
    atomic_lines_free(s->atomic_lines);
    snaps_free(&s->held);
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

/* Atomic request `slot`, its data present at L2 cycle `c`, takes the atomic
 * unit when the requests before it are done with it: its n lane operations
 * start 1/rate apart, and the h of them on its busiest address (the warp's
 * lanes that hit one word) at least `atomic_same` apart, since each
 * read-modify-write needs the previous one's result. The last starts at
 * start + max((n-1)/rate, (h-1)*same); the unit is free again 1/rate after
 * that; the reply is ready atomic_latency after it. Returns the reply's
 * L2 cycle. (GPGPU-Sim executes an atomic's lanes one by one at the ROP
 * too; a fixed per-request cost made a 32-lane same-address atomic as cheap
 * as a 1-lane one: docs/correlation.md.)
 * With forwarding, a request whose lanes all hit the word the unit's
 * previous request updated (all its lanes on that word too) takes the
 * previous result instead of a new read at the unit's rate: it starts
 * `atomic_forward_same` (by default `atomic_same`) after the unit's last
 * op and runs its lanes that far apart.
 * With a line gap, a request that is not forwarded also starts no earlier
 * than `atomic_line_gap` after the previous request on its line started
 * (nor before that one's last op plus 1/rate): the line's read-modify-
 * write turnaround, which overlaps a request's own lane chain. The unit
 * is booked at its turn, not at the line's: while a request waits for its
 * line, the unit serves the requests behind it on other lines (the unit's
 * time is the request's span plus 1/rate from its turn). A forwarded
 * request keeps the value in the unit and does not wait for the line. */
static uint64_t atomic_execute(l2slice *s, const mem_pkt *m, uint64_t c)
{
    double n = m->lanes ? m->lanes : 1, h = m->hot_lanes ? m->hot_lanes : 1;
    bool one_word = h >= n;
    bool follows = s->atomic_forward && one_word && s->atomic_one_word && s->atomic_line == m->addr &&
                   s->atomic_word == m->hot_word;
    double fw = s->atomic_forward_same;
    bool held = s->atomic_held_rate > 0 && !follows && s->atomic_booked && s->atomic_line == m->addr;
    double op = held ? 1 / s->atomic_held_rate : 1 / s->atomic_rate;
    double turn = MAX((double)c, follows ? s->atomic_last + fw : s->atomic_free);
    double span = follows ? (n - 1) * fw : MAX((n - 1) * op, (h - 1) * s->atomic_same);
    double *ln = s->atomic_line_gap > 0 ? atomic_lines_next(s->atomic_lines, m->addr, turn) : NULL;
    double start = ln && !follows ? MAX(turn, *ln) : turn;
    double last = start + span;
    s->atomic_free = turn + span + op;
    if (ln)
        *ln = MAX(start + s->atomic_line_gap, last + op);
    s->atomic_booked = true;
    s->atomic_last = last;
    s->atomic_line = m->addr;
    s->atomic_word = m->hot_word;
    s->atomic_one_word = one_word;
    s->cnt.atomic_ops += (uint64_t)n;
    return (uint64_t)ceil(last) + s->atomic_latency;
}

/* The data of request `slot` is here: an atomic still has to execute. */
static void data_ready(l2slice *s, uint32_t slot, uint64_t c)
{
    l2_req *r = &g_array_index(s->reqs, l2_req, slot);
    uint64_t ready = r->pkt.op == MEM_ATOMIC ? atomic_execute(s, &r->pkt, c) : c;
    if (ready > c)
        timed_push(s, ready, slot);
    else
        g_queue_push_tail(s->replies, GUINT_TO_POINTER(slot + 1));
}

/* ---- one L2 cycle ------------------------------------------------------ */

/* A fill from DRAM, or (`in` = peer_in) from the line's home slice in the
 * other partition. */
static void take_fill(l2slice *s, des_port *in, uint64_t c, des_time t)
{
    mem_pkt *m = in ? des_port_peek(in, t) : NULL;
    if (!m)
        return;
    uint64_t sent = m->born / s->clk->period;
    if (m->flags & MEM_L2_ONLY) {   /* an uncached request: straight back */
        data_ready(s, m->id, c);
    } else {
        cache_fill_result f = cache_fill(s->c, m->addr, cache_sector_mask(s->c, m->sectors, 32), c);
        if (!f.accepted) {
            s->cnt.fill_stalls++;
            return;
        }
        s->changed = s->peer_changed = true;
    }
    if (in == s->dram_in) {
        stats_hist_add(&s->dram_latency, c >= sent ? c - sent : 0);
        if (s->tr_dram.t)
            trace_spans_add(&s->tr_dram, "miss", sent, c);
    }
    des_port_pop(in, t);
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
        bool ack = rep.op == MEM_STORE;   /* a store's acknowledgement carries no data */
        rep.bytes = ack ? 0 : (uint16_t)(32u * (unsigned)sg_popcount32(rep.sectors ? rep.sectors : 0xF));
        bool peer = r->pkt.flags & MEM_PEER;   /* a fill for the other partition's copy */
        if (!des_port_try_send(peer ? s->peer_rep_out : s->reply_out, &rep, t))
            return;
        g_queue_pop_head(s->replies);
        uint64_t c = t / s->clk->period;
        if (ack) {
            s->cnt.store_acks++;
        } else if (peer) {
            s->cnt.far_served++;
        } else {
            s->cnt.replies_sent++;
            stats_hist_add(&s->latency, c >= r->arrived ? c - r->arrived : 0);
            if (s->tr_req.t)
                trace_spans_add(&s->tr_req, rep.op == MEM_LOAD ? "load" : "atomic", r->arrived, c);
        }
        r->next_free = s->free_head;
        s->free_head = (int)slot;
    }
}

/* Where the head of the miss queue goes: a read of a line homed in the
 * other partition to its home slice, everything else to DRAM. */
static des_port *down_port(const l2slice *s, const cache_req *q)
{
    bool read = q->kind == CACHE_REQ_FILL || q->kind == CACHE_REQ_BYPASS;
    if (s->peer_out && read && s->home(s->home_ctx, q->line) != s->index)
        return s->peer_out;
    return s->dram_out;
}

static void send_dram(l2slice *s, des_time t)
{
    const cache_req *q = cache_missq_head(s->c);
    if (!q)
        return;
    des_port *down = down_port(s, q);
    unsigned line = cache_get_params(s->c)->line_bytes, sb = cache_get_params(s->c)->sector_bytes;
    /* a store's write carries only the 32-B segments it wrote (seg32) */
    uint32_t s32 = q->kind == CACHE_REQ_WRITE && q->seg32 ? q->seg32 : sector_mask_regroup(q->sectors, sb, 32, line);
    mem_pkt m = {.addr = q->line, .born = t, .id = q->requester, .op = MEM_LOAD, .sectors = (uint8_t)s32,
                 .warp = q->warp};
    if (q->kind == CACHE_REQ_BYPASS)
        m.flags = MEM_L2_ONLY;
    /* A read for the DRAM carries the row hint of the request that queued
     * it (still in its slot: it waits for this data); a request merged into
     * a miss in flight adds nothing below (see ldst.c, send_down). */
    if (q->kind == CACHE_REQ_FILL || q->kind == CACHE_REQ_BYPASS)
        m.flags |= g_array_index(s->reqs, l2_req, q->requester).pkt.flags & MEM_ROW_HINT;
    if (q->kind == CACHE_REQ_WRITE || q->kind == CACHE_REQ_WRITEBACK) {
        m.op = MEM_STORE;
        m.bytes = (uint16_t)(32u * (unsigned)sg_popcount32(s32));
        m.partial = (uint8_t)(q->partial32 & s32);
        m.words = q->words32;
    }
    if (down != s->dram_out) {
        m.flags |= MEM_PEER;
        m.src = (uint16_t)s->index;
    }
    if (des_port_try_send(down, &m, t)) {
        cache_missq_pop(s->c);
        s->changed = s->peer_changed = true;
        s->cnt.far_sent += down != s->dram_out;
    }
}

/* A line of the set is a copy: homed in the other partition. */
static bool is_copy(const void *ctx, uint64_t line)
{
    const l2slice *s = ctx;
    return s->home(s->home_ctx, line) != s->index;
}

static void take_request(l2slice *s, uint64_t c, des_time t)
{
    if (c < s->port_free)
        return;
    /* One request per cycle: a miss from the other partition first (its
     * copy's MSHR waits on it), else the crossbar's. */
    des_port *in = s->peer_req_in;
    mem_pkt *m = in && (!s->peer_blocked || s->peer_changed) ? des_port_peek(in, t) : NULL;
    if (!m && (!s->blocked || s->changed))
        m = des_port_peek(in = s->req_in, t);
    if (!m)
        return;
    bool store = m->op == MEM_STORE;
    /* A store is performed once the slice accepts it (the L2 is the point
     * of coherence; a write-back L2 writes DRAM only when it evicts a dirty
     * line, a write-through or write-evict one sends it on unanswered): it
     * is acknowledged after the tag pipeline, hit_latency, like a hit's
     * data (a disabled L2 passes it straight on: at once), unless the
     * sender asked for no reply (an L1 write-back). */
    bool ack = store && !(m->flags & MEM_NO_REPLY);
    cache_access a = {.addr = m->addr, .sectors = cache_sector_mask(s->c, m->sectors, 32),
                      .warp = m->warp, .op = store ? MEM_STORE : MEM_LOAD,
                      .seg32 = store ? m->sectors : 0, .partial32 = store ? m->partial : 0,
                      .words32 = store ? m->words : 0};
    /* A copy's miss waits on the other partition's home slice, whose own
     * copies may wait on this one: copies never take the last home_reserve
     * MSHR entries, so the other partition's misses (and this slice's own)
     * always find one once the DRAM-bound entries drain (docs/chip.md). */
    if (s->home_reserve && in == s->req_in && m->op == MEM_LOAD && s->home(s->home_ctx, m->addr) != s->index)
        a.mshr_keep = (uint16_t)s->home_reserve;
    /* A read of partly written sectors: served from the written bytes, or
     * (lazy fetch-on-read) fetched first, by every load or only by the
     * other partition's copy fills (a copy holds whole sectors). */
    a.whole = m->op == MEM_LOAD && (s->partial_fetch == L2_PARTIAL_FETCH_ALL ||
                                    (s->partial_fetch == L2_PARTIAL_FETCH_COPIES && in == s->peer_req_in));
    uint32_t slot = 0;
    if (!store || ack) {
        slot = slot_get(s, m);
        g_array_index(s->reqs, l2_req, slot).arrived = c;
        a.requester = slot;
    }
    cache_result r = cache_try_access(s->c, &a, c);
    if (s->home_reserve && in == s->peer_req_in && r.outcome == CACHE_FAIL && r.fail == CACHE_FAIL_SET_ALL_RESERVED &&
        cache_set_all(s->c, m->addr, is_copy, s)) {
        /* Every way of the set awaits a fill, all of them copies waiting on
         * the other partition (which may wait on this request): serve its
         * miss uncached (the reply goes back from DRAM without filling
         * here). A way awaiting a home line's fill comes from DRAM and
         * frees the set: the request waits for it as any other. */
        a.bypass = true;
        r = cache_try_access(s->c, &a, c);
    }
    if (in == s->req_in) {
        s->blocked = r.outcome == CACHE_FAIL;
        s->changed = false;
    } else {
        s->peer_blocked = r.outcome == CACHE_FAIL;
        s->peer_changed = false;
    }
    if (r.outcome == CACHE_FAIL) {   /* replay once the cache has changed */
        if (!store || ack) {
            g_array_index(s->reqs, l2_req, slot).next_free = s->free_head;
            s->free_head = (int)slot;
            }
        return;
    }
    if (store) {
        s->cnt.stores++;
        if (m->partial)
            s->port_free = c + s->partial_write_cycles;
        if (ack) {
            const cache_params *cp = cache_get_params(s->c);
            timed_push(s, c + (cp->enabled ? cp->hit_latency : 0), slot);
        }
    } else {
        if (m->op == MEM_ATOMIC)
            s->cnt.atomics++;
        if (r.outcome == CACHE_HIT)
            timed_push(s, m->op == MEM_ATOMIC ? atomic_execute(s, m, r.ready) : r.ready, slot);
        /* MISS / HIT_RESERVED: cache_pop_ready; BYPASSED: the DRAM reply. */
    }
    des_port_pop(in, t);
}

/* The run-ahead's bound from the output ports (des_port_credit_bound) for
 * the cycle at t: only a port that the cycle's sends could fill can be
 * changed by a pop still to come. Replies: those queued, the timed ones,
 * and every requester a fill delivered by t may release (mshr_merge per
 * fill; the ready ring is empty between cycles); the miss queue's head:
 * one per cycle, then room_next asks again. */
static des_time credit_bound(void *ctx, des_time t)
{
    l2slice *s = ctx;
    unsigned merge = cache_get_params(s->c)->mshr_merge;
    unsigned fills = (des_port_next(s->dram_in) <= t) + (s->peer_in && des_port_next(s->peer_in) <= t);
    unsigned k = g_queue_get_length(s->replies) + s->timed->len + fills * (merge ? merge : 1);
    des_time b = DES_NEVER;
    des_port *out[4] = {s->reply_out, s->peer_rep_out, s->dram_out, s->peer_out};
    for (int i = 0; i < 4; i++) {
        if (!out[i] || des_port_count(out[i]) + (i < 2 ? k : 1) < des_port_capacity(out[i]))
            continue;
        b = MIN(b, des_port_credit_kept(&s->credit_at[i], out[i], t));
    }
    return b;
}

/* The slice's promise on its reply ports (des_port_promise; issue 20),
 * renewed before it blocks after running cycle c: from what it holds, no
 * reply before its queued ones (at its next cycle), its timed ones, or a
 * fill (those in its ports, and those the DRAM channel or the other
 * partition has not sent yet, from their own promises:
 * des_port_arrival_floor; every miss and bypass is answered by one); from
 * a request taken later, none before the hit latency (a hit, an atomic, a
 * store's acknowledgement). The reply crossbar's deep bound then sees the
 * next reply instead of the slice's next wake-up. */
static void promise_replies(l2slice *s, uint64_t c)
{
    des_time period = s->clk->period, from = (c + 1) * period;
    des_time next = g_queue_is_empty(s->replies) ? DES_NEVER : from;
    if (s->timed->len)
        next = MIN(next, MAX(g_array_index(s->timed, l2_ev, 0).ready, c + 1) * period);
    des_port *fills[2] = {s->dram_in, s->peer_in};
    for (int i = 0; i < 2 && fills[i]; i++)
        next = MIN(next, MIN(des_port_next(fills[i]), des_port_arrival_floor(fills[i])));
    const cache_params *cp = cache_get_params(s->c);
    des_time delay = (cp->enabled ? cp->hit_latency : 0) * period;
    des_port_promise(s->reply_out, next, delay);
    if (s->peer_rep_out)
        des_port_promise(s->peer_rep_out, next, delay);
}

/* Whether the slice runs ahead past the earliest possible end of the run
 * (the deep stop bound). Only where it then runs exactly the cycles it
 * would have been woken for: a refused request is retried in the cycle its
 * cache changes, unless a partial store holds the port or the other
 * partition's request goes first; the retry then waits for the slice's
 * next cycle, which may be a wake-up asked for a delivery on the port
 * since muted, one that its run-ahead does not run (with two partitions,
 * bench 4's L2 refusals moved by 2 of 26,226). */
static bool past_stop(const l2slice *s) { return !s->peer_in && s->partial_write_cycles == 1; }

/* Before running cycle c ahead: past the earliest possible end of the run
 * (the deep stop bound, kept in *stop), the statistics as they stand are
 * saved for l2slice_finish (issue 20; as the DRAM channel holds its
 * statistics back, memctrl_stats.c). */
static void save_before(l2slice *s, des_actor *self, des_time *stop, uint64_t c)
{
    des_time t = c * s->clk->period;
    if (!s->held.words)
        return;
    if (t >= *stop)
        *stop = MAX(*stop, des_stop_bound_deep(self, t));
    if (t < *stop)
        return;
    uint64_t *b = snaps_push(&s->held, c);
    cache_stats_save(s->c, b);
    b += cache_stats_words(s->c);
    memcpy(b, &s->cnt, sizeof s->cnt);
    memcpy(b + CNT_WORDS, &s->latency, HIST_WORDS * sizeof *b);
    memcpy(b + CNT_WORDS + HIST_WORDS, &s->dram_latency, HIST_WORDS * sizeof *b);
}

static void l2_main(des_actor *self, void *data)
{
    l2slice *s = data;
    des_time period = s->clk->period;
    des_time now = des_now(s->engine);
    runahead ra = RUNAHEAD_INIT;
    for (;;) {
        uint64_t c;
        if (!runahead_due(self, s->clk, &ra, &now, &c))
            continue;
        des_time t = c * period;
        /* It runs ahead, as the LD/ST unit does, over the cycles it would
         * have been woken for (its own next cycle, des_ports_due), up to
         * the bound its neighbours' state gives: the deep input bound (its
         * L2 period exceeds the plain one's one core cycle) and the
         * credits of the output ports its next cycle could fill
         * (credit_bound), and the deep stop bound unless past_stop: its
         * statistics are then saved before each cycle past it
         * (save_before). Nothing but its ports reaches it, save a timeline
         * trace (issue 20). */
        bool ahead = !stats_trace(s->st);
        bool past = past_stop(s);
        snaps_drop(&s->held, now / period);   /* the run ends no sooner */
    cycle:
        take_fill(s, s->dram_in, c, t);
        take_fill(s, s->peer_in, c, t);
        mshr_requester rq;
        uint64_t line;
        while (cache_pop_ready(s->c, &rq, &line, c)) {
            data_ready(s, rq.id, c);
            s->changed = s->peer_changed = true;
        }
        uint32_t slot;
        while (timed_pop_due(s, c, &slot))
            g_queue_push_tail(s->replies, GUINT_TO_POINTER(slot + 1));
        send_replies(s, t);
        send_dram(s, t);
        take_request(s, c, t);
        des_count_events(s->engine, 1);
        const cache_req *q = cache_missq_head(s->c);
        bool again = des_port_next(s->dram_in) <= t || (des_port_next(s->req_in) <= t && !s->blocked) ||
                     (q && des_port_room_next(down_port(s, q), t, period));
        if (s->peer_in)
            again = again || des_port_next(s->peer_in) <= t ||
                    (des_port_next(s->peer_req_in) <= t && !s->peer_blocked);
        uint64_t own = UINT64_MAX;
        if (again)
            own = c + 1;
        else if (s->timed->len)
            own = MAX(g_array_index(s->timed, l2_ev, 0).ready, c + 1);
        /* Refused (MSHRs full), it retries only once its cache changes,
         * in a wake-up of its own (a fill, a miss sent on): a request's
         * arrival meanwhile need not wake it (issue 20). */
        des_port_mute(s->req_in, s->blocked);
        if (s->peer_req_in)
            des_port_mute(s->peer_req_in, s->peer_blocked);
        runahead_ran(&ra, c, own);
        if (ahead) {
            uint64_t nc = des_ahead_next(self, s->clk, t, own, past ? NULL : &ra.stop, &ra.far, credit_bound, s);
            if (nc != UINT64_MAX) {
                c = nc;
                t = c * period;
                if (past)
                    save_before(s, self, &ra.stop, c);
                goto cycle;
            }
        }
        promise_replies(s, c);
        now = runahead_sleep(self, s->clk, &ra);
    }
}
