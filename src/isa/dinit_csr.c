/* csr_offsets / csr_edges: a graph in compressed sparse row form, with every
 * offset and every edge computable in O(1).
 *
 * The trick is to fix degrees in groups whose sums are known, so a prefix sum
 * is closed form: offsets(v) = v*degree plus a correction inside v's group.
 *   uniform  every vertex has `degree` edges.
 *   pair     vertices (2p, 2p+1) get degree+k_p and degree-k_p, with k_p
 *            uniform in [0, spread]; an odd last vertex gets degree.
 *   zipf     groups of `group` vertices share group*degree edges after a
 *            Zipf(alpha) profile (a few hubs, a long tail), rotated by a hashed
 *            amount per group; a partial last group gets degree each.
 * Edge targets are hashed: uniform over all vertices, or with window=w within
 * w of the edge's nominal source e/degree (locality). Self-loops and duplicate
 * edges can occur, as in random graph generators. */
#include <math.h>
#include <string.h>

#include "dinit.h"

static uint64_t value_offsets(const dinit *d, uint64_t v)
{
    uint64_t deg = d->u.csr.degree;
    switch (d->u.csr.dist) {
    case DINIT_DEG_UNIFORM:
        break;
    case DINIT_DEG_PAIR:
        /* offsets(2p+1) = (2p+1)*degree + k_p; pairs sum to 2*degree */
        if ((v & 1) && v < d->u.csr.vertices)
            return v * deg + dinit_mulhi(dinit_hash(d->u.csr.pair_key, v >> 1), d->u.csr.spread + 1);
        break;
    case DINIT_DEG_ZIPF: {
        uint64_t g = d->u.csr.group, grp = v / g, r = v % g;
        if (grp >= d->u.csr.full_groups) break;
        /* member r of the group has profile degree (rho + r) mod g */
        const uint64_t *pre = d->table;
        uint64_t rho = dinit_mulhi(dinit_hash(d->u.csr.group_key, grp), g);
        uint64_t in_group = rho + r <= g ? pre[rho + r] - pre[rho]
                                         : (pre[g] - pre[rho]) + pre[rho + r - g];
        return grp * g * deg + in_group;
    }
    }
    return v * deg;
}

static uint64_t value_edges(const dinit *d, uint64_t e)
{
    uint64_t n = d->u.csr.vertices, w = d->u.csr.window;
    uint64_t h = dinit_hash(d->u.csr.edge_key, e);
    if (w == 0) return dinit_mulhi(h, n);
    uint64_t t = e / d->u.csr.degree + dinit_mulhi(h, 2 * w + 1); /* nominal source + [0, 2w] */
    t = t >= w ? t - w : t + n - w;
    return t % n;
}

/* Prefix sums of the Zipf profile: pre[j] = round(T * C_j / C_g) with
 * C_j = sum_{t<j} (t+1)^-alpha and T = group * degree; pre[g] = T exactly. */
static uint64_t *zipf_prefix(uint64_t g, uint64_t degree, double alpha)
{
    uint64_t *pre = g_new(uint64_t, g + 1);
    double *cum = g_new(double, g + 1);
    cum[0] = 0;
    for (uint64_t t = 0; t < g; t++) cum[t + 1] = cum[t] + pow((double)(t + 1), -alpha);
    double total = (double)(g * degree);
    for (uint64_t j = 0; j < g; j++) pre[j] = (uint64_t)floor(total * cum[j] / cum[g] + 0.5);
    pre[g] = g * degree;
    g_free(cum);
    return pre;
}

static const char *const dist_names[] = {"uniform", "pair", "zipf", NULL};

/* Arguments that shape only one distribution are refused with the others. */
static bool only_with(const dinit_call *call, const dinit_ctx *ctx, const char *arg,
                      unsigned dist, unsigned want, GError **err)
{
    if (dist == want || !dinit_arg_text(call, arg)) return true;
    dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "argument '%s' applies only to dist=%s", arg,
                dist_names[want]);
    return false;
}

bool dinit_setup_csr(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    bool is_offsets = strcmp(ctx->init, "csr_offsets") == 0;
    if (ctx->is_float) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT, "needs an integer array (it stores %s)",
                    is_offsets ? "edge indices" : "vertex ids");
        return false;
    }
    const uint64_t max_vertices = UINT64_C(1) << 48, max_degree = UINT64_C(1) << 32;
    uint64_t n, deg, spread, group, window;
    unsigned dist;
    double alpha;
    /* csr_offsets holds vertices + 1 entries, so the count implies vertices */
    bool vertices_required = !is_offsets || ctx->count < 2;
    if (!dinit_arg_u64(call, ctx, "vertices", vertices_required, ctx->count - 1, 1, max_vertices,
                       &n, err) ||
        !dinit_arg_u64(call, ctx, "degree", true, 0, 1, max_degree, &deg, err) ||
        !dinit_arg_choice(call, ctx, "dist", dist_names, DINIT_DEG_UNIFORM, &dist, err) ||
        !dinit_arg_u64(call, ctx, "spread", false, deg, 0, deg, &spread, err) ||
        !dinit_arg_u64(call, ctx, "group", false, 64, 2, 65536, &group, err) ||
        !dinit_arg_double(call, ctx, "alpha", false, 1.0, 0.0, 4.0, &alpha, err) ||
        !dinit_arg_u64(call, ctx, "window", false, 0, 0, n, &window, err) ||
        !only_with(call, ctx, "spread", dist, DINIT_DEG_PAIR, err) ||
        !only_with(call, ctx, "group", dist, DINIT_DEG_ZIPF, err) ||
        !only_with(call, ctx, "alpha", dist, DINIT_DEG_ZIPF, err))
        return false;
    if (n > UINT64_MAX / deg) { /* n <= 2^48 and deg <= 2^32 can still overflow */
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE, "vertices * degree overflows 64 bits");
        return false;
    }
    uint64_t edges = n * deg;
    uint64_t want = is_offsets ? n + 1 : edges;
    if (ctx->count != want) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "the array has %" G_GUINT64_FORMAT " elements but %s needs %" G_GUINT64_FORMAT
                    " (%s)", ctx->count, ctx->init, want,
                    is_offsets ? "vertices + 1" : "vertices * degree");
        return false;
    }
    uint64_t max_value = is_offsets ? edges : n - 1;
    if (max_value > d->elem_mask) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "values up to %" G_GUINT64_FORMAT " do not fit a %u-byte element", max_value,
                    d->elem_bytes);
        return false;
    }
    d->u.csr.vertices = n;
    d->u.csr.degree = deg;
    d->u.csr.dist = (dinit_degree_dist)dist;
    d->u.csr.spread = spread;
    d->u.csr.group = group;
    d->u.csr.window = window;
    d->u.csr.full_groups = n / group;
    /* independent streams for pair spreads, group rotations and edge targets */
    d->u.csr.pair_key = dinit_mix64(d->key ^ 1);
    d->u.csr.group_key = dinit_mix64(d->key ^ 2);
    d->u.csr.edge_key = dinit_mix64(d->key ^ 3);
    if (is_offsets && dist == DINIT_DEG_ZIPF) d->table = zipf_prefix(group, deg, alpha);
    d->value = is_offsets ? value_offsets : value_edges;
    return true;
}
