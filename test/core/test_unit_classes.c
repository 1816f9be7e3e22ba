/* Unit classes added for the H100 correlation (issue 6): the conversion
 * (CVT) units, per-function SFU latencies, and units owned by a scheduler
 * (core.units_per_scheduler). Timings as in test_timing.c: the CTA's warps
 * are fetchable at cycle 10; an instruction issued at k on a unit of
 * latency L with U passes of ii 1 completes at done = k + 6 + (L - 1) +
 * (U - 1), holds its unit for cycles k .. k + U - 1, and (barrel) the warp
 * is fetched again at done + 1. The launch ends at the exit's done. */
#include <string.h>

#include "harness.h"

/* ---- conversions --------------------------------------------------------- */

static uint64_t cvt_end(const char *const *sets, const char *cvt)
{
    harness *h = harness_new(sets);
    char *k = g_strdup_printf("mov r0, %%tid.x\n%s\nexit\n", cvt);
    harness_launch(h, k, 1, 32, NULL, 0, 0, -1);
    g_free(k);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[1].cycle, 17);   /* mov @10, done 16 */
    uint64_t end = harness_end(h, 0);
    harness_free(h);
    return end;
}

/* no CVT units (default): the float cvt is a 1-cycle ALU op: cvt @17
 * done 23, exit @24 done 30 */
Test(unit_classes, cvt_i2f_defaults_to_the_alu)
{
    const char *sets[] = {NULL};
    cr_expect_eq(cvt_end(sets, "cvt.f32.u32 r1, r0"), 30);
}

Test(unit_classes, cvt_f2i_defaults_to_the_alu)
{
    const char *sets[] = {NULL};
    cr_expect_eq(cvt_end(sets, "cvt.u32.f32 r1, r0"), 30);
}

/* one CVT unit of 8 lanes (4 passes), latency 5: cvt @17, done
 * 17 + 6 + 4 + 3 = 30; exit @31 done 37, in both directions and for
 * f32 -> f64 (a float on both sides) */
static const char *const cvt_unit_sets[] = {"core.cvt_units=1", "core.cvt_lanes=8", "core.cvt_latency=5",
                                            NULL};

Test(unit_classes, cvt_unit_i2f)
{
    cr_expect_eq(cvt_end(cvt_unit_sets, "cvt.f32.u32 r1, r0"), 37);
}

Test(unit_classes, cvt_unit_f2i)
{
    cr_expect_eq(cvt_end(cvt_unit_sets, "cvt.u32.f32 r1, r0"), 37);
}

Test(unit_classes, cvt_unit_f2f)
{
    cr_expect_eq(cvt_end(cvt_unit_sets, "cvt.f64.f32 r1, r0"), 37);
}

Test(unit_classes, integer_cvt_stays_on_the_alu)
{
    /* cvt between integer types is an ALU op even with CVT units: 30 as
     * with the defaults */
    cr_expect_eq(cvt_end(cvt_unit_sets, "cvt.u32.u16 r1, r0"), 30);
}

Test(unit_classes, cvt_unit_is_a_structural_hazard)
{
    /* two warps, one CVT unit of 8 lanes, ii 2: w0 mov @10, w1 mov @11;
     * w0 cvt @17 holds the unit 2 x 4 = 8 cycles (free at 25), done
     * 17 + 6 + 4 + 2 x 3 = 33; w1 is ready at 18 but waits: cvt @25,
     * done 41; exits @34 and @42, done 48 */
    const char *sets[] = {"core.cvt_units=1", "core.cvt_lanes=8", "core.cvt_latency=5", "core.cvt_ii=2",
                          NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, %tid.x\ncvt.f32.u32 r1, r0\nexit\n", 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[2].cycle, 17);
    cr_expect_eq(h->log[2].warp, 0);
    cr_expect_eq(h->log[3].cycle, 25);
    cr_expect_eq(h->log[3].warp, 1);
    cr_expect_eq(harness_end(h, 0), 48);
    harness_free(h);
}

/* ---- per-function SFU latency ------------------------------------------- */

static const char *k_mufu =
    "mov.f32 r0, 0.5\n"
    "sin.f32 r1, r0\n"
    "ex2.f32 r2, r0\n"
    "lg2.f32 r3, r0\n"
    "rsqrt.f32 r4, r0\n"
    "sqrt.f32 r5, r0\n"
    "div.f32 r6, r0, r0\n"
    "exit\n";

static void mufu_case(const char *const *sets, const uint64_t want[8], uint64_t end)
{
    harness *h = harness_new(sets);
    harness_launch(h, k_mufu, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 8);
    for (unsigned i = 0; i < 8; i++)
        cr_expect_eq(h->log[i].cycle, want[i], "instruction %u issued at %" G_GUINT64_FORMAT ", expected %"
                     G_GUINT64_FORMAT, i, h->log[i].cycle, want[i]);
    cr_expect_eq(harness_end(h, 0), end);
    harness_free(h);
}

Test(unit_classes, sfu_function_latencies_default_to_sfu_latency)
{
    /* every SFU op latency 3: the next fetch is 6 + 3 = 9 cycles later;
     * mov @10 (next @17), then 17, 26, 35, 44, 53, 62, exit @71 done 77 */
    const char *sets[] = {"core.sfu_latency=3", NULL};
    const uint64_t want[8] = {10, 17, 26, 35, 44, 53, 62, 71};
    mufu_case(sets, want, 77);
}

Test(unit_classes, sfu_function_latencies)
{
    /* sin 5, ex2/lg2 9, rsqrt/sqrt 2, div keeps sfu_latency 3: next fetch
     * 6 + L later: mov @10; sin @17 (+11) ex2 @28 (+15) lg2 @43 (+15)
     * rsqrt @58 (+8) sqrt @66 (+8) div @74 (+9) exit @83, done 89 */
    const char *sets[] = {"core.sfu_latency=3", "core.sfu_sin_latency=5", "core.sfu_ex2_latency=9",
                          "core.sfu_rsqrt_latency=2", NULL};
    const uint64_t want[8] = {10, 17, 28, 43, 58, 66, 74, 83};
    mufu_case(sets, want, 89);
}

Test(unit_classes, sfu_function_groups)
{
    /* cos with sin (5), exp and log with ex2 (9), rcp with rsqrt (2):
     * mov @10; cos @17 (+11) exp @28 (+15) log @43 (+15) rcp @58 (+8)
     * exit @66, done 72 */
    const char *sets[] = {"core.sfu_latency=3", "core.sfu_sin_latency=5", "core.sfu_ex2_latency=9",
                          "core.sfu_rsqrt_latency=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   "mov.f32 r0, 0.5\n"
                   "cos.f32 r1, r0\n"
                   "exp.f32 r2, r0\n"
                   "log.f32 r3, r0\n"
                   "rcp.f32 r4, r0\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 6);
    const uint64_t want[6] = {10, 17, 28, 43, 58, 66};
    for (unsigned i = 0; i < 6; i++)
        cr_expect_eq(h->log[i].cycle, want[i], "instruction %u", i);
    cr_expect_eq(harness_end(h, 0), 72);
    harness_free(h);
}

/* ---- units per scheduler -------------------------------------------------- */

/* One warp (scheduler 0), scoreboard: three independent sins after the mov
 * (r0 readable at 17). SFUs of 8 lanes: each sin holds its unit 4 cycles. */
static void three_sins(const char *const *sets, uint64_t a, uint64_t b, uint64_t c)
{
    harness *h = harness_new(sets);
    harness_launch(h,
                   "mov.f32 r0, 0.5\n"
                   "sin.f32 r1, r0\n"
                   "sin.f32 r2, r0\n"
                   "sin.f32 r3, r0\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[1].cycle, a);
    cr_expect_eq(h->log[2].cycle, b);
    cr_expect_eq(h->log[3].cycle, c);
    harness_free(h);
}

Test(unit_classes, units_shared_by_default)
{
    /* 2 schedulers, 2 SFUs shared: sin @17 (unit A until 21), @18 (unit B
     * until 22), @21 (A again) */
    const char *sets[] = {"core.discipline=scoreboard", "core.schedulers=2", "core.sfu_units=2",
                          "core.sfu_lanes=8", NULL};
    three_sins(sets, 17, 18, 21);
}

Test(unit_classes, units_per_scheduler)
{
    /* scheduler 0 owns unit 0 only: @17, @21, @25 */
    const char *sets[] = {"core.discipline=scoreboard", "core.schedulers=2", "core.sfu_units=2",
                          "core.sfu_lanes=8", "core.units_per_scheduler=true", NULL};
    three_sins(sets, 17, 21, 25);
}

Test(unit_classes, units_per_scheduler_two_each)
{
    /* 4 SFUs, 2 schedulers: scheduler 0 owns units 0 and 2: @17, @18, then
     * the first to free (unit 0 at 21) */
    const char *sets[] = {"core.discipline=scoreboard", "core.schedulers=2", "core.sfu_units=4",
                          "core.sfu_lanes=8", "core.units_per_scheduler=true", NULL};
    three_sins(sets, 17, 18, 21);
}

Test(unit_classes, four_units_shared)
{
    /* the same, shared: one free SFU each cycle: @17, @18, @19 */
    const char *sets[] = {"core.discipline=scoreboard", "core.schedulers=2", "core.sfu_units=4",
                          "core.sfu_lanes=8", NULL};
    three_sins(sets, 17, 18, 19);
}

Test(unit_classes, fewer_units_than_schedulers)
{
    /* 2 SFUs, 4 schedulers: scheduler 0 uses unit 0 mod 2 = 0 alone */
    const char *sets[] = {"core.discipline=scoreboard", "core.schedulers=4", "core.sfu_units=2",
                          "core.sfu_lanes=8", "core.units_per_scheduler=true", NULL};
    three_sins(sets, 17, 21, 25);
}

Test(unit_classes, per_scheduler_units_serve_other_schedulers_warps)
{
    /* 2 warps, 2 schedulers (w0 -> scheduler 0, w1 -> 1), 2 ALUs, 2 SFUs
     * and 2 branch units, one of each per scheduler, barrel: both movs @10
     * (each scheduler its own port and ALU), both sins @17 on their own
     * SFUs: done 17 + 6 + 3 = 26, exits @27 on their own branch units,
     * done 33 */
    const char *sets[] = {"core.schedulers=2", "core.alu_units=2", "core.branch_units=2", "core.sfu_units=2",
                          "core.sfu_lanes=8", "core.units_per_scheduler=true", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov.f32 r0, 0.5\nsin.f32 r1, r0\nexit\n", 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[2].cycle, 17);
    cr_expect_eq(h->log[3].cycle, 17);
    cr_expect_eq(harness_end(h, 0), 33);
    harness_free(h);
}

/* ---- barrier units and the rotating claim order ------------------------- */

/* Two warps, two schedulers (w0 -> scheduler 0, w1 -> 1), one ALU and one
 * branch unit each, barrel: both movs @10, both bar.sync fetched at 17. */
static void two_bars(const char *const *extra, uint64_t c0, unsigned w0, uint64_t c1, unsigned w1)
{
    const char *sets[12] = {"core.schedulers=2", "core.alu_units=2", "core.branch_units=2",
                            "core.units_per_scheduler=true"};
    unsigned n = 4;
    for (unsigned i = 0; extra[i]; i++)
        sets[n++] = extra[i];
    sets[n] = NULL;
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, %tid.x\nbar.sync\nexit\n", 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[2].cycle, c0);
    cr_expect_eq(h->log[2].warp, w0);
    cr_expect_eq(h->log[3].cycle, c1);
    cr_expect_eq(h->log[3].warp, w1);
    harness_free(h);
}

Test(unit_classes, barriers_on_the_branch_units_by_default)
{
    /* each scheduler's own branch unit: both bars @17 */
    const char *extra[] = {NULL};
    two_bars(extra, 17, 0, 17, 1);
}

Test(unit_classes, barrier_unit_of_the_sm)
{
    /* one barrier unit per SM, ii 2: w0's bar @17 holds it to 19, w1's bar
     * waits for it although its branch unit is free */
    const char *extra[] = {"core.bar_units=1", "core.bar_ii=2", NULL};
    two_bars(extra, 17, 0, 19, 1);
}

Test(unit_classes, rotating_claim_order)
{
    /* the same with core.issue_rotate: cycle 17 starts at scheduler
     * 17 mod 2 = 1, so w1 takes the unit @17 and w0 waits to 19 */
    const char *extra[] = {"core.bar_units=1", "core.bar_ii=2", "core.issue_rotate=true", NULL};
    two_bars(extra, 17, 1, 19, 0);
}

Test(unit_classes, cvt_units_out_of_range)
{
    /* a bad value names the key */
    const char *sets[] = {"core.cvt_units=17", NULL};
    char *msg = NULL;
    harness *h = harness_try_new(sets, &msg);
    cr_assert_null(h);
    cr_assert_not_null(msg);
    cr_expect(strstr(msg, "core.cvt_units") != NULL, "message: %s", msg);
    g_free(msg);
}
