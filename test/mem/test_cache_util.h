/* Helpers of the cache tests: a small cache, accesses, draining. */
#ifndef TEST_CACHE_UTIL_H
#define TEST_CACHE_UTIL_H

#include <criterion/criterion.h>

#include "mem/cache.h"
#include "simtgrid/memport.h"

/* The l1d defaults made small and predictable: linear index over `sets`
 * sets of `ways` ways, unsectored 128-B lines, 3-cycle hits, 4 MSHRs of 4,
 * an 8-entry miss queue, allocate-on-miss, write-evict, LRU. */
static inline cache_params small_params(unsigned sets, unsigned ways)
{
    cache_params p;
    cache_params_default(&p, "l1d");
    p.index = mem_policy("l1d.index", "linear");
    p.sets = sets;
    p.ways = ways;
    p.line_bytes = 128;
    p.sector_bytes = 128;
    p.hit_latency = 3;
    p.mshr_entries = 4;
    p.mshr_merge = 4;
    p.miss_queue = 8;
    return p;
}

static inline cache *new_cache(const cache_params *p)
{
    cache *c = cache_new(p);
    cr_assert(c, "cache_new refused the test parameters");
    return c;
}

static inline cache_access load_of(uint64_t addr, uint32_t id, uint16_t warp, uint32_t sectors)
{
    return (cache_access){.addr = addr, .requester = id, .warp = warp, .sectors = sectors,
                          .op = MEM_LOAD};
}

static inline cache_access store_of(uint64_t addr, uint32_t id, uint16_t warp, uint32_t sectors)
{
    return (cache_access){.addr = addr, .requester = id, .warp = warp, .sectors = sectors,
                          .op = MEM_STORE};
}

static inline cache_result do_load(cache *c, uint64_t addr, uint32_t id, uint16_t warp,
                                   uint64_t now)
{
    cache_access a = load_of(addr, id, warp, 0);
    return cache_try_access(c, &a, now);
}

static inline cache_result do_store(cache *c, uint64_t addr, uint32_t id, uint16_t warp,
                                    uint64_t now)
{
    cache_access a = store_of(addr, id, warp, 0);
    return cache_try_access(c, &a, now);
}

static inline void drain_missq(cache *c)
{
    while (cache_missq_head(c))
        cache_missq_pop(c);
}

/* Fill the whole line of addr and take every ready requester; returns how many. */
static inline unsigned fill_and_take(cache *c, uint64_t addr, uint64_t now)
{
    cache_fill_result f = cache_fill(c, addr, 0, now);
    cr_assert(f.accepted);
    mshr_requester rq;
    unsigned n = 0;
    while (cache_pop_ready(c, &rq, NULL, now))
        n++;
    return n;
}

/* Load (miss) and fill a line: it ends valid and unreserved. */
static inline void bring_in(cache *c, uint64_t addr, uint16_t warp, uint64_t now)
{
    cache_result r = do_load(c, addr, 0, warp, now);
    cr_assert_eq(r.outcome, CACHE_MISS, "bring_in 0x%llx", (unsigned long long)addr);
    drain_missq(c);
    fill_and_take(c, addr, now + 1);
}

#endif
