/* One DRAM bank driven alone (dram_bank.c), no controller around it: the
 * row-buffer outcome of each start, and the row-hint hold (Narasiman's
 * dissertation, sec. 7.2) armed when a hinted request's data is done at
 * cycle 500 with hint_hold_cycles = 200: it holds over [500, 700). */
#include "mem/dram_bank.h"

#include <criterion/criterion.h>
#include <string.h>

static memctrl_stats st;

static void setup(void)
{
    memset(&st, 0, sizeof st);
    stats_hist_init_log2(&st.hold_wait, 20);
}

TestSuite(dram_bank, .init = setup);

/* Closed bank: a miss; open row 7 then a row-7 request: a hit; row 9: a
 * conflict. Counted on both the bank and the channel statistics. */
Test(dram_bank, start_classifies_by_row_buffer)
{
    mc_bank b;
    dram_bank_init(&b, 3);
    cr_assert_eq(b.open_row, ROW_CLOSED);
    cr_assert_eq(b.group, 3);
    cr_assert_eq(b.bound, MC_NONE);
    mc_req r = {.row = 7};
    dram_bank_start(&st, &b, &r, 10);
    b.open_row = 7;                     /* the timing model's ACT */
    dram_bank_start(&st, &b, &r, 20);
    mc_req other = {.row = 9};
    dram_bank_start(&st, &b, &other, 30);
    cr_assert_eq(st.row_misses, 1);
    cr_assert_eq(st.row_hits, 1);
    cr_assert_eq(st.row_conflicts, 1);
    cr_assert_eq(b.started, 3);
    cr_assert_eq(b.row_hits, 1);
}

/* A hinted request done at 500 arms the hold until 700; a same-row start
 * at 650 ends it as a hit after 650 - 500 = 150 cycles of waiting. */
Test(dram_bank, hinted_done_arms_hold_and_same_row_start_hits_it)
{
    dram_params p = {.hint_hold_cycles = 200, .page_policy = DRAM_PAGE_OPEN};
    memctrl mc = {.p = p};
    mc_bank b;
    dram_bank_init(&b, 0);
    b.open_row = 7;
    mc_req hinted = {.row = 7, .done = 500, .hint = true};
    dram_bank_done(&mc, &b, &hinted, 490);
    cr_assert(b.hold);
    cr_assert_eq(b.hold_from, 500);
    cr_assert_eq(b.hold_until, 700);
    cr_assert_eq(mc_hold_floor(&b), 700);
    cr_assert_eq(mc.st.hint_holds, 1);
    mc_req next = {.row = 7};
    dram_bank_start(&st, &b, &next, 650);
    cr_assert_not(b.hold);
    cr_assert_eq(mc_hold_floor(&b), 0);
    cr_assert_eq(st.hint_hold_hits, 1);
    cr_assert_eq(st.hint_hold_expired, 0);
    cr_assert_eq(st.hold_wait.samples, 1);
    cr_assert_eq(st.hold_wait.sum, 150.0);
}

/* A start at 700 (the window's end, exclusive) or for another row expires
 * the hold; so does a refresh. */
Test(dram_bank, hold_expires_at_window_end_other_row_or_refresh)
{
    mc_bank b;
    dram_bank_init(&b, 0);
    b.open_row = 7;
    b.hold = true, b.hold_from = 500, b.hold_until = 700;
    mc_req same = {.row = 7};
    dram_bank_start(&st, &b, &same, 700);
    b.hold = true;
    mc_req other = {.row = 8};
    dram_bank_start(&st, &b, &other, 600);
    b.hold = true;
    dram_bank_refreshed(&st, &b);
    cr_assert_not(b.hold);
    cr_assert(b.dirty);
    cr_assert_eq(st.hint_hold_expired, 3);
    cr_assert_eq(st.hint_hold_hits, 0);
}
