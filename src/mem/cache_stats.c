/* Registration of a cache's statistics: every counter named, with its unit
 * and what it counts (docs/cache.md lists them). */
#include "mem/cache_internal.h"

typedef struct counter_doc {
    const char *name, *unit, *desc;
    size_t offset;
} counter_doc;

#define C(field, unit, desc) {#field, unit, desc, offsetof(cache_stats, field)}
static const counter_doc counters[] = {
    C(accesses, "accesses", "accepted accesses of every kind (loads, stores, bypassed)"),
    C(hits, "accesses", "loads whose sectors were all valid"),
    C(hits_reserved, "accesses", "pending hits: loads merged into the MSHR entry of an in-flight line"),
    C(misses, "accesses", "loads that sent a fill request (full and sector misses)"),
    C(misses_cold, "accesses", "misses to a line never evicted from this cache"),
    C(misses_intra_warp, "accesses", "misses to a line last evicted by the same warp"),
    C(misses_inter_warp, "accesses", "misses to a line last evicted by another warp"),
    C(misses_sector, "accesses", "misses to a present or in-flight line lacking some sectors"),
    C(store_hits, "accesses", "stores to a present line"),
    C(store_misses, "accesses", "stores to an absent line"),
    C(bypassed, "accesses", "accesses sent down uncached (bypass, L2-only, atomics, disabled cache)"),
    C(bypassed_no_victim, "accesses", "loads bypassed because their set had no replaceable line"),
    C(bypassed_shrunk, "accesses", "of those, dacache's: sent down shrunk to the 32-B segments they need"),
    C(fills, "fills", "fill replies received"),
    C(fills_dropped, "fills", "fills that found no replaceable line (data only to the requesters)"),
    C(fill_retries, "fills", "fills refused for lack of miss-queue room for a dirty victim"),
    C(evictions, "lines", "valid lines evicted for a new line"),
    C(writebacks, "lines", "dirty lines written back"),
    C(invalidations, "lines", "lines invalidated by write-evict stores or at a kernel launch (l1d.launch_invalidate)"),
    C(reservation_fails, "accesses", "access attempts refused and replayed, all causes"),
};
#undef C

static const char *const fail_names[CACHE_FAIL_COUNT] = {
    NULL, "fail_set_all_reserved", "fail_mshr_full", "fail_mshr_merge_limit",
    "fail_miss_queue_full",
};
static const char *const fail_descs[CACHE_FAIL_COUNT] = {
    NULL,
    "reservation failures: every line of the set reserved for a fill (allocate-on-miss)",
    "reservation failures: no free MSHR entry",
    "reservation failures: the line's MSHR entry at its merge limit",
    "reservation failures: miss queue (memory port, interconnect) full",
};

void cache_register_stats(cache *c, stats *st, const char *block)
{
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        stats_counter(st, block, counters[i].name, counters[i].unit, counters[i].desc,
                      (const uint64_t *)((const char *)&c->st + counters[i].offset));
    for (unsigned f = 1; f < CACHE_FAIL_COUNT; f++)
        stats_counter(st, block, fail_names[f], "accesses", fail_descs[f], &c->st.fail[f]);
    stats_histogram(st, block, "mshr_occupancy", "cycles",
                    "cycles spent with each number of MSHR entries in use",
                    mshr_occupancy(c->mshr));
}
