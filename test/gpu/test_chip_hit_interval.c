/* l1d.warp_hit_interval through the assembled chip: one warp's L1 hits come
 * back at most one line per that many core cycles.
 *
 * One warp, lane l reads word 0 of line l (32 distinct lines of a 32-way
 * L1). The first load misses and fills all 32 lines; the second, dependent
 * on it (its address adds the loaded zero), hits all 32. The LD/ST unit
 * passes one access per cycle, so the second load's accesses enter the L1
 * at cycles c .. c+31. With the interval off every hit is ready
 * hit_latency (20) later: the last at c+51. With interval 2 the k-th hit is
 * ready at max(c+k+20, c+20+2k) = c+20+2k: the last at c+82, 31 cycles
 * later; nothing after it depends on the memory side, so the whole run is
 * 31 core cycles longer. With interval 1 the unit's own rate already
 * spaces the hits a cycle apart: no change. */
#include "gpu_test_util.h"

static const char *model = CHIP_ONE_SM_L1_MODEL;

static const char *kernel = ".kernel hits\n.data a u32[1024] = zero\n"
                            "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                            "    ld.global.ca.u32 r3, [r2+@a]\n    add r2, r2, r3\n"
                            "    ld.global.ca.u32 r4, [r2+@a]\n    add r5, r4, 1\n    exit\n";

static bool hit_32(const chip_run *cr, const void *arg)
{
    (void)arg;
    return chip_counter(cr, "sm0.l1d", "hits") == 32;
}

/* Core cycles of the run; the second load must hit 32 times. */
static uint64_t run_cycles(const char *interval)
{
    char *set = interval ? g_strdup_printf("l1d.warp_hit_interval=%s", interval) : NULL;
    uint64_t c = chip_cycles_in_child(model, kernel, set, hit_32, NULL);
    g_free(set);
    return c;
}

Test(chip_hit_interval, one_warp_hits_return_every_other_cycle)
{
    uint64_t off = run_cycles(NULL), two = run_cycles("2");
    cr_expect_eq(two - off, 31, "interval 2 adds 31 cycles: %lu vs %lu", (unsigned long)two,
                 (unsigned long)off);
}

Test(chip_hit_interval, interval_one_is_the_port_rate)
{
    uint64_t off = run_cycles(NULL), one = run_cycles("1");
    cr_expect_eq(one, off, "%lu vs %lu", (unsigned long)one, (unsigned long)off);
}
