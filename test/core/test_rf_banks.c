/* Register-file bank conflicts (core.rf_banks, docs/core.md "Register-file
 * banks"): register r is in bank r mod N; a bank reads one register per
 * cycle, so an instruction issued at k reading m distinct registers of bank
 * b keeps b busy until k + m, and an instruction needing a busy bank cannot
 * issue. The issuing instruction's latency is unchanged.
 *
 * Timeline as in test_timing.c: the CTA's warps are fetchable at cycle 10;
 * an instruction issued at k completes at done = k + 6 (depth 7, latency 1);
 * under the scoreboard a warp issues its next independent instruction at
 * k + 1 and a dependent one at done + 1; the launch ends at the exit's done. */
#include <string.h>

#include "harness.h"

/* r0, r2, r4: one bank when N is 1 or 2; r5, r7 the other bank of 2 */
static const char *k_mix =
    "fma.f32 r1, r0, r2, r4\n"
    "add r3, r5, r7\n"
    "add r9, r6, 1\n"
    "exit\n";

typedef struct run_out {
    uint64_t at[4], end, conflicts;
} run_out;

static run_out run_mix(const char *banks)
{
    const char *sets[] = {"core.discipline=scoreboard", banks, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_mix, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 4);
    run_out o;
    for (int i = 0; i < 4; i++)
        o.at[i] = h->log[i].cycle;
    o.end = harness_end(h, 0);
    o.conflicts = h->p.rf_banks ? harness_counter(h, "sm0", "rf_conflict_cycles") : 0;
    harness_free(h);
    return o;
}

Test(rf_banks, off_by_default)
{
    /* no banks: one instruction a cycle, 10 11 12 13, exit done 19 */
    run_out o = run_mix("core.rf_banks=0");
    cr_expect_eq(o.at[0], 10);
    cr_expect_eq(o.at[1], 11);
    cr_expect_eq(o.at[2], 12);
    cr_expect_eq(o.at[3], 13);
    cr_expect_eq(o.end, 19);
}

Test(rf_banks, two_banks)
{
    /* fma @10 reads r0 r2 r4, all bank 0: bank 0 busy until 13 (2 extra
     * reads). add r3, r5, r7 reads bank 1 only: @11, bank 1 busy until 13
     * (1 extra). add r9, r6 needs bank 0: @13. exit (no reads) @14, done 20 */
    run_out o = run_mix("core.rf_banks=2");
    cr_expect_eq(o.at[0], 10);
    cr_expect_eq(o.at[1], 11);
    cr_expect_eq(o.at[2], 13);
    cr_expect_eq(o.at[3], 14);
    cr_expect_eq(o.end, 20);
    cr_expect_eq(o.conflicts, 3);
}

Test(rf_banks, one_bank_serializes_every_read)
{
    /* fma @10: 3 reads, bank busy until 13; add r3, r5, r7 @13: 2 reads,
     * until 15; add r9, r6 @15, until 16; exit @16, done 22; extra reads
     * 2 + 1 + 0 */
    run_out o = run_mix("core.rf_banks=1");
    cr_expect_eq(o.at[0], 10);
    cr_expect_eq(o.at[1], 13);
    cr_expect_eq(o.at[2], 15);
    cr_expect_eq(o.at[3], 16);
    cr_expect_eq(o.end, 22);
    cr_expect_eq(o.conflicts, 3);
}

Test(rf_banks, four_banks)
{
    /* fma @10: r0 r4 in bank 0 (until 12), r2 in bank 2 (until 11); add
     * r3, r5, r7: banks 1 and 3, @11; add r9, r6: bank 2, free at 11, @12;
     * exit @13, done 19; one extra read */
    run_out o = run_mix("core.rf_banks=4");
    cr_expect_eq(o.at[0], 10);
    cr_expect_eq(o.at[1], 11);
    cr_expect_eq(o.at[2], 12);
    cr_expect_eq(o.at[3], 13);
    cr_expect_eq(o.end, 19);
    cr_expect_eq(o.conflicts, 1);
}

Test(rf_banks, latency_is_unchanged)
{
    /* fma @10 with a 3-read conflict still completes at 16: the dependent
     * add reads r1 (bank 1) at 17; exit @18, done 24 -- as without banks */
    const char *sets[] = {"core.discipline=scoreboard", "core.rf_banks=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "fma.f32 r1, r0, r2, r4\nadd r3, r1, 1\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 3);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 17);
    cr_expect_eq(h->log[2].cycle, 18);
    cr_expect_eq(harness_end(h, 0), 24);
    harness_free(h);
}

Test(rf_banks, a_register_read_twice_is_one_read)
{
    /* one bank: fma r1, r0, r0, r0 reads r0 once (bank free at 11), so the
     * add reading r5 issues @11; exit @12, done 18; no extra read */
    const char *sets[] = {"core.discipline=scoreboard", "core.rf_banks=1", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "fma.f32 r1, r0, r0, r0\nadd r3, r5, 1\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 3);
    cr_expect_eq(h->log[1].cycle, 11);
    cr_expect_eq(h->log[2].cycle, 12);
    cr_expect_eq(harness_end(h, 0), 18);
    cr_expect_eq(harness_counter(h, "sm0", "rf_conflict_cycles"), 0);
    harness_free(h);
}

Test(rf_banks, a_busy_bank_stalls_other_warps)
{
    /* barrel, two warps, two banks: w0 fma @10 holds bank 0 until 13, so
     * w1's fma (same banks) issues @13 instead of @11; w0 exit @17 (fma
     * done 16), w1 exit @20 (fma done 19), done 26. Without banks: w1 fma
     * @11, exits @17 and @18, done 24. */
    const char *k = "fma.f32 r1, r0, r2, r4\nexit\n";
    const char *sets[] = {"core.rf_banks=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    uint64_t at[4] = {10, 13, 17, 20};
    unsigned warp[4] = {0, 1, 0, 1};
    cr_assert_eq(h->nlog, 4);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
        cr_expect_eq(h->log[i].warp, warp[i], "issue %d", i);
    }
    cr_expect_eq(harness_end(h, 0), 26);
    cr_expect_eq(harness_counter(h, "sm0", "rf_conflict_cycles"), 4);
    harness_free(h);
}

Test(rf_banks, banks_belong_to_their_scheduler)
{
    /* two schedulers: w0 on scheduler 0, w1 on scheduler 1, each with its
     * own banks (and two ALUs and branch units), so both fmas issue @10 and
     * both exits @17, done 23 */
    const char *k = "fma.f32 r1, r0, r2, r4\nexit\n";
    const char *sets[] = {"core.rf_banks=2", "core.schedulers=2", "core.alu_units=2",
                          "core.branch_units=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 4);
    cr_expect_eq(h->log[0].cycle, 10);
    cr_expect_eq(h->log[1].cycle, 10);
    cr_expect_eq(h->log[2].cycle, 17);
    cr_expect_eq(h->log[3].cycle, 17);
    cr_expect_eq(harness_end(h, 0), 23);
    harness_free(h);
}

Test(rf_banks, out_of_range_is_refused)
{
    const char *sets[] = {"core.rf_banks=33", NULL};
    char *msg = NULL;
    harness *h = harness_try_new(sets, &msg);
    cr_expect_null(h);
    cr_assert_not_null(msg);
    cr_expect(strstr(msg, "core.rf_banks") != NULL, "%s", msg);
    g_free(msg);
}
