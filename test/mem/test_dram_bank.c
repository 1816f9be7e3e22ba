/* One DRAM bank actor (dram_bank.c) driven alone: the test is its
 * controller, sending scripted messages at group ticks (8 a DRAM cycle,
 * DRAM_BANK_TICKS) and reading the bank's reports, with no channel around.
 * A message sent at tick 8c is applied at 8c + 1 and its report arrives at
 * 8c + 2 (both ports have a latency of 1 tick).
 *
 * Full timing with tRCD = 12, tRP = 12, tRAS = 28, tRC = 40, tWR = 14 (burst
 * 4 cycles, tCL = 12, tWL = 5 as the controller would compute the data's
 * end), hint_hold_cycles = 200. */
#include "mem/dram_bank.h"

#include <criterion/criterion.h>
#include <glib.h>

static dram_params p;
static des_lgroup *g;
static dram_bank_actor ba;

static void setup(void)
{
    p = (dram_params){.tRCD = 12, .tRP = 12, .tRAS = 28, .tRC = 40, .tWR = 14,
                      .hint_hold_cycles = 200, .page_policy = DRAM_PAGE_OPEN};
    g = des_lgroup_new("test.banks");
    dram_bank_actor_init(&ba, g, "bank0", &p, &dram_timing_full);
    des_lgroup_run(g, 0);   /* the bank's set-up run */
}

static void teardown(void)
{
    des_lgroup_free(g);
}

TestSuite(dram_bank, .init = setup, .fini = teardown);

static void send(uint64_t cycle, dram_bank_msg m)
{
    m.t = cycle;
    cr_assert(des_lport_send(ba.in, &m, cycle * DRAM_BANK_TICKS));
}

/* Run the bank to just before the reports of messages sent at `cycle`
 * arrive, check they arrive at 8 * cycle + 2 exactly, and take them. */
static unsigned reports(uint64_t cycle, dram_bank_report *out, unsigned max)
{
    des_time sent = cycle * DRAM_BANK_TICKS;
    des_lgroup_run(g, sent + 1);
    cr_assert_eq(des_lport_next(ba.out), sent + 2, "report due at %" G_GUINT64_FORMAT
                 ", got %" G_GUINT64_FORMAT, sent + 2, des_lport_next(ba.out));
    cr_assert_null(des_lport_peek(ba.out, sent + 1), "no report before its tick");
    des_lgroup_run(g, sent + 2);
    unsigned n = 0;
    dram_bank_report *r;
    while ((r = des_lport_peek(ba.out, sent + 2))) {
        cr_assert_lt(n, max);
        out[n++] = *r;
        des_lport_pop(ba.out, sent + 2);
    }
    return n;
}

/* A request for row 7 on a closed bank: START and ACT at cycle 10 (a row
 * miss; the column may follow at 10 + tRCD = 22, a precharge at 10 + tRAS
 * = 38, the next ACT at 10 + tRC = 50). RD at 22, burst 4: a precharge after
 * the burst (26) is still bound by tRAS (38). Its data ends at 22 + 12 + 4
 * = 38 and it was hinted: the hold lasts [38, 238).
 *
 * A row-9 request starts at cycle 100: a conflict, and the hold ends as
 * expired (another row). PRE at 100: ACT from 100 + tRP = 112 (after 50).
 * ACT at 112: column from 124, PRE from 112 + 28 = 140, ACT from 152. WR at
 * 124: its data ends at 124 + 5 + 4 = 133, PRE from 133 + tWR = 147.
 *
 * Refresh due at 300: the open row precharges at max(300, 147) = 300, so ACT
 * from 312; the refresh ends at 400: ACT from 400. */
Test(dram_bank, full_timing_script)
{
    dram_bank_report r[4];
    send(10, (dram_bank_msg){.kind = DRAM_BANK_START, .row = 7});
    send(10, (dram_bank_msg){.kind = DRAM_BANK_CMD, .cmd = DRAM_CMD_ACT, .row = 7});
    cr_assert_eq(reports(10, r, 4), 2);
    cr_expect_eq(r[0].ev, DRAM_EV_ROW_MISS);
    cr_expect_eq(r[1].ev, DRAM_EV_ACT);
    cr_expect_eq(r[1].open_row, 7);
    cr_expect_eq(r[1].next_col, 22);
    cr_expect_eq(r[1].next_pre, 38);
    cr_expect_eq(r[1].next_act, 50);

    send(22, (dram_bank_msg){.kind = DRAM_BANK_CMD, .cmd = DRAM_CMD_RD, .row = 7, .a = 38, .b = 4});
    send(22, (dram_bank_msg){.kind = DRAM_BANK_DONE, .a = 38, .hint = true});
    cr_assert_eq(reports(22, r, 4), 2);
    cr_expect_eq(r[0].ev, 0);
    cr_expect_eq(r[0].next_pre, 38);
    cr_expect_eq(r[1].ev, DRAM_EV_HOLD);
    cr_expect(r[1].hold);
    cr_expect_eq(r[1].hold_until, 238);

    send(100, (dram_bank_msg){.kind = DRAM_BANK_START, .row = 9});
    send(100, (dram_bank_msg){.kind = DRAM_BANK_CMD, .cmd = DRAM_CMD_PRE, .row = 9});
    cr_assert_eq(reports(100, r, 4), 2);
    cr_expect_eq(r[0].ev, DRAM_EV_ROW_CONFLICT | DRAM_EV_HOLD_EXPIRED);
    cr_expect_not(r[0].hold);
    cr_expect_eq(r[1].ev, DRAM_EV_PRE);
    cr_expect_eq(r[1].open_row, ROW_CLOSED);
    cr_expect_eq(r[1].next_act, 112);

    send(112, (dram_bank_msg){.kind = DRAM_BANK_CMD, .cmd = DRAM_CMD_ACT, .row = 9});
    cr_assert_eq(reports(112, r, 4), 1);
    cr_expect_eq(r[0].next_col, 124);
    cr_expect_eq(r[0].next_pre, 140);
    cr_expect_eq(r[0].next_act, 152);

    send(124, (dram_bank_msg){.kind = DRAM_BANK_CMD, .cmd = DRAM_CMD_WR, .row = 9, .write = true,
                              .a = 133, .b = 4});
    cr_assert_eq(reports(124, r, 4), 1);
    cr_expect_eq(r[0].next_pre, 147);

    send(300, (dram_bank_msg){.kind = DRAM_BANK_REFRESH, .a = 300});
    cr_assert_eq(reports(300, r, 4), 1);
    cr_expect_eq(r[0].ev, DRAM_EV_PRE);
    cr_expect_eq(r[0].next_act, 312);
    send(301, (dram_bank_msg){.kind = DRAM_BANK_REFRESH_END, .a = 400});
    cr_assert_eq(reports(301, r, 4), 1);
    cr_expect_eq(r[0].next_act, 400);
    cr_expect_eq(r[0].open_row, ROW_CLOSED);
}

/* The row-hint hold (Narasiman's dissertation, sec. 7.2): a hinted request
 * done at 500 holds row 7 over [500, 700). A row-7 start at 650 ends it as a
 * hit after 150 cycles; re-armed, a row-7 start at 700 (the window's end,
 * exclusive) expires it; re-armed, a refresh expires it. */
Test(dram_bank, hint_hold_hit_window_end_and_refresh)
{
    dram_bank_report r[4];
    send(480, (dram_bank_msg){.kind = DRAM_BANK_CMD, .cmd = DRAM_CMD_ACT, .row = 7});
    send(480, (dram_bank_msg){.kind = DRAM_BANK_DONE, .a = 500, .hint = true});
    cr_assert_eq(reports(480, r, 4), 2);
    cr_expect_eq(r[1].hold_until, 700);
    send(650, (dram_bank_msg){.kind = DRAM_BANK_START, .row = 7});
    cr_assert_eq(reports(650, r, 4), 1);
    cr_expect_eq(r[0].ev, DRAM_EV_ROW_HIT | DRAM_EV_HOLD_HIT);
    cr_expect_eq(r[0].hold_wait, 150);
    cr_expect_not(r[0].hold);

    send(660, (dram_bank_msg){.kind = DRAM_BANK_DONE, .a = 500, .hint = true});
    cr_assert_eq(reports(660, r, 4), 1);
    send(700, (dram_bank_msg){.kind = DRAM_BANK_START, .row = 7});
    cr_assert_eq(reports(700, r, 4), 1);
    cr_expect_eq(r[0].ev, DRAM_EV_ROW_HIT | DRAM_EV_HOLD_EXPIRED, "ev %u", r[0].ev);

    /* Full timing: the refresh's end only bounds the next ACT (the row was
     * closed by the refresh's start), so the one event is the expiry. */
    send(800, (dram_bank_msg){.kind = DRAM_BANK_DONE, .a = 800, .hint = true});
    send(800, (dram_bank_msg){.kind = DRAM_BANK_REFRESH_END, .a = 900});
    cr_assert_eq(reports(800, r, 4), 2);
    cr_expect_eq(r[1].ev, DRAM_EV_HOLD_EXPIRED, "ev %u", r[1].ev);
    cr_expect_not(r[1].hold);
    cr_expect_eq(r[1].next_act, 900);
}
