/* Loop, branch and mix knobs shape the generated kernel: trip counts per
 * thread, how branches split a warp, path lengths, reconvergence points and
 * the instruction mix, each checked against numbers worked out by hand. */
#include "gen_test_util.h"

static unsigned count_class(const isa_program *k, isa_class cls)
{
    unsigned n = 0;
    for (uint32_t pc = 0; pc < isa_program_ninst(k); pc++)
        n += isa_program_inst(k, pc)->cls == cls;
    return n;
}

/* Runs every thread of a grid of `grid` CTAs of `block` alone and returns
 * per-thread execution counts of pc `at` (executed, and taken). */
static void per_thread(gen_launch *g, uint32_t grid, uint32_t block, uint32_t at, uint64_t *exec,
                       uint64_t *taken)
{
    uint32_t n = isa_program_ninst(g->k);
    uint64_t *c = g_new0(uint64_t, n), *t = g_new0(uint64_t, n);
    for (uint32_t b = 0; b < grid; b++) {
        isa_cta *cta = isa_cta_new(&g->launch, b);
        for (uint32_t i = 0; i < block; i++) {
            memset(c, 0, n * sizeof *c);
            memset(t, 0, n * sizeof *t);
            run_thread(g->k, isa_cta_thread(cta, i), c, t);
            exec[b * block + i] = c[at];
            if (taken)
                taken[b * block + i] = t[at];
        }
        isa_cta_free(cta);
    }
    g_free(c);
    g_free(t);
}

/* uniform: every thread runs the loop body `trips` times. */
Test(gen_control, uniform_trips)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\nshape = uniform\ntrips = 7\n[memory]\npattern = none\n", 1), 1, 64);
    uint64_t e[64];
    per_thread(&g, 1, 64, label_pc(g.k, "loop_0"), e, NULL);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(e[i], 7);
    launch_free(&g);
}

/* lane_skew, trips 2, skew 3: lane l runs 2 + 3l trips (thread 40 is lane 8: 26). */
Test(gen_control, lane_skewed_trips)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\nshape = lane_skew\ntrips = 2\nskew = 3\n[memory]\npattern = none\n", 1),
                 1, 64);
    uint64_t e[64];
    per_thread(&g, 1, 64, label_pc(g.k, "loop_0"), e, NULL);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(e[i], 2 + 3 * (uint64_t)(i % 32), "thread %d", i);
    cr_assert_eq(e[40], 26);
    launch_free(&g);
}

/* trips 0 is allowed: lane_skew from 0 gives lane 0 no iteration at all. */
Test(gen_control, zero_trips_skip_the_loop)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\nshape = lane_skew\ntrips = 0\nskew = 1\n", 1), 1, 32);
    uint64_t e[32];
    per_thread(&g, 1, 32, label_pc(g.k, "loop_0"), e, NULL);
    for (int i = 0; i < 32; i++)
        cr_assert_eq(e[i], (uint64_t)i);
    launch_free(&g);
}

/* data, trips 5, spread 10: thread gid runs 5 + trips[gid] trips, where the
 * table is uniform on [0, 10]: over 1024 threads every value 5..15 occurs and
 * the mean is 10 (standard error 3.2/32 = 0.1; we allow 0.5). */
Test(gen_control, data_dependent_trips_follow_the_table)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\nshape = data\ntrips = 5\nspread = 10\n[memory]\npattern = none\n", 1),
                 4, 256);
    uint64_t *e = g_new0(uint64_t, 1024);
    per_thread(&g, 4, 256, label_pc(g.k, "loop_0"), e, NULL);
    uint64_t table = symbol(g.k, "trips"), sum = 0;
    unsigned hist[16] = {0};
    for (uint64_t i = 0; i < 1024; i++) {
        cr_assert_eq(e[i], 5 + memimg_read(g.mem, table + 4 * i, 4), "thread %lu", (unsigned long)i);
        cr_assert(e[i] >= 5 && e[i] <= 15);
        hist[e[i]]++;
        sum += e[i];
    }
    for (int v = 5; v <= 15; v++)
        cr_assert_gt(hist[v], 0, "no thread ran %d trips", v);
    double mean = (double)sum / 1024;
    cr_assert(mean > 9.5 && mean < 10.5, "mean %f", mean);
    g_free(e);
    launch_free(&g);
}

static uint32_t branch_pc(const isa_program *k, const char *target)
{
    uint32_t to = label_pc(k, target);
    for (uint32_t pc = 0; pc < isa_program_ninst(k); pc++)
        if (isa_program_inst(k, pc)->op == ISA_OP_BRA && isa_program_inst(k, pc)->target == to &&
            isa_program_inst(k, pc)->guard != ISA_PRED_NONE)
            return pc;
    cr_assert_fail("no conditional branch to %s", target);
    return 0;
}

/* lane_parity if/else: p0 = odd lane; `@!p0 bra else_1` sends the even lanes
 * (0x55555555) to else: 16/16. Nested: the inner branch `@!p1 bra
 * inner_else_1` runs on the 16 odd lanes and sends those with lane bit 1
 * clear (1, 5, 9, ... = 0x22222222) to the inner else: 8/8. */
Test(gen_control, lane_parity_splits_the_warp_16_16_then_8_8)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 1\n[memory]\npattern = none\n"
                              "[branch]\nshape = nested\ncond = lane_parity\n", 1), 1, 32);
    g.cta = isa_cta_new(&g.launch, 0);
    isa_thread *lanes[32];
    for (unsigned l = 0; l < 32; l++)
        lanes[l] = isa_cta_thread(g.cta, l);
    isa_exec_out o;
    uint32_t pc = run_warp(g.k, lanes, UINT32_MAX, 0, NULL, NULL, &o);
    cr_assert_eq(pc, branch_pc(g.k, "else_1"));
    cr_assert_eq(o.taken, 0x55555555u);
    cr_assert_eq(o.executed, 0x55555555u, "the guard @!p0 holds in the even lanes");
    pc = run_warp(g.k, lanes, 0xAAAAAAAAu, pc + 1, NULL, NULL, &o);
    cr_assert_eq(pc, branch_pc(g.k, "inner_else_1"));
    cr_assert_eq(o.taken, 0x22222222u);
    launch_free(&g);
}

/* The if/else reconverges at its join (endif_1), the nested inner one at
 * inner_endif_1, and the loop's back edge at the instruction after it. */
Test(gen_control, generated_branches_reconverge_at_their_joins)
{
    isa_program *k = gen_load("[loop]\ntrips = 2\n[branch]\nshape = nested\ncond = biased\n", 1);
    cr_assert_eq(isa_ipdom(k, branch_pc(k, "else_1")), label_pc(k, "endif_1"));
    cr_assert_eq(isa_ipdom(k, branch_pc(k, "inner_else_1")), label_pc(k, "inner_endif_1"));
    uint32_t back = branch_pc(k, "loop_0");
    cr_assert_eq(isa_ipdom(k, back), back + 1);
    isa_program_free(k);
}

/* biased, bias 0.25: the then path runs when the hash (10 bits) is below
 * 256, a quarter of the time: over 1024 threads x 8 iterations (standard
 * error 0.005) the share lies within 0.03 of 0.25. The branch jumps to else
 * when p0 is false, so then = reached - taken. */
Test(gen_control, biased_branch_takes_the_then_path_at_the_bias)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 8\n[memory]\npattern = none\n"
                              "[branch]\nshape = ifelse\ncond = biased\nbias = 0.25\n", 3), 4, 256);
    uint64_t *e = g_new0(uint64_t, 1024), *t = g_new0(uint64_t, 1024);
    per_thread(&g, 4, 256, branch_pc(g.k, "else_1"), e, t);
    uint64_t ex = 0, tk = 0;
    for (int i = 0; i < 1024; i++)
        ex += e[i], tk += t[i];
    cr_assert_eq(ex, 8192);
    double then = (double)(ex - tk) / (double)ex;
    cr_assert(then > 0.22 && then < 0.28, "then share %f", then);
    g_free(e);
    g_free(t);
    launch_free(&g);
}

/* bias 0 and 1 are exact: never and always, for the hash of (gid, i) and for
 * the hash of the loaded value. */
Test(gen_control, bias_zero_and_one_are_never_and_always)
{
    const char *conds[] = {"biased", "data"};
    for (int c = 0; c < 2; c++)
        for (int b = 0; b <= 1; b++) {
            char *prof = g_strdup_printf("[loop]\ntrips = 4\n[memory]\npattern = coalesced\nfootprint = 65536\n"
                                         "[branch]\nshape = ifelse\ncond = %s\nbias = %d\n", conds[c], b);
            gen_launch g;
            launch_setup(&g, gen_load(prof, 1), 1, 64);
            uint64_t e[64], t[64];
            per_thread(&g, 1, 64, branch_pc(g.k, "else_1"), e, t);
            for (int i = 0; i < 64; i++)
                cr_assert_eq(t[i], b ? 0 : 4, "%s bias %d thread %d", conds[c], b, i);
            launch_free(&g);
            g_free(prof);
        }
}

/* then_ops 10, else_ops 2: the then block holds 10 instructions and the
 * `bra endif_1`; the else block 2. */
Test(gen_control, imbalanced_paths_have_the_asked_lengths)
{
    isa_program *k = gen_load("[loop]\ntrips = 2\n[branch]\nshape = ifelse\nthen_ops = 10\nelse_ops = 2\n", 1);
    uint32_t br = branch_pc(k, "else_1"), els = label_pc(k, "else_1"), end = label_pc(k, "endif_1");
    cr_assert_eq(els - (br + 1), 11);
    cr_assert_eq(end - els, 2);
    isa_program_free(k);
}

/* predicated: no branch but the loop's back edge; then_ops instructions
 * guarded by @p0 and else_ops by @!p0. */
Test(gen_control, predicated_ifs_have_no_branch)
{
    isa_program *k = gen_load("[loop]\ntrips = 2\n[branch]\nshape = predicated\nthen_ops = 3\nelse_ops = 5\n", 1);
    cr_assert_eq(count_class(k, ISA_CLASS_BRANCH), 1);
    unsigned on = 0, off = 0;
    for (uint32_t pc = 0; pc < isa_program_ninst(k); pc++) {
        const isa_inst *in = isa_program_inst(k, pc);
        if (in->guard == 0)
            in->guard_neg ? off++ : on++;
    }
    cr_assert_eq(on, 3);
    cr_assert_eq(off, 5);
    isa_program_free(k);
}

/* compute.ops per load: 3 ops x 2 loads of pure SFU = 6 SFU instructions;
 * the only float ALU work is the epilogue's 3 adds and 1 conversion. */
Test(gen_control, compute_ops_per_load_set_the_ratio)
{
    isa_program *k = gen_load("[memory]\nloads = 2\n[compute]\nops = 3\nint = 0\nsfu = 1\n", 1);
    cr_assert_eq(count_class(k, ISA_CLASS_SFU), 6);
    cr_assert_eq(count_class(k, ISA_CLASS_ALU_FP), 4);
    cr_assert_eq(count_class(k, ISA_CLASS_LD_GLOBAL), 2);
    isa_program_free(k);
}

/* Mix int 1 : fp 1 : sfu 2 over 1000 ops: SFU 500 and FP 250 expected
 * (binomial standard deviations 16 and 14); we allow 50 and 45. */
Test(gen_control, mix_weights_set_the_class_shares)
{
    isa_program *k = gen_load("[memory]\npattern = none\n[compute]\nops = 1000\nint = 1\nfp = 1\nsfu = 2\n", 1);
    unsigned sfu = count_class(k, ISA_CLASS_SFU), fp = count_class(k, ISA_CLASS_ALU_FP) - 4;
    cr_assert(sfu >= 450 && sfu <= 550, "sfu %u", sfu);
    cr_assert(fp >= 205 && fp <= 295, "fp %u", fp);
    isa_program_free(k);
}

Test(gen_control, barrier_each_iteration)
{
    isa_program *k = gen_load("[loop]\ntrips = 3\nbarrier = on\n", 1);
    cr_assert_eq(count_class(k, ISA_CLASS_BARRIER), 1);
    gen_launch g;
    launch_setup(&g, k, 1, 128);
    launch_run(&g);
    launch_free(&g);
}

/* compute.chains sets the accumulators: with 1 chain and no float work the
 * kernel uses r0..r9 and r10 only: 11 registers; with 3 chains and floats,
 * r10..r12 integer and r13..r15 float: 16. Over 200 integer ops, exactly
 * the 3 integer accumulators are written. */
Test(gen_control, chains_set_the_accumulators_and_registers)
{
    isa_program *k = gen_load("[memory]\npattern = none\n[compute]\nchains = 1\n", 1);
    cr_assert_eq(isa_program_nregs(k), 11);
    isa_program_free(k);
    k = gen_load("[memory]\npattern = none\n[compute]\nchains = 3\nfp = 1\n", 1);
    cr_assert_eq(isa_program_nregs(k), 16);
    isa_program_free(k);
    k = gen_load("[memory]\npattern = none\n[compute]\nchains = 3\nops = 200\n", 1);
    unsigned written = 0;
    for (uint32_t pc = 0; pc < isa_program_ninst(k); pc++) {
        const isa_inst *in = isa_program_inst(k, pc);
        if (in->cls == ISA_CLASS_ALU_INT && in->ndst == 1 && in->dst[0] >= 10)
            written |= 1u << (in->dst[0] - 10);
    }
    cr_assert_eq(written, 0x7, "written accumulators %#x", written);
    isa_program_free(k);
}
