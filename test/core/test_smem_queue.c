/* core.smem_queue: a shared-memory instruction issues into a queue in front
 * of its unit instead of waiting at the scheduler for the unit to be free.
 * One warp of 32 under the scoreboard discipline, three independent atomics
 * whose 32 lanes all hit bank 0 (r1 = tid << 7: word 32 tid), so each holds
 * the one shared unit 32 passes (the default rule serializes a bank's lanes;
 * core.smem_ii 1). Timeline as in test_smem_atomics.c: mov @10, shl @17,
 * the first atomic @24, busy 24 .. 55; an atomic starting at s is done at
 * s + 6 + 31 (depth 6, smem_latency 1, 31 extra passes). */
#include "harness.h"

typedef struct queue_run {
    uint64_t second, third;   /* issue cycles of the 2nd and 3rd atomics */
    uint64_t end;             /* the launch's end */
    uint64_t waited;          /* sm0.smem_queue_cycles (0 when absent) */
} queue_run;

static queue_run run_three(const char *depth)
{
    const char *sets[] = {"core.discipline=scoreboard", depth, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ".shared buf u32[1024]\n"
                      "mov r0, %tid.x\n"
                      "shl r1, r0, 7\n"
                      "atom.shared.add.u32 r2, [r1+@buf], 1\n"
                      "atom.shared.add.u32 r3, [r1+@buf], 1\n"
                      "atom.shared.add.u32 r4, [r1+@buf], 1\n"
                      "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 6);
    cr_expect_eq(h->log[2].cycle, 24);
    queue_run r = {h->log[3].cycle, h->log[4].cycle, harness_end(h, 0), 0};
    if (h->p.smem_queue)
        r.waited = harness_counter(h, "sm0", "smem_queue_cycles");
    harness_free(h);
    return r;
}

Test(smem_queue, off_the_warp_waits_for_the_unit)
{
    /* no queue: the 2nd atomic issues when the unit frees @56, the 3rd @88
     * (done 88 + 37 = 125) */
    queue_run r = run_three("core.smem_queue=0");
    cr_expect_eq(r.second, 56);
    cr_expect_eq(r.third, 88);
}

Test(smem_queue, one_entry_takes_the_next_atomic_at_once)
{
    /* depth 1: the 2nd issues @25 into the empty queue and starts @56 (31
     * cycles queued); the 3rd finds the queue full until the 2nd starts
     * @56, issues then and starts @88 (32 more): 63 cycles queued */
    queue_run r = run_three("core.smem_queue=1");
    cr_expect_eq(r.second, 25);
    cr_expect_eq(r.third, 56);
    cr_expect_eq(r.waited, 63);
}

Test(smem_queue, two_entries_take_both)
{
    /* depth 2: the 2nd @25 (starts @56: 31 queued), the 3rd @26 (starts
     * @88: 62 queued): 93 cycles queued */
    queue_run r = run_three("core.smem_queue=2");
    cr_expect_eq(r.second, 25);
    cr_expect_eq(r.third, 26);
    cr_expect_eq(r.waited, 93);
}

static void run_off(void *ctx, void *out)
{
    (void)ctx;
    *(queue_run *)out = run_three("core.smem_queue=0");
}

Test(smem_queue, the_unit_still_sets_the_pace)
{
    /* whatever the depth the unit runs the three atomics back to back (24,
     * 56, 88) and the last is done @125: the launch ends at the same cycle
     * (the run without the queue in a child: one simulation per process) */
    queue_run off;
    harness_fork(run_off, NULL, &off, sizeof off);
    queue_run on = run_three("core.smem_queue=2");
    cr_expect_eq(on.end, off.end);
    cr_expect_geq(on.end, 125);
}
