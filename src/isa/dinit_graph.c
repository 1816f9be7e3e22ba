/* graph_offsets / graph_edges(path, format, undirected, vertices): a graph
 * file (Matrix Market coordinate .mtx, or a SNAP edge list) read into CSR
 * form when the array is declared. Edge (u, v) goes into u's list; each list
 * is sorted by target, so the arrays do not depend on the file's edge order.
 * Format details: docs/data-initializers.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_lib.h"
#include "dinit.h"

typedef struct dgraph {
    uint64_t vertices, edges;
    uint64_t *off;  /* vertices + 1 */
    uint64_t *adj;  /* edges */
} dgraph;

static void dgraph_free(void *p)
{
    dgraph *g = p;
    if (!g) return;
    g_free(g->off);
    g_free(g->adj);
    g_free(g);
}

static uint64_t value_offsets(const dinit *d, uint64_t i) { return ((const dgraph *)d->owned)->off[i]; }
static uint64_t value_edges(const dinit *d, uint64_t i) { return ((const dgraph *)d->owned)->adj[i]; }

typedef struct edge_list {
    GArray *src, *dst; /* uint64 */
    uint64_t max_id;   /* largest vertex id + 1 seen, 0 if none */
} edge_list;

static void add_edge(edge_list *l, uint64_t u, uint64_t v)
{
    g_array_append_val(l->src, u);
    g_array_append_val(l->dst, v);
    uint64_t m = (u > v ? u : v) + 1;
    if (m > l->max_id) l->max_id = m;
}

/* Reads up to `want` unsigned integers from s; returns how many. */
static unsigned read_ids(const char *s, uint64_t *out, unsigned want, const char **rest)
{
    unsigned n = 0;
    while (n < want) {
        while (*s == ' ' || *s == '\t' || *s == ',') s++;
        if (!g_ascii_isdigit(*s)) break;
        char *end;
        errno = 0;
        out[n] = g_ascii_strtoull(s, &end, 10);
        if (errno == ERANGE || (*end && *end != ' ' && *end != '\t' && *end != ',' && *end != '\r' &&
                                *end != '\n'))
            break;
        n++;
        s = end;
    }
    *rest = s;
    return n;
}

typedef struct gread {
    const dinit_ctx *ctx;
    const char *path;
    GError **err;
} gread;

static bool line_error(const gread *r, unsigned line, const char *what, const char *text)
{
    char *t = g_strndup(text, strcspn(text, "\r\n"));
    char *at = input_origin(r->path, line);
    dinit_error(r->err, r->ctx, MEMIMG_ERROR_BAD_VALUE, "%s: %s, got '%.40s'", at, what, t);
    g_free(at);
    g_free(t);
    return false;
}

/* Matrix Market coordinate: banner, % comments, "rows cols nnz", then nnz
 * lines "i j [value]" with 1-based indices; symmetric kinds add (j, i). */
static bool read_mtx(const gread *r, char **lines, edge_list *l, bool *undirected)
{
    unsigned ln = 0;
    if (!lines[0] || !g_str_has_prefix(lines[0], "%%MatrixMarket")) {
        dinit_error(r->err, r->ctx, MEMIMG_ERROR_BAD_VALUE,
                    "%s:1: expected the '%%%%MatrixMarket matrix coordinate ...' banner", r->path);
        return false;
    }
    char *banner = g_ascii_strdown(lines[0], -1);
    bool coord = strstr(banner, " coordinate") != NULL;
    bool sym = strstr(banner, "symmetric") || strstr(banner, "hermitian");
    g_free(banner);
    if (!coord) return line_error(r, 1, "only 'coordinate' Matrix Market files hold graphs", lines[0]);
    if (sym) *undirected = true;
    uint64_t size[3] = {0};
    bool have_size = false;
    uint64_t entries = 0;
    for (ln = 1; lines[ln]; ln++) {
        const char *s = lines[ln];
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '%' || *s == '\0' || *s == '\r') continue;
        const char *rest;
        if (!have_size) {
            if (read_ids(s, size, 3, &rest) != 3)
                return line_error(r, ln + 1, "expected the size line 'rows cols entries'", s);
            have_size = true;
            continue;
        }
        uint64_t ij[2];
        if (read_ids(s, ij, 2, &rest) != 2)
            return line_error(r, ln + 1, "expected an entry 'row col [value]'", s);
        if (ij[0] < 1 || ij[0] > size[0] || ij[1] < 1 || ij[1] > size[1])
            return line_error(r, ln + 1, "entry outside the declared rows and columns (1-based)", s);
        add_edge(l, ij[0] - 1, ij[1] - 1);
        entries++;
    }
    if (!have_size) return line_error(r, ln, "expected the size line 'rows cols entries'", "");
    if (entries != size[2]) {
        dinit_error(r->err, r->ctx, MEMIMG_ERROR_BAD_VALUE,
                    "%s: the size line announces %" G_GUINT64_FORMAT " entries, the file has %"
                    G_GUINT64_FORMAT, r->path, size[2], entries);
        return false;
    }
    l->max_id = size[0] > size[1] ? size[0] : size[1]; /* isolated vertices count too */
    return true;
}

/* SNAP edge list: '#' comments, then "src dst" per line, 0-based ids. */
static bool read_snap(const gread *r, char **lines, edge_list *l)
{
    for (unsigned ln = 0; lines[ln]; ln++) {
        const char *s = lines[ln];
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '#' || *s == '%' || *s == '\0' || *s == '\r') continue;
        uint64_t uv[2];
        const char *rest;
        if (read_ids(s, uv, 2, &rest) != 2)
            return line_error(r, ln + 1, "expected an edge 'source target' (0-based ids)", s);
        add_edge(l, uv[0], uv[1]);
    }
    return true;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Counting sort by source, then each list sorted by target. */
static dgraph *build_csr(const edge_list *l, uint64_t vertices, bool undirected)
{
    dgraph *g = g_new0(dgraph, 1);
    g->vertices = vertices;
    g->off = g_new0(uint64_t, vertices + 1);
    const uint64_t *src = (const uint64_t *)(void *)l->src->data, *dst = (const uint64_t *)(void *)l->dst->data;
    for (guint e = 0; e < l->src->len; e++) {
        g->off[src[e] + 1]++;
        if (undirected && src[e] != dst[e]) g->off[dst[e] + 1]++;
    }
    for (uint64_t v = 0; v < vertices; v++) g->off[v + 1] += g->off[v];
    g->edges = g->off[vertices];
    g->adj = g_new(uint64_t, g->edges ? g->edges : 1);
    uint64_t *fill = g_memdup2(g->off, (vertices + 1) * sizeof *fill);
    for (guint e = 0; e < l->src->len; e++) {
        g->adj[fill[src[e]]++] = dst[e];
        if (undirected && src[e] != dst[e]) g->adj[fill[dst[e]]++] = src[e];
    }
    g_free(fill);
    for (uint64_t v = 0; v < vertices; v++)
        qsort(g->adj + g->off[v], g->off[v + 1] - g->off[v], sizeof *g->adj, cmp_u64);
    return g;
}

bool dinit_setup_graph(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    static const char *const formats[] = {"snap", "mtx", NULL};
    bool offsets = strcmp(ctx->init, "graph_offsets") == 0;
    const char *path_arg = dinit_arg_text(call, "path");
    if (!path_arg) {
        dinit_error(err, ctx, MEMIMG_ERROR_MISSING_ARG, "missing argument 'path'");
        return false;
    }
    unsigned fmt;
    uint64_t undirected, vertices;
    if (!dinit_arg_choice(call, ctx, "format", formats, g_str_has_suffix(path_arg, ".mtx") ? 1 : 0,
                          &fmt, err) ||
        !dinit_arg_u64(call, ctx, "undirected", false, 0, 0, 1, &undirected, err) ||
        !dinit_arg_u64(call, ctx, "vertices", false, 0, 0, UINT64_C(1) << 40, &vertices, err))
        return false;
    char *path = dinit_resolve_path(ctx->origin, path_arg);
    char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE, "argument 'path': %s", e->message);
        g_error_free(e);
        g_free(path);
        return false;
    }
    char **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    edge_list l = {g_array_new(FALSE, FALSE, sizeof(uint64_t)), g_array_new(FALSE, FALSE, sizeof(uint64_t)), 0};
    gread r = {ctx, path, err};
    bool und = undirected != 0;
    bool ok = fmt == 1 ? read_mtx(&r, lines, &l, &und) : read_snap(&r, lines, &l);
    g_strfreev(lines);
    dgraph *g = NULL;
    if (ok && vertices && vertices < l.max_id) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "argument 'vertices' = %" G_GUINT64_FORMAT " but %s uses vertex id %" G_GUINT64_FORMAT,
                    vertices, path, l.max_id - 1);
        ok = false;
    }
    if (ok) g = build_csr(&l, vertices ? vertices : l.max_id, und);
    g_array_free(l.src, TRUE);
    g_array_free(l.dst, TRUE);
    if (ok) {
        uint64_t want = offsets ? g->vertices + 1 : g->edges;
        uint64_t largest = offsets ? g->edges : (g->vertices ? g->vertices - 1 : 0);
        if (ctx->count != want) {
            dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                        "%s has %" G_GUINT64_FORMAT " vertices and %" G_GUINT64_FORMAT
                        " edges: declare %" G_GUINT64_FORMAT " elements, not %" G_GUINT64_FORMAT,
                        path, g->vertices, g->edges, want, ctx->count);
            ok = false;
        } else if (ctx->is_float) {
            dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT, "needs an integer array");
            ok = false;
        } else if (largest > d->elem_mask) {
            dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                        "values up to %" G_GUINT64_FORMAT " need a wider integer element", largest);
            ok = false;
        }
    }
    g_free(path);
    if (!ok) {
        dgraph_free(g);
        return false;
    }
    d->owned = g;
    d->owned_free = dgraph_free;
    d->value = offsets ? value_offsets : value_edges;
    return true;
}
