/* Cache parameters: the defaults (Wang's memory-divergence dissertation,
 * Tables 3.1, 4.1, 5.1), every check of cache_params_check, errors read from a
 * configuration (origin, key, what was expected), and the registered
 * statistics. */
#include <string.h>

#include "simtgrid/config.h"
#include "test_cache_util.h"

Test(cache_params, l1d_defaults_are_the_fermi_l1)
{
    /* 32 KB = 32 sets x 8 ways x 128 B; 32 MSHRs of 8, 8-entry miss queue
     * ("A:32:8,8"); write-evict; allocate-on-miss; Fermi hash; LRU. */
    cache_params p;
    cache_params_default(&p, "l1d");
    cr_expect(p.enabled);
    cr_expect_eq(p.sets, 32);
    cr_expect_eq(p.ways, 8);
    cr_expect_eq(p.line_bytes, 128);
    cr_expect_eq(p.sets * p.ways * p.line_bytes, 32 * 1024);
    cr_expect_eq(p.mshr_entries, 32);
    cr_expect_eq(p.mshr_merge, 8);
    cr_expect_eq(p.miss_queue, 8);
    cr_expect_eq(p.write, CACHE_WRITE_EVICT);
    cr_expect_eq(p.alloc, CACHE_ALLOC_ON_MISS);
    cr_expect_str_eq(p.index->name, "fermi");
    cr_expect_str_eq(p.replace->name, "lru");
    cr_expect_eq(p.bypass, CACHE_BYPASS_NEVER);
    cr_expect(p.miss_taxonomy);
    cr_expect(cache_params_check(&p, NULL, NULL, 0));
}

Test(cache_params, l2_defaults_are_a_fermi_slice)
{
    /* 128 KB per partition, 16-way, 128 B: 64 sets; write-back; 32 MSHRs
     * of 4 and a 4-entry miss queue ("A:32:4,4"); 120-cycle latency. */
    cache_params p;
    cache_params_default(&p, "l2");
    cr_expect_eq(p.sets * p.ways * p.line_bytes, 128 * 1024);
    cr_expect_eq(p.ways, 16);
    cr_expect_eq(p.sets, 64);
    cr_expect_eq(p.write, CACHE_WRITE_BACK);
    cr_expect_eq(p.mshr_entries, 32);
    cr_expect_eq(p.mshr_merge, 4);
    cr_expect_eq(p.miss_queue, 4);
    cr_expect_eq(p.hit_latency, 120);
    cr_expect_str_eq(p.index->name, "linear");
    cr_expect_not(p.miss_taxonomy);
    cr_expect(cache_params_check(&p, NULL, NULL, 0));
}

/* Apply `edit` to the l1d defaults and expect the check to blame `key`
 * with a message containing `want`. */
#define EXPECT_BAD(edit, key_want, msg_want)                                   \
    do {                                                                        \
        cache_params p;                                                         \
        cache_params_default(&p, "l1d");                                        \
        edit;                                                                   \
        const char *key = NULL;                                                 \
        char why[200] = "";                                                     \
        cr_expect_not(cache_params_check(&p, &key, why, sizeof why), #edit);    \
        cr_expect_str_eq(key ? key : "(none)", key_want, #edit);                \
        cr_expect(strstr(why, msg_want), "%s: got '%s'", #edit, why);           \
        cr_expect_null(cache_new(&p), #edit);                                   \
    } while (0)

Test(cache_params, every_check)
{
    EXPECT_BAD(p.line_bytes = 100, "line_bytes", "power of two from 16 to 4096, got 100");
    EXPECT_BAD(p.line_bytes = 8192, "line_bytes", "got 8192");
    EXPECT_BAD(p.sector_bytes = 256, "sector_bytes", "dividing line_bytes (128) into at most 32 sectors, got 256");
    EXPECT_BAD(p.sector_bytes = 2, "sector_bytes", "got 2");
    EXPECT_BAD(p.sector_bytes = 48, "sector_bytes", "got 48");
    EXPECT_BAD(p.fetch_bytes = 48, "fetch_bytes", "got 48");
    EXPECT_BAD(p.fetch_bytes = 256, "fetch_bytes", "got 256");
    EXPECT_BAD(p.ways = 0, "ways", "expected 1 to 64 ways, got 0");
    EXPECT_BAD(p.ways = 65, "ways", "got 65");
    EXPECT_BAD(p.sets = 0, "sets", "expected 1 to 65536 sets, got 0");
    EXPECT_BAD(p.sets = 16, "sets", "expected 32 or 64 sets for index=fermi, got 16");
    EXPECT_BAD((p.index = mem_policy("l1d.index", "xor"), p.sets = 48), "sets", "index=xor, got 48");
    EXPECT_BAD((p.index = mem_policy("l1d.index", "prime"), p.index_prime_factor = 0), "index_prime_factor",
               "displacement factor of at least 1, got 0");
    EXPECT_BAD(p.index = NULL, "index", "expected a set-index function");
    EXPECT_BAD(p.replace = NULL, "replace", "expected a replacement policy");
    EXPECT_BAD(p.insert_pos = 8, "insert_pos", "below ways (8), got 8");
    EXPECT_BAD(p.promote_by = 8, "promote_by", "fewer positions than ways (8), got 8");
    EXPECT_BAD(p.rrip_bits = 0, "rrip_bits", "expected 1 to 8 bits, got 0");
    EXPECT_BAD(p.alloc = (cache_alloc_policy)2, "alloc", "expected on_miss or on_fill");
    EXPECT_BAD(p.write = (cache_write_policy)3, "write", "expected evict, through or back");
    EXPECT_BAD(p.mshr_entries = 0, "mshr_entries", "expected 1 to 4096 entries, got 0");
    EXPECT_BAD(p.mshr_merge = 0, "mshr_merge", "expected 1 to 256 accesses per entry, got 0");
    EXPECT_BAD(p.miss_queue = 1, "miss_queue", "a miss with a dirty victim needs 2), got 1");
    EXPECT_BAD(p.bypass = (cache_bypass_policy)2, "bypass", "expected never or no_victim");
}

Test(cache_params, linear_index_takes_any_set_count)
{
    /* pMOD: a prime number of sets with the linear (modulo) index. */
    cache_params p;
    cache_params_default(&p, "l1d");
    p.index = mem_policy("l1d.index", "linear");
    p.sets = 31;
    cr_expect(cache_params_check(&p, NULL, NULL, 0));
    cache *c = new_cache(&p);
    cr_expect_eq(cache_set_of(c, 40 * 128), 9);  /* block 40 mod 31 */
    cache_free(c);
}

Test(cache_params, from_config)
{
    config *cfg = config_new();
    GError *err = NULL;
    cache_params p;
    cr_assert(cache_params_from_config(&p, cfg, "l1d", &err));
    cr_expect_eq(p.sets, 32);
    cr_assert(config_set(cfg, "l1d.alloc", "on_fill", "m.ini:2", &err));
    cr_assert(config_set(cfg, "l2.write", "through", "m.ini:9", &err));
    cr_assert(config_set(cfg, "l1d.replace", "rrip", "m.ini:3", &err));
    cr_assert(cache_params_from_config(&p, cfg, "l1d", &err));
    cr_expect_eq(p.alloc, CACHE_ALLOC_ON_FILL);
    cr_expect_str_eq(p.replace->name, "rrip");
    cr_assert(cache_params_from_config(&p, cfg, "l2", &err));
    cr_expect_eq(p.write, CACHE_WRITE_THROUGH);
    /* 48 sets with the default Fermi hash: refused, naming origin and key. */
    cr_assert(config_set(cfg, "l1d.sets", "48", "m.ini:4", &err));
    cr_expect_not(cache_params_from_config(&p, cfg, "l1d", &err));
    cr_assert(err);
    cr_expect_str_eq(err->message, "m.ini:4: l1d.sets = '48': expected 32 or 64 sets for index=fermi, got 48");
    g_clear_error(&err);
    /* A relation broken by a key set in the file: that key is blamed. */
    cr_assert(config_set(cfg, "l1d.sets", "32", "m.ini:4", &err));
    cr_assert(config_set(cfg, "l1d.ways", "4", "m.ini:5", &err));
    cr_assert(config_set(cfg, "l1d.insert_pos", "6", "m.ini:6", &err));
    cr_expect_not(cache_params_from_config(&p, cfg, "l1d", &err));
    cr_expect_str_eq(err->message, "m.ini:6: l1d.insert_pos = '6': expected a stack position below ways (4), got 6");
    g_clear_error(&err);
    /* ... or broken by another key: the default value is blamed as such. */
    cr_assert(config_set(cfg, "l1d.insert_pos", "0", "m.ini:6", &err));
    cr_assert(config_set(cfg, "l1d.line_bytes", "64", "m.ini:7", &err));
    cr_expect_not(cache_params_from_config(&p, cfg, "l1d", &err));
    cr_expect_str_eq(err->message, "default: l1d.sector_bytes = '128': expected a power of two "
                                   "dividing line_bytes (64) into at most 32 sectors, got 128");
    g_clear_error(&err);
    config_free(cfg);
}

Test(cache_params, statistics_registered)
{
    /* One miss, one pending hit, one failure (merge limit 2), the fill, one
     * hit: the registry reads the same counters. */
    cache_params p = small_params(4, 2);
    p.mshr_merge = 2;
    cache *c = new_cache(&p);
    stats *st = stats_new();
    cache_register_stats(c, st, "sm0.l1d");
    do_load(c, 0x000, 1, 0, 1);
    do_load(c, 0x000, 2, 0, 2);
    do_load(c, 0x000, 3, 0, 3);
    drain_missq(c);
    fill_and_take(c, 0x000, 10);
    do_load(c, 0x000, 4, 0, 12);
    cache_finish(c, 20);
    uint64_t v = 0;
    cr_expect(stats_get_counter(st, "sm0.l1d", "hits", &v));
    cr_expect_eq(v, 1);
    cr_expect(stats_get_counter(st, "sm0.l1d", "hits_reserved", &v));
    cr_expect_eq(v, 1);
    cr_expect(stats_get_counter(st, "sm0.l1d", "misses", &v));
    cr_expect_eq(v, 1);
    cr_expect(stats_get_counter(st, "sm0.l1d", "fail_mshr_merge_limit", &v));
    cr_expect_eq(v, 1);
    cr_expect(stats_get_counter(st, "sm0.l1d", "reservation_fails", &v));
    cr_expect_eq(v, 1);
    cr_expect(stats_get_counter(st, "sm0.l1d", "misses_cold", &v));
    cr_expect_eq(v, 1);
    /* MSHR occupancy: 0 entries for cycles 0..1, 1 entry 1..10 (freed when
     * the last requester is taken at 10), 0 again 10..20: 11 + 9 cycles. */
    const stats_hist *h = mshr_occupancy(cache_mshr(c));
    cr_expect_eq(h->count[0], 11);
    cr_expect_eq(h->count[1], 9);
    stats_free(st);
    cache_free(c);
}
