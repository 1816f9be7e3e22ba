/* Dynamic warp formation (Fung's MASc thesis "Dynamic Warp Formation",
 * chapter 4): the PC-warp LUT, the lane-aware insertion rule, the DMaj
 * max-heap alone, and lane-aware formation with and without thread
 * swizzling in an SM, and the issue order of DMaj, DMin and DPdPri. The
 * single-warp issue trace is in test_reconv.c and the functional
 * equivalence with PDOM in test_dwf_functional.c. */
#include <string.h>

#include "core/dwf_heap.h"
#include "core/dwf_lut.h"
#include "harness.h"

/* Thesis 4.2 (the LAS example): a retiring warp's thread group with the
 * lane vector REQ = 1010 meets the LUT warp holding OCC = 1100. CNF = REQ &
 * OCC = 1000: that thread starts a new warp (the LUT now points at it with
 * OCC 1000); the other one (0010) joins: 1100 | 0010 = 1110. */
Test(dwf, las_example)
{
    dwf_lut l;
    dwf_lut_init(&l, 16, 4);
    dwf_lut_entry *e = dwf_lut_insert(&l, 7, 3);
    e->occ = 0xC;   /* 1100 */
    uint32_t req = 0xA, cnf = dwf_las_conflicts(req, e->occ);
    cr_expect_eq(cnf, 0x8u);
    cr_expect_eq(e->occ | (req & ~cnf), 0xEu);
    /* no conflict: 0011 joins 1100 whole */
    cr_expect_eq(dwf_las_conflicts(0x3, 0xC), 0u);
    dwf_lut_free(&l);
}

/* Where the conflicting threads go (core.dwf_las_merge), 4 lanes, groups
 * 0011, 0110, 1000, 1000 at one pc, worked by hand. The thesis's rule
 * (sec. 4.2: a new warp, the LUT follows it, the old warp is never updated
 * again): 0011 starts w0; 0110 meets 0011, CNF 0010: lane 2 joins w0
 * (0111), lane 1 starts w1 (the LUT's); 1000 joins w1 (1010); the second
 * 1000 conflicts with w1 and starts w2 although w0's lane 3 is free:
 * w0 0111, w1 1010, w2 1000, three warps for 6 threads. any (the thesis's
 * "more aggressive approach"): the last 1000 fills w0's lane 3 instead:
 * w0 1111, w1 1010, two warps. */
static unsigned place_trace(bool any, uint32_t *w)
{
    static const uint32_t groups[] = {0x3, 0x6, 0x8, 0x8};
    unsigned nw = 0;
    for (unsigned g = 0; g < 4; g++) {
        if (!nw) {
            w[nw++] = groups[g];
            continue;
        }
        /* rule: the older warps are w[0..nw-2], the LUT's is w[nw-1]; one
         * thread per lane of the group, its home lane (slots: W = 4) */
        uint32_t nocc = 0;
        for (uint32_t m = groups[g]; m; m &= m - 1) {
            unsigned l, h = (unsigned)__builtin_ctz(m);
            unsigned at = any ? dwf_las_lane(dwf_home_lanes(h, 4, 4), w, nw, true, nocc, &l)
                              : dwf_las_lane(dwf_home_lanes(h, 4, 4), &w[nw - 1], 1, false, nocc, &l) + nw - 1;
            if (at == nw)
                nocc |= 1u << l;
            else
                w[at] |= 1u << l;
        }
        if (nocc)
            w[nw++] = nocc;
    }
    return nw;
}

Test(dwf, las_conflicts_start_a_new_warp_or_fill_older_ones)
{
    uint32_t w[8] = {0};
    cr_expect_eq(place_trace(false, w), 3u);
    cr_expect_eq(w[0], 0x7u);
    cr_expect_eq(w[1], 0xAu);
    cr_expect_eq(w[2], 0x8u);
    memset(w, 0, sizeof w);
    cr_expect_eq(place_trace(true, w), 2u);
    cr_expect_eq(w[0], 0xFu);
    cr_expect_eq(w[1], 0xAu);
}

/* Home lanes on the pipeline (core.dwf_home_lane = pipe; Fung's DWF
 * thesis, sec. 4.1 and ch. 7: a register bank per scalar pipeline lane;
 * the thesis's simulator places a thread on lane bank + k * 8): warps of
 * 32 on 8 lanes, bank = home mod 8, 4 lanes a bank. The LUT warp holds lane
 * 0; a group of homes 0, 8, 16 (bank 0) and 1 arrives. Slot home lanes:
 * home 0 is taken (a new warp, lane 0), 8, 16 and 1 join on their slots.
 * Pipeline lanes: bank 0's free lanes 8, 16, 24 take homes 0, 8, 16 in
 * order, home 1 lane 1: no new warp. */
Test(dwf, las_home_lanes_on_the_pipeline)
{
    cr_expect_eq(dwf_home_lanes(3, 32, 32), 1u << 3);
    cr_expect_eq(dwf_home_lanes(19, 8, 32), 0x08080808u);   /* bank 3: lanes 3, 11, 19, 27 */
    static const unsigned homes[] = {0, 8, 16, 1};
    static const unsigned want_slot[][2] = {{1, 0}, {0, 8}, {0, 16}, {0, 1}};   /* {new warp?, lane} */
    static const unsigned want_pipe[][2] = {{0, 8}, {0, 16}, {0, 24}, {0, 1}};
    for (unsigned pipe = 0; pipe < 2; pipe++) {
        uint32_t occ = 1, nocc = 0;
        for (unsigned i = 0; i < 4; i++) {
            unsigned l, w = dwf_las_lane(dwf_home_lanes(homes[i], pipe ? 8 : 32, 32), &occ, 1, false, nocc, &l);
            const unsigned *want = pipe ? want_pipe[i] : want_slot[i];
            cr_expect_eq(w, want[0], "pipe %u thread %u: warp", pipe, i);
            cr_expect_eq(l, want[1], "pipe %u thread %u: lane", pipe, i);
            if (w)
                nocc |= 1u << l;
            else
                occ |= 1u << l;
        }
        cr_expect_eq(occ, pipe ? 0x01010103u : 0x00010103u);
        cr_expect_eq(nocc, pipe ? 0u : 1u);
    }
}

/* 2 sets x 2 ways (set = pc mod 2): pcs 0, 2, 4 share set 0. After 0, 2
 * and a hit on 0, inserting 4 evicts 2 (least recently used); 2 then
 * misses, 0 and 4 hit; an issued warp's entry is dropped. */
Test(dwf, lut_lru_and_invalidate)
{
    dwf_lut l;
    dwf_lut_init(&l, 2, 2);
    dwf_lut_insert(&l, 0, 10);
    dwf_lut_insert(&l, 2, 11);
    cr_assert_not_null(dwf_lut_lookup(&l, 0));
    dwf_lut_insert(&l, 4, 12);
    cr_expect_eq(l.evictions, 1u);
    cr_expect_null(dwf_lut_lookup(&l, 2));
    cr_expect_eq(dwf_lut_lookup(&l, 0)->idx, 10u);
    cr_expect_eq(dwf_lut_lookup(&l, 4)->idx, 12u);
    dwf_lut_insert(&l, 1, 13);   /* set 1: no eviction */
    cr_expect_eq(l.evictions, 1u);
    dwf_lut_invalidate(&l, 0, 99);   /* another warp's index: kept */
    cr_expect_not_null(dwf_lut_lookup(&l, 0));
    dwf_lut_invalidate(&l, 0, 10);
    cr_expect_null(dwf_lut_lookup(&l, 0));
    cr_expect_eq(l.misses, 2u);
    dwf_lut_free(&l);
}

/* Counts 5, 3, 8, 1, 9 pushed in order (worked by hand):
 *   g0 [0]; g1 [0 1]; g2: 8 > 5, 1 swap [2 1 0]; g3 [2 1 0 3];
 *   g4: 9 > 3, 9 > 8, 2 swaps [4 2 0 3 1].
 * pop -> g4, g1 to the root, 8 > 3: 1 swap [2 1 0 3];
 * pop -> g2, g3 to the root, larger child g0 (5): 1 swap [0 1 3];
 * g1 grows to 10: 10 > 5, 1 swap; pop -> g1. */
Test(dwf, heap_order_and_swaps)
{
    uint32_t cnt[5] = {5, 3, 8, 1, 9};
    int pos[5];
    dwf_heap q;
    dwf_heap_init(&q, 2);   /* grows */
    unsigned sw[5];
    for (unsigned g = 0; g < 5; g++)
        sw[g] = dwf_heap_push(&q, g, cnt, pos);
    cr_expect_eq(sw[0] + sw[1] + sw[3], 0u);
    cr_expect_eq(sw[2], 1u);
    cr_expect_eq(sw[4], 2u);
    unsigned g;
    cr_expect_eq(dwf_heap_pop(&q, cnt, pos, &g), 1u);
    cr_expect_eq(g, 4u);
    cr_expect_eq(pos[4], -1);
    cr_expect_eq(dwf_heap_pop(&q, cnt, pos, &g), 1u);
    cr_expect_eq(g, 2u);
    cnt[1] = 10;
    cr_expect_eq(dwf_heap_raise(&q, 1, cnt, pos), 1u);
    dwf_heap_pop(&q, cnt, pos, &g);
    cr_expect_eq(g, 1u);
    cr_expect_eq(q.n, 2u);
    dwf_heap_free(&q);
}

/* Equal counts (core.dwf_heap_tie): groups 0, 1, 2 of 4 threads each at
 * pcs 30, 20, 10, pushed in that order, worked by hand. By heap position
 * (no tie key) no child is above its parent: no swap, [0 1 2]; pop 0, the
 * last (2) moves to the root and its child 1 is not above it: pop 2, then
 * 1. Smaller pc first (the thesis's simulator, GPGPU-Sim 2.1's cmp_mh): 1
 * rises above 0 ([1 0], 1 swap), 2 above 1 ([2 0 1], 1 swap); pop 2, 1
 * moves to the root, its child 0 (pc 30) is not above it: pop 1, then 0. */
Test(dwf, heap_ties_by_position_or_smaller_pc)
{
    uint32_t cnt[3] = {4, 4, 4}, pc[3] = {30, 20, 10};
    static const unsigned want[2][3] = {{0, 2, 1}, {2, 1, 0}};
    int pos[3];
    for (unsigned t = 0; t < 2; t++) {
        dwf_heap q;
        dwf_heap_init(&q, 4);
        q.tie = t ? pc : NULL;
        unsigned sw = 0, g;
        for (unsigned i = 0; i < 3; i++)
            sw += dwf_heap_push(&q, i, cnt, pos);
        cr_expect_eq(sw, t ? 2u : 0u, "tie %u", t);
        for (unsigned i = 0; i < 3; i++) {
            dwf_heap_pop(&q, cnt, pos, &g);
            cr_expect_eq(g, want[t][i], "tie %u, pop %u", t, i);
        }
        dwf_heap_free(&q);
    }
}

/* Heap port timing ([T] 4.4.3), worked by hand. Two insertions at cycle 100
 * with 3 and 2 swaps: on two ports they run side by side (ports free at 103
 * and 102: balanced at 103); on one port one after the other (100 + 3 + 2 =
 * 105). A pop at 104 with 2 swaps holds every port: two ports start it at
 * 104 (both free by then) and end at 106; one port starts it at 105 and
 * ends at 107. An insertion at 110 with no swap is balanced at once (110). */
Test(dwf, heap_ports_run_insertions_in_parallel)
{
    uint64_t two[2] = {0, 0}, one[1] = {0};
    cr_expect_eq(dwf_heap_ports_insert(two, 2, 100, 3), 103u);
    cr_expect_eq(dwf_heap_ports_insert(two, 2, 100, 2), 103u);
    cr_expect_eq(two[1], 102u);
    cr_expect_eq(dwf_heap_ports_insert(one, 1, 100, 3), 103u);
    cr_expect_eq(dwf_heap_ports_insert(one, 1, 100, 2), 105u);
    cr_expect_eq(dwf_heap_ports_pop(two, 2, 104, 2), 106u);
    cr_expect_eq(two[0], 106u);
    cr_expect_eq(two[1], 106u);
    cr_expect_eq(dwf_heap_ports_pop(one, 1, 104, 2), 107u);
    cr_expect_eq(dwf_heap_ports_insert(two, 2, 110, 0), 110u);
    cr_expect_eq(dwf_heap_ports_insert(one, 1, 110, 0), 110u);
}

/* The two-path kernel: threads whose tid AND MASK is 0 take pcs 9-12, the
 * others 4-7. */
#define PATHS_KERNEL(MASK) \
    ".data out u32[64]\n" \
    "    mov r0, %tid.x\n"            /* 0 */ \
    "    and r1, r0, " #MASK "\n"      /* 1 */ \
    "    setp.eq.u32 p0, r1, 0\n"     /* 2 */ \
    "    @p0 bra even\n"              /* 3 */ \
    "    add r2, r0, 1\n"             /* 4: odd */ \
    "    add r2, r2, 1\n"             /* 5 */ \
    "    add r2, r2, 1\n"             /* 6 */ \
    "    add r2, r2, 1\n"             /* 7 */ \
    "    bra join\n"                  /* 8 */ \
    "even:\n" \
    "    add r2, r0, 2\n"             /* 9 */ \
    "    add r2, r2, 2\n"             /* 10 */ \
    "    add r2, r2, 2\n"             /* 11 */ \
    "    add r2, r2, 2\n"             /* 12 */ \
    "join:\n" \
    "    shl r3, r0, 2\n"             /* 13 */ \
    "    st.global.u32 [r3+@out], r2\n" \
    "    exit\n"

/* Bitonic's even/odd branch ([T] 4.2, thread swizzling): 16 warps of 4
 * threads (4 lanes, one warp a cycle), even threads take the branch. The
 * bodies (pcs 4-7 odd, 9-12 even) are 4 independent adds. */
static const char *k_parity = PATHS_KERNEL(1);

typedef struct parity_out {
    unsigned body_issues, most, warps_of_4;
    uint64_t conflicts;
} parity_out;

/* Runs a PATHS_KERNEL(mask) on 64 threads under `sets`, checks every
 * thread's result and counts the bodies' issues (pcs 4-7 and 9-12). */
static void run_paths(const char *const *sets, const char *kernel, unsigned mask, parity_out *o)
{
    harness *h = harness_new(sets);
    harness_launch(h, kernel, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i & mask ? i + 4 : i + 8, "out[%u]", i);
    memset(o, 0, sizeof *o);
    for (unsigned i = 0; i < h->nlog; i++) {
        uint32_t pc = h->log[i].pc;
        if (pc < 4 || pc > 12 || pc == 8)
            continue;
        unsigned n = (unsigned)__builtin_popcount(h->log[i].active);
        o->body_issues++;
        o->most = n > o->most ? n : o->most;
        o->warps_of_4 += n == 4;
    }
    o->conflicts = harness_counter(h, "sm0", "dwf_lane_conflicts");
    harness_free(h);
}

/* One simulation per process: harness_fork runs this in a child. */
static void parity_child(void *ctx, void *out)
{
    const char *const *opt = ctx;
    parity_out *o = out;
    const char *sets[] = {"core.reconv=dwf", "core.warp_size=4", "core.simd_width=4", "core.max_warps=16",
                          "core.max_threads=64", "core.dwf_policy=time", opt[0], opt[1], opt[2], NULL};
    run_paths(sets, k_parity, 1, o);
}

static void run_parity3(const char *rf, const char *swizzle, const char *more, parity_out *o)
{
    const char *opt[3] = {rf, swizzle, more};
    harness_fork(parity_child, (void *)opt, o, sizeof *o);
}

static void run_parity(const char *rf, const char *swizzle, parity_out *o)
{
    const char *opt[3] = {rf, swizzle, NULL};
    harness_fork(parity_child, (void *)opt, o, sizeof *o);
}

Test(dwf, swizzling_forms_full_warps_on_even_odd_branch)
{
    parity_out plain, swz, ideal;
    run_parity("core.dwf_rf=las", "core.dwf_swizzle=false", &plain);
    run_parity("core.dwf_rf=las", "core.dwf_swizzle=true", &swz);
    run_parity("core.dwf_rf=ideal", "core.dwf_swizzle=false", &ideal);
    /* without swizzling every even thread's home lane is 0 or 2, every odd
     * one's 1 or 3: a lane-aware warp on a path holds at most 2 threads,
     * so each path's 32 threads need 16 warps per body pc: 8 x 16 issues;
     * a second even (odd) group meeting the LUT warp conflicts */
    cr_expect_eq(plain.most, 2u);
    cr_expect_eq(plain.body_issues, 8u * 16u);
    cr_expect_gt(plain.conflicts, 0u);
    /* swizzled, odd warps put their even threads on lanes 1 and 3: two
     * warps' groups fill one warp of 4 while 16 warps keep the 7-stage
     * pipeline full (the pool holds the groups long enough to meet) */
    cr_expect_eq(swz.most, 4u);
    cr_expect_gt(swz.warps_of_4, 0u);
    cr_expect_lt(swz.body_issues, plain.body_issues);
    /* filling older warps (core.dwf_las_merge = any) cannot beat the home
     * lanes: every even group holds lanes 0 and 2, so no older warp has
     * them free and the bodies issue as without it */
    parity_out merge;
    run_parity3("core.dwf_rf=las", "core.dwf_swizzle=false", "core.dwf_las_merge=any", &merge);
    cr_expect_eq(merge.most, 2u);
    cr_expect_eq(merge.body_issues, 8u * 16u);
    /* any lane (ideal register file): full warps without swizzling */
    cr_expect_eq(ideal.most, 4u);
    cr_expect_lt(ideal.body_issues, plain.body_issues);
}

/* A branch on bit 1 of the thread id (Bitonic's `ixj > tid` at j = 2):
 * threads 0 and 1 of every warp of 4 take one path, 2 and 3 the other.
 * Lane-aware with slot home lanes and the xor-1 swizzle (the earlier
 * mapping), both threads of a path keep slots {0, 1} (or {2, 3}) in every
 * warp, so a warp holds at most 2: 16 warps x 8 body pcs. With home lanes
 * on the pipeline (2 lanes here, core.dwf_home_lane = pipe) slots 0 and 1
 * are banks 0 and 1, and a warp takes two threads of each bank: two
 * groups fill a warp of 4. With the rotation swizzle (home slot (tid +
 * warp) mod 4, core.dwf_swizzle_map = rotate) warps w and w + 2 put a
 * path's threads on complementary slots: full warps too. */
static const char *k_bit1 = PATHS_KERNEL(2);

static void bit1_child(void *ctx, void *out)
{
    const char *const *opt = ctx;
    parity_out *o = out;
    const char *sets[] = {"core.reconv=dwf", "core.warp_size=4", "core.simd_width=2", "core.max_warps=16",
                          "core.max_threads=64", "core.dwf_policy=time", "core.dwf_rf=las", opt[0], opt[1], NULL};
    run_paths(sets, k_bit1, 2, o);
}

static parity_out run_bit1(const char *home, const char *map)
{
    const char *opt[2] = {home, map};
    parity_out o;
    harness_fork(bit1_child, (void *)opt, &o, sizeof o);
    return o;
}

Test(dwf, las_home_lanes_and_swizzle_map_on_a_bit1_branch)
{
    parity_out slot = run_bit1("core.dwf_home_lane=slot", "core.dwf_swizzle_map=xor");
    cr_expect_eq(slot.most, 2u);
    cr_expect_eq(slot.body_issues, 8u * 16u);
    parity_out pipe = run_bit1("core.dwf_home_lane=pipe", "core.dwf_swizzle_map=xor");
    cr_expect_eq(pipe.most, 4u);
    cr_expect_lt(pipe.body_issues, slot.body_issues);
    parity_out rot = run_bit1("core.dwf_home_lane=slot", "core.dwf_swizzle_map=rotate");
    cr_expect_eq(rot.most, 4u);
    cr_expect_lt(rot.body_issues, slot.body_issues);
}

/* The kinds of lane conflict on straight-line code (no branch): 16 warps
 * of 4 threads, lane-aware, DMaj. Every thread group is a whole warp on
 * all 4 lanes, so the LUT warp it meets is either gone (issued: a miss) or
 * holds 4 lanes, all of them the group's: every hit is a conflict with a
 * full warp (a new warp under any register file) and none is split. The 5
 * instructions before exit each send 16 groups: 80 lookups. */
static const char *k_straight =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"            /* 0 */
    "    add r1, r0, 1\n"             /* 1 */
    "    add r1, r1, 1\n"             /* 2 */
    "    shl r2, r0, 2\n"             /* 3 */
    "    st.global.u32 [r2+@out], r1\n" /* 4 */
    "    exit\n";

typedef struct straight_out {
    uint64_t lookups, misses, conflicts, full, split;
} straight_out;

static void straight_child(void *ctx, void *out)
{
    (void)ctx;
    straight_out *o = out;
    const char *sets[] = {"core.reconv=dwf", "core.warp_size=4", "core.simd_width=4", "core.max_warps=16",
                          "core.max_threads=64", "core.dwf_rf=las", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_straight, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i + 2, "out[%u]", i);
    o->lookups = harness_counter(h, "sm0", "dwf_lut_lookups");
    o->misses = harness_counter(h, "sm0", "dwf_lut_misses");
    o->conflicts = harness_counter(h, "sm0", "dwf_lane_conflicts");
    o->full = harness_counter(h, "sm0", "dwf_lane_conflicts_full");
    o->split = harness_counter(h, "sm0", "dwf_lane_conflicts_split");
    harness_free(h);
}

Test(dwf, lane_conflicts_on_straight_code_are_full_warps)
{
    straight_out o;
    harness_fork(straight_child, NULL, &o, sizeof o);
    cr_expect_eq(o.lookups, 80u);
    cr_expect_geq(o.misses, 5u);   /* at least the first group at each pc */
    cr_expect_eq(o.conflicts, o.lookups - o.misses);
    cr_expect_eq(o.full, o.conflicts);
    cr_expect_eq(o.split, 0u);
}

/* Threads a barrier releases (core.dwf_barrier_lut): k_straight with a
 * barrier after its first instruction, 16 warps of 4, lane-aware, every
 * thread group a whole warp. Each of the 6 instructions before exit
 * writes its 16 carriers back, one LUT lookup each: 96 when the barrier's
 * carriers go through the LUT as any other (lookup); 96 - 16 = 80 when
 * each carrier the barrier releases becomes a pool warp of its own without
 * a lookup (bypass, the thesis's simulator), and then issues as it is: the
 * instruction after the barrier issues 16 warps of 4 either way. */
static const char *k_straight_bar =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"            /* 0 */
    "    bar.sync\n"                  /* 1 */
    "    add r1, r0, 1\n"             /* 2 */
    "    add r1, r1, 1\n"             /* 3 */
    "    shl r2, r0, 2\n"             /* 4 */
    "    st.global.u32 [r2+@out], r1\n" /* 5 */
    "    exit\n";

typedef struct bar_out {
    uint64_t lookups;
    unsigned after, after_full;   /* issues of pc 2; of them with 4 threads */
} bar_out;

static void bar_child(void *ctx, void *out)
{
    bar_out *o = out;
    const char *sets[] = {"core.reconv=dwf", "core.warp_size=4", "core.simd_width=4", "core.max_warps=16",
                          "core.max_threads=64", "core.dwf_rf=las", ctx, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_straight_bar, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i + 2, "out[%u]", i);
    o->lookups = harness_counter(h, "sm0", "dwf_lut_lookups");
    o->after = o->after_full = 0;
    for (unsigned i = 0; i < h->nlog; i++)
        if (h->log[i].pc == 2) {
            o->after++;
            o->after_full += __builtin_popcount(h->log[i].active) == 4;
        }
    harness_free(h);
}

Test(dwf, barrier_release_through_the_lut_or_bypassing_it)
{
    bar_out lut, byp;
    harness_fork(bar_child, (void *)"core.dwf_barrier_lut=lookup", &lut, sizeof lut);
    harness_fork(bar_child, (void *)"core.dwf_barrier_lut=bypass", &byp, sizeof byp);
    cr_expect_eq(lut.lookups, 96u);
    cr_expect_eq(byp.lookups, 80u);
    cr_expect_eq(lut.after, 16u);
    cr_expect_eq(byp.after, 16u);
    cr_expect_eq(byp.after_full, 16u);
}

/* DWF needs the barrel discipline and one warp pool (one scheduler). */
Test(dwf, bad_configurations)
{
    const char *sets[] = {"core.reconv=dwf", "core.discipline=scoreboard", NULL};
    char *msg = NULL;
    cr_assert_null(harness_try_new(sets, &msg));
    cr_expect(strstr(msg, "core.reconv = dwf") && strstr(msg, "core.discipline = barrel"), "%s", msg);
    g_free(msg);
    const char *sets2[] = {"core.reconv=dwf", "core.schedulers=2", NULL};
    cr_assert_null(harness_try_new(sets2, &msg));
    cr_expect(strstr(msg, "core.schedulers = 1"), "%s", msg);
    g_free(msg);
    const char *sets3[] = {"core.reconv=dwf", "core.dwf_lut_entries=10", NULL};
    cr_assert_null(harness_try_new(sets3, &msg));
    cr_expect(strstr(msg, "multiple of core.dwf_lut_assoc"), "%s", msg);
    g_free(msg);
    /* heap ports: 1..8 (DWF_HEAP_PORTS_MAX) */
    const char *sets4[] = {"core.reconv=dwf", "core.dwf_heap_ports=9", NULL};
    cr_assert_null(harness_try_new(sets4, &msg));
    cr_expect(strstr(msg, "core.dwf_heap_ports"), "%s", msg);
    g_free(msg);
}

/* DMaj starves a minority path (thesis 4.1/4.3, Black-Scholes: DMaj drains
 * the most common pc first, so a few threads on a rarely taken path wait
 * until the majority is done). 64 threads as 16 warps of 4, ideal register
 * file, one warp a cycle into the 7-stage pipeline: thread 0 takes a short
 * side path (pc 4), the other 63 run 8 loop iterations. The 63 majority
 * threads fill 16 warps at their pc; while those 16 issue, the first to
 * retire (7 cycles later) already gather at the next pc, so the majority
 * group always holds more than the minority's one thread and DMaj never
 * picks pc 4 until the loop is over: its first issue comes after the last
 * loop-body issue. DTime (formation order) issues the minority group as it
 * forms, in the first iteration: before the last loop-body issue. */
static const char *k_minority =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"            /* 0 */
    "    mov r2, 0\n"                 /* 1 */
    "    setp.eq.u32 p0, r0, 0\n"     /* 2 */
    "    @p0 bra minor\n"             /* 3 */
    "loop:\n"
    "    add r2, r2, 1\n"             /* 4 */
    "    setp.lt.u32 p1, r2, 8\n"     /* 5 */
    "    @p1 bra loop\n"              /* 6 */
    "    bra done\n"                  /* 7 */
    "minor:\n"
    "    add r2, r2, 100\n"           /* 8 */
    "done:\n"
    "    shl r3, r0, 2\n"             /* 9 */
    "    st.global.u32 [r3+@out], r2\n"
    "    exit\n";

typedef struct minority_out {
    unsigned first_minor, last_loop;   /* issue-log indices */
} minority_out;

/* Runs `kernel` (thread 0 stores 100, the others 8) on 16 warps of 4
 * threads, ideal register file, infinite heap, under policy `pol` and one
 * more setting `extra` (or none: NULL). */
static harness *run_minority(const char *kernel, const char *pol, const char *extra)
{
    const char *sets[] = {"core.reconv=dwf", "core.warp_size=4", "core.simd_width=4", "core.max_warps=16",
                          "core.max_threads=64", "core.dwf_rf=ideal", "core.dwf_heap=infinite", pol, extra, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, kernel, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i ? 8u : 100u, "out[%u]", i);
    return h;
}

static void minority_child(void *ctx, void *out)
{
    const char *pol = ctx;
    minority_out *o = out;
    harness *h = run_minority(k_minority, pol, NULL);
    o->first_minor = ~0u;
    o->last_loop = 0;
    for (unsigned i = 0; i < h->nlog; i++) {
        uint32_t pc = h->log[i].pc;
        if (pc == 8 && o->first_minor == ~0u)
            o->first_minor = i;
        if (pc >= 4 && pc <= 6)
            o->last_loop = i;
    }
    harness_free(h);
}

Test(dwf, dmaj_starves_a_minority_path)
{
    minority_out maj, time;
    harness_fork(minority_child, (void *)"core.dwf_policy=maj", &maj, sizeof maj);
    harness_fork(minority_child, (void *)"core.dwf_policy=time", &time, sizeof time);
    cr_expect_gt(maj.first_minor, maj.last_loop, "DMaj: minority path after the whole loop");
    cr_expect_lt(time.first_minor, time.last_loop, "DTime: minority path during the loop");
}

/* DMin ([T] 4.3: the pc with the fewest threads first) on the same kernel:
 * when warp 0's branch writes back, thread 0 alone forms the pc-8 group;
 * every other pc in the pool then holds at least warp 0's other 3 threads
 * (pc 4) or a whole warp of 4 (pcs 0-3), so pc 8 is the minimum and issues
 * at the next issue, in the loop's first iteration: before the last
 * loop-body issue, the opposite of DMaj. */
Test(dwf, dmin_issues_the_minority_path_first)
{
    minority_out min;
    harness_fork(minority_child, (void *)"core.dwf_policy=min", &min, sizeof min);
    cr_expect_lt(min.first_minor, min.last_loop, "DMin: minority path during the loop");
}

/* DPdPri ([T] 4.3: a warp that has gone beyond more post-dominators gets
 * a lower priority, so threads that have not yet passed one catch up; the
 * count is per thread, a warp's is its smallest, ties by the smaller pc).
 * The k_minority machine (16 warps of 4, ideal register file, one warp a
 * cycle into the 7-stage pipeline); thread 0 goes to pc 10 (past the loop),
 * the other 63 run 8 iterations of a loop whose body holds a uniform
 * if-then (pc 5, never taken): its post-dominator, pc 7, is reached once
 * per iteration. Post-dominators (branch reconvergence pcs): 7 (pc 5), 9
 * (pc 8, the loop exit), 11 (pcs 3 and 9). Thread 0 reaches none before
 * pc 11: its pool warp at pc 10 keeps the count 0. Every pool warp at pc 7
 * holds threads that have just reached pc 7: count >= 1.
 * - DPdPri: the pc-10 warp forms at warp 0's branch write-back, before any
 *   thread reaches pc 7 (3 more round trips: pcs 4, 5, 6); from then on it
 *   is ready and (count 0, pc 10) comes before every (count >= 1, any pc),
 *   so no pc-7 warp issues before it: first pc-10 issue < first pc-7 issue.
 * - DPC (smallest pc): the 63 loop threads fill at least 16 pool warps of
 *   at most 4 (63 / 4 lanes), at most 7 of them in the pipeline (one issue
 *   a cycle, depth 7): at least 9 ready at pcs <= 9 in every cycle while
 *   all of them are in the loop, so pc 10 waits until threads leave it,
 *   after the first pc-7 issue (first iteration).
 * - DMaj: the minority's single thread never becomes the majority before
 *   the loop ends (dmaj_starves_a_minority_path): also after it. */
static const char *k_pdpri =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"            /* 0 */
    "    mov r2, 0\n"                 /* 1 */
    "    setp.eq.u32 p0, r0, 0\n"     /* 2 */
    "    @p0 bra minor\n"             /* 3: reconverges at 11 */
    "loop:\n"
    "    setp.ge.u32 p2, r2, 100\n"   /* 4 */
    "    @p2 bra skip\n"              /* 5: never taken, reconverges at 7 */
    "    add r2, r2, 1\n"             /* 6 */
    "skip:\n"
    "    setp.lt.u32 p1, r2, 8\n"     /* 7 */
    "    @p1 bra loop\n"              /* 8: reconverges at 9 */
    "    bra done\n"                  /* 9 */
    "minor:\n"
    "    add r2, r2, 100\n"           /* 10 */
    "done:\n"
    "    shl r3, r0, 2\n"             /* 11 */
    "    st.global.u32 [r3+@out], r2\n"
    "    exit\n";

typedef struct pdpri_out {
    unsigned first_minor, first_pd;   /* issue-log indices of the first pc 10, pc 7 */
} pdpri_out;

static void pdpri_child(void *ctx, void *out)
{
    const char *pol = ctx;
    pdpri_out *o = out;
    harness *h = run_minority(k_pdpri, pol, NULL);
    o->first_minor = o->first_pd = ~0u;
    for (unsigned i = 0; i < h->nlog; i++) {
        if (h->log[i].pc == 10 && o->first_minor == ~0u)
            o->first_minor = i;
        if (h->log[i].pc == 7 && o->first_pd == ~0u)
            o->first_pd = i;
    }
    harness_free(h);
}

Test(dwf, dpdpri_lets_the_laggard_pass_first)
{
    pdpri_out pd, pc, maj;
    harness_fork(pdpri_child, (void *)"core.dwf_policy=pdpri", &pd, sizeof pd);
    harness_fork(pdpri_child, (void *)"core.dwf_policy=pc", &pc, sizeof pc);
    harness_fork(pdpri_child, (void *)"core.dwf_policy=maj", &maj, sizeof maj);
    cr_assert_neq(pd.first_pd, ~0u);
    cr_expect_lt(pd.first_minor, pd.first_pd, "DPdPri: pc 10 (count 0) before any pc 7 (count >= 1)");
    cr_expect_gt(pc.first_minor, pc.first_pd, "DPC: pc 10 after the loop's first pc 7");
    cr_expect_gt(maj.first_minor, maj.first_pd, "DMaj: pc 10 after the loop's first pc 7");
}

/* Which post-dominators DPdPri counts (core.dwf_pdpri_count; [T] 4.3:
 * threads "falling behind after a divergence" catch up "after the
 * immediate post-dominator"). The k_minority machine; thread 0 goes to
 * pc 9, the other 63 run a loop closed by an unconditional back-edge
 * (pc 7, whose only successor, pc 4, is its immediate post-dominator).
 * Post-dominators of the conditional branches: 8 (pc 5, the loop exit)
 * and 11 (pc 3); every branch adds 4 (pc 7) and 11 (pcs 8, 10).
 * Issue order by hand (all counts 0 at first; one issue a cycle, 7-stage
 * pipeline, ties by pc then formation): the 16 pool warps at pc 0 issue in
 * cycles 0-15, then pc 1, 2, 3 in turn (16-63, each level's warps formed
 * 7 cycles after their issue, while lower-pc warps are still ready); hw
 * warp 0's pc 3 issues first (cycle 48) and its write-back (55) forms the
 * pc-9 warp (thread 0, count 0) and the first pc-4 warp.
 * - cond: a loop thread's count stays 0 in the loop (4 is no conditional
 *   branch's post-dominator), so (0, pc 4..7) comes before (0, pc 9), as
 *   DPC: pc 9 waits while 63 threads in >= 16 pool warps (<= 7 in flight)
 *   keep loop warps ready, past the first iteration's back-edge (pc 7).
 * - any: a loop thread's count is 1 from its arrival at pc 4 (formed from
 *   pc 3), so the pc-9 warp (0, 9) issues once the pc-3 warps (0, 3) have
 *   gone, before every pc-4 warp (1, 4): first pc 9 < first pc 4. */
static const char *k_pdcount =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"            /* 0 */
    "    mov r2, 0\n"                 /* 1 */
    "    setp.eq.u32 p0, r0, 0\n"     /* 2 */
    "    @p0 bra minor\n"             /* 3: reconverges at 11 */
    "loop:\n"
    "    setp.ge.u32 p1, r2, 8\n"     /* 4 */
    "    @p1 bra out\n"               /* 5: the loop exit, reconverges at 8 */
    "    add r2, r2, 1\n"             /* 6 */
    "    bra loop\n"                  /* 7: unconditional, reconverges at 4 */
    "out:\n"
    "    bra done\n"                  /* 8 */
    "minor:\n"
    "    add r2, r2, 100\n"           /* 9 */
    "    bra done\n"                  /* 10 */
    "done:\n"
    "    shl r3, r0, 2\n"             /* 11 */
    "    st.global.u32 [r3+@out], r2\n"
    "    exit\n";

typedef struct pdcount_out {
    unsigned first_minor, first_loop, first_back;   /* issue-log indices of the first pc 9, 4, 7 */
} pdcount_out;

static void pdcount_child(void *ctx, void *out)
{
    pdcount_out *o = out;
    harness *h = run_minority(k_pdcount, "core.dwf_policy=pdpri", ctx);
    o->first_minor = o->first_loop = o->first_back = ~0u;
    for (unsigned i = 0; i < h->nlog; i++) {
        uint32_t pc = h->log[i].pc;
        unsigned *f = pc == 9 ? &o->first_minor : pc == 4 ? &o->first_loop : pc == 7 ? &o->first_back : NULL;
        if (f && *f == ~0u)
            *f = i;
    }
    harness_free(h);
}

Test(dwf, dpdpri_counts_conditional_post_dominators)
{
    pdcount_out cond, any, dflt;
    harness_fork(pdcount_child, (void *)"core.dwf_pdpri_count=cond", &cond, sizeof cond);
    harness_fork(pdcount_child, (void *)"core.dwf_pdpri_count=any", &any, sizeof any);
    harness_fork(pdcount_child, NULL, &dflt, sizeof dflt);
    cr_assert_neq(cond.first_back, ~0u);
    cr_expect_gt(cond.first_minor, cond.first_back, "cond: pc 9 after the loop's first back-edge");
    cr_expect_lt(any.first_minor, any.first_loop, "any: pc 9 (count 0) before every pc 4 (count 1)");
    cr_expect_eq(dflt.first_minor, cond.first_minor, "the default is cond");
}

/* DMaj heap stalls ([T] 4.4.3, Fig. 4.5: no warp issues while the max-heap
 * rebalances; a stall is an issue the scheduler wanted and could not make).
 * One CTA of 4 warps on warps of 32 over 8 lanes (P = 4 cycles per
 * issue), depth 8, lane-aware without swizzling, so each hardware warp's
 * threads stay one pool warp per pc. The 4 warps keep the port busy: they
 * issue each pc 4 cycles apart, and an instruction issued at k writes back
 * at k + 11 (depth 8 + 4 passes - 1), one cycle before the third warp's
 * issue frees the port (k + 8 + 4). So the first write-back of every pc
 * rebalances the heap from one cycle before the port is free. Each branch
 * peels lane j off (a thread group of 1 per warp, looked up first: it
 * holds the lowest lane) from the 32 - j threads that go on; the minority
 * groups wait in the heap (DMaj drains the majority) until the end.
 * - k_peel1, one branch: the first write-back pushes X1 (1 thread, 0 swaps)
 *   and F (31 > 1: 1 swap, the other port): balanced at the cycle the port
 *   frees: no stall. The rest are raises of the root or of X1 under it,
 *   pops of a heap of 2 or 1 and the uniform pcs (one group in the heap at
 *   a time): no swap. Before the fix this counted 1 cycle.
 * - k_peel3, three branches: the pcs after the first branch push their
 *   group (29-31 threads) under the waiting 1-thread groups (4 threads
 *   each once all warps have written back): pc 3 into [X1]: 1 swap; pc 4
 *   pushes X2 (0) and F2 into [X1, X2]: idx 2 under X1: 1 swap; the pop of
 *   F2 leaves [X1, X2] (4 is not more than 4: no swap); pc 5 pushes under
 *   X1: 1 swap; pc 6 pushes X3 at idx 2 (0) and F3 at idx 3, under X2 then
 *   X1: 2 swaps, one cycle past the free port: 1 stall. The pops after
 *   (equal counts 4) swap nothing. Before the fix: 1 + 1 + 1 + 1 + 2 = 6. */
#define PEEL(j, p, to) "    setp.eq.u32 " p ", r0, " #j "\n    @" p " bra " to "\n"
static const char *k_peel1 = "    mov r0, %laneid\n" PEEL(0, "p0", "x1") "    exit\nx1:\n    exit\n";
static const char *k_peel3 = "    mov r0, %laneid\n" PEEL(0, "p0", "x1") PEEL(1, "p1", "x2") PEEL(2, "p2", "x3")
                             "    exit\nx1:\n    exit\nx2:\n    exit\nx3:\n    exit\n";

static void heap_stall_child(void *ctx, void *out)
{
    const char *sets[] = {"core.reconv=dwf", "core.simd_width=8", "core.pipeline_depth=8", "core.dwf_policy=maj",
                          "core.dwf_heap=limited", "core.dwf_rf=las", "core.dwf_swizzle=false", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ctx, 1, 128, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    uint64_t *o = out;
    o[0] = harness_counter(h, "sm0", "dwf_heap_stall_cycles");
    o[1] = harness_counter(h, "sm0", "dwf_heap_max");
    harness_free(h);
}

Test(dwf, heap_stalls_count_only_lost_issue_slots)
{
    uint64_t o[2];
    harness_fork(heap_stall_child, (void *)k_peel1, o, sizeof o);
    cr_expect_eq(o[0], 0u, "one peel: the swap ends as the port frees");
    cr_expect_eq(o[1], 2u);
    harness_fork(heap_stall_child, (void *)k_peel3, o, sizeof o);
    cr_expect_eq(o[0], 1u, "three peels: the last push ends a cycle after the port frees");
    cr_expect_eq(o[1], 4u);
}
