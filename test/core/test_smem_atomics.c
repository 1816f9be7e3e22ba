/* Shared-memory atomics on the H100 (core.smem_atomic_uniform,
 * core.smem_atomic_serial, core.smem_atomic_replay; ubench5.csv satom).
 * Timeline as in test_units.c: one warp of 32, mov @10, the address @17,
 * the atomic @24 (core.smem_latency 1: done at 24 + 6 + extra, extra =
 * passes - 1 plus any replay latency); the exit issues the cycle after the
 * atomic is done and the launch ends 6 cycles after the exit. */
#include "harness.h"

/* addr: the instruction computing the byte offset r1 from r0 = %tid.x;
 * value: what the atomic adds ("1" an increment, "r0" the lane's tid) */
static void atom_add_case(const char *const *sets, const char *addr, const char *value, uint64_t exit_at,
                          uint64_t conflicts)
{
    char *k = g_strdup_printf(".shared buf u32[1024]\n"
                              "mov r0, %%tid.x\n"
                              "%s\n"
                              "atom.shared.add.u32 r2, [r1+@buf], %s\n"
                              "exit\n",
                              addr, value);
    harness *h = harness_one_warp_four(sets, k, exit_at);
    g_free(k);
    cr_expect_eq(harness_counter(h, "sm0", "smem_conflict_cycles"), conflicts);
    harness_free(h);
}

static void atom_case(const char *const *sets, const char *addr, uint64_t exit_at, uint64_t conflicts)
{
    atom_add_case(sets, addr, "1", exit_at, conflicts);
}

Test(smem_atomics, one_word_serializes_every_lane_by_default)
{
    /* r1 = 0 for all 32 lanes: the default serializes each lane of a bank:
     * 32 passes, done 24 + 6 + 31 = 61, exit @62 */
    const char *sets[] = {NULL};
    atom_case(sets, "and r1, r0, 0", 62, 31);
}

Test(smem_atomics, one_word_is_one_update_when_uniform)
{
    /* the same access with core.smem_atomic_uniform: one pass, done 30,
     * exit @31 */
    const char *sets[] = {"core.smem_atomic_uniform=true", NULL};
    atom_case(sets, "and r1, r0, 0", 31, 0);
}

Test(smem_atomics, one_word_of_lane_values_still_serializes)
{
    /* uniform applies to an add of an immediate only: adding r0 (the lane)
     * to word 0 keeps the default's 32 passes: exit @62 (one update per
     * lane, as the H100's ATOMS.ADD in ubench5 satom2) */
    const char *sets[] = {"core.smem_atomic_uniform=true", NULL};
    atom_add_case(sets, "and r1, r0, 0", "r0", 62, 31);
}

Test(smem_atomics, four_lanes_per_word_default)
{
    /* r1 = tid & 0x3c: words 0..7, four lanes each, in 8 banks: by default
     * 4 lanes of a bank serialize: 4 passes, done 24 + 6 + 3 = 33, exit @34 */
    const char *sets[] = {NULL};
    atom_case(sets, "and r1, r0, 60", 34, 3);
}

Test(smem_atomics, four_lanes_per_word_replayed)
{
    /* with core.smem_atomic_replay = 10: one word per bank (1 pass), three
     * replays for the 3 further lanes of a word: 4 passes and 30 cycles:
     * done 24 + 6 + 3 + 30 = 63, exit @64 */
    const char *sets[] = {"core.smem_atomic_replay=10", NULL};
    atom_case(sets, "and r1, r0, 60", 64, 3);
}

Test(smem_atomics, distinct_words_of_one_bank_with_replay_mode)
{
    /* r1 = tid << 7: word 32 tid, all in bank 0, distinct: 32 passes with or
     * without replays (no word is shared): done 61, exit @62 */
    const char *sets[] = {"core.smem_atomic_replay=10", NULL};
    atom_case(sets, "shl r1, r0, 7", 62, 31);
}

Test(smem_atomics, uniform_overrides_replays)
{
    /* all lanes on word 0 with both: one update, no replay: exit @31 */
    const char *sets[] = {"core.smem_atomic_uniform=true", "core.smem_atomic_replay=10", NULL};
    atom_case(sets, "and r1, r0, 0", 31, 0);
}

/* Two independent atomics (distinct banks, r1 = tid * 4) under the
 * scoreboard discipline (barrel processing waits for every instruction
 * anyway): mov @10, shl @17, the first atomic @24, done 30. The second
 * needs only r1: it issues @25 without core.smem_atomic_serial, and with it
 * the cycle after the first is done, @31. */
static void serial_case(const char *set, uint64_t second_at)
{
    const char *sets[] = {"core.discipline=scoreboard", set, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ".shared buf u32[1024]\n"
                      "mov r0, %tid.x\n"
                      "shl r1, r0, 2\n"
                      "atom.shared.add.u32 r2, [r1+@buf], 1\n"
                      "atom.shared.add.u32 r3, [r1+@buf], 1\n"
                      "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 5);
    cr_expect_eq(h->log[2].cycle, 24);
    cr_expect_eq(h->log[3].cycle, second_at);
    harness_free(h);
}

Test(smem_atomics, overlapping_by_default)
{
    serial_case("core.smem_atomic_serial=false", 25);
}

Test(smem_atomics, serial_waits_for_the_previous_atomic)
{
    serial_case("core.smem_atomic_serial=true", 31);
}

/* core.smem_atomic_half_warps: an increment runs lanes 0-15, then 16-31,
 * each half's bank conflicts on its own (ubench5 satom at 32 warps). */
Test(smem_atomics, half_warps_distinct_banks_two_passes)
{
    /* r1 = tid * 4: word tid, every lane its own bank: one pass per half,
     * 2 passes: done 24 + 6 + 1 = 31, exit @32 (1 pass and exit @31
     * without the option, as one_word_is_one_update_when_uniform) */
    const char *sets[] = {"core.smem_atomic_half_warps=true", NULL};
    atom_case(sets, "shl r1, r0, 2", 32, 1);
}

Test(smem_atomics, half_warps_two_words_per_bank_cost_as_distinct)
{
    /* r1 = tid * 8: word 2 tid; lanes 0-15 on words 0, 2 .. 30 (16 even
     * banks), lanes 16-31 on words 32 .. 62 (the same banks): within a half
     * no conflict: 1 + 1 = 2 passes, exit @32 as distinct banks */
    const char *sets[] = {"core.smem_atomic_half_warps=true", "core.smem_atomic_replay=10", NULL};
    atom_case(sets, "shl r1, r0, 3", 32, 1);
}

Test(smem_atomics, half_warps_one_bank_sixteen_per_half)
{
    /* r1 = tid << 7: word 32 tid, all in bank 0: 16 words per half, 32
     * passes: done 24 + 6 + 31 = 61, exit @62 */
    const char *sets[] = {"core.smem_atomic_half_warps=true", "core.smem_atomic_replay=10", NULL};
    atom_case(sets, "shl r1, r0, 7", 62, 31);
}

/* r1 = (tid & 15) << 7 (and @17, shl @24, the atomic @31): word 32 (tid mod
 * 16), all in bank 0, lanes l and l + 16 on one word */
static void shared_words_case(const char *half, uint64_t exit_at, uint64_t conflicts)
{
    const char *sets[] = {"core.smem_atomic_replay=10", half, NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ".shared buf u32[1024]\n"
                      "mov r0, %tid.x\n"
                      "and r1, r0, 15\n"
                      "shl r1, r1, 7\n"
                      "atom.shared.add.u32 r2, [r1+@buf], 1\n"
                      "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 5);
    cr_expect_eq(h->log[3].cycle, 31);
    cr_expect_eq(h->log[4].cycle, exit_at);
    cr_expect_eq(harness_counter(h, "sm0", "smem_conflict_cycles"), conflicts);
    harness_free(h);
}

Test(smem_atomics, shared_words_whole_warp)
{
    /* replay 10: 16 distinct words + 1 replay = 17 passes and 10 cycles:
     * done 31 + 6 + 16 + 10 = 63, exit @64, 16 conflict cycles */
    shared_words_case("core.smem_atomic_half_warps=false", 64, 16);
}

Test(smem_atomics, half_warps_shared_words_count_in_each_half)
{
    /* by halves each half has the 16 words: 16 + 16 passes + 1 replay (the
     * most-shared word over the warp) = 33: done 31 + 6 + 32 + 10 = 79, exit
     * @80, 32 conflict cycles */
    shared_words_case("core.smem_atomic_half_warps=true", 80, 32);
}

Test(smem_atomics, half_warps_uniform_word_once_per_half)
{
    /* all lanes on word 0 with the uniform rule: one update per half, 2
     * passes, no replay: exit @32 */
    const char *sets[] = {"core.smem_atomic_uniform=true", "core.smem_atomic_half_warps=true", NULL};
    atom_case(sets, "and r1, r0, 0", 32, 1);
}

Test(smem_atomics, half_warps_leave_adds_of_lane_values_whole)
{
    /* an add of r0 (ATOMS.ADD, not an increment) at word tid keeps the
     * whole-warp rule: 1 pass, done 30, exit @31 */
    const char *sets[] = {"core.smem_atomic_half_warps=true", NULL};
    atom_add_case(sets, "shl r1, r0, 2", "r0", 31, 0);
}
