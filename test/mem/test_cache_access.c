/* Cache loads: hit / pending hit / miss, allocate-on-miss vs allocate-on-fill,
 * every reservation-failure cause, sectored misses, bypasses, insertion
 * hints, the victim floor and promotion. With 4 sets, 128-B lines and the
 * linear index, addresses 0x000, 0x200, 0x400 share set 0 (blocks 0, 4, 8)
 * and 0x080, 0x100 are in sets 1 and 2. */
#include "test_cache_util.h"

Test(cache_access, miss_pending_hit_fill_hit)
{
    cache_params p = small_params(4, 2);
    cache *c = new_cache(&p);
    cache_result r = do_load(c, 0x0, 1, 0, 5);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(r.miss_class, CACHE_MISS_COLD);
    cr_expect_eq(r.set, 0);
    cr_expect_eq(cache_probe(c, 0x0, NULL, NULL), CACHE_LINE_RESERVED);
    cr_expect_eq(cache_mshr_free(c), 3);
    const cache_req *q = cache_missq_head(c);
    cr_assert(q);
    cr_expect_eq(q->kind, CACHE_REQ_FILL);
    cr_expect_eq(q->line, 0x0);
    cr_expect_eq(q->sectors, 0x1);  /* unsectored: the one sector */
    cr_expect_eq(q->requester, 1);
    /* Same line again: a pending hit, merged, nothing more sent. */
    r = do_load(c, 0x40, 2, 0, 6);
    cr_expect_eq(r.outcome, CACHE_HIT_RESERVED);
    cr_expect_eq(cache_missq_len(c), 1);
    cache_missq_pop(c);
    cache_fill_result f = cache_fill(c, 0x0, 0, 100);
    cr_expect(f.accepted);
    cr_expect(f.installed);
    cr_expect_eq(f.ready, 2);
    cr_expect_eq(cache_probe(c, 0x0, NULL, NULL), CACHE_LINE_VALID);
    mshr_requester rq;
    uint64_t line;
    cr_assert(cache_pop_ready(c, &rq, &line, 101));
    cr_expect_eq(rq.id, 1);
    cr_expect_eq(line, 0x0);
    cr_assert(cache_pop_ready(c, &rq, &line, 102));
    cr_expect_eq(rq.id, 2);
    cr_expect_not(cache_pop_ready(c, &rq, &line, 102));
    cr_expect_eq(cache_mshr_free(c), 4);
    /* Now a hit: ready after the 3-cycle hit latency. */
    r = do_load(c, 0x7C, 3, 0, 103);
    cr_expect_eq(r.outcome, CACHE_HIT);
    cr_expect_eq(r.ready, 106);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->accesses, 3);
    cr_expect_eq(s->hits, 1);
    cr_expect_eq(s->hits_reserved, 1);
    cr_expect_eq(s->misses, 1);
    cr_expect_eq(s->misses_cold, 1);
    cr_expect_eq(s->fills, 1);
    cache_free(c);
}

Test(cache_access, allocate_on_miss_set_all_reserved)
{
    /* 2 ways: misses to 0x000 and 0x200 reserve both lines of set 0; a third
     * line of set 0 has no victim: SET_ALL_RESERVED, nothing changes. */
    cache_params p = small_params(4, 2);
    cache *c = new_cache(&p);
    cr_expect_eq(do_load(c, 0x000, 1, 0, 1).outcome, CACHE_MISS);
    cr_expect_eq(do_load(c, 0x200, 2, 0, 2).outcome, CACHE_MISS);
    cache_result r = do_load(c, 0x400, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_SET_ALL_RESERVED);
    cr_expect_eq(cache_get_stats(c)->fail[CACHE_FAIL_SET_ALL_RESERVED], 1);
    cr_expect_eq(cache_get_stats(c)->reservation_fails, 1);
    cr_expect_eq(cache_missq_len(c), 2);
    cr_expect_eq(cache_mshr_free(c), 2);
    cr_expect_eq(cache_get_stats(c)->accesses, 2, "a failed attempt is not an access");
    /* Once 0x000 is filled it can be replaced: the replay misses, evicting it. */
    fill_and_take(c, 0x000, 10);
    r = do_load(c, 0x400, 3, 0, 11);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect(r.evicted);
    cr_expect_eq(r.victim, 0x000);
    cache_free(c);
}

Test(cache_access, allocate_on_fill_never_reserves)
{
    /* Same three misses allocating on fill: all accepted, no line reserved
     * (0x000 is absent until its fill). Fills install 0x000, 0x200, then
     * 0x400 replaces the LRU one, 0x000. */
    cache_params p = small_params(4, 2);
    p.alloc = CACHE_ALLOC_ON_FILL;
    cache *c = new_cache(&p);
    cr_expect_eq(do_load(c, 0x000, 1, 0, 1).outcome, CACHE_MISS);
    cr_expect_eq(do_load(c, 0x200, 2, 0, 2).outcome, CACHE_MISS);
    cr_expect_eq(do_load(c, 0x400, 3, 0, 3).outcome, CACHE_MISS);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    /* A second access to the in-flight line is still a pending hit. */
    cr_expect_eq(do_load(c, 0x000, 4, 0, 4).outcome, CACHE_HIT_RESERVED);
    cache_fill_result f = cache_fill(c, 0x000, 0, 10);
    cr_expect(f.installed);
    cr_expect_not(f.evicted);
    cr_expect_eq(f.ready, 2);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_VALID);
    cr_expect(cache_fill(c, 0x200, 0, 11).installed);
    f = cache_fill(c, 0x400, 0, 12);
    cr_expect(f.installed);
    cr_expect(f.evicted);
    cr_expect_eq(f.victim, 0x000);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    cache_free(c);
}

Test(cache_access, mshr_full)
{
    /* 2 MSHRs: misses to lines in sets 0 and 1 take both; a third line
     * (set 2) fails MSHR_FULL and is not allocated. */
    cache_params p = small_params(4, 2);
    p.mshr_entries = 2;
    cache *c = new_cache(&p);
    do_load(c, 0x000, 1, 0, 1);
    do_load(c, 0x080, 2, 0, 2);
    cache_result r = do_load(c, 0x100, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_MSHR_FULL);
    cr_expect_eq(cache_probe(c, 0x100, NULL, NULL), CACHE_LINE_INVALID);
    cr_expect_eq(cache_get_stats(c)->fail[CACHE_FAIL_MSHR_FULL], 1);
    /* A pending hit still merges while the table is full. */
    cr_expect_eq(do_load(c, 0x000, 4, 0, 4).outcome, CACHE_HIT_RESERVED);
    cache_free(c);
}

Test(cache_access, mshr_merge_limit)
{
    /* Merge limit 2: the miss and one pending hit; the third access to the
     * line fails MSHR_MERGE_LIMIT. */
    cache_params p = small_params(4, 2);
    p.mshr_merge = 2;
    cache *c = new_cache(&p);
    cr_expect_eq(do_load(c, 0x000, 1, 0, 1).outcome, CACHE_MISS);
    cr_expect_eq(do_load(c, 0x000, 2, 0, 2).outcome, CACHE_HIT_RESERVED);
    cache_result r = do_load(c, 0x000, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_MSHR_MERGE_LIMIT);
    cr_expect_eq(cache_get_stats(c)->fail[CACHE_FAIL_MSHR_MERGE_LIMIT], 1);
    cr_expect_eq(cache_get_stats(c)->hits_reserved, 1);
    cache_free(c);
}

Test(cache_access, miss_queue_full)
{
    /* A 2-entry miss queue holding two fill requests: a third miss fails
     * MISS_QUEUE_FULL, a pending hit does not need room, and a store (which
     * sends its data down) fails too. Sending one request frees a slot. */
    cache_params p = small_params(4, 2);
    p.miss_queue = 2;
    cache *c = new_cache(&p);
    do_load(c, 0x000, 1, 0, 1);
    do_load(c, 0x080, 2, 0, 2);
    cr_expect_eq(cache_missq_room(c), 0);
    cache_result r = do_load(c, 0x100, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_MISS_QUEUE_FULL);
    cr_expect_eq(do_load(c, 0x000, 4, 0, 4).outcome, CACHE_HIT_RESERVED);
    r = do_store(c, 0x100, 5, 0, 5);
    cr_expect_eq(r.fail, CACHE_FAIL_MISS_QUEUE_FULL);
    cr_expect_eq(cache_get_stats(c)->fail[CACHE_FAIL_MISS_QUEUE_FULL], 2);
    cache_missq_pop(c);
    cr_expect_eq(do_load(c, 0x100, 3, 0, 6).outcome, CACHE_MISS);
    cache_free(c);
}

Test(cache_access, failure_order_follows_gpgpusim)
{
    /* When several causes hold, the first one checked is reported: no
     * victim, then no queue room, then the MSHR. 1 MSHR, 2-entry queue, 1 way:
     * miss 0x000 (queue 1, MSHR full). 0x080 (set 1, empty way): queue has
     * room, MSHR full -> MSHR_FULL. Fill the queue with a bypass: 0x080 now
     * fails MISS_QUEUE_FULL. 0x200 (set 0, its only line reserved) fails
     * SET_ALL_RESERVED although the queue and the MSHRs are full too. */
    cache_params p = small_params(4, 1);
    p.mshr_entries = 1;
    p.miss_queue = 2;
    cache *c = new_cache(&p);
    do_load(c, 0x000, 1, 0, 1);
    cr_expect_eq(do_load(c, 0x080, 2, 0, 2).fail, CACHE_FAIL_MSHR_FULL);
    cache_access b = load_of(0x900, 3, 0, 0);
    b.bypass = true;
    cr_expect_eq(cache_try_access(c, &b, 3).outcome, CACHE_BYPASSED);
    cr_expect_eq(do_load(c, 0x080, 2, 0, 4).fail, CACHE_FAIL_MISS_QUEUE_FULL);
    cr_expect_eq(do_load(c, 0x200, 4, 0, 5).fail, CACHE_FAIL_SET_ALL_RESERVED);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->reservation_fails, 3);
    cr_expect_eq(s->fail[CACHE_FAIL_MSHR_FULL] + s->fail[CACHE_FAIL_MISS_QUEUE_FULL] +
                     s->fail[CACHE_FAIL_SET_ALL_RESERVED],
                 3);
    cache_free(c);
}

Test(cache_access, sectored_misses)
{
    /* 32-B sectors (4 per line). Sector 0 misses and is filled; sector 1
     * misses on the present line (a sector miss, which pins it); sector 0
     * still hits; sectors 0-1 is a pending hit (1 is in flight); sector 2
     * widens the same MSHR entry (another sector miss). The fill of sector 1
     * readies the requesters of 1 and 0-1; the fill of 2 readies the last. */
    cache_params p = small_params(4, 2);
    p.sector_bytes = 32;
    cache *c = new_cache(&p);
    cache_access a = load_of(0x000, 1, 0, 0x1);
    cache_result r = cache_try_access(c, &a, 1);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(cache_missq_head(c)->sectors, 0x1);
    drain_missq(c);
    cr_expect_eq(cache_fill(c, 0x000, 0x1, 2).ready, 1);
    mshr_requester rq;
    cr_assert(cache_pop_ready(c, &rq, NULL, 2));
    uint32_t valid = 0;
    cr_expect_eq(cache_probe(c, 0x000, NULL, &valid), CACHE_LINE_VALID);
    cr_expect_eq(valid, 0x1, "only sector 0 was filled");
    a = load_of(0x000, 2, 0, 0x2);
    r = cache_try_access(c, &a, 3);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(r.miss_class, CACHE_MISS_SECTOR);
    cr_assert(cache_missq_head(c));
    cr_expect_eq(cache_missq_head(c)->sectors, 0x2);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_RESERVED);
    a = load_of(0x000, 3, 0, 0x1);
    cr_expect_eq(cache_try_access(c, &a, 4).outcome, CACHE_HIT);
    a = load_of(0x000, 4, 0, 0x3);
    cr_expect_eq(cache_try_access(c, &a, 5).outcome, CACHE_HIT_RESERVED);
    a = load_of(0x000, 5, 0, 0x4);
    r = cache_try_access(c, &a, 6);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(r.miss_class, CACHE_MISS_SECTOR);
    cr_expect_eq(cache_mshr_free(c), 3, "sector misses share the line's entry");
    drain_missq(c);
    cr_expect_eq(cache_fill(c, 0x000, 0x2, 7).ready, 2);
    cr_assert(cache_pop_ready(c, &rq, NULL, 7));
    cr_expect_eq(rq.id, 2);
    cr_assert(cache_pop_ready(c, &rq, NULL, 8));
    cr_expect_eq(rq.id, 4);
    cr_expect_not(cache_pop_ready(c, &rq, NULL, 8));
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_RESERVED, "sector 2 still coming");
    cr_expect_eq(cache_fill(c, 0x000, 0x4, 9).ready, 1);
    cr_assert(cache_pop_ready(c, &rq, NULL, 9));
    cr_expect_eq(rq.id, 5);
    cr_expect_eq(cache_probe(c, 0x000, NULL, &valid), CACHE_LINE_VALID);
    cr_expect_eq(valid, 0x7);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->misses, 3);
    cr_expect_eq(s->misses_cold, 1);
    cr_expect_eq(s->misses_sector, 2);
    cr_expect_eq(s->hits, 1);
    cr_expect_eq(s->hits_reserved, 1);
    /* Sectors 0 means the whole line: all four requested. */
    a = load_of(0x080, 6, 0, 0);
    cr_expect_eq(cache_try_access(c, &a, 10).outcome, CACHE_MISS);
    cr_assert(cache_missq_head(c));
    cr_expect_eq(cache_missq_head(c)->sectors, 0xF);
    /* The coalescer's 32-B mask re-expressed for this cache: unchanged. */
    cr_expect_eq(cache_sector_mask(c, 0x6, 32), 0x6);
    cache_free(c);
}

Test(cache_access, fetch_bytes_fetches_aligned_blocks)
{
    /* 32-B sectors, fetch_bytes = 64: sector blocks {0,1} and {2,3}. A miss
     * on sector 1 asks for 0x3 (its block); sector 0 is then a pending hit
     * on that entry, not a second miss; the fill of 0x3 readies both, and
     * sector 0 hits. Sector 3 misses and asks for 0xC. On line 0x080, with
     * 0x3 in flight, a load of sectors 1-2 asks for 0xC only: the block of
     * sector 1 is already coming. fetch_bytes = 0 fetches the sector alone:
     * a miss on sector 1 asks for 0x2. */
    cache_params p = small_params(4, 2);
    p.sector_bytes = 32;
    p.fetch_bytes = 64;
    cache *c = new_cache(&p);
    cache_access a = load_of(0x000, 1, 0, 0x2);
    cr_expect_eq(cache_try_access(c, &a, 1).outcome, CACHE_MISS);
    cr_assert(cache_missq_head(c));
    cr_expect_eq(cache_missq_head(c)->sectors, 0x3);
    a = load_of(0x000, 2, 0, 0x1);
    cr_expect_eq(cache_try_access(c, &a, 2).outcome, CACHE_HIT_RESERVED);
    drain_missq(c);
    cr_expect_eq(cache_fill(c, 0x000, 0x3, 3).ready, 2, "sectors 0 and 1 came: both requesters");
    mshr_requester rq;
    while (cache_pop_ready(c, &rq, NULL, 3))
        ;
    a = load_of(0x000, 3, 0, 0x1);
    cr_expect_eq(cache_try_access(c, &a, 4).outcome, CACHE_HIT);
    a = load_of(0x000, 4, 0, 0x8);
    cr_expect_eq(cache_try_access(c, &a, 5).outcome, CACHE_MISS);
    cr_assert(cache_missq_head(c));
    cr_expect_eq(cache_missq_head(c)->sectors, 0xC);
    drain_missq(c);
    a = load_of(0x080, 5, 0, 0x1);
    cr_expect_eq(cache_try_access(c, &a, 6).outcome, CACHE_MISS);
    drain_missq(c);
    a = load_of(0x080, 6, 0, 0x6);
    cr_expect_eq(cache_try_access(c, &a, 7).outcome, CACHE_MISS);
    cr_assert(cache_missq_head(c));
    cr_expect_eq(cache_missq_head(c)->sectors, 0xC);
    cache_free(c);

    p.fetch_bytes = 0;
    c = new_cache(&p);
    a = load_of(0x000, 1, 0, 0x2);
    cr_expect_eq(cache_try_access(c, &a, 1).outcome, CACHE_MISS);
    cr_assert(cache_missq_head(c));
    cr_expect_eq(cache_missq_head(c)->sectors, 0x2);
    cache_free(c);
}

Test(cache_access, bypasses_go_down_untouched)
{
    /* A bypass flag, an L2-only load, an atomic and a disabled cache all go
     * down as they are: no line, no MSHR; a bypassed store goes as a write. */
    cache_params p = small_params(4, 2);
    cache *c = new_cache(&p);
    cache_access a = load_of(0x000, 11, 2, 0);
    a.bypass = true;
    cr_expect_eq(cache_try_access(c, &a, 1).outcome, CACHE_BYPASSED);
    const cache_req *q = cache_missq_head(c);
    cr_assert(q);
    cr_expect_eq(q->kind, CACHE_REQ_BYPASS);
    cr_expect_eq(q->requester, 11);
    cr_expect_eq(q->warp, 2);
    cr_expect_eq(q->op, MEM_LOAD);
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    cr_expect_eq(cache_mshr_free(c), 4);
    a = load_of(0x080, 12, 0, 0);
    a.flags = MEM_L2_ONLY;
    cr_expect_eq(cache_try_access(c, &a, 2).outcome, CACHE_BYPASSED);
    a = load_of(0x100, 13, 0, 0);
    a.op = MEM_ATOMIC;
    cr_expect_eq(cache_try_access(c, &a, 3).outcome, CACHE_BYPASSED);
    a = store_of(0x180, 14, 0, 0);
    a.bypass = true;
    cr_expect_eq(cache_try_access(c, &a, 4).outcome, CACHE_BYPASSED);
    cache_missq_pop(c);
    cache_missq_pop(c);
    cr_expect_eq(cache_missq_head(c)->op, MEM_ATOMIC);
    cache_missq_pop(c);
    cr_expect_eq(cache_missq_head(c)->kind, CACHE_REQ_WRITE);
    cr_expect_eq(cache_get_stats(c)->bypassed, 4);
    cr_expect_eq(cache_get_stats(c)->misses, 0);
    cache_free(c);

    p.enabled = false;
    c = new_cache(&p);
    cr_expect_eq(do_load(c, 0x000, 1, 0, 1).outcome, CACHE_BYPASSED);
    cr_expect_eq(do_load(c, 0x000, 2, 0, 2).outcome, CACHE_BYPASSED, "nothing is cached");
    cr_expect_eq(cache_probe(c, 0x000, NULL, NULL), CACHE_LINE_INVALID);
    cache_free(c);
}

Test(cache_access, bypass_when_no_victim)
{
    /* bypass=no_victim (DaCache): the third line of a set whose two lines are
     * reserved goes down uncached instead of failing. */
    cache_params p = small_params(4, 2);
    p.bypass = CACHE_BYPASS_NO_VICTIM;
    cache *c = new_cache(&p);
    do_load(c, 0x000, 1, 0, 1);
    do_load(c, 0x200, 2, 0, 2);
    cache_result r = do_load(c, 0x400, 3, 0, 3);
    cr_expect_eq(r.outcome, CACHE_BYPASSED);
    cr_expect_eq(cache_get_stats(c)->bypassed_no_victim, 1);
    cr_expect_eq(cache_get_stats(c)->reservation_fails, 0);
    cr_expect_eq(cache_mshr_free(c), 2);
    cache_free(c);
}

Test(cache_access, insertion_hint_victim_floor_stream)
{
    /* One set of 4 ways. Bringing in A, B, C, D (each allocated at MRU)
     * leaves the stack D0 C1 B2 A3. */
    cache_params p = small_params(1, 4);
    cache *c = new_cache(&p);
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180, E = 0x200, F = 0x280, G = 0x300;
    bring_in(c, A, 0, 1);
    bring_in(c, B, 0, 3);
    bring_in(c, C, 0, 5);
    bring_in(c, D, 0, 7);
    cr_expect_eq(cache_stack_pos(c, D), 0);
    cr_expect_eq(cache_stack_pos(c, A), 3);
    /* E with an insertion hint of 3 (gauged insertion): replaces A at the
     * LRU end and stays there, reserved: D0 C1 B2 E3. */
    cache_access a = load_of(E, 1, 0, 0);
    a.insert_hint = true;
    a.insert_pos = 3;
    cache_result r = cache_try_access(c, &a, 10);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect_eq(r.victim, A);
    cr_expect_eq(cache_stack_pos(c, E), 3);
    /* F with victims only at positions >= 3 (constrained replacement): the
     * only line there, E, is reserved: SET_ALL_RESERVED. */
    a = load_of(F, 2, 0, 0);
    a.victim_floor = 3;
    r = cache_try_access(c, &a, 11);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_SET_ALL_RESERVED);
    /* Without the floor the replaceable line nearest LRU, B (2), goes: F0 D1 C2 E3. */
    a.victim_floor = 0;
    r = cache_try_access(c, &a, 12);
    cr_expect_eq(r.victim, B);
    cr_expect_eq(cache_stack_pos(c, F), 0);
    cr_expect_eq(cache_stack_pos(c, C), 2);
    /* G streaming (evict-first): replaces C and is inserted at LRU: F0 D1 E2 G3. */
    a = load_of(G, 3, 0, 0);
    a.flags = MEM_STREAM;
    r = cache_try_access(c, &a, 13);
    cr_expect_eq(r.victim, C);
    cr_expect_eq(cache_stack_pos(c, G), 3);
    cr_expect_eq(cache_stack_pos(c, E), 2);
    cr_expect_eq(cache_stack_pos(c, C), -1);
    cache_free(c);
}

Test(cache_access, hit_promotes_by_n)
{
    /* promote_by 1: D0 C1 B2 A3, a hit on A moves it one up: D0 C1 A2 B3. */
    cache_params p = small_params(1, 4);
    p.promote_by = 1;
    cache *c = new_cache(&p);
    bring_in(c, 0x000, 0, 1);
    bring_in(c, 0x080, 0, 3);
    bring_in(c, 0x100, 0, 5);
    bring_in(c, 0x180, 0, 7);
    cr_expect_eq(do_load(c, 0x000, 1, 0, 9).outcome, CACHE_HIT);
    cr_expect_eq(cache_stack_pos(c, 0x000), 2);
    cr_expect_eq(cache_stack_pos(c, 0x080), 3);
    cache_free(c);
}

Test(cache_access, victim_reports_its_fetcher)
{
    /* One line: A brought in by warp 3 at pc 40; B by warp 4 evicts it and
     * reports who had fetched it (allocate-on-miss at the miss, on-fill at
     * the fill). */
    for (unsigned alloc = 0; alloc < 2; alloc++) {
        cache_params p = small_params(1, 1);
        p.alloc = (cache_alloc_policy)alloc;
        cache *c = new_cache(&p);
        cache_access a = load_of(0x000, 1, 3, 0);
        a.pc = 40;
        cr_expect_eq(cache_try_access(c, &a, 1).outcome, CACHE_MISS);
        fill_and_take(c, 0x000, 2);
        a = load_of(0x080, 2, 4, 0);
        a.pc = 41;
        cache_result r = cache_try_access(c, &a, 3);
        cache_fill_result f = cache_fill(c, 0x080, 0, 4);
        bool evicted = alloc == CACHE_ALLOC_ON_MISS ? r.evicted : f.evicted;
        uint16_t warp = alloc == CACHE_ALLOC_ON_MISS ? r.victim_warp : f.victim_warp;
        uint32_t pc = alloc == CACHE_ALLOC_ON_MISS ? r.victim_pc : f.victim_pc;
        cr_expect(evicted, "alloc %u", alloc);
        cr_expect_eq(warp, 3, "alloc %u", alloc);
        cr_expect_eq(pc, 40, "alloc %u", alloc);
        cache_free(c);
    }
}
