/* A policy registered from outside the simulator: a toy warp scheduler,
 * "youngest", defined in this file, registered with policy_register and run
 * through an SM by name (core.scheduler = youngest), as docs/architecture.md
 * describes. Issue order worked out by hand for k_mov_ld (test_sched_sm.c):
 * 16 warps of one CTA arrive at cycle 10; a warp issued at k is fetchable
 * again at k + 7 (7-stage barrel pipeline). */
#include "harness.h"
#include "core/warp_sched.h"

/* ---- the toy policy: the READY member in the highest warp slot ---------- */

typedef struct youngest {
    uint64_t issued;   /* its own statistic */
} youngest;

static void *youngest_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s;
    (void)p;
    (void)slots;
    return g_new0(youngest, 1);
}

static int youngest_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    for (unsigned i = s->n; i-- > 0;)   /* members are in slot order */
        if (v->status[s->members[i]] == WS_READY)
            return (int)s->members[i];
    return -1;
}

static void youngest_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)v;
    (void)id;
    (void)cycle;
    ((youngest *)s->state)->issued++;
}

static void youngest_stats(sched *s, stats *st, const char *blk)
{
    stats_counter(st, blk, "youngest_issued", "instructions", "issues picked by the toy policy",
                  &((youngest *)s->state)->issued);
}

static const sched_ops youngest_ops = {
    .create = youngest_create,
    .destroy = g_free,
    .pick = youngest_pick,
    .issued = youngest_issued,
    .stats = youngest_stats,
};

static const policy youngest_row = {"youngest", "the READY warp in the highest slot", &youngest_ops};

/* ---- the test --------------------------------------------------------- */

static const char *k_mov_ld =
    ".data a u32[1]\n"
    "mov r0, %tid.x\n"
    "ld.global.u32 r1, [@a]\n"
    "exit\n";

Test(registry, unknown_until_registered)
{
    const char *sets[] = {"core.scheduler=youngest", NULL};
    char *msg = NULL;
    cr_assert_null(harness_try_new(sets, &msg));
    cr_expect(strstr(msg, "expected one of lrr, gto, 2lev") != NULL, "%s", msg);
    g_free(msg);
    GError *err = NULL;
    cr_assert(policy_register("core.scheduler", &youngest_row, &err));
    harness *h = harness_new(sets);
    harness_free(h);
    /* a name already taken, and a parameter that takes no policies */
    static const policy lrr_again = {"lrr", "a second lrr", &youngest_ops};
    cr_expect_not(policy_register("core.scheduler", &lrr_again, &err));
    cr_expect(strstr(err->message, "already a choice") != NULL, "%s", err->message);
    g_clear_error(&err);
    cr_expect_not(policy_register("core.warp_size", &youngest_row, &err));
    g_clear_error(&err);
}

Test(registry, toy_scheduler_runs_in_an_sm)
{
    GError *err = NULL;
    cr_assert(policy_register("core.scheduler", &youngest_row, &err));
    const char *sets[] = {"core.scheduler=youngest", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mov_ld, 1, 512, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 10..16: the movs of warps 15, 14, ..., 9 (youngest first; LRR would
     * start with warp 0). 17: warp 15 is fetchable again and is the
     * youngest READY warp, so its load goes before the mov of warp 8. */
    cr_assert(h->nlog >= 8);
    for (unsigned i = 0; i < 7; i++) {
        cr_expect_eq(h->log[i].cycle, 10 + i);
        cr_expect_eq(h->log[i].warp, 15 - i, "issue %u: warp %u", i, h->log[i].warp);
        cr_expect_eq(h->log[i].pc, 0);
    }
    cr_expect_eq(h->log[7].cycle, 17);
    cr_expect_eq(h->log[7].warp, 15);
    cr_expect_eq(h->log[7].pc, 1);
    /* its own statistic: 16 warps x 3 instructions (mov, ld, exit) */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "youngest_issued"), 48);
    harness_free(h);
}
