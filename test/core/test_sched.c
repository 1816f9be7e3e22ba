/* The scheduler policies alone, driven by scripted warp statuses: one call
 * of cycle() is one fetch cycle (pick, issue, end of cycle). */
#include <criterion/criterion.h>
#include <string.h>

#include "simtgrid/core.h"
#include "core/warp_sched.h"

/* The registered policy `name` (src/core/registry.def). */
#define OPS(name) ((const sched_ops *)core_policy("core.scheduler", name)->ops)

#define N 16

typedef struct rig {
    sched s;
    uint8_t status[N];
    uint64_t age[N];
    uint32_t slot[N];
    sched_view v;
    stats *st;   /* the policy's own statistics, under block "q" */
} rig;

static void rig_init_sel(rig *r, const sched_ops *ops, unsigned n, unsigned G, bool nofetch, uint64_t timeout,
                         core_2lev_select sel)
{
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < N; i++) {
        r->status[i] = WS_GONE;
        r->age[i] = i;
        r->slot[i] = i;
    }
    r->v = (sched_view){.status = r->status, .age = r->age, .slot = r->slot};
    core_params p = {.fetch_group = G, .two_level_trigger = nofetch ? CORE_2LEV_NOFETCH : CORE_2LEV_LONGLAT,
                     .two_level_timeout = timeout, .two_level_select = sel};
    sched_init(&r->s, ops, N, n, &p);
    r->st = stats_new();
    sched_register_stats(&r->s, r->st, "q");
    for (unsigned i = 0; i < n; i++) {
        r->status[i] = WS_READY;
        sched_add(&r->s, &r->v, i, -1);
    }
}

static void rig_init(rig *r, const sched_ops *ops, unsigned n, unsigned G, bool nofetch, uint64_t timeout)
{
    rig_init_sel(r, ops, n, G, nofetch, timeout, CORE_2LEV_NEXT);
}

/* A counter the policy registered (two-level: group_switches, group_timeouts). */
static uint64_t counter(const rig *r, const char *name)
{
    uint64_t v = 0;
    cr_assert(stats_get_counter(r->st, "q", name, &v), "no counter %s", name);
    return v;
}

static void rig_free(rig *r)
{
    sched_free(&r->s);
    stats_free(r->st);
}

/* One fetch cycle: returns the warp issued or -1. */
static int cycle(rig *r, uint64_t k)
{
    int id = sched_pick(&r->s, &r->v, k);
    if (id >= 0)
        sched_issued(&r->s, &r->v, (unsigned)id, k);
    sched_cycle_end(&r->s, &r->v, k);
    return id;
}

Test(sched, lrr_round_robin_skips_unready)
{
    rig r;
    rig_init(&r, OPS("lrr"), 4, 1, false, 0);
    int want[6] = {0, 1, 2, 3, 0, 1};
    for (int k = 0; k < 6; k++)
        cr_expect_eq(cycle(&r, k), want[k], "cycle %d", k);
    /* warp 2 not ready: after 1 comes 3, then 0 */
    r.status[2] = WS_MEM;
    cr_expect_eq(cycle(&r, 6), 3);
    cr_expect_eq(cycle(&r, 7), 0);
    cr_expect_eq(cycle(&r, 8), 1);
    cr_expect_eq(cycle(&r, 9), 3);
    rig_free(&r);
}

/* Sticky round-robin: members 0, 1 share slot 0 (one TBC block), 2, 3
 * slot 1. After 1 issued, the next in round-robin order is 2, but SRR
 * sticks to slot 0 while a member of it is ready (0); when none is, it
 * goes on round-robin (2), and then sticks to slot 1 (3 before 0). */
Test(sched, srr_sticks_to_the_slot_of_the_last_issued)
{
    rig r;
    rig_init(&r, OPS("srr"), 4, 1, false, 0);
    uint32_t slots[4] = {0, 0, 1, 1};
    memcpy(r.slot, slots, sizeof slots);
    for (unsigned i = 0; i < 4; i++)
        r.status[i] = i == 1 ? WS_READY : WS_DEP;
    cr_expect_eq(cycle(&r, 0), 1);
    for (unsigned i = 0; i < 4; i++)
        r.status[i] = i == 1 ? WS_DEP : WS_READY;
    cr_expect_eq(cycle(&r, 1), 0, "sticky: slot 0 before member 2");
    r.status[0] = WS_DEP;
    cr_expect_eq(cycle(&r, 2), 2, "slot 0 has no ready member: round-robin");
    r.status[0] = WS_READY;
    r.status[2] = WS_DEP;
    cr_expect_eq(cycle(&r, 3), 3, "sticky: slot 1 (3) before 0");
    /* LRR from the same state after 1 issued would take 2 */
    rig q;
    rig_init(&q, OPS("lrr"), 4, 1, false, 0);
    for (unsigned i = 0; i < 4; i++)
        q.status[i] = i == 1 ? WS_READY : WS_DEP;
    cr_expect_eq(cycle(&q, 0), 1);
    for (unsigned i = 0; i < 4; i++)
        q.status[i] = i == 1 ? WS_DEP : WS_READY;
    cr_expect_eq(cycle(&q, 1), 2);
    rig_free(&q);
    rig_free(&r);
}

Test(sched, gto_greedy_then_oldest_and_age_ranks)
{
    rig r;
    rig_init(&r, OPS("gto"), 4, 1, false, 0);
    /* ages 3,2,1,0: warp 3 is the oldest */
    for (unsigned i = 0; i < 4; i++)
        r.age[i] = 3 - i;
    cr_expect_eq(sched_age_rank(&r.s, &r.v, 3), 0);
    cr_expect_eq(sched_age_rank(&r.s, &r.v, 0), 3);
    cr_expect_eq(cycle(&r, 0), 3, "first pick: the oldest");
    cr_expect_eq(cycle(&r, 1), 3, "greedy: the same warp while it is ready");
    cr_expect_eq(cycle(&r, 2), 3);
    r.status[3] = WS_MEM;
    cr_expect_eq(cycle(&r, 3), 2, "then the oldest ready one");
    cr_expect_eq(cycle(&r, 4), 2);
    r.status[3] = WS_READY;
    cr_expect_eq(cycle(&r, 5), 2, "greedy beats older");
    r.status[2] = WS_DEP;
    cr_expect_eq(cycle(&r, 6), 3);
    cr_expect_eq(sched_age_rank(&r.s, &r.v, 9), -1, "not a member");
    rig_free(&r);
}

/* 8 warps, fetch groups of 4: group 0 = warps 0-3, group 1 = warps 4-7. */
Test(sched, two_level_longlat_trigger)
{
    rig r;
    rig_init(&r, OPS("2lev"), 8, 4, false, 0);
    /* round-robin inside the top group only, while it has ready warps */
    int want[6] = {0, 1, 2, 3, 0, 1};
    for (int k = 0; k < 6; k++)
        cr_expect_eq(cycle(&r, k), want[k], "cycle %d", k);
    cr_expect_eq(sched_top_group(&r.s), 0);
    /* group 0 in flight (not long-latency): strict priority takes group 1,
     * but the top stays group 0 */
    for (unsigned i = 0; i < 4; i++)
        r.status[i] = WS_DEP;
    cr_expect_eq(cycle(&r, 6), 4);
    cr_expect_eq(sched_top_group(&r.s), 0, "(a) does not switch on in-flight warps");
    /* group 0 all on memory or a barrier: switch after this cycle */
    r.status[0] = r.status[1] = WS_MEM;
    r.status[2] = WS_BARRIER;
    r.status[3] = WS_MEM;
    cr_expect_eq(cycle(&r, 7), 5);
    cr_expect_eq(sched_top_group(&r.s), 1);
    /* group 0 ready again, but group 1 is on top now */
    for (unsigned i = 0; i < 4; i++)
        r.status[i] = WS_READY;
    cr_expect_eq(cycle(&r, 8), 6);
    cr_expect_eq(cycle(&r, 9), 7);
    cr_expect_eq(cycle(&r, 10), 4);
    cr_expect_eq(counter(&r, "group_switches"), 1);
    rig_free(&r);
}

Test(sched, two_level_nofetch_trigger)
{
    rig r;
    rig_init(&r, OPS("2lev"), 8, 4, true, 0);
    cr_expect_eq(cycle(&r, 0), 0);
    cr_expect_eq(sched_top_group(&r.s), 0);
    /* group 0 merely in flight: (b) switches */
    for (unsigned i = 0; i < 4; i++)
        r.status[i] = WS_DEP;
    cr_expect_eq(cycle(&r, 1), 4);
    cr_expect_eq(sched_top_group(&r.s), 1);
    for (unsigned i = 0; i < 4; i++)
        r.status[i] = WS_READY;
    cr_expect_eq(cycle(&r, 2), 5, "group 1 on top");
    /* a group whose ready warp is held by a busy unit is not fetchable */
    for (unsigned i = 4; i < 8; i++)
        r.status[i] = WS_STRUCT;
    cr_expect_eq(cycle(&r, 3), 1, "strict priority falls to group 0 (after warp 0)");
    cr_expect_eq(sched_top_group(&r.s), 0);
    rig_free(&r);
}

/* (b) keeps the top while some of the group's warps wait on memory and the
 * others are in flight ([P] 3.2.1: switch "only once those warps are
 * actually stalled"); the bubble goes to the next group by priority. */
Test(sched, two_level_nofetch_waits_for_the_stall)
{
    rig r;
    rig_init(&r, OPS("2lev"), 8, 4, true, 0);
    cr_expect_eq(cycle(&r, 0), 0);
    r.status[0] = r.status[1] = WS_MEM;
    r.status[2] = r.status[3] = WS_DEP;
    cr_expect_eq(cycle(&r, 1), 4, "the bubble goes to group 1");
    cr_expect_eq(sched_top_group(&r.s), 0, "two on memory, two in flight: no switch");
    cr_expect_eq(counter(&r, "group_switches"), 0);
    /* the last two reach memory too: all stalled, switch */
    r.status[2] = r.status[3] = WS_MEM;
    cr_expect_eq(cycle(&r, 2), 5);
    cr_expect_eq(sched_top_group(&r.s), 1);
    cr_expect_eq(counter(&r, "group_switches"), 1);
    rig_free(&r);
}

/* 12 warps, groups of 4. Groups 0 and 1 wait on memory, group 2 is ready.
 * `next` moves the top one group (to 1), `fetchable` to the group fetched
 * from (2). Then nothing is fetchable for 5 cycles: `next` goes on moving
 * one group a cycle (1 -> 2 -> 0 -> 1 -> 2 -> 0; group 2 is all in flight,
 * so (b) switches too), `fetchable` keeps group 2. */
Test(sched, two_level_select_next_or_fetchable)
{
    for (int sel = 0; sel < 2; sel++) {
        rig r;
        rig_init_sel(&r, OPS("2lev"), 12, 4, true, 0, sel ? CORE_2LEV_FETCHABLE : CORE_2LEV_NEXT);
        for (unsigned i = 0; i < 8; i++)
            r.status[i] = WS_MEM;
        cr_expect_eq(cycle(&r, 0), 8);
        cr_expect_eq(sched_top_group(&r.s), sel ? 2u : 1u, "select %d", sel);
        cr_expect_eq(counter(&r, "group_switches"), 1);
        for (unsigned i = 8; i < 12; i++)
            r.status[i] = WS_DEP;
        for (uint64_t k = 1; k <= 5; k++)
            cr_expect_eq(cycle(&r, k), -1);
        cr_expect_eq(sched_top_group(&r.s), sel ? 2u : 0u, "select %d", sel);
        cr_expect_eq(counter(&r, "group_switches"), sel ? 1u : 6u, "select %d", sel);
        rig_free(&r);
    }
}

Test(sched, two_level_timeout)
{
    rig r;
    rig_init(&r, OPS("2lev"), 8, 4, false, 3);
    /* three instructions from the top group, then a forced switch */
    int want[9] = {0, 1, 2, 4, 5, 6, 3, 0, 1};
    for (int k = 0; k < 9; k++)
        cr_expect_eq(cycle(&r, k), want[k], "cycle %d", k);
    cr_expect_eq(counter(&r, "group_timeouts"), 3);
    cr_expect_eq(counter(&r, "group_switches"), 3);
    rig_free(&r);
}

Test(sched, two_level_empty_group_and_removal)
{
    rig r;
    rig_init(&r, OPS("2lev"), 8, 4, false, 0);
    /* group 0's warps finish and leave: the group triggers and rotates */
    for (unsigned i = 0; i < 4; i++) {
        sched_remove(&r.s, i);
        r.status[i] = WS_GONE;
    }
    cr_expect_eq(cycle(&r, 0), 4);
    cr_expect_eq(sched_top_group(&r.s), 1);
    cr_expect_eq(cycle(&r, 1), 5);
    rig_free(&r);
}

/* idle(n) must leave the scheduler as n simulated idle cycles would. */
Test(sched, two_level_idle_equals_simulated_cycles)
{
    for (int mode = 0; mode < 6; mode++) {
        bool nofetch = mode & 1;
        core_2lev_select sel = mode & 2 ? CORE_2LEV_FETCHABLE : CORE_2LEV_NEXT;
        bool mixed = mode & 4;   /* group 2 half on memory, half in flight */
        for (uint64_t n = 1; n < 12; n++) {
            rig a, b;
            rig_init_sel(&a, OPS("2lev"), 12, 4, nofetch, 0, sel);
            rig_init_sel(&b, OPS("2lev"), 12, 4, nofetch, 0, sel);
            /* group 1 in flight, groups 0 and 2 on memory: nothing ready */
            for (unsigned i = 0; i < 12; i++)
                a.status[i] = b.status[i] = i / 4 == 1 || (mixed && i >= 10) ? WS_DEP : WS_MEM;
            cycle(&a, 0);
            cycle(&b, 0);
            for (uint64_t k = 1; k <= n; k++)
                cycle(&a, k);
            sched_idle(&b.s, &b.v, n);
            cr_expect_eq(sched_top_group(&a.s), sched_top_group(&b.s), "mode %d, n %lu", mode, (unsigned long)n);
            cr_expect_eq(counter(&a, "group_switches"), counter(&b, "group_switches"), "mode %d, n %lu", mode,
                         (unsigned long)n);
            rig_free(&a);
            rig_free(&b);
        }
    }
}

Test(sched, split_entities_follow_their_parent)
{
    rig r;
    rig_init(&r, OPS("lrr"), 3, 1, false, 0);
    /* entity 9 split from warp 1 (same slot) goes right after it */
    r.slot[9] = 1;
    r.status[9] = WS_READY;
    sched_add(&r.s, &r.v, 9, 1);
    int want[5] = {0, 1, 9, 2, 0};
    for (int k = 0; k < 5; k++)
        cr_expect_eq(cycle(&r, k), want[k], "cycle %d", k);
    rig_free(&r);
}
