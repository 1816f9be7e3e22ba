/* Large Warp Microarchitecture (core.reconv = lwm; reconv_lwm.c): the
 * formation algorithm on the dissertation's Fig. 4.5, and hand-worked issue
 * timelines on the default core (barrel, depth 7, 1-cycle ALU and branch:
 * an instruction issued at k completes at k + 6 and its warp may be fetched
 * again at k + 7; the first fetch is at cycle 10, core.cta_launch_latency). */
#include <string.h>

#include "core/lwm_form.h"
#include "harness.h"
#include "simtgrid/scenario.h"

#define FULL UINT32_MAX

/* Narasiman's dissertation, Fig. 4.5: a 32-thread large warp on 4 lanes
 * (K = 8 rows), 15 active threads. Column c holds rows: c0 {0,1,6,7},
 * c1 {2,3,4,7}, c2 {1,2,4,5}, c3 {0,2,5}; rows as masks (bit c = column c). */
Test(lwm, fig_4_5_subwarps)
{
    uint32_t W[8] = {0x9, 0x5, 0xE, 0x2, 0x6, 0xC, 0x1, 0x3};
    static const int rows[4][4] = {{0, 2, 1, 0}, {1, 3, 2, 2}, {6, 4, 4, 5}, {7, 7, 5, -1}};
    static const uint32_t masks[4] = {0xF, 0xF, 0xF, 0x7};
    for (unsigned s = 0; s < 4; s++) {
        uint8_t row[32], col[32];
        uint32_t m = lwm_take_column(W, NULL, 8, row, col);
        cr_assert_eq(m, masks[s], "sub-warp %u: mask %x", s, m);
        for (unsigned c = 0; c < 4; c++)
            if (rows[s][c] >= 0) {
                cr_expect_eq(row[c], rows[s][c], "sub-warp %u column %u: row %u", s, c, row[c]);
                cr_expect_eq(col[c], c);
            }
    }
    for (unsigned r = 0; r < 8; r++)
        cr_expect_eq(W[r], 0, "the working copy is empty after 4 sub-warps");
    /* the baseline would issue 8 warps of 4 lanes; the mask copy is used up */
    uint8_t row[32], col[32];
    cr_expect_eq(lwm_take_column(W, NULL, 8, row, col), 0);
}

/* perfRF packs any threads: the 15 threads of Fig. 4.5 on 4 lanes take
 * ceil(15 / 4) = 4 sub-warps, the first holding row 0's columns 0 and 3 and
 * row 1's columns 0 and 2, in row-major order, on lanes 0..3. */
Test(lwm, perfrf_packs_across_columns)
{
    uint32_t W[8] = {0x9, 0x5, 0xE, 0x2, 0x6, 0xC, 0x1, 0x3};
    uint8_t row[32], col[32];
    cr_assert_eq(lwm_take_any(W, NULL, 8, 4, row, col), 0xF);
    static const uint8_t er[4] = {0, 0, 1, 1}, ec[4] = {0, 3, 0, 2};
    for (unsigned l = 0; l < 4; l++) {
        cr_expect_eq(row[l], er[l]);
        cr_expect_eq(col[l], ec[l]);
    }
    cr_expect_eq(lwm_take_any(W, NULL, 8, 4, row, col), 0xF);
    cr_expect_eq(lwm_take_any(W, NULL, 8, 4, row, col), 0xF);
    cr_expect_eq(lwm_take_any(W, NULL, 8, 4, row, col), 0x7);
    /* two threads of one column: column packing needs two sub-warps */
    uint32_t A[2] = {0x1, 0x1}, B[2] = {0x1, 0x1};
    cr_expect_eq(lwm_take_any(A, NULL, 2, 4, row, col), 0x3);
    cr_expect_eq(lwm_take_column(B, NULL, 2, row, col), 0x1);
    cr_expect_eq(lwm_take_column(B, NULL, 2, row, col), 0x1);
    /* in-flight threads are not available: row 0 held back */
    uint32_t C[2] = {0x3, 0x1}, avail[2] = {0, FULL};
    cr_expect_eq(lwm_take_column(C, avail, 2, row, col), 0x1);
    cr_expect_eq(row[0], 1);
    cr_expect_eq(C[0], 0x3);
}

static void expect_issue(const harness *h, unsigned i, uint64_t cycle, uint32_t pc, uint32_t active)
{
    cr_assert(i < h->nlog, "issue %u of %u", i, h->nlog);
    cr_expect_eq(h->log[i].cycle, cycle, "issue %u at %lu, expected %lu", i, (unsigned long)h->log[i].cycle,
                 (unsigned long)cycle);
    cr_expect_eq(h->log[i].pc, pc, "issue %u: pc %u, expected %u", i, h->log[i].pc, pc);
    cr_expect_eq(h->log[i].active, active, "issue %u: mask %x, expected %x", i, h->log[i].active, active);
}

static const char *k_jump =
    ".data out u32[512]\n"
    "    mov r0, %tid.x\n"                /* 0 */
    "    bra next\n"                      /* 1: a jump */
    "next:\n"
    "    shl r1, r0, 2\n"                 /* 2 */
    "    st.global.u32 [r1+@out], r0\n"   /* 3 */
    "    exit\n";                         /* 4 */

/* A full 256-thread large warp on 32 lanes: 8 sub-warps in 8 cycles; the
 * jump 1; the stack and the results as under PDOM. */
Test(lwm, full_warp_8_cycles_jump_1)
{
    const char *sets[] = {"core.reconv=lwm", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_jump, 1, 256, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* pc 0: sub-warps at 10..17 (the last completes at 23); the jump at 24
     * alone; pc 2 at 31..38 */
    for (unsigned i = 0; i < 8; i++)
        expect_issue(h, i, 10 + i, 0, FULL);
    expect_issue(h, 8, 24, 1, FULL);
    for (unsigned i = 0; i < 8; i++)
        expect_issue(h, 9 + i, 31 + i, 2, FULL);
    /* 5 instructions: 8 + 1 + 8 + 8 (stores, one per row) + 8 sub-warps;
     * fetch blocked 7 cycles by each 8-sub-warp instruction */
    cr_expect_eq(h->nlog, 33);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_fetches"), 5);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_subwarps"), 33);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 33);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_fetch_blocked"), 28);
    /* every thread retires all 5 instructions, the jump included */
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 5 * 256);
    for (unsigned i = 0; i < 256; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i);
    harness_free(h);
}

/* The largest size, 512 = 16 x 32 threads (a 512-thread CTA): 16
 * sub-warps in 16 cycles, the jump 1. */
Test(lwm, warp_of_512_takes_16_cycles)
{
    const char *sets[] = {"core.reconv=lwm", "core.large_warp_threads=512", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_jump, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* pc 0: sub-warps at 10..25, one per row (the last completes at 31);
     * the jump at 32 alone; pc 2 at 39..54 */
    for (unsigned i = 0; i < 16; i++) {
        expect_issue(h, i, 10 + i, 0, FULL);
        cr_expect_eq(h->log[i].warp, 0, "sub-warp %u: the large warp is led by slot 0", i);
    }
    expect_issue(h, 16, 32, 1, FULL);
    for (unsigned i = 0; i < 16; i++)
        expect_issue(h, 17 + i, 39 + i, 2, FULL);
    /* 16 + 1 + 16 + 16 + 16 sub-warps; 15 blocked cycles per 16-sub-warp
     * instruction; one large warp, so 16 sub-warps is the histogram's top */
    cr_expect_eq(h->nlog, 65);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_fetches"), 5);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_subwarps"), 65);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_fetch_blocked"), 60);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 5 * 512);
    for (unsigned i = 0; i < 512; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i);
    harness_free(h);
}

/* Without the jump optimisation the jump takes 8 sub-warps. */
Test(lwm, jump_without_optimisation)
{
    const char *sets[] = {"core.reconv=lwm", "core.lwm_jump_opt=false", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_jump, 1, 256, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 8; i++)
        expect_issue(h, 8 + i, 24 + i, 1, FULL);
    expect_issue(h, 16, 38, 2, FULL);
    cr_expect_eq(harness_counter(h, "sm0", "lwm_subwarps"), 40);
    harness_free(h);
}

/* Two large warps (a 512-thread CTA): fetch is blocked while the first is
 * broken down, so the second's sub-warps follow at 18..25; the first's
 * jump (ready at 24) waits for the port until 26. */
Test(lwm, fetch_blocked_until_broken_down)
{
    const char *sets[] = {"core.reconv=lwm", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_jump, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 8; i++) {
        expect_issue(h, i, 10 + i, 0, FULL);
        cr_expect_eq(h->log[i].warp, 0);
        expect_issue(h, 8 + i, 18 + i, 0, FULL);
        cr_expect_eq(h->log[8 + i].warp, 8, "the second large warp leads with warp slot 8");
    }
    expect_issue(h, 16, 26, 1, FULL);
    cr_expect_eq(h->log[16].warp, 0);
    harness_free(h);
}

/* Rows 0-3 (tid < 128) take the branch on even threads, rows 4-7 on odd
 * ones: per column 4 taken and 4 not-taken threads. */
static const char *k_split =
    ".data out u32[256]\n"
    "    mov r0, %tid.x\n"                /* 0 */
    "    and r1, r0, 1\n"                 /* 1 */
    "    shr r2, r0, 7\n"                 /* 2 */
    "    setp.eq.u32 p0, r1, r2\n"        /* 3 */
    "    @p0 bra T\n"                     /* 4 */
    "    add r3, r0, 1000\n"              /* 5 */
    "    bra join\n"                      /* 6 */
    "T:\n"
    "    mul r3, r0, 2\n"                 /* 7 */
    "    bra join\n"                      /* 8 */
    "join:\n"
    "    shl r4, r0, 2\n"                 /* 9 */
    "    st.global.u32 [r4+@out], r3\n"   /* 10 */
    "    exit\n";                         /* 11 */

Test(lwm, divergence_after_last_subwarp)
{
    const char *sets[] = {"core.reconv=lwm", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_split, 1, 256, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* pcs 0..3 at 10, 24, 38, 52 (8 sub-warps each, 7 cycles apart); the
     * branch's 8 sub-warps at 66..73 all issue before either path: the
     * stack is pushed when the last completes (79). Taken path first, packed
     * into 4 full sub-warps at 80..83, its jump at 90 (reaches the IPDOM:
     * pop); the other path at 97..100, its jump at 107; the reconverged
     * warp at 114..121. */
    unsigned i = 0;
    for (unsigned pc = 0; pc <= 4; pc++)
        for (unsigned s = 0; s < 8; s++, i++)
            expect_issue(h, i, 10 + 14 * pc + s, pc, FULL);
    for (unsigned s = 0; s < 4; s++, i++)
        expect_issue(h, i, 80 + s, 7, FULL);
    expect_issue(h, i++, 90, 8, FULL);
    for (unsigned s = 0; s < 4; s++, i++)
        expect_issue(h, i, 97 + s, 5, FULL);
    expect_issue(h, i++, 107, 6, FULL);
    for (unsigned s = 0; s < 8; s++, i++)
        expect_issue(h, i, 114 + s, 9, FULL);
    for (unsigned t = 0; t < 256; t++)
        cr_expect_eq(harness_read_u32(h, 0, "out", t), (t & 1) == (t >> 7) ? 2 * t : t + 1000, "out[%u]", t);
    harness_free(h);
}

/* Two rows (64 threads). A (pc 6) runs on tid 0 and 32 (column 0 of both
 * rows): sub-warps (row 0) at a and (row 1) at a + 1. B (pc 7) runs on
 * tid 32 (row 1, column 0) and tid 1 (row 0, column 1). */
static const char *k_inflight =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"                /* 0 */
    "    and r1, r0, 31\n"                /* 1 */
    "    setp.eq.u32 p0, r1, 0\n"         /* 2 */
    "    setp.eq.u32 p1, r0, 32\n"        /* 3 */
    "    setp.eq.u32 p2, r0, 1\n"         /* 4 */
    "    por p1, p1, p2\n"                /* 5 */
    "    @p0 add r2, r0, 7\n"             /* 6: A */
    "    @p1 add r2, r0, 9\n"             /* 7: B */
    "    shl r3, r0, 2\n"                 /* 8 */
    "    st.global.u32 [r3+@out], r2\n"   /* 9 */
    "    exit\n";                         /* 10 */

static unsigned first_at_pc(const harness *h, uint32_t pc)
{
    for (unsigned i = 0; i < h->nlog; i++)
        if (h->log[i].pc == pc)
            return i;
    cr_assert_fail("no issue at pc %u", pc);
    return 0;
}

static harness *run_inflight(const char *refetch, const char *pack)
{
    const char *sets[] = {"core.reconv=lwm", "core.large_warp_threads=64", refetch, pack, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_inflight, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned t = 0; t < 64; t++) {
        uint32_t v = (t == 0 || t == 32) ? t + 7 : 0;
        if (t == 1 || t == 32)
            v = t + 9;
        cr_expect_eq(harness_read_u32(h, 0, "out", t), v, "out[%u]", t);
    }
    return h;
}

Test(lwm, strict_refetch_waits_for_all_subwarps)
{
    harness *h = run_inflight("core.lwm_refetch=strict", "core.lwm_pack=column");
    unsigned a = first_at_pc(h, 6);
    uint64_t ka = h->log[a].cycle;
    expect_issue(h, a + 1, ka + 1, 6, 0x1);
    /* A's last sub-warp completes at ka + 7: B, both threads in one
     * sub-warp (different columns), at ka + 8 */
    expect_issue(h, a + 2, ka + 8, 7, 0x3);
    expect_issue(h, a + 3, ka + 15, 8, FULL);
    harness_free(h);
}

Test(lwm, relaxed_refetch_never_packs_inflight_thread)
{
    harness *h = run_inflight("core.lwm_refetch=relaxed", "core.lwm_pack=column");
    unsigned a = first_at_pc(h, 6);
    uint64_t ka = h->log[a].cycle;
    expect_issue(h, a, ka, 6, 0x1);
    expect_issue(h, a + 1, ka + 1, 6, 0x1);
    /* re-fetched when A's first sub-warp completes (ka + 6): at ka + 7
     * tid 32 is still in flight (its sub-warp completes at ka + 7), so only
     * tid 1 (lane 1) goes; tid 32 (lane 0) follows at ka + 8 */
    expect_issue(h, a + 2, ka + 7, 7, 0x2);
    expect_issue(h, a + 3, ka + 8, 7, 0x1);
    harness_free(h);
}

Test(lwm, perfrf_packs_one_column_twice)
{
    harness *h = run_inflight("core.lwm_refetch=strict", "core.lwm_pack=any");
    unsigned a = first_at_pc(h, 6);
    uint64_t ka = h->log[a].cycle;
    /* A's two threads (both column 0) in one sub-warp, on lanes 0 and 1 */
    expect_issue(h, a, ka, 6, 0x3);
    expect_issue(h, a + 1, ka + 7, 7, 0x3);
    harness_free(h);
}

Test(lwm, bad_sizes_are_input_errors)
{
    char *msg = NULL;
    const char *s1[] = {"core.reconv=lwm", "core.large_warp_threads=48", NULL};
    cr_assert_null(harness_try_new(s1, &msg));
    cr_expect_not_null(strstr(msg, "core.large_warp_threads"), "%s", msg);
    g_free(msg);
    const char *s2[] = {"core.reconv=lwm", "core.discipline=scoreboard", NULL};
    cr_assert_null(harness_try_new(s2, &msg));
    cr_expect_not_null(strstr(msg, "core.discipline"), "%s", msg);
    g_free(msg);
    /* the size is only checked for the policy that uses it */
    const char *s3[] = {"core.large_warp_threads=48", NULL};
    harness *h = harness_try_new(s3, &msg);
    cr_expect_not_null(h, "%s", msg ? msg : "");
    if (h)
        harness_free(h);
}

/* LWM + 2Lev: fetch groups count large warps ([P] 3.3). Four large warps
 * of one 1024-thread CTA (leaders in warp slots 0, 8, 16, 24), three ALU
 * instructions and exit, 8 sub-warps each. G = 2: the top group {LW0, LW1}
 * never stalls on a long-latency operation, so LW0 and LW1 alternate (LW0
 * at 10, 26, 42, 58; LW1 at 18, 34, 50, 66: each ready 7 cycles after its
 * last sub-warp, fetch blocked 8 cycles per instruction) and LW2 first
 * issues at 74, when both have exited. G = 4: one group, round-robin: LW2
 * at 26, after LW0 (10) and LW1 (18). */
static uint64_t first_issue_of_slot(const harness *h, unsigned warp)
{
    for (unsigned i = 0; i < h->nlog; i++)
        if (h->log[i].warp == warp)
            return h->log[i].cycle;
    cr_assert_fail("warp slot %u never issued", warp);
    return 0;
}

static const char *k_alu3 =
    "    mov r0, %tid.x\n"
    "    add r1, r0, 1\n"
    "    add r2, r1, 1\n"
    "    exit\n";

Test(lwm, two_level_groups_count_large_warps)
{
    const char *g2[] = {"core.reconv=lwm", "core.scheduler=2lev", "core.fetch_group=2", NULL};
    harness *h = harness_new(g2);
    harness_launch(h, k_alu3, 1, 1024, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(first_issue_of_slot(h, 0), 10);
    cr_expect_eq(first_issue_of_slot(h, 8), 18);
    cr_expect_eq(first_issue_of_slot(h, 16), 74);
    harness_free(h);
}

Test(lwm, two_level_one_group_of_four_is_round_robin)
{
    const char *g4[] = {"core.reconv=lwm", "core.scheduler=2lev", "core.fetch_group=4", NULL};
    harness *h = harness_new(g4);
    harness_launch(h, k_alu3, 1, 1024, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(first_issue_of_slot(h, 16), 26);
    cr_expect_eq(first_issue_of_slot(h, 24), 34);
    harness_free(h);
}
