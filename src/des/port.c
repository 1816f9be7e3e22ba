/* Ports: single-sender, single-receiver bounded FIFOs with a fixed latency.
 *
 * The ring of message slots is allocated once (the message pool). Each slot
 * remembers when its message is delivered and, once popped, from when the
 * sender may reuse it (pop time + credit delay): so what a sender sees never
 * depends on whether the receiver ran before it at the same time, even when
 * both run ahead inside their lookahead. */
#include <string.h>

#include "des/des_internal.h"

struct des_port {
    /* What the bounds read of every port they visit, together (a crossbar
     * has one input per SM): the ends, the delays, the sender's promise
     * (des_port_promise: from what it holds, no send before promise_next;
     * from a run at r, none before r + promise_delay), the ring's fill. */
    des_actor *sender, *receiver;
    des_time latency;
    des_time credit_delay;
    des_time promise_next, promise_delay;
    des_time pop_after;     /* the receiver pops nothing before it (des_port_pop_after) */
    unsigned head, count, cap;
    bool muted;             /* deliveries do not wake the receiver (des_port_mute) */
    bool sender_waiting;    /* a send failed: wake the sender on the next pop */
    des_time *deliver;      /* per slot: delivery time of the message in it */
    des_time *reusable;     /* per slot: first time the sender may fill it */
    des_engine *engine;
    char *name;
    size_t msg_size;
    unsigned rx_bit, tx_bit;   /* index among the receiver's inputs, the sender's outputs */
    char *buf;
    des_time last_send, last_pop;
    /* Held sends (des_port_hold): messages handed over while no slot was
     * free, each with the earliest time it may be sent, released in order
     * as slots come back; then the send times of those released that the
     * sender has not taken yet (des_port_take_released). */
    char *hold_buf;
    des_time *hold_from;
    unsigned hold_head, hold_n, hold_cap;
    des_time *rel;
    unsigned rel_head, rel_n, rel_cap;
    bool hold_wake;         /* each release wakes the sender at its send time */
    bool hold_burst;        /* held sends may share a cycle (des_port_hold_burst) */
    bool sent;              /* some message was sent (last_send is one) */
    size_t stamp;           /* offset of the send time in a message, or SIZE_MAX */
};

/* The run's own cap on every arrival bound: its limit and the next probe. */
static des_time run_cap(const des_engine *e)
{
    return e->limit + 1 < e->probe_next ? e->limit + 1 : e->probe_next;
}

/* Whether `a` (none counts too) is due now and has not run yet, as seen by
 * `self`: a batch runs in id order, so it may still send now. */
static bool due_unseen(const des_engine *e, const des_actor *self, const des_actor *a)
{
    return !a || (a->batch_at == e->now && a->id > self->id);
}

/* The earliest time at which `s` may send a message it has not sent yet,
 * as seen by `self`, running at the engine's current time: now when `s` is
 * due now and has not run yet (a batch runs in id order); else its pending
 * wake-up, or a message or credit reaching it, no sooner than its
 * lookahead after now. */
static des_time earliest_send(const des_engine *e, const des_actor *self, const des_actor *s)
{
    if (s == self || due_unseen(e, self, s) || s->lookahead == DES_NEVER)
        return e->now;
    des_time t = e->now + s->lookahead;
    return s->wake_at < t ? s->wake_at : t;
}

/* t + d, or DES_NEVER when t is: a block that nothing can wake bounds
 * nothing (the plain sum would wrap to a bound near 0). */
static des_time after(des_time t, des_time d) { return t > DES_NEVER - d ? DES_NEVER : t + d; }

/* The earliest time a message not yet sent can be put on `p`, whatever
 * else its sender does: a full port needs a pop first, which its receiver
 * makes while it runs, at its local time, so no sooner than now, or than
 * `from` when the receiver is the asking block (it runs from there), and
 * the sender sees the slot credit_delay later. A sender that runs soon
 * for its other ports (an LD/ST unit whose crossbar input is full, the
 * request crossbar whose output to a refusing L2 slice is) still sends
 * nothing on this one before that (issue 20). A free slot's reusable
 * time would bound it too, but saved 17 wake-ups on the gather for a
 * read of the ring per port visited. */
static des_time slot_floor(const des_engine *e, const des_actor *self, des_time from, const des_port *p)
{
    if (p->count < p->cap)
        return 0;
    return after((p->receiver == self ? from : e->now), p->credit_delay);
}

/* The earliest send on `p` by a sender that runs no sooner than `run`:
 * its promise (des_port_promise), never self's own (self is running). */
static inline des_time promised(const des_actor *self, const des_port *p, des_time run)
{
    if ((p->promise_next == DES_NEVER && !p->promise_delay) || p->sender == self)
        return run;
    des_time d = after(run, p->promise_delay);
    d = d < p->promise_next ? d : p->promise_next;
    return d > run ? d : run;   /* it sends only when it runs */
}

/* The least, over `ports` (the actor's inputs or outputs), of the far
 * end's earliest send plus the port's latency (inputs) or credit delay
 * (outputs), starting from `b`. (slot_floor and promises are for the
 * deep bounds: here they cost more on the H100 stream's crossbars, 132
 * inputs, than they saved anywhere.) */
static des_time bound_over(const des_actor *self, const GPtrArray *ports, bool inputs, des_time b)
{
    for (unsigned i = 0; i < ports->len; i++) {
        const des_port *p = g_ptr_array_index(ports, i);
        des_time t = inputs ? earliest_send(self->engine, self, p->sender) + p->latency
                            : earliest_send(self->engine, self, p->receiver) + p->credit_delay;
        if (t < b)
            b = t;
    }
    return b;
}

des_time des_input_bound(const des_actor *self)
{
    const des_engine *e = self->engine;
    return bound_over(self, self->inputs, true, run_cap(e));
}

des_time des_output_bound(const des_actor *self) { return bound_over(self, self->outputs, false, DES_NEVER); }

des_time des_stop_bound(const des_actor *self)
{
    const des_engine *e = self->engine;
    des_time b = DES_NEVER;
    for (unsigned i = 0; i < e->enders->len; i++) {
        des_time t = earliest_send(e, self, g_ptr_array_index(e->enders, i)) + 1;
        if (t < b)
            b = t;
    }
    return b;
}


/* A block acting on edges runs at the first edge at or after t. */
static des_time on_edge(const des_actor *a, des_time t)
{
    return a->edges && t != DES_NEVER ? des_edge_at_or_after(a->edges, t) : t;
}

/* The earliest time `a` can run again, as seen by `self` running at the
 * engine's current time, looking `depth` levels through the blocks that
 * can wake it: its pending wake-up, a message from one of its senders
 * (that sender's earliest run plus the port's latency), a credit on an
 * output it waits on (the receiver's earliest run plus the credit delay);
 * at depth 0, earliest_send's own lookahead. A block acting on edges runs
 * at the first edge at or after it. A block sends only when it runs, and
 * self's own sends (at its local time, from now) are counted as now, so
 * nothing self does while it runs ahead lowers the answer. */
static des_time earliest_run(const des_engine *e, const des_actor *self, des_time from, const des_actor *a,
                             unsigned depth)
{
    if (a == self)
        return from;
    if (due_unseen(e, self, a) || a->lookahead == DES_NEVER)
        return e->now;
    des_time b;
    if (!depth) {
        b = earliest_send(e, self, a);
    } else {
        b = a->wake_at;
        /* A muted input wakes nothing (only a run of a's own unmutes it);
         * a promise bounds its sender's sends. Looked at only for blocks
         * with such inputs: the dispatcher's 132 (the stop bound) have
         * none. */
        if (!a->in_marked) {
            for (unsigned i = 0; i < a->inputs->len; i++) {
                const des_port *p = g_ptr_array_index(a->inputs, i);
                des_time t = after(earliest_run(e, self, from, p->sender, depth - 1), p->latency);
                if (t < b)
                    b = t;
            }
        } else {
            for (unsigned i = 0; i < a->inputs->len; i++) {
                const des_port *p = g_ptr_array_index(a->inputs, i);
                if (p->muted)
                    continue;
                des_time r = earliest_run(e, self, from, p->sender, depth - 1);
                des_time t = after(promised(self, p, r), p->latency);
                if (t < b)
                    b = t;
            }
        }
        for (unsigned w = 0; w < a->out_words; w++)
            for (uint64_t v = a->out_wait[w]; v; v &= v - 1) {
                const des_port *p = g_ptr_array_index(a->outputs, w * 64 + (unsigned)__builtin_ctzll(v));
                des_time t = after(earliest_run(e, self, from, p->receiver, depth - 1), p->credit_delay);
                if (t < b)
                    b = t;
            }
    }
    return on_edge(a, b);
}

/* The earliest arrival on `p`, an input of self, of a message not yet
 * sent, or `b` if sooner: its sender's earliest run, `depth` levels deep,
 * as its promise has it, or the slot's (slot_floor) when later, plus the
 * port's latency. (Deeper down, the far ends' own inputs, the slot saved
 * nothing on the gather for its cost on the H100 stream.) */
static des_time arrival(const des_engine *e, const des_actor *self, des_time from, const des_port *p,
                        unsigned depth, des_time b)
{
    des_time t = after(promised(self, p, earliest_run(e, self, from, p->sender, depth)), p->latency);
    if (t < b)   /* the floor only where it could lower b */
        t = MAX(t, after(slot_floor(e, self, from, p), p->latency));
    return t < b ? t : b;
}

void des_actor_plain_input_bound(des_actor *a) { a->plain_in_bound = true; }

des_time des_input_bound_deep(const des_actor *self, des_time from)
{
    const des_engine *e = self->engine;
    des_time b = run_cap(e);
    for (unsigned i = 0; i < self->inputs->len; i++) {
        const des_port *p = g_ptr_array_index(self->inputs, i);
        b = arrival(e, self, from, p, 1, b);
    }
    return b;
}

des_time des_port_arrival_bound(const des_actor *self, const des_port *p, des_time from,
                                unsigned depth)
{
    const des_engine *e = self->engine;
    const des_actor *a = p->sender;
    des_time r;
    if (depth) {
        /* A loop through self left out: counted from a time far enough not
         * to bound anything, and small enough not to overflow. */
        r = earliest_run(e, self, from == DES_NEVER ? DES_NEVER / 2 : from, a, depth);
        if (r >= DES_NEVER / 2)
            r = DES_NEVER;
    }
    else if (a == self)
        r = from;
    else if (due_unseen(e, self, a))
        r = e->now;
    else
        r = on_edge(a, a->wake_at);   /* its pending wake-up only */
    return MIN(run_cap(e), after(promised(self, p, r), p->latency));
}

des_time des_port_arrival_floor(const des_port *p)
{
    const des_engine *e = p->engine;
    return MIN(run_cap(e), after(promised(p->receiver, p, e->now), p->latency));
}

des_time des_port_credit_bound(const des_port *p, des_time from)
{
    des_time r = earliest_run(p->engine, p->sender, from, p->receiver, 1);
    return after(r > p->pop_after ? r : p->pop_after, p->credit_delay);
}

void des_port_pop_after(des_port *p, des_time t) { p->pop_after = t; }
des_time des_port_pops_from(const des_port *p) { return p->pop_after; }

des_time des_stop_bound_deep(const des_actor *self, des_time from)
{
    /* One level: the SMs' own wake-ups and lookaheads. Two (their LD/ST
     * units') saved a further 11,000 DRAM wake-ups on the gather but cost
     * more instructions than they saved (a visit of every SM's ports). */
    des_engine *e = self->engine;
    /* Asked again at the same time, the first answer holds: blocks of the
     * batch not yet run counted as due now, those run since can only have
     * raised it, and its asker then (sending from its `from`) sends no
     * sooner. */
    if (e->stop_deep_at == e->now + 1)
        return e->stop_deep;
    des_time b = DES_NEVER;
    for (unsigned i = 0; i < e->enders->len; i++) {
        des_time t = after(earliest_run(e, self, from, g_ptr_array_index(e->enders, i), 1), 1);
        if (t < b)
            b = t;
    }
    e->stop_deep_at = e->now + 1;
    e->stop_deep = b;
    return b;
}

uint64_t des_ahead_next(const des_actor *self, const des_clock *clk, des_time t, uint64_t own,
                        des_time *stop, des_time *far, des_time (*credit)(void *ctx, des_time nt),
                        void *ctx)
{
    return des_ahead_within(self, clk, t, des_cycle_due(self, clk, t, own), 2, stop, far, credit, ctx);
}

uint64_t des_ahead_within(const des_actor *self, const des_clock *clk, des_time t, uint64_t n,
                          unsigned span, des_time *stop, des_time *far, des_time (*credit)(void *ctx, des_time nt),
                          void *ctx)
{
    des_time period = clk->period;
    if (n == UINT64_MAX || n * period - t > span * period)
        return UINT64_MAX;
    des_time nt = n * period;
    des_time never = DES_NEVER;
    if (!stop)   /* the block holds back what it counts after the engine's time */
        stop = &never;
    else if (nt >= *stop)
        *stop = MAX(*stop, des_stop_bound_deep(self, nt));
    /* From its next cycle: a later one only raises it. The plain bound
     * first: it costs a look at each sender, the deep one at each
     * sender's ports, and often suffices for the next cycle; the deep one
     * not at all where the block says so (des_actor_plain_input_bound). */
    if (nt < *stop && nt >= *far)
        *far = MAX(*far, des_input_bound(self));
    if (nt < *stop && nt >= *far && !self->plain_in_bound)
        *far = MAX(*far, des_input_bound_deep(self, nt));
    return nt < *stop && nt < *far && nt < credit(ctx, nt) ? n : UINT64_MAX;
}

/* Room in a bit set for n bits (the new words zeroed). */
static void bits_grow(uint64_t **set, unsigned *words, unsigned n)
{
    unsigned w = (n + 63) / 64;
    if (w <= *words)
        return;
    *set = g_renew(uint64_t, *set, w);
    memset(*set + *words, 0, (w - *words) * sizeof **set);
    *words = w;
}

/* The sender's out_wait bit: it waits for a slot (a refused send, or
 * messages held for one, which a pop releases as the sender's own send
 * would: the deep bounds count that path), or a release will wake it. */
static void sync_wait_bit(des_port *p)
{
    if (!p->sender)
        return;
    if (p->sender_waiting || p->hold_n || (p->hold_wake && p->rel_n))
        des_bit_set(p->sender->out_wait, p->tx_bit);
    else
        des_bit_clear(p->sender->out_wait, p->tx_bit);
}

/* A sender starts or stops waiting for a slot. */
static void set_waiting(des_port *p, bool w)
{
    p->sender_waiting = w;
    sync_wait_bit(p);
}

des_port *des_port_new(des_engine *e, const char *name, size_t msg_size, unsigned capacity,
                       des_time latency, des_actor *sender, des_actor *receiver)
{
    if (latency < 1 || capacity < 1 || msg_size < 1)
        g_error("des: port %s needs latency >= 1 tick, capacity >= 1 and a message size", name);
    des_port *p = g_new0(des_port, 1);
    p->engine = e;
    p->name = g_strdup(name);
    p->msg_size = msg_size;
    p->cap = capacity;
    p->latency = latency;
    /* Credits travel back as fast as data goes forward. */
    p->credit_delay = latency;
    p->sender = sender;
    p->receiver = receiver;
    p->deliver = g_new0(des_time, capacity);
    p->reusable = g_new0(des_time, capacity);
    p->buf = g_malloc0(msg_size * capacity);
    p->stamp = SIZE_MAX;
    p->promise_next = DES_NEVER;
    des_actor_note_lookahead(receiver, latency);
    if (receiver) {
        p->rx_bit = receiver->inputs->len;
        g_ptr_array_add(receiver->inputs, p);
        bits_grow(&receiver->in_busy, &receiver->in_words, receiver->inputs->len);
    }
    if (sender) {
        p->tx_bit = sender->outputs->len;
        g_ptr_array_add(sender->outputs, p);
        bits_grow(&sender->out_wait, &sender->out_words, sender->outputs->len);
    }
    des_actor_note_lookahead(sender, p->credit_delay);
    g_ptr_array_add(e->ports, p);
    return p;
}

void des_port_free(des_port *p)
{
    g_free(p->name);
    g_free(p->deliver);
    g_free(p->reusable);
    g_free(p->buf);
    g_free(p->hold_buf);
    g_free(p->hold_from);
    g_free(p->rel);
    g_free(p);
}

const char *des_port_name(const des_port *p) { return p->name; }
unsigned des_port_input_index(const des_port *p) { return p->rx_bit; }
des_time des_port_latency(const des_port *p) { return p->latency; }
unsigned des_port_count(const des_port *p) { return p->count; }
bool des_port_sender_waiting(const des_port *p) { return p->sender_waiting; }
unsigned des_port_capacity(const des_port *p) { return p->cap; }

unsigned des_port_space(des_port *p, des_time t)
{
    /* The free slots, in ring order from the next one to fill, were popped
     * in that order (never-used slots, reusable from 0, come first), so
     * their reusable times never decrease: binary-search the first one not
     * yet visible at t rather than walk them (an SM asks every cycle it
     * runs, of a port up to hundreds of slots deep). */
    unsigned n = p->cap - p->count;
    unsigned base = (p->head + p->count) % p->cap;
#define FREE_AT(j) p->reusable[(base + (j)) % p->cap]
    if (!n || FREE_AT(0) > t)
        return 0;
    if (FREE_AT(n - 1) <= t)
        return n;
    unsigned lo = 1, hi = n - 1;   /* the first slot not visible lies in [lo, hi] */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (FREE_AT(mid) > t)
            hi = mid;
        else
            lo = mid + 1;
    }
#undef FREE_AT
    return lo;
}

void des_port_wait_space(des_port *p, des_time t)
{
    unsigned slot = (p->head + p->count) % p->cap;
    set_waiting(p, true);
    /* The slot is already free but not yet visible: wake when it is. */
    if (p->count < p->cap && p->sender && p->reusable[slot] > t)
        des_wake_at(p->sender, p->reusable[slot]);
}

bool des_port_room_next(des_port *p, des_time t, des_time period)
{
    if (des_port_space(p, t + period) > 0)
        return true;
    des_port_wait_space(p, t);
    return false;
}

des_time des_port_next_space(const des_port *p)
{
    return p->count < p->cap ? p->reusable[(p->head + p->count) % p->cap] : DES_NEVER;
}

/* The send itself: `msg` into free slot `slot` at time t. */
static void put(des_port *p, unsigned slot, const void *msg, des_time t)
{
    p->last_send = t;
    p->sent = true;
    memcpy(p->buf + (size_t)slot * p->msg_size, msg, p->msg_size);
    des_time when = t + p->latency;
    p->deliver[slot] = when;
    if (!p->count++ && p->receiver)
        des_bit_set(p->receiver->in_busy, p->rx_bit);
    /* A send always lowers the receiver's wake-up to the delivery time: a
     * receiver that left a message waiting (e.g. it was full) is told again. */
    if (!p->muted)
        des_wake_at(p->receiver, when);
}

/* A ring of `n` elements of `size` bytes from `head` in `cap` slots,
 * moved to the front of a new array of `newcap` slots. */
static void ring_grow(void **ring, size_t size, unsigned head, unsigned n, unsigned cap, unsigned newcap)
{
    char *to = g_malloc(size * newcap);
    const char *from = *ring;
    for (unsigned i = 0; i < n; i++)
        memcpy(to + (size_t)i * size, from + (size_t)((head + i) % cap) * size, size);
    g_free(*ring);
    *ring = to;
}

/* Send held messages while there are free slots, each at the first edge
 * of the sender's clock at or after its earliest time, the slot's
 * reusable time and one period after the previous send: the cycle at
 * which the sender, woken by the slot, would have sent it itself. */
static void release_held(des_port *p)
{
    des_time period = p->sender->edges->period;
    while (p->hold_n && p->count < p->cap) {
        unsigned slot = (p->head + p->count) % p->cap;
        des_time s = MAX(p->hold_from[p->hold_head], p->reusable[slot]);
        if (p->sent)
            s = MAX(s, p->hold_burst ? p->last_send : p->last_send + period);
        s = des_edge_at_or_after(p->sender->edges, s);
        char *msg = p->hold_buf + (size_t)p->hold_head * p->msg_size;
        if (p->stamp != SIZE_MAX)
            memcpy(msg + p->stamp, &s, sizeof s);
        put(p, slot, msg, s);
        p->hold_head = (p->hold_head + 1) % p->hold_cap;
        p->hold_n--;
        if (p->rel_n == p->rel_cap) {
            unsigned n = p->rel_cap ? 2 * p->rel_cap : 8;
            ring_grow((void **)&p->rel, sizeof *p->rel, p->rel_head, p->rel_n, p->rel_cap, n);
            p->rel_head = 0;
            p->rel_cap = n;
        }
        p->rel[(p->rel_head + p->rel_n++) % p->rel_cap] = s;
        if (p->hold_wake)
            des_wake_at(p->sender, s);
    }
    sync_wait_bit(p);
}

void des_port_hold(des_port *p, const void *msg, des_time from)
{
    if (!p->sender || !p->sender->edges)
        g_error("des: port %s: held sends need a sender acting on clock edges", p->name);
    if (p->engine->started && from < p->engine->now)
        g_error("des: port %s: held send from tick %" G_GUINT64_FORMAT " in the past", p->name, from);
    if (p->hold_n == p->hold_cap) {
        unsigned n = p->hold_cap ? 2 * p->hold_cap : p->cap;
        ring_grow((void **)&p->hold_buf, p->msg_size, p->hold_head, p->hold_n, p->hold_cap, n);
        ring_grow((void **)&p->hold_from, sizeof *p->hold_from, p->hold_head, p->hold_n, p->hold_cap, n);
        p->hold_head = 0;
        p->hold_cap = n;
    }
    unsigned k = (p->hold_head + p->hold_n++) % p->hold_cap;
    memcpy(p->hold_buf + (size_t)k * p->msg_size, msg, p->msg_size);
    p->hold_from[k] = from;
    release_held(p);
}

unsigned des_port_held(const des_port *p) { return p->hold_n; }

des_time des_port_released(const des_port *p) { return p->rel_n ? p->rel[p->rel_head] : DES_NEVER; }

void des_port_take_released(des_port *p)
{
    if (!p->rel_n)
        g_error("des: port %s: no released send to take", p->name);
    p->rel_head = (p->rel_head + 1) % p->rel_cap;
    p->rel_n--;
    sync_wait_bit(p);
}

void des_port_hold_wake(des_port *p, bool wake)
{
    p->hold_wake = wake;
    /* Releases made already and not yet seen by the sender wake it too. */
    for (unsigned i = 0; wake && i < p->rel_n; i++) {
        des_time s = p->rel[(p->rel_head + i) % p->rel_cap];
        if (s > p->engine->now) {
            des_wake_at(p->sender, s);
            break;
        }
    }
    sync_wait_bit(p);
}

void des_port_hold_burst(des_port *p, bool burst)
{
    if (p->hold_n)
        g_error("des: port %s: the held sends' spacing changed while some are held", p->name);
    p->hold_burst = burst;
}

void des_port_stamp(des_port *p, size_t offset)
{
    if (offset + sizeof(des_time) > p->msg_size)
        g_error("des: port %s: the send time does not fit in a message", p->name);
    p->stamp = offset;
}

bool des_port_try_send(des_port *p, const void *msg, des_time t)
{
    if (t < p->last_send || (p->engine->started && t < p->engine->now))
        g_error("des: port %s: send at tick %" G_GUINT64_FORMAT " before an earlier send at %" G_GUINT64_FORMAT,
                p->name, t, p->last_send);
    if (p->hold_n)
        g_error("des: port %s: a send while messages are held would overtake them", p->name);
    unsigned slot = (p->head + p->count) % p->cap;
    if (p->count == p->cap || p->reusable[slot] > t) {
        des_port_wait_space(p, t);
        return false;
    }
    put(p, slot, msg, t);
    return true;
}

void *des_port_peek(des_port *p, des_time t)
{
    if (!p->count || p->deliver[p->head] > t)
        return NULL;
    return p->buf + (size_t)p->head * p->msg_size;
}

void des_port_pop(des_port *p, des_time t)
{
    if (!p->count)
        g_error("des: port %s: pop from an empty port", p->name);
    if (t < p->last_pop || t < p->deliver[p->head])
        g_error("des: port %s: pop at tick %" G_GUINT64_FORMAT " out of order", p->name, t);
    p->last_pop = t;
    p->reusable[p->head] = t + p->credit_delay;
    p->head = (p->head + 1) % p->cap;
    if (!--p->count && p->receiver)
        des_bit_clear(p->receiver->in_busy, p->rx_bit);
    if (p->sender_waiting && p->sender) {
        set_waiting(p, false);
        des_wake_at(p->sender, t + p->credit_delay);
    }
    if (p->hold_n)
        release_held(p);
}

void des_port_mute(des_port *p, bool muted)
{
    p->muted = muted;
    if (muted && p->receiver)
        p->receiver->in_marked = true;
}

void des_port_promise(des_port *p, des_time next, des_time delay)
{
    p->promise_next = next;
    p->promise_delay = delay;
    if (p->receiver)
        p->receiver->in_marked = true;
}

des_time des_port_next(const des_port *p)
{
    return p->count ? p->deliver[p->head] : DES_NEVER;
}

des_time des_port_receiver_due(const des_port *p, des_time now)
{
    /* Delivery times rise along the ring (sends are in time order and the
     * latency is fixed): binary-search the first one after now, so a port
     * full of delivered messages its receiver cannot take yet costs little. */
    if (p->muted || !p->count || p->deliver[(p->head + p->count - 1) % p->cap] <= now)
        return DES_NEVER;
    unsigned lo = 0, hi = p->count - 1;   /* the answer lies in [lo, hi] */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (p->deliver[(p->head + mid) % p->cap] > now)
            hi = mid;
        else
            lo = mid + 1;
    }
    return p->deliver[(p->head + lo) % p->cap];
}

des_time des_port_sender_due(const des_port *p, des_time now)
{
    des_time d = DES_NEVER;
    if (p->sender_waiting && p->count < p->cap) {   /* a full port wakes its sender on pop */
        des_time r = p->reusable[(p->head + p->count) % p->cap];
        if (r > now)
            d = r;
    }
    for (unsigned i = 0; p->hold_wake && i < p->rel_n; i++) {   /* release times rise */
        des_time s = p->rel[(p->rel_head + i) % p->rel_cap];
        if (s > now) {
            d = MIN(d, s);
            break;
        }
    }
    return d;
}
