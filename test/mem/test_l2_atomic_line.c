/* The L2 slice's atomic unit per line: with a line gap (l2.atomic_line_gap) a
 * request not forwarded starts no earlier than the gap after the previous
 * request on its line started, and the unit serves other lines' requests
 * meanwhile. Clock 1000 MHz (1 cycle = 1 tick), ports of latency 1, L2 hit
 * latency 30, atomic latency 4, unit rate R = 1 lane operation per cycle,
 * same-address spacing S = 1, no forwarding. Two whole-line stores
 * (write-back: allocated without a fetch) put lines A and B in the slice,
 * accepted at cycles 1 and 2; then three 2-lane atomics on distinct words
 * (never forwarded), A1, A2 on line A and B1 on line B, accepted at 3, 4, 5:
 * each has its data at acceptance + 30 = 33, 34, 35. A request's lanes span
 * max((n-1)/R, (h-1)*S) = 1 cycle; its reply leaves at ceil(last op) + 4
 * and reaches the sink one cycle later. The held-line rate
 * (l2.atomic_held_line_lanes_per_cycle) is checked at the end. */
#include "l2slice_bench.h"

/* Replies of A1, A2, B1 (ids 2, 3, 4), each of `lanes` lanes on distinct
 * words, with line gap `gap` and held-line rate `held`. */
static void run_atomics(double gap, double held, uint8_t lanes, des_time at[8])
{
    static l2_bench b;
    l2_bench_init(&b, 30, true);
    l2slice_set_atomic_unit(b.l, 1, 1, false);
    l2slice_set_atomic_line_gap(b.l, gap);
    l2slice_set_atomic_held_line_rate(b.l, held);
    const uint64_t line[5] = {0x1000, 0x1080, 0x1000, 0x1000, 0x1080};
    for (uint32_t i = 0; i < 5; i++) {
        mem_pkt m = {.addr = line[i], .id = i, .sectors = 0x1};
        if (i < 2)
            m.op = MEM_STORE, m.bytes = 128, m.sectors = 0xf, m.flags = MEM_NO_REPLY;
        else
            m.op = MEM_ATOMIC, m.bytes = 8, m.lanes = lanes, m.hot_lanes = 1;
        cr_assert(des_port_try_send(b.in, &m, 0));
    }
    des_run(b.e);
    cr_assert_eq(b.k.n, 3);
    for (unsigned i = 0; i < 8; i++)
        at[i] = b.k.at[i];
    l2slice_free(b.l);
    des_engine_free(b.e);
}

/* The sink cycles of A1, A2 and B1 are a1, a2, b1. */
static void expect_replies(double gap, double held, uint8_t lanes, des_time a1, des_time a2, des_time b1)
{
    des_time at[8];
    run_atomics(gap, held, lanes, at);
    cr_expect_eq(at[2], a1);
    cr_expect_eq(at[3], a2);
    cr_expect_eq(at[4], b1);
}

Test(l2_atomic_line, in_order_without_a_gap)
{
    /* A1 gets the unit at 33, last op 34, reply 38 (sink 39), the unit
     * free at 35; A2 at 35, last 36, reply 40 (41), free at 37; B1 at 37,
     * last 38, reply 42 (43). */
    expect_replies(0, 0, 2, 39, 41, 43);
}

Test(l2_atomic_line, a_request_waits_for_its_line_and_others_pass)
{
    /* Gap 20: A1 as above (sink 39); line A's next request no earlier than
     * max(33 + 20, 34 + 1/R) = 53. A2 gets its turn at 35 (the unit free
     * 1/R after A1's last op) but waits for its line: lanes 53 and 54,
     * reply 58 (59); the unit is charged from its turn, free at 35 + 1 + 1
     * = 37. B1, on line B, is not held behind A2: its turn at 37, last op
     * 38, reply 42 (43), before A2's. */
    expect_replies(20, 0, 2, 39, 59, 43);
}

/* l2.atomic_held_line_lanes_per_cycle = 4, no gap, 4-lane requests (span
 * 3/R = 3 cycles at R = 1). Without it: A1 at 33, last op 36, reply 40
 * (sink 41), unit free at 37; A2 at 37, last 40 (45), free 41; B1 at 41,
 * last 44 (49). With it A2, on the line A1 left in the unit, runs its lanes
 * 4 per cycle: at 37, last 37.75, reply 42 (43), free at 37 + 0.75 + 0.25
 * = 38; B1, another line, at the unit's rate: at 38, last 41 (46). */
Test(l2_atomic_line, four_lane_requests_in_order)
{
    expect_replies(0, 0, 4, 41, 45, 49);
}

Test(l2_atomic_line, a_request_on_the_held_line_runs_faster)
{
    expect_replies(0, 4, 4, 41, 43, 46);
}
