/* The engine runs the blocks due at one time in actor-id order, whichever
 * block advanced time to it. Three blocks a0 < a1 < a2 (creation order):
 * all run at 0 (set-up); a1 alone at 1 and 2; then all three at 3, so a1 is
 * the block that advances time from 2 to 3. Expected log: 0 1 2 at time 0,
 * 1 at 1, 1 at 2, 0 1 2 at time 3. (Before the batch relay, a1 ran last at
 * 3: the block it released first advanced the rest itself.) */
#include <criterion/criterion.h>

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
