/* Dynamic warp subdivision (core.reconv = dws; Meng, Tarjan, Skadron, DWS
 * tech report CS-2010-5, sections 4 and 5), on one SM with the ideal memory:
 * branch subdivision, PC-based and stack-based re-convergence, the WST
 * limit and the eligibility threshold. Memory subdivision needs per-lane
 * hit reports from the cache hierarchy: test/gpu/test_chip_dws.c.
 *
 * Machine: 16-thread warps on 16 lanes, a 1-stage barrel pipeline with
 * 1-cycle units, so a group issues every cycle (issue at k, fetchable
 * again at k + 1) and two groups alternate under LRR. */
#include "harness.h"

/* Even threads take the branch at pc 3 (pcs 6, 7), odd ones fall through
 * (pcs 4, 5); both paths meet at pc 8, the branch's post-dominator,
 * followed by block F = pcs 8-10 (3 instructions: eligible). */
static const char *k_ifelse =
    ".data out u32[32]\n" HARNESS_IFELSE;

#define EVEN 0x5555u
#define ODD 0xAAAAu
#define ALL 0xFFFFu

static harness *run(const char *const *extra, unsigned threads)
{
    const char *sets[16] = {"core.reconv=dws", "core.warp_size=16", "core.simd_width=16", "core.pipeline_depth=1",
                            "core.max_warps=4", "core.max_threads=64"};
    unsigned n = 6;
    for (unsigned i = 0; extra && extra[i]; i++)
        sets[n++] = extra[i];
    sets[n] = NULL;
    harness *h = harness_new(sets);
    harness_launch(h, k_ifelse, 1, threads, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < threads; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 2 ? i + 100 : 2 * i, "out[%u]", i);
    return h;
}

/* Issues of warp w at pc, and their masks (up to 4). */
static unsigned issues_at(const harness *h, unsigned w, uint32_t pc, uint32_t *masks)
{
    unsigned n = 0;
    for (unsigned i = 0; i < h->nlog; i++)
        if (h->log[i].warp == w && h->log[i].pc == pc) {
            if (n < 4)
                masks[n] = h->log[i].active;
            n++;
        }
    return n;
}

/* Issues of warp w. */
static unsigned issues_of(const harness *h, unsigned w)
{
    unsigned n = 0;
    for (unsigned i = 0; i < h->nlog; i++)
        n += h->log[i].warp == w;
    return n;
}

/* Warp w's two splits reach pc: merged (one whole issue there) or not (one
 * issue per split); `merges` PC-based merges and `issues` issues of w. */
static void expect_join(harness *h, unsigned w, uint32_t pc, uint64_t merges, unsigned issues)
{
    uint32_t m[4];
    cr_expect_eq(harness_counter(h, "sm0", "dws_merges_pc"), merges);
    if (merges) {
        cr_assert_eq(issues_at(h, w, pc, m), 1);
        cr_expect_eq(m[0], ALL);
    } else {
        cr_assert_eq(issues_at(h, w, pc, m), 2);
        cr_expect_eq(m[0] | m[1], ALL);
        cr_expect_eq(m[0] & m[1], 0);
    }
    cr_expect_eq(issues_of(h, w), issues);
}

Test(dws, branch_splits_without_push_and_both_run_block_f)
{
    harness *h = run(NULL, 16);
    uint32_t m[4];
    /* the branch at pc 3 subdivides the warp: even split at 6, odd at 4;
     * they alternate (one issue per cycle: 4 + 4 path issues back to back) */
    cr_assert_eq(harness_counter(h, "sm0", "dws_splits_branch"), 1);
    uint64_t c0 = h->log[0].cycle;
    for (unsigned i = 0; i < h->nlog; i++)
        cr_expect_eq(h->log[i].cycle, c0 + i, "issue %u at %lu: the pipeline never idles", i,
                     (unsigned long)h->log[i].cycle);
    for (unsigned i = 4; i < 8; i++)
        cr_expect(h->log[i].active == EVEN || h->log[i].active == ODD);
    cr_expect_neq(h->log[4].active, h->log[5].active, "the two splits alternate: no stack serializes them");
    cr_expect_neq(h->log[5].active, h->log[6].active);
    /* no push, so no re-convergence at pc 8: block F (8, 9) runs once per split */
    cr_assert_eq(issues_at(h, 0, 8, m), 2);
    cr_expect((m[0] == EVEN && m[1] == ODD) || (m[0] == ODD && m[1] == EVEN));
    cr_assert_eq(issues_at(h, 0, 9, m), 2);
    /* thread instructions as under Conv: 4 x 16 + 2 x 8 + 2 x 8 + 3 x 16 */
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 144);
    harness_free(h);
}

Test(dws, pc_merge_reunites_the_splits)
{
    harness *h = run(NULL, 16);
    uint32_t m[4];
    /* The split issuing second at pc 8 issues its store (pc 9) one cycle
     * after the other, whose store left it at pc 10 and ready: the check at
     * that memory instruction finds both at pc 10 and merges them, so the
     * exit issues once for the whole warp: 4 + 4 + 2 + 2 + 1 = 13 issues. */
    cr_expect_eq(harness_counter(h, "sm0", "dws_merges_pc"), 1);
    cr_assert_eq(issues_at(h, 0, 10, m), 1);
    cr_expect_eq(m[0], ALL);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 13);
    harness_free(h);
}

Test(dws, stack_only_splits_run_to_the_exit_apart)
{
    /* Without PC-based re-convergence the splits meet only at the rpc of
     * the entry they split, the warp's bottom entry (the exit): each split
     * runs 8, 9, 10 alone: 4 + 4 + 3 + 3 = 14 issues. */
    const char *x[] = {"core.dws_pc_merge=false", NULL};
    harness *h = run(x, 16);
    uint32_t m[4];
    cr_expect_eq(harness_counter(h, "sm0", "dws_merges_pc"), 0);
    cr_expect_eq(issues_at(h, 0, 10, m), 2);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 14);
    harness_free(h);
}

Test(dws, ineligible_branch_pushes_the_stack)
{
    /* Block F has 3 instructions; with a limit of 2 the branch is not
     * eligible: Conv's stack serializes the paths (even first) and they
     * re-converge at pc 8: 4 + 2 + 2 + 3 = 11 issues. */
    const char *x[] = {"core.dws_block_limit=2", NULL};
    harness *h = run(x, 16);
    uint32_t m[4];
    cr_expect_eq(harness_counter(h, "sm0", "dws_splits_branch"), 0);
    cr_assert_eq(issues_at(h, 0, 8, m), 1);
    cr_expect_eq(m[0], ALL);
    cr_expect_eq(h->log[4].pc, 6);
    cr_expect_eq(h->log[6].pc, 4);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 11);
    harness_free(h);
}

Test(dws, full_wst_prevents_subdivision)
{
    /* Two warps, a 2-entry WST: warp 0 reaches the branch first (LRR,
     * warp 0 issues first) and its two splits fill the table; warp 1's
     * divergence finds it full and pushes its stack as under Conv. */
    const char *x[] = {"core.dws_wst_entries=2", NULL};
    harness *h = run(x, 32);
    uint32_t m[4];
    cr_expect_eq(harness_counter(h, "sm0", "dws_splits_branch"), 1);
    cr_expect_eq(harness_counter(h, "sm0", "dws_push_full"), 1);
    cr_expect_eq(harness_counter(h, "sm0", "dws_wst_max"), 2);
    cr_expect_eq(issues_at(h, 0, 8, m), 2);
    cr_assert_eq(issues_at(h, 1, 8, m), 1);
    cr_expect_eq(m[0], ALL);
    harness_free(h);
}

Test(dws, ready_queue_keeps_the_issuer_until_it_waits)
{
    /* core.dws_ready_queue (MV5's switch on cache access, [M] 3.3): the
     * group that issued last keeps the pipeline while it is ready. Nothing
     * here blocks (stores do not wait), so after the branch at pc 3 the
     * split that keeps the parent's entry (even, the taken path) runs 6, 7,
     * 8, 9, 10 alone, then the odd split 4, 5, 8, 9, 10. At the even split's
     * store (pc 9) the odd one stands at pc 4, not at 10: no PC merge.
     * 4 + 5 + 5 = 14 issues. */
    const char *x[] = {"core.dws_ready_queue=true", NULL};
    harness *h = run(x, 16);
    static const uint32_t pcs[] = {0, 1, 2, 3, 6, 7, 8, 9, 10, 4, 5, 8, 9, 10};
    cr_assert_eq(h->nlog, 14);
    for (unsigned i = 0; i < 14; i++) {
        cr_expect_eq(h->log[i].pc, pcs[i], "issue %u at pc %u", i, h->log[i].pc);
        cr_expect_eq(h->log[i].active, i < 4 ? ALL : i < 9 ? EVEN : ODD, "issue %u", i);
    }
    cr_expect_eq(harness_counter(h, "sm0", "dws_merges_pc"), 0);
    harness_free(h);
}

/* The if/else of k_ifelse, then a load at the join: out[i] = r2 + in[i]
 * with in[i] = i. Issue order under the ready queue: pcs 0-3 (whole warp),
 * the even split 6, 7, 8, 9 (its load blocks it), then the odd split 4, 5,
 * 8, 9: it issues the same load 4 cycles after the even split. */
static const char *k_join_load =
    ".data in u32[16] = iota(start=0, step=1)\n"
    ".data out u32[16]\n"
    HARNESS_IFELSE_HEAD
    "    shl r3, r0, 2\n"               /* 8 */
    "    ld.global.u32 r4, [r3+@in]\n"  /* 9 */
    "    add r2, r2, r4\n"              /* 10 */
    "    st.global.u32 [r3+@out], r2\n" /* 11 */
    "    exit\n";                       /* 12 */

/* One CTA of `threads` under the ready queue with settings x1, x2 (x2 may
 * be NULL); the last warp's threads i write out[i] = r2 + in[i]. */
static harness *run_load(const char *kernel, unsigned threads, const char *x1, const char *x2)
{
    const char *sets[] = {"core.reconv=dws", "core.warp_size=16", "core.simd_width=16", "core.pipeline_depth=1",
                          "core.max_warps=4", "core.max_threads=64", "core.dws_ready_queue=true", x1, x2, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, kernel, 1, threads, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = threads - 16; i < threads; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), (i % 2 ? i + 100 : 2 * i) + i, "out[%u]", i);
    return h;
}

static harness *run_join_load(const char *latency) { return run_load(k_join_load, 16, latency, NULL); }

Test(dws, pc_merge_into_a_split_blocked_on_its_load)
{
    /* Short memory latency: the even split's load is back before the odd
     * split issues the same load (4 cycles later), so the even split is
     * ready at pc 10 when the odd one, now blocked on its own load, reaches
     * pc 10: it merges into the blocked issuer ([M] 4.5, r.mask |= q.mask)
     * and the warp issues 10, 11, 12 once, whole, after the odd split's
     * load: 4 + 4 + 4 + 3 = 15 issues. */
    harness *h = run_join_load("mem.ideal_latency=2");
    static const uint32_t pcs[] = {0, 1, 2, 3, 6, 7, 8, 9, 4, 5, 8, 9, 10, 11, 12};
    cr_assert_eq(h->nlog, 15);
    for (unsigned i = 0; i < 15; i++)
        cr_expect_eq(h->log[i].pc, pcs[i], "issue %u at pc %u", i, h->log[i].pc);
    expect_join(h, 0, 10, 1, 15);
    /* the merged group waits for the issuer's load: pc 10 issues no earlier
     * than the odd split's load (pc 9, issue 11) plus the memory latency */
    cr_expect_geq(h->log[h->nlog - 3].cycle, h->log[11].cycle + 2);
    harness_free(h);
}

Test(dws, no_pc_merge_while_the_other_split_still_waits)
{
    /* Long latency (100 cycles): when the odd split issues its load the
     * even one still waits on its own, so it is not ready and nothing
     * merges; each split issues 10, 11, 12 alone: 4 + 4 + 4 + 3 + 3 = 18. */
    harness *h = run_join_load("mem.ideal_latency=100");
    expect_join(h, 0, 10, 0, 18);
    harness_free(h);
}

/* ---- explicit barriers and resumed splits ------------------------------ */

/* k_ifelse with a CTA barrier at the join: both splits reach pc 8 apart. */
static const char *k_ifelse_bar =
    ".data out u32[16]\n"
    HARNESS_IFELSE_HEAD
    "    bar.sync\n"                      /* 8 */
    "    shl r3, r0, 2\n"                 /* 9 */
    "    st.global.u32 [r3+@out], r2\n"   /* 10 */
    "    exit\n";                         /* 11 */

static harness *run_bar(void)
{
    /* PC-based re-convergence off, so only the barrier can reunite them */
    const char *sets[] = {"core.reconv=dws",      "core.warp_size=16",   "core.simd_width=16",
                          "core.pipeline_depth=1", "core.max_warps=4",   "core.max_threads=64",
                          "core.dws_pc_merge=false", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_ifelse_bar, 1, 16, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), i % 2 ? i + 100 : 2 * i, "out[%u]", i);
    return h;
}

Test(dws, splits_reconverge_at_a_cta_barrier)
{
    /* [M] 5.4: warp-splits "simply re-converge" at explicit
     * synchronization. The branch at pc 3 is eligible (the block at its
     * post-dominator, the barrier, is 1 instruction) and splits the warp;
     * each split issues its path and the barrier (pcs 6, 7, 8 and 4, 5, 8);
     * once the barrier lets them go they stand at pc 9 with the same stack
     * and merge: pcs 9, 10, 11 issue once, whole. 4 + 3 + 3 + 3 = 13
     * issues (without the merge each split would issue 9-11: 16). */
    harness *h = run_bar();
    uint32_t m[4];
    cr_expect_eq(harness_counter(h, "sm0", "dws_splits_branch"), 1);
    cr_expect_eq(harness_counter(h, "sm0", "dws_merges_bar"), 1);
    cr_assert_eq(issues_at(h, 0, 8, m), 2);
    cr_assert_eq(issues_at(h, 0, 9, m), 1);
    cr_expect_eq(m[0], ALL);
    cr_assert_eq(issues_at(h, 0, 11, m), 1);
    cr_expect_eq(m[0], ALL);
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 13);
    harness_free(h);
}

/* Warp 0 (threads 0-15) blocks on a load, then runs a 40-trip loop of 3
 * ALU instructions (120 issues without a stall); warp 1 (16-31) splits
 * even/odd and both splits issue the same load (pc 11). */
static const char *k_resume =
    ".data in u32[32] = iota(start=0, step=1)\n"
    ".data out u32[32]\n"
    "    mov r0, %tid.x\n"                /* 0 */
    "    setp.lt.u32 p1, r0, 16\n"        /* 1 */
    "    @p1 bra busy\n"                  /* 2: warp 0 all taken, warp 1 none */
    "    and r1, r0, 1\n"                 /* 3 */
    "    setp.eq.u32 p0, r1, 0\n"         /* 4 */
    "    @p0 bra even\n"                  /* 5 */
    "    add r2, r0, 100\n"               /* 6: odd */
    "    bra join\n"                      /* 7 */
    "even:\n"
    "    mul r2, r0, 2\n"                 /* 8 */
    "    bra join\n"                      /* 9 */
    "join:\n"
    "    shl r3, r0, 2\n"                 /* 10 */
    "    ld.global.u32 r4, [r3+@in]\n"    /* 11 */
    "    add r2, r2, r4\n"                /* 12 */
    "    st.global.u32 [r3+@out], r2\n"   /* 13 */
    "    exit\n"                          /* 14 */
    "busy:\n"
    "    shl r3, r0, 2\n"                 /* 15 */
    "    ld.global.u32 r4, [r3+@in]\n"    /* 16 */
    "    mov r5, 0\n"                     /* 17 */
    "loop:\n"
    "    add r5, r5, 1\n"                 /* 18 */
    "    setp.lt.u32 p2, r5, 40\n"        /* 19 */
    "    @p2 bra loop\n"                  /* 20 */
    "    exit\n";                         /* 21 */

static harness *run_resume(const char *resume) { return run_load(k_resume, 32, "mem.ideal_latency=30", resume); }

Test(dws, pc_merge_when_a_split_resumes_at_its_load)
{
    /* Ready queue, 30-cycle memory. Cycle 0: warp 0 (oldest) issues 0, 1,
     * 2, 15, 16 and blocks on its load (cycle 4, back about 30 later).
     * Warp 1: 0-5 (cycles 5-10, splits at 5), the even split 8, 9, 10, 11
     * (blocks at 14), the odd split 6, 7, 10, 11 (blocks at 18). Warp 0's
     * load is back first (~34 < the splits' ~44 and ~48): it keeps the
     * pipeline through its 120-issue loop, so when it exits both splits
     * stand ready at pc 12. The even split resumes first (it issued
     * longer ago) after its load, the PCs are compared ([M] 4.5: resumed
     * splits start with memory instructions) and the odd split merges:
     * 12, 13, 14 issue once, whole. Warp 1: 6 + 4 + 4 + 3 = 17 issues. */
    harness *h = run_resume("core.dws_pc_merge_resume=true");
    expect_join(h, 1, 12, 1, 17);
    harness_free(h);
}

Test(dws, no_merge_on_resume_when_disabled)
{
    /* The same without the compare on resume: nothing merges (at the odd
     * split's load no group is ready), each split issues 12, 13, 14 alone:
     * 6 + 4 + 4 + 3 + 3 = 20 issues of warp 1. */
    harness *h = run_resume("core.dws_pc_merge_resume=false");
    expect_join(h, 1, 12, 0, 20);
    harness_free(h);
}

/* ---- merges across loop trips ([M] 5.3.2) --------------------------------- */

/* Even threads enter the loop one trip ahead (r5 = 1: 2 trips), odd ones at
 * r5 = 0 (3 trips); the branch at pc 3 is eligible (the block at its
 * post-dominator, pc 8, has 5 instructions) and splits them. out[i] = 3. */
static const char *k_trips =
    ".data in u32[16] = iota(start=0, step=1)\n"
    ".data out u32[16]\n"
    "    mov r0, %tid.x\n"                /* 0 */
    "    and r1, r0, 1\n"                 /* 1 */
    "    setp.eq.u32 p0, r1, 0\n"         /* 2 */
    "    @p0 bra even\n"                  /* 3 */
    "    mov r5, 0\n"                     /* 4: odd */
    "    bra loop\n"                      /* 5 */
    "even:\n"
    "    mov r5, 1\n"                     /* 6 */
    "    bra loop\n"                      /* 7 */
    "loop:\n"
    "    shl r3, r0, 2\n"                 /* 8 */
    "    ld.global.u32 r4, [r3+@in]\n"    /* 9 */
    "    add r5, r5, 1\n"                 /* 10 */
    "    setp.lt.u32 p2, r5, 3\n"         /* 11 */
    "    @p2 bra loop\n"                  /* 12: backward */
    "    st.global.u32 [r3+@out], r5\n"   /* 13 */
    "    exit\n";                         /* 14 */

/* Runs k_trips with core.dws_loop_split as given and checks: one PC-based
 * merge (across trips), `splits` branch splits, pc 13 issued `at13` times
 * (once whole, or once per split) and `issues` issues of the warp. */
static void check_trips(const char *loop_split, uint64_t splits, unsigned at13, unsigned issues)
{
    const char *sets[] = {"core.reconv=dws",       "core.warp_size=16", "core.simd_width=16",
                          "core.pipeline_depth=1", "core.max_warps=4",  "core.max_threads=64",
                          "core.dws_ready_queue=true", "mem.ideal_latency=2", loop_split, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_trips, 1, 16, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(harness_read_u32(h, 0, "out", i), 3, "out[%u]", i);
    uint32_t m[4];
    cr_expect_eq(harness_counter(h, "sm0", "dws_merges_pc"), 1);
    cr_expect_eq(harness_counter(h, "sm0", "dws_splits_branch"), splits);
    cr_assert_eq(issues_at(h, 0, 13, m), at13);
    if (at13 == 1)
        cr_expect_eq(m[0], ALL);
    else
        cr_expect((m[0] == EVEN && m[1] == ODD) || (m[0] == ODD && m[1] == EVEN));
    cr_expect_eq(issues_of(h, 0), issues);
    harness_free(h);
}

Test(dws, pc_merge_joins_splits_of_different_trips_then_the_loop_branch_splits)
{
    /* As in pc_merge_into_a_split_blocked_on_its_load: the even split runs
     * 6, 7, 8, 9 and blocks on its load (2 cycles); the odd split runs 4,
     * 5, 8, 9 and at its load finds the even one ready at pc 10: they merge
     * although the even threads are one trip ahead (the paper's rule: [M]
     * 5.3.2 re-unites splits at the same pc "despite potentially being a
     * few iterations ahead"). The whole warp runs 10-12 and trip 2 (8-12);
     * then the even threads (r5 = 3) leave the loop and the odd ones
     * (r5 = 2) go on: the backward branch at pc 12 diverges and, being
     * eligible (block 13-14), subdivides (core.dws_loop_split = true, the
     * default): 2 branch splits. The odd split runs trip 3 (8-12) and 13,
     * 14, the even one 13, 14: 4 + 4 + 4 + 3 + 5 + 5 + 2 + 2 = 29 issues,
     * pc 13 twice. */
    check_trips("core.dws_loop_split=true", 2, 2, 29);
}

Test(dws, no_loop_split_reconverges_merged_trips_at_the_loop_exit)
{
    /* The same with core.dws_loop_split = false: the divergent backward
     * branch at pc 12 pushes the warp's stack (reconvergence at pc 13), the
     * odd threads run trip 3 (8-12) while the even ones wait at 13, and
     * 13, 14 issue once, whole: 1 branch split (pc 3), 4 + 4 + 4 + 3 + 5 +
     * 5 + 2 = 27 issues. */
    check_trips("core.dws_loop_split=false", 1, 1, 27);
}
