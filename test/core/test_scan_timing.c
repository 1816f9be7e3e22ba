/* COND_ACC / TREE_TRAVERSE prefix-sum latency (core.cond_acc_levels_per_cycle;
 * Narasiman's dissertation section 7.1: log2(32) = 5 adder levels). Timings
 * as in test_unit_classes.c: mov @10 done 16; tree_traverse @17 on the ALU
 * (latency 1) completes at 17 + 6 + (1 - 1) + scan = 23 + scan; the exit
 * issues the next cycle and the launch ends at its done, 6 cycles later. */
#include "harness.h"

static uint64_t traverse_end(const char *per_cycle)
{
    const char *sets[] = {per_cycle, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, %tid.x\ntree_traverse r1, r0, p0, 32\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[1].cycle, 17);
    uint64_t end = harness_end(h, 0);
    harness_free(h);
    return end;
}

/* default: the whole tree fits in the stage, no extra cycle: 23 + 1 + 6 */
Test(scan_timing, default_adds_nothing)
{
    cr_expect_eq(traverse_end(NULL), 30);
}

/* one level a cycle: 5 extra cycles */
Test(scan_timing, one_level_per_cycle)
{
    cr_expect_eq(traverse_end("core.cond_acc_levels_per_cycle=1"), 35);
}

/* two levels a cycle: ceil(5 / 2) = 3 */
Test(scan_timing, two_levels_per_cycle)
{
    cr_expect_eq(traverse_end("core.cond_acc_levels_per_cycle=2"), 33);
}

/* five or more levels a cycle: 1 */
Test(scan_timing, five_levels_per_cycle)
{
    cr_expect_eq(traverse_end("core.cond_acc_levels_per_cycle=8"), 31);
}

/* a 16-thread warp has 4 levels: ceil(4 / 3) = 2 */
Test(scan_timing, sixteen_thread_warp)
{
    const char *sets[] = {"core.cond_acc_levels_per_cycle=3", "core.warp_size=16", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, %tid.x\ntree_traverse r1, r0, p0, 32\nexit\n", 1, 16, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(harness_end(h, 0), 32);
    harness_free(h);
}
