/* DaCache (Wang's dissertation, chapter 4) as l1d.replace = dacache, on the
 * thesis's Fermi L1D geometry: 32 sets x 8 ways of 128-B lines, 2 warp
 * schedulers, linear index (so block k*32 is in set 0: address k*0x1000).
 * Every expected position is worked out by hand from the LRU stack
 * (position 0 = MRU, 7 = LRU) in the comments. */
#include "test_cache_util.h"

#define SET0(k) ((uint64_t)(k) * 0x1000)  /* the k-th line of set 0 */

static cache_params fermi_dacache(void)
{
    cache_params p = small_params(32, 8);
    p.replace = mem_policy("l1d.replace", "dacache");
    p.mshr_entries = 32;
    p.miss_queue = 64;
    cr_assert_eq(p.dacache_locality, 4, "default locality region: p = 3 (F = 0.5)");
    cr_assert_eq(p.dacache_schedulers, 2);
    cr_assert_eq(p.dacache_promote_by, 4);
    cr_assert_not(p.dacache_stall);
    return p;
}

static cache_result load_prio(cache *c, uint64_t addr, uint32_t id, unsigned prio, uint32_t seg32)
{
    cache_access a = load_of(addr, id, (uint16_t)prio, 0);
    a.prio = (uint8_t)prio;
    a.seg32 = seg32;
    return cache_try_access(c, &a, 10);
}

/* Eq 4.1: way = min(prio x N_sched x Width / N_set, Asso - 1)
 *             = min(prio x 2 x 32 / 32, 7) = min(2 prio, 7). */
Test(dacache, gauged_insertion_positions)
{
    static const unsigned prio[] = {0, 1, 2, 3, 4, 5, 23};
    static const int want[] = {0, 2, 4, 6, 7, 7, 7};
    cache_params p = fermi_dacache();
    for (unsigned i = 0; i < sizeof prio / sizeof prio[0]; i++) {
        cache *c = new_cache(&p);
        cr_assert_eq(load_prio(c, 0x0, 1, prio[i], 0).outcome, CACHE_MISS);
        cr_expect_eq(cache_stack_pos(c, 0x0), want[i], "priority %u: position %d, expected %d",
                     prio[i], cache_stack_pos(c, 0x0), want[i]);
        cache_free(c);
    }
    /* 64 sets: Width / N_set = 1/2, so way = min(prio x 2 x 32 / 64, 7) = prio. */
    p.sets = 64;
    cache *c = new_cache(&p);
    load_prio(c, 0x0, 1, 3, 0);
    cr_expect_eq(cache_stack_pos(c, 0x0), 3);
    cache_free(c);
}

/* Lines L0..L7 brought in at priority 0 (MRU) one after another end at
 * L7 = 0, L6 = 1, ..., L0 = 7. A hit on L0 moves it 4 toward MRU, to 3; the
 * lines at 3..6 (L4..L1) shift down one: L4 = 4, L1 = 7. A second hit on L0
 * (at 3 <= 4) goes to MRU; L7, L6, L5 shift to 1, 2, 3, and L4 stays at 4. */
Test(dacache, incremental_promotion_by_4)
{
    cache_params p = fermi_dacache();
    cache *c = new_cache(&p);
    for (unsigned k = 0; k < 8; k++)
        bring_in(c, SET0(k), 0, 10 * k);
    for (unsigned k = 0; k < 8; k++)
        cr_assert_eq(cache_stack_pos(c, SET0(k)), 7 - (int)k);
    cr_assert_eq(load_prio(c, SET0(0), 1, 0, 0).outcome, CACHE_HIT);
    cr_expect_eq(cache_stack_pos(c, SET0(0)), 3);
    cr_expect_eq(cache_stack_pos(c, SET0(4)), 4);
    cr_expect_eq(cache_stack_pos(c, SET0(1)), 7);
    cr_assert_eq(load_prio(c, SET0(0), 2, 0, 0).outcome, CACHE_HIT);
    cr_expect_eq(cache_stack_pos(c, SET0(0)), 0);
    cr_expect_eq(cache_stack_pos(c, SET0(7)), 1);
    cr_expect_eq(cache_stack_pos(c, SET0(5)), 3);
    cr_expect_eq(cache_stack_pos(c, SET0(4)), 4);
    cache_free(c);
    /* dacache_promote_by = 0: a hit goes straight to MRU. */
    p.dacache_promote_by = 0;
    c = new_cache(&p);
    for (unsigned k = 0; k < 8; k++)
        bring_in(c, SET0(k), 0, 10 * k);
    load_prio(c, SET0(0), 1, 0, 0);
    cr_expect_eq(cache_stack_pos(c, SET0(0)), 0);
    cache_free(c);
}

/* Set 0 of an empty cache: A0..A3 brought in at priority 0 take the empty
 * ways nearest LRU and go to MRU: A3 = 0, A2 = 1, A1 = 2, A0 = 3 (the
 * locality region 0..3). B0..B3 then miss at priority 4 (LRU insertion)
 * and stay in flight: each takes the empty way nearest LRU and goes to 7,
 * so B0 = 4, B1 = 5, B2 = 6, B3 = 7, all reserved (the thrashing region). */
static cache *locality_full_thrashing_reserved(const cache_params *p)
{
    cache *c = new_cache(p);
    for (unsigned k = 0; k < 4; k++)
        bring_in(c, SET0(k), 0, 10 * k);
    for (unsigned k = 0; k < 4; k++)
        cr_assert_eq(load_prio(c, SET0(4 + k), 10 + k, 4, 0).outcome, CACHE_MISS);
    drain_missq(c);
    for (unsigned k = 0; k < 4; k++) {
        cr_assert_eq(cache_stack_pos(c, SET0(k)), 3 - (int)k);
        cr_assert_eq(cache_stack_pos(c, SET0(4 + k)), 4 + (int)k);
        cr_assert_eq(cache_probe(c, SET0(4 + k), NULL, NULL), CACHE_LINE_RESERVED);
    }
    return c;
}

/* Plain LRU would evict A0 (the replaceable line nearest LRU). DaCache may
 * not touch 0..3 and 4..7 are reserved: the load bypasses, asking only the
 * one 32-B segment it needs (bytes 64..95: bit 2), and A0..A3 stay. */
Test(dacache, constrained_replacement_bypasses_shrunk)
{
    cache_params p = fermi_dacache();
    cache *c = locality_full_thrashing_reserved(&p);
    cache_result r = load_prio(c, SET0(8), 20, 0, 0x4);
    cr_expect_eq(r.outcome, CACHE_BYPASSED);
    cr_expect_not(r.evicted);
    for (unsigned k = 0; k < 4; k++)
        cr_expect_eq(cache_probe(c, SET0(k), NULL, NULL), CACHE_LINE_VALID);
    cr_expect_eq(cache_probe(c, SET0(8), NULL, NULL), CACHE_LINE_INVALID);
    const cache_req *q = cache_missq_head(c);
    cr_assert(q);
    cr_expect_eq(q->kind, CACHE_REQ_BYPASS);
    cr_expect_eq(q->line, SET0(8));
    cr_expect_eq(q->seg32, 0x4);
    cr_expect_eq(q->requester, 20);
    const cache_stats *s = cache_get_stats(c);
    cr_expect_eq(s->bypassed_no_victim, 1);
    cr_expect_eq(s->bypassed_shrunk, 1);
    cache_free(c);
}

/* DaCache-Stall: the same load is refused (replayed), nothing changes. */
Test(dacache, stall_variant_replays)
{
    cache_params p = fermi_dacache();
    p.dacache_stall = true;
    cache *c = locality_full_thrashing_reserved(&p);
    cache_result r = load_prio(c, SET0(8), 20, 0, 0x4);
    cr_expect_eq(r.outcome, CACHE_FAIL);
    cr_expect_eq(r.fail, CACHE_FAIL_SET_ALL_RESERVED);
    cr_expect_null(cache_missq_head(c));
    for (unsigned k = 0; k < 4; k++)
        cr_expect_eq(cache_probe(c, SET0(k), NULL, NULL), CACHE_LINE_VALID);
    cache_free(c);
}

/* Once B0 (position 4) is filled it is the only replaceable line of the
 * thrashing region: a priority-0 miss evicts it, not A0 at position 3, and
 * goes to MRU; the A lines shift to 1..4. */
Test(dacache, victim_only_from_thrashing_region)
{
    cache_params p = fermi_dacache();
    cache *c = locality_full_thrashing_reserved(&p);
    cr_assert(cache_fill(c, SET0(4), 0, 50).accepted);
    mshr_requester rq;
    while (cache_pop_ready(c, &rq, NULL, 50))
        ;
    cr_assert_eq(cache_probe(c, SET0(4), NULL, NULL), CACHE_LINE_VALID);
    cache_result r = load_prio(c, SET0(8), 20, 0, 0);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect(r.evicted);
    cr_expect_eq(r.victim, SET0(4));
    cr_expect_eq(cache_stack_pos(c, SET0(8)), 0);
    cr_expect_eq(cache_stack_pos(c, SET0(0)), 4);
    for (unsigned k = 0; k < 4; k++)
        cr_expect_eq(cache_probe(c, SET0(k), NULL, NULL), CACHE_LINE_VALID);
    cache_free(c);
}

/* The locality region must leave a way to replace. */
Test(dacache, params_reject_locality_of_every_way)
{
    cache_params p = fermi_dacache();
    p.dacache_locality = 8;
    const char *key = NULL;
    char why[160];
    cr_expect_not(cache_params_check(&p, &key, why, sizeof why));
    cr_expect_str_eq(key, "dacache_locality");
    /* LRU ignores it. */
    p.replace = mem_policy("l1d.replace", "lru");
    cr_expect(cache_params_check(&p, &key, why, sizeof why));
}
