/* l1d.accesses_per_cycle through the assembled chip: the L1 takes up to
 * that many of one instruction's line accesses per core cycle.
 *
 * One warp, lane l reads word 0 of line l (32 distinct lines of a 32-way
 * L1). Kernel B: a first load misses and fills the 32 lines; a second,
 * dependent on it, hits all 32; then one dependent add and exit. Kernel A
 * is B without the second load (the add depends on the first load), so
 * B - A is the second load's time from its issue to its last hit plus
 * nothing else that depends on the port. With one access per cycle the
 * second load's accesses enter the L1 at c .. c+31 and the last hit is
 * ready at c+31+20; with 32 per cycle all enter at c, the last ready at
 * c+20: B - A is 31 cycles shorter. With 4 per cycle they enter at c ..
 * c+7 (8 cycles of 4): 24 cycles shorter than with one. */
#include "gpu_test_util.h"

static const char *model = CHIP_ONE_SM_L1_MODEL;

static const char *kernel_b = ".kernel hits\n.data a u32[1024] = zero\n"
                              "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                              "    ld.global.ca.u32 r3, [r2+@a]\n    add r2, r2, r3\n"
                              "    ld.global.ca.u32 r4, [r2+@a]\n    add r5, r4, 1\n    exit\n";
static const char *kernel_a = ".kernel hits\n.data a u32[1024] = zero\n"
                              "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                              "    ld.global.ca.u32 r3, [r2+@a]\n    add r2, r2, r3\n"
                              "    add r5, r3, 1\n    exit\n";

static bool hits_as_expected(const chip_run *cr, const void *arg)
{
    return chip_counter(cr, "sm0.l1d", "hits") == *(const unsigned *)arg;
}

/* Core cycles of the run; with kernel B the 32 hits are checked. */
static uint64_t run_cycles(const char *kernel, unsigned hits, const char *ports)
{
    char *set = g_strdup_printf("l1d.accesses_per_cycle=%s", ports);
    uint64_t c = chip_cycles_in_child(model, kernel, set, hits_as_expected, &hits);
    g_free(set);
    return c;
}

/* B - A: the second load's share of the run. */
static int64_t second_load(const char *ports)
{
    return (int64_t)run_cycles(kernel_b, 32, ports) - (int64_t)run_cycles(kernel_a, 0, ports);
}

Test(chip_l1_ports, a_warps_lines_at_once)
{
    int64_t one = second_load("1"), all = second_load("32");
    cr_expect_eq(one - all, 31, "32 ports save 31 cycles: %ld vs %ld", (long)one, (long)all);
}

Test(chip_l1_ports, four_per_cycle)
{
    int64_t one = second_load("1"), four = second_load("4");
    cr_expect_eq(one - four, 24, "4 ports save 24 cycles: %ld vs %ld", (long)one, (long)four);
}
