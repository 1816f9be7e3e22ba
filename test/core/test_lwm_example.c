/* The workloads/lwm-baseline example (its README.md): the LWM/2Lev baseline
 * core on the ideal memory, round-robin against two-level scheduling
 * (G = 8), for a memory-heavy and a branch-divergent kernel. Each sweep
 * point of the scenario runs in its own process (one SimGrid engine per
 * process).
 *
 * Expected, from the papers ([P] sections 3.2 and 5, [D] Fig. 5.6): under
 * round-robin every warp reaches the load of an iteration within one
 * round (32 fetches), and the FUs idle for most of the 300-cycle memory
 * latency; two-level scheduling fetches from one group of 8 warps (enough
 * for the 7-stage barrel) until it waits on memory, so the other groups'
 * compute covers the latency: fewer idle-FU cycles. The divergent kernel
 * has no memory stall to cover and keeps the pipeline full under both,
 * so nothing changes. */
#include <string.h>

#include "harness.h"
#include "simtgrid/scenario.h"

typedef struct point_result {
    uint64_t end, cycles, fu_idle, warp_insts, thread_insts;
    uint64_t w0_mem, switches;
} point_result;

typedef struct point_arg {
    const char *scenario;
    unsigned point;
} point_arg;

static void run_point(void *ctx, void *out)
{
    const point_arg *a = ctx;
    point_result *r = out;
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/lwm-baseline/%s", root ? root : ".", a->scenario);
    GError *err = NULL;
    scenario *s = scenario_load(path, NULL, &err);
    cr_assert_not_null(s, "%s", err ? err->message : path);
    cr_assert_eq(scenario_npoints(s), 2);
    config *c = scenario_point(s, a->point, &err);
    cr_assert_not_null(c, "%s", err ? err->message : "");
    harness *h = harness_new_config(c);
    cr_assert_eq(s->nlaunches, 1);
    const launch *l = &s->launches[0];
    harness_launch_file(h, l->kernel, l->grid, l->block, l->args, l->nargs);
    cr_assert(harness_run(h, 100000000));
    sm_totals t = sm_get_totals(h->sms[0]);
    r->end = harness_end(h, 0);
    r->cycles = t.cycles;
    r->fu_idle = t.fu_idle_cycles;
    r->warp_insts = t.warp_insts;
    r->thread_insts = t.thread_insts;
    r->w0_mem = harness_counter(h, "sm0.sched0", "w0_mem");
    uint64_t sw = 0;
    stats_get_counter(h->st, "sm0.sched0", "group_switches", &sw);
    r->switches = sw;
    harness_free(h);
    config_free(c);
    scenario_free(s);
    g_free(path);
}

static void run_both(const char *scen, point_result *rr, point_result *two)
{
    point_arg a0 = {scen, 0}, a1 = {scen, 1};   /* core.scheduler = lrr, 2lev */
    harness_fork(run_point, &a0, rr, sizeof *rr);
    harness_fork(run_point, &a1, two, sizeof *two);
}

Test(lwm_example, memory_heavy_two_level_cuts_idle_fu_cycles, .timeout = 120)
{
    point_result rr, two;
    run_both("memory.ini", &rr, &two);
    /* the same work: 1024 threads x (8 before the loop + 16 trips x 18 + 3) */
    cr_expect_eq(rr.thread_insts, 1024 * (8 + 16 * 18 + 3));
    cr_expect_eq(two.thread_insts, rr.thread_insts);
    cr_expect_gt(two.switches, 0);
    cr_expect_lt(two.fu_idle, rr.fu_idle, "idle FU cycles: 2lev %lu, RR %lu", (unsigned long)two.fu_idle,
                 (unsigned long)rr.fu_idle);
    /* by a clear margin (the papers: most of the idle cycles go away) */
    cr_expect_lt(two.fu_idle * 10, rr.fu_idle * 8, "2lev %lu vs RR %lu", (unsigned long)two.fu_idle,
                 (unsigned long)rr.fu_idle);
    cr_expect_lt(two.end, rr.end, "2lev %lu cycles, RR %lu", (unsigned long)two.end, (unsigned long)rr.end);
    cr_expect_lt(two.w0_mem, rr.w0_mem);
}

Test(lwm_example, divergent_no_change, .timeout = 120)
{
    point_result rr, two;
    run_both("divergent.ini", &rr, &two);
    cr_expect_eq(two.thread_insts, rr.thread_insts);
    cr_expect_eq(two.warp_insts, rr.warp_insts);
    /* divergent: well under 32 active threads per warp instruction */
    cr_expect_lt(rr.thread_insts, rr.warp_insts * 28);
    /* the pipeline stays full either way: same cycles within 1 % */
    uint64_t lo = rr.end < two.end ? rr.end : two.end, hi = rr.end < two.end ? two.end : rr.end;
    cr_expect_leq((hi - lo) * 100, lo, "RR %lu cycles, 2lev %lu", (unsigned long)rr.end,
                  (unsigned long)two.end);
    cr_expect_leq(rr.fu_idle * 20, rr.cycles, "RR idles %lu of %lu cycles", (unsigned long)rr.fu_idle,
                  (unsigned long)rr.cycles);
}
