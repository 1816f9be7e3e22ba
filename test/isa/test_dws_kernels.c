/* The DWS paper's Filter and LU written for simtgrid
 * (workloads/papers/dws/kernels), run with the reference runner: the
 * outputs are checked against the algorithm computed here in C from the
 * kernel's input arrays (read from the memory image before the run), not
 * against the kernel's own code path. */
#include <math.h>
#include <string.h>

#include "isa_test_util.h"

typedef struct kr {
    isa_program *p;
    memimg *m;
} kr;

static void kr_load(kr *k, const char *name)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/papers/dws/kernels/%s", root ? root : ".", name);
    GError *e = NULL;
    k->p = isa_program_load_file(path, &e);
    cr_assert_not_null(k->p, "load %s failed: %s", path, e ? e->message : "?");
    g_free(path);
    k->m = isa_program_new_memimg(k->p, 1, &e);
    cr_assert_not_null(k->m, "%s", e ? e->message : "?");
}

/* One launch of g CTAs of b threads, warps of 16 (the DWS machine's). */
static void kr_run(kr *k, uint32_t g, uint32_t b, const uint64_t *params, unsigned n)
{
    GError *e = NULL;
    isa_launch l;
    isa_run_stats st;
    uint32_t gd[3] = {g, 1, 1}, bd[3] = {b, 1, 1};
    cr_assert(isa_launch_init(&l, k->p, k->m, gd, bd, 16, params, n, &e), "%s", e ? e->message : "?");
    cr_assert(isa_run_launch(&l, 400000000, &st, &e), "run failed: %s", e ? e->message : "?");
}

static void kr_free(kr *k)
{
    memimg_free(k->m);
    isa_program_free(k->p);
}

static double rdf64(kr *k, const char *array, uint64_t i)
{
    uint64_t bits = memimg_read(k->m, sym(k->p, array) + 8 * i, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Filter on rows 1..19 of the 500 x 500 image (rows = 20), one CTA of 16
 * threads (rows handed out cyclically: threads 0-2 also take rows 17-19):
 * every interior pixel of those rows is |8 c - the 8
 * neighbours| clamped to 255 (the Laplacian mask), the borders and the rows
 * from 20 on stay 0. */
Test(dws_kernels, filter_laplacian)
{
    enum { W = 500, H = 500, ROWS = 20 };
    kr k;
    kr_load(&k, "filter.sasm");
    uint8_t *img = g_new(uint8_t, W * H);
    for (uint64_t i = 0; i < W * H; i++) img[i] = (uint8_t)memimg_read(k.m, sym(k.p, "img") + i, 1);
    uint64_t params[3] = {W, H, ROWS};
    kr_run(&k, 1, 16, params, 3);
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
            int got = (int)memimg_read(k.m, sym(k.p, "out") + (uint64_t)y * W + x, 1);
            cr_assert_eq(got, want, "out[%d][%d] = %d, want %d", y, x, got, want);
            nonzero += want != 0;
        }
    cr_expect_gt(nonzero, 1000, "the check saw almost no edges");
    g_free(img);
    kr_free(&k);
}

/* LU of CTA 0's 150 x 150 matrix (one CTA of 64 threads), all 149 steps:
 * L (unit diagonal, below it) times U (on and above it) gives back the
 * input to rounding; the first multiplier is exactly a[1][0] / a[0][0];
 * the next CTA's matrix is not touched. */
Test(dws_kernels, lu_factors, .timeout = 120)
{
    enum { N = 150 };
    kr k;
    kr_load(&k, "lu.sasm");
    double *a = g_new(double, 2 * N * N);
    for (uint64_t i = 0; i < 2 * N * N; i++) a[i] = rdf64(&k, "a", i);
    /* the input is diagonally dominant, as the kernel's comment says */
    for (int r = 0; r < N; r++) {
        double off = 0;
        for (int c = 0; c < N; c++) off += c == r ? 0 : fabs(a[r * N + c]);
        cr_assert_gt(fabs(a[r * N + r]), off, "row %d not diagonally dominant", r);
    }
    uint64_t params[2] = {N, N - 1};
    kr_run(&k, 1, 64, params, 2);
    double *f = g_new(double, N * N);
    for (uint64_t i = 0; i < N * N; i++) f[i] = rdf64(&k, "a", i);
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
        cr_assert_eq(rdf64(&k, "a", i), a[i], "the second matrix changed at %lu", (unsigned long)i);
    g_free(f);
    g_free(a);
    kr_free(&k);
}
