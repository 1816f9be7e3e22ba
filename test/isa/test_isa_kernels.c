/* Whole kernels from workloads/kernels run by the reference runner: the
 * values they compute and the warp-instruction counts, worked out by hand. */
#include <math.h>

#include "isa_test_util.h"

Test(isa_kernels, vecadd)
{
    test_run r;
    uint64_t n = 1000;
    run_1d(&r, load_kernel_file("vecadd.sasm"), 4, 256, &n, 1);
    /* a[i] = i, b[i] = 1000 + 2i => c[i] = 1000 + 3i, exact in f32 */
    cr_expect_float_eq(rd_f32(&r, "c", 0), 1000.0f, 0);
    cr_expect_float_eq(rd_f32(&r, "c", 1), 1003.0f, 0);
    cr_expect_float_eq(rd_f32(&r, "c", 999), 3997.0f, 0);
    cr_expect_eq(rd_u32(&r, "c", 1000), 0, "threads >= n exit before storing");
    /* 32 warps x 13 issues: 7 up to `@p0 exit`, then 6 for the lanes left
     * (warp 31 keeps its 8 lanes 992..999). Executed lanes (guard true):
     * 6 unguarded * 32 lanes * 32 warps = 6144, `@p0 exit` only in warp 31's
     * 24 lanes >= 1000, then 6 * (31*32 + 8) = 6000: 12168. */
    cr_expect_eq(r.st.warp_insts, 416);
    cr_expect_eq(r.st.thread_insts, 12168);
    cr_expect_eq(r.st.ctas, 4);
    run_free(&r);
}

Test(isa_kernels, reduce_shared_with_barriers)
{
    test_run r;
    run_1d(&r, load_kernel_file("reduce_shared.sasm"), 4, 256, NULL, 0);
    /* CTA b sums in[256b .. 256b+255] = (256b+1) + ... + (256b+256)
     *   = 256*256*b + 256*257/2 = 65536 b + 32896 */
    cr_expect_eq(rd_u32(&r, "out", 0), 32896);
    cr_expect_eq(rd_u32(&r, "out", 1), 98432);
    cr_expect_eq(rd_u32(&r, "out", 2), 163968);
    cr_expect_eq(rd_u32(&r, "out", 3), 229504);
    run_free(&r);
}

Test(isa_kernels, ifelse_divergence_and_reconvergence)
{
    test_run r;
    run_1d(&r, load_kernel_file("ifelse.sasm"), 1, 64, NULL, 0);
    for (unsigned i = 0; i < 64; i++)
        cr_expect_eq(rd_u32(&r, "out", i), i % 2 ? i + 100 : 2 * i, "tid %u", i);
    /* per warp: 4 issues to the branch; the taken (even) path `mul` (1, 16
     * lanes); the odd path `add`, `bra join` (2, 16 lanes); then shl, st,
     * exit together (3): 10 issues. Executed lanes: 3*32, the guarded bra
     * in its 16 even lanes, 16, 2*16, 3*32 = 256 per warp. */
    cr_expect_eq(r.st.warp_insts, 20);
    cr_expect_eq(r.st.thread_insts, 512);
    run_free(&r);
}

Test(isa_kernels, pointer_chase_cycle)
{
    /* 4096 words, stride 32: one cycle through the 128 members j*32. */
    test_run r;
    uint64_t iters = 128;
    run_1d(&r, load_kernel_file("chase.sasm"), 1, 1, &iters, 1);
    cr_expect_eq(rd_u32(&r, "sink", 0), 0, "128 steps around a 128-cycle return to 0");
    /* 5 (prologue) + 128 * 5 (loop) + 2 (store, exit) */
    cr_expect_eq(r.st.warp_insts, 647);
    run_free(&r);

    iters = 1;
    run_1d(&r, load_kernel_file("chase.sasm"), 1, 1, &iters, 1);
    uint32_t j1 = rd_u32(&r, "sink", 0);
    cr_expect_eq(j1, (uint32_t)memimg_read(r.mem, sym(r.prog, "next"), 4), "one step is next[0]");
    cr_expect(j1 != 0 && j1 % 32 == 0 && j1 < 4096, "a member other than 0: %u", j1);
    run_free(&r);

    iters = 64;
    run_1d(&r, load_kernel_file("chase.sasm"), 1, 1, &iters, 1);
    cr_expect_neq(rd_u32(&r, "sink", 0), 0, "half way round the cycle is not the start");
    run_free(&r);
}

Test(isa_kernels, warp_prefix_sum)
{
    test_run r;
    run_1d(&r, load_kernel_file("warp_scan.sasm"), 1, 32, NULL, 0);
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(rd_u32(&r, "out", i), (i + 1) * (i + 2) / 2, "lane %u", i);
    /* 4 + 5 rounds of 6 + 2 */
    cr_expect_eq(r.st.warp_insts, 36);
    run_free(&r);
}

Test(isa_kernels, bdiv_paths_serialize)
{
    test_run r;
    uint64_t params[2] = {4, 3}; /* d = 4 paths, n = 3 FMAs */
    run_1d(&r, load_kernel_file("bdiv.sasm"), 1, 32, params, 2);
    for (unsigned i = 0; i < 32; i++) {
        float x = (float)i;
        for (int k = 0; k < 3; k++) x = fmaf(x, 1.0001f, 0.5f);
        cr_expect_float_eq(rd_f32(&r, "sink", i), x, 0, "tid %u", i);
    }
    /* prologue 7; per path: setp, bra (2) + the path's 8 lanes: mov (1) and
     * 3 x (fma, add, setp, bra) (12) + add, setp, bra (3) = 18, times 4;
     * epilogue shl, st, exit (3): 7 + 72 + 3 = 82 */
    cr_expect_eq(r.st.warp_insts, 82);
    run_free(&r);
}

Test(isa_kernels, select_with_cond_acc)
{
    test_run r;
    uint64_t max = 500;
    run_1d(&r, load_kernel_file("select_cond_acc.sasm"), 4, 256, &max, 1);
    /* Every row with col[i] < 500 must appear exactly once in out[0..count),
     * and each warp's rows contiguously in lane order. */
    uint64_t col = sym(r.prog, "col");
    unsigned expect = 0;
    bool want[1024] = {0};
    for (unsigned i = 0; i < 1024; i++)
        if (memimg_read(r.mem, col + 4 * i, 4) < 500) want[i] = true, expect++;
    uint32_t count = rd_u32(&r, "count", 0);
    cr_expect_eq(count, expect);
    cr_expect(expect > 400 && expect < 620, "about half of 1024 match: %u", expect);
    bool seen[1024] = {0};
    for (unsigned k = 0; k < count; k++) {
        uint32_t row = rd_u32(&r, "out", k);
        cr_assert_lt(row, 1024);
        cr_expect(want[row] && !seen[row], "row %u", row);
        seen[row] = true;
        if (k > 0 && rd_u32(&r, "out", k - 1) / 32 == row / 32)
            cr_expect_lt(rd_u32(&r, "out", k - 1), row, "lane order within a warp");
    }
    run_free(&r);
}

Test(isa_kernels, stream_float4_grid_stride)
{
    test_run r;
    uint64_t n4 = 256; /* 1024 floats 0..1023 as 256 float4s */
    run_1d(&r, load_kernel_file("stream_f4.sasm"), 2, 32, &n4, 1);
    /* 64 threads; thread t visits float4s t, t+64, t+128, t+192; float4 i
     * holds 4i..4i+3, summing to 16i + 6. Total: 16(4t + 384) + 24 = 64t + 6168
     * (small integers: exact in f32). */
    for (unsigned t = 0; t < 64; t++) cr_expect_float_eq(rd_f32(&r, "sink", t), 64.0f * t + 6168.0f, 0, "t %u", t);
    run_free(&r);
}

Test(isa_kernels, deterministic)
{
    test_run a, b;
    uint64_t max = 300;
    run_1d(&a, load_kernel_file("select_cond_acc.sasm"), 4, 256, &max, 1);
    run_1d(&b, load_kernel_file("select_cond_acc.sasm"), 4, 256, &max, 1);
    cr_expect_eq(a.st.warp_insts, b.st.warp_insts);
    for (unsigned i = 0; i < 1024; i++) cr_expect_eq(rd_u32(&a, "out", i), rd_u32(&b, "out", i));
    run_free(&a);
    run_free(&b);
}

Test(isa_kernels, all_examples_load_and_dump)
{
    const char *names[] = {"vecadd.sasm", "reduce_shared.sasm", "ifelse.sasm", "chase.sasm",
                           "warp_scan.sasm", "bdiv.sasm", "select_cond_acc.sasm", "stream_f4.sasm"};
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        isa_program *p = load_kernel_file(names[i]);
        GString *s = g_string_new(NULL);
        isa_program_dump(p, s);
        cr_expect(strstr(s->str, "cfg:") != NULL);
        g_string_free(s, TRUE);
        isa_program_free(p);
    }
}
