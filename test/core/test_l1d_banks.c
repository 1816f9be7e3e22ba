/* L1 data-cache bank conflicts (core.l1d_banks; Fung, DWF thesis, sec. 5.1.1
 * and Fig. 6.8): banks interleaved by 4-B word of the effective address; a
 * global access whose lanes hit d distinct words of one bank takes d LD/ST
 * passes when d exceeds the warp's passes (same word: one delivery).
 *
 * With core.l1d_bank_bytes = 64 the banks are interleaved by 64-B line (as
 * GPGPU-Sim's dcache_bank_func): d is then the most distinct lines of one
 * bank.
 *
 * Timeline as in test_units.c: one warp of 32, mov @10, shl @17, st.global
 * @24; the store completes at 24 + 6 + (passes - 1) and the exit issues the
 * cycle after; the launch ends 6 cycles after the exit's issue. */
#include "harness.h"

static void st_case3(const char *banks, const char *lanes, const char *unit, unsigned shift,
                     uint64_t exit_at, long long conflicts)
{
    const char *sets[] = {banks, lanes, unit, NULL};
    char *k = g_strdup_printf(".data out u32[8192]\n"
                              "mov r0, %%tid.x\n"
                              "shl r1, r0, %u\n"
                              "st.global.u32 [r1+@out], r0\n"
                              "exit\n",
                              shift);
    harness *h = harness_one_warp_four(sets, k, exit_at);
    g_free(k);
    if (conflicts >= 0)
        cr_expect_eq(harness_counter(h, "sm0", "l1d_conflict_cycles"), (uint64_t)conflicts);
    harness_free(h);
}

static void st_case(const char *banks, const char *lanes, unsigned shift, uint64_t exit_at,
                    long long conflicts)
{
    st_case3(banks, lanes, NULL, shift, exit_at, conflicts);
}

Test(l1d_banks, off_by_default)
{
    /* no banks: 32 lanes in one pass whatever the stride: exit @31 */
    st_case("core.l1d_banks=0", "core.ldst_lanes=0", 6, 31, -1);
}

Test(l1d_banks, consecutive_words_two_per_bank)
{
    /* word i -> bank i mod 16: 2 words per bank, 2 passes: exit @32 */
    st_case("core.l1d_banks=16", "core.ldst_lanes=0", 2, 32, 1);
}

Test(l1d_banks, stride_two_words_four_per_bank)
{
    /* word 2i -> bank 2i mod 16: 8 banks of 4 words, 4 passes: exit @34 */
    st_case("core.l1d_banks=16", "core.ldst_lanes=0", 3, 34, 3);
}

Test(l1d_banks, stride_sixteen_words_one_bank)
{
    /* word 16i -> bank 0 for every lane: 32 passes: exit @62 */
    st_case("core.l1d_banks=16", "core.ldst_lanes=0", 6, 62, 31);
}

Test(l1d_banks, enough_banks_no_conflict)
{
    /* 32 banks, word i -> bank i: one word each, one pass: exit @31 */
    st_case("core.l1d_banks=32", "core.ldst_lanes=0", 2, 31, 0);
}

Test(l1d_banks, hidden_by_narrow_pipeline)
{
    /* 8 lanes: 4 passes anyway; 2 words per bank add none: exit @34 */
    st_case("core.l1d_banks=16", "core.ldst_lanes=8", 2, 34, 0);
}

Test(l1d_banks, beyond_the_passes_of_a_narrow_pipeline)
{
    /* 8 lanes, one bank: 32 passes instead of 4, 28 extra: exit @62 */
    st_case("core.l1d_banks=16", "core.ldst_lanes=8", 6, 62, 28);
}

Test(l1d_banks, by_line_one_line_per_lane)
{
    /* 64-B interleave, lane l at line l -> bank l mod 16: 2 lines per bank,
     * 2 passes (word interleave: all in bank 0, 32 passes): exit @32 */
    st_case3("core.l1d_banks=16", "core.ldst_lanes=0", "core.l1d_bank_bytes=64", 6, 32, 1);
}

Test(l1d_banks, by_line_coalesced_no_conflict)
{
    /* 64-B interleave, consecutive words: lines 0 and 1 in banks 0 and 1,
     * one line each: one pass: exit @31 */
    st_case3("core.l1d_banks=16", "core.ldst_lanes=0", "core.l1d_bank_bytes=64", 2, 31, 0);
}

Test(l1d_banks, by_line_sixteen_lines_apart)
{
    /* 64-B interleave, lanes 1 KB apart: lines 16 l, all in bank 0: 32
     * passes: exit @62 */
    st_case3("core.l1d_banks=16", "core.ldst_lanes=0", "core.l1d_bank_bytes=64", 10, 62, 31);
}
