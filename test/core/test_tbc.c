/* Thread block compaction (core.reconv = tbc; reconv_tbc.c): hand-worked
 * issue timelines on the default core (barrel, depth 7, 1-cycle ALU and
 * branch: an instruction issued at k completes at k + 6 and its warp may be
 * fetched again at k + 7; the first fetch is at cycle 10). */
#include <string.h>

#include "harness.h"

#define FULL UINT32_MAX

static void expect_issue(const harness *h, unsigned i, uint64_t cycle, uint32_t pc, uint32_t active,
                         unsigned warp)
{
    cr_assert(i < h->nlog, "issue %u of %u", i, h->nlog);
    cr_expect_eq(h->log[i].cycle, cycle, "issue %u at %lu, expected %lu", i, (unsigned long)h->log[i].cycle,
                 (unsigned long)cycle);
    cr_expect_eq(h->log[i].pc, pc, "issue %u: pc %u, expected %u", i, h->log[i].pc, pc);
    cr_expect_eq(h->log[i].active, active, "issue %u: mask %x, expected %x", i, h->log[i].active, active);
    cr_expect_eq(h->log[i].warp, warp, "issue %u: warp slot %u, expected %u", i, h->log[i].warp, warp);
}

/* A block of two warps (64 threads). Branch 1 is taken by row 0's lanes
 * 0-15 (tid 0-15) and row 1's lanes 16-31 (tid 48-63): each path holds two
 * half-empty warps whose lanes do not collide, so each is compacted into
 * one full warp. Branch 2 is taken by every thread: no divergence, but the
 * block's two warps still synchronise there. */
static const char *k_halves =
    ".data out u32[64]\n"
    "    mov r0, %tid.x\n"                /* 0 */
    "    shr r1, r0, 4\n"                 /* 1 */
    "    and r1, r1, 1\n"                 /* 2: lanes 16-31 */
    "    shr r2, r0, 5\n"                 /* 3: row */
    "    setp.eq.u32 p0, r1, r2\n"        /* 4 */
    "    @p0 bra T\n"                     /* 5: branch 1 */
    "    add r3, r0, 1000\n"              /* 6 */
    "    bra join\n"                      /* 7 */
    "T:\n"
    "    mul r3, r0, 2\n"                 /* 8 */
    "    bra join\n"                      /* 9 */
    "join:\n"
    "    setp.lt.u32 p1, r0, 64\n"        /* 10 */
    "    @p1 bra store\n"                 /* 11: branch 2, always taken */
    "    mov r3, 0\n"                     /* 12 */
    "store:\n"
    "    shl r4, r0, 2\n"                 /* 13 */
    "    st.global.u32 [r4+@out], r3\n"   /* 14 */
    "    exit\n";                         /* 15 */

static void check_halves(const char *sched)
{
    const char *sets[] = {"core.reconv=tbc", "core.tbc_block_threads=64", sched, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_halves, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* pcs 0..5: warps 0 and 1 at 10 + 7 pc and one cycle later. Branch 1:
     * warp 0 may be fetched at 52, warp 1 at 53: the block resumes at 53. */
    unsigned i = 0;
    for (unsigned pc = 0; pc <= 5; pc++) {
        expect_issue(h, i++, 10 + 7 * pc, pc, FULL, 0);
        expect_issue(h, i++, 11 + 7 * pc, pc, FULL, 1);
    }
    /* taken path (pc 8, 9): one compacted warp, lanes 0-15 from row 0 and
     * 16-31 from row 1, at 53 and 60; its jump reaches the reconvergence
     * pc (pop); the fall-through path, compacted the same way, at 67 and
     * 74; then the reconverged block, two warps again, at 81/82 (pc 10) */
    expect_issue(h, i++, 53, 8, FULL, 0);
    expect_issue(h, i++, 60, 9, FULL, 0);
    expect_issue(h, i++, 67, 6, FULL, 0);
    expect_issue(h, i++, 74, 7, FULL, 0);
    expect_issue(h, i++, 81, 10, FULL, 0);
    expect_issue(h, i++, 82, 10, FULL, 1);
    /* branch 2 at 88/89: warp 0 could go on at 95 (under PDOM it would)
     * but waits for warp 1 (96): pc 13 at 96/97, the store at 103/104,
     * exit at 110/111 */
    expect_issue(h, i++, 88, 11, FULL, 0);
    expect_issue(h, i++, 89, 11, FULL, 1);
    for (unsigned pc = 13; pc <= 15; pc++) {
        expect_issue(h, i++, 96 + 7 * (pc - 13), pc, FULL, 0);
        expect_issue(h, i++, 97 + 7 * (pc - 13), pc, FULL, 1);
    }
    cr_expect_eq(h->nlog, i);
    /* 26 warp instructions instead of PDOM's 30: each path issued once */
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 26);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 64 * 11 + 32 * 2 + 32 * 2);
    /* syncs: branch 1, the two pops, branch 2, exit; compactions: the two
     * paths (one warp each instead of two); stalls: warp 0 waited one cycle
     * at each branch (the exit frees the block: nobody waits) */
    cr_expect_eq(harness_counter(h, "sm0", "tbc_syncs"), 5);
    cr_expect_eq(harness_counter(h, "sm0", "tbc_compactions"), 2);
    cr_expect_eq(harness_counter(h, "sm0", "tbc_warps_saved"), 2);
    cr_expect_eq(harness_counter(h, "sm0", "tbc_warps_formed"), 2 + 1 + 1 + 2 + 2);
    cr_expect_eq(harness_counter(h, "sm0", "tbc_sync_stall"), 2);
    for (unsigned t = 0; t < 64; t++) {
        bool taken = ((t >> 4) & 1) == (t >> 5);
        cr_expect_eq(harness_read_u32(h, 0, "out", t), taken ? 2 * t : t + 1000, "out[%u]", t);
    }
    harness_free(h);
}

Test(tbc, compacts_two_half_warps_and_resynchronises)
{
    check_halves("core.scheduler=lrr");
}

/* One block: sticky round-robin issues in the same order. */
Test(tbc, same_timeline_under_srr)
{
    check_halves("core.scheduler=srr");
}

/* Two 32-thread blocks (tbc_block_threads = 32): each warp is its own
 * block, so nothing is compacted and each warp synchronises only with
 * itself: warp 0 goes on at 52, not 53. */
Test(tbc, one_warp_blocks_do_not_wait)
{
    const char *sets[] = {"core.reconv=tbc", "core.tbc_block_threads=32", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_halves, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert(h->nlog > 13);
    expect_issue(h, 12, 52, 8, 0x0000FFFF, 0);
    expect_issue(h, 13, 53, 8, 0xFFFF0000, 1);
    cr_expect_eq(harness_counter(h, "sm0", "tbc_compactions"), 0);
    cr_expect_eq(harness_counter(h, "sm0", "tbc_sync_stall"), 0);
    harness_free(h);
}

Test(tbc, bad_block_sizes_are_input_errors)
{
    char *msg = NULL;
    const char *s1[] = {"core.reconv=tbc", "core.tbc_block_threads=48", NULL};
    cr_assert_null(harness_try_new(s1, &msg));
    cr_expect_not_null(strstr(msg, "core.tbc_block_threads"), "%s", msg);
    g_free(msg);
    const char *s2[] = {"core.reconv=tbc", "core.discipline=scoreboard", NULL};
    cr_assert_null(harness_try_new(s2, &msg));
    cr_expect_not_null(strstr(msg, "core.discipline"), "%s", msg);
    g_free(msg);
}
