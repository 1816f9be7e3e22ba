/* Crossbar actor: virtual output queues, a per-cycle matching arbiter
 * (round-robin, iSLIP or PIM), serialization by flits, back-pressure. See
 * include/simtgrid/xbar.h for the timing contract. */
#include <glib.h>
#include <string.h>

#include "noc/xbar_internal.h"

unsigned xbar_flits(const xbar_params *p, const mem_pkt *m)
{
    unsigned bytes = p->header_bytes + m->bytes;
    unsigned f = (bytes + p->flit_bytes - 1) / p->flit_bytes;
    return f ? f : 1;
}

/* Cycles a packet of f flits holds its input and output. */
static unsigned xbar_cycles(const xbar_params *p, const mem_pkt *m, unsigned f)
{
    unsigned w = p->data_bytes_per_cycle;
    if (w) {
        unsigned d = (m->bytes + w - 1) / w;
        return d ? d : 1;
    }
    return (f + p->flits_per_cycle - 1) / p->flits_per_cycle;
}

/* The most inputs for which the crossbar uses the deep input bound. */
#define XBAR_DEEP_INPUTS 64

static void xbar_main(des_actor *self, void *data);
static void pim_main(des_actor *self, void *data);

xbar *xbar_new(des_engine *e, const char *name, const xbar_params *p, const des_clock *clk,
               stats *st)
{
    xbar *x = g_new0(xbar, 1);
    x->p = *p;
    x->clk = clk;
    x->engine = e;
    x->name = g_strdup(name);
    x->rng = p->seed * 0x9E3779B97F4A7C15ull + 1;
    x->in = g_new0(xbar_in, p->inputs);
    x->out = g_new0(xbar_out, p->outputs);
    for (unsigned i = 0; i < p->inputs; i++) {
        xbar_in *in = &x->in[i];
        in->slots = g_new(xbar_slot, p->input_buffer);
        for (unsigned s = 0; s < p->input_buffer; s++)
            in->slots[s].next = (int)s + 1 < (int)p->input_buffer ? (int)s + 1 : -1;
        in->free_head = 0;
        in->head = g_new(int, p->outputs);
        in->tail = g_new(int, p->outputs);
        for (unsigned o = 0; o < p->outputs; o++)
            in->head[o] = in->tail[o] = -1;
    }
    x->accept = g_new(int, p->inputs);
    x->in_words = (p->inputs + 63) / 64;
    x->out_words = (p->outputs + 63) / 64;
    x->req = g_new0(uint64_t, (size_t)p->outputs * x->in_words);
    x->freein = g_new0(uint64_t, x->in_words);
    x->granted = g_new0(uint64_t, (size_t)p->inputs * x->out_words);
    x->granted_list = g_new(unsigned, p->inputs);
    x->nonempty = g_new0(uint64_t, x->in_words);
    x->outact = g_new0(uint64_t, x->out_words);
    x->busy = g_new(unsigned, p->inputs);
    x->notes = g_array_new(FALSE, FALSE, sizeof(xbar_note));
    if (p->arbiter == XBAR_PIM) {
        x->final_cycle = UINT64_MAX;   /* pim_main stops at the stop bound */
        x->actor = des_actor_new(e, name, pim_main, x);
    } else {
        x->actor = des_actor_new(e, name, xbar_main, x);
        des_actor_wake_on_edges(x->actor, clk);   /* xbar_main acts on edges only */
        /* The deep input bound looks at every sender's ports each time the
         * kept one is reached: with 132 senders (the H100's LD/ST units)
         * that cost more than the wake-ups it saved (issue 20, speed13). */
        if (p->inputs > XBAR_DEEP_INPUTS)
            des_actor_plain_input_bound(x->actor);
    }
    stats_hist_init_log2(&x->queue_delay, 16);
    if (st) {
        stats_counter(st, name, "packets", "packets", "packets delivered to outputs", &x->packets);
        stats_counter(st, name, "flits", "flits", "flits transferred", &x->flits);
        stats_counter(st, name, "busy_cycles", "port-cycles",
                      "output-port cycles spent transferring flits (sum over outputs)", &x->busy_cycles);
        stats_counter(st, name, "output_stall_cycles", "port-cycles",
                      "output-port cycles a finished packet waited for room downstream", &x->out_stall);
        stats_counter(st, name, "input_full_cycles", "port-cycles",
                      "input cycles with a full input buffer (upstream back-pressure)", &x->in_full);
        stats_histogram(st, name, "queue_delay", "cycles",
                        "cycles from arrival at the crossbar to winning arbitration", &x->queue_delay);
    }
    x->st = st;
    return x;
}

des_actor *xbar_actor(xbar *x) { return x->actor; }

void xbar_connect_input(xbar *x, unsigned i, des_port *p)
{
    x->in[i].port = p;
    unsigned k = des_port_input_index(p);
    if (k >= x->nin_of_port) {
        x->in_of_port = g_renew(int, x->in_of_port, k + 1);
        for (unsigned j = x->nin_of_port; j <= k; j++)
            x->in_of_port[j] = -1;
        x->nin_of_port = k + 1;
    }
    x->in_of_port[k] = (int)i;
}

void xbar_connect_output(xbar *x, unsigned o, des_port *p) { x->out[o].port = p; }

void xbar_finish(xbar *x, des_time end)
{
    xbar_notes_close(x, end / x->clk->period);
    if (!x->st)
        return;
    for (unsigned i = 0; i < x->p.inputs; i++)
        if (x->in[i].used == x->p.input_buffer && end / x->clk->period > x->in[i].full_since)
            x->in_full += end / x->clk->period - x->in[i].full_since;
    double denom = (double)(end / x->clk->period) * x->p.outputs;
    stats_derived(x->st, x->name, "utilisation", "fraction",
                  "busy output-port cycles / (cycles x outputs)", denom > 0 ? x->busy_cycles / denom : 0);
    stats_derived(x->st, x->name, "mean_queue_delay", "cycles", "mean arbitration wait",
                  x->queue_delay.samples ? x->queue_delay.sum / x->queue_delay.samples : 0);
}

/* ---- VOQs ------------------------------------------------------------ */

/* Deliveries to a full input need not wake the crossbar: the arbitration
 * that makes room looks at them (next_event). PIM's loop runs the cycles
 * it is woken for, so its inputs are never muted. */
static void mute_input(const xbar *x, xbar_in *in, bool full)
{
    if (x->p.arbiter != XBAR_PIM)
        des_port_mute(in->port, full);
}

static void voq_push(xbar *x, xbar_in *in, unsigned o, const mem_pkt *m, uint64_t cycle)
{
    int s = in->free_head;
    in->free_head = in->slots[s].next;
    in->slots[s].pkt = *m;
    in->slots[s].arrived = cycle;
    in->slots[s].next = -1;
    if (in->tail[o] >= 0) {
        in->slots[in->tail[o]].next = s;
    } else {
        in->head[o] = s;
        unsigned i = (unsigned)(in - x->in);
        x->req[o * x->in_words + i / 64] |= 1ull << (i % 64);
    }
    in->tail[o] = s;
    if (!in->used++) {
        unsigned i = (unsigned)(in - x->in);
        x->nonempty[i / 64] |= 1ull << (i % 64);
    }
    x->out[o].pending++;
    x->outact[o / 64] |= 1ull << (o % 64);
    x->queued++;
}

static xbar_slot *voq_pop(xbar *x, xbar_in *in, unsigned o)
{
    int s = in->head[o];
    in->head[o] = in->slots[s].next;
    if (in->head[o] < 0) {
        in->tail[o] = -1;
        unsigned i = (unsigned)(in - x->in);
        x->req[o * x->in_words + i / 64] &= ~(1ull << (i % 64));
    }
    in->slots[s].next = in->free_head;
    in->free_head = s;
    if (in->used == x->p.input_buffer) {
        xbar_note_add(x, x->cur_cycle, &x->in_full, x->cur_cycle - in->full_since, in->full_since);
        mute_input(x, in, false);
    }
    if (!--in->used) {
        unsigned i = (unsigned)(in - x->in);
        x->nonempty[i / 64] &= ~(1ull << (i % 64));
    }
    x->out[o].pending--;
    x->queued--;
    return &in->slots[s];
}

/* ---- one interconnect cycle ------------------------------------------- */

/* Index of the next set bit of a word being consumed (v &= v - 1). */
#define LOW_BIT(w, v) ((w) * 64 + (unsigned)__builtin_ctzll(v))

static void finish_transfers(xbar *x, uint64_t c, des_time t)
{
    for (unsigned w = 0; w < x->out_words; w++)
    for (uint64_t v = x->outact[w]; v; v &= v - 1) {
        unsigned o = LOW_BIT(w, v);
        xbar_out *out = &x->out[o];
        if (!out->has_pkt || out->busy_until > c)
            continue;
        if (des_port_try_send(out->port, &out->pkt, t)) {
            if (out->blocked)
                xbar_note_add(x, c, &x->out_stall, c - out->blocked_since, UINT64_MAX);
            out->has_pkt = false;
            out->blocked = false;
            if (!out->pending) {
                x->outact[o / 64] &= ~(1ull << (o % 64));
                if (x->p.arbiter != XBAR_PIM)
                    des_port_promise(out->port, DES_NEVER, x->clk->period);
            }
            xbar_note_add(x, c, &x->packets, 1, UINT64_MAX);
            x->in_flight--;
        } else {
            if (!out->blocked)
                out->blocked_since = c;
            out->blocked = true;
        }
    }
}

/* The inputs are visited through the set of input ports holding a
 * message, kept by the ports: a request crossbar has one input per SM (or
 * cluster) and visits only those with traffic (issue 20). in_of_port maps
 * a port's index to its input. */
static void drain_inputs(xbar *x, uint64_t c, des_time t)
{
    unsigned nw;
    const uint64_t *busy = des_actor_busy_inputs(x->actor, &nw);
    for (unsigned w = 0; w < nw; w++)
    for (uint64_t v = busy[w]; v; v &= v - 1) {
        unsigned k = LOW_BIT(w, v);
        if (k >= x->nin_of_port || x->in_of_port[k] < 0)
            continue;
        xbar_in *in = &x->in[x->in_of_port[k]];
        mem_pkt *m;
        while (in->used < x->p.input_buffer && (m = des_port_peek(in->port, t))) {
            unsigned o = x->p.dst_group > 1 ? m->dst / x->p.dst_group : m->dst;
            if (o >= x->p.outputs)
                o %= x->p.outputs;
            /* Queueing counts from the packet's delivery at the input, not
             * from the cycle this actor happened to look (it may sleep
             * through cycles in which a full buffer could not take it). */
            uint64_t d = des_edge_at_or_after(x->clk, des_port_next(in->port)) / x->clk->period;
            voq_push(x, in, o, m, d < c ? d : c);
            des_port_pop(in->port, t);
            if (in->used == x->p.input_buffer) {
                in->full_since = c;
                mute_input(x, in, true);
            }
        }
    }
}

static void start_transfer(xbar *x, unsigned i, unsigned o, uint64_t c)
{
    x->cur_cycle = c;
    xbar_slot *s = voq_pop(x, &x->in[i], o);
    unsigned f = xbar_flits(&x->p, &s->pkt);
    unsigned dur = xbar_cycles(&x->p, &s->pkt, f);
    xbar_note_add(x, c, NULL, c - s->arrived, UINT64_MAX);
    x->in[i].busy_until = c + dur;
    x->freein[i / 64] &= ~(1ull << (i % 64));
    x->busy[x->nbusy++] = i;
    x->out[o].busy_until = c + dur;
    x->out[o].pkt = s->pkt;
    x->out[o].has_pkt = true;
    xbar_note_add(x, c, &x->busy_cycles, dur, UINT64_MAX);
    xbar_note_add(x, c, &x->flits, f, UINT64_MAX);
    x->in_flight++;
}

static bool out_free(const xbar *x, unsigned o, uint64_t c)
{
    const xbar_out *out = &x->out[o];
    return out->pending && !out->has_pkt && out->busy_until <= c;
}

/* The inputs free at cycle c: queued packets and no transfer in progress
 * (start_transfer clears an input's bit as it becomes busy). In time
 * proportional to the words and the busy inputs. */
static void compute_free_inputs(xbar *x, uint64_t c)
{
    memcpy(x->freein, x->nonempty, x->in_words * sizeof *x->freein);
    for (unsigned k = 0; k < x->nbusy;) {
        unsigned i = x->busy[k];
        if (x->in[i].busy_until <= c) {
            x->busy[k] = x->busy[--x->nbusy];
            continue;
        }
        x->freein[i / 64] &= ~(1ull << (i % 64));
        k++;
    }
}

/* First index >= from and < n set in a & b (b may be NULL), or -1. */
static int first_set(const uint64_t *a, const uint64_t *b, unsigned from, unsigned n)
{
    for (unsigned w = from / 64; w * 64 < n; w++) {
        uint64_t v = a[w] & (b ? b[w] : ~0ull);
        if (w == from / 64)
            v &= ~0ull << (from % 64);
        if (v) {
            unsigned k = w * 64 + (unsigned)__builtin_ctzll(v);
            return k < n ? (int)k : -1;
        }
    }
    return -1;
}

/* First index in the cyclic order start, start+1, ..., n-1, 0, ... set in
 * a & b: the same answer as trying every index in turn, in time
 * proportional to the words. */
static int first_set_from(const uint64_t *a, const uint64_t *b, unsigned start, unsigned n)
{
    int k = first_set(a, b, start, n);
    return k < 0 && start > 0 ? first_set(a, b, 0, start) : k;
}

static uint64_t rng_next(xbar *x)
{
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return x->rng;
}

/* Round-robin: each free output in turn takes the first waiting input after
 * the one it served last. */
static void arbitrate_rr(xbar *x, uint64_t c)
{
    unsigned n = x->p.inputs;
    compute_free_inputs(x, c);
    for (unsigned w = 0; w < x->out_words; w++)
    for (uint64_t v = x->outact[w]; v; v &= v - 1) {
        unsigned o = LOW_BIT(w, v);
        if (!out_free(x, o, c))
            continue;
        int i = first_set_from(&x->req[o * x->in_words], x->freein, x->out[o].rr, n);
        if (i >= 0) {
            start_transfer(x, (unsigned)i, o, c);
            x->out[o].rr = ((unsigned)i + 1) % n;
        }
    }
}

/* iSLIP (pointers move only on a first-iteration accept) or PIM (random
 * grants and accepts): request, grant, accept, repeated `iterations` times.
 * Grants and accepts search bit sets of the requests present rather than
 * every input for every output (issue 20); the choices are the same. */
static void arbitrate_matching(xbar *x, uint64_t c, bool pim)
{
    unsigned ni = x->p.inputs, no = x->p.outputs;
    compute_free_inputs(x, c);
    for (unsigned it = 0; it < x->p.iterations; it++) {
        unsigned ngranted = 0;
        for (unsigned w = 0; w < x->out_words; w++)
        for (uint64_t v = x->outact[w]; v; v &= v - 1) {
            unsigned o = LOW_BIT(w, v);
            if (!out_free(x, o, c))
                continue;
            unsigned start = pim ? (unsigned)(rng_next(x) % ni) : x->out[o].rr;
            int i = first_set_from(&x->req[o * x->in_words], x->freein, start, ni);
            if (i < 0)
                continue;
            uint64_t *g = &x->granted[(size_t)i * x->out_words];
            bool first = true;
            for (unsigned ow = 0; ow < x->out_words; ow++)
                first = first && !g[ow];
            if (first)
                x->granted_list[ngranted++] = (unsigned)i;
            g[o / 64] |= 1ull << (o % 64);
        }
        if (!ngranted)
            return;
        /* PIM draws a number for every free input, granted or not: keep
         * the same sequence of draws. */
        if (pim)
            for (unsigned w = 0; w < x->in_words; w++)
                for (uint64_t v = x->freein[w]; v; v &= v - 1) {
                    unsigned i = LOW_BIT(w, v);
                    unsigned start = (unsigned)(rng_next(x) % no);
                    uint64_t *g = &x->granted[(size_t)i * x->out_words];
                    x->accept[i] = first_set_from(g, NULL, start, no);
                }
        for (unsigned k = 0; k < ngranted; k++) {
            unsigned i = x->granted_list[k];
            uint64_t *g = &x->granted[(size_t)i * x->out_words];
            if (!pim)
                x->accept[i] = first_set_from(g, NULL, x->in[i].rr, no);
            memset(g, 0, x->out_words * sizeof *g);
        }
        /* Only granted inputs can accept. Their transfers start in the
         * order of their first grant rather than by input: each touches
         * its own input and output and adds to sums, so the order changes
         * nothing. */
        for (unsigned k = 0; k < ngranted; k++) {
            unsigned i = x->granted_list[k];
            int o = x->accept[i];
            if (o < 0)
                continue;
            if (!pim && it == 0) {
                x->out[o].rr = (i + 1) % ni;
                x->in[i].rr = ((unsigned)o + 1) % no;
            }
            start_transfer(x, i, (unsigned)o, c);
        }
    }
}

/* Earliest cycle after c at which one of the inputs in `req` (an output's
 * requesters) is free to transfer. */
static uint64_t first_free_requester(const xbar *x, const uint64_t *req, uint64_t c)
{
    uint64_t n = UINT64_MAX;
    for (unsigned w = 0; w < x->in_words; w++)
        for (uint64_t v = req[w]; v; v &= v - 1) {
            const xbar_in *in = &x->in[w * 64 + (unsigned)__builtin_ctzll(v)];
            uint64_t f = in->busy_until > c ? in->busy_until : c + 1;
            if (f < n) {
                n = f;
                if (n == c + 1)
                    return n;
            }
        }
    return n;
}

/* The next cycle after c at which something can happen without a new
 * arrival or a pop downstream: a transfer finishing, a queued packet whose
 * input and output are both free (RR and iSLIP change nothing, not even a
 * pointer, in a cycle without a transfer, so the cycles before that are
 * skipped rather than polled: issue 20), a delivery on an input with room,
 * and with `credits` a blocked output's slot becoming visible. A delivery
 * to a full input waits for the arbitration that makes room (the input is
 * muted meanwhile), a blocked output whose port is full for the
 * receiver's pop (which wakes the crossbar). With credits these are all
 * the cycles in which anything can change, whatever the horizon: RR and
 * iSLIP run them and only them, so their results do not depend on how far
 * they run ahead (docs/des.md). UINT64_MAX when only an arrival or a pop
 * can help. */
static uint64_t next_event(const xbar *x, const des_actor *self, uint64_t c, bool credits)
{
    des_time period = x->clk->period;
    uint64_t n = UINT64_MAX;
    for (unsigned w = 0; w < x->out_words; w++)
    for (uint64_t v = x->outact[w]; v; v &= v - 1) {
        unsigned o = LOW_BIT(w, v);
        const xbar_out *out = &x->out[o];
        uint64_t ready = out->busy_until > c ? out->busy_until : c + 1;
        if (out->has_pkt) {
            if (out->blocked && credits) {
                des_time r = des_port_next_space(out->port);
                if (r != DES_NEVER)
                    n = MIN(n, MAX(des_edge_at_or_after(x->clk, r) / period, c + 1));
            } else if (!out->blocked) {
                n = MIN(n, ready);
            }
        } else if (out->pending && ready < n) {
            ready = MAX(ready, first_free_requester(x, &x->req[o * x->in_words], c));
            n = MIN(n, ready);
        }
    }
    unsigned nw;
    const uint64_t *busy = des_actor_busy_inputs(self, &nw);
    for (unsigned w = 0; w < nw; w++)
    for (uint64_t v = busy[w]; v; v &= v - 1) {
        unsigned k = LOW_BIT(w, v);
        if (k >= x->nin_of_port || x->in_of_port[k] < 0)
            continue;
        const xbar_in *in = &x->in[x->in_of_port[k]];
        des_time d = des_port_next(in->port);
        if (d != DES_NEVER && in->used < x->p.input_buffer) {
            uint64_t dc = des_edge_at_or_after(x->clk, d) / period;
            n = MIN(n, dc > c ? dc : c + 1);
        }
    }
    return n;
}

/* PIM used to poll: after a cycle c it ran again at the first cycle after
 * c at which an input holding packets was free (every cycle while one
 * was), and in each such cycle drew one number per free output with
 * packets pending, transfer or not. Its results depend on that sequence of
 * draws, so the polls it now skips are replayed: the cycles after `last`
 * and before `until` that it would have polled. Being before next_cycle's
 * answer, any arrival and any credit, no transfer could start in them and
 * nothing else changed, so only the grant phase's draws of the first
 * iteration remain (the accept phase draws once something was granted).
 * Same draws, same results; one wake-up instead of one per cycle a packet
 * waits (issue 20). */
static uint64_t pim_poll_after(const xbar *x, uint64_t c)
{
    uint64_t n = UINT64_MAX;
    for (unsigned w = 0; w < x->in_words; w++)
        for (uint64_t v = x->nonempty[w]; v; v &= v - 1) {
            const xbar_in *in = &x->in[LOW_BIT(w, v)];
            n = MIN(n, in->busy_until > c ? in->busy_until : c + 1);
        }
    return n;
}

static void pim_catch_up(xbar *x, uint64_t last, uint64_t until)
{
    for (uint64_t k = pim_poll_after(x, last); k < until; k = pim_poll_after(x, k))
        for (unsigned w = 0; w < x->out_words; w++)
            for (uint64_t v = x->outact[w]; v; v &= v - 1)
                if (out_free(x, LOW_BIT(w, v), k))
                    rng_next(x);
}

static void run_cycle(xbar *x, uint64_t c, des_time t)
{
    finish_transfers(x, c, t);
    drain_inputs(x, c, t);
    if (x->queued) {
        if (x->p.arbiter == XBAR_RR)
            arbitrate_rr(x, c);
        else
            arbitrate_matching(x, c, x->p.arbiter == XBAR_PIM);
    }
}

/* How many cycles ahead the next event may lie for the crossbar to run it
 * at once (des_ahead_within): a data packet holds an output 5 cycles at the
 * default widths. */
#define XBAR_SPAN 8

/* The run-ahead's bound from the output ports (des_port_credit_bound) for
 * the cycle at t: an output sends at most one packet a cycle, and a port
 * with a free slot answers try_send alike whatever pops are to come, so
 * only an output holding a packet for a full port needs it. */
static des_time credit_bound(void *ctx, des_time t)
{
    xbar *x = ctx;
    des_time b = DES_NEVER;
    for (unsigned w = 0; w < x->out_words; w++)
    for (uint64_t v = x->outact[w]; v; v &= v - 1) {
        xbar_out *out = &x->out[LOW_BIT(w, v)];
        if (!out->has_pkt || des_port_count(out->port) < des_port_capacity(out->port))
            continue;
        b = MIN(b, des_port_credit_kept(&out->credit_at, out->port, t));
    }
    return b;
}

/* The crossbar's promise on each output (des_port_promise; issue 20),
 * renewed before it blocks after running up to cycle c: a packet in
 * transfer leaves at its end, not before c + 1; a queued one starts no
 * sooner than c + 1 and takes at least a cycle; anything reaching it later
 * is sent no sooner than a cycle after the cycle it runs. An output with
 * none of these promises only that cycle (its promise set as it empties:
 * finish_transfers). The receivers' deep bounds then see, e.g., that an
 * L2 slice's next request is a transfer away. RR and iSLIP only: PIM's
 * loop runs the cycles it is woken for. */
static void promise_outputs(xbar *x, uint64_t c)
{
    des_time period = x->clk->period;
    for (unsigned w = 0; w < x->out_words; w++)
    for (uint64_t v = x->outact[w]; v; v &= v - 1) {
        xbar_out *out = &x->out[LOW_BIT(w, v)];
        uint64_t n = out->has_pkt ? MAX(out->busy_until, c + 1) : c + 2;
        des_port_promise(out->port, n * period, period);
    }
}

static void xbar_main(des_actor *self, void *data)
{
    xbar *x = data;
    des_engine *e = x->engine;
    des_time period = x->clk->period;
    des_time now = des_now(e);
    uint64_t last = 0;
    bool ran = false;
    /* The deep input bound, kept across wake-ups until a cycle reaches it
     * (as the L2 slice does). Not the stop bound: its statistics past the
     * engine's time are held back (xbar_journal.c). */
    des_time far = 0;
    for (;;) {
        /* Woken on its clock's edges. A wake-up asked for earlier (a
         * delivery to an input since filled, a cycle already run ahead)
         * runs nothing when no event is due: the cycles run are the
         * same whatever the horizon. */
        uint64_t c = des_edge_at_or_after(x->clk, now) / period;
        xbar_notes_commit(x, now / period);
        uint64_t own = ran ? next_event(x, self, last, true) : c;
        if (own > c) {
            des_wake_instead(self, own != UINT64_MAX ? own * period : DES_NEVER);
            now = des_block(self);
            continue;
        }
        uint64_t events = 0;
        for (;;) {
            des_time t = c * period;
            run_cycle(x, c, t);
            last = c;
            ran = true;
            events++;
            /* It runs ahead over exactly those cycles, up to the deep
             * bounds from its neighbours' state and the credits of the
             * ports its sends could fill (issue 20). */
            own = next_event(x, self, c, true);
            uint64_t nc = des_ahead_within(self, x->clk, t, own, XBAR_SPAN, NULL, &far, credit_bound, x);
            if (nc == UINT64_MAX)
                break;
            c = nc;
        }
        des_count_events(e, events);
        promise_outputs(x, last);
        /* Wake-ups asked for the cycles it ran ahead over would find
         * nothing to do: its next event and its ports' replace them. */
        des_wake_instead(self, own != UINT64_MAX ? own * period : DES_NEVER);
        now = des_block(self);
    }
}

/* PIM keeps the loop it had before the deep bounds (issue 20): it runs
 * ahead to the plain bounds over its own events and the deliveries to
 * inputs with room, and runs the cycle it is woken for, or the one after
 * the last it ran. Its random draws follow the cycles it runs, which this
 * loop makes depend on how far it runs ahead; the loop above would move
 * PIM's results (models/dwf.ini uses it), so PIM keeps this one and its
 * results stay as they were. */
static void pim_main(des_actor *self, void *data)
{
    xbar *x = data;
    des_engine *e = x->engine;
    des_time period = x->clk->period;
    des_time now = des_now(e);
    uint64_t last = 0;
    bool ran = false;
    for (;;) {
        des_time horizon = now + des_lookahead(self);
        des_time b = MIN(MIN(des_input_bound(self), des_output_bound(self)), des_stop_bound(self));
        if (b > horizon)
            horizon = b;
        uint64_t c = des_edge_at_or_after(x->clk, now) / period;
        if (ran && c <= last)
            c = last + 1;
        uint64_t events = 0;
        for (;;) {
            des_time t = c * period;
            if (t >= horizon)
                break;
            if (ran)
                pim_catch_up(x, last, c);
            run_cycle(x, c, t);
            last = c;
            ran = true;
            events++;
            c = next_event(x, self, c, false);
            if (c == UINT64_MAX)
                break;
        }
        des_count_events(e, events);
        if (c != UINT64_MAX)
            des_wake_at(self, c * period);
        now = des_block(self);
    }
}
