/* The memory-divergence thesis's benchmark kernels written for simtgrid
 * (workloads/papers/memdiv/kernels), run on small inputs with the reference
 * runner: every output checked against the algorithm computed here in C
 * from the kernel's input arrays (read from the memory image before the
 * run), not against the kernel's own code path. */
#include <math.h>

#include "isa_test_util.h"

typedef struct kr {
    isa_program *p;
    memimg *m;
} kr;

static void kr_load(kr *k, const char *name)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/papers/memdiv/kernels/%s", root ? root : ".", name);
    GError *e = NULL;
    k->p = isa_program_load_file(path, &e);
    cr_assert_not_null(k->p, "load %s failed: %s", path, e ? e->message : "?");
    g_free(path);
    k->m = isa_program_new_memimg(k->p, 1, &e);
    cr_assert_not_null(k->m, "%s", e ? e->message : "?");
}

/* One launch of gx x gy CTAs of bx x by threads on the kernel's image. */
static void kr_run(kr *k, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, const uint64_t *params,
                   unsigned n)
{
    GError *e = NULL;
    isa_launch l;
    isa_run_stats st;
    uint32_t g[3] = {gx, gy, 1}, b[3] = {bx, by, 1};
    cr_assert(isa_launch_init(&l, k->p, k->m, g, b, 32, params, n, &e), "%s", e ? e->message : "?");
    cr_assert(isa_run_launch(&l, 200000000, &st, &e), "run failed: %s", e ? e->message : "?");
}

static void kr_free(kr *k)
{
    memimg_free(k->m);
    isa_program_free(k->p);
}

static uint32_t rd(kr *k, const char *array, uint64_t i)
{
    return (uint32_t)memimg_read(k->m, sym(k->p, array) + 4 * i, 4);
}

static uint8_t rd8(kr *k, const char *array, uint64_t i)
{
    return (uint8_t)memimg_read(k->m, sym(k->p, array) + i, 1);
}

/* A copy of the first n words of an array (g_free it). */
static uint32_t *snap(kr *k, const char *array, uint64_t n)
{
    uint32_t *v = g_new(uint32_t, n);
    for (uint64_t i = 0; i < n; i++) v[i] = rd(k, array, i);
    return v;
}

Test(memdiv_kernels, sc_compute_cost_two_invocations)
{
    /* 512 points, 4 dimensions, candidate centres 3 then 100 (Rodinia's
     * pgain: x_cost = dist * weight; closer: switch = 1 and work[K] +=
     * x_cost - cost, else work[assign] += cost - x_cost; K = 7). */
    enum { N = 512, DIM = 4, K = 7 };
    kr k;
    kr_load(&k, "sc.sasm");
    uint32_t *coord = snap(&k, "coord", (uint64_t)DIM * N), *pts = snap(&k, "pts", 8 * N);
    uint32_t work[N][8] = {{0}}, sw[N] = {0};
    const uint32_t xs[2] = {3, 100};
    for (int inv = 0; inv < 2; inv++) {
        uint64_t params[2] = {xs[inv], DIM};
        kr_run(&k, 4, 1, 128, 1, params, 2);
        for (uint32_t t = 0; t < N; t++) {
            uint32_t d = 0;
            for (uint32_t i = 0; i < DIM; i++) {
                uint32_t diff = coord[i * N + t] - coord[i * N + xs[inv]];
                d += diff * diff;
            }
            uint32_t x_cost = d * pts[8 * t], cost = pts[8 * t + 4], assign = pts[8 * t + 2];
            if (x_cost < cost) {
                sw[t] = 1;
                work[t][K] += x_cost - cost;
            } else {
                work[t][assign] += cost - x_cost;
            }
        }
    }
    unsigned closer = 0;
    for (uint32_t t = 0; t < N; t++) {
        cr_expect_eq(rd(&k, "switch", t), sw[t], "point %u", t);
        closer += sw[t];
        for (int c = 0; c < 8; c++) cr_expect_eq(rd(&k, "work", 8 * t + c), work[t][c], "point %u slot %d", t, c);
    }
    cr_expect(closer > 0 && closer < N, "both branches taken: %u closer", closer);
    g_free(coord);
    g_free(pts);
    kr_free(&k);
}

static uint32_t djb2_until(kr *k, uint64_t *pos, uint64_t end, uint8_t stop)
{
    uint32_t h = 5381;
    while (*pos < end) {
        uint8_t c = rd8(k, "log", (*pos)++);
        if (c == stop) break;
        h = h * 33 + c;
    }
    return h;
}

Test(memdiv_kernels, pvc_map_hashes_url_and_ip)
{
    /* batch 1 of 2 x 64 entries: entries 128..255; each 64-B entry is
     * "URL IP\n" (URL 8-39 letters, IP 7-15 characters, all within 63 B). */
    kr k;
    kr_load(&k, "pvc.sasm");
    uint64_t batch = 1;
    kr_run(&k, 2, 1, 64, 1, &batch, 1);
    for (uint32_t e = 128; e < 256; e++) {
        uint64_t pos = 64 * (uint64_t)e, end = pos + 63;
        uint32_t url = djb2_until(&k, &pos, end, ' ');
        uint32_t ip = djb2_until(&k, &pos, end, '\n');
        cr_expect_eq(rd(&k, "keys", e), url, "entry %u", e);
        cr_expect_eq(rd(&k, "vals", e), ip, "entry %u", e);
    }
    cr_expect_eq(rd(&k, "keys", 0), 0, "batch 0 is not parsed");
    kr_free(&k);
}

Test(memdiv_kernels, pf_likelihood_and_find_index)
{
    /* 64 particles, 8 disc pixels: ind[i][y] = ((x_i + ox_y) * 128 + y_i +
     * oy_y) mod 16384; likelihood = sum (I-100)^2 - (I-228)^2. Then the
     * first x with CDF[x] = 4x >= u[i] = 4i + j (j in 0..3): x = i for j = 0,
     * i + 1 otherwise (the last particle's search stops at n - 1). */
    enum { N = 64, ONES = 8 };
    kr k;
    kr_load(&k, "pf.sasm");
    uint32_t *ax = snap(&k, "arrayx", N), *ay = snap(&k, "arrayy", N);
    uint32_t *ox = snap(&k, "objx", ONES), *oy = snap(&k, "objy", ONES), *img = snap(&k, "img", 16384);
    uint64_t p0[3] = {0, ONES, N};
    kr_run(&k, 2, 1, 32, 1, p0, 3);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t like = 0;
        for (uint32_t y = 0; y < ONES; y++) {
            uint32_t ind = ((ax[i] + ox[y]) * 128 + ay[i] + oy[y]) % 16384;
            cr_expect_eq(rd(&k, "ind", i * ONES + y), ind, "particle %u pixel %u", i, y);
            uint32_t v = img[ind];
            like += (v - 100) * (v - 100) - (v - 228) * (v - 228);
        }
        cr_expect_eq(rd(&k, "like", i), like, "particle %u", i);
    }
    uint64_t p1[3] = {1, ONES, N};
    kr_run(&k, 2, 1, 32, 1, p1, 3);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t u = rd(&k, "u", i), want = u % 4 == 0 ? i : i + 1;
        if (want > N - 1) want = N - 1;
        cr_expect_eq(rd(&k, "xj", i), ax[want], "particle %u", i);
        cr_expect_eq(rd(&k, "yj", i), ay[want], "particle %u", i);
    }
    g_free(ax), g_free(ay), g_free(ox), g_free(oy), g_free(img);
    kr_free(&k);
}

/* The weight at hidden unit tx + 1 of input unit 16 by + ty + 1 (rows of 17). */
static uint32_t bp_w(uint32_t by, uint32_t ty, uint32_t tx)
{
    return (16 * by + ty + 1) * 17 + tx + 1;
}

Test(memdiv_kernels, bp_layerforward_tree_sums)
{
    /* 2 CTAs of 16 x 16. After the tree over ty (steps of 1, 2, 4, 8),
     * wm[ty][tx] holds the sum of the products over ty .. ty + lowbit(ty) - 1
     * (lowbit(0) = 16: row 0 holds the column total, written to partial). */
    kr k;
    kr_load(&k, "bp.sasm");
    uint32_t *w = snap(&k, "w", bp_w(1, 15, 15) + 1), *in = snap(&k, "in", 34);
    uint64_t phase = 0;
    kr_run(&k, 1, 2, 16, 16, &phase, 1);
    for (uint32_t by = 0; by < 2; by++)
        for (uint32_t tx = 0; tx < 16; tx++)
            for (uint32_t ty = 0; ty < 16; ty++) {
                uint32_t span = ty ? (ty & -ty) : 16, s = 0;
                for (uint32_t r = ty; r < ty + span; r++) s += w[bp_w(by, r, tx)] * in[16 * by + r + 1];
                cr_expect_eq(rd(&k, "w", bp_w(by, ty, tx)), s, "by %u ty %u tx %u", by, ty, tx);
                if (ty == 0) cr_expect_eq(rd(&k, "partial", 16 * by + tx), s, "partial %u %u", by, tx);
            }
    g_free(w), g_free(in);
    kr_free(&k);
}

Test(memdiv_kernels, bp_adjust_weights)
{
    /* step = 3 delta[tx+1] ly[16 by + ty + 1] + oldw; w += step; oldw = step */
    kr k;
    kr_load(&k, "bp.sasm");
    uint32_t n = bp_w(1, 15, 15) + 1;
    uint32_t *w = snap(&k, "w", n), *ow = snap(&k, "oldw", n), *in = snap(&k, "in", 34), *dl = snap(&k, "delta", 17);
    uint64_t phase = 1;
    kr_run(&k, 1, 2, 16, 16, &phase, 1);
    for (uint32_t by = 0; by < 2; by++)
        for (uint32_t ty = 0; ty < 16; ty++)
            for (uint32_t tx = 0; tx < 16; tx++) {
                uint32_t i = bp_w(by, ty, tx), step = 3 * dl[tx + 1] * in[16 * by + ty + 1] + ow[i];
                cr_expect_eq(rd(&k, "w", i), w[i] + step, "w %u", i);
                cr_expect_eq(rd(&k, "oldw", i), step, "oldw %u", i);
            }
    cr_expect_eq(rd(&k, "oldw", 0), ow[0], "the bias row is not updated");
    g_free(w), g_free(ow), g_free(in), g_free(dl);
    kr_free(&k);
}

Test(memdiv_kernels, srad_one_iteration)
{
    /* 1024 x 8 image, clamped neighbours; c = 64 / (1 + (G2 + L^2) >> 10);
     * J += (c (dN + dW) + cS dS + cE dE) >> 4 (arithmetic shift). */
    enum { W = 1024, H = 8 };
    kr k;
    kr_load(&k, "srad.sasm");
    int32_t *j = (int32_t *)snap(&k, "j", W * H);
    uint64_t phase = 0;
    kr_run(&k, 32, 1, 32, 8, &phase, 1);
    phase = 1;
    kr_run(&k, 32, 1, 32, 8, &phase, 1);
    static int32_t d[4][W * H], c[W * H];
    for (int r = 0; r < H; r++)
        for (int x = 0; x < W; x++) {
            int e = r * W + x, jc = j[e];
            int nb[4] = {j[(r > 0 ? r - 1 : 0) * W + x], j[(r < H - 1 ? r + 1 : r) * W + x],
                         j[r * W + (x > 0 ? x - 1 : 0)], j[r * W + (x < W - 1 ? x + 1 : x)]};
            int g2 = 0, l = 0;
            for (int q = 0; q < 4; q++) d[q][e] = nb[q] - jc, g2 += d[q][e] * d[q][e], l += d[q][e];
            c[e] = 64 / (1 + ((g2 + l * l) >> 10));
        }
    for (int r = 0; r < H; r++)
        for (int x = 0; x < W; x++) {
            int e = r * W + x, cs = c[(r < H - 1 ? r + 1 : r) * W + x], ce = c[r * W + (x < W - 1 ? x + 1 : x)];
            int dv = c[e] * (d[0][e] + d[2][e]) + cs * d[1][e] + ce * d[3][e];
            cr_expect_eq((int32_t)rd(&k, "c", e), c[e], "c %d %d", r, x);
            cr_expect_eq((int32_t)rd(&k, "j", e), j[e] + (dv >> 4), "J %d %d", r, x);
        }
    g_free(j);
    kr_free(&k);
}

Test(memdiv_kernels, lbm_stream_collide)
{
    /* 256 x 4 periodic D2Q9 lattice: dst[q][cell + c_q] = (f_q + rho w_q / 36) / 2 */
    enum { W = 256, H = 4, N = W * H };
    static const int dx[9] = {0, 1, -1, 0, 0, 1, -1, 1, -1}, dy[9] = {0, 0, 0, 1, -1, 1, -1, -1, 1};
    static const uint32_t wq[9] = {16, 4, 4, 4, 4, 1, 1, 1, 1};
    kr k;
    kr_load(&k, "lbm.sasm");
    uint32_t *f = snap(&k, "src", 9 * N);
    kr_run(&k, 8, 1, 32, 4, NULL, 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t rho = 0;
            for (int q = 0; q < 9; q++) rho += f[q * N + y * W + x];
            for (int q = 0; q < 9; q++) {
                int nx = (x + dx[q] + W) % W, ny = (y + dy[q] + H) % H;
                uint32_t want = (f[q * N + y * W + x] + rho * wq[q] / 36) / 2;
                cr_expect_eq(rd(&k, "dst", q * N + ny * W + nx), want, "cell %d %d q %d", x, y, q);
            }
        }
    g_free(f);
    kr_free(&k);
}

Test(memdiv_kernels, conv3d_plane)
{
    /* plane i = 5, j = 1..8, k = 1..64: PolyBench's 15 terms */
    static const int c11 = 2, c21 = 5, c31 = -8, c12 = -3, c22 = 6, c32 = -9, c13 = 4, c23 = 7, c33 = 10;
    kr k;
    kr_load(&k, "conv3d.sasm");
    uint64_t plane = 5;
    kr_run(&k, 2, 2, 32, 4, &plane, 1);
#define A(i, j, kk) rd(&k, "a", (uint64_t)(i) * 65536 + (j) * 256 + (kk))
    for (uint32_t j = 1; j <= 8; j++)
        for (uint32_t z = 1; z <= 64; z++) {
            uint32_t i = 5;
            uint32_t want = c11 * A(i - 1, j - 1, z - 1) + c13 * A(i + 1, j - 1, z - 1) + c21 * A(i - 1, j - 1, z - 1) +
                            c23 * A(i + 1, j - 1, z - 1) + c31 * A(i - 1, j - 1, z - 1) + c33 * A(i + 1, j - 1, z - 1) +
                            c12 * A(i, j - 1, z) + c22 * A(i, j, z) + c32 * A(i, j + 1, z) + c11 * A(i - 1, j - 1, z + 1) +
                            c13 * A(i + 1, j - 1, z + 1) + c21 * A(i - 1, j, z + 1) + c23 * A(i + 1, j, z + 1) +
                            c31 * A(i - 1, j + 1, z + 1) + c33 * A(i + 1, j + 1, z + 1);
            cr_expect_eq(rd(&k, "b", 5 * 65536 + j * 256 + z), want, "j %u k %u", j, z);
        }
#undef A
    cr_expect_eq(rd(&k, "b", 5 * 65536 + 1 * 256 + 65), 0, "outside the launched columns");
    kr_free(&k);
}

Test(memdiv_kernels, mm3_chain)
{
    /* 4 k-steps, rows i < 4, columns j < 64: E = A B, F = C D, G = E F
     * (E[i][k] and F[k][j] for k < 4 lie in the launched region). */
    enum { S = 512, KK = 4 };
    kr k;
    kr_load(&k, "mm3.sasm");
    uint32_t *a = snap(&k, "a", S * S), *b = snap(&k, "b", S * S), *c = snap(&k, "c", S * S), *d = snap(&k, "d", S * S);
    for (uint64_t ph = 0; ph < 3; ph++) {
        uint64_t params[2] = {ph, KK};
        kr_run(&k, 2, 1, 32, 4, params, 2);
    }
    uint32_t e[4][64] = {{0}}, f[4][64] = {{0}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 64; j++)
            for (int l = 0; l < KK; l++) e[i][j] += a[i * S + l] * b[l * S + j], f[i][j] += c[i * S + l] * d[l * S + j];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 64; j++) {
            uint32_t g = 0;
            for (int l = 0; l < KK; l++) g += e[i][l] * f[l][j];
            cr_expect_eq(rd(&k, "e", i * S + j), e[i][j], "E %d %d", i, j);
            cr_expect_eq(rd(&k, "f", i * S + j), f[i][j], "F %d %d", i, j);
            cr_expect_eq(rd(&k, "g", i * S + j), g, "G %d %d", i, j);
        }
    g_free(a), g_free(b), g_free(c), g_free(d);
    kr_free(&k);
}

/* PolyBench's 1-based data: row i, column j of rows of 1025 words. */
#define CV(i, j) ((uint64_t)(i) * 1025 + (j))

Test(memdiv_kernels, covar_mean_reduce_cross)
{
    /* 64 columns, 8 rows, a j2 walk of 4: mean[j] = sum / 8; data -= mean;
     * symmat[j1][j2] = symmat[j2][j1] = sum_i data[i][j1] data[i][j2] for
     * j1 <= j2 < j1 + 4. The walk runs from j1 = 1 up, so symmat[j][j-1]
     * (written by column j - 1 as its (j-1, j) pair's mirror) is checked too. */
    enum { M = 64, N = 8, SPAN = 4 };
    kr k;
    kr_load(&k, "covar.sasm");
    static uint32_t d[N + 1][M + SPAN + 1];
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= M + SPAN; j++) d[i][j] = rd(&k, "data", CV(i, j));
    uint64_t p0[3] = {0, N, SPAN}, p1[3] = {1, N, SPAN}, p2[3] = {2, N, SPAN};
    kr_run(&k, 2, 1, 32, 1, p0, 3);
    kr_run(&k, 2, 1, 32, 8, p1, 3);
    kr_run(&k, 2, 1, 32, 1, p2, 3);
    uint32_t mean[M + 1];
    for (int j = 1; j <= M; j++) {
        uint32_t s = 0;
        for (int i = 1; i <= N; i++) s += d[i][j];
        mean[j] = s / N;
        cr_expect_eq(rd(&k, "mean", j), mean[j], "mean %d", j);
        for (int i = 1; i <= N; i++) d[i][j] -= mean[j];
    }
    for (int i = 1; i <= N; i++) cr_expect_eq(rd(&k, "data", CV(i, 5)), d[i][5], "data %d 5", i);
    for (int j1 = 1; j1 <= M; j1++)
        for (int j2 = j1; j2 < j1 + SPAN && j2 <= M; j2++) {
            uint32_t s = 0;
            for (int i = 1; i <= N; i++) s += d[i][j1] * d[i][j2];
            cr_expect_eq(rd(&k, "symmat", CV(j1, j2)), s, "symmat %d %d", j1, j2);
            cr_expect_eq(rd(&k, "symmat", CV(j2, j1)), s, "symmat %d %d", j2, j1);
        }
    kr_free(&k);
}

Test(memdiv_kernels, corr_std_and_normalise)
{
    /* correlation's kernels: mean, std[j] = floor(sqrtf(sum (d - mean)^2 /
     * 8)) (1 if 0), data = 64 (d - mean) / std (signed, truncating). */
    enum { M = 32, N = 8 };
    kr k;
    kr_load(&k, "covar.sasm");
    static uint32_t d[N + 1][M + 1];
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= M; j++) d[i][j] = rd(&k, "data", CV(i, j));
    for (uint64_t ph = 0; ph < 5; ph++) {
        if (ph == 1 || ph == 2) continue;
        uint64_t params[3] = {ph, N, 1};
        kr_run(&k, 1, 1, 32, ph == 4 ? 8 : 1, params, 3);
    }
    for (int j = 1; j <= M; j++) {
        uint32_t s = 0, v = 0;
        for (int i = 1; i <= N; i++) s += d[i][j];
        uint32_t mean = s / N;
        for (int i = 1; i <= N; i++) v += (d[i][j] - mean) * (d[i][j] - mean);
        uint32_t sd = (uint32_t)sqrtf((float)(v / N));
        if (sd == 0) sd = 1;
        cr_expect_eq(rd(&k, "std", j), sd, "std %d", j);
        for (int i = 1; i <= N; i++)
            cr_expect_eq((int32_t)rd(&k, "data", CV(i, j)), ((int32_t)d[i][j] - (int32_t)mean) * 64 / (int32_t)sd,
                         "data %d %d", i, j);
    }
    kr_free(&k);
}

Test(memdiv_kernels, gramschmidt_two_column_steps)
{
    /* PolyBench's k loop for k = 0, 1 on 64 x 2048 (f32, fused sums in
     * row order), checked on columns 0..99 of R and A after both steps. */
    enum { M = 64, N = 2048, J = 100 };
    kr k;
    kr_load(&k, "gramschmidt.sasm");
    static float a[M][J], q[M][2], r[2][J];
    for (int i = 0; i < M; i++)
        for (int j = 0; j < J; j++) a[i][j] = as_f32(memimg_read(k.m, sym(k.p, "a") + 4 * ((uint64_t)i * N + j), 4));
    for (uint64_t kk = 0; kk < 2; kk++) {
        uint64_t p0[2] = {0, kk}, p1[2] = {1, kk}, p2[2] = {2, kk};
        kr_run(&k, 1, 1, 32, 1, p0, 2);
        kr_run(&k, 2, 1, 32, 1, p1, 2);
        kr_run(&k, 64, 1, 32, 1, p2, 2);
        float nrm = 0;
        for (int i = 0; i < M; i++) nrm = fmaf(a[i][kk], a[i][kk], nrm);
        r[kk][kk] = sqrtf(nrm);
        for (int i = 0; i < M; i++) q[i][kk] = a[i][kk] / r[kk][kk];
        for (int j = (int)kk + 1; j < J; j++) {
            float s = 0;
            for (int i = 0; i < M; i++) s = fmaf(q[i][kk], a[i][j], s);
            r[kk][j] = s;
            for (int i = 0; i < M; i++) a[i][j] = fmaf(-q[i][kk], s, a[i][j]);
        }
    }
    for (int kk = 0; kk < 2; kk++)
        for (int j = kk; j < J; j++)
            cr_expect_float_eq(as_f32(memimg_read(k.m, sym(k.p, "r") + 4 * ((uint64_t)kk * N + j), 4)), r[kk][j], 0,
                               "R %d %d", kk, j);
    for (int i = 0; i < M; i++)
        for (int j = 2; j < J; j++)
            cr_expect_float_eq(as_f32(memimg_read(k.m, sym(k.p, "a") + 4 * ((uint64_t)i * N + j), 4)), a[i][j], 0,
                               "A %d %d", i, j);
    for (int i = 0; i < M; i++)
        cr_expect_float_eq(as_f32(memimg_read(k.m, sym(k.p, "q") + 4 * ((uint64_t)i * N + 1), 4)), q[i][1], 0, "Q %d 1", i);
    kr_free(&k);
}
