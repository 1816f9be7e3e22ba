/* Ports and the engine: exact delivery times, ordering, back-pressure,
 * lookahead and the end of a run. Criterion forks a process per test, which
 * SimGrid needs (one engine per process). All clocks here run at 1000 MHz,
 * so 1 cycle = 1 tick (ticks/us = lcm(1000 MHz) = 1000). */
#include <criterion/criterion.h>
#include <glib.h>

#include "simtgrid/des.h"

typedef struct msg { int id; } msg;

typedef struct rec {
    des_time at[16];
    int id[16];
    int from[16];
    int n;
} rec;

static des_clock clk[1] = {{"core", 1000000, 0}};

static des_engine *boot(void)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    cr_assert_eq(clk[0].period, 1);
    return e;
}

/* ---- a sender that sends a scripted list of (time, id) ------------------ */
typedef struct script {
    des_port *out;
    des_time when[16];
    int id[16];
    int n, next;
    des_time sent_at[16];   /* when each send succeeded */
    int failures;
} script;

static void sender_main(des_actor *self, void *data)
{
    script *s = data;
    des_time now = des_now(des_actor_engine(self));
    while (s->next < s->n) {
        if (s->when[s->next] > now) {
            des_wake_at(self, s->when[s->next]);
            now = des_block(self);
            continue;
        }
        msg m = {s->id[s->next]};
        if (des_port_try_send(s->out, &m, now)) {
            s->sent_at[s->next++] = now;
        } else {
            s->failures++;
            now = des_block(self);   /* woken when a slot frees */
        }
    }
}

/* ---- a receiver that records every message it pops, from several ports -- */
typedef struct sink {
    des_port *in[4];
    int nin;
    rec r;
    int accept_per_wake;   /* 0 = all */
} sink;

static void sink_main(des_actor *self, void *data)
{
    sink *k = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        int taken = 0;
        for (int i = 0; i < k->nin; i++) {
            msg *m;
            while ((m = des_port_peek(k->in[i], now))) {
                if (k->accept_per_wake && taken == k->accept_per_wake)
                    break;
                k->r.at[k->r.n] = now;
                k->r.id[k->r.n] = m->id;
                k->r.from[k->r.n] = i;
                k->r.n++;
                des_port_pop(k->in[i], now);
                taken++;
            }
        }
        /* Partial draining: look again next cycle. */
        for (int i = 0; i < k->nin; i++)
            if (k->accept_per_wake && des_port_next(k->in[i]) <= now)
                des_wake_at(self, now + 1);
        now = des_block(self);
    }
}

Test(clock, ticks_per_us_is_lcm_of_frequencies)
{
    /* 1000 MHz alone: 1000 ticks per us, period 1. */
    uint64_t a[] = {1000000};
    cr_assert_eq(des_ticks_per_us(a, 1), 1000);
    /* H100: 1980 and 2619 MHz. lcm(1980, 2619) = 2^2*3^3*5*11*97 = 576180. */
    uint64_t h[] = {1980000, 2619000};
    cr_assert_eq(des_ticks_per_us(h, 2), 576180);
    /* Fermi-like: 1400, 700, 924 MHz: lcm = 2^3*3*5^2*7*11 = 46200. */
    uint64_t f[] = {1400000, 700000, 924000};
    cr_assert_eq(des_ticks_per_us(f, 3), 46200);
    /* 1000.5 MHz = 1000500 kHz: lcm with 1000 MHz = 2001000 kHz per ms...
     * in ticks per ms lcm(1000500, 1000000) = 2001000000 -> 2001000 per us. */
    uint64_t g[] = {1000500, 1000000};
    cr_assert_eq(des_ticks_per_us(g, 2), 2001000);
}

Test(clock, impossible_clock_set_is_refused)
{
    /* Three pairwise coprime kHz values near 1e6: lcm ~ 1e18 ticks per ms,
     * far above 2^53/1000 (~9e12). */
    uint64_t k[] = {999983, 1000003, 999979};
    cr_assert_eq(des_ticks_per_us(k, 3), 0);
    des_clock c[3] = {{"a", 999983, 0}, {"b", 1000003, 0}, {"c", 999979, 0}};
    char *err = NULL;
    cr_assert_null(des_engine_new(c, 3, false, &err));
    cr_assert_not_null(strstr(err, "common time base"), "%s", err);
    g_free(err);
}

Test(clock, cycle_conversions_are_exact)
{
    des_clock c[2] = {{"core", 1980000, 0}, {"dram", 2619000, 0}};
    char *err = NULL;
    des_engine *e = des_engine_new(c, 2, false, &err);
    cr_assert_not_null(e);
    /* 576180 ticks per us: core period 576180e3/1980e3 = 291, dram 220. */
    cr_assert_eq(c[0].period, 291);
    cr_assert_eq(c[1].period, 220);
    cr_assert_eq(des_cycles(&c[0], 1980), 576180);     /* 1980 core cycles = 1 us */
    cr_assert_eq(des_cycle_of(&c[1], 576180), 2619);   /* 1 us = 2619 dram cycles */
    cr_assert_eq(des_cycle_of(&c[0], 290), 0);
    cr_assert_eq(des_edge_at_or_after(&c[0], 292), 582);
    cr_assert_eq(des_edge_at_or_after(&c[0], 582), 582);
    des_engine_free(e);
}

Test(port, delivers_after_latency_in_fifo_order)
{
    des_engine *e = boot();
    static script s = {.n = 3, .when = {0, 0, 4}, .id = {1, 2, 3}};
    static sink k = {.nin = 1};
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    s.out = k.in[0] = des_port_new(e, "p", sizeof(msg), 8, 5, snd, rcv);
    des_run(e);
    /* Sent at 0, 0, 4 with latency 5: received at 5, 5, 9, in order. */
    cr_assert_eq(k.r.n, 3);
    cr_assert_eq(k.r.at[0], 5);
    cr_assert_eq(k.r.at[1], 5);
    cr_assert_eq(k.r.at[2], 9);
    cr_assert_eq(k.r.id[0], 1);
    cr_assert_eq(k.r.id[1], 2);
    cr_assert_eq(k.r.id[2], 3);
    cr_assert_eq(s.failures, 0);
}

Test(port, equal_times_are_ordered_by_the_receiver_not_by_simgrid)
{
    /* Two senders, both send at 0 with latency 3, arrive together at 3. The
     * sink drains port 0 first: ids 10 then 20 whatever order SimGrid ran
     * the senders in. Sender B is created first to make that clear. */
    des_engine *e = boot();
    static script a = {.n = 1, .when = {0}, .id = {10}};
    static script b = {.n = 1, .when = {0}, .id = {20}};
    static sink k = {.nin = 2};
    des_actor *sb = des_actor_new(e, "b", sender_main, &b);
    des_actor *sa = des_actor_new(e, "a", sender_main, &a);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    a.out = k.in[0] = des_port_new(e, "pa", sizeof(msg), 4, 3, sa, rcv);
    b.out = k.in[1] = des_port_new(e, "pb", sizeof(msg), 4, 3, sb, rcv);
    des_run(e);
    cr_assert_eq(k.r.n, 2);
    cr_assert_eq(k.r.at[0], 3);
    cr_assert_eq(k.r.at[1], 3);
    cr_assert_eq(k.r.id[0], 10);
    cr_assert_eq(k.r.id[1], 20);
}

Test(port, back_pressure_blocks_until_credit_returns)
{
    /* Capacity 2, latency 3: three sends wanted at 0. Two go (arrive at 3);
     * the third fails. The sink pops both at 3, so the first slot is
     * reusable from 3 + 3 = 6 (credits return with the port latency); the
     * sender is woken at 6, sends, and the message arrives at 9. */
    des_engine *e = boot();
    static script s = {.n = 3, .when = {0, 0, 0}, .id = {1, 2, 3}};
    static sink k = {.nin = 1};
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    s.out = k.in[0] = des_port_new(e, "p", sizeof(msg), 2, 3, snd, rcv);
    des_time end = des_run(e);
    cr_assert_eq(s.failures, 1);
    cr_assert_eq(s.sent_at[2], 6);
    cr_assert_eq(k.r.n, 3);
    cr_assert_eq(k.r.at[0], 3);
    cr_assert_eq(k.r.at[1], 3);
    cr_assert_eq(k.r.at[2], 9);
    cr_assert_eq(end, 9);
}

Test(port, slow_receiver_leaves_messages_queued)
{
    /* The sink takes one message per cycle. Four messages sent at 0 with
     * latency 2 are popped at 2, 3, 4, 5. */
    des_engine *e = boot();
    static script s = {.n = 4, .when = {0, 0, 0, 0}, .id = {1, 2, 3, 4}};
    static sink k = {.nin = 1, .accept_per_wake = 1};
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    s.out = k.in[0] = des_port_new(e, "p", sizeof(msg), 8, 2, snd, rcv);
    des_run(e);
    cr_assert_eq(k.r.n, 4);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(k.r.at[i], (des_time)(2 + i));
        cr_assert_eq(k.r.id[i], i + 1);
    }
}

/* A sink that mutes its input until its own wake-up at `until`. */
typedef struct muted_sink {
    des_port *in;
    des_time until;
    rec r;
    int runs;
} muted_sink;

static void muted_sink_main(des_actor *self, void *data)
{
    muted_sink *k = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        k->runs++;
        if (now < k->until) {
            des_port_mute(k->in, true);
            des_wake_at(self, k->until);
        } else {
            des_port_mute(k->in, false);
            msg *m;
            while ((m = des_port_peek(k->in, now))) {
                k->r.at[k->r.n] = now;
                k->r.id[k->r.n++] = m->id;
                des_port_pop(k->in, now);
            }
        }
        now = des_block(self);
    }
}

Test(port, a_muted_input_does_not_wake_its_receiver)
{
    /* Latency 3. The sink mutes its input at 0 and sleeps until 10. Messages
     * sent at 0 and 2 (delivered at 3 and 5) and at 8 (delivered at 11) do
     * not wake it while muted: it runs at 0, then at 10, where it unmutes
     * and pops the first two; the third, still in flight, wakes it at 11.
     * Three runs in all (an unmuted sink would also run at 3 and 5). */
    des_engine *e = boot();
    static script s = {.n = 3, .when = {0, 2, 8}, .id = {1, 2, 3}};
    static muted_sink k = {.until = 10};
    /* The sink is created first, so it runs (and mutes) first at 0. */
    des_actor *rcv = des_actor_new(e, "sink", muted_sink_main, &k);
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    s.out = k.in = des_port_new(e, "p", sizeof(msg), 8, 3, snd, rcv);
    des_run(e);
    cr_assert_eq(k.r.n, 3);
    cr_assert_eq(k.r.at[0], 10);
    cr_assert_eq(k.r.at[1], 10);
    cr_assert_eq(k.r.at[2], 11);
    cr_assert_eq(k.r.id[2], 3);
    cr_assert_eq(k.runs, 3);
}

Test(port, a_block_on_edges_is_woken_at_the_next_edge)
{
    /* Sends at 0 and 4 with latency 3 arrive at 3 and 7. A receiver that
     * acts on the edges of a clock of period 5 (des_actor_wake_on_edges) is
     * woken at the first edge at or after each delivery: 5 and 10, so it
     * pops them there; without the edges it would pop them at 3 and 7. */
    des_engine *e = boot();
    static const des_clock slow = {"slow", 200000, 5};
    static script s = {.n = 2, .when = {0, 4}, .id = {1, 2}};
    static sink k = {.nin = 1};
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    des_actor_wake_on_edges(rcv, &slow);
    s.out = k.in[0] = des_port_new(e, "p", sizeof(msg), 4, 3, snd, rcv);
    des_run(e);
    cr_assert_eq(k.r.n, 2);
    cr_assert_eq(k.r.at[0], 5);
    cr_assert_eq(k.r.at[1], 10);
    cr_assert_eq(k.r.id[0], 1);
    cr_assert_eq(k.r.id[1], 2);
}

/* ---- a receiver that records des_input_bound at each wake-up ------------ */
typedef struct bounder {
    des_port *in, *back;
    des_time at[8], bound[8], out[8], stop[8];
    des_time in_deep[8], stop_deep[8], credit[8];   /* the deep bounds; credit: back's */
    des_time in_later[8];   /* des_input_bound_deep from now + 4 */
    des_time arr1[8], arr0[8];   /* des_port_arrival_bound of `in`, depth 1 and 0 */
    bool ahead_on;               /* ask des_ahead_within for cycle now + 7 */
    uint64_t ahead[8];
    int n;
} bounder;

static des_time no_credit_bound(void *ctx, des_time t)
{
    (void)ctx;
    (void)t;
    return DES_NEVER;
}

static void bounder_main(des_actor *self, void *data)
{
    bounder *b = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        if (b->n < 8) {
            b->at[b->n] = now;
            b->out[b->n] = des_output_bound(self);
            b->stop[b->n] = des_stop_bound(self);
            b->in_deep[b->n] = des_input_bound_deep(self, now);
            b->in_later[b->n] = des_input_bound_deep(self, now + 4);
            b->stop_deep[b->n] = des_stop_bound_deep(self, now);
            b->credit[b->n] = b->back ? des_port_credit_bound(b->back, now) : 0;
            b->arr1[b->n] = des_port_arrival_bound(self, b->in, DES_NEVER, 1);
            b->arr0[b->n] = des_port_arrival_bound(self, b->in, DES_NEVER, 0);
            if (b->ahead_on) {
                des_time far = 0;
                b->ahead[b->n] = des_ahead_within(self, &clk[0], now, now + 7, 8, NULL, &far, no_credit_bound, NULL);
            }
            b->bound[b->n++] = des_input_bound(self);
        }
        while (des_port_peek(b->in, now))
            des_port_pop(b->in, now);
        now = des_block(self);
    }
}

Test(port, input_bound_follows_the_senders_state)
{
    /* Port latency 3, so the sender's lookahead is 3 (its credit delay).
     * Sender A (created first) sends at 0 and at 10, then has nothing
     * left. At 0 A has already run when the receiver runs, and waits to
     * run at 10: the earliest unsent message is sent at min(10, 0 + 3) = 3
     * and arrives at 6. At 3 (the first delivery) A still waits for 10:
     * min(10, 3 + 3) + 3 = 9. At 13 (the second delivery) A has ended and
     * asks for nothing: 13 + 3 + 3 = 19. */
    des_engine *e = boot();
    static script a = {.n = 2, .when = {0, 10}, .id = {1, 2}};
    static bounder b;
    des_actor *sa = des_actor_new(e, "a", sender_main, &a);
    des_actor *rb = des_actor_new(e, "b", bounder_main, &b);
    a.out = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, sa, rb);
    des_run(e);
    cr_assert_eq(b.n, 3);
    cr_assert_eq(b.at[0], 0);
    cr_assert_eq(b.bound[0], 6);
    cr_assert_eq(b.at[1], 3);
    cr_assert_eq(b.bound[1], 9);
    cr_assert_eq(b.at[2], 13);
    cr_assert_eq(b.bound[2], 19);
}

Test(port, output_and_stop_bounds_follow_the_receivers_state)
{
    /* As above (A sends at 0 and 10 with latency 3 to B), plus a port from
     * B back to A with latency 5 that carries nothing (A's lookahead stays
     * 3), and A may end the run. B's output bound is A's earliest run plus
     * 5: at 0 min(10, 0 + 3) + 5 = 8, at 3 min(10, 3 + 3) + 5 = 11, at 13
     * (A ended) 13 + 3 + 5 = 21. The stop bound is A's earliest run plus
     * one tick: 4, 7, 17. The input bound does not change: 6, 9, 19. */
    des_engine *e = boot();
    static script a = {.n = 2, .when = {0, 10}, .id = {1, 2}};
    static bounder b;
    des_actor *sa = des_actor_new(e, "a", sender_main, &a);
    des_actor *rb = des_actor_new(e, "b", bounder_main, &b);
    a.out = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, sa, rb);
    des_port_new(e, "back", sizeof(msg), 4, 5, rb, sa);
    des_actor_may_end_run(sa);
    des_run(e);
    cr_assert_eq(b.n, 3);
    const des_time out[3] = {8, 11, 21}, stop[3] = {4, 7, 17}, in[3] = {6, 9, 19};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(b.out[i], out[i], "wake-up %d", i);
        cr_assert_eq(b.stop[i], stop[i], "wake-up %d", i);
        cr_assert_eq(b.bound[i], in[i], "wake-up %d", i);
    }
}

Test(port, deep_bounds_look_through_the_far_end_inputs)
{
    /* The case above (A sends at 0 and 10, latency 3, to B; B's port back
     * to A has latency 5 and carries nothing; A may end the run), seen
     * one level further: A can run no sooner than its pending wake-up or
     * a message from B, and B is the block asking (it sends from now on),
     * so A's earliest run is min(A's wake-up, now + 5): at 0 min(10, 5) =
     * 5, at 3 min(10, 8) = 8, at 13 (A ended, no wake-up) 13 + 5 = 18.
     * Deep input bound: that plus p's latency 3: 8, 11, 21 (plain: 6, 9,
     * 19). Deep stop bound: that plus one: 6, 9, 19 (plain: 4, 7, 17).
     * Credit bound of the port back: that plus its credit delay 5: 10,
     * 13, 23 (the plain output bound: 8, 11, 21). With B sending no
     * sooner than now + 4, A's earliest run is min(A's wake-up, now + 4 +
     * 5) and the deep input bound min(10, 9) + 3 = 12, min(10, 12) + 3 =
     * 13, 13 + 4 + 5 + 3 = 25. des_port_arrival_bound with the loop
     * through B left out (B says it sends nothing before the answer): A's
     * earliest run is its pending wake-up alone, at depth 1 (its one
     * input is B's port back) as at depth 0 (the wake-up only): 10 + 3 =
     * 13 at 0 and at 3; at 13 A has ended and asks for nothing: DES_NEVER
     * (no limit set, no probe). */
    des_engine *e = boot();
    static script a = {.n = 2, .when = {0, 10}, .id = {1, 2}};
    static bounder b;
    des_actor *sa = des_actor_new(e, "a", sender_main, &a);
    des_actor *rb = des_actor_new(e, "b", bounder_main, &b);
    a.out = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, sa, rb);
    b.back = des_port_new(e, "back", sizeof(msg), 4, 5, rb, sa);
    des_actor_may_end_run(sa);
    des_run(e);
    cr_assert_eq(b.n, 3);
    const des_time at[3] = {0, 3, 13}, in[3] = {8, 11, 21}, stop[3] = {6, 9, 19}, credit[3] = {10, 13, 23};
    const des_time later[3] = {12, 13, 25}, arr[3] = {13, 13, DES_NEVER};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(b.at[i], at[i], "wake-up %d", i);
        cr_assert_eq(b.in_deep[i], in[i], "wake-up %d", i);
        cr_assert_eq(b.stop_deep[i], stop[i], "wake-up %d", i);
        cr_assert_eq(b.credit[i], credit[i], "wake-up %d", i);
        cr_assert_eq(b.in_later[i], later[i], "wake-up %d", i);
        cr_assert_eq(b.arr1[i], arr[i], "wake-up %d", i);
        cr_assert_eq(b.arr0[i], arr[i], "wake-up %d", i);
    }
}

/* The deep-bounds case (A sends at 0 and 10, latency 3, to B; B's port
 * back to A has latency 5; one tick a cycle), B asking des_ahead_within
 * whether it may run cycle now + 7 at once. */
static void run_ahead_case(bounder *b, bool plain)
{
    des_engine *e = boot();
    static script a;
    a = (script){.n = 2, .when = {0, 10}, .id = {1, 2}};
    des_actor *sa = des_actor_new(e, "a", sender_main, &a);
    des_actor *rb = des_actor_new(e, "b", bounder_main, b);
    if (plain)
        des_actor_plain_input_bound(rb);
    a.out = b->in = des_port_new(e, "p", sizeof(msg), 4, 3, sa, rb);
    b->back = des_port_new(e, "back", sizeof(msg), 4, 5, rb, sa);
    b->ahead_on = true;
    des_run(e);
}

Test(port, run_ahead_uses_the_deep_input_bound)
{
    /* At 0, 3 and 13 the plain input bound (6, 9, 19) does not pass now +
     * 7 (7, 10, 20); the deep one from there does: A's earliest run is
     * min(its wake-up, now + 7 + 5), plus 3: min(10, 12) + 3 = 13 > 7,
     * min(10, 15) + 3 = 13 > 10, and at 13 (A ended) 20 + 5 + 3 = 28 >
     * 20. So cycle now + 7 may run at once: 7, 10, 20. */
    static bounder b;
    run_ahead_case(&b, false);
    cr_assert_eq(b.n, 3);
    const uint64_t want[3] = {7, 10, 20};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(b.ahead[i], want[i], "wake-up %d", i);
}

Test(port, run_ahead_with_the_plain_input_bound_only)
{
    /* As above with des_actor_plain_input_bound: only the plain bound (6,
     * 9, 19), which does not pass now + 7, so the block waits each time. */
    static bounder b;
    run_ahead_case(&b, true);
    cr_assert_eq(b.n, 3);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(b.ahead[i], UINT64_MAX, "wake-up %d", i);
}

Test(port, input_bound_of_a_sender_not_yet_run_is_one_latency)
{
    /* The sender is created after the receiver, so at 0 it is due and has
     * not run when the receiver runs: it may still send at 0, arriving at
     * 0 + 3 = 3, the plain lookahead. */
    des_engine *e = boot();
    static script a = {.n = 1, .when = {0}, .id = {1}};
    static bounder b;
    des_actor *rb = des_actor_new(e, "b", bounder_main, &b);
    des_actor *sa = des_actor_new(e, "a", sender_main, &a);
    a.out = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, sa, rb);
    des_run(e);
    cr_assert_eq(b.at[0], 0);
    cr_assert_eq(b.bound[0], 3);
    cr_assert_eq(b.arr0[0], 3);   /* due now: now, whatever its wake-up */
    cr_assert_eq(b.arr1[0], 3);
    cr_assert_eq(b.stop[0], DES_NEVER);   /* no block may end the run */
}

Test(port, lookahead_is_min_latency_of_ports)
{
    des_engine *e = boot();
    static script s = {.n = 0};
    static sink k = {.nin = 2};
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    des_actor *lone = des_actor_new(e, "lone", sender_main, &s);
    k.in[0] = des_port_new(e, "p7", sizeof(msg), 2, 7, snd, rcv);
    k.in[1] = des_port_new(e, "p4", sizeof(msg), 2, 4, snd, rcv);
    cr_assert_eq(des_lookahead(rcv), 4);
    cr_assert_eq(des_lookahead(snd), 4);
    cr_assert_eq(des_lookahead(lone), DES_NEVER);
    cr_assert_eq(des_port_space(k.in[0], 0), 2);
    des_engine_free(e);
}

Test(port, busy_input_set_follows_sends_and_pops)
{
    /* 70 inputs to one receiver (two words of bits). A port's bit is set
     * from its first send until the pop that empties it: sends on inputs
     * 0, 64 and 69 (twice on 64) give word 0 = bit 0 and word 1 = bits 0
     * and 5; popping one of input 64's two messages keeps its bit, popping
     * the second clears it (latency 3: delivered at tick 3). */
    des_engine *e = boot();
    static script s = {.n = 0};
    static sink k = {.nin = 0};
    des_actor *snd = des_actor_new(e, "sender", sender_main, &s);
    des_actor *rcv = des_actor_new(e, "sink", sink_main, &k);
    des_port *p[70];
    for (unsigned i = 0; i < 70; i++) {
        char name[16];
        g_snprintf(name, sizeof name, "p%u", i);
        p[i] = des_port_new(e, name, sizeof(msg), 2, 3, snd, rcv);
    }
    cr_assert_eq(des_port_input_index(p[69]), 69);
    unsigned words = 0;
    const uint64_t *busy = des_actor_busy_inputs(rcv, &words);
    cr_assert_eq(words, 2);
    cr_assert_eq(busy[0], 0);
    cr_assert_eq(busy[1], 0);
    msg m = {1};
    cr_assert(des_port_try_send(p[0], &m, 0));
    cr_assert(des_port_try_send(p[64], &m, 0));
    cr_assert(des_port_try_send(p[64], &m, 0));
    cr_assert(des_port_try_send(p[69], &m, 0));
    busy = des_actor_busy_inputs(rcv, &words);
    cr_assert_eq(busy[0], 1ull);
    cr_assert_eq(busy[1], (1ull << 0) | (1ull << 5));
    des_port_pop(p[64], 3);
    cr_assert_eq(busy[1], (1ull << 0) | (1ull << 5));
    des_port_pop(p[64], 3);
    cr_assert_eq(busy[1], 1ull << 5);
    cr_assert_eq(busy[0], 1ull);
    des_engine_free(e);
}

static void ticker_main(des_actor *self, void *data)
{
    int *count = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        (*count)++;
        des_wake_at(self, now + 10);
        now = des_block(self);
    }
}

Test(engine, limit_ends_an_endless_run)
{
    /* A block ticking every 10 ticks runs at 0, 10, ..., 100: 11 times. */
    des_engine *e = boot();
    static int count;
    des_actor_new(e, "ticker", ticker_main, &count);
    des_set_limit(e, 100);
    des_time end = des_run(e);
    cr_assert_eq(end, 100);
    cr_assert_eq(count, 11);
    des_counters c = des_get_counters(e);
    cr_assert_eq(c.wakeups, 11);
    cr_assert_eq(c.timestamps, 11);
}

Test(engine, second_engine_in_one_process_is_refused)
{
    des_engine *e = boot();
    char *err = NULL;
    cr_assert_null(des_engine_new(clk, 1, false, &err));
    cr_assert_not_null(strstr(err, "one simulation per process"));
    g_free(err);
    des_engine_free(e);
}

typedef struct stepper { int steps, done; des_time last; } stepper;

static void stepper_main(des_actor *self, void *data)
{
    stepper *s = data;
    des_time now = des_now(des_actor_engine(self));
    for (int i = 0; i < s->steps; i++) {
        des_wake_at(self, now + 5);
        now = des_block(self);
    }
    s->last = now;
    s->done = 1;   /* returning ends this block; time goes on for the others */
}

Test(engine, a_block_that_ends_does_not_stop_the_others)
{
    /* A steps 5 ticks once (ends at 5), B four times (ends at 20): the run
     * ends at 20, the last event. */
    des_engine *e = boot();
    static stepper a = {.steps = 1}, b = {.steps = 4};
    des_actor_new(e, "a", stepper_main, &a);
    des_actor_new(e, "b", stepper_main, &b);
    des_time end = des_run(e);
    cr_assert(a.done && b.done);
    cr_assert_eq(a.last, 5);
    cr_assert_eq(b.last, 20);
    cr_assert_eq(end, 20);
}

static void never_main(des_actor *self, void *data)
{
    (void)self;
    (void)data;
}

Test(port, ports_due_is_the_next_wake_up_after_a_time)
{
    /* The engine is not run: the ports are driven by hand. Port a -> b,
     * capacity 1, latency 3 (so credit delay 3). Sent at 2, delivered at
     * 5: after 0 the receiver is due at 5; after 5 it is not (a message
     * already delivered does not wake it again), nor while the port is
     * muted. Popped at 6, the slot is visible to the sender at 6 + 3 = 9:
     * a send refused at 7 leaves the sender waiting, due at 9 after 7 and
     * not after 9. */
    des_engine *e = boot();
    des_actor *a = des_actor_new(e, "a", never_main, NULL);
    des_actor *b = des_actor_new(e, "b", never_main, NULL);
    des_port *p = des_port_new(e, "p", sizeof(msg), 1, 3, a, b);
    msg m = {0};
    cr_assert(des_port_try_send(p, &m, 2));
    cr_assert_eq(des_ports_due(b, 0), 5);
    cr_assert_eq(des_ports_due(b, 5), DES_NEVER);
    des_port_mute(p, true);
    cr_assert_eq(des_ports_due(b, 0), DES_NEVER);
    des_port_mute(p, false);
    cr_assert_eq(des_ports_due(a, 2), DES_NEVER);   /* not waiting */
    des_port_pop(p, 6);
    cr_assert_not(des_port_try_send(p, &m, 7));
    cr_assert_eq(des_ports_due(a, 7), 9);
    cr_assert_eq(des_ports_due(a, 9), DES_NEVER);
    cr_assert_eq(des_ports_due(b, 7), DES_NEVER);   /* nothing in flight */
}
