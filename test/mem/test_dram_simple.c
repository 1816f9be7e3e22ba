/* The simple timing model (row-hit latency H = 100, row-conflict or closed
 * latency C = 300, 32 B/cycle bus: a 128 B request holds it d = 4 cycles).
 * For a request started at t: done = max(t + latency, bus_free + d); row
 * hits pipeline every d cycles, a conflict waits until the bank is idle and
 * a hit after it may start C - H + d = 204 cycles after the conflict. */
#include "test_dram_util.h"

Test(dram_simple, closed_bank_first_access_takes_conflict_latency)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    script_req s[] = {{.at = 0, .bank = 3, .row = 5, .bytes = 128}};
    uint64_t done[1];
    cr_assert_eq(rig_play(&r, s, 1, done, NULL, DRIVE_EVENTS, 0), 1);
    /* closed bank: C = 300 */
    cr_assert_eq(done[0], 300);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->row_misses, 1);
    cr_assert_eq(st->activations, 1);
    cr_assert_eq(st->precharges, 0);
    cr_assert_eq(st->bus_busy_cycles, 4);
    rig_free(&r);
}

Test(dram_simple, row_hit_takes_hit_latency)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* A opens row 5 (done 300); B to row 5 arrives at 1000, long after the
     * bank is free: 1000 + H = 1100. */
    script_req s[] = {{.at = 0, .bank = 2, .row = 5, .bytes = 128},
                      {.at = 1000, .bank = 2, .row = 5, .col = 128, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 300);
    cr_assert_eq(done[1], 1100);
    cr_assert_eq(memctrl_get_stats(r.mc)->row_hits, 1);
    rig_free(&r);
}

Test(dram_simple, row_conflict_takes_conflict_latency)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* B to row 6 at 1000 while row 5 is open: 1000 + C = 1300. */
    script_req s[] = {{.at = 0, .bank = 2, .row = 5, .bytes = 128},
                      {.at = 1000, .bank = 2, .row = 6, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 1300);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->row_conflicts, 1);
    cr_assert_eq(st->activations, 2);
    cr_assert_eq(st->precharges, 1);
    rig_free(&r);
}

Test(dram_simple, row_hits_pipeline_at_bus_rate)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* A at 0 opens row 1: done 300. B and C (row 1) start at 0 + 200 + 4 =
     * 204 and 208: done max(304, 300 + 4) = 304, max(308, 304 + 4) = 308. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 0, .row = 1, .col = 128, .bytes = 128},
                      {.at = 0, .bank = 0, .row = 1, .col = 256, .bytes = 128}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 300);
    cr_assert_eq(done[1], 304);
    cr_assert_eq(done[2], 308);
    rig_free(&r);
}

Test(dram_simple, two_banks_share_the_bus)
{
    dram_params p;
    simple_params(&p);
    dram_rig r;
    rig_init(&r, &p);
    /* Both closed banks start at 0; A's data ends at 300, B's data needs the
     * bus after it: max(300, 300 + 4) = 304. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 300);
    cr_assert_eq(done[1], 304);
    cr_assert_eq(memctrl_get_stats(r.mc)->bus_busy_cycles, 8);
    rig_free(&r);
}

Test(dram_simple, bus_bandwidth_sets_occupancy)
{
    dram_params p;
    simple_params(&p);
    p.bus_bytes = 16;     /* 16 GB/s at 1 GHz (DWS Table 3): 128 B = 8 cycles */
    p.row_conflict_latency = 100;   /* DWS: one 100-cycle latency, pipelined */
    dram_rig r;
    rig_init(&r, &p);
    /* Two closed banks at 0: 100, then max(100, 100 + 8) = 108. A 32 B
     * request at 0 to a third bank: max(100, 108 + 2) = 110. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 2, .row = 1, .bytes = 32}};
    uint64_t done[3];
    rig_play(&r, s, 3, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 100);
    cr_assert_eq(done[1], 108);
    cr_assert_eq(done[2], 110);
    rig_free(&r);
}

Test(dram_simple, close_page_makes_every_access_closed)
{
    dram_params p;
    simple_params(&p);
    p.page_policy = DRAM_PAGE_CLOSE;
    dram_rig r;
    rig_init(&r, &p);
    /* Same row twice: the row is closed after A (done 300), so B at 1000 is
     * a closed access again: 1300, and counts as a miss, not a hit. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 1000, .bank = 0, .row = 1, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 1300);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->row_hits, 0);
    cr_assert_eq(st->row_misses, 2);
    cr_assert_eq(st->precharges, 2);
    rig_free(&r);
}

Test(dram_simple, refresh_closes_rows_and_delays)
{
    dram_params p;
    simple_params(&p);
    p.refresh = true;
    p.tREFI = 1000;
    p.tRFC = 50;
    dram_rig r;
    rig_init(&r, &p);
    /* A at 0: done 300. Refresh due 1000: bank idle, so [1000, 1050) and the
     * row is closed. B (row 1) at 1010 waits for 1050: 1050 + C = 1350. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 1010, .bank = 0, .row = 1, .bytes = 128}};
    uint64_t done[2];
    rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[1], 1350);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->refreshes, 1);
    cr_assert_eq(st->row_misses, 2);
    rig_free(&r);
}
