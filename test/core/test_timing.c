/* Exact cycle counts of tiny kernels under barrel and scoreboard, SIMD
 * width 32 and 8, one and two warps.
 *
 * Common timeline (defaults: 1 GHz core = 1 tick per cycle, depth 7, every
 * unit latency 1 and ii 1, core.cta_launch_latency 10): the dispatcher runs
 * at cycle 0 and its CTA reaches the SM at cycle 10, where its warps are
 * fetchable. An instruction issued at k completes (write-back) at
 * done = k + 6 + extra, extra = (passes - 1) for a warp issued over several
 * cycles; a CTA ends at the last completion of its instructions. */
#include "harness.h"

/* three instructions, no dependencies beyond program order */
static const char *k_three =
    "mov r0, 1\n"
    "add r1, r0, 2\n"
    "exit\n";

Test(timing, barrel_simd32_one_warp)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* mov @10 (done 16), add @17 (done 23), exit @24 (done 30) */
    cr_expect_eq(h->nlog, 3);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 17);
    cr_expect_eq(h->log[2].cycle, 24);
    cr_expect_eq(harness_end(h, 0), 30);
    /* resident from 10 to 30: 21 cycles; 3 warp and 96 thread instructions */
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 21);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 3);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 96);
    /* 3 issue cycles, 18 cycles without issue */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "issue_cycles"), 3);
    /* 11-16 and 18-23 wait on the warp in flight; after its exit issues
     * (24) the warp is gone: 25-30 have no warp at all */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_dependency"), 12);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_empty"), 6);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w29_32"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w0_idle"), 18);
    harness_free(h);
}

Test(timing, barrel_simd32_two_warps)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* w0 mov @10, w1 mov @11, w0 add @17, w1 add @18, w0 exit @24,
     * w1 exit @25 (done 31) */
    uint64_t at[6] = {10, 11, 17, 18, 24, 25};
    unsigned warp[6] = {0, 1, 0, 1, 0, 1};
    cr_assert_eq(h->nlog, 6);
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
        cr_expect_eq(h->log[i].warp, warp[i], "issue %d", i);
    }
    cr_expect_eq(harness_end(h, 0), 31);
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 22);
    harness_free(h);
}

Test(timing, barrel_simd8_one_warp)
{
    const char *sets[] = {"core.simd_width=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 32 threads on 8 lanes: 4 passes, extra 3: mov @10 done 19; add @20
     * done 29; exit @30 done 39 */
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 20);
    cr_expect_eq(h->log[2].cycle, 30);
    cr_expect_eq(harness_end(h, 0), 39);
    /* 30 cycles; 12 of them issuing (3 x 4 passes), each with 8 active lanes */
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 30);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "issue_cycles"), 12);
    harness_free(h);
}

Test(timing, barrel_simd8_two_warps)
{
    const char *sets[] = {"core.simd_width=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* the port is busy 4 cycles per warp: w0 mov @10 (done 19), w1 mov @14
     * (done 23), w0 add @20 (29), w1 add @24 (33), w0 exit @30 (39),
     * w1 exit @34 (done 43) */
    uint64_t at[6] = {10, 14, 20, 24, 30, 34};
    cr_assert_eq(h->nlog, 6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 43);
    harness_free(h);
}

/* two independent movs, then an instruction that needs both */
static const char *k_dep =
    "mov r0, 1\n"
    "mov r1, 2\n"
    "add r2, r0, r1\n"
    "exit\n";

Test(timing, scoreboard_simd32_one_warp)
{
    const char *sets[] = {"core.discipline=scoreboard", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_dep, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* mov r0 @10 (r0 readable from 17), mov r1 @11 (from 18), add waits
     * for r1: @18 (done 24), exit reads nothing: @19 (done 25) */
    cr_assert_eq(h->nlog, 4);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 11);
    cr_expect_eq(h->log[2].cycle, 18);
    cr_expect_eq(h->log[3].cycle, 19);
    cr_expect_eq(harness_end(h, 0), 25);
    harness_free(h);
}

Test(timing, scoreboard_simd32_two_warps)
{
    const char *sets[] = {"core.discipline=scoreboard", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_dep, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* LRR: 10 w0 mov r0, 11 w1 mov r0, 12 w0 mov r1 (r1 from 19),
     * 13 w1 mov r1 (from 20); w0 add @19 (done 25), w1 add @20 (done 26),
     * w0 exit @21 (done 27), w1 exit @22 (done 28) */
    uint64_t at[8] = {10, 11, 12, 13, 19, 20, 21, 22};
    unsigned warp[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    cr_assert_eq(h->nlog, 8);
    for (int i = 0; i < 8; i++) {
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
        cr_expect_eq(h->log[i].warp, warp[i], "issue %d", i);
    }
    cr_expect_eq(harness_end(h, 0), 28);
    harness_free(h);
}

Test(timing, scoreboard_simd8_one_warp)
{
    const char *sets[] = {"core.discipline=scoreboard", "core.simd_width=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_dep, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 4 passes each: mov r0 @10 (done 19, r0 from 20); mov r1 @14 (port
     * free at 14; done 23, from 24); add @24 (done 33); exit @28 (done 37) */
    cr_assert_eq(h->nlog, 4);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 14);
    cr_expect_eq(h->log[2].cycle, 24);
    cr_expect_eq(h->log[3].cycle, 28);
    cr_expect_eq(harness_end(h, 0), 37);
    harness_free(h);
}

Test(timing, scoreboard_simd8_two_warps)
{
    const char *sets[] = {"core.discipline=scoreboard", "core.simd_width=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_dep, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* one issue every 4 cycles: 10 w0 mov r0, 14 w1 mov r0, 18 w0 mov r1
     * (r1 from 28), 22 w1 mov r1 (from 32); 26: nobody (w0 add needs r1
     * at 28); 28 w0 add (done 37); 32 w1 add (done 41), 36 w0 exit
     * (done 45), 40 w1 exit (done 49) */
    uint64_t at[8] = {10, 14, 18, 22, 28, 32, 36, 40};
    cr_assert_eq(h->nlog, 8);
    for (int i = 0; i < 8; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 49);
    harness_free(h);
}

/* Pipeline depth 4: an instruction issued at k completes at k + 3. mov @10
 * (done 13), add @14 (done 17), exit @18 (done 21). */
Test(timing, barrel_depth_4)
{
    const char *sets[] = {"core.pipeline_depth=4", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 3);
    cr_expect_eq(h->log[1].cycle, 14);
    cr_expect_eq(h->log[2].cycle, 18);
    cr_expect_eq(harness_end(h, 0), 21);
    harness_free(h);
}

/* Warp size and SIMD width are independent: 16-thread warps on 8 lanes
 * issue over 2 cycles (extra 1). One CTA of 32 threads = 2 warps:
 * w0 mov @10 (done 17), w1 mov @12 (done 19), w0 add @18 (25), w1 add @20
 * (27), w0 exit @26 (33), w1 exit @28 (done 35). Every issue is a full
 * 16-thread warp: DWF bucket W15-16 (warp_size / 8 wide), 12 cycles. */
Test(timing, barrel_warp16_simd8_two_warps)
{
    const char *sets[] = {"core.warp_size=16", "core.simd_width=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    uint64_t at[6] = {10, 12, 18, 20, 26, 28};
    unsigned warp[6] = {0, 1, 0, 1, 0, 1};
    cr_assert_eq(h->nlog, 6);
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
        cr_expect_eq(h->log[i].warp, warp[i], "issue %d", i);
    }
    cr_expect_eq(harness_end(h, 0), 35);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 96);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w15_16"), 12);
    harness_free(h);
}

/* Scoreboard with one global memory instruction in flight per warp: two
 * independent loads; the second waits for the first's response (at 110),
 * which frees the slot in its own cycle: ld r1 @10, ld r2 @110 (answered
 * 210), exit @111 (control, reads nothing; done 117). The CTA ends when
 * the last load's data arrives: 210. */
Test(timing, scoreboard_memory_limit_per_warp)
{
    const char *sets[] = {"core.discipline=scoreboard", "core.mem_pending_per_warp=1", NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data a u32[64]\n"
                   "ld.global.u32 r1, [@a]\n"
                   "ld.global.u32 r2, [@a+128]\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 3);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 110);
    cr_expect_eq(h->log[2].cycle, 111);
    cr_expect_eq(harness_end(h, 0), 210);
    harness_free(h);
}
