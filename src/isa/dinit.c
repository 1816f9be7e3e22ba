/* The initializer registry: finds the named initializer, checks its argument
 * names, derives the array's key from the global and own seeds, and hands the
 * call to the family that prepares the O(1) value function. */
#include <string.h>

#include "dinit.h"

typedef bool (*dinit_family_setup)(dinit *d, const dinit_call *call, const dinit_ctx *ctx,
                                   GError **err);

typedef struct dinit_kind {
    const char *name;
    const char *const *args; /* NULL-terminated */
    dinit_family_setup setup;
} dinit_kind;

static const char *const args_none[] = {NULL};
static const char *const args_const[] = {"value", NULL};
static const char *const args_iota[] = {"start", "step", NULL};
static const char *const args_rand[] = {"lo", "hi", "seed", NULL};
static const char *const args_perm[] = {"seed", "stride", "scale", "offset", "addr", NULL};
/* csr_offsets and csr_edges take the same list, so one graph is declared by
 * copying it; each uses the arguments that shape its own array. */
static const char *const args_csr[] = {"vertices", "degree", "dist", "spread", "group",
                                       "alpha", "window", "seed", NULL};
static const char *const args_keys[] = {"seed", "step", "start", NULL};
static const char *const args_btree[] = {"P", "width", "block", "levels", "seed", "step", "start",
                                         NULL};

static const char *const args_file[] = {"path", "format", NULL};
static const char *const args_graph[] = {"path", "format", "undirected", "vertices", NULL};

static const dinit_kind kinds[] = {
    {"zero", args_none, dinit_setup_basic},
    {"const", args_const, dinit_setup_basic},
    {"iota", args_iota, dinit_setup_basic},
    {"rand_int", args_rand, dinit_setup_basic},
    {"rand_float", args_rand, dinit_setup_basic},
    {"perm_cycle", args_perm, dinit_setup_perm},
    {"csr_offsets", args_csr, dinit_setup_csr},
    {"csr_edges", args_csr, dinit_setup_csr},
    {"sorted_keys", args_keys, dinit_setup_keys},
    {"btree", args_btree, dinit_setup_btree},
    {"file", args_file, dinit_setup_file},
    {"graph_offsets", args_graph, dinit_setup_graph},
    {"graph_edges", args_graph, dinit_setup_graph},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static const char *const kind_names[] = {
    "zero", "const", "iota", "rand_int", "rand_float", "perm_cycle",
    "csr_offsets", "csr_edges", "sorted_keys", "btree", "formula", "file", "graph_offsets",
    "graph_edges", NULL,
};

/* FNV-1a of the array name: the seed of an initializer given none, so two
 * random arrays declared without seeds still differ. */
static uint64_t name_seed(const char *name)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    return h;
}

/* "formula(<expr>)": the body is an expression, not key=value arguments, so
 * it bypasses the argument parser. Returns the body (owned) or NULL. */
static char *formula_body(const char *spec)
{
    if (!spec) return NULL;
    while (*spec == ' ' || *spec == '\t') spec++;
    if (strncmp(spec, "formula", 7) != 0) return NULL;
    const char *p = spec + 7;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '(') return NULL;
    char *body = g_strdup(p + 1);
    g_strchomp(body);
    size_t n = strlen(body);
    if (n == 0 || body[n - 1] != ')') {
        g_free(body);
        return g_strdup("\x01"); /* reported as a missing ')' */
    }
    body[n - 1] = '\0';
    return body;
}

static void set_shape(dinit *d, uint64_t base, unsigned elem_bytes, bool is_float, uint64_t count)
{
    d->base = base;
    d->count = count;
    d->elem_bytes = elem_bytes;
    d->is_float = is_float;
    d->elem_mask = elem_bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * elem_bytes)) - 1;
}

static bool takes_seed(const dinit_kind *k)
{
    for (unsigned i = 0; k->args[i]; i++)
        if (strcmp(k->args[i], "seed") == 0) return true;
    return false;
}

bool dinit_setup(dinit *d, const char *name, uint64_t base, unsigned elem_bytes, bool is_float,
                 uint64_t count, uint64_t global_seed, const char *spec, const char *origin,
                 GError **err)
{
    memset(d, 0, sizeof *d);
    dinit_ctx ctx = {.origin = origin ? origin : "<memimg>", .array = name, .init = NULL,
                     .elem_bytes = elem_bytes, .is_float = is_float, .count = count};
    char *body = formula_body(spec);
    if (body) {
        ctx.init = "formula";
        set_shape(d, base, elem_bytes, is_float, count);
        bool ok;
        if (body[0] == '\x01')
            ok = false, dinit_error(err, &ctx, MEMIMG_ERROR_SYNTAX,
                                    "'%s': expected ')' at the end of the formula", spec);
        else
            ok = dinit_setup_formula(d, body, &ctx, err);
        g_free(body);
        if (!ok) dinit_clear(d);
        return ok;
    }
    dinit_call call;
    if (!dinit_parse_call(spec, &call, &ctx, err)) return false;

    const dinit_kind *kind = NULL;
    for (unsigned i = 0; i < N_KINDS && !kind; i++)
        if (strcmp(kinds[i].name, call.init) == 0) kind = &kinds[i];
    if (!kind) {
        const char *near = dinit_nearest(call.init, kind_names);
        dinit_error(err, &ctx, MEMIMG_ERROR_UNKNOWN_INIT,
                    "unknown initializer '%s'%s%s%s (one of: zero, const, iota, rand_int, "
                    "rand_float, perm_cycle, csr_offsets, csr_edges, sorted_keys, btree, formula, "
                    "file, graph_offsets, graph_edges)",
                    call.init, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
        dinit_call_clear(&call);
        return false;
    }
    ctx.init = kind->name;

    set_shape(d, base, elem_bytes, is_float, count);
    uint64_t seed = name_seed(name);
    bool ok = dinit_check_args(&call, kind->args, &ctx, err) &&
              (!takes_seed(kind) ||
               dinit_arg_u64(&call, &ctx, "seed", false, seed, 0, UINT64_MAX, &seed, err));
    if (ok) {
        d->key = dinit_key(global_seed, seed);
        ok = kind->setup(d, &call, &ctx, err);
    }
    dinit_call_clear(&call);
    if (!ok) dinit_clear(d);
    return ok;
}

void dinit_clear(dinit *d)
{
    g_free(d->table);
    d->table = NULL;
    if (d->owned_free) d->owned_free(d->owned);
    d->owned = NULL;
    d->owned_free = NULL;
}
