/* DRAM channel actor: puts a memctrl on ports (see dram_block.h). */
#include <glib.h>

#include "mem/dram_block.h"
#include "mem/runahead.h"
#include "simtgrid/memport.h"
#include "simtgrid/bits.h"

typedef struct pending {
    mem_pkt pkt;
    unsigned port;
    int next_free;
} pending;

struct dram_block {
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    char *name;
    stats *st;
    memctrl *mc;
    bool write_mask;        /* dram.write_mask */
    bool hold;              /* statistics past the engine's time held back (memctrl_stats.c) */
    unsigned nports;
    des_port **in, **out;
    des_time *credit_at;    /* credit_bound's per output: valid until reached */
    GArray *slots;          /* pending: requests inside the controller */
    int free_head;
    unsigned live;          /* slots in use: requests inside, or replies waiting */
    GQueue *replies;        /* slot index + 1 of finished reads waiting for room */
    memctrl_done done[64];
};

static void dram_main(des_actor *self, void *data);

/* Before a probe at T: the updates of cycles before T count. */
static void journal_commit(void *ctx, des_time t)
{
    dram_block *d = ctx;
    memctrl_stats_commit(d->mc, t / d->clk->period);
}

dram_block *dram_block_new(des_engine *e, const char *name, const dram_params *p, const addrmap *map,
                           unsigned channel, unsigned ports, const des_clock *dram_clk, stats *st)
{
    dram_block *d = g_new0(dram_block, 1);
    d->engine = e;
    d->clk = dram_clk;
    d->name = g_strdup(name);
    d->st = st;
    d->mc = memctrl_new(p, map, channel);
    d->write_mask = p->write_mask;
    d->nports = ports;
    d->in = g_new0(des_port *, ports);
    d->out = g_new0(des_port *, ports);
    d->credit_at = g_new0(des_time, ports);
    d->slots = g_array_new(FALSE, FALSE, sizeof(pending));
    d->free_head = -1;
    d->replies = g_queue_new();
    if (st)
        memctrl_register_stats(d->mc, st, name);
    if (stats_trace(st))
        memctrl_trace(d->mc, stats_trace(st), name,
                      (double)dram_clk->period / (double)des_ticks_per_us_of(e));
    /* It runs ahead past the earliest possible end of the run and holds
     * back its statistics instead, save with a timeline trace (which
     * records commands as they are decided) (issue 20). */
    d->hold = !stats_trace(st);
    if (d->hold)
        des_add_journal(e, journal_commit, d);
    d->actor = des_actor_new(e, name, dram_main, d);
    des_actor_wake_on_edges(d->actor, dram_clk);   /* dram_main acts on edges only */
    return d;
}

des_actor *dram_block_actor(dram_block *d) { return d->actor; }

void dram_block_connect(dram_block *d, unsigned i, des_port *in, des_port *out)
{
    d->in[i] = in;
    d->out[i] = out;
}

void dram_block_finish(dram_block *d, des_time end)
{
    memctrl_stats_close(d->mc, end / d->clk->period);
    if (d->st)
        memctrl_finish(d->mc, d->st, d->name, end / d->clk->period);
}

void dram_block_free(dram_block *d)
{
    if (!d)
        return;
    memctrl_free(d->mc);
    g_array_free(d->slots, TRUE);
    g_queue_free(d->replies);
    g_free(d->in);
    g_free(d->out);
    g_free(d->credit_at);
    g_free(d->name);
    g_free(d);
}

static unsigned slot_get(dram_block *d)
{
    d->live++;
    if (d->free_head < 0) {
        pending z = {.next_free = -1};
        g_array_append_val(d->slots, z);
        return d->slots->len - 1;
    }
    unsigned s = (unsigned)d->free_head;
    d->free_head = g_array_index(d->slots, pending, s).next_free;
    return s;
}

static void slot_put(dram_block *d, unsigned s)
{
    d->live--;
    g_array_index(d->slots, pending, s).next_free = d->free_head;
    d->free_head = (int)s;
}

/* How far (DRAM periods) the next cycle may lie for the channel to run
 * it at once rather than block: without the stop bound, the input and
 * credit bounds it then checks cost less than the wake-up saved (issue 20,
 * tools/bench/README.md: "speed15", on the gather 2 -> 4 saved 6,800
 * wake-ups and 0.6% of the instructions, 8 nothing more; "speed24", with
 * the promises 4 -> 8 saves 406 wake-ups on the gather, about 1% of its
 * instructions, and 46,000 on the H100 stream, rate unchanged). */
#define DRAM_SPAN 8

/* The id of a read-modify-write's read: served, never answered. */
#define RMW_READ UINT32_MAX

/* Without a data mask a write that leaves 32-B segments partly written
 * needs their old bytes: the controller reads them before the write, two
 * requests in its queue (dram.write_mask, docs/dram.md). */
static unsigned rmw_segments(const dram_block *d, const mem_pkt *m)
{
    return d->write_mask || m->op != MEM_STORE ? 0 : (unsigned)sg_popcount32(m->partial);
}

/* Take requests delivered by cycle c, in port order, while the queue has room. */
static void accept(dram_block *d, uint64_t c, des_time t)
{
    for (unsigned i = 0; i < d->nports; i++) {
        mem_pkt *m;
        while (memctrl_can_accept(d->mc) && (m = des_port_peek(d->in[i], t)) &&
               memctrl_room(d->mc) >= 1u + !!rmw_segments(d, m)) {
            unsigned rmw = rmw_segments(d, m);
            if (rmw)
                memctrl_enqueue(d->mc, &(memctrl_req){.addr = m->addr, .id = RMW_READ,
                                                     .bytes = 32u * rmw, .write = false}, c);
            unsigned s = slot_get(d);
            pending *p = &g_array_index(d->slots, pending, s);
            p->pkt = *m;
            p->port = i;
            memctrl_req r = {.addr = m->addr, .id = s, .bytes = m->bytes ? m->bytes : 32,
                             .write = m->op == MEM_STORE, .hint = (m->flags & MEM_ROW_HINT) != 0};
            if (m->op != MEM_STORE && m->bytes == 0)
                r.bytes = 32u * (unsigned)sg_popcount32(m->sectors ? m->sectors : 1);
            memctrl_enqueue(d->mc, &r, c);
            des_port_pop(d->in[i], t);
        }
    }
}

static void send_replies(dram_block *d, des_time t)
{
    while (!g_queue_is_empty(d->replies)) {
        unsigned s = GPOINTER_TO_UINT(g_queue_peek_head(d->replies)) - 1;
        pending *p = &g_array_index(d->slots, pending, s);
        mem_pkt r = p->pkt;
        r.reply = 1;
        if (!des_port_try_send(d->out[p->port], &r, t))
            return;   /* woken by the credit */
        g_queue_pop_head(d->replies);
        slot_put(d, s);
    }
}

/* The run-ahead's bound from the output ports (des_port_credit_bound) for
 * the cycle at t: only a port that the cycle's replies could fill can be
 * changed by a pop still to come. Each reply holds a slot until it is
 * sent, and a request delivered by t may take one: at most live plus
 * those requests. */
static des_time credit_bound(void *ctx, des_time t)
{
    dram_block *d = ctx;
    unsigned k = d->live;
    for (unsigned i = 0; i < d->nports; i++)
        k += des_port_next(d->in[i]) <= t ? des_port_count(d->in[i]) : 0;
    des_time b = DES_NEVER;
    for (unsigned i = 0; i < d->nports; i++) {
        if (des_port_count(d->out[i]) + k < des_port_capacity(d->out[i]))
            continue;
        b = MIN(b, des_port_credit_kept(&d->credit_at[i], d->out[i], t));
    }
    return b;
}

/* Before it blocks after running cycle c: it sends a reply only when a
 * read completes (or when a slot frees for one waiting), and a request
 * that reaches it later completes no sooner than the controller's
 * shortest latency after the cycle it runs (des_port_promise). The L2
 * slice's bounds then see its fills coming that much later than its
 * next run (issue 20). */
static void promise_replies(dram_block *d, uint64_t c)
{
    des_time period = d->clk->period;
    uint64_t nd = memctrl_next_done(d->mc);
    des_time next = !g_queue_is_empty(d->replies) ? c * period
                    : nd == MEMCTRL_NEVER        ? DES_NEVER
                                                 : MAX(nd, c + 1) * period;
    for (unsigned i = 0; i < d->nports; i++)
        des_port_promise(d->out[i], next, (des_time)memctrl_min_latency(d->mc) * period);
}

static void dram_main(des_actor *self, void *data)
{
    dram_block *d = data;
    des_time period = d->clk->period;
    des_time now = des_now(d->engine);
    runahead ra = RUNAHEAD_INIT;
    for (;;) {
        uint64_t c;
        if (!runahead_due(self, d->clk, &ra, &now, &c))
            continue;
        des_time t = c * period;
        /* It runs ahead as the L2 slice does (l2slice.c): over the cycles
         * it would have been woken for (its next timing event, its ports'
         * deliveries and credits), up to the deep input and stop bounds
         * and the credits of the outputs its replies could fill. Nothing
         * but its ports reaches it, save a timeline trace (issue 20). */
        bool ahead = !stats_trace(d->st);
        if (d->hold)
            memctrl_stats_commit(d->mc, now / period);
    cycle:
        memctrl_stats_at(d->mc, c);
        memctrl_sync(d->mc, c);
        accept(d, c, t);
        size_t n;
        uint64_t events = 0;
        while ((n = memctrl_advance(d->mc, c, d->done, G_N_ELEMENTS(d->done))) > 0) {
            for (size_t k = 0; k < n; k++) {
                if (d->done[k].id == RMW_READ)
                    continue;   /* its write follows on its own */
                if (d->done[k].write)
                    slot_put(d, d->done[k].id);
                else
                    g_queue_push_tail(d->replies, GUINT_TO_POINTER(d->done[k].id + 1));
            }
            events += n;
        }
        accept(d, c, t);   /* a slot freed at c takes a request from c + 1 */
        send_replies(d, t);
        des_count_events(d->engine, events + 1);
        /* A full queue leaves requests in the ports; next_event covers the
         * cycle a slot frees. */
        uint64_t next = memctrl_next_event(d->mc);
        runahead_ran(&ra, c, next != MEMCTRL_NEVER ? (next > c ? next : c + 1) : UINT64_MAX);
        if (ahead) {
            uint64_t nx = des_cycle_due(self, d->clk, t, ra.own);
            uint64_t nc = des_ahead_within(self, d->clk, t, nx, d->hold ? DRAM_SPAN : 2,
                                           d->hold ? NULL : &ra.stop, &ra.far, credit_bound, d);
            if (nc != UINT64_MAX) {
                c = nc;
                t = c * period;
                goto cycle;
            }
        }
        promise_replies(d, c);
        now = runahead_sleep(self, d->clk, &ra);
    }
}
