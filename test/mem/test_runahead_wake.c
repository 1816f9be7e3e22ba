/* A block running ahead must not lose a wake-up to one it asked for a
 * cycle it has run over already (issue 20, src/mem/runahead.h): such a
 * stale wake-up used to keep the block's one wake-heap entry, and a later
 * request, made while it slept (a pop's wake-up of a waiting sender), was
 * merged into it and lost when it fired and ran nothing. One clock of 1
 * tick a cycle; a sender S acting on edges sends into port p (capacity 1,
 * latency and credit delay 3) to a receiver R that pops at 3. */
#include <criterion/criterion.h>

#include "mem/runahead.h"

static des_clock clk[1] = {{"core", 1000000, 0}};
typedef struct msg { int id; } msg;

typedef struct sender {
    des_port *p;
    int sent;            /* messages sent */
    des_time second_at;  /* when the second one left */
} sender;

/* R, first at 0, asks to pop at 3. S asks at 0 for a timer at 5, then
 * runs cycles 0 to 5 at once (R's pop, its only way to free the slot, is
 * seen no sooner than 3 + 3 = 6: des_port_credit_bound): m1
 * goes at 0, m2 is refused from 1 on (S waits for the slot). After cycle
 * 5 it sleeps with nothing of its own until 20. R pops m1 at 3 and so
 * wakes S at 6, the slot's time: S sends m2 then. The timer at 5 is
 * stale (cycle 5 ran). */
static void sender_main(des_actor *self, void *data)
{
    sender *s = data;
    runahead ra = RUNAHEAD_INIT;
    des_time now = des_now(des_actor_engine(self));
    des_wake_at(self, 5);
    for (;;) {
        uint64_t c;
        if (!runahead_due(self, &clk[0], &ra, &now, &c))
            continue;
        for (;; c++) {
            msg m = {s->sent};
            if (s->sent < 2 && des_port_try_send(s->p, &m, (des_time)c)) {
                if (++s->sent == 2)
                    s->second_at = (des_time)c;
            }
            runahead_ran(&ra, c, UINT64_MAX);
            if (c + 1 >= des_port_credit_bound(s->p, (des_time)c + 1) || c >= 5)
                break;
        }
        ra.own = ra.last < 20 && s->sent < 2 ? 20 : UINT64_MAX;
        now = runahead_sleep(self, &clk[0], &ra);
    }
}

static void receiver_main(des_actor *self, void *data)
{
    des_port *p = *(des_port **)data;
    des_wake_at(self, 3);
    des_time now = des_block(self);
    for (;;) {
        while (des_port_peek(p, now))
            des_port_pop(p, now);
        now = des_block(self);
    }
}

Test(runahead_wake, a_stale_wake_up_does_not_hide_a_later_one)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    static sender s;
    static des_port *rp;
    des_actor *ra = des_actor_new(e, "r", receiver_main, &rp);   /* runs first at 0 */
    des_actor *sa = des_actor_new(e, "s", sender_main, &s);
    des_actor_wake_on_edges(sa, &clk[0]);
    s.p = rp = des_port_new(e, "p", sizeof(msg), 1, 3, sa, ra);
    des_set_limit(e, 40);
    des_run(e);
    cr_assert_eq(s.sent, 2);
    cr_expect_eq(s.second_at, 6);   /* 20 when the wake-up at 6 was lost */
}
