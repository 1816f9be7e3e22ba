/* Intra-warp concentration (Wang's dissertation, Eq 3.1) as the LD/ST unit
 * measures it: coalesce a warp's A[tid*STRIDE] (32 lanes, 4-B words, base
 * 0x80000000) and count the distinct L1 sets of its accesses. */
#include "test_cache_util.h"
#include "mem/iwc.h"

static unsigned warp_of_stride(uint64_t stride, coalesce_access *acc)
{
    coalesce_params cp = {.line_bytes = 128, .sector_bytes = 32, .divergent_after = 2};
    uint64_t addr[COALESCE_LANES];
    for (unsigned t = 0; t < COALESCE_LANES; t++)
        addr[t] = 0x80000000ull + t * stride;
    return coalesce_warp(&cp, addr, 0xFFFFFFFFu, 4, acc);
}

static unsigned iwc_of_stride(const cache *c, uint64_t stride)
{
    coalesce_params cp = {.line_bytes = 128, .sector_bytes = 32, .divergent_after = 2};
    uint64_t addr[COALESCE_LANES];
    for (unsigned t = 0; t < COALESCE_LANES; t++)
        addr[t] = 0x80000000ull + t * stride;
    coalesce_access acc[COALESCE_MAX_ACCESSES];
    unsigned n = coalesce_warp(&cp, addr, 0xFFFFFFFFu, 4, acc);
    cr_assert_eq(n, 32, "stride %llu: one line per lane", (unsigned long long)stride);
    unsigned sets = iwc_sets_touched(c, acc, n);
    cr_assert(sets && n % sets == 0);
    return n / sets;
}

/* Linear index (CONV), 32 sets of 128-B lines: set = addr[11:7]. A stride
 * of 2^k x 128 B steps the set by 2^k, so 32 lanes visit 32 / 2^k sets
 * (at least 1): IWC 1, 2, 4, 8, 16 for 128 B .. 2 KB, 32 from 4 KB (the
 * CONV row of docs/cache.md's table, strides 128 B .. 1 MB). */
Test(iwc, linear_index_table)
{
    static const uint64_t stride[] = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
                                      65536, 131072, 262144, 524288, 1048576};
    static const unsigned want[] = {1, 2, 4, 8, 16, 32, 32, 32, 32, 32, 32, 32, 32, 32};
    cache_params p = small_params(32, 8);
    cache *c = new_cache(&p);
    for (unsigned i = 0; i < sizeof stride / sizeof stride[0]; i++)
        cr_expect_eq(iwc_of_stride(c, stride[i]), want[i], "stride %llu",
                     (unsigned long long)stride[i]);
    cache_free(c);
}

/* BXOR (set = addr[11:7] ^ addr[16:12]): docs/cache.md's row, 1 up to 4 KB,
 * then doubling from 8 KB (2) to 128 KB (32). */
Test(iwc, xor_index_table)
{
    static const uint64_t stride[] = {128, 4096, 8192, 16384, 32768, 65536, 131072, 1048576};
    static const unsigned want[] = {1, 1, 2, 4, 8, 16, 32, 32};
    cache_params p = small_params(32, 8);
    p.index = mem_policy("l1d.index", "xor");
    cache *c = new_cache(&p);
    for (unsigned i = 0; i < sizeof stride / sizeof stride[0]; i++)
        cr_expect_eq(iwc_of_stride(c, stride[i]), want[i], "stride %llu",
                     (unsigned long long)stride[i]);
    cache_free(c);
}

/* The statistic: loads of IWC 32 (32 accesses, 1 set), 2 (32 over 16) and
 * 1.5 (3 accesses over 2 sets, counted as 1) fall in buckets 17-32, 2 and 1;
 * the mean of the exact values is (32 + 2 + 1.5) / 3 = 11.8333... */
Test(iwc, statistic_buckets_and_mean)
{
    coalesce_stats s;
    coalesce_stats_init(&s);
    coalesce_count_iwc(&s, 32, 1);
    coalesce_count_iwc(&s, 32, 16);
    coalesce_count_iwc(&s, 3, 2);
    coalesce_count_iwc(&s, 0, 0);   /* no accesses: not a load to measure */
    cr_expect_eq(s.load_iwc.samples, 3);
    cr_expect_eq(s.load_iwc.count[0], 1);  /* [1] */
    cr_expect_eq(s.load_iwc.count[1], 1);  /* [2] */
    cr_expect_eq(s.load_iwc.count[5], 1);  /* [17-32] */
    cr_expect_float_eq(s.iwc_sum / 3, 35.5 / 3, 1e-12);
}

/* Balance (Kharbutli, Wang Eq 3.2), linear index, 32 sets, m = 32 accesses:
 * the denominator is (32 / 64)(32 + 64 - 1) = 47.5. Stride 4 KB puts all 32
 * in one set: 32 x 33 / 2 = 528, balance 528 / 47.5 = 11.1158; stride 128 B
 * one per set: 32 x 1, balance 32 / 47.5 = 0.6737; stride 1 KB 8 per set in
 * 4 sets: 4 x 36 = 144, balance 144 / 47.5 = 3.0316. */
Test(iwc, balance_eq_3_2)
{
    cache_params p = small_params(32, 8);
    cache *c = new_cache(&p);
    coalesce_access acc[COALESCE_MAX_ACCESSES];
    unsigned n = warp_of_stride(4096, acc);
    cr_expect_float_eq(iwc_balance(c, acc, n), 528.0 / 47.5, 1e-12);
    n = warp_of_stride(128, acc);
    cr_expect_float_eq(iwc_balance(c, acc, n), 32.0 / 47.5, 1e-12);
    n = warp_of_stride(1024, acc);
    cr_expect_float_eq(iwc_balance(c, acc, n), 144.0 / 47.5, 1e-12);
    cr_expect_float_eq(iwc_balance(c, acc, 0), 0.0, 1e-12);
    cache_free(c);
}
