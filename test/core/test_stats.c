/* SM statistics, worked out by hand: the FU-utilisation histogram with its
 * exact bins, the DWF warp-size categories, thread and warp IPC, average
 * active threads, the instruction mix, the stall breakdown per scheduler
 * and the per-CTA start/end series. Timings as in test_timing.c: the CTA
 * arrives at 10, an instruction issued at k completes at k + 6 + extra and
 * the warp (barrel) is fetchable again at done + 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *k_three =
    "mov r0, 1\n"
    "add r1, r0, 2\n"
    "exit\n";

/* The statistics as compact JSON (indent 0: no spaces, no newlines). */
static char *stats_json(const harness *h)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    stats_write_json(h->st, f, 0);
    fclose(f);
    return buf;
}

static void expect_in(const char *json, const char *frag)
{
    cr_expect_not_null(strstr(json, frag), "missing %s", frag);
}

static double derived(const harness *h, const char *block, const char *name)
{
    double v = -1;
    cr_assert(stats_get_derived(h->st, block, name, &v), "no %s.%s", block, name);
    return v;
}

/* One CTA of 45 threads: warp 0 has 32 threads, warp 1 has 13.
 * w0 mov @10, w1 mov @11, w0 add @17, w1 add @18, w0 exit @24, w1 exit
 * @25 (done 31). Accounted cycles 10..31 = 22. Issue cycles: 10, 17, 24
 * with 32 lanes, 11, 18, 25 with 13 lanes. Idle: 12-16 and 19-23 wait on
 * warps in flight (10 dependency cycles), 26-31 have no warp (6 empty).
 * FU bins: 0 -> 16, 8-15 -> 3, 32 -> 3, the others 0.
 * thread insts 3 x 32 + 3 x 13 = 135, warp insts 6: thread IPC 135/22,
 * warp IPC 6/22, 22.5 active threads per warp instruction, idle fraction
 * 16/22. Mix: mov and add are integer ALU (4), exit (2). */
Test(stats, fu_histogram_bins_and_warp_size_categories)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 45, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(harness_end(h, 0), 31);
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 22);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 6);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 135);
    cr_expect_eq(harness_counter(h, "sm0", "inst_alu_int"), 4);
    cr_expect_eq(harness_counter(h, "sm0", "inst_exit"), 2);
    cr_expect_eq(harness_counter(h, "sm0", "inst_ld_global"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "issue_cycles"), 6);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_dependency"), 10);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_empty"), 6);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_memory"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_barrier"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_pipeline"), 0);
    /* DWF categories: W29-32 x 3, W13-16 x 3, W0_Idle the 16 others */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w29_32"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w13_16"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w1_4"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w0_idle"), 16);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w0_mem"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w_stall"), 0);
    cr_expect_float_eq(derived(h, "sm0", "thread_ipc"), 135.0 / 22, 1e-12);
    cr_expect_float_eq(derived(h, "sm0", "warp_ipc"), 6.0 / 22, 1e-12);
    cr_expect_float_eq(derived(h, "sm0", "avg_active_threads"), 22.5, 1e-12);
    cr_expect_float_eq(derived(h, "sm0", "fu_idle_fraction"), 16.0 / 22, 1e-12);
    cr_expect_eq(sm_get_totals(h->sms[0]).fu_idle_cycles, 16);
    char *j = stats_json(h);
    expect_in(j, "\"fu_util\":{\"buckets\":[{\"range\":\"0\",\"count\":16},{\"range\":\"1-7\",\"count\":0},"
                 "{\"range\":\"8-15\",\"count\":3},{\"range\":\"16-23\",\"count\":0},"
                 "{\"range\":\"24-31\",\"count\":0},{\"range\":\"32\",\"count\":3}],\"overflow\":0,"
                 "\"samples\":22,");
    /* active threads per issued warp instruction, in the W bins */
    expect_in(j, "{\"range\":\"13-16\",\"count\":3}");
    expect_in(j, "{\"range\":\"29-32\",\"count\":3}],\"overflow\":0,\"samples\":6,\"mean\":22.5}");
    free(j);
    harness_free(h);
}

/* SIMD width 8: a warp issues over 4 cycles, 8 lanes at a time, and the
 * FU bins scale to the width (0, 1, 2-3, 4-5, 6-7, 8). One warp of 13
 * threads: mov @10 (passes 10-13 with 8, 5, 0, 0 lanes; done 19), add
 * @20, exit @30 (done 39). Cycles 10..39 = 30: 8 lanes in 3 cycles, 5 in
 * 3, 0 in 24. The W category of an issue is its 13 threads over all of its
 * 4 cycles: W13-16 x 12. */
Test(stats, fu_histogram_simd8)
{
    const char *sets[] = {"core.simd_width=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 13, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(harness_end(h, 0), 39);
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 30);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "issue_cycles"), 12);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w13_16"), 12);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w0_idle"), 18);
    char *j = stats_json(h);
    expect_in(j, "\"fu_util\":{\"buckets\":[{\"range\":\"0\",\"count\":24},{\"range\":\"1\",\"count\":0},"
                 "{\"range\":\"2-3\",\"count\":0},{\"range\":\"4-5\",\"count\":3},"
                 "{\"range\":\"6-7\",\"count\":0},{\"range\":\"8\",\"count\":3}],\"overflow\":0,"
                 "\"samples\":30,");
    free(j);
    cr_expect_float_eq(derived(h, "sm0", "thread_ipc"), 39.0 / 30, 1e-12);
    cr_expect_float_eq(derived(h, "sm0", "warp_ipc"), 3.0 / 30, 1e-12);
    harness_free(h);
}

/* Stall breakdown per scheduler: two schedulers (warp 0 on 0, warp 1 on
 * 1), two ALUs and two branch units so they never collide. Warp 0 loads
 * one line (ideal memory: answered 100 cycles after it is sent), warp 1
 * skips the load and waits at the barrier for warp 0.
 *   10 mov, 17 setp, 24 bra: both warps, one per scheduler;
 *   31 w0 ld (sent at 31, answered at 131, fetchable 132); w1 bar.sync;
 *   132 w0 bar.sync (done 138): last arrival, both fetchable at 139;
 *   139 both exit (done 145). Accounted cycles 10..145 = 136.
 * sched0: issue 10, 17, 24, 31, 132, 139 (6); dependency 11-16, 18-23,
 *   25-30, 131 (response arrives: fetchable next cycle), 133-138 (25);
 *   memory 32-130 (99, all W0_Mem); empty 140-145 (6).
 * sched1: issue 10, 17, 24, 31, 139 (5); dependency 11-16, 18-23, 25-30
 *   and 132-138 (scheduler 0 issues first in a cycle, so at 132 warp 1
 *   is already released: 25); barrier 32-131 (100); empty 140-145 (6). */
static const char *k_ld_bar =
    ".data a u32[1]\n"
    "    mov r0, %tid.x\n"
    "    setp.lt.u32 p0, r0, 32\n"
    "    @!p0 bra wait\n"
    "    ld.global.u32 r1, [@a]\n"
    "wait:\n"
    "    bar.sync\n"
    "    exit\n";

Test(stats, stall_breakdown_per_scheduler)
{
    const char *sets[] = {"core.schedulers=2", "core.alu_units=2", "core.branch_units=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ld_bar, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    uint64_t at[11] = {10, 10, 17, 17, 24, 24, 31, 31, 132, 139, 139};
    cr_assert_eq(h->nlog, 11);
    for (int i = 0; i < 11; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 145);
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 136);
    const char *s0 = "sm0.sched0", *s1 = "sm0.sched1";
    cr_expect_eq(harness_counter(h, s0, "issue_cycles"), 6);
    cr_expect_eq(harness_counter(h, s0, "stall_dependency"), 25);
    cr_expect_eq(harness_counter(h, s0, "stall_memory"), 99);
    cr_expect_eq(harness_counter(h, s0, "stall_barrier"), 0);
    cr_expect_eq(harness_counter(h, s0, "stall_empty"), 6);
    cr_expect_eq(harness_counter(h, s0, "stall_pipeline"), 0);
    cr_expect_eq(harness_counter(h, s0, "w0_mem"), 99);
    cr_expect_eq(harness_counter(h, s0, "w0_idle"), 31);
    cr_expect_eq(harness_counter(h, s1, "issue_cycles"), 5);
    cr_expect_eq(harness_counter(h, s1, "stall_dependency"), 25);
    cr_expect_eq(harness_counter(h, s1, "stall_memory"), 0);
    cr_expect_eq(harness_counter(h, s1, "stall_barrier"), 100);
    cr_expect_eq(harness_counter(h, s1, "stall_empty"), 6);
    cr_expect_eq(harness_counter(h, s1, "w0_mem"), 0);
    cr_expect_eq(harness_counter(h, s1, "w0_idle"), 131);
    /* mix: 2 movs + 2 setps integer ALU, 2 branches, 1 load, 2 barriers, 2 exits */
    cr_expect_eq(harness_counter(h, "sm0", "inst_ld_global"), 1);
    cr_expect_eq(harness_counter(h, "sm0", "inst_branch"), 2);
    cr_expect_eq(harness_counter(h, "sm0", "inst_barrier"), 2);
    cr_expect_eq(harness_counter(h, "sm0", "inst_exit"), 2);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 11);
    harness_free(h);
}

/* Per-CTA start and end cycles in the statistics: one CTA at a time, two
 * 1-warp CTAs (test_cta.c): the first arrives at 10 and ends at 30 (issues
 * 10, 17, 24); its report reaches the dispatcher at 32, the second arrives
 * at 42 and ends at 62. */
Test(stats, per_cta_start_and_end_series)
{
    const char *sets[] = {"core.one_cta_at_a_time=true", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 2, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    char *j = stats_json(h);
    expect_in(j, "\"cta_start\":{\"interval\":1,\"values\":[10,42]}");
    expect_in(j, "\"cta_end\":{\"interval\":1,\"values\":[30,62]}");
    expect_in(j, "\"cta_sm\":{\"interval\":1,\"values\":[0,0]}");
    free(j);
    harness_free(h);
}

/* Issue width 8 with 8 ALUs and 8 branch units: eight full warps issue in
 * one cycle, 8 x 32 = 256 active lanes; the FU bins scale to the
 * scheduler's 256 lanes (0, 1-63, 64-127, 128-191, 192-255, 256). Movs @10,
 * exits @17 (done 23): cycles 10..23 = 14, two of them with 256 lanes. */
Test(stats, fu_histogram_issue_width_8)
{
    const char *sets[] = {"core.issue_width=8", "core.alu_units=8", "core.branch_units=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nexit\n", 1, 256, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 16);
    cr_expect_eq(h->log[7].cycle, 10);
    cr_expect_eq(h->log[8].cycle, 17);
    cr_expect_eq(harness_end(h, 0), 23);
    char *j = stats_json(h);
    expect_in(j, "\"fu_util\":{\"buckets\":[{\"range\":\"0\",\"count\":12},{\"range\":\"1-63\",\"count\":0},"
                 "{\"range\":\"64-127\",\"count\":0},{\"range\":\"128-191\",\"count\":0},"
                 "{\"range\":\"192-255\",\"count\":0},{\"range\":\"256\",\"count\":2}],\"overflow\":0,"
                 "\"samples\":14,");
    free(j);
    cr_expect_eq(sm_get_totals(h->sms[0]).fu_idle_cycles, 12);
    harness_free(h);
}

/* Warp sizes that are not a multiple of 8 still put every issue in the
 * bin that holds its thread count: warp_size 4 has the bins W1-1, W2-2,
 * W3-3, W4-4 (b x 4/8 + 1 .. (b + 1) x 4/8, empty ones dropped). One warp
 * of 3 threads, k_three: 3 issues at 10, 17, 24 (done 30), all W3-3. */
Test(stats, warp_size_categories_small_warp)
{
    const char *sets[] = {"core.warp_size=4", "core.simd_width=4", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 3, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(harness_end(h, 0), 30);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w3_3"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w1_1"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w2_2"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w4_4"), 0);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w0_idle"), 18);
    harness_free(h);
}
