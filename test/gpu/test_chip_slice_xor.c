/* l2.slice_xor: which L2 slice of a memory partition an address goes to,
 * worked by hand on the small chip of gpu_test_util.h (2 DRAM channels,
 * linear map, 256 B channel interleave) with l2.slices_per_partition = 2:
 * slices l2s0 and l2s1 belong to channel 0, l2s2 and l2s3 to channel 1.
 *
 * Address x: channel = (x / 256) % 2, q = x / 256 / 2 = x / 512. The next
 * bit (default) picks slice q % 2; with l2.slice_xor the XOR of every
 * 1-bit group of q, its parity.
 *
 * One thread loads a + 1024 k, k = 0..7 (a = 0x10000000, the first .data
 * array), one after the other, each a different line (the L1 holds one).
 * x / 256 = 0x100000 + 4 k is even: all eight are channel 0's. q = 0x80000
 * + 2 k: q % 2 = 0 for every k, so by default all eight go to l2s0 (a
 * power-of-two stride on one slice of two). parity(q) = 1 (bit 19) ^
 * parity(k): k = 0..7 have parities 0 1 1 0 1 0 0 1, so slices 1 0 0 1 0 1
 * 1 0: four loads on l2s0 and four on l2s1. */
#include "gpu_test_util.h"

/* Runs the stride with l2.slice_xor = `xor_on`; expects `on0` and `on1`
 * loads on l2s0 and l2s1 and none on channel 1's slices. */
static void expect_split(const char *xor_on, unsigned on0, unsigned on1)
{
    unsigned off[8];
    for (unsigned k = 0; k < 8; k++)
        off[k] = 1024 * k;
    char *kernel = chip_chain_kernel(off, 8);
    char *l2 = g_strconcat("[l2]\nslices_per_partition = 2\nslice_xor = ", xor_on, "\n", NULL);
    char **cut = g_strsplit(CHIP_TWO_SM_MODEL, "[l2]\n", 2);
    char *model = g_strjoin(l2, cut[0], cut[1], NULL);
    chip_run cr;
    chip_run_text(&cr, model, kernel, "grid = 1\nblock = 1\nsms = 0", (char *[]){"dram.timing=simple", NULL});
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "loads"), 8);
    cr_expect_eq(chip_counter(&cr, "l2s0", "accesses"), on0);
    cr_expect_eq(chip_counter(&cr, "l2s1", "accesses"), on1);
    cr_expect_eq(chip_counter(&cr, "l2s2", "accesses") + chip_counter(&cr, "l2s3", "accesses"), 0);
    chip_run_free(&cr);
    g_strfreev(cut);
    g_free(model);
    g_free(l2);
    g_free(kernel);
}

Test(chip_slice_xor, next_bit_puts_a_1KiB_stride_on_one_slice)
{
    expect_split("false", 8, 0);
}

Test(chip_slice_xor, xor_spreads_it_over_both)
{
    expect_split("true", 4, 4);
}
