/* csr_offsets / csr_edges: degrees of each distribution worked out by hand,
 * offsets consistent with them (last offset = edge count), edge targets in
 * range and local when asked, O(1) on a 2^36-edge graph, and the errors. */
#include "test_memimg_util.h"

/* A graph image: `off` (u32/u64 offsets) at T_BASE and `edg` (u32) after it. */
static memimg *graph(uint64_t vertices, uint64_t degree, unsigned off_bytes, const char *args)
{
    memimg *m = memimg_new(77);
    GError *err = NULL;
    char *off = g_strdup_printf("csr_offsets(%s)", args), *edg = g_strdup_printf("csr_edges(%s)", args);
    cr_assert(memimg_add_array(m, "off", T_BASE, off_bytes, false, vertices + 1, off, "g:1", &err), "%s",
              err ? err->message : "");
    cr_assert(memimg_add_array(m, "edg", UINT64_C(1) << 44, 4, false, vertices * degree, edg, "g:2", &err),
              "%s", err ? err->message : "");
    g_free(off);
    g_free(edg);
    return m;
}

static uint64_t deg(memimg *m, uint64_t v) { return elem_of(m, "off", v + 1) - elem_of(m, "off", v); }

Test(dinit_csr, uniform_degree)
{
    memimg *m = graph(100, 8, 4, "vertices=100, degree=8");
    cr_assert_eq(elem_of(m, "off", 0), 0);
    cr_assert_eq(elem_of(m, "off", 37), 296); /* 37 * 8 */
    cr_assert_eq(elem_of(m, "off", 100), 800); /* = edge count */
    bool hit[100] = {false};
    unsigned distinct = 0;
    for (uint64_t e = 0; e < 800; e++) {
        uint64_t t = elem_of(m, "edg", e);
        cr_assert_lt(t, 100);
        distinct += !hit[t];
        hit[t] = true;
    }
    /* a vertex is missed by 800 uniform draws with chance 0.99^800 = 3e-4 */
    cr_assert_geq(distinct, 98);
    memimg_free(m);
}

Test(dinit_csr, pair_degrees_sum_to_twice_the_average)
{
    /* 101 vertices: 50 pairs (10+k, 10-k), k in [0, 4], and vertex 100 with 10 */
    memimg *m = graph(101, 10, 4, "vertices=101, degree=10, dist=pair, spread=4");
    bool seen_k[5] = {false};
    for (uint64_t p = 0; p < 50; p++) {
        cr_assert_eq(elem_of(m, "off", 2 * p), 20 * p);
        uint64_t k = deg(m, 2 * p) - 10;
        cr_assert_leq(k, 4);
        cr_assert_eq(deg(m, 2 * p + 1), 10 - k);
        seen_k[k] = true;
    }
    for (int k = 0; k <= 4; k++) cr_assert(seen_k[k], "k=%d never drawn in 50 pairs", k);
    cr_assert_eq(deg(m, 100), 10);
    cr_assert_eq(elem_of(m, "off", 101), 1010);
    memimg_free(m);
}

Test(dinit_csr, zipf_profile_by_hand)
{
    /* group 4, degree 8, alpha 1: T = 32, weights 1, 1/2, 1/3, 1/4 (sum 25/12);
     * prefix round(32 * {0, 1, 3/2, 11/6, 25/12} / (25/12)) = 0, 15.36->15,
     * 23.04->23, 28.16->28, 32: profile degrees 15, 8, 5, 4 */
    memimg *m = graph(10, 8, 4, "vertices=10, degree=8, dist=zipf, group=4, alpha=1");
    static const uint64_t profile[4] = {15, 8, 5, 4};
    for (uint64_t g = 0; g < 2; g++) {
        cr_assert_eq(elem_of(m, "off", 4 * g), 32 * g);
        uint64_t rho = 4;
        for (uint64_t r = 0; r < 4; r++)
            if (deg(m, 4 * g) == profile[r]) rho = r;
        cr_assert_lt(rho, 4, "group %lu does not start with a profile degree", (unsigned long)g);
        for (uint64_t r = 0; r < 4; r++) cr_assert_eq(deg(m, 4 * g + r), profile[(rho + r) % 4]);
    }
    /* vertices 8 and 9 form a partial group: degree 8 each */
    cr_assert_eq(elem_of(m, "off", 8), 64);
    cr_assert_eq(deg(m, 8), 8);
    cr_assert_eq(deg(m, 9), 8);
    cr_assert_eq(elem_of(m, "off", 10), 80);
    memimg_free(m);
}

Test(dinit_csr, zipf_default_group_has_a_hub)
{
    /* group 64, degree 4, alpha 1: T = 256, H_64 = 4.74389, hub degree
     * round(256 / 4.74389) = round(53.96) = 54; 1000 / 64 = 15 full groups */
    memimg *m = graph(1000, 4, 4, "vertices=1000, degree=4, dist=zipf");
    for (uint64_t g = 0; g < 15; g++) {
        cr_assert_eq(elem_of(m, "off", 64 * g), 256 * g);
        uint64_t max = 0;
        for (uint64_t r = 0; r < 64; r++)
            if (deg(m, 64 * g + r) > max) max = deg(m, 64 * g + r);
        cr_assert_eq(max, 54);
    }
    for (uint64_t v = 960; v < 1000; v++) cr_assert_eq(deg(m, v), 4);
    cr_assert_eq(elem_of(m, "off", 1000), 4000);
    memimg_free(m);
}

Test(dinit_csr, window_keeps_targets_near_the_nominal_source)
{
    memimg *m = graph(1000, 4, 4, "vertices=1000, degree=4, window=5");
    unsigned at_offset[11] = {0};
    for (uint64_t e = 0; e < 4000; e++) {
        int64_t src = (int64_t)(e / 4), t = (int64_t)elem_of(m, "edg", e);
        int64_t d = ((t - src) % 1000 + 1000 + 500) % 1000 - 500; /* circular distance */
        cr_assert(d >= -5 && d <= 5, "edge %lu: %ld -> %ld", (unsigned long)e, (long)src, (long)t);
        at_offset[d + 5]++;
    }
    for (int k = 0; k < 11; k++) cr_assert_gt(at_offset[k], 250); /* ~364 each */
    memimg_free(m);
}

Test(dinit_csr, o1_on_a_large_graph)
{
    /* 2^32 vertices of average degree 16: 2^36 edges (256 GiB of u32) */
    uint64_t n = UINT64_C(1) << 32;
    memimg *m = graph(n, 16, 8, "vertices=4294967296, degree=16, dist=zipf, group=1024, window=64");
    cr_assert_eq(elem_of(m, "off", n), UINT64_C(1) << 36);
    cr_assert_eq(elem_of(m, "off", 1024 * 1000), 16 * 1024 * 1000); /* group boundary */
    /* No timing (tests are never timed): an initializer that was O(n) in the
     * index would need ~2^36 steps per read and never finish. */
    for (uint64_t k = 1; k <= 10000; k++) {
        uint64_t v = (k * 0x9e3779b97ull) % n;
        cr_assert_geq(elem_of(m, "off", v + 1), elem_of(m, "off", v));
        cr_assert_lt(elem_of(m, "edg", v * 16 + 5), n);
    }
    cr_assert_eq(memimg_bytes_stored(m), 0);
    memimg_free(m);
}

Test(dinit_csr, errors)
{
    EXPECT_ERROR(4, false, 100, "csr_offsets(vertices=100, degree=2)", MEMIMG_ERROR_LAYOUT,
                 "csr_offsets: the array has 100 elements but csr_offsets needs 101 (vertices + 1)");
    EXPECT_ERROR(4, false, 100, "csr_edges(vertices=10, degree=8)", MEMIMG_ERROR_LAYOUT,
                 "needs 80 (vertices * degree)");
    EXPECT_ERROR(4, false, 100, "csr_edges(degree=8)", MEMIMG_ERROR_MISSING_ARG,
                 "csr_edges: missing argument 'vertices'");
    EXPECT_ERROR(4, false, 11, "csr_offsets(vertices=10)", MEMIMG_ERROR_MISSING_ARG,
                 "missing argument 'degree'");
    EXPECT_ERROR(1, false, 101, "csr_offsets(degree=3)", MEMIMG_ERROR_RANGE,
                 "values up to 300 do not fit a 1-byte element");
    EXPECT_ERROR(2, false, 70000, "csr_edges(vertices=70000, degree=1)", MEMIMG_ERROR_RANGE,
                 "values up to 69999 do not fit a 2-byte element");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=3, spread=1)", MEMIMG_ERROR_BAD_VALUE,
                 "argument 'spread' applies only to dist=pair");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=3, dist=pair, alpha=2)", MEMIMG_ERROR_BAD_VALUE,
                 "argument 'alpha' applies only to dist=zipf");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=3, dist=pair, spread=4)", MEMIMG_ERROR_RANGE,
                 "argument 'spread' = 4 is out of range: expected 0..3");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=3, dist=zpf)", MEMIMG_ERROR_BAD_VALUE,
                 "argument 'dist': unknown value 'zpf'; did you mean 'zipf'? (one of: uniform, pair, zipf)");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=3, dist=zipf, group=1)", MEMIMG_ERROR_RANGE,
                 "argument 'group' = 1 is out of range: expected 2..65536");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=3, dist=zipf, alpha=5)", MEMIMG_ERROR_RANGE,
                 "argument 'alpha' = 5 is out of range");
    EXPECT_ERROR(4, false, 11, "csr_offsets(degree=0)", MEMIMG_ERROR_RANGE, "argument 'degree' = 0");
    EXPECT_ERROR(4, false, 30, "csr_edges(vertices=10, degree=3, window=11)", MEMIMG_ERROR_RANGE,
                 "argument 'window' = 11 is out of range: expected 0..10");
    EXPECT_ERROR(8, false, 4, "csr_edges(vertices=281474976710656, degree=4294967296)",
                 MEMIMG_ERROR_RANGE, "overflows");
    EXPECT_ERROR(4, true, 11, "csr_offsets(degree=3)", MEMIMG_ERROR_LAYOUT, "needs an integer array");
}
