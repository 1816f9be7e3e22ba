/* Row-locality hint hold (Narasiman's dissertation, section 7.2): a hinted
 * request's bank keeps its row open for hint_hold_cycles after the data is
 * done; a request for another row may not start there in that window unless
 * a same-row request is waiting (which is served first, as a hit). */
#include "test_dram_util.h"

/* Simple model, H 100, C 300, window 200. A (row 1, hinted) at 0: done
 * 300, hold until 500. B (row 2) arrives at 10. */
Test(memctrl_hint, follow_on_hit_within_window_simple)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* C (row 1) arrives at 400, inside the window: a hit, may start at
     * 400 (>= 0 + 200 + 4): done 500. B then starts when the bank is idle
     * (500): done 800. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128, .hint = true},
                      {.at = 10, .bank = 0, .row = 2, .bytes = 128},
                      {.at = 400, .bank = 0, .row = 1, .col = 128, .bytes = 128}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 300);
    cr_assert_eq(done[2], 500);
    cr_assert_eq(done[1], 800);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->hint_holds, 1);
    cr_assert_eq(st->hint_hold_hits, 1);
    cr_assert_eq(st->hint_hold_expired, 0);
    cr_assert_eq(st->row_hits, 1);
    rig_free(&r);
}

Test(memctrl_hint, same_stream_without_hint_closes_the_row)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* No hint: B starts at 300 (bank idle): 600; C then conflicts: 900. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 10, .bank = 0, .row = 2, .bytes = 128},
                      {.at = 400, .bank = 0, .row = 1, .col = 128, .bytes = 128}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 600);
    cr_assert_eq(done[2], 900);
    cr_assert_eq(memctrl_get_stats(r.mc)->row_hits, 0);
    rig_free(&r);
}

Test(memctrl_hint, hold_released_after_window)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* No follow-on: B waits out the window and starts at 500: done 800.
     * A late same-row request at 600 then conflicts (row 2 open): it starts
     * when the bank is idle at 800: done 1100. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128, .hint = true},
                      {.at = 10, .bank = 0, .row = 2, .bytes = 128},
                      {.at = 600, .bank = 0, .row = 1, .col = 128, .bytes = 128}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 800);
    cr_assert_eq(done[2], 1100);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->hint_hold_hits, 0);
    cr_assert_eq(st->hint_hold_expired, 1);
    rig_free(&r);
}

Test(memctrl_hint, window_is_a_parameter)
{
    dram_params p;
    simple_params(&p);
    p.hint_hold_cycles = 50;
    dram_rig r;
    rig_init(&r, &p);
    /* Hold until 300 + 50 = 350: B starts at 350, done 650. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128, .hint = true},
                      {.at = 10, .bank = 0, .row = 2, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 650);
    rig_free(&r);
}

Test(memctrl_hint, hold_only_blocks_its_own_bank)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* B goes to bank 1 (closed): starts at 10, done max(310, 300 + 4) = 310. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128, .hint = true},
                      {.at = 10, .bank = 1, .row = 2, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 310);
    rig_free(&r);
}

Test(memctrl_hint, follow_on_hit_within_window_full)
{
    dram_params p;
    full_params(&p);
    p.hint_hold_cycles = 50;
    dram_rig r;
    rig_init(&r, &p);
    /* A (row 1, hinted): ACT 0, RD 12, done 26, hold until 76. B (row 2) at
     * 1 is held back; C (row 1) at 60: RD 60, done 74. B then: PRE at
     * max(61, tRAS 28, 60 + 2) = 62, ACT 72, RD 84, done 98. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64, .hint = true},
                      {.at = 1, .bank = 0, .row = 2, .bytes = 64},
                      {.at = 60, .bank = 0, .row = 1, .col = 64, .bytes = 64}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[2], 74);
    cr_assert_eq(done[1], 98);
    rig_free(&r);
}

Test(memctrl_hint, hold_expires_full)
{
    dram_params p;
    full_params(&p);
    p.hint_hold_cycles = 50;
    dram_rig r;
    rig_init(&r, &p);
    /* No follow-on: B's PRE waits until 76, ACT 86, RD 98, done 112.
     * (Without the hint: PRE 28, ACT 40, RD 52, done 66.) */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64, .hint = true},
                      {.at = 1, .bank = 0, .row = 2, .bytes = 64}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 112);
    rig_free(&r);
    s[0].hint = false;
    rig_init(&r, &p);
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 66);
    rig_free(&r);
}

Test(memctrl_hint, fcfs_releases_hold_when_same_row_request_arrives)
{
    dram_params p;
    simple_params(&p);
    p.sched = mem_policy("dram.sched", "fcfs");
    dram_rig r;
    rig_init(&r, &p);
    /* FCFS cannot reorder: once the awaited same-row request C has arrived
     * (400) the hold ends and the older B goes first: B starts at 400, done
     * 700; C conflicts after it: 1000. With no C, B would wait until 500. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128, .hint = true},
                      {.at = 10, .bank = 0, .row = 2, .bytes = 128},
                      {.at = 400, .bank = 0, .row = 1, .col = 128, .bytes = 128}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 700);
    cr_assert_eq(done[2], 1000);
    rig_free(&r);
}

/* [D] Fig. 7.2's situation: one channel of 4 banks, simple model (H 100,
 * C 300, 4 bus cycles a line, window 200). Warps 0-3 open row 1 of banks
 * 0-3 at cycle 0 (the hinted load); warps 4-7 want row 2 of the same banks
 * from cycle 1; each of warps 0-3 sends its follow-on load (row 1) 50
 * cycles after its first load's data. Requests 0-3: A, 4-7: B, 8-11: C. */
static void fig72(bool hint, uint64_t done[12], const memctrl_stats **st, dram_rig *r)
{
    dram_params p;
    simple_params(&p);
    p.banks = 4;
    rig_init(r, &p);
    /* A: all banks closed, all start at 0; the bus serialises the data:
     * done 300, 304, 308, 312. */
    script_req s[12];
    for (unsigned b = 0; b < 4; b++) {
        s[b] = (script_req){.at = 0, .bank = b, .row = 1, .bytes = 128, .hint = hint};
        s[4 + b] = (script_req){.at = 1, .bank = b, .row = 2, .bytes = 128, .hint = hint};
        s[8 + b] = (script_req){.at = 350 + 4 * b, .bank = b, .row = 1, .col = 128, .bytes = 128};
    }
    rig_play(r, s, 12, done, NULL, DRIVE_EVENTS, 0);
    *st = memctrl_get_stats(r->mc);
}

Test(memctrl_hint, fig72_four_banks_with_hints)
{
    uint64_t done[12];
    const memctrl_stats *st;
    dram_rig r;
    fig72(true, done, &st, &r);
    /* Holds until 500, 504, 508, 512 keep B out; C arrives 50 cycles after
     * A's data, finds row 1 open: hits start at 350 + 4b, done
     * max(t + 100, bus + 4) = 450, 454, 458, 462. B then conflicts once
     * the bank is idle: 450 + 300 = 750, then 754, 758, 762 on the bus. */
    for (unsigned b = 0; b < 4; b++) {
        cr_expect_eq(done[b], 300 + 4 * b, "A%u", b);
        cr_expect_eq(done[8 + b], 450 + 4 * b, "C%u", b);
        cr_expect_eq(done[4 + b], 750 + 4 * b, "B%u", b);
    }
    cr_expect_eq(st->row_hits, 4);
    cr_expect_eq(st->hint_hold_hits, 4);
    cr_expect_eq(st->hold_wait.samples, 4);
    cr_expect_eq(st->hold_wait.sum, 4 * 50.0, "each hit 50 cycles after its hold began");
    rig_free(&r);
}

Test(memctrl_hint, fig72_four_banks_without_hints)
{
    uint64_t done[12];
    const memctrl_stats *st;
    dram_rig r;
    fig72(false, done, &st, &r);
    /* B takes each bank as soon as A is done: 300 + 300 = 600, 604, 608,
     * 612; C then finds row 2 open and conflicts: 900, 904, 908, 912. The
     * last data at 912 instead of 762: every request a row conflict. */
    for (unsigned b = 0; b < 4; b++) {
        cr_expect_eq(done[4 + b], 600 + 4 * b, "B%u", b);
        cr_expect_eq(done[8 + b], 900 + 4 * b, "C%u", b);
    }
    cr_expect_eq(st->row_hits, 0);
    cr_expect_eq(st->hint_holds, 0);
    rig_free(&r);
}
