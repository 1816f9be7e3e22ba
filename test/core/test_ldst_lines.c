/* LD/ST passes per distinct line (core.ldst_line_bytes; ubench5 ldst on an
 * H100: a warp load costs the same for 1 to 32 distinct words of one line,
 * and one SM cycle per distinct line). Two warps of one scheduler run
 * mov, shl, ld.global, exit; the second warp's load waits for the LD/ST
 * unit the first one holds for passes x ldst_ii cycles, so the gap between
 * the two loads' issues is the first load's passes. */
#include "harness.h"

static uint64_t ld_gap(const char *lines, const char *lanes, const char *addr, const char *op)
{
    const char *sets[] = {lines, lanes, NULL};
    harness *h = harness_new(sets);
    char *k = g_strdup_printf(".data a u32[8192]\n"
                              ".data out u32[64]\n"
                              "mov r0, %%tid.x\n"
                              "%s\n"
                              "%s\n"
                              "exit\n",
                              addr, op);
    harness_launch(h, k, 1, 64, NULL, 0, 0, -1);
    g_free(k);
    cr_assert(harness_run(h, 100000));
    uint64_t at[2] = {0, 0};
    unsigned n = 0;
    for (unsigned i = 0; i < h->nlog; i++)
        if (h->log[i].pc == 2 && n < 2)   /* the memory instruction */
            at[n++] = h->log[i].cycle;
    cr_assert_eq(n, 2);
    harness_free(h);
    return at[1] - at[0];
}

static const char *ld = "ld.global.u32 r2, [r1+@a]";
static const char *words = "shl r1, r0, 2";     /* lane i on word i */
static const char *lines32 = "shl r1, r0, 7";   /* lane i on line i */
static const char *st = "st.global.u32 [r1+@out], r0";

Test(ldst_lines, off_by_default_passes_per_lanes)
{
    /* 8 lanes: 32 threads of one line in 4 passes: gap 4 */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=0", "core.ldst_lanes=8", words, ld), 4);
}

Test(ldst_lines, off_by_default_thirty_two_lines)
{
    /* 8 lanes: 32 lines are still 4 passes: gap 4 */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=0", "core.ldst_lanes=8", lines32, ld), 4);
}

Test(ldst_lines, one_line_one_pass)
{
    /* 32 consecutive words = one 128 B line: 1 pass instead of 4 */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=128", "core.ldst_lanes=8", words, ld), 1);
}

Test(ldst_lines, broadcast_one_pass)
{
    /* every lane on word 0: one line */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=128", "core.ldst_lanes=8", "mov r1, 0", ld), 1);
}

Test(ldst_lines, lanes_32_bytes_apart_eight_lines)
{
    /* lanes 32 B apart: 32 x 32 B = 1 KiB = 8 lines: 8 passes */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=128", "core.ldst_lanes=8", "shl r1, r0, 5", ld), 8);
}

Test(ldst_lines, thirty_two_lines)
{
    /* lanes 128 B apart: 32 lines, 32 passes (more than the 4 of 8 lanes) */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=128", "core.ldst_lanes=8", lines32, ld), 32);
}

Test(ldst_lines, stores_keep_passes_per_lanes)
{
    /* a coalesced store still takes 32 / 8 = 4 passes */
    cr_expect_eq(ld_gap("core.ldst_line_bytes=128", "core.ldst_lanes=8", words, st), 4);
}

Test(ldst_lines, passes_do_not_change_the_latency)
{
    /* One warp, 32 lines, 32 passes: the request leaves after the 4 passes
     * of 32 threads on 8 lanes, as without the option (ld @24, sent at
     * 24 + 3 = 27), and the ideal memory (100 cycles, one line per cycle)
     * answers at 27 + 100 + 31 = 158: exit @159, done 165 */
    const char *sets[] = {"core.ldst_line_bytes=128", "core.ldst_lanes=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data a u32[8192]\n"
                   "mov r0, %tid.x\n"
                   "shl r1, r0, 7\n"
                   "ld.global.u32 r2, [r1+@a]\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[2].cycle, 24);
    cr_expect_eq(h->log[3].cycle, 159);
    cr_expect_eq(harness_end(h, 0), 165);
    harness_free(h);
}
