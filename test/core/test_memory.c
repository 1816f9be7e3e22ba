/* Global memory through the ideal memory (mem.ideal_latency 100, 1 line per
 * cycle by default): a request sent at cycle c with k lines is answered at
 * c + 100 + (k - 1) when the pipe is free. The LD/ST unit has latency 1, so
 * a load issued at k sends at k. Other timings as in test_timing.c. */
#include "harness.h"

Test(memory, barrel_load_one_line)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data a u32[64] = iota(start=5, step=1)\n"
                   ".data out u32[64]\n"
                   "mov r0, %tid.x\n"
                   "shl r1, r0, 2\n"
                   "ld.global.u32 r2, [r1+@a]\n"
                   "add r3, r2, 1\n"
                   "st.global.u32 [r1+@out], r3\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* mov @10, shl @17, ld @24: 32 consecutive words = 1 line, answered at
     * 124; the warp is fetchable at 125: add @125, st @132 (fire and
     * forget), exit @139, done 145 */
    uint64_t at[6] = {10, 17, 24, 125, 132, 139};
    cr_assert_eq(h->nlog, 6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 145);
    cr_expect_eq(harness_read_u32(h, 0, "out", 7), 13, "a[7] + 1 = 5 + 7 + 1");
    cr_expect_eq(harness_counter(h, "mem", "requests"), 2);
    cr_expect_eq(harness_counter(h, "mem", "replies"), 1);
    cr_expect_eq(harness_counter(h, "mem", "lines"), 2);
    /* 25..123 every warp waits on memory; 126-131 and 133-138 in flight */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w0_mem"), 99);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_memory"), 99);
    harness_free(h);
}

static const char *k_scatter =
    ".data a u32[8192]\n"
    "mov r0, %tid.x\n"
    "shl r1, r0, 7\n"          /* 128 B apart: 32 lines */
    "ld.global.u32 r2, [r1+@a]\n"
    "exit\n";

Test(memory, bandwidth_32_lines)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_scatter, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* ld @24 takes the pipe for 32 cycles: answered at 24 + 100 + 31 = 155;
     * exit @156, done 162 */
    cr_expect_eq(h->log[3].cycle, 156);
    cr_expect_eq(harness_end(h, 0), 162);
    cr_expect_eq(harness_counter(h, "mem", "busy_cycles"), 32);
    harness_free(h);
}

Test(memory, bandwidth_half_line_per_cycle)
{
    const char *sets[] = {"mem.ideal_lines_per_cycle=0.5", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_scatter, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 32 lines at 0.5/cycle = 64 cycles: answered at 24 + 100 + 63 = 187 */
    cr_expect_eq(h->log[3].cycle, 188);
    cr_expect_eq(harness_end(h, 0), 194);
    harness_free(h);
}

Test(memory, bandwidth_two_warps_queue)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_scatter, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* w0 ld @24 arrives 25, holds the pipe 25..56, answered 155; w1 ld @25
     * arrives 26, waits until 57 (31 cycles), answered 57 + 31 + 99 = 187:
     * exits @156 and @188, done 194 */
    cr_expect_eq(harness_end(h, 0), 194);
    cr_expect_eq(harness_counter(h, "mem", "queue_cycles"), 31);
    harness_free(h);
}

static const char *k_ld_indep =
    ".data a u32[1] = iota(start=41, step=1)\n"
    ".data out u32[32]\n"
    "ld.global.u32 r1, [@a]\n"
    "mov r2, 1\n"
    "add r3, r1, r2\n"
    "st.global.u32 [@out], r3\n"
    "exit\n";

Test(memory, scoreboard_runs_past_a_load)
{
    const char *sets[] = {"core.discipline=scoreboard", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ld_indep, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* ld @10 (answered 110: r1 from 111), mov @11 independent, add waits
     * for r1: @111 (r3 from 118), st @118, exit @119 (done 125) */
    uint64_t at[5] = {10, 11, 111, 118, 119};
    cr_assert_eq(h->nlog, 5);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 125);
    cr_expect_eq(harness_read_u32(h, 0, "out", 0), 42);
    harness_free(h);
}

Test(memory, barrel_waits_for_the_load)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ld_indep, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* ld @10 answered 110: mov @111, add @118, st @125, exit @132, done 138 */
    uint64_t at[5] = {10, 111, 118, 125, 132};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 138);
    harness_free(h);
}

static const char *k_store =
    ".data out u32[32]\n"
    "st.global.u32 [@out], 7\n"
    "exit\n";

Test(memory, stores_fire_and_forget)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_store, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* st @10 does not wait: exit @17, done 23 */
    cr_expect_eq(h->log[1].cycle, 17);
    cr_expect_eq(harness_end(h, 0), 23);
    cr_expect_eq(harness_counter(h, "mem", "replies"), 0);
    harness_free(h);
}

Test(memory, stores_acknowledged)
{
    const char *sets[] = {"core.wait_for_stores=true", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_store, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* st @10 acknowledged at 110: exit @111, done 117 */
    cr_expect_eq(h->log[1].cycle, 111);
    cr_expect_eq(harness_end(h, 0), 117);
    harness_free(h);
}

Test(memory, ldst_latency_delays_the_request)
{
    const char *sets[] = {"core.ldst_latency=5", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ld_indep, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* ld @10 leaves at 10 + 4 = 14, answered 114: mov @115, add @122,
     * st @129 (an LD/ST instruction too: done 129 + 6 + 4 = 139), exit @140,
     * done 146 */
    cr_expect_eq(h->log[1].cycle, 115);
    cr_expect_eq(h->log[4].cycle, 140);
    cr_expect_eq(harness_end(h, 0), 146);
    harness_free(h);
}

Test(memory, full_request_port_holds_warps)
{
    /* a one-slot request port: the ideal memory pops a request the cycle
     * after it is sent, and the slot is reusable one cycle later */
    const char *sets[] = {"harness.req_cap=1", NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data a u32[1]\n"
                   "ld.global.u32 r1, [@a]\n"
                   "exit\n",
                   1, 128, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* loads of warps 0..3 at 10, 12, 14, 16 (11, 13, 15: port full);
     * answered 110, 112, 114, 116; exits 111, 113, 115, 117; done 123 */
    uint64_t at[8] = {10, 12, 14, 16, 111, 113, 115, 117};
    cr_assert_eq(h->nlog, 8);
    for (int i = 0; i < 8; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 123);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_pipeline"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w_stall"), 3);
    harness_free(h);
}
