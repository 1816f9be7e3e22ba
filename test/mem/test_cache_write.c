/* Stores under each write policy: write-evict, write-through, write-back
 * (write-allocate without fetch, dirty victims written back, queue room for
 * the write-back, fills refused when it has none). 4 sets x 2 ways, linear
 * index: 0x000, 0x200, 0x400 are all in set 0. */
#include "test_cache_util.h"

Test(cache_write, write_evict)
{
    /* A present line is invalidated by a store and the data goes down; a
     * store to an absent line just goes down (no allocation). */
    cache_params p = small_params(4, 2);
    cache *c = new_cache(&p);
    bring_in(c, 0x000, 0, 1);
    cache_result r = do_store(c, 0x010, 7, 1, 5);
    cr_expect_eq(r.outcome, CACHE_HIT);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    const cache_req *q = cache_missq_head(c);
    cr_assert(q);
    cr_expect_eq(q->kind, CACHE_REQ_WRITE);
    cr_expect_eq(q->line, 0x000);
    cr_expect_eq(q->requester, 7);
    cr_expect_eq(q->op, MEM_STORE);
    r = do_store(c, 0x200, 8, 1, 6);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(cache_probe(c, 0x200, NULL, NULL), CACHE_LINE_INVALID);
    cr_expect_eq(cache_missq_len(c), 2);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->store_hits, 1);
    cr_expect_eq(s->store_misses, 1);
    cr_expect_eq(s->invalidations, 1);
    cr_expect_eq(cache_mshr_free(c), 4, "stores use no MSHR");
    /* The next load of 0x000 misses again. */
    cr_expect_eq(do_load(c, 0x000, 9, 0, 7).outcome, CACHE_MISS);
    cache_free(c);
}

Test(cache_write, write_evict_sectored_and_reserved)
{
    /* 32-B sectors: a store to sector 1 of a fully valid line drops only
     * that sector (valid 0xF -> 0xD), the line stays. A store to a line
     * waiting for its fill leaves it reserved; the fill then validates it. */
    cache_params p = small_params(4, 2);
    p.sector_bytes = 32;
    cache *c = new_cache(&p);
    bring_in(c, 0x000, 0, 1);
    cache_access a = store_of(0x000, 1, 0, 0x2);
    cr_expect_eq(cache_try_access(c, &a, 5).outcome, CACHE_HIT);
    uint32_t valid = 0;
    cr_expect_eq(cache_probe(c, 0x000, NULL, &valid), CACHE_LINE_VALID);
    cr_expect_eq(valid, 0xD);
    cr_expect_eq(do_load(c, 0x080, 2, 0, 6).outcome, CACHE_MISS);
    cr_expect_eq(do_store(c, 0x080, 3, 0, 7).outcome, CACHE_HIT);
    cr_expect_eq(cache_probe(c, 0x080, NULL, NULL), CACHE_LINE_RESERVED);
    fill_and_take(c, 0x080, 8);
    cr_expect_eq(cache_probe(c, 0x080, NULL, NULL), CACHE_LINE_VALID);
    cache_free(c);
}

Test(cache_write, write_through)
{
    /* A present line is updated and stays valid; the data goes down either
     * way; an absent line is not allocated. With sectors, a store to sector
     * 2 of a line holding sector 0 makes sector 2 valid too (0x1 -> 0x5). */
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_THROUGH;
    p.sector_bytes = 32;
    cache *c = new_cache(&p);
    cache_access a = load_of(0x000, 1, 0, 0x1);
    cr_expect_eq(cache_try_access(c, &a, 1).outcome, CACHE_MISS);
    drain_missq(c);
    cache_fill(c, 0x000, 0x1, 2);
    a = store_of(0x000, 2, 0, 0x4);
    cr_expect_eq(cache_try_access(c, &a, 3).outcome, CACHE_HIT);
    uint32_t valid = 0;
    cr_expect_eq(cache_probe(c, 0x000, NULL, &valid), CACHE_LINE_VALID);
    cr_expect_eq(valid, 0x5);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITE);
    cr_expect_eq(cache_missq_head(c)->sectors, 0x4);
    cr_expect_eq(do_store(c, 0x200, 3, 0, 4).outcome, CACHE_MISS);
    cr_expect_eq(cache_probe(c, 0x200, NULL, NULL), CACHE_LINE_INVALID);
    cr_expect_eq(cache_missq_len(c), 2);
    cache_free(c);
}

Test(cache_write, write_back_allocates_and_writes_back_dirty_victims)
{
    /* A store to an absent line allocates it dirty and sends nothing; later
     * stores and loads hit. Then 0x200 misses into the empty way and 0x400
     * misses with 0x200 reserved: the victim is the dirty 0x000, written back
     * before 0x400's fill request. Queue: FILL 0x200, WRITEBACK 0x000, FILL 0x400. */
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_BACK;
    cache *c = new_cache(&p);
    cr_expect_eq(do_store(c, 0x000, 1, 0, 1).outcome, CACHE_MISS);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_MODIFIED);
    cr_expect_eq(cache_missq_len(c), 0);
    cr_expect_eq(do_store(c, 0x000, 2, 0, 2).outcome, CACHE_HIT);
    cr_expect_eq(do_load(c, 0x000, 3, 0, 3).outcome, CACHE_HIT);
    cache_result r = do_load(c, 0x200, 4, 0, 4);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_not(r.evicted);
    r = do_load(c, 0x400, 5, 0, 5);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect(r.evicted);
    cr_expect(r.writeback);
    cr_expect_eq(r.victim, 0x000);
    cr_assert_eq(cache_missq_len(c), 3);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_FILL);
    cache_missq_pop(c);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITEBACK);
    cr_expect_eq(cache_missq_head(c)->line, 0x000);
    cr_expect_eq(cache_missq_head(c)->sectors, 0x1);
    cache_missq_pop(c);
    cr_expect_eq(cache_missq_head(c)->line, 0x400);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->writebacks, 1);
    cr_expect_eq(s->evictions, 1);
    cr_expect_eq(s->store_misses, 1);
    cr_expect_eq(s->store_hits, 1);
    cache_free(c);
}

Test(cache_write, write_back_victim_needs_two_queue_slots)
{
    /* 2-entry queue. 0x000 dirty; 0x200 misses (queue 1); 0x400's victim is
     * dirty, so it needs 2 slots and has 1: MISS_QUEUE_FULL. One sent, it fits. */
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_BACK;
    p.miss_queue = 2;
    cache *c = new_cache(&p);
    do_store(c, 0x000, 1, 0, 1);
    do_load(c, 0x200, 2, 0, 2);
    cache_result r = do_load(c, 0x400, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_MISS_QUEUE_FULL);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_MODIFIED, "nothing changed");
    cache_missq_pop(c);
    r = do_load(c, 0x400, 3, 0, 4);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect(r.writeback);
    cache_free(c);
}

Test(cache_write, write_back_store_with_no_victim)
{
    /* Both lines of set 0 reserved: a write-back store to a third line has
     * nowhere to go: SET_ALL_RESERVED; with bypass=no_victim it goes down. */
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_BACK;
    cache *c = new_cache(&p);
    do_load(c, 0x000, 1, 0, 1);
    do_load(c, 0x200, 2, 0, 2);
    cache_result r = do_store(c, 0x400, 3, 0, 3);
    cr_expect_eq(r.fail, CACHE_FAIL_SET_ALL_RESERVED);
    cache_free(c);
    p.bypass = CACHE_BYPASS_NO_VICTIM;
    c = new_cache(&p);
    do_load(c, 0x000, 1, 0, 1);
    do_load(c, 0x200, 2, 0, 2);
    r = do_store(c, 0x400, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_BYPASSED);
    cache_missq_pop(c);
    cache_missq_pop(c);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITE);
    cache_free(c);
}

Test(cache_write, allocate_on_fill_write_back_fill_retry)
{
    /* One set, one way, allocate-on-fill, write-back, 2-entry queue.
     * 0x000 is stored (dirty). Loads of 0x080 and 0x100 miss (queue full).
     * The fill of 0x080 must evict the dirty 0x000 and has no slot for the
     * write-back: refused, nothing changes. One request sent: accepted,
     * the write-back is queued and 0x080 installed. */
    cache_params p = small_params(1, 1);
    p.write = CACHE_WRITE_BACK;
    p.alloc = CACHE_ALLOC_ON_FILL;
    p.miss_queue = 2;
    cache *c = new_cache(&p);
    do_store(c, 0x000, 1, 0, 1);
    cr_expect_eq(do_load(c, 0x080, 2, 0, 2).outcome, CACHE_MISS);
    cr_expect_eq(do_load(c, 0x100, 3, 0, 3).outcome, CACHE_MISS);
    cache_fill_result f = cache_fill(c, 0x080, 0, 10);
    cr_expect_not(f.accepted);
    cr_expect_eq(cache_get_stats(c)->fill_retries, 1);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_MODIFIED);
    mshr_requester rq;
    cr_expect_not(cache_pop_ready(c, &rq, NULL, 10), "the refused fill readied nobody");
    cache_missq_pop(c);
    f = cache_fill(c, 0x080, 0, 11);
    cr_expect(f.accepted);
    cr_expect(f.installed);
    cr_expect(f.writeback);
    cr_expect_eq(f.victim, 0x000);
    cr_expect_eq(f.ready, 1);
    cache_missq_pop(c);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITEBACK);
    cr_expect_eq(cache_probe(c, 0x080, NULL, NULL), CACHE_LINE_VALID);
    cache_free(c);
}

Test(cache_write, write_back_sectored_partial_line)
{
    /* 32-B sectors: a store to sector 1 of an absent line allocates it with
     * only sector 1 valid and dirty; a load of sector 0 is a sector miss;
     * evicting the line writes back sector 1 only. */
    cache_params p = small_params(1, 1);
    p.write = CACHE_WRITE_BACK;
    p.sector_bytes = 32;
    cache *c = new_cache(&p);
    cache_access a = store_of(0x000, 1, 0, 0x2);
    cr_expect_eq(cache_try_access(c, &a, 1).outcome, CACHE_MISS);
    uint32_t valid = 0;
    cr_expect_eq(cache_probe(c, 0x000, NULL, &valid), CACHE_LINE_MODIFIED);
    cr_expect_eq(valid, 0x2);
    a = load_of(0x000, 2, 0, 0x1);
    cache_result r = cache_try_access(c, &a, 2);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(r.miss_class, CACHE_MISS_SECTOR);
    drain_missq(c);
    cache_fill(c, 0x000, 0x1, 3);
    mshr_requester rq;
    cr_assert(cache_pop_ready(c, &rq, NULL, 3));
    r = do_load(c, 0x080, 3, 0, 4);
    cr_expect(r.writeback);
    cr_assert(cache_missq_head(c));  /* the write-back comes first, then the fill */
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITEBACK);
    cr_expect_eq(cache_missq_head(c)->sectors, 0x2);
    cache_free(c);
}

Test(cache_write, partial_store_sends_only_its_segments)
{
    /* An unsectored 128-B line (one cache sector) and a store that writes
     * bytes 32..63 only: the coalescer marks 32-B segment 1 (seg32 = 0x2).
     * The line is dropped whole (write-evict of its one sector) but the
     * write sent down carries segment 1 only, so the level below moves 32 B
     * rather than the 128-B line. Same for a store to an absent line and a
     * bypassed store (disabled cache: go_down). */
    cache_params p = small_params(4, 2);
    p.line_bytes = 128;
    p.sector_bytes = 128;
    cache *c = new_cache(&p);
    bring_in(c, 0x000, 0, 1);
    cache_access a = store_of(0x020, 7, 1, 0);
    a.seg32 = 0x2;
    cr_expect_eq(cache_try_access(c, &a, 5).outcome, CACHE_HIT);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    const cache_req *q = cache_missq_head(c);
    cr_assert(q);
    cr_expect_eq(q->kind, CACHE_REQ_WRITE);
    cr_expect_eq(q->sectors, 0x1, "the cache's one sector");
    cr_expect_eq(q->seg32, 0x2, "only bytes 32..63 are written");
    cache_missq_pop(c);
    a = store_of(0x260, 8, 1, 0);   /* absent line, bytes 96..127: segment 3 */
    a.seg32 = 0x8;
    cr_expect_eq(cache_try_access(c, &a, 6).outcome, CACHE_MISS);
    cr_expect_eq(cache_missq_head(c)->seg32, 0x8);
    cache_free(c);

    p.enabled = false;
    c = new_cache(&p);
    a = store_of(0x040, 9, 1, 0);
    a.seg32 = 0x4;
    cr_expect_eq(cache_try_access(c, &a, 7).outcome, CACHE_BYPASSED);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITE);
    cr_expect_eq(cache_missq_head(c)->seg32, 0x4);
    cache_free(c);
}

/* A write-back cache of 32-B sectors (small_params(4, 2) otherwise). */
static cache *write_back_32(void)
{
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_BACK;
    p.sector_bytes = 32;
    return new_cache(&p);
}

/* A store to `sectors` of addr's line, writing `partial32` of them in part. */
static cache_outcome sector_store(cache *c, uint64_t addr, uint32_t id, uint32_t sectors, uint32_t partial32,
                                  uint64_t now)
{
    cache_access a = store_of(addr, id, 0, sectors);
    a.partial32 = partial32;
    return cache_try_access(c, &a, now).outcome;
}

Test(cache_write, write_back_remembers_partly_written_segments)
{
    /* 32-B sectors. A store covering half of segment 1 of an absent line
     * allocates it with segment 1 partial; a second partial store to it
     * leaves it partial (the bytes between are unknown); a whole-segment
     * store to segment 2 adds nothing partial; a whole store of segment 1
     * completes it. Line 0x200: a partial store after its fill is complete
     * (the fill brought every byte). Evicting 0x000 and 0x200 (set 0)
     * queues write-backs carrying partial32 0x1 (0x000's segment 0) and 0. */
    cache *c = write_back_32();
    cr_expect_eq(sector_store(c, 0x020, 1, 0x2, 0x2, 1), CACHE_MISS);
    cr_expect_eq(sector_store(c, 0x020, 1, 0x2, 0x2, 2), CACHE_HIT);
    cr_expect_eq(sector_store(c, 0x040, 1, 0x4, 0, 3), CACHE_HIT);
    cr_expect_eq(sector_store(c, 0x020, 1, 0x2, 0, 4), CACHE_HIT);
    cr_expect_eq(sector_store(c, 0x000, 1, 0x1, 0x1, 5), CACHE_HIT);
    cr_expect_eq(do_load(c, 0x200, 2, 0, 6).outcome, CACHE_MISS);
    fill_and_take(c, 0x200, 7);
    cr_expect_eq(sector_store(c, 0x200, 3, 0x1, 0x1, 8), CACHE_HIT);
    /* 0x400 and 0x600 evict 0x000 (LRU) then 0x200. */
    cr_expect_eq(do_load(c, 0x400, 4, 0, 9).outcome, CACHE_MISS);
    fill_and_take(c, 0x400, 10);
    cr_expect_eq(do_load(c, 0x600, 5, 0, 11).outcome, CACHE_MISS);
    unsigned wb = 0;
    uint32_t partial[2] = {99, 99};
    uint64_t lines[2] = {0};
    while (cache_missq_len(c)) {
        const cache_req *q = cache_missq_head(c);
        if (q->kind == CACHE_REQ_WRITEBACK && wb < 2) {
            lines[wb] = q->line;
            partial[wb++] = q->partial32;
        }
        cache_missq_pop(c);
    }
    cr_assert_eq(wb, 2);
    cr_expect_eq(lines[0], 0x000);
    cr_expect_eq(partial[0], 0x1);
    cr_expect_eq(lines[1], 0x200);
    cr_expect_eq(partial[1], 0x0);
    cache_free(c);
}

Test(cache_write, lazy_fetch_on_read_of_a_partly_written_sector)
{
    /* 32-B sectors, write-back. A store writing part of segment 1 of line
     * 0x000 leaves sector 1 valid, dirty and partial. A load of sector 1
     * that may be served from the written bytes hits; one that needs whole
     * sectors (cache_access.whole) misses, queues one FILL of sector 1 only
     * (0x2) and takes an MSHR; after the fill the same load hits, and the
     * line is still dirty: evicting it (0x200, 0x400 in set 0 of 2 ways)
     * queues its write-back. Sector 2, written whole, hits either way. */
    cache *c = write_back_32();
    cr_expect_eq(sector_store(c, 0x020, 1, 0x2, 0x2, 1), CACHE_MISS);
    cr_expect_eq(sector_store(c, 0x040, 2, 0x4, 0, 2), CACHE_HIT);
    cache_access a = load_of(0x020, 3, 0, 0x2);
    cr_expect_eq(cache_try_access(c, &a, 3).outcome, CACHE_HIT);
    a = load_of(0x040, 4, 0, 0x4);
    a.whole = true;
    cr_expect_eq(cache_try_access(c, &a, 4).outcome, CACHE_HIT);
    a = load_of(0x020, 5, 0, 0x2);
    a.whole = true;
    cr_expect_eq(cache_try_access(c, &a, 5).outcome, CACHE_MISS);
    cr_expect_eq(cache_mshr_free(c), 3);
    const cache_req *q = cache_missq_head(c);
    cr_assert(q);
    cr_expect_eq(q->kind, CACHE_REQ_FILL);
    cr_expect_eq(q->sectors, 0x2);
    cr_expect_eq(cache_missq_len(c), 1);
    drain_missq(c);
    cr_expect_eq(fill_and_take(c, 0x000, 6), 1);
    cr_expect_eq(cache_try_access(c, &a, 7).outcome, CACHE_HIT);
    bring_in(c, 0x200, 0, 8);
    cr_expect_eq(do_load(c, 0x400, 6, 0, 10).outcome, CACHE_MISS);
    bool wb = false;
    for (; cache_missq_len(c); cache_missq_pop(c))
        wb |= cache_missq_head(c)->kind == CACHE_REQ_WRITEBACK && cache_missq_head(c)->line == 0x000;
    cr_expect(wb, "the fetched sector kept the line dirty");
    cache_free(c);
}

Test(cache_write, invalidate_clean_keeps_dirty_and_reserved)
{
    /* A kernel launch's invalidation (l1d.launch_invalidate) in a write-back
     * cache: 0x000 clean in set 0, 0x080 dirty in set 1 (a store allocates
     * it), 0x100 reserved in set 2 (a miss, no fill yet). Only 0x000 goes:
     * one line dropped, one invalidation; the dirty line stays modified
     * (its data is not written back by this), the reserved one awaits its
     * fill, and the next load of 0x000 misses. */
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_BACK;
    cache *c = new_cache(&p);
    bring_in(c, 0x000, 0, 1);
    cr_expect_eq(do_store(c, 0x080, 1, 0, 3).outcome, CACHE_MISS);
    cr_expect_eq(do_load(c, 0x100, 2, 0, 4).outcome, CACHE_MISS);
    cr_expect_eq(cache_invalidate_clean(c), 1);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    cr_expect_eq(cache_probe(c, 0x080, NULL, NULL), CACHE_LINE_MODIFIED);
    cr_expect_eq(cache_probe(c, 0x100, NULL, NULL), CACHE_LINE_RESERVED);
    cr_expect_eq(cache_get_stats(c)->invalidations, 1);
    cr_expect_eq(do_load(c, 0x000, 3, 0, 5).outcome, CACHE_MISS);
    cache_free(c);
}
