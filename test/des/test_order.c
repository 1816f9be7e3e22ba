/* The engine runs the blocks due at one time in actor-id order, whichever
 * block advanced time to it. Three blocks a0 < a1 < a2 (creation order):
 * all run at 0 (set-up); a1 alone at 1 and 2; then all three at 3, so a1 is
 * the block that advances time from 2 to 3. Expected log: 0 1 2 at time 0,
 * 1 at 1, 1 at 2, 0 1 2 at time 3. (Before the batch relay, a1 ran last at
 * 3: the block it released first advanced the rest itself.) */
#include <criterion/criterion.h>

#include <simgrid/engine.h>

#include "simtgrid/des.h"

static des_clock clk[1] = {{"core", 1000000, 0}};

typedef struct order_log {
    des_time at[16];
    unsigned who[16];
    unsigned n;
} order_log;

static order_log lg;

typedef struct plan {
    unsigned id;
    des_time wake[4];   /* wake times after the set-up run, 0 ends */
} plan;

static void block_main(des_actor *self, void *data)
{
    plan *p = data;
    des_time now = des_now(des_actor_engine(self));
    for (unsigned i = 0;; i++) {
        if (lg.n < 16) {
            lg.at[lg.n] = now;
            lg.who[lg.n++] = p->id;
        }
        if (i < 4 && p->wake[i])
            des_wake_at(self, p->wake[i]);
        now = des_block(self);
    }
}

Test(order, same_time_blocks_run_in_id_order_whoever_advanced_time)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    static plan p0 = {0, {3}}, p1 = {1, {1, 2, 3}}, p2 = {2, {3}};
    des_actor_new(e, "a0", block_main, &p0);
    des_actor_new(e, "a1", block_main, &p1);
    des_actor_new(e, "a2", block_main, &p2);
    des_run(e);
    const des_time at[] = {0, 0, 0, 1, 2, 3, 3, 3};
    const unsigned who[] = {0, 1, 2, 1, 1, 0, 1, 2};
    cr_assert_eq(lg.n, 8);
    for (unsigned i = 0; i < 8; i++) {
        cr_expect_eq(lg.at[i], at[i], "entry %u", i);
        cr_expect_eq(lg.who[i], who[i], "entry %u: block a%u ran, a%u expected", i, lg.who[i], who[i]);
    }
}

typedef struct replacer {
    des_time asked, instead;   /* at its set-up run: des_wake_at(asked), then des_wake_instead(instead) */
} replacer;

static void replacer_main(des_actor *self, void *data)
{
    replacer *r = data;
    des_time now = des_now(des_actor_engine(self));
    for (bool first = true;; first = false) {
        if (lg.n < 16) {
            lg.at[lg.n] = now;
            lg.who[lg.n++] = 9;
        }
        if (first) {
            des_wake_at(self, r->asked);
            des_wake_instead(self, r->instead);
        }
        now = des_block(self);
    }
}

Test(order, wake_instead_replaces_an_earlier_request)
{
    /* Four blocks wake at 3, 4, 6 and 7; the replacer asks for 2, then
     * for 5 instead (a later time: des_wake_at would keep 2). Taken out of
     * the wake-up heap and put back, it runs at 5 and not at 2, and the
     * others at their own times. Expected log after the set-up runs at 0
     * (ids 0..3, then 9): 0 at 3, 1 at 4, 9 at 5, 2 at 6, 3 at 7. A second
     * replacer asks for 4, then for no wake-up at all (DES_NEVER): it runs
     * only at its set-up. */
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    static plan p[4] = {{0, {3}}, {1, {4}}, {2, {6}}, {3, {7}}};
    for (unsigned i = 0; i < 4; i++)
        des_actor_new(e, "a", block_main, &p[i]);
    static replacer r = {2, 5}, never = {4, DES_NEVER};
    des_actor_new(e, "r", replacer_main, &r);
    des_actor_new(e, "n", replacer_main, &never);
    lg.n = 0;
    des_run(e);
    const des_time at[] = {0, 0, 0, 0, 0, 0, 3, 4, 5, 6, 7};
    const unsigned who[] = {0, 1, 2, 3, 9, 9, 0, 1, 9, 2, 3};
    cr_assert_eq(lg.n, 11);
    for (unsigned i = 0; i < 11; i++) {
        cr_expect_eq(lg.at[i], at[i], "entry %u", i);
        cr_expect_eq(lg.who[i], who[i], "entry %u: block %u ran, %u expected", i, lg.who[i], who[i]);
    }
}

typedef struct ender {
    unsigned id;
    unsigned runs;      /* its body returns after this many runs (0: never) */
    des_time wake[6];   /* wake times after each run, 0: none */
    bool stop;          /* des_stop at its last run instead of returning */
} ender;

static void ender_main(des_actor *self, void *data)
{
    ender *p = data;
    des_time now = des_now(des_actor_engine(self));
    for (unsigned i = 0;; i++) {
        if (lg.n < 16) {
            lg.at[lg.n] = now;
            lg.who[lg.n++] = p->id;
        }
        if (p->runs && i + 1 == p->runs) {
            if (!p->stop)
                return;
            des_stop(des_actor_engine(self));
        }
        if (i < 6 && p->wake[i])
            des_wake_at(self, p->wake[i]);
        now = des_block(self);
    }
}

Test(order, a_block_that_returns_or_stops_mid_batch_lets_the_rest_of_it_run)
{
    /* e0, e1, e2 run at 0, then all at 2. e1's body returns after its run
     * at 2: e2 still runs at 2, after it. At 4 e0 and e2 (e1 is gone); e0's
     * body returns then, first of its batch. At 6 e2 alone, then e2 and e3
     * at 7, where e3 (created last, set-up at 0, then 7) calls des_stop: the
     * blocks due at the end time still run (e2 before it by id), and
     * nothing after 7 (e2 asked for 8). Log: 0 1 2 3 at 0, 0 1 2 at 2,
     * 0 2 at 4, 2 at 6, 2 3 at 7. */
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    static ender e0 = {0, 3, {2, 4}, false}, e1 = {1, 2, {2}, false},
                 e2 = {2, 0, {2, 4, 6, 7, 8}, false}, e3 = {3, 2, {7}, true};
    des_actor_new(e, "e0", ender_main, &e0);
    des_actor_new(e, "e1", ender_main, &e1);
    des_actor_new(e, "e2", ender_main, &e2);
    des_actor_new(e, "e3", ender_main, &e3);
    lg.n = 0;
    des_time end = des_run(e);
    const des_time at[] = {0, 0, 0, 0, 2, 2, 2, 4, 4, 6, 7, 7};
    const unsigned who[] = {0, 1, 2, 3, 0, 1, 2, 0, 2, 2, 2, 3};
    cr_expect_eq(end, 7);
    cr_assert_eq(lg.n, 12, "%u runs", lg.n);
    for (unsigned i = 0; i < 12; i++) {
        cr_expect_eq(lg.at[i], at[i], "entry %u", i);
        cr_expect_eq(lg.who[i], who[i], "entry %u: block e%u ran, e%u expected", i, lg.who[i], who[i]);
    }
}

Test(order, the_exact_clock_ends_in_step_after_inline_runs)
{
    /* With SimGrid's clock exact, a block due alone runs on without
     * SimGrid (its clock catches up at the next switch). A lone block that
     * wakes at 1..5 and then no more ends the run at 5: SimGrid's clock must
     * read 5 too, as the design says simulated time is SimGrid's clock at
     * the end of every run. */
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e, "%s", err ? err : "");
    des_set_lazy_clock(e, false);
    static ender lone = {0, 0, {1, 2, 3, 4, 5}, false};
    des_actor_new(e, "lone", ender_main, &lone);
    lg.n = 0;
    cr_assert_eq(des_run(e), 5);
    cr_expect_eq(lg.n, 6);
    cr_expect_eq(des_get_counters(e).inline_runs, 5);
    cr_expect_eq(simgrid_get_clock(), 5.0);
}
