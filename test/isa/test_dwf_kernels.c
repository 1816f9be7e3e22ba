/* The DWF thesis set's Bitonic, Black-Scholes and LBM kernels
 * (workloads/papers/dwf/kernels) run with the reference runner: Bitonic's
 * segments must come out ascending and hold the keys they held before
 * (checked against qsort of the input read from the image before the
 * run); Black-Scholes's prices against the closed form computed here in
 * double precision with erfc, not the kernel's polynomial; LBM's
 * stream-collide step against the D2Q9 BGK update computed here on
 * 470.lbm's cell-major layout. */
#include <math.h>
#include <stdio.h>

#include "isa_test_util.h"

static isa_program *dwf_kernel(const char *name)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/papers/dwf/kernels/%s", root ? root : ".", name);
    GError *e = NULL;
    isa_program *p = isa_program_load_file(path, &e);
    cr_assert_not_null(p, "load %s failed: %s", path, e ? e->message : "?");
    g_free(path);
    return p;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* grid CTAs of block threads sort segments of n keys; the segment after
 * the last must not change. */
static void bitonic_case(uint32_t grid, uint32_t block, uint32_t n)
{
    isa_program *p = dwf_kernel("bitonic.sasm");
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    cr_assert_not_null(m, "%s", e ? e->message : "?");
    uint64_t base = sym(p, "values"), words = (uint64_t)(grid + 1) * n;
    uint32_t *want = g_new(uint32_t, words);
    for (uint64_t i = 0; i < words; i++) want[i] = (uint32_t)memimg_read(m, base + 4 * i, 4);
    for (uint32_t c = 0; c < grid; c++) qsort(want + (uint64_t)c * n, n, 4, cmp_u32);

    isa_launch l;
    isa_run_stats st;
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    uint64_t params[1] = {n};
    cr_assert(isa_launch_init(&l, p, m, g, b, 32, params, 1, &e), "%s", e ? e->message : "?");
    cr_assert(isa_run_launch(&l, 200000000, &st, &e), "run failed: %s", e ? e->message : "?");
    unsigned bad = 0;
    for (uint64_t i = 0; i < words; i++)
        if ((uint32_t)memimg_read(m, base + 4 * i, 4) != want[i] && bad++ < 5)
            fprintf(stderr, "values[%lu] = %u, want %u\n", (unsigned long)i,
                         (unsigned)memimg_read(m, base + 4 * i, 4), want[i]);
    cr_expect_eq(bad, 0, "%u words differ from the sorted segments", bad);
    g_free(want);
    memimg_free(m);
    isa_program_free(p);
}

Test(dwf_kernels, bitonic_sorts_each_segment_of_the_main_blocks)
{
    /* the main scenarios' CTAs of 768 threads and segments of 1024 (threads
     * 0-255 take two elements per step, the others one), on 2 CTAs */
    bitonic_case(2, 768, 1024);
}

Test(dwf_kernels, bitonic_sorts_with_few_threads)
{
    /* the ORACLE setting's one CTA of 128 threads: 8 elements each */
    bitonic_case(1, 128, 1024);
}

/* Black-Scholes call and put in double precision: N(x) = erfc(-x / sqrt 2) / 2. */
static void bs_ref(double s, double x, double t, double *call, double *put)
{
    const double r = 0.02, v = 0.30;
    double sq = sqrt(t), d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sq), d2 = d1 - v * sq;
    double n1 = 0.5 * erfc(-d1 / M_SQRT2), n2 = 0.5 * erfc(-d2 / M_SQRT2), e = exp(-r * t);
    *call = s * n1 - x * e * n2;
    *put = x * e * (1.0 - n2) - s * (1.0 - n1);
}

static void wr_f32(memimg *m, uint64_t addr, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    memimg_write(m, addr, 4, u);
}

static float rd_f(memimg *m, uint64_t addr)
{
    uint32_t u = (uint32_t)memimg_read(m, addr, 4);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

Test(dwf_kernels, blackscholes_prices_match_the_closed_form)
{
    /* 2 CTAs of 768, 3072 options (two per thread, the grid-stride loop).
     * The first options are set by hand to reach the subroutines' rare
     * paths: S = X (logf(1): |f| < 2^-20 and f = 0), S/X just above 1
     * (|f| < 2^-20, f != 0), S/X just below 1 (k = -1 after the
     * normalisation), deep in and out of the money at short T (|d| > 13:
     * expf's underflow and tiny-result paths), T = 1 and 4 (even
     * exponents), at the money at T = 10. The others are the SDK's random
     * ranges. Tolerance: the SDK's CND polynomial is within 7.5e-8 of N
     * (Abramowitz and Stegun 26.2.17), times prices of at most 100 (7.5e-6),
     * plus single-precision rounding of a few terms of at most 100 (ulp
     * 7.6e-6 each): 2e-4 leaves room and fails on a wrong formula or
     * constant (a 1e-3 error in logf alone moves d by 7e-3 at V sqrt(T) =
     * 0.15, a price by about 0.08). */
    enum { OPTS = 3072 };
    static const float hand[][3] = {
        {20.0f, 20.0f, 1.0f},  {20.0f, 20.000004f, 2.0f}, {20.0f, 19.999998f, 4.0f}, {19.0f, 20.0f, 0.5f},
        {30.0f, 1.0f, 0.25f},  {5.0f, 100.0f, 0.25f},     {10.0f, 10.5f, 10.0f},     {29.0f, 2.0f, 0.3f},
    };
    isa_program *p = dwf_kernel("blackscholes.sasm");
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    cr_assert_not_null(m, "%s", e ? e->message : "?");
    uint64_t ps = sym(p, "price"), px = sym(p, "strike"), pt = sym(p, "years");
    for (unsigned i = 0; i < G_N_ELEMENTS(hand); i++) {
        wr_f32(m, ps + 4 * i, hand[i][0]);
        wr_f32(m, px + 4 * i, hand[i][1]);
        wr_f32(m, pt + 4 * i, hand[i][2]);
    }
    float *s = g_new(float, OPTS), *x = g_new(float, OPTS), *t = g_new(float, OPTS);
    for (unsigned i = 0; i < OPTS; i++) {
        s[i] = rd_f(m, ps + 4 * i);
        x[i] = rd_f(m, px + 4 * i);
        t[i] = rd_f(m, pt + 4 * i);
    }
    isa_launch l;
    isa_run_stats st;
    uint32_t g[3] = {2, 1, 1}, b[3] = {768, 1, 1};
    uint64_t params[1] = {OPTS};
    cr_assert(isa_launch_init(&l, p, m, g, b, 32, params, 1, &e), "%s", e ? e->message : "?");
    cr_assert(isa_run_launch(&l, 200000000, &st, &e), "run failed: %s", e ? e->message : "?");
    uint64_t pc = sym(p, "call"), pp = sym(p, "put");
    unsigned bad = 0;
    double worst = 0;
    for (unsigned i = 0; i < OPTS; i++) {
        double call, put;
        bs_ref(s[i], x[i], t[i], &call, &put);
        double gc = rd_f(m, pc + 4 * i), gp = rd_f(m, pp + 4 * i);
        double err = fmax(fabs(gc - call), fabs(gp - put));
        if (!(err <= 2e-4) && bad++ < 5)
            fprintf(stderr, "option %u (S %g X %g T %g): call %g put %g, want %g %g\n", i, s[i], x[i], t[i], gc, gp,
                         call, put);
        if (err > worst)
            worst = err;
    }
    cr_expect_eq(bad, 0, "%u of %d options off by more than 2e-4 (worst %g)", bad, OPTS, worst);
    /* an option past the last is not priced */
    cr_expect_eq(memimg_read(m, pc + 4 * OPTS, 4), 0);
    g_free(s);
    g_free(x);
    g_free(t);
    memimg_free(m);
    isa_program_free(p);
}

static double rd_f64(memimg *m, uint64_t a)
{
    uint64_t u = memimg_read(m, a, 8);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

Test(dwf_kernels, lbm_stream_collide_on_the_cell_major_layout)
{
    /* 16 x 16 periodic lattice (logw 4), one CTA of 64 threads: 4 cells a
     * thread. 470.lbm's layout (lbm.h, CALC_INDEX): cell c's distribution q
     * at f[10 c + q], its flag at f[10 c + 9]; flag < 0.06 is an obstacle,
     * whose f_q goes to its own cell's opposite direction; a fluid cell's
     * f'_q = f_q + 1.85 (feq_q - f_q), feq_q = w_q rho (1 + 3 cu + 4.5 cu^2
     * - 1.5 u.u), goes to the neighbour along c_q. Double precision; the
     * kernel's fused multiply-adds round differently: 1e-12. */
    enum { LOGW = 4, W = 1 << LOGW, N = W * W, E = 10 };
    static const int cx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1}, cy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
    static const int opp[9] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
    static const double w[9] = {4.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};
    isa_program *p = dwf_kernel("lbm.sasm");
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    cr_assert_not_null(m, "%s", e ? e->message : "?");
    uint64_t ps = sym(p, "src"), pd = sym(p, "dst");
    double *f = g_new(double, N * E), *want = g_new0(double, N * E);
    unsigned char *writers = g_new0(unsigned char, N * E);
    for (unsigned i = 0; i < N * E; i++) f[i] = rd_f64(m, ps + 8 * i);
    unsigned obstacles = 0;
    for (int c = 0; c < N; c++) {
        const double *fc = f + E * c;
        int x = c % W, y = c / W;
        if (fc[9] < 0.06) {
            obstacles++;
            for (int q = 0; q < 9; q++) {
                want[E * c + opp[q]] = fc[q];
                writers[E * c + opp[q]]++;
            }
            continue;
        }
        double rho = 0, ux = 0, uy = 0;
        for (int q = 0; q < 9; q++) {
            rho += fc[q];
            ux += fc[q] * cx[q];
            uy += fc[q] * cy[q];
        }
        ux /= rho;
        uy /= rho;
        for (int q = 0; q < 9; q++) {
            double cu = cx[q] * ux + cy[q] * uy;
            double feq = w[q] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * (ux * ux + uy * uy));
            int n = ((y + cy[q] + W) % W) * W + (x + cx[q] + W) % W;
            want[E * n + q] = fc[q] + 1.85 * (feq - fc[q]);
            writers[E * n + q]++;
        }
    }
    cr_assert(obstacles > 0 && obstacles < N / 4, "%u obstacle cells of %d: about 1 in 10 expected", obstacles, N);
    isa_launch l;
    isa_run_stats st;
    uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
    uint64_t params[1] = {LOGW};
    cr_assert(isa_launch_init(&l, p, m, g, b, 32, params, 1, &e), "%s", e ? e->message : "?");
    cr_assert(isa_run_launch(&l, 200000000, &st, &e), "run failed: %s", e ? e->message : "?");
    /* An obstacle cell's entry q is also pushed to by its fluid neighbour
     * along -c_q (as in 470.lbm): which write lands last is the issue
     * order's, so those entries are left out; every other entry has one
     * writer, entry 9 (the flag) none, and stays 0. */
    unsigned bad = 0, checked = 0;
    for (int c = 0; c < N; c++)
        for (int q = 0; q < E; q++) {
            if (writers[E * c + q] > 1)
                continue;
            checked++;
            double got = rd_f64(m, pd + 8 * ((uint64_t)E * c + q)), wq = want[E * c + q];
            if (!(fabs(got - wq) <= 1e-12) && bad++ < 5)
                fprintf(stderr, "dst cell %d entry %d: %.17g, want %.17g\n", c, q, got, wq);
        }
    cr_expect_eq(bad, 0, "%u of %u destination entries differ", bad, checked);
    cr_expect_gt(checked, N * 9 * 3 / 4, "only %u entries with one writer", checked);
    g_free(f);
    g_free(want);
    g_free(writers);
    memimg_free(m);
    isa_program_free(p);
}
