/* Histograms: bucket layouts, values on bucket edges, overflow, mean, labels
 * and the refusal of bad range bounds. Expected counts follow from the bucket
 * definitions in stats.h, worked out in each comment. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "simtgrid/stats.h"

static void expect_label(const stats_hist *h, unsigned i, const char *want)
{
    char buf[STATS_HIST_LABEL_MAX];
    stats_hist_label(h, i, buf, sizeof buf);
    cr_assert_str_eq(buf, want, "bucket %u", i);
}

Test(hist, exact_buckets)
{
    /* Buckets [0] [1] [2] [3]; 4 is past the last bucket: overflow. */
    stats_hist h;
    stats_hist_init_exact(&h, 4);
    cr_assert_eq(h.n, 4);
    uint64_t values[] = {0, 1, 3, 3, 4, 1000};
    for (unsigned i = 0; i < 6; i++)
        stats_hist_add(&h, values[i]);
    cr_assert_eq(h.count[0], 1);
    cr_assert_eq(h.count[1], 1);
    cr_assert_eq(h.count[2], 0);
    cr_assert_eq(h.count[3], 2);
    cr_assert_eq(h.overflow, 2);
    cr_assert_eq(h.samples, 6);
    expect_label(&h, 0, "0");
    expect_label(&h, 3, "3");
}

Test(hist, exact_clamps_to_max)
{
    /* 40 requested, 32 allowed: buckets [0]..[31]; 31 counts, 32 overflows. */
    stats_hist h;
    stats_hist_init_exact(&h, 40);
    cr_assert_eq(h.n, STATS_HIST_MAX);
    stats_hist_add(&h, 31);
    stats_hist_add(&h, 32);
    cr_assert_eq(h.count[31], 1);
    cr_assert_eq(h.overflow, 1);
}

Test(hist, log2_bucket_edges)
{
    /* n = 5: [0] [1] [2-3] [4-7] [8-15].
     * 0->b0; 1->b1; 2,3->b2; 4,7->b3 (4 is the first value of "4-7");
     * 8,15->b4; 16 overflows. */
    stats_hist h;
    stats_hist_init_log2(&h, 5);
    uint64_t values[] = {0, 1, 2, 3, 4, 7, 8, 15, 16};
    for (unsigned i = 0; i < 9; i++)
        stats_hist_add(&h, values[i]);
    uint64_t want[5] = {1, 1, 2, 2, 2};
    for (unsigned i = 0; i < 5; i++)
        cr_assert_eq(h.count[i], want[i], "bucket %u", i);
    cr_assert_eq(h.overflow, 1);
    expect_label(&h, 0, "0");
    expect_label(&h, 1, "1");
    expect_label(&h, 2, "2-3");
    expect_label(&h, 3, "4-7");
    expect_label(&h, 4, "8-15");
}

Test(hist, log2_full_width)
{
    /* n = 32: last bucket 31 is [2^30, 2^31 - 1] = [1073741824, 2147483647];
     * 2^31 and UINT64_MAX overflow. */
    stats_hist h;
    stats_hist_init_log2(&h, 32);
    stats_hist_add(&h, (UINT64_C(1) << 31) - 1);
    stats_hist_add(&h, UINT64_C(1) << 30);
    stats_hist_add(&h, UINT64_C(1) << 31);
    stats_hist_add(&h, UINT64_MAX);
    cr_assert_eq(h.count[31], 2);
    cr_assert_eq(h.overflow, 2);
    expect_label(&h, 31, "1073741824-2147483647");
}

Test(hist, ranges_with_gaps)
{
    /* [1-7] [8] [20-30]: 0 is below all, 9 and 19 fall in the gap, 31 is
     * above all -> 4 overflow. 1,7 -> b0; 8 -> b1; 20,30 -> b2. */
    uint64_t bounds[] = {1, 7, 8, 8, 20, 30};
    stats_hist h;
    stats_hist_init_ranges(&h, 3, bounds);
    cr_assert_eq(h.n, 3);
    uint64_t values[] = {0, 1, 7, 8, 9, 19, 20, 30, 31};
    for (unsigned i = 0; i < 9; i++)
        stats_hist_add(&h, values[i]);
    cr_assert_eq(h.count[0], 2);
    cr_assert_eq(h.count[1], 1);
    cr_assert_eq(h.count[2], 2);
    cr_assert_eq(h.overflow, 4);
    expect_label(&h, 0, "1-7");
    expect_label(&h, 1, "8");
    expect_label(&h, 2, "20-30");
}

Test(hist, ranges_resembling_exact_and_log2)
{
    /* [0] [1] [2-10]: bucket 2 is neither exact ([2]) nor log2 ([2-3]) but
     * the fast paths must still find it. 2 -> b2 (log2 guess 2 checks out);
     * 5 -> b2 (guess 3 is out of range; scan); 10 -> b2; 11 overflow. */
    uint64_t bounds[] = {0, 0, 1, 1, 2, 10};
    stats_hist h;
    stats_hist_init_ranges(&h, 3, bounds);
    uint64_t values[] = {0, 1, 2, 5, 10, 11};
    for (unsigned i = 0; i < 6; i++)
        stats_hist_add(&h, values[i]);
    cr_assert_eq(h.count[0], 1);
    cr_assert_eq(h.count[1], 1);
    cr_assert_eq(h.count[2], 3);
    cr_assert_eq(h.overflow, 1);
}

Test(hist, add_n_and_mean)
{
    /* exact n=4: add 1, 2, 3 once, 10 (overflow) once, and 2 three more
     * times: samples 7, sum 1+2+3+10+6 = 22, mean 22/7. Overflow values count
     * in the mean: it is the mean of everything added. */
    stats_hist h;
    stats_hist_init_exact(&h, 4);
    cr_assert(isnan(stats_hist_mean(&h)), "no samples: NaN");
    stats_hist_add(&h, 1);
    stats_hist_add(&h, 2);
    stats_hist_add(&h, 3);
    stats_hist_add(&h, 10);
    stats_hist_add_n(&h, 2, 3);
    cr_assert_eq(h.count[2], 4);
    cr_assert_eq(h.samples, 7);
    cr_assert_eq(h.overflow, 1);
    cr_assert_float_eq(h.sum, 22.0, 0);
    cr_assert_float_eq(stats_hist_mean(&h), 22.0 / 7.0, 1e-15);
    stats_hist_add_n(&h, 99, 0);     /* zero times: nothing changes */
    cr_assert_eq(h.samples, 7);
    cr_assert_eq(h.overflow, 1);
}

Test(hist, zeroed_struct_counts_everything_as_overflow)
{
    stats_hist h = {0};
    stats_hist_add(&h, 0);
    stats_hist_add(&h, 5);
    cr_assert_eq(h.overflow, 2);
    cr_assert_eq(h.samples, 2);
}

Test(hist, label_out_of_range_and_largest)
{
    stats_hist h;
    stats_hist_init_exact(&h, 2);
    expect_label(&h, 2, "overflow");
    /* The widest label, 20 digits twice plus '-', fits STATS_HIST_LABEL_MAX. */
    uint64_t bounds[] = {UINT64_MAX - 1, UINT64_MAX};
    stats_hist_init_ranges(&h, 1, bounds);
    char buf[STATS_HIST_LABEL_MAX];
    int len = stats_hist_label(&h, 0, buf, sizeof buf);
    cr_assert_eq(len, 41);
    cr_assert_str_eq(buf, "18446744073709551614-18446744073709551615");
}

static void expect_invalid(unsigned n, const uint64_t *bounds, const char *why_part)
{
    char why[200];
    cr_assert_not(stats_hist_ranges_valid(n, bounds, why, sizeof why));
    cr_assert(strstr(why, why_part), "got \"%s\", expected it to contain \"%s\"", why, why_part);
    cr_assert_not(stats_hist_ranges_valid(n, bounds, NULL, 0), "NULL why is allowed");
}

Test(hist, ranges_validation_errors)
{
    uint64_t inverted[] = {1, 5, 9, 8};
    expect_invalid(2, inverted, "bucket 1: low bound 9 above high bound 8");
    uint64_t overlap[] = {1, 5, 5, 9};
    expect_invalid(2, overlap, "bucket 1: starts at 5, expected above the previous bucket's "
                               "high bound 5");
    uint64_t descending[] = {10, 20, 1, 5};
    expect_invalid(2, descending, "bucket 1: starts at 1");
    uint64_t many[2 * 33] = {0};
    expect_invalid(33, many, "33 buckets given, at most 32 allowed");
    expect_invalid(1, NULL, "1 buckets given but no bounds");

    char why[64] = "untouched";
    uint64_t fine[] = {0, 0, 1, 4};
    cr_assert(stats_hist_ranges_valid(2, fine, why, sizeof why));
    cr_assert_str_eq(why, "", "cleared on success");
    cr_assert(stats_hist_ranges_valid(0, NULL, NULL, 0), "no buckets is valid");
}

Test(hist, init_ranges_refuses_bad_bounds)
{
    /* Overlapping bounds: the histogram keeps no buckets, so every value is
     * visible as overflow instead of landing in an arbitrary bucket. */
    uint64_t overlap[] = {1, 5, 3, 9};
    stats_hist h;
    stats_hist_init_ranges(&h, 2, overlap);
    cr_assert_eq(h.n, 0);
    stats_hist_add(&h, 4);
    cr_assert_eq(h.overflow, 1);
}

Test(hist, ranges_32_buckets_every_edge)
{
    /* Bucket i = [10i, 10i+5], i = 0..31 (the search's deepest case).
     * 10i and 10i+5 land in bucket i; 10i+6 and 10i+9 fall in the gap after
     * it: 2 per bucket, 64 overflow. */
    uint64_t bounds[2 * STATS_HIST_MAX];
    for (unsigned i = 0; i < STATS_HIST_MAX; i++) {
        bounds[2 * i] = 10 * i;
        bounds[2 * i + 1] = 10 * i + 5;
    }
    stats_hist h;
    stats_hist_init_ranges(&h, STATS_HIST_MAX, bounds);
    for (uint64_t i = 0; i < STATS_HIST_MAX; i++) {
        stats_hist_add(&h, 10 * i);
        stats_hist_add(&h, 10 * i + 5);
        stats_hist_add(&h, 10 * i + 6);
        stats_hist_add(&h, 10 * i + 9);
    }
    for (unsigned i = 0; i < STATS_HIST_MAX; i++)
        cr_assert_eq(h.count[i], 2, "bucket %u", i);
    cr_assert_eq(h.overflow, 64);
    cr_assert_eq(h.samples, 128);
}

Test(hist, arithmetic_layouts_match_searched_bounds)
{
    /* The exact and log2 initialisers find buckets by arithmetic, without
     * reading the bounds; the same buckets given as ranges are searched.
     * Each value lies in exactly one bucket, so both must count alike:
     * exact n = 3 with the bounds (0,0) (1,1) (2,2); log2 n = 4 with
     * (0,0) (1,1) (2,3) (4,7). Values 0..9: exact counts 1 1 1, overflow 7
     * (3..9); log2 counts 1 1 2 4, overflow 2 (8, 9). */
    const uint64_t exact_b[] = {0, 0, 1, 1, 2, 2};
    const uint64_t log2_b[] = {0, 0, 1, 1, 2, 3, 4, 7};
    stats_hist ex, exr, lg, lgr;
    stats_hist_init_exact(&ex, 3);
    stats_hist_init_ranges(&exr, 3, exact_b);
    stats_hist_init_log2(&lg, 4);
    stats_hist_init_ranges(&lgr, 4, log2_b);
    for (uint64_t v = 0; v < 10; v++) {
        stats_hist_add(&ex, v);
        stats_hist_add(&exr, v);
        stats_hist_add(&lg, v);
        stats_hist_add(&lgr, v);
    }
    const uint64_t want_ex[] = {1, 1, 1}, want_lg[] = {1, 1, 2, 4};
    for (unsigned i = 0; i < 3; i++) {
        cr_assert_eq(ex.count[i], want_ex[i], "exact bucket %u", i);
        cr_assert_eq(exr.count[i], want_ex[i], "exact-as-ranges bucket %u", i);
    }
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_eq(lg.count[i], want_lg[i], "log2 bucket %u", i);
        cr_assert_eq(lgr.count[i], want_lg[i], "log2-as-ranges bucket %u", i);
    }
    cr_assert_eq(ex.overflow, 7);
    cr_assert_eq(exr.overflow, 7);
    cr_assert_eq(lg.overflow, 2);
    cr_assert_eq(lgr.overflow, 2);
}

/* A ranges layout tries the bucket it found last first (hist.c): values
 * that move between buckets, past the last one and into a gap still land
 * where the bounds say. Buckets [0], [1-7], [8-31], [32]; the values 32
 * 32 5 32 0 9 33 32 20 give [0]: 0; [1-7]: 5; [8-31]: 9, 20; [32]: 32 x 4;
 * overflow 33. Then [0], [5-7] (a gap at 1-4): 5 then 3 is overflow. */
Test(hist, ranges_last_bucket_first)
{
    stats_hist h;
    uint64_t b[] = {0, 0, 1, 7, 8, 31, 32, 32};
    stats_hist_init_ranges(&h, 4, b);
    uint64_t v[] = {32, 32, 5, 32, 0, 9, 33, 32, 20};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
        stats_hist_add(&h, v[i]);
    cr_expect_eq(h.count[0], 1);
    cr_expect_eq(h.count[1], 1);
    cr_expect_eq(h.count[2], 2);
    cr_expect_eq(h.count[3], 4);
    cr_expect_eq(h.overflow, 1);
    cr_expect_eq(h.samples, 9);
    uint64_t g[] = {0, 0, 5, 7};
    stats_hist_init_ranges(&h, 2, g);
    stats_hist_add_n(&h, 5, 3);
    stats_hist_add(&h, 3);
    cr_expect_eq(h.count[1], 3);
    cr_expect_eq(h.count[0], 0);
    cr_expect_eq(h.overflow, 1);
}
