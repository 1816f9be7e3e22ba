/* Held sends (des_port_hold, issue 20): a sender on the edges of a clock
 * of period 3 hands messages to a full port; the port sends each at the
 * cycle the sender, woken by the slot, would have sent it. The engine's
 * clock runs at 1000 MHz (1 tick per cycle); the receiver pops every
 * message as soon as it is delivered. */
#include <criterion/criterion.h>
#include <stddef.h>

#include "simtgrid/des.h"

typedef struct msg {
    int id;
    des_time stamp;   /* the send time, written by the port for a held message */
} msg;

static des_clock clk[1] = {{"core", 1000000, 0}};
static const des_clock slow = {"slow", 333333, 3};   /* the sender's edges: period 3 */

static des_engine *boot(void)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    return e;
}

typedef struct sink {
    des_port *in;
    des_time at[16], stamp[16];
    int id[16], n;
} sink;

static void sink_main(des_actor *self, void *data)
{
    sink *k = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        msg *m;
        while ((m = des_port_peek(k->in, now))) {
            k->at[k->n] = now;
            k->stamp[k->n] = m->stamp;
            k->id[k->n++] = m->id;
            des_port_pop(k->in, now);
        }
        now = des_block(self);
    }
}

/* Hands over n messages at time 0, each from `from[i]`, then records its
 * wake-ups and takes the releases due by each (and all at `end`). */
typedef struct holder {
    des_port *out;
    int n;
    des_time from[16];
    bool wake;
    des_time end;
    des_time woke[16], taken[16];
    int nwoke, ntaken;
} holder;

static void holder_main(des_actor *self, void *data)
{
    holder *h = data;
    des_time now = des_now(des_actor_engine(self));
    for (int i = 0; i < h->n; i++)
        des_port_hold(h->out, &(msg){.id = i + 1}, h->from[i]);
    des_port_hold_wake(h->out, h->wake);
    for (;;) {
        if (now < h->end)
            des_wake_at(self, h->end);
        now = des_block(self);
        h->woke[h->nwoke++] = now;
        while (des_port_released(h->out) <= now) {
            h->taken[h->ntaken++] = des_port_released(h->out);
            des_port_take_released(h->out);
        }
    }
}

/* The same messages the old way: try to send at each edge it runs, and
 * wait for the slot when refused. */
typedef struct waiter {
    des_port *out;
    int n, next, runs;
    des_time sent[16];
} waiter;

static void waiter_main(des_actor *self, void *data)
{
    waiter *w = data;
    des_time now = des_now(des_actor_engine(self));
    while (w->next < w->n) {
        w->runs++;
        if (des_port_try_send(w->out, &(msg){.id = w->next + 1, .stamp = now}, now))
            w->sent[w->next++] = now;
        if (w->next < w->n && des_port_room_next(w->out, now, slow.period))
            des_wake_at(self, now + slow.period);
        now = des_block(self);
    }
}

static des_port *wire(des_engine *e, des_actor_fn fn, void *s, sink *k, unsigned cap, des_time lat)
{
    des_actor *snd = des_actor_new(e, "sender", fn, s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, k);
    des_actor_wake_on_edges(snd, &slow);
    des_port *p = des_port_new(e, "p", sizeof(msg), cap, lat, snd, rcv);
    k->in = p;
    return p;
}

Test(hold, sends_at_the_cycle_the_slot_would_have_woken_the_sender)
{
    /* Capacity 1, latency 2, three messages from 0. m1 goes at 0 (arrives
     * at 2). m1 is popped at 2, its slot seen from 4: m2 goes at the next
     * edge, 6 (arrives at 8). Popped at 8, seen from 10: m3 at 12 (at 14).
     * The sender is not woken for them; it takes the three sends at 21. */
    des_engine *e = boot();
    static holder h = {.n = 3, .end = 21};
    static sink k;
    h.out = wire(e, holder_main, &h, &k, 1, 2);
    des_port_stamp(h.out, offsetof(msg, stamp));
    des_run(e);
    des_time at[] = {2, 8, 14}, sent[] = {0, 6, 12};
    cr_assert_eq(k.n, 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(k.id[i], i + 1);
        cr_assert_eq(k.at[i], at[i], "message %d at %lu", i + 1, (unsigned long)k.at[i]);
        cr_assert_eq(k.stamp[i], sent[i]);
        cr_assert_eq(h.taken[i], sent[i]);
    }
    cr_assert_eq(h.ntaken, 3);
    cr_assert_eq(h.nwoke, 1);
    cr_assert_eq(h.woke[0], 21);
    cr_assert_eq(des_port_held(h.out), 0);
}

Test(hold, the_waiting_sender_sends_at_the_same_times)
{
    /* The reference for the test above: a sender woken by each slot sends
     * at 0, 6 and 12 (three runs), the receiver pops at 2, 8 and 14. */
    des_engine *e = boot();
    static waiter w = {.n = 3};
    static sink k;
    w.out = wire(e, waiter_main, &w, &k, 1, 2);
    des_run(e);
    des_time at[] = {2, 8, 14}, sent[] = {0, 6, 12};
    cr_assert_eq(k.n, 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(w.sent[i], sent[i]);
        cr_assert_eq(k.at[i], at[i]);
    }
    cr_assert_eq(w.runs, 3);
}

Test(hold, one_send_per_cycle_from_the_earliest_time)
{
    /* Capacity 2, latency 1. m1 from 4: the first edge at or after 4 is 6
     * (arrives at 7); m2 from 0 but after m1: 6 + 3 = 9 (at 10); m3 and m4
     * held: m1's slot, popped at 7, is seen from 8, so m3 goes one period
     * after m2, at 12 (at 13); m2's slot, seen from 11, gives m4 15 (at 16). */
    des_engine *e = boot();
    static holder h = {.n = 4, .from = {4, 0, 0, 0}, .end = 30};
    static sink k;
    h.out = wire(e, holder_main, &h, &k, 2, 1);
    des_port_stamp(h.out, offsetof(msg, stamp));
    des_run(e);
    des_time at[] = {7, 10, 13, 16};
    cr_assert_eq(k.n, 4);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(k.id[i], i + 1);
        cr_assert_eq(k.at[i], at[i], "message %d at %lu", i + 1, (unsigned long)k.at[i]);
        cr_assert_eq(k.stamp[i], at[i] - 1);
    }
}

Test(hold, a_burst_port_sends_several_per_cycle_in_order)
{
    /* The test above with des_port_hold_burst: m1 from 4 goes at edge 6
     * (arrives at 7); m2 from 0, not before m1, shares its cycle: 6 (at 7).
     * Both popped at 7, their slots seen from 8: m3 and m4 go together at
     * the next edge, 9 (at 10), in the order handed over; the sender takes
     * the four sends in that order at 30. */
    des_engine *e = boot();
    static holder h = {.n = 4, .from = {4, 0, 0, 0}, .end = 30};
    static sink k;
    h.out = wire(e, holder_main, &h, &k, 2, 1);
    des_port_stamp(h.out, offsetof(msg, stamp));
    des_port_hold_burst(h.out, true);
    des_run(e);
    des_time at[] = {7, 7, 10, 10};
    cr_assert_eq(k.n, 4);
    cr_assert_eq(h.ntaken, 4);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(k.id[i], i + 1);
        cr_assert_eq(k.at[i], at[i], "message %d at %lu", i + 1, (unsigned long)k.at[i]);
        cr_assert_eq(k.stamp[i], at[i] - 1);
        cr_assert_eq(h.taken[i], at[i] - 1);
    }
}

Test(hold, each_held_message_is_delivered_once_in_order)
{
    /* Capacity 2, latency 2, eight messages from 0: each is delivered
     * exactly once, in order; sends one period apart at least, every
     * release taken once by the sender, at its send time. */
    des_engine *e = boot();
    static holder h = {.n = 8, .end = 100};
    static sink k;
    h.out = wire(e, holder_main, &h, &k, 2, 2);
    des_port_stamp(h.out, offsetof(msg, stamp));
    des_run(e);
    cr_assert_eq(k.n, 8);
    cr_assert_eq(h.ntaken, 8);
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(k.id[i], i + 1);
        cr_assert_eq(k.at[i], k.stamp[i] + 2);
        cr_assert_eq(h.taken[i], k.stamp[i]);
        cr_assert_eq(k.stamp[i] % 3, 0);
        if (i)
            cr_assert_geq(k.stamp[i], k.stamp[i - 1] + 3);
    }
    /* m1, m2 at 0, 3 (capacity 2); each later one's slot is seen 4 after
     * the send that took it (popped at delivery, credit 2): m3's from 4,
     * m4's from 7, ..., so each goes one period after the previous: 3i. */
    for (int i = 0; i < 8; i++)
        cr_assert_eq(k.stamp[i], (des_time)(3 * i));
}

Test(hold, a_sender_that_asks_is_woken_at_each_send)
{
    /* As the first test with des_port_hold_wake: woken at 6 and 12, the
     * sends of m2 and m3 (m1 went at 0, while it ran), and at 21. */
    des_engine *e = boot();
    static holder h = {.n = 3, .wake = true, .end = 21};
    static sink k;
    h.out = wire(e, holder_main, &h, &k, 1, 2);
    des_run(e);
    cr_assert_eq(h.nwoke, 3, "woken %d times: %lu %lu", h.nwoke, (unsigned long)h.woke[0], (unsigned long)h.woke[1]);
    cr_assert_eq(h.woke[0], 6);
    cr_assert_eq(h.woke[1], 12);
    cr_assert_eq(h.woke[2], 21);
    cr_assert_eq(h.taken[0], 0);
    cr_assert_eq(h.taken[1], 6);
    cr_assert_eq(h.taken[2], 12);
}
