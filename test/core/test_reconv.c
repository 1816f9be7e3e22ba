/* Reconvergence policies on one divergent warp (32 threads): even threads
 * take the branch at pc 3 (pcs 6, 7), odd ones fall through (pcs 4, 5);
 * both paths meet at pc 8, the branch's IPDOM. Barrel, depth 7. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *k_ifelse =
    ".data out u32[64]\n" HARNESS_IFELSE;

#define EVEN 0x55555555u
#define ODD 0xAAAAAAAAu

static harness *run(const char *reconv)
{
    const char *sets[] = {reconv, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ifelse, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 2 ? i + 100 : 2 * i, "out[%u]", i);
    /* every policy runs the same thread instructions: 4 x 32 before the
     * branch, 2 x 16 on each path, 3 x 32 after */
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 288);
    return h;
}

static void expect_issue(const harness *h, unsigned i, uint64_t cycle, uint32_t pc, uint32_t active)
{
    cr_assert(i < h->nlog);
    cr_expect_eq(h->log[i].cycle, cycle, "issue %u at %lu, expected %lu", i, (unsigned long)h->log[i].cycle,
                 (unsigned long)cycle);
    cr_expect_eq(h->log[i].pc, pc, "issue %u: pc %u, expected %u", i, h->log[i].pc, pc);
    cr_expect_eq(h->log[i].active, active, "issue %u: mask %x, expected %x", i, h->log[i].active, active);
}

Test(reconv, pdom_serializes_then_reconverges)
{
    harness *h = run("core.reconv=pdom");
    /* taken (even) path first: 6 @38, 7 @45 (reaches the IPDOM: pop), odd
     * path 4 @52, 5 @59 (pop), full warp 8 @66, 9 @73, 10 @80, done 86 */
    cr_assert_eq(h->nlog, 11);
    expect_issue(h, 3, 31, 3, UINT32_MAX);
    expect_issue(h, 4, 38, 6, EVEN);
    expect_issue(h, 5, 45, 7, EVEN);
    expect_issue(h, 6, 52, 4, ODD);
    expect_issue(h, 7, 59, 5, ODD);
    expect_issue(h, 8, 66, 8, UINT32_MAX);
    expect_issue(h, 10, 80, 10, UINT32_MAX);
    cr_expect_eq(harness_end(h, 0), 86);
    harness_free(h);
}

Test(reconv, nrec_splits_and_never_merges)
{
    harness *h = run("core.reconv=nrec");
    /* the warp splits at 31; both halves are in flight at once: even 6 @38,
     * odd 4 @39, even 7 @45, odd 5 @46, and each goes on alone: even 8, 9,
     * 10 at 52, 59, 66; odd at 53, 60, 67 (done 73) */
    cr_assert_eq(h->nlog, 14);
    expect_issue(h, 4, 38, 6, EVEN);
    expect_issue(h, 5, 39, 4, ODD);
    expect_issue(h, 8, 52, 8, EVEN);
    expect_issue(h, 9, 53, 8, ODD);
    expect_issue(h, 13, 67, 10, ODD);
    cr_expect_eq(harness_end(h, 0), 73);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 14);
    harness_free(h);
}

Test(reconv, mimd_packs_and_merges)
{
    harness *h = run("core.reconv=mimd");
    /* 38: even 6 and odd 4 (both ALU) share one issue slot; 45: their
     * branches (7 and 5) share one; at 52 both halves are idle at pc 8 and
     * merge: 8 @52, 9 @59, 10 @66, done 72, as without divergence */
    cr_assert_eq(h->nlog, 11);
    expect_issue(h, 4, 38, 6, EVEN);
    expect_issue(h, 5, 38, 4, ODD);
    expect_issue(h, 6, 45, 7, EVEN);
    expect_issue(h, 7, 45, 5, ODD);
    expect_issue(h, 8, 52, 8, UINT32_MAX);
    expect_issue(h, 10, 66, 10, UINT32_MAX);
    cr_expect_eq(harness_end(h, 0), 72);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 9, "issue slots");
    harness_free(h);
}

Test(reconv, dwf_forms_both_paths_without_waiting)
{
    harness *h = run("core.reconv=dwf");
    /* DMaj, one warp (Fung's DWF thesis 4.2-4.3): the branch at 31 writes
     * back at 38 as two thread groups, even (pc 6, lane 0's, looked up
     * first) and odd (pc 4), 16 threads each; the heap's root is the even
     * group (equal counts keep arrival order), so even 6 @38, then the
     * majority entry is empty and odd 4 @39; 7 @45, 5 @46. The even half
     * reaches pc 8 at 52 and issues at once (partial warps issue: no
     * waiting for a full one), so its LUT entry is gone when the odd half
     * arrives at 53 (a miss: a new warp): 8 @52/53, 9 @59/60, 10 @66/67,
     * done 67 + 6 = 73, as NREC with one warp. */
    cr_assert_eq(h->nlog, 14);
    expect_issue(h, 3, 31, 3, UINT32_MAX);
    expect_issue(h, 4, 38, 6, EVEN);
    expect_issue(h, 5, 39, 4, ODD);
    expect_issue(h, 6, 45, 7, EVEN);
    expect_issue(h, 7, 46, 5, ODD);
    expect_issue(h, 8, 52, 8, EVEN);
    expect_issue(h, 9, 53, 8, ODD);
    expect_issue(h, 13, 67, 10, ODD);
    cr_expect_eq(harness_end(h, 0), 73);
    /* a lookup per write-back group: 3 + 2 + 2 + 2 + 2 + 2 (the exits
     * need none); every one misses, as each warp issues before the next
     * group of its pc arrives */
    cr_expect_eq(harness_counter(h, "sm0", "dwf_lut_lookups"), 13);
    cr_expect_eq(harness_counter(h, "sm0", "dwf_lut_misses"), 13);
    cr_expect_eq(harness_counter(h, "sm0", "dwf_lane_conflicts"), 0);
    harness_free(h);
}

/* Two warps of the k_ifelse kernel under DWF (default machine: warps of
 * 32 on 32 lanes, one instruction a cycle, depth 7), swizzled: warp 1's
 * even threads sit on odd lanes. Both warps issue pcs 0-3 a cycle apart
 * (31, 32). At 38 warp 0's branch writes back: even group (pc 6, lanes
 * EVEN) and odd group (pc 4, lanes ODD); at 39 warp 1's: its even threads
 * (pc 6, lanes ODD) and its odd threads (pc 4, lanes EVEN) arrive. */
typedef struct two_warps {
    unsigned nlog;
    issue_rec log[3];   /* issues 8, 9, 10 */
    uint64_t overflows, heap_max, thread_insts;
} two_warps;

static void two_warps_child(void *ctx, void *out)
{
    const char *const *opt = ctx;
    two_warps *o = out;
    const char *sets[] = {"core.reconv=dwf", opt[0], opt[1], NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ifelse, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 2 ? i + 100 : 2 * i, "out[%u]", i);
    o->nlog = h->nlog;
    cr_assert_gt(h->nlog, 10u);
    for (unsigned i = 0; i < 3; i++)
        o->log[i] = h->log[8 + i];
    o->overflows = harness_counter(h, "sm0", "dwf_heap_overflows");
    o->heap_max = harness_counter(h, "sm0", "dwf_heap_max");
    o->thread_insts = harness_counter(h, "sm0", "thread_insts");
}

static two_warps run_two_warps(const char *a, const char *b)
{
    const char *opt[2] = {a, b};
    two_warps o;
    harness_fork(two_warps_child, (void *)opt, &o, sizeof o);
    /* 64 threads x (4 before the branch + 2 on a path + 3 after) */
    cr_expect_eq(o.thread_insts, 576u);
    return o;
}

static void expect_rec(const issue_rec *r, uint64_t cycle, uint32_t pc, uint32_t active)
{
    cr_expect_eq(r->cycle, cycle, "at %lu, expected %lu", (unsigned long)r->cycle, (unsigned long)cycle);
    cr_expect_eq(r->pc, pc, "pc %u, expected %u", r->pc, pc);
    cr_expect_eq(r->active, active, "mask %x, expected %x", r->active, active);
}

Test(reconv, dwf_majority_drains_its_pc_first)
{
    /* DMaj: at 38 the heap holds pc 6 then pc 4 (16 threads each; the root
     * stays pc 6, pushed first): pc 6 becomes the Majority Entry, EVEN
     * issues. At 39 warp 1's even threads join the Majority Entry's pc (a
     * new warp: the LUT entry left with the issued one) while its odd
     * threads fill the waiting pc-4 warp (EVEN | ODD lanes: 32 threads).
     * The majority pc is drained first: pc 6 with 16 threads at 39, only
     * then the full pc-4 warp at 40. The heap never holds more than 2. */
    two_warps o = run_two_warps("core.dwf_policy=maj", "core.dwf_heap=limited");
    expect_rec(&o.log[0], 38, 6, EVEN);
    expect_rec(&o.log[1], 39, 6, ODD);
    expect_rec(&o.log[2], 40, 4, UINT32_MAX);
    cr_expect_eq(o.heap_max, 2u);
    cr_expect_eq(o.overflows, 0u);
    /* DPC instead: the smaller pc first: warp 0's odd half (pc 4) at 38;
     * warp 1's even threads then fill the waiting pc-6 warp, its odd ones
     * start a new pc-4 warp (LUT entry gone), issued first at 39 */
    o = run_two_warps("core.dwf_policy=pc", "core.dwf_heap=limited");
    expect_rec(&o.log[0], 38, 4, ODD);
    expect_rec(&o.log[1], 39, 4, EVEN);
    expect_rec(&o.log[2], 40, 6, UINT32_MAX);
}

Test(reconv, dwf_heap_overflow_as_configured)
{
    /* A 1-entry heap: at 38 pc 6 takes the entry and pc 4 overflows into
     * the spill list (counted once); the pop of pc 6 frees the entry and pc
     * 4 takes it, so the issue order is the 64-entry heap's. No other
     * moment needs two entries (the pcs of the two halves then move one
     * at a time). The infinite heap never overflows. */
    two_warps o = run_two_warps("core.dwf_heap_entries=1", "core.dwf_heap=limited");
    expect_rec(&o.log[0], 38, 6, EVEN);
    expect_rec(&o.log[1], 39, 6, ODD);
    expect_rec(&o.log[2], 40, 4, UINT32_MAX);
    cr_expect_eq(o.overflows, 1u);
    cr_expect_eq(o.heap_max, 1u);
    o = run_two_warps("core.dwf_heap_entries=1", "core.dwf_heap=infinite");
    cr_expect_eq(o.overflows, 0u);
    cr_expect_eq(o.heap_max, 2u);
}

/* The issue trace of k_ifelse under DWF with the given settings, for the
 * tests below that need more of it than two_warps keeps. */
typedef struct dwf_trace {
    unsigned nlog;
    issue_rec log[40];
    uint64_t bank_cycles, port_waits, lookups, pool_waits;
} dwf_trace;

static void dwf_trace_child(void *ctx, void *out)
{
    const char *const *opt = ctx;   /* threads ("32"/"64"), then settings */
    dwf_trace *o = out;
    unsigned n = (unsigned)atoi(opt[0]);
    harness *h = harness_new(opt + 1);
    harness_launch(h, k_ifelse, 1, n, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < n; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 2 ? i + 100 : 2 * i, "out[%u]", i);
    memset(o, 0, sizeof *o);
    o->nlog = h->nlog < 40 ? h->nlog : 40;
    memcpy(o->log, h->log, o->nlog * sizeof o->log[0]);
    o->bank_cycles = harness_counter(h, "sm0", "dwf_bank_conflict_cycles");
    o->port_waits = harness_counter(h, "sm0", "dwf_lut_port_waits");
    o->lookups = harness_counter(h, "sm0", "dwf_lut_lookups");
    o->pool_waits = harness_counter(h, "sm0", "dwf_pool_full_waits");
    harness_free(h);
}

static dwf_trace run_dwf_trace(const char *const *opt)
{
    dwf_trace o;
    harness_fork(dwf_trace_child, (void *)opt, &o, sizeof o);
    return o;
}

/* The first issue of pc in the trace; -1 if none. */
static int first_issue(const dwf_trace *o, uint32_t pc)
{
    for (unsigned i = 0; i < o->nlog; i++)
        if (o->log[i].pc == pc)
            return (int)i;
    return -1;
}

Test(reconv, dwf_register_bank_conflict_holds_the_issue)
{
    /* core.dwf_rf = banks (Fung's DWF thesis, Fig. 4.2c): threads go to any
     * lane, and a warp with m threads of one home lane holds the issue m - 1
     * more scheduler cycles (here 1 cycle: warps of 32 on 32 lanes). Two
     * warps of k_ifelse under DPC (worked as in dwf_majority_drains_its_pc_
     * first): at 38 warp 0's groups start a pc-6 and a pc-4 warp on lanes
     * 0-15 (ideal placement: the lowest free lanes) and pc 4 issues; at 39
     * warp 1's even threads fill lanes 16-31 of the waiting pc-6 warp and
     * its odd ones start a new pc-4 warp, issued at 39; the full pc-6 warp
     * issues at 40. Without swizzling warp 1's even threads have the same
     * home lanes as warp 0's (tid mod 32, all even): two threads per home
     * lane, one extra cycle, so the warp's write-back and its pc-7 issue
     * come at 48, not 47. The same 32 threads then stay together at pcs 7,
     * 8 and 9 (the odd halves reach pc 8 at 52 and 53 and issue alone):
     * 4 conflicting issues (the exit frees the warp before it is charged),
     * 4 cycles. Swizzled, warp 1's even threads sit on odd home lanes: no
     * conflict, pc 7 at 47. */
    const char *off[] = {"64", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                         "core.dwf_swizzle=false", NULL};
    dwf_trace o = run_dwf_trace(off);
    cr_assert_gt(o.nlog, 10u);
    expect_rec(&o.log[8], 38, 4, 0xFFFFu);
    expect_rec(&o.log[9], 39, 4, 0xFFFFu);
    expect_rec(&o.log[10], 40, 6, UINT32_MAX);
    int i7 = first_issue(&o, 7);
    cr_assert_geq(i7, 0);
    expect_rec(&o.log[i7], 48, 7, UINT32_MAX);
    cr_expect_eq(o.bank_cycles, 4u);
    const char *on[] = {"64", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                        "core.dwf_swizzle=true", NULL};
    o = run_dwf_trace(on);
    expect_rec(&o.log[10], 40, 6, UINT32_MAX);
    i7 = first_issue(&o, 7);
    cr_assert_geq(i7, 0);
    expect_rec(&o.log[i7], 47, 7, UINT32_MAX);
    cr_expect_eq(o.bank_cycles, 0u);
}

Test(reconv, dwf_bank_conflict_per_pass_as_the_thesis)
{
    /* core.dwf_bank_cost = pass: the register read stage of Fung's DWF
     * thesis (sec. 5.1.1): simd_width banks (8 here, warps of 32 in 4
     * passes), a thread's bank its home lane mod 8, and each pass of 8
     * lanes stalls (most threads of one bank in it) - 1 cycles. One warp of
     * k_ifelse, no swizzling (home = tid), banks placement = the lowest free
     * lanes. Pcs 0-3: the whole warp on lanes = homes 0-31, pass p holds
     * banks 0-7 once: 0. At the branch each half starts a warp on lanes
     * 0-15: the even half's homes 0, 2, ..., 30 give each pass banks 0, 2,
     * 4, 6 twice: 1 + 1 = 2 a issue, at pcs 6 and 7; the odd half's (banks
     * 1, 3, 5, 7 twice) the same at pcs 4 and 5: 8. At pcs 8 and 9 the
     * halves either issue apart (2 each) or merged, the later half on lanes
     * 16-31 (4 passes of 1): 4 a pc either way, 8; the exit at pc 10 frees
     * its warp before it is charged. 16 cycles in all. With lane (a bank
     * per home lane) no two threads of one warp share a home lane: 0, as
     * the code before the parameter. */
    const char *pass[] = {"32", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                          "core.dwf_swizzle=false", "core.simd_width=8", "core.dwf_bank_cost=pass", NULL};
    cr_expect_eq(run_dwf_trace(pass).bank_cycles, 16u);
    const char *lane[] = {"32", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                          "core.dwf_swizzle=false", "core.simd_width=8", "core.dwf_bank_cost=lane", NULL};
    cr_expect_eq(run_dwf_trace(lane).bank_cycles, 0u);
}

Test(reconv, dwf_bank_place_home_lane_first)
{
    /* core.dwf_bank_place = home: the same warp as
     * dwf_bank_conflict_per_pass_as_the_thesis (16 stall cycles with the
     * lowest free lanes). One warp, so no two of its threads share a home
     * slot: each thread finds its home lane free and takes it, every warp
     * holds its threads on lanes = homes, and pass p (lanes 8p..8p+7) holds
     * banks (lane mod 8) once each: 0 cycles. With home lanes on the
     * pipeline (core.dwf_home_lane = pipe: a thread's lanes are those of its
     * bank, home mod 8, + 8, + 16, + 24) each pass holds at most one
     * thread of a bank as well: 0. */
    const char *home[] = {"32", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                          "core.dwf_swizzle=false", "core.simd_width=8", "core.dwf_bank_cost=pass",
                          "core.dwf_bank_place=home", NULL};
    cr_expect_eq(run_dwf_trace(home).bank_cycles, 0u);
    const char *pipe[] = {"32", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                          "core.dwf_swizzle=false", "core.simd_width=8", "core.dwf_bank_cost=pass",
                          "core.dwf_bank_place=home", "core.dwf_home_lane=pipe", NULL};
    cr_expect_eq(run_dwf_trace(pipe).bank_cycles, 0u);
    const char *low[] = {"32", "core.reconv=dwf", "core.dwf_policy=pc", "core.dwf_rf=banks",
                         "core.dwf_swizzle=false", "core.simd_width=8", "core.dwf_bank_cost=pass",
                         "core.dwf_bank_place=low", NULL};
    cr_expect_eq(run_dwf_trace(low).bank_cycles, 16u);
}

Test(reconv, dwf_lut_lookups_per_scheduler_cycle)
{
    /* One warp (as dwf_forms_both_paths_without_waiting): the branch writes
     * back at 38 as two thread groups. With the default 2 LUT lookups per
     * scheduler cycle both are looked up at 38; with 1 the odd group waits
     * a scheduler cycle (1 pipeline cycle here) at write-back: one wait,
     * counted once. The odd group would have issued at 39 anyway (one
     * warp a cycle), so the trace and the 13 lookups are the same. */
    const char *two[] = {"32", "core.reconv=dwf", NULL};
    const char *one[] = {"32", "core.reconv=dwf", "core.dwf_lut_lookups=1", NULL};
    dwf_trace a = run_dwf_trace(two), b = run_dwf_trace(one);
    cr_expect_eq(a.port_waits, 0u);
    cr_expect_eq(b.port_waits, 1u);
    cr_expect_eq(a.lookups, 13u);
    cr_expect_eq(b.lookups, 13u);
    cr_assert_eq(b.nlog, 14u);
    expect_rec(&b.log[4], 38, 6, EVEN);
    expect_rec(&b.log[5], 39, 4, ODD);
}

Test(reconv, dwf_pool_full_group_waits_at_write_back)
{
    /* A 1-entry warp pool, one warp: every write-back before the branch
     * makes one group, which takes the free entry and issues at once. At 38
     * the even group takes the entry; the odd group finds the pool full
     * and waits in its carrier (counted once); the even warp issues at 38
     * and frees the entry, so the odd group forms at 39 and issues then:
     * the trace of the 128-entry pool, one wait. The paths reach pc 8 at 52
     * and 53, a cycle apart, so no other group waits. */
    const char *big[] = {"32", "core.reconv=dwf", NULL};
    const char *one[] = {"32", "core.reconv=dwf", "core.dwf_pool_entries=1", NULL};
    dwf_trace a = run_dwf_trace(big), b = run_dwf_trace(one);
    cr_expect_eq(a.pool_waits, 0u);
    cr_expect_eq(b.pool_waits, 1u);
    cr_assert_eq(b.nlog, 14u);
    expect_rec(&b.log[4], 38, 6, EVEN);
    expect_rec(&b.log[5], 39, 4, ODD);
    expect_rec(&b.log[8], 52, 8, EVEN);
    expect_rec(&b.log[9], 53, 8, ODD);
}

/* A loop whose trip count is the lane's tid % 4 + 1: PDOM keeps the
 * stragglers' lanes only; the totals follow from the trip counts. */
Test(reconv, pdom_loop_divergence_counts)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data out u32[32]\n"
                   "    mov r0, %tid.x\n"           /* 0 */
                   "    and r1, r0, 3\n"            /* 1: trips - 1 */
                   "    mov r2, 0\n"                /* 2 */
                   "loop:\n"
                   "    add r2, r2, 1\n"            /* 3 */
                   "    setp.le.u32 p0, r2, r1\n"   /* 4 */
                   "    @p0 bra loop\n"             /* 5 */
                   "    shl r3, r0, 2\n"            /* 6 */
                   "    st.global.u32 [r3+@out], r2\n"
                   "    exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 4 + 1);
    /* 3 + 4 trips x 3 + 3 = 18 issues; loop lanes: 32, 24, 16, 8 per trip:
     * 3 x 32 + 3 x (32 + 24 + 16 + 8) + 3 x 32 = 432 thread instructions */
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 18);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 432);
    /* average active threads: 432 / 18 = 24 */
    harness_free(h);
}

/* MIMD with memory instructions (core.mimd_pack_memory): after the branch
 * at pc 4 (issued at 38, as pc 3 of the if/else kernel above: one issue
 * every 7 cycles from 10) the odd half (pc 5) loads a[tid] and the even
 * half (pc 7) b[tid]; each half's 16 words are one 128-B line of its own
 * array (arrays are 4 KB aligned). Both halves are READY at 45, even first.
 * The ideal memory takes one request per cycle and answers 100 cycles
 * after taking it; the answer at r makes the half READY at r + 1. */
static harness *run_loads(const char *const *extra)
{
    const char *sets[8] = {"core.reconv=mimd"};
    for (unsigned i = 0; extra[i]; i++)
        sets[1 + i] = extra[i];
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data a u32[32] = iota(start=1000, step=1)\n"
                   ".data b u32[32] = iota(start=2000, step=1)\n"
                   ".data out u32[32]\n"
                   "    mov r0, %tid.x\n"                 /* 0 */
                   "    shl r3, r0, 2\n"                  /* 1 */
                   "    and r1, r0, 1\n"                  /* 2 */
                   "    setp.eq.u32 p0, r1, 0\n"          /* 3 */
                   "    @p0 bra even\n"                   /* 4 */
                   "    ld.global.u32 r2, [r3+@a]\n"      /* 5: odd */
                   "    bra join\n"                       /* 6 */
                   "even:\n"
                   "    ld.global.u32 r2, [r3+@b]\n"      /* 7 */
                   "    bra join\n"                       /* 8 */
                   "join:\n"
                   "    st.global.u32 [r3+@out], r2\n"    /* 9 */
                   "    exit\n",                          /* 10 */
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 2 ? 1000 + i : 2000 + i, "out[%u]", i);
    return h;
}

/* Even's load issues at 45, odd's at odd_at; the halves' answers come at r
 * and r + 1, so they reach each later pc a cycle apart and never merge
 * again: even 8 @r+1, odd 6 @r+2, 9 @r+8 and @r+9, exits @r+15 and
 * @r+16, end r+22; `slots` issue slots in all. */
static void expect_loads(harness *h, uint64_t odd_at, uint64_t r, uint64_t slots)
{
    cr_assert_eq(h->nlog, 13);
    expect_issue(h, 5, 45, 7, EVEN);
    expect_issue(h, 6, odd_at, 5, ODD);
    expect_issue(h, 7, r + 1, 8, EVEN);
    expect_issue(h, 8, r + 2, 6, ODD);
    expect_issue(h, 9, r + 8, 9, EVEN);
    expect_issue(h, 10, r + 9, 9, ODD);
    expect_issue(h, 12, r + 16, 10, ODD);
    cr_expect_eq(harness_end(h, 0), r + 22);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), slots, "issue slots");
    harness_free(h);
}

/* Alone (the default, 1): odd 5 in the next slot @46; the requests are
 * taken at 45 and 46, answered at 145 and 146. 5 + 2 x 4 = 13 slots. */
Test(reconv, mimd_memory_alone_by_default)
{
    expect_loads(run_loads((const char *[]){NULL}), 46, 145, 13);
}

/* Two entities per slot: the LD/ST unit books 32 / 32 lanes = 1 pass; with
 * no L1 banks both loads fit it, so even 7 and odd 5 share the slot at 45.
 * Both requests leave at 45; the memory takes them at 45 and 46 (answers
 * at 145 and 146, as alone). 12 slots. */
Test(reconv, mimd_memory_packs_two_loads)
{
    expect_loads(run_loads((const char *[]){"core.mimd_pack_memory=2", NULL}), 45, 145, 12);
}

/* The L1 as one bank of 128-B words: each load alone reads one word (1
 * pass, booked by even); together they read two words of that bank, 2
 * passes > 1 booked: odd does not fit and issues alone at 46, as by
 * default. */
Test(reconv, mimd_memory_pack_bounded_by_the_booked_passes)
{
    expect_loads(run_loads((const char *[]){"core.mimd_pack_memory=2", "core.l1d_banks=1",
                                            "core.l1d_bank_bytes=128", NULL}),
                 46, 145, 13);
}

/* Same bank, but 16 LD/ST lanes: even books 32 / 16 = 2 passes, and the
 * two words (2 passes) fit them: one slot at 45. The unit's second pass
 * delays the requests a cycle: both leave at 46, taken at 46 and 47,
 * answered at 146 and 147: even 8 @147, odd 6 @148. Each store also takes
 * 2 passes (done a cycle later, k + 7): even 9 @154 holds the unit to 155,
 * so odd 9 (READY at 155) issues at 156; exits @162 and @164, end 170.
 * 12 slots. */
Test(reconv, mimd_memory_pack_fills_the_booked_passes)
{
    harness *h = run_loads((const char *[]){"core.mimd_pack_memory=2", "core.l1d_banks=1",
                                           "core.l1d_bank_bytes=128", "core.ldst_lanes=16", NULL});
    cr_assert_eq(h->nlog, 13);
    expect_issue(h, 5, 45, 7, EVEN);
    expect_issue(h, 6, 45, 5, ODD);
    expect_issue(h, 7, 147, 8, EVEN);
    expect_issue(h, 8, 148, 6, ODD);
    expect_issue(h, 9, 154, 9, EVEN);
    expect_issue(h, 10, 156, 9, ODD);
    expect_issue(h, 11, 162, 10, EVEN);
    expect_issue(h, 12, 164, 10, ODD);
    cr_expect_eq(harness_end(h, 0), 170);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 12, "issue slots");
    harness_free(h);
}
