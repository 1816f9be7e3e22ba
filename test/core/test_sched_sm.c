/* Issue order of the schedulers on constructed kernels, in the SM.
 *
 * k_mov_ld: each warp does `mov; ld (one line, answered 100 cycles after
 * it is sent); exit`. In the 7-stage barrel pipeline a warp issued at k is
 * fetchable again at k + 7; 16 warps of one CTA arrive at cycle 10. */
#include "harness.h"

static const char *k_mov_ld =
    ".data a u32[1]\n"
    "mov r0, %tid.x\n"
    "ld.global.u32 r1, [@a]\n"
    "exit\n";

/* Checks the first n issues: warp w[i] issued pc p[i] at cycle 10 + i. */
static void expect_order(const harness *h, unsigned n, const unsigned *w, const unsigned *p)
{
    cr_assert(h->nlog >= n);
    for (unsigned i = 0; i < n; i++) {
        cr_expect_eq(h->log[i].cycle, 10 + i, "issue %u at %lu", i, (unsigned long)h->log[i].cycle);
        cr_expect_eq(h->log[i].warp, w[i], "issue %u: warp %u, expected %u", i, h->log[i].warp, w[i]);
        cr_expect_eq(h->log[i].pc, p[i], "issue %u: pc %u, expected %u", i, h->log[i].pc, p[i]);
    }
}

/* LRR: the movs of warps 0..15 at 10..25, then their loads at 26..41 */
static void lrr_order(unsigned *w, unsigned *p)
{
    for (unsigned i = 0; i < 32; i++) {
        w[i] = i % 16;
        p[i] = i / 16;
    }
}

Test(sched_sm, lrr)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    unsigned w[32], p[32];
    lrr_order(w, p);
    expect_order(h, 32, w, p);
    /* warp 15's load @41 is answered at 141: exit @142, done 148 */
    cr_expect_eq(harness_end(h, 0), 148);
    harness_free(h);
}

/* Two-level, G = 8, trigger (a): group 0 (warps 0-7) movs at 10..17 (at 17
 * warp 0 is fetchable again but round-robin gives warp 7 its first turn),
 * its loads at 18..25; at 26 every warp of group 0 waits on memory: group
 * 1 supplies and becomes the top: movs of 8-15 at 26..33, loads at 34..41. */
static void twolev_g8_order(unsigned *w, unsigned *p)
{
    for (unsigned i = 0; i < 32; i++) {
        w[i] = (i / 16) * 8 + i % 8;
        p[i] = (i / 8) % 2;
    }
}

Test(sched_sm, two_level_longlat_g8)
{
    const char *sets[] = {"core.scheduler=2lev", "core.fetch_group=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    unsigned w[32], p[32];
    twolev_g8_order(w, p);
    expect_order(h, 32, w, p);
    cr_expect_eq(harness_end(h, 0), 148);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "group_switches") >= 1, 1);
    harness_free(h);
}

/* Trigger (b) with G = 8 >= the pipeline depth: a group always has a
 * fetchable warp until it waits on memory, so the order is the same as (a). */
Test(sched_sm, two_level_nofetch_g8)
{
    const char *sets[] = {"core.scheduler=2lev", "core.fetch_group=8", "core.2lev_trigger=nofetch", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    unsigned w[32], p[32];
    twolev_g8_order(w, p);
    expect_order(h, 32, w, p);
    harness_free(h);
}

/* Trigger (b) with G = 4 < 7 stages ([P] 3.2: premature switching): group
 * g issues its 4 movs, then finds no fetchable warp (all in flight) and
 * rotates; 10..25 are the movs of 0..15, group by group, then at 26 group
 * 0 is fetchable again: the loads follow in the same order. Plain RR. */
Test(sched_sm, two_level_nofetch_g4_is_round_robin)
{
    const char *sets[] = {"core.scheduler=2lev", "core.fetch_group=4", "core.2lev_trigger=nofetch", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    unsigned w[32], p[32];
    lrr_order(w, p);
    expect_order(h, 32, w, p);
    harness_free(h);
}

/* The timeout (4 instructions) forces a switch every 4 fetches from the top
 * group: movs of 0-3 (g0), 8-11 (g1), 4-7 (g0), 12-15 (g1), then the
 * loads in the same order; round-robin inside a group resumes after the
 * warp it issued last. */
Test(sched_sm, two_level_timeout)
{
    const char *sets[] = {"core.scheduler=2lev", "core.fetch_group=8", "core.2lev_timeout=4", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    const unsigned blocks[4] = {0, 8, 4, 12};
    unsigned w[32], p[32];
    for (unsigned i = 0; i < 32; i++) {
        w[i] = blocks[(i / 4) % 4] + i % 4;
        p[i] = i / 16;
    }
    expect_order(h, 32, w, p);
    cr_expect_geq(harness_counter(h, "sm0.sched0", "group_timeouts"), 8, "8 in the first 32 fetches");
    harness_free(h);
}

/* GTO against LRR under the scoreboard: four independent movs and an exit
 * per warp, 2 warps. GTO keeps warp 0 until its exit (a control
 * instruction: nothing more to fetch), then takes warp 1; LRR alternates. */
static const char *k_indep =
    "mov r0, 1\n"
    "mov r1, 2\n"
    "mov r2, 3\n"
    "mov r3, 4\n"
    "exit\n";

Test(sched_sm, gto_greedy_scoreboard)
{
    const char *sets[] = {"core.scheduler=gto", "core.discipline=scoreboard", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_indep, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    unsigned w[10] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    unsigned p[10] = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4};
    expect_order(h, 10, w, p);
    /* warp 1's exit @19, done 25 */
    cr_expect_eq(harness_end(h, 0), 25);
    harness_free(h);
}

Test(sched_sm, lrr_alternates_scoreboard)
{
    const char *sets[] = {"core.discipline=scoreboard", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_indep, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    unsigned w[10] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    unsigned p[10] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4};
    expect_order(h, 10, w, p);
    cr_expect_eq(harness_end(h, 0), 25);
    harness_free(h);
}

/* GTO under barrel: the greedy warp is in flight, so the oldest fetchable
 * warp goes (warps are as old as their slot: one CTA). */
Test(sched_sm, gto_barrel_oldest_first)
{
    const char *sets[] = {"core.scheduler=gto", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 10..16: warps 0..6; 17: warp 0 is fetchable again and older than 7;
     * 18: warp 1 (fetchable since 18) is older than 7, and so on: warp 7
     * waits until every older warp is in flight or on memory (24) */
    unsigned w[16] = {0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 8};
    unsigned p[16] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    expect_order(h, 16, w, p);
    harness_free(h);
}

/* Two schedulers: even warps on scheduler 0, odd on 1; each issues one
 * instruction per cycle. */
Test(sched_sm, two_schedulers_even_odd)
{
    const char *sets[] = {"core.schedulers=2", "core.alu_units=2", "core.branch_units=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nexit\n", 1, 128, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* cycle 10: warp 0 (sched 0) and warp 1 (sched 1); 11: warps 2 and 3;
     * exits at 17 and 18; the last done 18 + 6 = 24 */
    cr_assert_eq(h->nlog, 8);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[0].warp, 0);
    cr_expect_eq(h->log[0].sched, 0);
    cr_expect_eq(h->log[1].cycle, 10);
    cr_expect_eq(h->log[1].warp, 1);
    cr_expect_eq(h->log[1].sched, 1);
    cr_expect_eq(h->log[2].cycle, 11);
    cr_expect_eq(h->log[2].warp, 2);
    cr_expect_eq(h->log[3].cycle, 11);
    cr_expect_eq(h->log[3].warp, 3);
    cr_expect_eq(harness_end(h, 0), 24);
    harness_free(h);
}

/* Two schedulers sharing one ALU: scheduler 0 takes it first each cycle */
Test(sched_sm, two_schedulers_one_alu)
{
    const char *sets[] = {"core.schedulers=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nexit\n", 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 10: warp 0 mov (ALU busy until 11); warp 1 waits: 11; exits 17, 18;
     * done 24 */
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 11);
    cr_expect_eq(h->log[1].warp, 1);
    cr_expect_eq(harness_end(h, 0), 24);
    cr_expect_eq(harness_counter(h, "sm0.sched1", "stall_pipeline"), 1);
    harness_free(h);
}

/* Issue width 2: two warps of one scheduler per cycle, given two ALUs */
Test(sched_sm, issue_width_two)
{
    const char *sets[] = {"core.issue_width=2", "core.alu_units=2", "core.branch_units=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nexit\n", 1, 128, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 10: warps 0, 1; 11: warps 2, 3; exits 17 (0, 1), 18 (2, 3); done 24 */
    cr_expect_eq(h->log[1].cycle, 10);
    cr_expect_eq(h->log[1].warp, 1);
    cr_expect_eq(h->log[3].cycle, 11);
    cr_expect_eq(harness_end(h, 0), 24);
    harness_free(h);
}
