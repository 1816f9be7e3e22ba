/* The L2 atomic unit through the assembled chip (gpu_build): an atomic's
 * lane operations execute one by one in its slice's atomic unit
 * (l2.atomic_ops_per_cycle, l2.atomic_same_address_cycles), the reply
 * leaves l2.atomic_latency cycles after the last one starts, and a later
 * request waits for the unit.
 *
 * The chip is test_chip_latency.c's (clocks core 12 ticks, icnt 4, L2 6,
 * DRAM 3; every core edge is an edge of every domain). There, a 1-lane
 * atomic's request is at the L2 slice at tick 36 (L2 cycle 6) after it
 * leaves the LD/ST, misses (a closed DRAM bank, simple timing), and its
 * line is filled at tick 948 = L2 cycle 158; the unit then starts its one
 * operation at 158 and the reply leaves at 158 + 4 = 162
 * (atomic_executes_at_the_l2). Here each lane of one warp adds 1 to word
 * (tid & mask) of one 128 B line: all lanes coalesce into one request with
 * n = 32 lane operations, h of them on the busiest word. With rate R and
 * same-address spacing S, the last starts at 158 + max((n-1)/R, (h-1)*S)
 * (rounded up to an L2 cycle), the reply leaves 4 cycles later, and the
 * slice's load_latency (acceptance at cycle 6 to reply) is that minus 6. */
#include "gpu_test_util.h"

static const char *model = CHIP_TWO_SM_MODEL "timing = simple\n";

typedef struct atomic_result {
    double l2_latency, miss_latency;   /* means: slice (L2 cycles), LD/ST (core cycles) */
    uint64_t requests, lane_ops;
} atomic_result;

/* `threads` threads, thread t adds 1 to word (t & mask) of the array,
 * with the overrides l2.atomic_ops_per_cycle = `rate`,
 * l2.atomic_same_address_cycles = `same` and l1d.atomic_lanes_per_cycle =
 * `l1` (NULL: the default), and l2.atomic_forward = true when `forward`. */
static atomic_result run_atomic_ex(unsigned threads, unsigned mask, const char *rate, const char *same,
                                   const char *l1, bool forward, const char *extra)
{
    char *k = g_strdup_printf(".kernel at\n.data a u32[64] = zero\n    mov r1, %%tid.x\n"
                              "    and r1, r1, %u\n    shl r2, r1, 2\n"
                              "    atom.global.add.u32 r3, [r2+@a], 1\n    exit\n",
                              mask);
    char *launch_text = g_strdup_printf("grid = 1\nblock = %u", threads);
    char *r = rate ? g_strdup_printf("l2.atomic_ops_per_cycle=%s", rate) : NULL;
    char *s = same ? g_strdup_printf("l2.atomic_same_address_cycles=%s", same) : NULL;
    char *l = l1 ? g_strdup_printf("l1d.atomic_lanes_per_cycle=%s", l1) : NULL;
    char *sets[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    unsigned n = 0;
    if (extra)
        sets[n++] = (char *)extra;
    if (forward)
        sets[n++] = "l2.atomic_forward=true";
    if (r)
        sets[n++] = r;
    if (s)
        sets[n++] = s;
    if (l)
        sets[n++] = l;
    chip_run cr;
    chip_run_text(&cr, model, k, launch_text, sets);
    cr_assert(cr.ok, "%s", cr.error);
    atomic_result a = {
        .l2_latency = chip_derived(&cr, "l2s0", "mean_load_latency"),
        .miss_latency = chip_derived(&cr, "sm0.ldst", "mean_miss_latency"),
        .requests = chip_counter(&cr, "l2s0", "atomic_requests"),
        .lane_ops = chip_counter(&cr, "l2s0", "atomic_lane_ops"),
    };
    chip_run_free(&cr);
    g_free(k);
    g_free(launch_text);
    g_free(r);
    g_free(s);
    g_free(l);
    return a;
}

static atomic_result run_atomic_at(unsigned threads, unsigned mask, const char *rate, const char *same,
                                   const char *l1, bool forward)
{
    return run_atomic_ex(threads, mask, rate, same, l1, forward, NULL);
}

static atomic_result run_atomic_l1(unsigned threads, unsigned mask, const char *rate, const char *same,
                                   const char *l1)
{
    return run_atomic_at(threads, mask, rate, same, l1, false);
}

static atomic_result run_atomic(unsigned threads, unsigned mask, const char *rate, const char *same)
{
    return run_atomic_l1(threads, mask, rate, same, NULL);
}

Test(chip_atomic, same_address_lanes_execute_one_by_one)
{
    /* Defaults R = 1, S = 1: 32 lanes on one word, h = 32: the last starts
     * at 158 + 31 = 189, the reply leaves at 193 (tick 1158): 187 cycles
     * after acceptance, 31 more than the 1-lane atomic's 156. Below the
     * L1: at the reply crossbar at 1162 -> icnt edge 1164, 5 flits to 1184,
     * at the LD/ST at 1200 = core cycle 100; the request left at 1: 99. */
    atomic_result a = run_atomic(32, 0, NULL, NULL);
    cr_expect_eq(a.requests, 1);
    cr_expect_eq(a.lane_ops, 32);
    cr_expect_float_eq(a.l2_latency, 187, 1e-9, "%g", a.l2_latency);
    cr_expect_float_eq(a.miss_latency, 99, 1e-9, "%g", a.miss_latency);
}

/* R = 2: 32 distinct words (h = 1): the last starts at 158 + 31/2 =
 * 173.5 -> 174, reply at 178: 172. One word (h = 32, S = 1): the
 * same-address chain, 158 + max(15.5, 31) = 189: 187, as at R = 1.
 * (One simulation per process: one run per test.) */
Test(chip_atomic, distinct_addresses_go_at_the_unit_rate)
{
    atomic_result d = run_atomic(32, 31, "2", NULL);
    cr_expect_eq(d.lane_ops, 32);
    cr_expect_float_eq(d.l2_latency, 172, 1e-9, "%g", d.l2_latency);
}

Test(chip_atomic, same_address_lanes_ignore_the_unit_rate)
{
    atomic_result s = run_atomic(32, 0, "2", NULL);
    cr_expect_float_eq(s.l2_latency, 187, 1e-9, "%g", s.l2_latency);
}

/* Two words, 16 lanes each (mask 1): h = 16. R = 1, S = 3: last at
 * 158 + max(31, 15*3 = 45) = 203, reply 207: 201. With S = 1 the rate
 * bounds it: 158 + max(31, 15) = 189: 187. */
Test(chip_atomic, the_busiest_address_sets_the_chain)
{
    atomic_result slow = run_atomic(32, 1, "1", "3");
    cr_expect_float_eq(slow.l2_latency, 201, 1e-9, "%g", slow.l2_latency);
}

Test(chip_atomic, the_rate_bounds_a_short_chain)
{
    atomic_result fast = run_atomic(32, 1, "1", "1");
    cr_expect_float_eq(fast.l2_latency, 187, 1e-9, "%g", fast.l2_latency);
}

Test(chip_atomic, a_later_request_waits_for_the_unit)
{
    /* Two warps, 64 lanes on one word: two requests of 32. Warp 1's leaves
     * the LD/ST one core cycle after warp 0's (the unit takes one
     * instruction per cycle), so it is at the slice 12 ticks later, at
     * tick 48 (L2 cycle 8), finds warp 0's miss in flight and merges into
     * its MSHR entry: both have their data at 158. Warp 0's holds the unit
     * from 158, last op at 189, free at 190 (reply 193: 187 cycles); warp
     * 1's starts at 190, last op at 221, reply at 225: 225 - 8 = 217 cycles
     * (it would be 185 had the unit been free). Mean (187 + 217) / 2 = 202. */
    atomic_result a = run_atomic(64, 0, NULL, NULL);
    cr_expect_eq(a.requests, 2);
    cr_expect_eq(a.lane_ops, 64);
    cr_expect_float_eq(a.l2_latency, 202, 1e-9, "%g", a.l2_latency);
}

/* The LD/ST side (l1d.atomic_lanes_per_cycle = 1): warp 0's 32-lane access
 * holds the L1 port 32 core cycles, so warp 1's goes through 31 cycles
 * later than above, at core cycle 32 (leaves at 33, at the slice at tick
 * 36 + 32*12 = 420, L2 cycle 70), still before the fill at 158: the unit
 * runs as above, replies at 193 and 225. At the slice: 187 and 225 - 70 =
 * 155, mean 171. Below the L1: warp 0's 99 (as above); warp 1's reply
 * leaves at tick 1350, at the reply crossbar 1354 -> 1356, 5 flits to 1376,
 * at the LD/ST 1392 = core cycle 116, 116 - 33 = 83: mean 91. */
Test(chip_atomic, the_ldst_passes_atomic_lanes_at_its_rate)
{
    atomic_result a = run_atomic_l1(64, 0, NULL, NULL, "1");
    cr_expect_eq(a.requests, 2);
    cr_expect_float_eq(a.l2_latency, 171, 1e-9, "%g", a.l2_latency);
    cr_expect_float_eq(a.miss_latency, 91, 1e-9, "%g", a.miss_latency);
}

/* Forwarding (l2.atomic_forward = true), R = 0.5, S = 1.5. One request of
 * 32 lanes on one word: nothing before it on that word, so it is not
 * forwarded and the rate binds as without forwarding: last at 158 +
 * max(31/R = 62, 31 * 1.5) = 220, reply 224: 218 cycles after acceptance. */
Test(chip_atomic, a_first_request_on_a_word_is_not_forwarded)
{
    atomic_result a = run_atomic_at(32, 0, "0.5", "1.5", NULL, true);
    cr_expect_eq(a.lane_ops, 32);
    cr_expect_float_eq(a.l2_latency, 218, 1e-9, "%g", a.l2_latency);
}

/* Two warps on the same word (as a_later_request_waits_for_the_unit: both
 * have their data at 158, warp 1's accepted at cycle 8), R = 0.5, S = 1.5.
 * Warp 0's request as above: last op at 220, reply 224 (218), the unit
 * free at 220 + 1/R = 222. Forwarded, warp 1's request (its 32 lanes on
 * the word warp 0's updated) starts S after that last op, at 221.5, and
 * runs its lanes S apart: last at 221.5 + 46.5 = 268, reply 272: 264.
 * Mean (218 + 264) / 2 = 241. Without forwarding it starts at 222 and the
 * rate binds: last at 284, reply 288: 280, mean 249. */
Test(chip_atomic, a_request_on_the_last_word_is_forwarded)
{
    atomic_result a = run_atomic_at(64, 0, "0.5", "1.5", NULL, true);
    cr_expect_eq(a.requests, 2);
    cr_expect_float_eq(a.l2_latency, 241, 1e-9, "%g", a.l2_latency);
}

Test(chip_atomic, without_forwarding_the_rate_binds_the_second_request)
{
    atomic_result a = run_atomic(64, 0, "0.5", "1.5");
    cr_expect_float_eq(a.l2_latency, 249, 1e-9, "%g", a.l2_latency);
}

/* Forwarding leaves requests on several words as they were: 32 distinct
 * words at R = 2 as distinct_addresses_go_at_the_unit_rate (172), two
 * words of 16 lanes at R = 1, S = 3 as the_busiest_address_sets_the_chain
 * (201). */
Test(chip_atomic, forwarding_leaves_several_words_alone)
{
    atomic_result d = run_atomic_at(32, 31, "2", NULL, NULL, true);
    cr_expect_float_eq(d.l2_latency, 172, 1e-9, "%g", d.l2_latency);
}

Test(chip_atomic, forwarding_leaves_two_words_alone)
{
    atomic_result d = run_atomic_at(32, 1, "1", "3", NULL, true);
    cr_expect_float_eq(d.l2_latency, 201, 1e-9, "%g", d.l2_latency);
}

/* l2.atomic_forward_cycles = F: a forwarded request's lanes F apart, and F
 * after the previous request's last op, while a chain read afresh keeps S.
 * Two warps on one word (as a_request_on_the_last_word_is_forwarded), R =
 * 0.5, S = 3, F = 1.5. Warp 0's request, not forwarded: last op at 158 +
 * max(31/R = 62, 31 * 3 = 93) = 251, reply 255: 249 cycles after
 * acceptance at 6. Warp 1's, forwarded: starts at 251 + 1.5 = 252.5, last
 * at 252.5 + 31 * 1.5 = 299, reply 303: 295 after acceptance at 8. Mean
 * (249 + 295) / 2 = 272. With F = 0 (the default) a forwarded request
 * keeps S: starts at 254, last at 347, reply 351: 343, mean 296. */
Test(chip_atomic, forward_cycles_space_a_forwarded_chain)
{
    atomic_result a = run_atomic_ex(64, 0, "0.5", "3", NULL, true, "l2.atomic_forward_cycles=1.5");
    cr_expect_eq(a.requests, 2);
    cr_expect_float_eq(a.l2_latency, 272, 1e-9, "%g", a.l2_latency);
}

Test(chip_atomic, forward_cycles_default_to_the_same_address_spacing)
{
    atomic_result a = run_atomic_ex(64, 0, "0.5", "3", NULL, true, NULL);
    cr_expect_float_eq(a.l2_latency, 296, 1e-9, "%g", a.l2_latency);
}
