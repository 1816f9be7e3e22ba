/* FR-FCFS+Cap (dram.frfcfs_cap; Mutlu and Moscibroda, "Stall-Time Fair
 * Memory Access Scheduling for Chip Multiprocessors", MICRO 2007, the
 * FR-FCFS+Cap of its evaluation): one bank, full timing (test_dram_util.h: tRCD 12, tRP 10, tRAS 28,
 * tRC 40, tCL 12, a 128 B request is two bursts of 2 bus cycles, a read to
 * precharge 2 cycles after the last RD). All arrive at 0, in this order:
 * A (row 1), B (row 2), then h1..h8 (row 1). Times worked out by hand. */
#include "test_dram_util.h"

#define N 10

static void play(unsigned cap, uint64_t *done, uint32_t *order, memctrl_stats *st)
{
    dram_params p;
    full_params(&p);
    p.frfcfs_cap = cap;
    script_req s[N] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                       {.at = 0, .bank = 0, .row = 2, .bytes = 128}};
    for (unsigned k = 2; k < N; k++)
        s[k] = (script_req){.at = 0, .bank = 0, .row = 1, .col = 128 * (k - 1), .bytes = 128};
    dram_rig r;
    rig_init(&r, &p);
    cr_assert_eq(rig_play(&r, s, N, done, order, DRIVE_EVENTS, 0), N);
    *st = *memctrl_get_stats(r.mc);
    rig_free(&r);
}

Test(memctrl_cap, no_cap_row_hits_pass_every_time)
{
    uint64_t done[N];
    uint32_t order[N];
    memctrl_stats st;
    play(0, done, order, &st);
    /* A: ACT 0, RD 12, 14 -> 28. h_k (k = 1..8): RD 12 + 4k, 14 + 4k ->
     * 28 + 4k; h8's last RD 46 -> 60. B after all eight: PRE at
     * max(tRAS 28, 46 + 2) = 48, ACT 58 (tRC: 40), RD 70, 72 -> 86. */
    cr_assert_eq(done[0], 28);
    cr_assert_eq(done[2], 32);
    cr_assert_eq(done[9], 60);
    cr_assert_eq(done[1], 86);
    cr_assert_eq(order[N - 1], 1);
    cr_assert_eq(st.row_hits, 8);
    cr_assert_eq(st.cap_served, 0);
    /* bypasses: one value per request that starts as its bank's oldest, not
     * per command (A needs ACT and two RDs): A 0, then B after all eight
     * hits passed it; h1..h8 start while B is the oldest. Buckets [0], [1],
     * [2-3], [4-7], [8-15]. */
    cr_assert_eq(st.bypasses.samples, 2);
    cr_assert_eq(st.bypasses.count[0], 1);
    cr_assert_eq(st.bypasses.count[4], 1);
    cr_assert_eq(st.bypasses.sum, 8.0);
}

Test(memctrl_cap, cap_two_serves_the_oldest_after_two_hits)
{
    uint64_t done[N];
    uint32_t order[N];
    memctrl_stats st;
    play(2, done, order, &st);
    /* A 28, h1 32, h2 36 (RD 20, 22); two hits passed B: B next. PRE at
     * max(28, 22 + 2) = 28, ACT max(38, tRC 40) = 40, RD 52, 54 -> 68.
     * h3 conflicts: PRE max(40 + 28, 54 + 2) = 68, ACT max(78, 80) = 80,
     * RD 92, 94 -> 108; h4..h8 hit: RD 96 + 4j -> 112 + 4j (j = 0..4). */
    cr_assert_eq(done[0], 28);
    cr_assert_eq(done[2], 32);
    cr_assert_eq(done[3], 36);
    cr_assert_eq(done[1], 68);
    cr_assert_eq(done[4], 108);
    cr_assert_eq(done[5], 112);
    cr_assert_eq(done[9], 128);
    cr_assert_eq(order[0], 0);
    cr_assert_eq(order[1], 2);
    cr_assert_eq(order[2], 3);
    cr_assert_eq(order[3], 1);
    cr_assert_eq(order[4], 4);
    /* h1, h2 and h4..h8 hit; B and h3 conflict. */
    cr_assert_eq(st.row_hits, 7);
    cr_assert_eq(st.row_conflicts, 2);
    cr_assert_eq(st.cap_served, 1);
    /* bypasses: A 0, B 2 (h1, h2 passed it: the cap), then h3..h8 each
     * start as the oldest, passed by none: 8 values, seven 0 and one 2. */
    cr_assert_eq(st.bypasses.samples, 8);
    cr_assert_eq(st.bypasses.count[0], 7);
    cr_assert_eq(st.bypasses.count[2], 1);
    cr_assert_eq(st.bypasses.sum, 2.0);
}

/* A cap above the hits waiting changes nothing. */
Test(memctrl_cap, cap_above_the_hits_is_plain_frfcfs)
{
    uint64_t done[N], ref[N];
    uint32_t order[N], rorder[N];
    memctrl_stats st;
    play(0, ref, rorder, &st);
    play(9, done, order, &st);
    for (unsigned k = 0; k < N; k++) {
        cr_assert_eq(done[k], ref[k]);
        cr_assert_eq(order[k], rorder[k]);
    }
    cr_assert_eq(st.cap_served, 0);
}
