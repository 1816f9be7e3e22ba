/* The chip-wide characterisation summary (loadchar_write) on a scripted
 * sequence of loads, every number worked out by hand below. */
#include <criterion/criterion.h>

#include "mem/loadchar.h"

static double derived(const stats *st, const char *blk, const char *name)
{
    double v = -1;
    cr_assert(stats_get_derived(st, blk, name, &v), "%s/%s", blk, name);
    return v;
}

/* PC 5, divergent: three 32-access loads over 8 sets (IWC 4), with 0, 10
 * and 32 misses: one fully cached, one partially, one fully missed. Its
 * misses: 2 cold, 2 intra-warp, 6 inter-warp (of 10 counted): shares 0.2 and
 * 0.6. The first stays 40 cycles in the unit (8 of occlusion) and has its
 * data after 100; the others 32 (none) and 200, 32 and 300: divergent
 * occlusion share 8 / 600. PC 7, coherent: one 1-access load, cached, 1
 * cycle in the unit, data after 20. Divergent loads 3 of 4. Issues by GTO
 * priority 0, 1, 2, 3: the top 3 issue 3 of 4. LDST_MSHR 50 cycles of PC 5
 * over 1000 SM cycles. */
Test(loadchar, summary_of_a_scripted_sequence)
{
    loadchar *lc = loadchar_new(2);
    loadpc *d = loadchar_pc(lc, NULL, 5), *c = loadchar_pc(lc, NULL, 7);
    cr_assert_eq(loadchar_pc(lc, NULL, 5), d, "one record per PC");
    for (unsigned i = 0; i < 3; i++)
        loadchar_load(lc, d, 32, 8, 2.0);
    loadchar_load(lc, c, 1, 1, 1.0);
    static const cache_miss_class k[10] = {CACHE_MISS_COLD, CACHE_MISS_COLD, CACHE_MISS_INTRA_WARP,
                                           CACHE_MISS_INTRA_WARP, CACHE_MISS_INTER_WARP,
                                           CACHE_MISS_INTER_WARP, CACHE_MISS_INTER_WARP,
                                           CACHE_MISS_INTER_WARP, CACHE_MISS_INTER_WARP,
                                           CACHE_MISS_INTER_WARP};
    for (unsigned i = 0; i < 10; i++)
        loadchar_miss(lc, d, i < 4 ? 0 : 40, k[i]);
    loadchar_done(lc, d, 32, 0, 40, 100);
    loadchar_done(lc, d, 32, 10, 32, 200);
    loadchar_done(lc, d, 32, 32, 32, 300);
    loadchar_done(lc, c, 1, 0, 1, 20);
    d->stall_mshr = 50;
    stats_hist *h = loadchar_issue_hist(lc);
    for (unsigned p = 0; p < 4; p++)
        stats_hist_add(h, p);

    stats *st = stats_new();
    loadchar_write(lc, st, 1000);
    cr_expect_eq(d->fully_cached, 1);
    cr_expect_eq(d->partially_cached, 1);
    cr_expect_eq(d->fully_missed, 1);
    cr_expect_float_eq(derived(st, "loadpc.5", "mean_iwc"), 4.0, 1e-12);
    cr_expect_float_eq(derived(st, "loadpc.5", "mean_balance"), 2.0, 1e-12);
    cr_expect_float_eq(derived(st, "loadpc.5", "mean_accesses"), 32.0, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "divergent_share"), 0.75, 1e-12);
    /* all loads: (3 x 32 + 1) / 4 accesses, IWC (3 x 4 + 1) / 4, balance (3 x 2 + 1) / 4 */
    cr_expect_float_eq(derived(st, "loads", "mean_accesses"), 97.0 / 4, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "mean_iwc"), 13.0 / 4, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "mean_balance"), 7.0 / 4, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "fully_cached_divergent"), 1.0 / 3, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "partially_cached_divergent"), 1.0 / 3, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "fully_cached_coherent"), 1.0, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "intra_warp_miss_share"), 0.2, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "inter_warp_miss_share"), 0.6, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "issue_top3_share"), 0.75, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "ldst_mshr_share"), 0.05, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "occlusion_share_divergent"), 8.0 / 600, 1e-12);
    cr_expect_float_eq(derived(st, "loads", "occlusion_share_coherent"), 0.0, 1e-12);
    uint64_t n = 0;
    cr_expect(stats_get_counter(st, "loadpc.7", "fully_cached", &n) && n == 1);
    stats_free(st);
    loadchar_free(lc);
}

/* MSHR use by warp age (Fig 2.7): 4 misses of priority 0 and 6 of 40, which
 * is past the last bucket (31) and lands there. */
Test(loadchar, mshr_use_by_priority)
{
    loadchar *lc = loadchar_new(2);
    loadpc *d = loadchar_pc(lc, NULL, 1);
    for (unsigned i = 0; i < 10; i++)
        loadchar_miss(lc, d, i < 4 ? 0 : 40, CACHE_MISS_INTER_WARP);
    const stats_hist *h = loadchar_mshr_hist(lc);
    cr_expect_eq(h->count[0], 4);
    cr_expect_eq(h->count[LOADCHAR_PRIOS - 1], 6);
    cr_expect_eq(h->samples, 10);
    cr_expect_eq(d->misses, 10);
    loadchar_free(lc);
}

/* PCs restart at 0 in every kernel: PC 3 of kernel "a" and PC 3 of kernel
 * "b" are two records, written as blocks loadpc.a.3 and loadpc.b.3; a
 * second launch of "a" (the same name, another copy of the string) shares
 * a's record. a: one 32-access load, b: one 1-access load, so the blocks'
 * mean_accesses are 32 and 1 (one record would give 33 / 2). */
Test(loadchar, same_pc_in_two_kernels_is_two_records)
{
    loadchar *lc = loadchar_new(2);
    char again[] = "a";
    loadpc *a = loadchar_pc(lc, "a", 3), *b = loadchar_pc(lc, "b", 3);
    cr_assert_neq(a, b);
    cr_assert_eq(loadchar_pc(lc, again, 3), a, "one record per kernel name and PC");
    loadchar_load(lc, a, 32, 8, 1.0);
    loadchar_load(lc, b, 1, 1, 1.0);
    stats *st = stats_new();
    loadchar_write(lc, st, 1000);
    cr_expect_float_eq(derived(st, "loadpc.a.3", "mean_accesses"), 32.0, 1e-12);
    cr_expect_float_eq(derived(st, "loadpc.b.3", "mean_accesses"), 1.0, 1e-12);
    double v;
    cr_expect_not(stats_get_derived(st, "loadpc.3", "mean_accesses", &v), "no kernel-less block");
    cr_expect_float_eq(derived(st, "loads", "divergent_share"), 0.5, 1e-12);
    stats_free(st);
    loadchar_free(lc);
}
