/* The L1 miss taxonomy on a constructed sequence: cold (never evicted),
 * intra-warp (last evicted by the missing warp), inter-warp (by another). */
#include "test_cache_util.h"
#include "mem/cache_history.h"

/* Load (must miss), fill; returns the miss class. */
static cache_miss_class miss(cache *c, uint64_t addr, uint16_t warp, uint64_t now)
{
    cache_result r = do_load(c, addr, 0, warp, now);
    cr_assert_eq(r.outcome, CACHE_MISS, "0x%llx by warp %u", (unsigned long long)addr, warp);
    drain_missq(c);
    fill_and_take(c, addr, now + 1);
    return r.miss_class;
}

Test(cache_taxonomy, constructed_sequence)
{
    /* One set of 2 ways, LRU. [MRU LRU] after each step:
     *   w1 A  cold                        [A]
     *   w1 B  cold                        [B A]
     *   w1 C  cold, evicts A (by w1)      [C B]
     *   w1 A  intra (A evicted by w1), evicts B (by w1)   [A C]
     *   w2 B  inter (B evicted by w1), evicts C (by w2)   [B A]
     *   w2 C  intra (C evicted by w2), evicts A (by w2)   [C B]
     *   w1 A  inter (A evicted by w2), evicts B (by w1)    [A C]
     * Five evictions: every miss after the second. */
    cache_params p = small_params(1, 2);
    cache *c = new_cache(&p);
    const uint64_t A = 0x000, B = 0x080, C = 0x100;
    cr_expect_eq(miss(c, A, 1, 10), CACHE_MISS_COLD);
    cr_expect_eq(miss(c, B, 1, 20), CACHE_MISS_COLD);
    cr_expect_eq(miss(c, C, 1, 30), CACHE_MISS_COLD);
    cr_expect_eq(miss(c, A, 1, 40), CACHE_MISS_INTRA_WARP);
    cr_expect_eq(miss(c, B, 2, 50), CACHE_MISS_INTER_WARP);
    cr_expect_eq(miss(c, C, 2, 60), CACHE_MISS_INTRA_WARP);
    cr_expect_eq(miss(c, A, 1, 70), CACHE_MISS_INTER_WARP);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->misses, 7);
    cr_expect_eq(s->misses_cold, 3);
    cr_expect_eq(s->misses_intra_warp, 2);
    cr_expect_eq(s->misses_inter_warp, 2);
    cr_expect_eq(s->evictions, 5);
    cache_free(c);
}

Test(cache_taxonomy, pending_hits_are_not_classified)
{
    /* A second warp touching a line in flight is a pending hit, not a miss. */
    cache_params p = small_params(1, 2);
    cache *c = new_cache(&p);
    cr_expect_eq(do_load(c, 0x000, 0, 1, 1).miss_class, CACHE_MISS_COLD);
    cache_result r = do_load(c, 0x000, 0, 2, 2);
    cr_expect_eq(r.outcome, CACHE_HIT_RESERVED);
    cr_expect_eq(r.miss_class, CACHE_MISS_NONE);
    cr_expect_eq(cache_get_stats(c)->misses, 1);
    cache_free(c);
}

Test(cache_taxonomy, store_invalidation_counts_as_eviction)
{
    /* Write-evict: warp 3's store drops A; warp 1's next miss on A is
     * inter-warp, warp 3's own would be intra-warp. */
    cache_params p = small_params(1, 2);
    cache *c = new_cache(&p);
    miss(c, 0x000, 1, 10);
    do_store(c, 0x000, 0, 3, 20);
    drain_missq(c);
    cr_expect_eq(miss(c, 0x000, 1, 30), CACHE_MISS_INTER_WARP);
    do_store(c, 0x000, 0, 1, 40);
    drain_missq(c);
    cr_expect_eq(miss(c, 0x000, 1, 50), CACHE_MISS_INTRA_WARP);
    cache_free(c);
}

Test(cache_taxonomy, history_remembers_its_window)
{
    /* 1 set x 1 way: each of 100 lines evicts the previous one, so the
     * history receives 99 records. Its window for a 1-line cache is 128
     * evictions (8 x lines, at least 128): line k's second miss comes
     * 98 - k + k = 98 evictions after warp 1 evicted it (98 - k in the first
     * pass, k in the second), inside the window, so every one is
     * intra-warp. */
    cache_params p = small_params(1, 1);
    cache *c = new_cache(&p);
    for (uint64_t i = 0; i < 100; i++)
        cr_assert_eq(miss(c, i * 128, 1, 10 * i), CACHE_MISS_COLD);
    for (uint64_t i = 0; i < 99; i++)
        cr_assert_eq(miss(c, i * 128, 1, 5000 + 10 * i), CACHE_MISS_INTRA_WARP, "line %llu",
                     (unsigned long long)i);
    cache_free(c);
}

Test(cache_taxonomy, history_is_allocated_at_the_first_eviction)
{
    /* A window of 4 lines: nothing is allocated when it is made (a cache
     * that never evicts costs no memory), a lookup before any eviction
     * finds nothing (cold), and the first put allocates and is found. */
    cache_history h;
    cr_assert(cache_history_init(&h, 4));
    cr_assert_null(h.index);
    cr_assert_null(h.line);
    uint16_t w = 0;
    cr_assert_not(cache_history_get(&h, 0x1000, &w));
    cache_history_put(&h, 0x1000, 7);
    cr_assert_not_null(h.index);
    cr_assert(cache_history_get(&h, 0x1000, &w));
    cr_assert_eq(w, 7);
    cr_assert_not(cache_history_get(&h, 0x2000, &w));
    cache_history_free(&h);
}

Test(cache_taxonomy, history_forgets_beyond_its_window)
{
    /* 1000 lines through a 1-line cache: 999 evictions by warp 1, more than
     * the 128-eviction window (issue 20: memory must not grow with run
     * length). Line 0 was evicted 998 evictions before the end: it is
     * forgotten and its miss counts as cold. Line 998, evicted last but one
     * (its eviction by line 999, then line 999's by warp 2's miss on line
     * 0: one eviction after it), is remembered: inter-warp for warp 2. */
    cache_params p = small_params(1, 1);
    cache *c = new_cache(&p);
    for (uint64_t i = 0; i < 1000; i++)
        miss(c, i * 128, 1, 10 * i);
    cr_expect_eq(miss(c, 0, 2, 20000), CACHE_MISS_COLD);
    cr_expect_eq(miss(c, 998 * 128, 2, 20010), CACHE_MISS_INTER_WARP);
    cache_free(c);
}

Test(cache_taxonomy, history_exact_window)
{
    /* A window of 32 lines: after put i of distinct lines 0..i, lines
     * i - 31 .. i are found with their warp (k % 7) and line i - 32, 32 puts
     * old, is forgotten. */
    cache_history h;
    cr_assert(cache_history_init(&h, 32));
    for (uint64_t i = 0; i < 1000; i++) {
        cache_history_put(&h, i * 128, (uint16_t)(i % 7));
        for (uint64_t k = i >= 31 ? i - 31 : 0; k <= i; k++) {
            uint16_t w = 0xFFFF;
            cr_assert(cache_history_get(&h, k * 128, &w), "line %llu after put %llu",
                      (unsigned long long)k, (unsigned long long)i);
            cr_assert_eq(w, k % 7);
        }
        uint16_t w;
        if (i >= 32)
            cr_assert_not(cache_history_get(&h, (i - 32) * 128, &w), "line %llu after put %llu",
                          (unsigned long long)(i - 32), (unsigned long long)i);
    }
    /* A put of a line already held refreshes it rather than adding one:
     * line 990 put again as 999's successor, then 31 other lines, is still
     * held (31 puts after its refresh) with its new warp, although 41 puts
     * have followed its first record. */
    cache_history_put(&h, 990 * 128, 3);
    for (uint64_t i = 2000; i < 2031; i++)
        cache_history_put(&h, i * 128, 0);
    uint16_t w = 0;
    cr_expect(cache_history_get(&h, 990 * 128, &w));
    cr_expect_eq(w, 3);
    /* ... and the line put just before the refresh (999), 32 puts ago, is
     * gone. */
    cr_expect_not(cache_history_get(&h, 999 * 128, &w));
    cache_history_free(&h);
}

Test(cache_taxonomy, history_window_counts_distinct_lines)
{
    /* The window is 32 distinct lines, not 32 evictions: line 7 (warp 5),
     * then 1000 evictions alternating between lines 1 and 2, is still held
     * (only 2 other lines were evicted after it); with 29 new lines, 31
     * other lines (1, 2 and the 29) follow it and it is still among the 32
     * last; a 30th makes 32 others and it is gone. */
    cache_history h;
    cr_assert(cache_history_init(&h, 32));
    cache_history_put(&h, 7 * 128, 5);
    for (unsigned i = 0; i < 1000; i++)
        cache_history_put(&h, (1 + i % 2) * 128, (uint16_t)i);
    uint16_t w = 0;
    cr_expect(cache_history_get(&h, 7 * 128, &w));
    cr_expect_eq(w, 5);
    cr_expect(cache_history_get(&h, 2 * 128, &w));
    cr_expect_eq(w, 999);
    for (uint64_t i = 100; i < 129; i++)
        cache_history_put(&h, i * 128, 0);
    cr_expect(cache_history_get(&h, 7 * 128, &w), "31 other lines after it: held");
    cache_history_put(&h, 129 * 128, 0);
    cr_expect_not(cache_history_get(&h, 7 * 128, &w), "32 other lines after it: forgotten");
    cache_history_free(&h);
}

Test(cache_taxonomy, off_means_unclassified)
{
    cache_params p = small_params(1, 1);
    p.miss_taxonomy = false;
    cache *c = new_cache(&p);
    cr_expect_eq(miss(c, 0x000, 1, 10), CACHE_MISS_NONE);
    cr_expect_eq(miss(c, 0x080, 1, 20), CACHE_MISS_NONE);
    cr_expect_eq(miss(c, 0x000, 1, 30), CACHE_MISS_NONE);
    cr_expect_eq(cache_get_stats(c)->misses, 3);
    cr_expect_eq(cache_get_stats(c)->misses_cold, 0);
    cache_free(c);
}
