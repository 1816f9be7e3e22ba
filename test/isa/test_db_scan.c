/* The full table scan of [D] Appendix 1.1 (workloads/papers/db/scan-buffered)
 * run by the reference runner: both versions select exactly the rows a host
 * scan of the same column selects, each once, through the scratchpad buffer,
 * the 224-word flushes and the final flush. */
#include "isa_test_util.h"

static isa_program *load_scan(const char *v)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/papers/db/scan-buffered/scan-%s.sasm",
                                 root ? root : ".", v);
    GError *e = NULL;
    isa_program *p = isa_program_load_file(path, &e);
    cr_assert_not_null(p, "load %s failed: %s", path, e ? e->message : "?");
    g_free(path);
    return p;
}

/* rows 1024 x iters; the column holds 0..2^20-1, the query keeps < max */
static void check_scan(const char *v, uint64_t iters, uint64_t max)
{
    uint64_t params[2] = {1024 * iters, max};
    test_run r;
    run_1d(&r, load_scan(v), 4, 256, params, 2);
    unsigned rows = (unsigned)(1024 * iters);
    uint64_t col = sym(r.prog, "col");
    bool *want = g_new0(bool, rows), *seen = g_new0(bool, rows);
    unsigned expect = 0;
    for (unsigned k = 0; k < rows; k++)
        if (memimg_read(r.mem, col + 4 * k, 4) < max)
            want[k] = true, expect++;
    uint32_t count = rd_u32(&r, "out_count", 0);
    cr_expect_eq(count, expect, "%s: out_count", v);
    for (unsigned i = 0; i < count; i++) {
        uint32_t k = rd_u32(&r, "out", i);
        cr_assert_lt(k, rows, "%s: out[%u]", v, i);
        cr_expect(want[k] && !seen[k], "%s: row %u selected wrongly or twice", v, k);
        seen[k] = true;
    }
    cr_expect_eq(rd_u32(&r, "out", count), 0, "nothing written past the count");
    g_free(want);
    g_free(seen);
    run_free(&r);
}

/* 50%: every warp fills its buffer past 224 many times (16 matches per
 * iteration on average: a flush about every 14 iterations) */
Test(db_scan, ballot_half)
{
    check_scan("ballot", 64, 524288);
}

Test(db_scan, condacc_half)
{
    check_scan("condacc", 64, 524288);
}

/* 1/64: about 0.5 per warp iteration, so no 224 flush: only the final
 * flushes (whole lines, then the leftover after the barrier) */
Test(db_scan, condacc_sparse)
{
    check_scan("condacc", 32, 16384);
}

Test(db_scan, ballot_sparse)
{
    check_scan("ballot", 32, 16384);
}
