/* DaCache's controller (Wang's dissertation, chapter 4): the FCW/CNT state
 * machine of Fig 4.3 on scripted sequences of retiring divergent loads, the
 * coherent load profiler with its victim cache, and the placements the
 * classes give on the thesis's Fermi L1D (32 sets x 8 ways, 2 schedulers:
 * Eq 4.1's way = 2 x priority). Every expected value is worked by hand in
 * the comments from the figure's constants: C_max = 256, CNT = 128 and
 * FCW = 4 initially, W_max = 48, FCW_min = 1 warp per scheduler (2 on the
 * thesis's 2-scheduler SM; the tests that train down to it say which). */
#include "test_cache_util.h"
#include "mem/dacache_ctl.h"

#define SET0(k) ((uint64_t)(k) * 0x1000)

/* (1)(2): 128 fully cached loads take CNT 128 -> 256 = C_max on the last
 * one, which raises FCW to 5 and resets CNT to 128. */
Test(fcw, fully_cached_loads_increment)
{
    fcw_state f;
    fcw_init(&f, 4, 1);
    cr_assert_eq(f.cnt, 128);
    cr_assert_eq(f.fcw, 4);
    for (unsigned i = 0; i < 127; i++)
        fcw_retire(&f, 0, true);
    cr_expect_eq(f.cnt, 255);
    cr_expect_eq(f.fcw, 4);
    fcw_retire(&f, 0, true);
    cr_expect_eq(f.fcw, 5);
    cr_expect_eq(f.cnt, 128);
    cr_expect_eq(f.ups, 1);
}

/* (3)(4)(5)(6): at FCW 4, a partially cached load of a warp at priority 10
 * (>= FCW) costs 1: 128 -> 127; one at priority 1 costs FCW - 1 = 3: 124;
 * at priority 0 each costs 4: 124 / 4 = 31 loads reach 0 exactly, which
 * lowers FCW to 3 and resets CNT to 128. At FCW 3 a priority-0 load costs 3:
 * 128 -> 125. */
Test(fcw, partially_cached_loads_decay_faster_for_high_priority)
{
    fcw_state f;
    fcw_init(&f, 4, 1);
    fcw_retire(&f, 10, false);
    cr_expect_eq(f.cnt, 127);
    fcw_retire(&f, 4, false);      /* priority == FCW: the slow decay too */
    cr_expect_eq(f.cnt, 126);
    fcw_retire(&f, 2, false);      /* 126 - (4 - 2) */
    cr_expect_eq(f.cnt, 124);
    for (unsigned i = 0; i < 30; i++)
        fcw_retire(&f, 0, false);
    cr_expect_eq(f.cnt, 4);
    cr_expect_eq(f.fcw, 4);
    fcw_retire(&f, 0, false);
    cr_expect_eq(f.fcw, 3);
    cr_expect_eq(f.cnt, 128);
    cr_expect_eq(f.downs, 1);
    fcw_retire(&f, 0, false);
    cr_expect_eq(f.cnt, 125);
    /* overshooting 0 also lowers FCW: CNT 2 at FCW 3, a priority-0 load costs 3 */
    f.cnt = 2;
    fcw_retire(&f, 0, false);
    cr_expect_eq(f.fcw, 2);
    cr_expect_eq(f.cnt, 128);
}

/* (7): FCW stays within 1..48 and CNT neither overflows at W_max nor goes
 * below 0 at FCW_min. */
Test(fcw, bounds)
{
    fcw_state f;
    fcw_init(&f, 0, 1);
    cr_expect_eq(f.fcw, 1, "FCW_min");
    fcw_init(&f, 100, 1);
    cr_expect_eq(f.fcw, 48, "W_max");
    /* at W_max: 128 fully cached loads saturate CNT at 256; more keep it there */
    for (unsigned i = 0; i < 130; i++)
        fcw_retire(&f, 0, true);
    cr_expect_eq(f.fcw, 48);
    cr_expect_eq(f.cnt, 256);
    cr_expect_eq(f.ups, 0);
    /* at FCW_min (1): a priority-0 load costs 1 - 0 = 1; 128 of them reach 0,
     * where CNT stays (no FCW 0); a priority-5 load still costs 1 */
    fcw_init(&f, 1, 1);
    for (unsigned i = 0; i < 128; i++)
        fcw_retire(&f, 0, false);
    cr_expect_eq(f.fcw, 1);
    cr_expect_eq(f.cnt, 0);
    fcw_retire(&f, 5, false);
    cr_expect_eq(f.cnt, 0);
    cr_expect_eq(f.downs, 0);
    /* and climbs back: 256 fully cached loads raise FCW to 2 */
    for (unsigned i = 0; i < 256; i++)
        fcw_retire(&f, 0, true);
    cr_expect_eq(f.fcw, 2);
    cr_expect_eq(f.cnt, 128);
}

/* (6)(7) with FCW_min per scheduler (section 4.2.4: "each warp scheduler has
 * at least 1 warp in the locality region"): 2 schedulers give FCW_min = 2.
 * fcw_init(0, 2) starts at 2. From FCW 3, priority-0 partially cached loads
 * cost 3 each: 43 take CNT 128 -> -1 (42 leave 2), FCW 3 -> 2 with CNT 128.
 * At FCW 2 each costs 2: 64 reach 0 exactly, where FCW stays 2 (no third
 * decrement, downs 1) and CNT stays 0. The Fermi unit's locality region is
 * then FCW x 32 / 32 = 2 ways: both schedulers' priority-0 warps (Eq 4.1
 * position 0) keep their lines, where FCW_min = 1 would leave 1 way. A
 * fourth scheduler raises the floor to 4; min is clamped to 1 .. W_max. */
Test(fcw, minimum_is_one_warp_per_scheduler)
{
    fcw_state f;
    fcw_init(&f, 0, 2);
    cr_expect_eq(f.fcw, 2);
    fcw_init(&f, 3, 2);
    for (unsigned i = 0; i < 42; i++)
        fcw_retire(&f, 0, false);
    cr_expect_eq(f.cnt, 2);
    cr_expect_eq(f.fcw, 3);
    fcw_retire(&f, 0, false);
    cr_expect_eq(f.fcw, 2);
    cr_expect_eq(f.cnt, 128);
    for (unsigned i = 0; i < 64; i++)
        fcw_retire(&f, 0, false);
    cr_expect_eq(f.fcw, 2, "FCW_min = 2 schedulers");
    cr_expect_eq(f.cnt, 0);
    cr_expect_eq(f.downs, 1);
    fcw_init(&f, 1, 4);
    cr_expect_eq(f.fcw, 4);
    fcw_init(&f, 1, 0);
    cr_expect_eq(f.fcw, 1, "min clamped to 1");
    fcw_init(&f, 1, 99);
    cr_expect_eq(f.fcw, 48, "min clamped to W_max");
    dacache_ctl d;
    dacache_ctl_init(&d, 0, 2, true, true);
    cr_expect_eq(d.fcw.fcw, 2, "the controller's FCW starts at its minimum");
}

/* Classes: a divergent load of 32 accesses follows the partitioning; one of
 * 5 accesses goes to MRU, of 6 not; a coherent PC without known locality
 * goes to LRU. With the prioritisation off every load is a divergent one. */
Test(dacache_ctl, classes)
{
    dacache_ctl d;
    dacache_ctl_init(&d, 4, 2, true, true);
    cr_expect_eq(dacache_ctl_classify(&d, 0x100, 3, 1, 32, true), DACACHE_DIVERGENT);
    cr_expect_eq(dacache_ctl_classify(&d, 0x100, 3, 1, 5, true), DACACHE_MRU);
    cr_expect_eq(dacache_ctl_classify(&d, 0x100, 3, 1, 6, true), DACACHE_DIVERGENT);
    cr_expect_eq(dacache_ctl_classify(&d, 0x200, 3, 1, 1, false), DACACHE_LRU);
    dacache_ctl_init(&d, 4, 2, true, false);
    cr_expect_eq(dacache_ctl_classify(&d, 0x200, 3, 1, 1, false), DACACHE_DIVERGENT);
    cr_expect_eq(dacache_ctl_classify(&d, 0x100, 3, 1, 5, true), DACACHE_DIVERGENT);
}

/* The victim cache samples the warp that last issued at priority 0 (warp 7).
 * A line of coherent PC 0x200 fetched by warp 3 and evicted is not sampled,
 * so its re-miss finds nothing; one fetched by warp 7 is, and the PC's
 * re-miss on it sets the CLP flag: the PC's loads go to MRU from then on. A
 * miss of another PC on that line does not. */
Test(dacache_ctl, victim_cache_finds_coherent_locality)
{
    dacache_ctl d;
    dacache_ctl_init(&d, 4, 2, true, true);
    dacache_ctl_classify(&d, 0x300, 7, 0, 32, true);   /* warp 7 at priority 0 */
    cr_assert_eq(dacache_ctl_classify(&d, 0x200, 3, 2, 1, false), DACACHE_LRU);
    dacache_ctl_evicted(&d, 0x1000, 3, 0x200);
    dacache_ctl_missed(&d, 0x1000, 0x200);
    cr_expect_not(dacache_ctl_locality(&d, 0x200));
    dacache_ctl_evicted(&d, 0x2000, 7, 0x200);
    cr_expect_eq(d.vc_inserts, 1);
    dacache_ctl_missed(&d, 0x2000, 0x999);             /* not a CLP PC */
    dacache_ctl_missed(&d, 0x3000, 0x200);             /* another line */
    cr_expect_not(dacache_ctl_locality(&d, 0x200));
    dacache_ctl_missed(&d, 0x2000, 0x200);
    cr_expect(dacache_ctl_locality(&d, 0x200));
    cr_expect_eq(d.vc_hits, 1);
    cr_expect_eq(dacache_ctl_classify(&d, 0x200, 3, 9, 1, false), DACACHE_MRU);
    /* settled: the victim cache is skipped for the PC */
    dacache_ctl_evicted(&d, 0x4000, 7, 0x200);
    cr_expect_eq(d.vc_inserts, 1);
}

/* The CLP holds 32 PCs: a 33rd coherent PC replaces the least recently
 * classified one (PC 0, classified first and never again), so PC 0's flag
 * is gone while PC 1's stays. */
Test(dacache_ctl, clp_keeps_32_pcs)
{
    dacache_ctl d;
    dacache_ctl_init(&d, 4, 2, true, true);
    dacache_ctl_classify(&d, 0x999, 7, 0, 32, true);
    for (uint32_t pc = 0; pc < 32; pc++)
        dacache_ctl_classify(&d, pc * 8, 1, 1, 1, false);
    for (uint32_t pc = 0; pc < 2; pc++) {
        dacache_ctl_evicted(&d, 0x1000 + pc, 7, pc * 8);
        dacache_ctl_missed(&d, 0x1000 + pc, pc * 8);
        cr_assert(dacache_ctl_locality(&d, pc * 8));
    }
    dacache_ctl_classify(&d, 8, 1, 1, 1, false);        /* PC 1 used again */
    dacache_ctl_classify(&d, 32 * 8, 1, 1, 1, false);   /* evicts PC 0 (oldest use) */
    cr_expect_not(dacache_ctl_locality(&d, 0));
    cr_expect(dacache_ctl_locality(&d, 8));
    cr_expect_eq(dacache_ctl_classify(&d, 0, 1, 1, 1, false), DACACHE_LRU);
}

static cache_params fermi_dacache(void)
{
    cache_params p = small_params(32, 8);
    p.replace = mem_policy("l1d.replace", "dacache");
    p.mshr_entries = 32;
    p.miss_queue = 64;
    return p;
}

static int placed(const cache_params *p, unsigned prio, unsigned cls, unsigned region)
{
    cache *c = new_cache(p);
    cache_access a = load_of(0, 1, 1, 0);
    a.prio = (uint8_t)prio;
    a.dc_class = (uint8_t)cls;
    a.dc_region = (uint8_t)region;
    cr_assert_eq(cache_try_access(c, &a, 10).outcome, CACHE_MISS);
    int pos = cache_stack_pos(c, 0);
    cache_free(c);
    return pos;
}

/* Eq 4.1 gives 2 x priority. Locality region 4 ways (default): a divergent
 * load of priority 1 (way 2) is a locality warp's, at 2; of priority 2 (way
 * 4, outside) a thrashing warp's, at LRU 7. MRU and LRU classes ignore the
 * priority. A dynamic region of 6 ways (dc_region 7, FCW 6) makes priority 2
 * a locality warp (4); Static0 (no region) sends even priority 0 to LRU. */
Test(dacache_ctl, placement_by_class_and_region)
{
    cache_params p = fermi_dacache();
    cr_expect_eq(placed(&p, 1, DACACHE_DIVERGENT, 0), 2);
    cr_expect_eq(placed(&p, 2, DACACHE_DIVERGENT, 0), 7);
    cr_expect_eq(placed(&p, 2, DACACHE_GAUGED, 0), 4);
    cr_expect_eq(placed(&p, 9, DACACHE_MRU, 0), 0);
    cr_expect_eq(placed(&p, 0, DACACHE_LRU, 0), 7);
    cr_expect_eq(placed(&p, 2, DACACHE_DIVERGENT, 7), 4);
    cr_expect_eq(placed(&p, 3, DACACHE_DIVERGENT, 7), 7);
    p.dacache_locality = 0;
    cr_expect_eq(placed(&p, 0, DACACHE_DIVERGENT, 0), 7);
}

/* Fig 4.7's StaticN caches N warps per scheduler in the locality region
 * (Wang, section 4.3.4). Eq 4.1 places priority k at way 2k (two schedulers,
 * one way per warp at 32 sets), so StaticN is a region of 2N ways: a
 * divergent load of priority k < N at 2k, any other at LRU 7.
 *   Static0 (0 ways): every priority at 7;  Static1 (2): 0, 7, 7, 7;
 *   Static2 (4): 0, 2, 7, 7;                Static3 (6): 0, 2, 4, 7.
 * An odd region 2N - 1 places like 2N (2k < 2N - 1 iff k < N for integer
 * k): 1 way holds priority 0 as 2 ways do, 3 ways place as 4. This is why a sweep over 1, 2, 3, 4 ways gives only two
 * distinct unconstrained partitions (the old Static0 = Static1 and
 * Static2 = Static3 of the ablation). */
Test(dacache_ctl, static_partitions_step_two_ways)
{
    static const int want[4][4] = {{7, 7, 7, 7}, {0, 7, 7, 7}, {0, 2, 7, 7}, {0, 2, 4, 7}};
    cache_params p = fermi_dacache();
    p.dacache_constrained = false;
    for (unsigned n = 0; n < 4; n++)
        for (unsigned k = 0; k < 4; k++) {
            p.dacache_locality = 2 * n;
            cr_expect_eq(placed(&p, k, DACACHE_DIVERGENT, 0), want[n][k], "Static%u, priority %u", n, k);
        }
    static const int one_way[4] = {0, 7, 7, 7}, three_ways[4] = {0, 2, 7, 7};
    for (unsigned k = 0; k < 4; k++) {
        p.dacache_locality = 1;
        cr_expect_eq(placed(&p, k, DACACHE_DIVERGENT, 0), one_way[k]);
        p.dacache_locality = 3;
        cr_expect_eq(placed(&p, k, DACACHE_DIVERGENT, 0), three_ways[k]);
    }
}

/* DaCache-Uncon: set 0 holds A0..A3 at 3..0 (valid) and B0..B3 at 4..7, in
 * flight (reserved). Constrained, a priority-0 miss bypasses (the test of
 * test_dacache.c); unconstrained it evicts the replaceable line nearest LRU,
 * A0 at position 3, and is inserted at MRU. */
Test(dacache_ctl, unconstrained_replaces_in_locality_region)
{
    cache_params p = fermi_dacache();
    p.dacache_constrained = false;
    cache *c = new_cache(&p);
    for (unsigned k = 0; k < 4; k++)
        bring_in(c, SET0(k), 0, 10 * k);
    for (unsigned k = 0; k < 4; k++) {
        cache_access a = load_of(SET0(4 + k), 10 + k, 1, 0);
        a.prio = 4;
        cr_assert_eq(cache_try_access(c, &a, 50).outcome, CACHE_MISS);
    }
    drain_missq(c);
    cr_assert_eq(cache_stack_pos(c, SET0(0)), 3);
    cache_access a = load_of(SET0(8), 20, 1, 0);
    cache_result r = cache_try_access(c, &a, 60);
    cr_expect_eq(r.outcome, CACHE_MISS);
    cr_expect(r.evicted);
    cr_expect_eq(r.victim, SET0(0));
    cr_expect_eq(cache_stack_pos(c, SET0(8)), 0);
    cache_free(c);
}

/* The FCW the statistics report (dacache_ctl_fcw). Static partitions keep
 * their region: the LD/ST unit starts the controller at region x sets / 32
 * warps, so on the Fermi L1D (32 sets) StaticN's 2N ways are 2N SM-wide
 * warps: Static0 reports 0 and Static2 (4 ways) 4, although fcw_init clamps
 * its own FCW to FCW_min = 2 (which static placement never reads), and
 * retiring loads do not train it. Dynamic partitioning reports the trained
 * FCW: started at 0 it is clamped to 2, and 127 partially cached loads at
 * priority 0 (CNT 128 - 127 x (2 - 0) <= 0 on the 64th) cannot lower it below
 * FCW_min, so it stays 2. */
Test(dacache_ctl, reported_fcw_static_and_dynamic)
{
    dacache_ctl d;
    dacache_ctl_init(&d, 0, 2, false, true);
    cr_expect_eq(dacache_ctl_fcw(&d), 0);
    cr_expect_eq(d.fcw.fcw, 2);
    dacache_ctl_init(&d, 4, 2, false, true);
    cr_expect_eq(dacache_ctl_fcw(&d), 4);
    dacache_ctl_init(&d, 6, 2, false, true);
    cr_expect_eq(dacache_ctl_fcw(&d), 6);
    dacache_ctl_init(&d, 0, 2, true, true);
    cr_expect_eq(dacache_ctl_fcw(&d), 2);
    for (unsigned i = 0; i < 127; i++)
        fcw_retire(&d.fcw, 0, false);
    cr_expect_eq(dacache_ctl_fcw(&d), 2);
    dacache_ctl_init(&d, 4, 2, true, true);
    fcw_retire(&d.fcw, 0, false);   /* CNT 128 - 4 = 124: FCW stays 4 */
    cr_expect_eq(d.fcw.cnt, 124);
    cr_expect_eq(dacache_ctl_fcw(&d), 4);
}
