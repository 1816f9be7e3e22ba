/* The DWS paper's Filter and LU written for simtgrid
 * (workloads/papers/dws/kernels), run with the reference runner: the
 * outputs are checked against the algorithm computed here in C from the
 * kernel's input arrays (a fresh memory image of the declared data), not
 * against the kernel's own code path. */
#include <math.h>
#include <string.h>

#include "isa_test_util.h"

/* A fresh memory image of the kernel's arrays: its inputs as declared. */
static memimg *inputs(isa_program *p)
{
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    cr_assert_not_null(m, "%s", e ? e->message : "?");
    return m;
}

static double f64_at(memimg *m, const isa_program *p, const char *array, uint64_t i)
{
    uint64_t bits = memimg_read(m, sym(p, array) + 8 * i, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Filter on rows 1..19 of the 500 x 500 image (rows = 20), one CTA of 16
 * threads (rows handed out cyclically: threads 0-2 also take rows 17-19;
 * the warp size, 32 here, does not change the result):
 * every interior pixel of those rows is |8 c - the 8
 * neighbours| clamped to 255 (the Laplacian mask), the borders and the rows
 * from 20 on stay 0. */
Test(dws_kernels, filter_laplacian)
{
    enum { W = 500, H = 500, ROWS = 20 };
    isa_program *p = load_kernel_file("../papers/dws/kernels/filter.sasm");
    memimg *in = inputs(p);
    uint8_t *img = g_new(uint8_t, W * H);
    for (uint64_t i = 0; i < W * H; i++) img[i] = (uint8_t)memimg_read(in, sym(p, "img") + i, 1);
    uint64_t params[3] = {W, H, ROWS};
    test_run r;
    run_1d(&r, p, 1, 16, params, 3);
    unsigned nonzero = 0;
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < W; x++) {
            int want = 0;
            if (y >= 1 && y < ROWS && x >= 1 && x < W - 1) {
                int s = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        s += (dy || dx ? -1 : 8) * img[(y + dy) * W + x + dx];
                want = abs(s) > 255 ? 255 : abs(s);
            }
            int got = (int)memimg_read(r.mem, sym(p, "out") + (uint64_t)y * W + x, 1);
            cr_assert_eq(got, want, "out[%d][%d] = %d, want %d", y, x, got, want);
            nonzero += want != 0;
        }
    cr_expect_gt(nonzero, 1000, "the check saw almost no edges");
    g_free(img);
    memimg_free(in);
    run_free(&r);
}

/* LU of CTA 0's 150 x 150 matrix (one CTA of 64 threads), all 149 steps:
 * L (unit diagonal, below it) times U (on and above it) gives back the
 * input to rounding; the first multiplier is exactly a[1][0] / a[0][0];
 * the next CTA's matrix is not touched. */
Test(dws_kernels, lu_factors, .timeout = 120)
{
    enum { N = 150 };
    isa_program *p = load_kernel_file("../papers/dws/kernels/lu.sasm");
    memimg *in = inputs(p);
    double *a = g_new(double, 2 * N * N);
    for (uint64_t i = 0; i < 2 * N * N; i++) a[i] = f64_at(in, p, "a", i);
    /* the input is diagonally dominant, as the kernel's comment says */
    for (int r = 0; r < N; r++) {
        double off = 0;
        for (int c = 0; c < N; c++) off += c == r ? 0 : fabs(a[r * N + c]);
        cr_assert_gt(fabs(a[r * N + r]), off, "row %d not diagonally dominant", r);
    }
    uint64_t params[2] = {N, N - 1};
    test_run run;
    run_1d(&run, p, 1, 64, params, 2);
    double *f = g_new(double, N * N);
    for (uint64_t i = 0; i < N * N; i++) f[i] = f64_at(run.mem, p, "a", i);
    cr_expect_eq(f[N], a[N] / a[0], "first multiplier %.17g", f[N]);
    double worst = 0;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            double s = 0;
            for (int m = 0; m <= (r < c ? r : c); m++) s += (m == r ? 1.0 : f[r * N + m]) * f[m * N + c];
            double err = fabs(s - a[r * N + c]) / (fabs(a[r * N + c]) + 1.0);
            worst = err > worst ? err : worst;
        }
    cr_expect_lt(worst, 1e-9, "L x U differs from A by %g (relative)", worst);
    for (uint64_t i = N * N; i < 2 * N * N; i++)
        cr_assert_eq(f64_at(run.mem, p, "a", i), a[i], "the second matrix changed at %lu", (unsigned long)i);
    g_free(f);
    g_free(a);
    memimg_free(in);
    run_free(&run);
}
