/* OAWS (Wang's dissertation, chapter 5) and SWL as scheduler policies alone,
 * with scripted next instructions and a scripted LD/ST unit state
 * (simtgrid/memfeedback.h). Warps 0..3 are READY, 0 the oldest; PC 100 is a
 * divergent load (in the DLC), PC 200 a coherent one (not in it). Expected
 * picks are worked from Eq 5.1-5.4 in the comments. */
#include <criterion/criterion.h>
#include <string.h>

#include "simtgrid/core.h"
#include "simtgrid/memfeedback.h"
#include "simtgrid/stats.h"
#include "core/warp_sched.h"

#define OPS(name) ((const sched_ops *)core_policy("core.scheduler", name)->ops)
#define N 4

typedef struct rig {
    sched s;
    uint8_t status[N];
    uint64_t age[N];
    uint32_t slot[N];
    uint8_t pred[N];
    sched_next next[N];
    mem_feedback fb;
    sched_view v;
} rig;

static void rig_next(const void *host, unsigned id, sched_next *out)
{
    *out = ((const rig *)host)->next[id];
}

static void rig_init(rig *r, const char *pol, unsigned smr, unsigned swl)
{
    memset(r, 0, sizeof *r);
    r->v = (sched_view){.status = r->status, .age = r->age, .slot = r->slot, .host = r,
                        .next = rig_next, .mem = &r->fb, .pred = r->pred};
    core_params p = {.oaws_smr = smr, .swl_limit = swl};
    sched_init(&r->s, OPS(pol), N, N, &p);
    for (unsigned i = 0; i < N; i++) {
        r->age[i] = i;
        r->slot[i] = i;
        r->status[i] = WS_READY;
        r->next[i] = (sched_next){.sm_rank = i};   /* an ALU instruction */
        sched_add(&r->s, &r->v, i, -1);
    }
    r->fb.dlc[0] = (mem_dlc_entry){.pc = 100, .valid = true, .insts = 4, .accs = 32, .misses = 8};
    r->fb.fcw = 4;
}

static void set_load(rig *r, unsigned id, uint32_t pc, unsigned threads)
{
    r->next[id].load = true;
    r->next[id].pc = pc;
    r->next[id].threads = threads;
}

/* Static OAWS at SMR 50%: warp 0's fully divergent load (32 threads) is
 * predicted 32 x 50 / 100 = 16 misses. With 15 free MSHRs it is occluded and
 * GTO takes the next oldest, warp 1 (an ALU instruction); with 16 free it
 * issues, its prediction (16) going with it. 20 free less 5 in flight leaves
 * 15: occluded again. */
Test(oaws, static_disqualifies_divergent_load_below_16_free_mshrs)
{
    rig r;
    rig_init(&r, "oaws-static", 50, 48);
    set_load(&r, 0, 100, 32);
    r.fb.mshr_free = 15;
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), 1);
    r.fb.mshr_free = 16;
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 0);
    sched_issued(&r.s, &r.v, 0, 1);
    cr_expect_eq(r.pred[0], 16);
    r.s.last = -1;
    r.fb.mshr_free = 20;
    r.fb.miss_inflight = 5;
    cr_expect_eq(sched_pick(&r.s, &r.v, 2), 1);
    /* nothing else READY: no warp issues at all */
    r.status[1] = r.status[2] = r.status[3] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 3), -1);
    /* SMR 0% is GTO: predicted 0, qualifies with no free entry */
    sched_free(&r.s);
    rig_init(&r, "oaws-static", 0, 48);
    set_load(&r, 0, 100, 32);
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), 0);
    sched_free(&r.s);
}

/* Stores and coherent loads always qualify, even with no free MSHR and
 * misses in flight; their prediction is 0. */
Test(oaws, stores_and_coherent_loads_always_qualify)
{
    rig r;
    rig_init(&r, "oaws-static", 50, 48);
    r.fb.mshr_free = 0;
    r.fb.miss_inflight = 7;
    set_load(&r, 0, 200, 32);   /* coherent: not in the DLC */
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), 0);
    sched_issued(&r.s, &r.v, 0, 0);
    cr_expect_eq(r.pred[0], 0);
    r.next[0] = (sched_next){.store = true, .pc = 100, .threads = 32};
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 0);
    sched_free(&r.s);
}

/* Dynamic OAWS, FCW = 4, HMR(100) = 8 / 32: a locality warp (SM rank 1 <
 * 4) with 32 threads predicts 32 x 8 / 32 + 1 = 9 misses: issues with 9
 * free, not with 8. A thrashing warp (rank 5) predicts all its 20 threads:
 * needs 20 free. */
Test(oaws, dynamic_prediction_by_hit_miss_ratio_and_fcw)
{
    rig r;
    rig_init(&r, "oaws", 50, 48);
    r.status[0] = WS_MEM;
    set_load(&r, 1, 100, 32);
    r.fb.mshr_free = 9;
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), 1);
    sched_issued(&r.s, &r.v, 1, 0);
    cr_expect_eq(r.pred[1], 9);
    r.s.last = -1;
    r.fb.mshr_free = 8;
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 2);
    r.status[1] = r.status[3] = WS_MEM;
    set_load(&r, 2, 100, 20);
    r.next[2].sm_rank = 5;
    r.fb.mshr_free = 19;
    cr_expect_eq(sched_pick(&r.s, &r.v, 2), -1);
    r.fb.mshr_free = 20;
    cr_expect_eq(sched_pick(&r.s, &r.v, 3), 2);
    sched_free(&r.s);
}

/* FCW-Only: a thrashing warp (rank >= FCW = 4) never issues a divergent
 * load, whatever the MSHRs; a locality warp always does, predicting nothing. */
Test(oaws, fcw_only_throttles_thrashing_warps)
{
    rig r;
    rig_init(&r, "fcw-only", 50, 48);
    r.status[0] = r.status[1] = r.status[2] = WS_MEM;
    set_load(&r, 3, 100, 32);
    r.next[3].sm_rank = 4;
    r.fb.mshr_free = 32;
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), -1);
    r.next[3].sm_rank = 3;
    r.fb.mshr_free = 0;
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 3);
    sched_issued(&r.s, &r.v, 3, 1);
    cr_expect_eq(r.pred[3], 0);
    sched_free(&r.s);
}

/* SWL with a limit of 2: only warps 0 and 1 (the two oldest) may issue.
 * With them waiting, nothing issues; when warp 0 leaves, warp 2 becomes one
 * of the two oldest and issues. */
Test(swl, only_the_oldest_issue)
{
    rig r;
    rig_init(&r, "swl", 50, 2);
    r.status[0] = r.status[1] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), -1);
    r.status[1] = WS_READY;
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 1);
    sched_remove(&r.s, 0);
    r.status[0] = WS_GONE;
    r.status[1] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 2), 2);
    sched_free(&r.s);
}

/* MASCAR: with 2 free MSHRs and 8 port slots the memory system is not
 * saturated and memory goes first: warp 1's load before warp 0's ALU
 * instruction. At 1 free MSHR it is saturated: the owner is the oldest READY
 * warp with a memory instruction, warp 1; with warp 1 waiting, warp 2's load
 * may not issue and warp 0's ALU instruction does. 1 free port slot (MSHRs
 * plenty) is saturated too; 2 and 2 leave saturation, and warp 2's load goes
 * first again. */
Test(mascar, saturation_thresholds_and_owner)
{
    rig r;
    rig_init(&r, "mascar", 50, 48);
    set_load(&r, 1, 200, 32);
    set_load(&r, 2, 100, 32);
    r.status[3] = WS_MEM;
    r.fb.mshr_free = 2;
    r.fb.port_free = 8;
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), 1);
    r.fb.mshr_free = 1;
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 1, "saturated: the owner's load");
    r.status[1] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 2), 0, "saturated: not warp 2's load");
    r.fb.mshr_free = 10;
    r.fb.port_free = 1;
    cr_expect_eq(sched_pick(&r.s, &r.v, 3), 0, "saturated by the port");
    r.fb.port_free = 2;
    r.fb.mshr_free = 2;
    cr_expect_eq(sched_pick(&r.s, &r.v, 4), 2, "not saturated: memory first");
    stats *st = stats_new();
    sched_register_stats(&r.s, st, "q");
    uint64_t n = 0;
    cr_assert(stats_get_counter(st, "q", "saturations", &n));
    cr_expect_eq(n, 1, "one saturation period (cycles 1-3)");
    cr_assert(stats_get_counter(st, "q", "saturated_picks", &n));
    cr_expect_eq(n, 3);
    stats_free(st);
    sched_free(&r.s);
}

/* CCWS (K_THROTTLE 8, base score 100): 4 warps, cutoff 4 x 100 = 400. After
 * 10 instructions, one victim-tag hit of warp 2 adds LLDS = 8 x (1 / 10) x
 * 400 = 320: warp 2 scores 420 and goes first. With warp 2 waiting, the
 * loads of warps 0, 1 and 3 stack on its 420 (520 > 400): all held back;
 * warp 1's ALU instruction may issue. 120 cycles later warp 2 scores 300:
 * warp 0 (oldest of the 100s) fits (300 + 100 = 400), warp 3 does not
 * (300 + 100 + 100 + 100: the waiting warps' scores stack too). 200 skipped cycles bring warp 2 back to the base
 * score: every load fits again. */
Test(ccws, scores_and_throttling_on_victim_hits)
{
    rig r;
    rig_init(&r, "ccws", 50, 48);
    for (unsigned i = 0; i < N; i++) {
        set_load(&r, i, 300 + i, 32);
        r.next[i].warp = i;
    }
    r.next[2].load = false;
    for (unsigned i = 0; i < 10; i++)
        sched_issued(&r.s, &r.v, 3, i);
    r.s.last = -1;
    r.fb.vta_hits[2] = 1;
    cr_expect_eq(sched_pick(&r.s, &r.v, 10), 2);
    r.status[2] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 11), -1);
    r.next[1].load = false;
    cr_expect_eq(sched_pick(&r.s, &r.v, 12), 1);
    for (unsigned k = 0; k < 120; k++)
        sched_cycle_end(&r.s, &r.v, 13 + k);
    r.next[1].load = true;
    r.status[1] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 134), 0);
    r.status[0] = WS_MEM;
    cr_expect_eq(sched_pick(&r.s, &r.v, 135), -1, "warp 3: 300 + 100 + 100 + 100 > 400");
    sched_idle(&r.s, &r.v, 200);
    cr_expect_eq(sched_pick(&r.s, &r.v, 336), 3);
    sched_free(&r.s);
}

/* The DLC is cleared at each kernel launch: static OAWS, 15 free MSHRs,
 * warp 0's 32-thread load at PC 100 (in the DLC: divergent, 16 predicted
 * misses) is occluded and warp 1 goes. The first CTA of launch 0 clears
 * the DLC (PC 100 unknown: a coherent load, qualifies); PC 100 trained
 * again, another CTA of launch 0 leaves it (occluded again); the first CTA
 * of launch 1 clears it; a late CTA of launch 0 after that does not. */
Test(oaws, dlc_cleared_at_each_kernel_launch)
{
    rig r;
    rig_init(&r, "oaws-static", 50, 48);
    set_load(&r, 0, 100, 32);
    r.fb.mshr_free = 15;
    cr_expect_eq(sched_pick(&r.s, &r.v, 0), 1);
    mem_dlc_launch(&r.fb, 0);
    cr_expect_eq(sched_pick(&r.s, &r.v, 1), 0, "cleared: PC 100 unknown");
    r.fb.dlc[3] = (mem_dlc_entry){.pc = 100, .valid = true, .insts = 1, .accs = 32};
    mem_dlc_launch(&r.fb, 0);
    cr_expect_eq(sched_pick(&r.s, &r.v, 2), 1, "same launch: kept");
    mem_dlc_launch(&r.fb, 1);
    cr_expect_eq(sched_pick(&r.s, &r.v, 3), 0, "launch 1: cleared");
    r.fb.dlc[3].valid = true;
    mem_dlc_launch(&r.fb, 0);
    cr_expect_eq(sched_pick(&r.s, &r.v, 4), 1, "an earlier launch: kept");
    sched_free(&r.s);
}
