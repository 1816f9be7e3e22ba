/* Arrival bounds from the ports' own state (issue 20): a full port takes
 * no message before its receiver pops one and the sender sees the slot
 * (slot_floor in src/des/port.c), and a muted input wakes nothing, so the
 * far end's earliest run leaves it out. Criterion forks a process per
 * test, which SimGrid needs (one engine per process). One 1000 MHz clock:
 * 1 cycle = 1 tick. */
#include <criterion/criterion.h>

#include "simtgrid/des.h"

typedef struct msg { int id; } msg;

static des_clock clk[1] = {{"core", 1000000, 0}};

static des_engine *boot(void)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    return e;
}

/* A receiver that records its input bounds at its first wake-ups. */
typedef struct recv {
    des_port *in;
    des_time pop_from, also;   /* takes nothing before pop_from; runs at `also` too */
    des_time at[4], plain[4], deep[4], later[4];   /* later: des_input_bound_deep from now + 4 */
    int n;
} recv;

static void recv_main(des_actor *self, void *data)
{
    recv *r = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        if (r->n < 4) {
            r->at[r->n] = now;
            r->plain[r->n] = des_input_bound(self);
            r->deep[r->n] = des_input_bound_deep(self, now);
            r->later[r->n++] = des_input_bound_deep(self, now + 4);
        }
        if (now >= r->pop_from)
            while (des_port_peek(r->in, now))
                des_port_pop(r->in, now);
        else
            des_wake_at(self, r->pop_from);
        if (now < r->also)
            des_wake_at(self, r->also);
        now = des_block(self);
    }
}

/* Sends one message on `p` at 0 and one on `q` at `qat`, then ends. */
typedef struct two_ports {
    des_port *p, *q;
    des_time qat;
} two_ports;

static void two_ports_main(des_actor *self, void *data)
{
    two_ports *s = data;
    msg m = {1};
    cr_assert(des_port_try_send(s->p, &m, 0));
    des_wake_at(self, s->qat);
    des_time now = des_block(self);
    cr_assert(des_port_try_send(s->q, &m, now));
}

static void drain_main(des_actor *self, void *data)
{
    des_port *in = *(des_port **)data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        while (des_port_peek(in, now))
            des_port_pop(in, now);
        now = des_block(self);
    }
}

Test(bound_ports, a_full_port_bounds_its_next_arrival_by_the_pop)
{
    /* A sends on p (A -> B, capacity 1, latency 3: credit delay 3) at 0,
     * which fills it, and on q (A -> C) at 2. At 0, after A, B runs and
     * takes nothing before 10. A is due at 2, so by its state alone its
     * next message on p could leave at 2 and arrive at 5 (the plain
     * bound, which does not look at the ports' state). But p is full: B
     * pops no sooner than now = 0 (deep bound from 4: no sooner than 4),
     * and A sees the slot 3 later, so it sends no sooner than 3 (7) and
     * the message arrives at 6 (10). At 3 (the delivery; B still waits) A
     * has ended and asks for nothing: plain 3 + 3 + 3 = 9 (its lookahead
     * is q's credit delay); the deep bound finds no run of A at all. */
    des_engine *e = boot();
    static two_ports a = {.qat = 2};
    static recv b = {.pop_from = 10};
    static des_port *cq;
    des_actor *sa = des_actor_new(e, "a", two_ports_main, &a);
    des_actor *rb = des_actor_new(e, "b", recv_main, &b);
    des_actor *sc = des_actor_new(e, "c", drain_main, &cq);
    a.p = b.in = des_port_new(e, "p", sizeof(msg), 1, 3, sa, rb);
    a.q = cq = des_port_new(e, "q", sizeof(msg), 4, 3, sa, sc);
    des_run(e);
    cr_assert_geq(b.n, 2);
    cr_assert_eq(b.at[0], 0);
    cr_assert_eq(b.plain[0], 5);
    cr_assert_eq(b.deep[0], 6);    /* 5 without the slot */
    cr_assert_eq(b.later[0], 10);  /* 5 */
    cr_assert_eq(b.at[1], 3);
    cr_assert_eq(b.plain[1], 9);
    cr_assert_eq(b.deep[1], DES_NEVER);
}

/* Mutes its input r at 0, sends on p at 0, and sleeps until 10, where it
 * unmutes r, takes what is there and ends. */
typedef struct muter {
    des_port *r, *p;
} muter;

static void muter_main(des_actor *self, void *data)
{
    muter *a = data;
    des_port_mute(a->r, true);
    msg m = {1};
    cr_assert(des_port_try_send(a->p, &m, 0));
    des_wake_at(self, 10);
    des_time now = des_block(self);
    des_port_mute(a->r, false);
    while (des_port_peek(a->r, now))
        des_port_pop(a->r, now);
}

/* Sends one message on its port at 1. */
static void late_main(des_actor *self, void *data)
{
    des_port *out = *(des_port **)data;
    des_wake_at(self, 1);
    des_time now = des_block(self);
    msg m = {2};
    cr_assert(des_port_try_send(out, &m, now));
}

Test(bound_ports, the_far_end_muted_input_wakes_nothing)
{
    /* A (mutes r, sends on p at 0, sleeps until 10); B receives p
     * (latency 3); C sends on r (C -> A, latency 2) at 1. At 0 C is due
     * and has not run (created after B), so a message on r could reach A
     * at 0 + 2 = 2; but r is muted and wakes nothing: A runs no sooner
     * than its wake-up at 10, and the deep bound is 10 + 3 = 13 (5 with
     * r counted). At 3 (p's delivery; C sent at 1 and ended, its message
     * on r waiting muted) still 13 (10 with r: 3 + 2 + 2 + 3). The plain
     * bound (A's lookahead, 2: r's latency) is unchanged: 5, then 8. */
    des_engine *e = boot();
    static muter a;
    static recv b = {.pop_from = 0};
    static des_port *rport;
    des_actor *sa = des_actor_new(e, "a", muter_main, &a);
    des_actor *rb = des_actor_new(e, "b", recv_main, &b);
    des_actor *sc = des_actor_new(e, "c", late_main, &rport);
    a.p = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, sa, rb);
    a.r = rport = des_port_new(e, "r", sizeof(msg), 4, 2, sc, sa);
    des_run(e);
    cr_assert_geq(b.n, 2);
    cr_assert_eq(b.at[0], 0);
    cr_assert_eq(b.deep[0], 13);
    cr_assert_eq(b.plain[0], 5);
    cr_assert_eq(b.at[1], 3);
    cr_assert_eq(b.deep[1], 13);
    cr_assert_eq(b.plain[1], 8);
}

/* Promises on `p` (next 20, delay 5) at 0, sleeps until 2, promises
 * (next 6, delay 5), sleeps until 20, sends, and ends with no promise. */
static void promiser_main(des_actor *self, void *data)
{
    des_port *p = *(des_port **)data;
    des_port_promise(p, 20, 5);
    des_wake_at(self, 2);
    des_time now = des_block(self);
    des_port_promise(p, 6, 5);
    des_wake_at(self, 20);
    now = des_block(self);
    msg m = {1};
    cr_assert(des_port_try_send(p, &m, now));
    des_port_promise(p, DES_NEVER, 0);
}

Test(bound_ports, a_sender_promise_bounds_its_sends)
{
    /* S -> B, latency 3 (S's lookahead 3); B runs at 0 and 2, after S.
     * At 0 S is due at 2, so by its state it could send at 2, arriving at
     * 5 (the plain bound, which does not read promises); it promised
     * nothing before 20 from what it holds and nothing before 5 after a
     * run: deep bound min(20, 2 + 5) + 3 = 10. At 2 S is due at 20 (no
     * inputs) and promises something for 6, but it sends only when it
     * runs, so a promise never lowers the bound below its earliest run:
     * max(20, min(6, 20 + 5)) + 3 = 23 (9 if it did); plain
     * min(20, 2 + 3) + 3 = 8. */
    des_engine *e = boot();
    static des_port *sp;
    static recv b = {.pop_from = 0, .also = 2};
    des_actor *ss = des_actor_new(e, "s", promiser_main, &sp);
    des_actor *rb = des_actor_new(e, "b", recv_main, &b);
    sp = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, ss, rb);
    des_run(e);
    cr_assert_geq(b.n, 3);
    cr_assert_eq(b.at[0], 0);
    cr_assert_eq(b.plain[0], 5);
    cr_assert_eq(b.deep[0], 10);    /* 5 without the promise */
    cr_assert_eq(b.at[1], 2);
    cr_assert_eq(b.plain[1], 8);
    cr_assert_eq(b.deep[1], 23);    /* 9 if the promise could lower it */
    cr_assert_eq(b.at[2], 23);      /* the message sent at 20 */
}

/* ---- des_port_arrival_floor and des_port_pop_after (issue 20) --------- */

/* Promises on `p` (next 20, delay 5) at 0 and sleeps until 30. */
static void promise_once_main(des_actor *self, void *data)
{
    des_port *p = *(des_port **)data;
    des_port_promise(p, 20, 5);
    des_wake_at(self, 30);
    des_block(self);
}

/* Records des_port_arrival_floor of its input at 0 and 2. */
typedef struct floor_rec {
    des_port *in;
    des_time at[2], floor[2];
} floor_rec;

static void floor_main(des_actor *self, void *data)
{
    floor_rec *r = data;
    des_time now = des_now(des_actor_engine(self));
    for (int i = 0; i < 2; i++) {
        r->at[i] = now;
        r->floor[i] = des_port_arrival_floor(r->in);
        if (i == 0)
            des_wake_at(self, 2);
        now = des_block(self);
    }
}

Test(bound_ports, arrival_floor_reads_the_sender_promise)
{
    /* S -> B, latency 3. S promises at 0 (next 20, delay 5); its next run
     * is taken as the engine's time: at 0, max(0, min(0 + 5, 20)) + 3 = 8;
     * at 2, max(2, min(2 + 5, 20)) + 3 = 10 (3 and 5 without the promise). */
    des_engine *e = boot();
    static des_port *sp;
    static floor_rec b;
    des_actor *ss = des_actor_new(e, "s", promise_once_main, &sp);
    des_actor *rb = des_actor_new(e, "b", floor_main, &b);
    sp = b.in = des_port_new(e, "p", sizeof(msg), 4, 3, ss, rb);
    des_run(e);
    cr_assert_eq(b.at[0], 0);
    cr_expect_eq(b.floor[0], 8);
    cr_assert_eq(b.at[1], 2);
    cr_expect_eq(b.floor[1], 10);
}

/* Promises to pop nothing from `p` before 20 and sleeps until 30. */
static void pop_later_main(des_actor *self, void *data)
{
    des_port *p = *(des_port **)data;
    des_port_pop_after(p, 20);
    des_wake_at(self, 30);
    des_block(self);
}

/* Asks at 1 for the credit bound of `p` (its output) from 1. */
typedef struct credit_rec {
    des_port *out;
    des_time bound;
} credit_rec;

static void credit_main(des_actor *self, void *data)
{
    credit_rec *r = data;
    des_wake_at(self, 1);
    des_time now = des_block(self);
    r->bound = des_port_credit_bound(r->out, now);
}

Test(bound_ports, a_receiver_pop_promise_bounds_the_credit)
{
    /* S -> R, latency (and credit delay) 1. R is due at 30, but a message
     * S sends at 1 reaches it at 2 and could wake it then: a slot it pops
     * then is seen at 3. R promised at 0 to pop nothing before 20: 21. */
    des_engine *e = boot();
    static des_port *rp;
    static credit_rec s;
    des_actor *rr = des_actor_new(e, "r", pop_later_main, &rp);
    des_actor *ss = des_actor_new(e, "s", credit_main, &s);
    rp = s.out = des_port_new(e, "p", sizeof(msg), 1, 1, ss, rr);
    des_run(e);
    cr_expect_eq(s.bound, 21);
}
