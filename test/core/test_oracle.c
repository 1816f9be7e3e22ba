/* ORACLE reconvergence (Fung's DWF thesis, section 3.3, Figs. 3.3-3.4):
 * the alignment of per-thread traces alone, then the thesis's contrived
 * example in an SM, where ORACLE lets the even threads run one iteration
 * ahead and issues fewer instructions than PDOM. */
#include <string.h>

#include "core/oracle_align.h"
#include "harness.h"

static unsigned ncols(GArray *a) { return a->len; }
static oracle_col col(GArray *a, unsigned i) { return g_array_index(a, oracle_col, i); }

/* Barriers cut the traces: lane 0 = 1 B 2 3, lane 1 = B 1 2 3 (B = pc 9, a
 * barrier). Segment 0 aligns (1 B) with (B): 1{0}, B{0,1}; segment 1 (2 3)
 * with (1 2 3): 1{1}, 2{0,1}, 3{0,1}. Five columns and one barrier column
 * holding both lanes (an LCS of the whole traces could leave B unmatched). */
Test(oracle, barriers_align_in_one_column)
{
    uint8_t is_bar[10] = {0};
    is_bar[9] = 1;
    const uint32_t t0[] = {1, 9, 2, 3}, t1[] = {9, 1, 2, 3};
    const uint32_t *tr[2] = {t0, t1}, len[2] = {4, 4};
    GArray *out = g_array_new(FALSE, FALSE, sizeof(oracle_col));
    oracle_align_stats st = {0};
    oracle_align(tr, len, 0x3, NULL, is_bar, 1000, out, &st);
    const oracle_col want[] = {{1, 1}, {9, 3}, {1, 2}, {2, 3}, {3, 3}};
    cr_assert_eq(ncols(out), 5u);
    for (unsigned i = 0; i < 5; i++) {
        cr_expect_eq(col(out, i).pc, want[i].pc, "column %u", i);
        cr_expect_eq(col(out, i).mask, want[i].mask, "column %u", i);
    }
    cr_expect_eq(st.segments, 2u);
    cr_expect_eq(st.chosen[0], 2u);
    g_array_free(out, TRUE);
}

/* Lane 0 = 1 2 3, lanes 1 and 2 = 1 3. Exact (LCS) alignment: 1{012},
 * 2{0}, 3{012}: 3 columns. With core.oracle_dp_cells = 0 majority merging
 * takes 1{012}, then pc 3 (two lanes) before pc 2 (one): 3{12}, 2{0},
 * 3{0}: 4 columns. */
Test(oracle, exact_versus_majority_merging)
{
    uint8_t is_bar[4] = {0};
    const uint32_t a[] = {1, 2, 3}, b[] = {1, 3};
    const uint32_t *tr[3] = {a, b, b}, len[3] = {3, 2, 2};
    GArray *out = g_array_new(FALSE, FALSE, sizeof(oracle_col));
    oracle_align_stats st = {0};
    oracle_align(tr, len, 0x7, NULL, is_bar, 1000, out, &st);
    cr_assert_eq(ncols(out), 3u);
    cr_expect_eq(col(out, 1).pc, 2u);
    cr_expect_eq(col(out, 1).mask, 1u);
    cr_expect_eq(col(out, 2).mask, 7u);
    g_array_set_size(out, 0);
    oracle_align(tr, len, 0x7, NULL, is_bar, 0, out, &st);
    const oracle_col want[] = {{1, 7}, {3, 6}, {2, 1}, {3, 1}};
    cr_assert_eq(ncols(out), 4u);
    for (unsigned i = 0; i < 4; i++) {
        cr_expect_eq(col(out, i).pc, want[i].pc, "column %u", i);
        cr_expect_eq(col(out, i).mask, want[i].mask, "column %u", i);
    }
    cr_expect_eq(st.segments, 2u);
    cr_expect_eq(st.chosen[0], 1u);
    cr_expect_eq(st.chosen[2], 1u);
    g_array_free(out, TRUE);
}

/* The thesis's contrived example (Fig. 3.3): for (i = tid % 2; i < 4; i++)
 * if (i % 2) { 3-instruction body }. One warp of 4 threads (even, odd, even,
 * odd). Per iteration: E = pcs 3 4 5 9 10 11 (i even: 6 issues), O = pcs
 * 3..11 (i odd: 9). Even threads: prologue 0-2, E O E O, epilogue 12-14:
 * 3 + 6 + 9 + 6 + 9 + 3 = 36 instructions; odd ones: 3 + O E O + 3 = 30.
 * PDOM: the warp runs iterations in lockstep (even i = k, odd i = k + 1), each
 * with the body for one parity: 3 x 9; then the even threads' last iteration
 * (i = 3, odd: 9) alone; 3 + 27 + 9 + 3 = 42 issues. ORACLE: the odd trace is
 * a subsequence of the even one, so the alignment is the even trace: 36
 * issues. Thread instructions are equal: 2 x 36 + 2 x 30 = 132. Every thread
 * counts the odd i among its iterations: 1 and 3, so out = 2. */
static const char contrived[] =
    ".data out u32[4]\n"
    "    mov r0, %tid.x\n"             /* 0 */
    "    and r1, r0, 1\n"              /* 1: i = tid % 2 */
    "    mov r2, 0\n"                  /* 2 */
    "loop:\n"
    "    and r3, r1, 1\n"              /* 3 */
    "    setp.eq.u32 p0, r3, 0\n"      /* 4 */
    "    @p0 bra next\n"               /* 5: i even skips the body */
    "    add r2, r2, 1\n"              /* 6 */
    "    add r4, r4, 3\n"              /* 7 */
    "    add r5, r5, 5\n"              /* 8 */
    "next:\n"
    "    add r1, r1, 1\n"              /* 9 */
    "    setp.lt.u32 p1, r1, 4\n"      /* 10 */
    "    @p1 bra loop\n"               /* 11 */
    "    shl r3, r0, 2\n"              /* 12 */
    "    st.global.u32 [r3+@out], r2\n" /* 13 */
    "    exit\n";                      /* 14 */

typedef struct counts {
    uint64_t warp_insts, thread_insts, columns;
    uint32_t out[4];
} counts;

static void run_contrived(void *ctx, void *res)
{
    const char *sets[] = {ctx, NULL};
    counts *c = res;
    harness *h = harness_new(sets);
    harness_launch(h, contrived, 1, 4, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 100000));
    c->warp_insts = harness_counter(h, "sm0", "warp_insts");
    c->thread_insts = harness_counter(h, "sm0", "thread_insts");
    for (unsigned i = 0; i < 4; i++)
        c->out[i] = harness_read_u32(h, 0, "out", i);
    harness_free(h);
}

Test(oracle, contrived_example_runs_ahead_of_pdom)
{
    counts pd, orc;
    harness_fork(run_contrived, "core.reconv=pdom", &pd, sizeof pd);
    harness_fork(run_contrived, "core.reconv=oracle", &orc, sizeof orc);
    cr_expect_eq(pd.warp_insts, 42u);
    cr_expect_eq(orc.warp_insts, 36u);
    cr_expect_eq(pd.thread_insts, 132u);
    cr_expect_eq(orc.thread_insts, 132u);
    for (unsigned i = 0; i < 4; i++) {
        cr_expect_eq(pd.out[i], 2u, "pdom out[%u]", i);
        cr_expect_eq(orc.out[i], 2u, "oracle out[%u]", i);
    }
}

/* A path that depends on timing: every thread adds 1 to one global counter
 * and the one that sees 0 takes a longer path. Each CTA's pre-pass runs
 * alone on the memory as it was at its arrival (both arrive at cycle 0), so
 * both CTAs' thread 0 recorded the long path; in the timed run only one
 * thread of the two CTAs sees 0, so the other leaves its recorded path and
 * the run stops with an error naming the ORACLE and the thread. */
Test(oracle, timing_dependent_path_is_an_error)
{
    const char *sets[] = {"core.reconv=oracle", NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data cnt u32[1]\n"
                   "    atom.global.add.u32 r1, [@cnt], 1\n" /* 0 */
                   "    setp.ne.u32 p0, r1, 0\n"            /* 1 */
                   "    @p0 bra done\n"                     /* 2 */
                   "    add r2, r2, 1\n"                    /* 3 */
                   "done:\n"
                   "    exit\n",                            /* 4 */
                   2, 1, NULL, 0, 0, -1);
    des_set_limit(h->e, des_cycles(&h->clk[0], 100000));   /* harness_run asserts no error */
    des_run(h->e);
    const char *e0 = sm_error(h->sms[0]), *e1 = h->nsms > 1 ? sm_error(h->sms[1]) : NULL;
    const char *e = e0 ? e0 : e1;
    cr_assert_not_null(e);
    cr_expect(strstr(e, "ORACLE") && strstr(e, "left its recorded path"), "%s", e);
    harness_free(h);
}

/* The PDOM candidate on the reconvergence tests' if/else kernel
 * (harness.h): lane 0 (even) runs 0 1 2 3 6 7 8 9 10, lane 1 (odd) 0 1 2 3
 * 4 5 8 9 10. Without the exact alignment (core.oracle_dp_cells = 0) PDOM's
 * schedule is 0-3{01}, the taken path 6{0} 7{0}, then 4{1} 5{1}, and
 * 8-10{01}: 11 columns. Majority merging ties at 6/4 and keeps the lower
 * lane's pc until lane 0 has finished (6 7 8 9 10 alone, then lane 1's 4 5
 * 8 9 10): 4 + 5 + 5 = 14 columns. PDOM's is kept. */
Test(oracle, pdom_schedule_when_shorter)
{
    GError *err = NULL;
    isa_program *p = isa_program_parse(".data out u32[64]\n" HARNESS_IFELSE, "ifelse.sasm", &err);
    cr_assert_not_null(p, "%s", err ? err->message : "");
    uint8_t is_bar[11] = {0};
    const uint32_t even[] = {0, 1, 2, 3, 6, 7, 8, 9, 10}, odd[] = {0, 1, 2, 3, 4, 5, 8, 9, 10};
    const uint32_t *tr[2] = {even, odd}, len[2] = {9, 9};
    GArray *out = g_array_new(FALSE, FALSE, sizeof(oracle_col));
    oracle_align_stats st = {0};
    oracle_align(tr, len, 0x3, p, is_bar, 0, out, &st);
    const oracle_col want[] = {{0, 3}, {1, 3}, {2, 3}, {3, 3}, {6, 1}, {7, 1},
                               {4, 2}, {5, 2}, {8, 3}, {9, 3}, {10, 3}};
    cr_assert_eq(ncols(out), 11u);
    for (unsigned i = 0; i < 11; i++) {
        cr_expect_eq(col(out, i).pc, want[i].pc, "column %u", i);
        cr_expect_eq(col(out, i).mask, want[i].mask, "column %u", i);
    }
    cr_expect_eq(st.chosen[1], 1u);
    g_array_free(out, TRUE);
    isa_program_free(p);
}
