/* Functional units: shared-memory bank conflicts, an SFU with fewer lanes,
 * unit latency, the barrel re-fetch latency, and a shared-memory fault.
 * Timings as in test_timing.c: issue at k completes at k + 6 + extra. */
#include <string.h>

#include "harness.h"

/* mov @10, shl @17, st.shared @24, exit @(st done + 1) */
static char *k_smem(unsigned shift)
{
    return g_strdup_printf(".shared buf u32[1024]\n"
                           "mov r0, %%tid.x\n"
                           "shl r1, r0, %u\n"
                           "st.shared.u32 [r1+@buf], r0\n"
                           "exit\n",
                           shift);
}

static void smem_case(unsigned shift, uint64_t exit_at, uint64_t end, uint64_t conflict_cycles)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    char *k = k_smem(shift);
    harness_launch(h, k, 1, 32, NULL, 0, 0, -1);
    g_free(k);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[3].cycle, exit_at);
    cr_expect_eq(harness_end(h, 0), end);
    cr_expect_eq(harness_counter(h, "sm0", "smem_conflict_cycles"), conflict_cycles);
    harness_free(h);
}

Test(units, smem_stride_one_word_no_conflict)
{
    /* word i -> bank i: st done 30, exit @31, done 37 */
    smem_case(2, 31, 37, 0);
}

Test(units, smem_stride_two_words_two_way)
{
    /* word 2i -> bank 2i mod 32: 16 banks with 2 words each: 2 passes,
     * st done 31, exit @32, done 38 */
    smem_case(3, 32, 38, 1);
}

Test(units, smem_stride_32_words_32_way)
{
    /* word 32i -> bank 0 for every lane: 32 passes, st done 61, exit @62 */
    smem_case(7, 62, 68, 31);
}

Test(units, smem_broadcast)
{
    /* every lane reads one word: broadcast, no conflict */
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ".shared buf u32[32]\nld.shared.u32 r1, [@buf]\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(harness_end(h, 0), 23);   /* ld @10, exit @17, done 23 */
    cr_expect_eq(harness_counter(h, "sm0", "smem_conflict_cycles"), 0);
    harness_free(h);
}

Test(units, smem_atomics_serialize_on_one_word)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".shared cnt u32[1]\n"
                   ".data out u32[1]\n"
                   "atom.shared.add.u32 r1, [@cnt], 1\n"
                   "bar.sync\n"
                   "ld.shared.u32 r2, [@cnt]\n"
                   "st.global.u32 [@out], r2\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* 32 lanes on one word: 32 passes, atom done 10 + 6 + 31 = 47; bar
     * @48 (done 54); ld @55, st @62, exit @69, done 75 */
    cr_expect_eq(h->log[1].cycle, 48);
    cr_expect_eq(harness_end(h, 0), 75);
    cr_expect_eq(harness_read_u32(h, 0, "out", 0), 32);
    harness_free(h);
}

static const char *k_sfu =
    "mov.f32 r0, 0.5\n"
    "sin.f32 r1, r0\n"
    "exit\n";

Test(units, sfu_with_8_lanes)
{
    const char *sets[] = {"core.sfu_lanes=8", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_sfu, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* movs @10, @11; w0 sin @17 holds the SFU 4 passes (17..20), done
     * 17 + 6 + 3 = 26; w1's sin waits for the SFU: @21 (18, 19, 20 are
     * structural stalls), done 30; exits @27, @31; done 37 */
    cr_expect_eq(h->log[2].cycle, 17);
    cr_expect_eq(h->log[3].cycle, 21);
    cr_expect_eq(h->log[3].warp, 1);
    cr_expect_eq(harness_end(h, 0), 37);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_pipeline"), 3);
    cr_expect_eq(harness_counter(h, "sm0", "inst_sfu"), 2);
    harness_free(h);
}

Test(units, two_sfus)
{
    const char *sets[] = {"core.sfu_lanes=8", "core.sfu_units=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, k_sfu, 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* the second SFU takes w1's sin at 18: done 27; exits @27, @28; done 34 */
    cr_expect_eq(h->log[3].cycle, 18);
    cr_expect_eq(harness_end(h, 0), 34);
    harness_free(h);
}

Test(units, alu_latency)
{
    const char *sets[] = {"core.alu_latency=4", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nadd r1, r0, 2\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* ALU done = k + 6 + 3: mov @10 (19), add @20 (29), exit @30 (36) */
    cr_expect_eq(h->log[1].cycle, 20);
    cr_expect_eq(harness_end(h, 0), 36);
    harness_free(h);
}

Test(units, alu_initiation_interval)
{
    const char *sets[] = {"core.alu_ii=3", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nexit\n", 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* w0 mov @10 holds the ALU until 13: w1 mov @13; exits @17, @20;
     * done 26 */
    cr_expect_eq(h->log[1].cycle, 13);
    cr_expect_eq(harness_end(h, 0), 26);
    harness_free(h);
}

Test(units, refetch_latency)
{
    const char *sets[] = {"core.refetch_latency=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nadd r1, r0, 2\nadd r2, r1, 3\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* plain instructions re-fetch 2 cycles after their fetch: 10, 12, 14;
     * exit @16, done 22 */
    cr_expect_eq(h->log[1].cycle, 12);
    cr_expect_eq(h->log[2].cycle, 14);
    cr_expect_eq(h->log[3].cycle, 16);
    cr_expect_eq(harness_end(h, 0), 22);
    harness_free(h);
}

Test(units, refetch_latency_waits_after_branches)
{
    const char *sets[] = {"core.refetch_latency=2", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "bra next\nnext:\nmov r0, 1\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    /* a branch resolves at write-back: bra @10 (done 16), mov @17, exit @19 */
    cr_expect_eq(h->log[1].cycle, 17);
    cr_expect_eq(h->log[2].cycle, 19);
    harness_free(h);
}

Test(units, instruction_mix_and_active_threads)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    /* 48 threads: warp 1 has 16 lanes */
    harness_launch(h, "mov r0, 1\nadd r1, r0, 2\nexit\n", 1, 48, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(harness_counter(h, "sm0", "warp_insts"), 6);
    cr_expect_eq(harness_counter(h, "sm0", "thread_insts"), 3 * 32 + 3 * 16);
    cr_expect_eq(harness_counter(h, "sm0", "inst_alu_int"), 4);
    cr_expect_eq(harness_counter(h, "sm0", "inst_exit"), 2);
    /* DWF categories: 3 issues of 32 threads, 3 of 16 */
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w29_32"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w13_16"), 3);
    double avg = 0;
    cr_assert(stats_get_derived(h->st, "sm0", "avg_active_threads", &avg));
    cr_expect_float_eq(avg, 24.0, 1e-12);
    harness_free(h);
}

Test(units, shared_memory_fault_stops_the_run)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ".shared buf u32[4]\nst.shared.u32 [@buf+64], 1\nexit\n", 1, 32, NULL, 0, 0, -1);
    des_set_limit(h->e, 10000);
    des_run(h->e);
    const char *err = sm_error(h->sms[0]);
    cr_assert_not_null(err);
    cr_expect(strstr(err, "k.sasm:2") && strstr(err, "shared memory") && strstr(err, "16 bytes"), "%s", err);
    cr_expect_eq(dispatcher_unfinished(h->d), 1);
    harness_free(h);
}

/* Warp intrinsics are single ALU instructions (one issue, ALU timing):
 * mov @10, setp @17, ballot @24, shfl @31, popc @38, shl @45, two stores
 * @52 and @59 (fire and forget), exit @66, done 72. Lanes 0-4 have p0:
 * ballot = 0x1f, popc = 5 in every lane; shfl.down 1 gives lane l the tid
 * of lane l + 1 (lane 31 keeps its own). */
Test(units, warp_intrinsics_single_instructions)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data cnt u32[32]\n"
                   ".data nxt u32[32]\n"
                   "mov r0, %tid.x\n"
                   "setp.lt.u32 p0, r0, 5\n"
                   "ballot r1, p0\n"
                   "shfl.down.u32 r2, r0, 1\n"
                   "popc r3, r1\n"
                   "shl r4, r0, 2\n"
                   "st.global.u32 [r4+@cnt], r3\n"
                   "st.global.u32 [r4+@nxt], r2\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    uint64_t at[9] = {10, 17, 24, 31, 38, 45, 52, 59, 66};
    cr_assert_eq(h->nlog, 9);
    for (int i = 0; i < 9; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 72);
    cr_expect_eq(harness_counter(h, "sm0", "inst_intrinsic"), 2, "ballot and shfl");
    cr_expect_eq(harness_read_u32(h, 0, "cnt", 0), 5);
    cr_expect_eq(harness_read_u32(h, 0, "cnt", 31), 5);
    cr_expect_eq(harness_read_u32(h, 0, "nxt", 3), 4);
    cr_expect_eq(harness_read_u32(h, 0, "nxt", 31), 31);
    harness_free(h);
}

/* A global atomic is one instruction and one memory request; under the
 * barrel the warp waits for its reply. mov @10, shl @17, atom @24 (sent
 * at 24, 32 lanes on one word = one line, answered at 124, fetchable at
 * 125), st @125, exit @132, done 138. Lanes apply in order: lane l gets
 * the old value l; the counter ends at 32. */
Test(units, global_atomic_single_instruction)
{
    const char *sets[] = {NULL};
    harness *h = harness_new(sets);
    harness_launch(h,
                   ".data cnt u32[1]\n"
                   ".data old u32[32]\n"
                   "mov r0, %tid.x\n"
                   "shl r2, r0, 2\n"
                   "atom.global.add.u32 r1, [@cnt], 1\n"
                   "st.global.u32 [r2+@old], r1\n"
                   "exit\n",
                   1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    uint64_t at[5] = {10, 17, 24, 125, 132};
    cr_assert_eq(h->nlog, 5);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
    cr_expect_eq(harness_end(h, 0), 138);
    cr_expect_eq(harness_counter(h, "sm0", "inst_atomic"), 1);
    cr_expect_eq(harness_counter(h, "sm0", "mem_requests"), 2, "the atomic and the store");
    cr_expect_eq(harness_read_u32(h, 0, "cnt", 0), 32);
    cr_expect_eq(harness_read_u32(h, 0, "old", 9), 9);
    harness_free(h);
}

/* The branch unit's latency: done = k + 6 + (latency - 1). mov @10 (done
 * 16), bra @17 (latency 3: done 25), exit @26 (exit is a branch-unit
 * instruction too: done 26 + 6 + 2 = 34). */
Test(units, branch_latency)
{
    const char *sets[] = {"core.branch_latency=3", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, "mov r0, 1\nbra next\nnext:\nexit\n", 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 3);
    cr_expect_eq(h->log[1].cycle, 17);
    cr_expect_eq(h->log[2].cycle, 26);
    cr_expect_eq(harness_end(h, 0), 34);
    harness_free(h);
}

/* Shared-memory latency: st.shared issued at 24 completes at 24 + 6 + 2 =
 * 32 with core.smem_latency 3; exit @33, done 39 (k_smem, no conflict). */
Test(units, smem_latency)
{
    const char *sets[] = {"core.smem_latency=3", NULL};
    harness *h = harness_new(sets);
    char *k = k_smem(2);
    harness_launch(h, k, 1, 32, NULL, 0, 0, -1);
    g_free(k);
    cr_assert(harness_run(h, 10000));
    cr_expect_eq(h->log[2].cycle, 24);
    cr_expect_eq(h->log[3].cycle, 33);
    cr_expect_eq(harness_end(h, 0), 39);
    harness_free(h);
}

/* LD/ST initiation interval 4: w0 st @10 holds the unit until 14; w1's
 * store waits (11-13: a ready warp held by a busy unit, stall_pipeline)
 * and issues @14 (done 20); fire-and-forget stores complete at write-back:
 * w0 exit @17 (done 23), w1 exit @21 (done 27). */
Test(units, ldst_initiation_interval)
{
    const char *sets[] = {"core.ldst_ii=4", NULL};
    harness *h = harness_new(sets);
    harness_launch(h, ".data out u32[1]\nst.global.u32 [@out], 7\nexit\n", 1, 64, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    uint64_t at[4] = {10, 14, 17, 21};
    unsigned warp[4] = {0, 1, 0, 1};
    cr_assert_eq(h->nlog, 4);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(h->log[i].cycle, at[i], "issue %d", i);
        cr_expect_eq(h->log[i].warp, warp[i], "issue %d", i);
    }
    cr_expect_eq(harness_end(h, 0), 27);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "stall_pipeline"), 3);
    cr_expect_eq(harness_counter(h, "sm0.sched0", "w_stall"), 3);
    harness_free(h);
}
