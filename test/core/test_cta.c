/* CTA dispatch: occupancy limits, one CTA at a time, round-robin over SMs,
 * launch start times and dependencies, barriers, bad launches, the cycle
 * limit. k_three issues at arrival a, a+7, a+14 and ends at a+20. A CTA's
 * report leaves its SM at end + 1 and reaches the dispatcher one cycle
 * later, whose next CTA arrives core.cta_launch_latency (10) cycles after. */
#include <string.h>

#include "harness.h"

static const char *k_three =
    "mov r0, 1\n"
    "add r1, r0, 2\n"
    "exit\n";

static void expect_cta(harness *h, unsigned l, uint64_t cta, unsigned smi, uint64_t start, uint64_t end)
{
    unsigned s;
    uint64_t a, e;
    cr_assert(dispatcher_cta_times(h->d, l, cta, &s, &a, &e), "CTA %lu did not run", (unsigned long)cta);
    cr_expect_eq(s, smi, "CTA %lu on sm%u", (unsigned long)cta, s);
    cr_expect_eq(a, start, "CTA %lu started %lu, expected %lu", (unsigned long)cta, (unsigned long)a,
                 (unsigned long)start);
    cr_expect_eq(e, end, "CTA %lu ended %lu, expected %lu", (unsigned long)cta, (unsigned long)e,
                 (unsigned long)end);
}

/* Two 1-warp CTAs that must run one after the other: the first arrives at
 * 10 and ends at 30; its report reaches the dispatcher at 32, the second
 * arrives at 42 and ends at 62. The SM's cycles include the gap: 10..62. */
static void serialized(const char *const *sets, const char *kernel)
{
    harness *h = harness_new(sets);
    harness_launch(h, kernel, 2, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 0, 42, 62);
    cr_expect_eq(harness_end(h, 0), 62);
    cr_expect_eq(harness_counter(h, "sm0", "cycles"), 53);
    cr_expect_eq(harness_counter(h, "sm0", "ctas"), 2);
    /* the 11 cycles without a CTA count as empty */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_empty"), 11 + 2 * 6);
    harness_free(h);
}

Test(cta, one_cta_at_a_time)
{
    const char *sets[] = {"core.one_cta_at_a_time=true", NULL};
    serialized(sets, k_three);
}

Test(cta, limit_ctas)
{
    const char *sets[] = {"core.max_ctas=1", NULL};
    serialized(sets, k_three);
}

Test(cta, limit_warps)
{
    const char *sets[] = {"core.max_warps=1", NULL};
    serialized(sets, k_three);
}

Test(cta, limit_threads)
{
    /* a CTA of 32 threads takes 32 thread slots; 63 leave room for one */
    const char *sets[] = {"core.max_threads=63", NULL};
    serialized(sets, k_three);
}

Test(cta, limit_registers)
{
    /* k_three uses r0, r1: 2 registers x 32 threads = 64 per CTA */
    const char *sets[] = {"core.regs=127", NULL};
    serialized(sets, k_three);
}

Test(cta, limit_shared_memory)
{
    const char *sets[] = {"core.smem_bytes=1500", NULL};
    serialized(sets, ".shared buf u8[1024]\nmov r0, 1\nadd r1, r0, 2\nexit\n");
}

Test(cta, concurrent_ctas)
{
    const char *sets[] = {"core.regs=128", NULL};   /* exactly two CTAs' registers */
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 2, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* both arrive at 10, like two warps of one CTA: ends 30 and 31 */
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 0, 10, 31);
    harness_free(h);
}

Test(cta, new_cta_replaces_a_finished_one)
{
    const char *sets[] = {"core.max_ctas=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 3, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* CTAs 0 and 1 at 10 (end 30, 31); CTA 0's slot: report at 31, the
     * dispatcher at 32, CTA 2 arrives at 42 and ends at 62 */
    expect_cta(h, 0, 2, 0, 42, 62);
    harness_free(h);
}

Test(cta, round_robin_over_sms)
{
    const char *sets[] = {"gpu.sms=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 4, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* CTA 0 -> sm0, 1 -> sm1, 2 -> sm0, 3 -> sm1, all at cycle 10; on each
     * SM two warps: ends 30 and 31 */
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 1, 10, 30);
    expect_cta(h, 0, 2, 0, 10, 31);
    expect_cta(h, 0, 3, 1, 10, 31);
    harness_free(h);
}

/* A launch naming SMs "0,3" (not the range 0-3) on 4 SMs: CTA 0 -> sm0,
 * 1 -> sm3, 2 -> sm0, 3 -> sm3, all at cycle 10; two warps on each of the
 * two SMs end at 30 and 31 (as round_robin_over_sms); sm1 and sm2 get none. */
Test(cta, sm_list_not_range)
{
    const char *sets[] = {"gpu.sms=4", NULL};
    harness *h = harness_new(sets);
    GError *err = NULL;
    isa_program *p = isa_program_parse(k_three, "k.sasm", &err);
    cr_assert_not_null(p);
    memimg *m = isa_program_new_memimg(p, 1, &err);
    h->prog[h->nprog] = p;
    h->img[h->nprog] = m;
    h->nprog++;
    static const unsigned list[] = {0, 3};
    core_launch l = {.name = "k0", .prog = p, .mem = m, .grid = {4, 1, 1}, .block = {32, 1, 1},
                     .sm_first = 0, .sm_last = 3, .sms = list, .nsms = 2, .after = -1};
    cr_assert(dispatcher_add_launch(h->d, &l, &err) >= 0);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 3, 10, 30);
    expect_cta(h, 0, 2, 0, 10, 31);
    expect_cta(h, 0, 3, 3, 10, 31);
    harness_free(h);
}

/* Two launches of 2 CTAs on 3 SMs, the second after the first. Launch 0:
 * CTA 0 -> sm0, 1 -> sm1 (10..30 each), so the round would go on at sm2.
 * Launch 1 starts at 32 (the reports of cycle 30 reach the dispatcher at
 * 32), its CTAs arrive at 42 and end at 62: on sm2 and sm0 when the round
 * goes on, on sm0 and sm1 with core.dispatch_restart (each launch begins
 * at the first SM of its range, as every ubench5 `place` launch on the
 * H100 begins at the same SMs). */
static void two_launches(const char *restart, unsigned sm_a, unsigned sm_b)
{
    const char *sets[] = {"gpu.sms=3", restart, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 2, 32, NULL, 0, 0, -1);
    harness_launch(h, k_three, 2, 32, NULL, 0, 0, 0);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 1, 10, 30);
    expect_cta(h, 1, 0, sm_a, 42, 62);
    expect_cta(h, 1, 1, sm_b, 42, 62);
    harness_free(h);
}

Test(cta, round_robin_goes_on_across_launches) { two_launches("core.dispatch_restart=false", 2, 0); }
Test(cta, dispatch_restart_at_each_launch) { two_launches("core.dispatch_restart=true", 0, 1); }

/* core.dispatch_order = h100: a launch of n CTAs takes the SMs the H100
 * gave the smallest measured launch of at least n CTAs (ubench5 place: 4
 * CTAs on SMs 124, 126, 128, 130; 8 on 128-131 then 124-127), in that
 * order; each CTA alone on its SM runs 10..30. On a 4-SM chip none of
 * those SMs exists, and the 132-CTA order (128-131, 124-127, 0, 1, 16, 17,
 * 32, 33, 48, 49, 2, 3, ...) leaves 0, 1, 2, 3. */
static void h100_order(const char *sms, unsigned n, const unsigned *want)
{
    const char *sets[] = {sms, "core.dispatch_order=h100", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, n, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned c = 0; c < n; c++)
        expect_cta(h, 0, c, want[c], 10, 30);
    harness_free(h);
}

Test(cta, h100_order_four_ctas)
{
    static const unsigned want[] = {124, 126, 128, 130};
    h100_order("gpu.sms=132", 4, want);
}

Test(cta, h100_order_between_measured_sizes)
{
    static const unsigned want[] = {128, 129, 130, 131, 124, 125};   /* the 8-CTA order's first 6 */
    h100_order("gpu.sms=132", 6, want);
}

Test(cta, h100_order_on_a_small_chip)
{
    static const unsigned want[] = {0, 1, 2, 3};
    h100_order("gpu.sms=4", 4, want);
}

/* core.dispatch_interval = 1.5: one CTA per 1.5 cycles for the chip. The
 * dispatcher may send a CTA in cycle k while its token is before k + 1,
 * and each rate-limited CTA moves the token to max(token, k) + 1.5. One SM,
 * 4 one-warp CTAs from cycle 0, no burst: token 0 -> CTA 0 at 0 (token
 * 1.5), CTA 1 at 1 (1.5 < 2; token 3), CTA 2 at 3 (token 4.5), CTA 3 at 4
 * (token 6). Each arrives 10 cycles after and runs alone on the
 * scheduler's issue slots (a, a+7, a+14 distinct for a = 10, 11, 13, 14),
 * ending at a + 20. */
Test(cta, dispatch_interval_fractional)
{
    const char *sets[] = {"core.dispatch_interval=1.5", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 4, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 0, 11, 31);
    expect_cta(h, 0, 2, 0, 13, 33);
    expect_cta(h, 0, 3, 0, 14, 34);
    harness_free(h);
}

/* With core.dispatch_burst = 1 on 2 SMs the launch's first 2 CTAs (1 per
 * SM) go out at cycle 0 without the rate and leave the token at 0; CTAs
 * 2-5 then follow the 1.5-cycle rate as above: decided at 0, 1, 3, 4,
 * round-robin sm0, sm1, sm0, sm1. sm0 holds warps arriving at 10, 10, 13:
 * the two at 10 end at 30 and 31 (concurrent_ctas), the one at 13 at 33;
 * sm1's arrive at 10, 11, 14 and end at 30, 31, 34. */
Test(cta, dispatch_burst_then_interval)
{
    const char *sets[] = {"gpu.sms=2", "core.dispatch_interval=1.5", "core.dispatch_burst=1", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 6, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 30);
    expect_cta(h, 0, 1, 1, 10, 30);
    expect_cta(h, 0, 2, 0, 10, 31);
    expect_cta(h, 0, 3, 1, 11, 31);
    expect_cta(h, 0, 4, 0, 13, 33);
    expect_cta(h, 0, 5, 1, 14, 34);
    harness_free(h);
}

Test(cta, launch_start_and_after)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 1, 32, NULL, 0, 100, -1);
    harness_launch(h, k_three, 1, 32, NULL, 0, 0, 0);
    cr_assert(harness_run(h, 10000));
    /* launch 0 starts at 100, its CTA runs 110..130; launch 1 starts when
     * the dispatcher hears of it at 132, and runs 142..162 */
    core_launch_result r0 = dispatcher_launch_result(h->d, 0), r1 = dispatcher_launch_result(h->d, 1);
    cr_expect_eq(r0.start_cycle, 100);
    cr_expect_eq(r0.end_cycle, 130);
    cr_expect_eq(r1.start_cycle, 132);
    cr_expect_eq(r1.end_cycle, 162);
    expect_cta(h, 1, 0, 0, 142, 162);
    harness_free(h);
}

static const char *k_barrier =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"            /* 0 */
    "    setp.lt.u32 p0, r0, 32\n"    /* 1: warp 0 only */
    "    @!p0 bra wait\n"             /* 2 */
    "    add r1, r0, 1\n"             /* 3 */
    "    add r1, r1, 1\n"             /* 4 */
    "wait:\n"
    "    bar.sync\n"                  /* 5 */
    "    add r2, r0, 3\n"             /* 6 */
    "    exit\n";                     /* 7 */

Test(cta, barrier)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_barrier, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* w0: pcs 0-4 at 10, 17, 24, 31, 38, bar @45 (done 51).
     * w1: pcs 0-2 at 11, 18, 25, bar @32: waits. The last arrival's
     * write-back is at 51: both fetchable at 52; round-robin goes on after
     * w0 (issued last): w1 add @52, w0 add @53, exits @59, @60, done 66 */
    cr_assert_eq(h->nlog, 14);
    cr_expect_eq(h->log[7].cycle, 32);
    cr_expect_eq(h->log[7].pc, 5);
    cr_expect_eq(h->log[9].cycle, 45);
    cr_expect_eq(h->log[9].pc, 5);
    cr_expect_eq(h->log[10].cycle, 52);
    cr_expect_eq(h->log[10].warp, 1);
    cr_expect_eq(h->log[11].cycle, 53);
    cr_expect_eq(h->log[11].warp, 0);
    cr_expect_eq(harness_end(h, 0), 66);
    cr_expect_eq(harness_counter(h, "sm0", "barrier_waits"), 2);
    harness_free(h);
}

Test(cta, barrier_latency)
{
    const char *sets[] = {"core.barrier_latency=5", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_barrier, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* released at 52 + 5 = 57: adds @57, @58, exits @64, @65, done 71 */
    cr_expect_eq(h->log[10].cycle, 57);
    cr_expect_eq(harness_end(h, 0), 71);
    harness_free(h);
}

Test(cta, barrier_waits_for_exited_warps_only_if_alive)
{
    /* warp 1 exits before the barrier; warp 0 alone passes it */
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   "    mov r0, %tid.x\n"
                   "    setp.ge.u32 p0, r0, 32\n"
                   "    @p0 exit\n"
                   "    bar.sync\n"
                   "    exit\n",
                   1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* w0: 10, 17, 24 (exit: no lane), bar @31 (done 37), exit @38, done 44;
     * w1 exits @25 */
    cr_expect_eq(harness_end(h, 0), 44);
    harness_free(h);
}

Test(cta, cycle_limit_leaves_ctas_unfinished)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "loop:\n    bra loop\n    exit\n", 2, 32, NULL, 0, 0, -1);
    cr_expect_not(harness_run(h, 500));
    cr_expect_eq(dispatcher_unfinished(h->d), 2);
    harness_free(h);
}

/* ---- bad launches: every check of dispatcher_add_launch ---------------- */

static void expect_launch_error(const char *const *sets, const char *kernel, uint32_t bx, uint32_t gx,
                                int first, int last, int after, const char *frag)
{
    harness *h = harness_new(sets);
    uint32_t g[3] = {gx, 1, 1}, b[3] = {bx, 1, 1};
    char *msg = NULL;
    cr_assert_lt(harness_try_launch(h, kernel, g, b, first, last, after, &msg), 0);
    cr_expect(strstr(msg, frag) != NULL, "message '%s' lacks '%s'", msg, frag);
    cr_expect(strstr(msg, "launch k0") != NULL, "message '%s' names no launch", msg);
    g_free(msg);
    harness_free(h);
}

Test(cta_errors, too_many_warps)
{
    const char *sets[] = {NULL};
    expect_launch_error(sets, k_three, 2048, 1, -1, -1, -1, "core.max_warps");
}

Test(cta_errors, too_many_threads)
{
    const char *sets[] = {"core.max_threads=64", NULL};
    expect_launch_error(sets, k_three, 96, 1, -1, -1, -1, "core.max_threads");
}

Test(cta_errors, too_many_registers)
{
    const char *sets[] = {"core.regs=63", NULL};
    expect_launch_error(sets, k_three, 32, 1, -1, -1, -1, "core.regs");
}

Test(cta_errors, too_much_shared_memory)
{
    const char *sets[] = {"core.smem_bytes=100", NULL};
    expect_launch_error(sets, ".shared b u8[128]\nexit\n", 32, 1, -1, -1, -1, "core.smem_bytes");
}

Test(cta_errors, sm_range_beyond_the_chip)
{
    const char *sets[] = {NULL};
    expect_launch_error(sets, k_three, 32, 1, 0, 3, -1, "SM range 0-3");
}

Test(cta_errors, sm_range_reversed)
{
    const char *sets[] = {"gpu.sms=2", NULL};
    expect_launch_error(sets, k_three, 32, 1, 1, 0, -1, "SM range 1-0");
}

Test(cta_errors, bad_after)
{
    const char *sets[] = {NULL};
    expect_launch_error(sets, k_three, 32, 1, -1, -1, 0, "'after'");
}

Test(cta_errors, zero_dimension)
{
    const char *sets[] = {NULL};
    expect_launch_error(sets, k_three, 32, 0, -1, -1, -1, "dimensions");
}

Test(cta_errors, missing_param)
{
    const char *sets[] = {NULL};
    expect_launch_error(sets, ".param n\nexit\n", 32, 1, -1, -1, -1, "param");
}

Test(cta_errors, params_max_threads_below_warp)
{
    const char *sets[] = {"core.max_threads=16", NULL};
    char *msg = NULL;
    harness *h = harness_try_new(sets, &msg);
    cr_assert_null(h);
    cr_expect(strstr(msg, "core.max_threads = 16") && strstr(msg, "core.warp_size = 32"), "%s", msg);
    g_free(msg);
}

/* ---- whole-warp allocation: a CTA of 33 threads holds 2 warps = 64
 * thread slots and 2 x 64 = 128 registers (k_three: r0, r1). ---------- */

/* Only one fits: CTA 0 arrives at 10 (warp 0 issues 10, 17, 24; warp 1
 * 11, 18, 25, done 31); its report leaves at 32, reaches the dispatcher
 * at 33, CTA 1 arrives at 43 and ends at 64. */
static void serialized_33(const char *const *sets)
{
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 2, 33, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 31);
    expect_cta(h, 0, 1, 0, 43, 64);
    harness_free(h);
}

/* Both fit: four warps from 10, round-robin: CTA 0's warps exit at 24 and
 * 25 (end 31), CTA 1's at 26 and 27 (end 33). */
static void concurrent_33(const char *const *sets)
{
    harness *h = harness_new(sets);
    harness_launch(h, k_three, 2, 33, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    expect_cta(h, 0, 0, 0, 10, 31);
    expect_cta(h, 0, 1, 0, 10, 33);
    harness_free(h);
}

Test(cta, limit_threads_whole_warps_127)
{
    const char *sets[] = {"core.max_threads=127", NULL};
    serialized_33(sets);
}

Test(cta, limit_threads_whole_warps_128)
{
    const char *sets[] = {"core.max_threads=128", NULL};
    concurrent_33(sets);
}

Test(cta, limit_registers_whole_warps_255)
{
    const char *sets[] = {"core.regs=255", NULL};
    serialized_33(sets);
}

Test(cta, limit_registers_whole_warps_256)
{
    const char *sets[] = {"core.regs=256", NULL};
    concurrent_33(sets);
}

Test(cta, limit_warps_exact)
{
    /* 2 warps per CTA: max_warps 3 holds one CTA, 4 holds two */
    const char *sets[] = {"core.max_warps=3", NULL};
    serialized_33(sets);
}
