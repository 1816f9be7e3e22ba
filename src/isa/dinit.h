/* Data initializers: the on-demand value of element i of a declared array.
 * Private to src/isa (memimg.c and dinit*.c). Formulas: docs/data-initializers.md. */
#ifndef SIMTGRID_ISA_DINIT_H
#define SIMTGRID_ISA_DINIT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/memimg.h"

/* ---- counter-based hashing (splitmix64) ---------------------------------- */

#define DINIT_GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64's output function: a bijective 64-bit mixer. */
static inline uint64_t dinit_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The key of one initializer: global seed and the array's own seed. */
static inline uint64_t dinit_key(uint64_t global_seed, uint64_t seed)
{
    return dinit_mix64(global_seed ^ dinit_mix64(seed + DINIT_GOLDEN));
}

/* Output i of a splitmix64 stream whose state starts at `key`: O(1) in i. */
static inline uint64_t dinit_hash(uint64_t key, uint64_t i)
{
    return dinit_mix64(key + (i + 1) * DINIT_GOLDEN);
}

/* floor(a * b / 2^64): maps a uniform 64-bit hash onto [0, b) (bias < b/2^64). */
static inline uint64_t dinit_mulhi(uint64_t a, uint64_t b)
{
    uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

/* ---- the keyed bijection behind perm_cycle ------------------------------- */

/* A 4-round Feistel network on 2*half_bits bits, cycle-walked onto [0, n). */
typedef struct dinit_feistel {
    uint64_t n;
    unsigned half_bits;
    uint64_t half_mask;
    uint64_t round_key[4];
} dinit_feistel;

void dinit_feistel_init(dinit_feistel *f, uint64_t key, uint64_t n);
uint64_t dinit_feistel_forward(const dinit_feistel *f, uint64_t x); /* pi(x), x < n */
uint64_t dinit_feistel_inverse(const dinit_feistel *f, uint64_t y); /* pi^-1(y), y < n */

/* ---- one array's initializer --------------------------------------------- */

typedef struct dinit dinit;
typedef uint64_t (*dinit_value_fn)(const dinit *d, uint64_t i);

typedef enum { DINIT_DEG_UNIFORM, DINIT_DEG_PAIR, DINIT_DEG_ZIPF } dinit_degree_dist;

#define DINIT_BTREE_MAX_LEVELS 64

/* The page-blocked search tree's shape (dinit_keys.c). */
typedef struct dinit_btree {
    uint64_t keys_per_node, width, block, levels, fanout, children_per_row;
    uint64_t row_elems, tree_elems, start, step, pad;
    uint64_t pow_fanout[DINIT_BTREE_MAX_LEVELS + 1];       /* F^j, j <= block*levels */
    uint64_t first_row[DINIT_BTREE_MAX_LEVELS + 1];        /* first row node of row level r */
    uint64_t first_line_local[DINIT_BTREE_MAX_LEVELS + 1]; /* first line of level j in a row */
} dinit_btree;

struct dinit {
    dinit_value_fn value; /* element i (i < count) as stored bits, within elem_mask */
    uint64_t key;         /* dinit_key(global seed, seed) */
    uint64_t base, count;
    unsigned elem_bytes;
    bool is_float;
    uint64_t elem_mask; /* all ones over elem_bytes */
    uint64_t *table;    /* owned; csr zipf: group prefix sums (group + 1 entries) */
    void *owned;        /* a family's own state (formula program, mapped file, graph) */
    void (*owned_free)(void *owned);
    union {
        struct { uint64_t bits; } constant;
        struct { uint64_t start, step; double fstart, fstep; } iota;
        struct { uint64_t lo, range; double flo, fspan; } rnd; /* range 0 = 2^64 */
        struct { uint64_t stride, n, scale, offset; dinit_feistel pi; } perm;
        struct {
            uint64_t vertices, degree, spread, group, window, full_groups;
            uint64_t pair_key, group_key, edge_key;
            dinit_degree_dist dist;
        } csr;
        struct { uint64_t start, step; } keys;
        dinit_btree btree;
    } u;
};

/* Parses `spec` (NULL or "" = zero) and prepares d for the array described by
 * the other arguments. Errors start with "<origin>: array '<name>': ". */
bool dinit_setup(dinit *d, const char *name, uint64_t base, unsigned elem_bytes, bool is_float,
                 uint64_t count, uint64_t global_seed, const char *spec, const char *origin,
                 GError **err);
void dinit_clear(dinit *d);

/* ---- argument parsing (dinit_parse.c), shared by the initializer families */

#define DINIT_MAX_ARGS 16

typedef struct dinit_call {
    char *text;       /* owned pristine copy of the spec, quoted in errors */
    char *buf;        /* owned copy of the spec, split in place */
    const char *init; /* initializer name */
    unsigned nargs;
    const char *arg_name[DINIT_MAX_ARGS];
    const char *arg_text[DINIT_MAX_ARGS];
} dinit_call;

/* Where an error is reported: "<origin>: array '<array>': <init>: ". */
typedef struct dinit_ctx {
    const char *origin, *array, *init;
    unsigned elem_bytes;
    bool is_float;
    uint64_t count;
} dinit_ctx;

void dinit_error(GError **err, const dinit_ctx *ctx, memimg_error_code code, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
/* The name in `names` (NULL-terminated) nearest to `word` by edit distance, or
 * NULL if none is close enough to be a plausible typo. */
const char *dinit_nearest(const char *word, const char *const *names);

bool dinit_parse_call(const char *spec, dinit_call *call, const dinit_ctx *ctx, GError **err);
void dinit_call_clear(dinit_call *call);
/* Unknown or repeated argument names: checked against `allowed` (NULL-terminated). */
bool dinit_check_args(const dinit_call *call, const char *const *allowed, const dinit_ctx *ctx,
                      GError **err);
/* The text of argument `name`, or NULL if absent. */
const char *dinit_arg_text(const dinit_call *call, const char *name);

/* Typed argument getters: an absent argument takes `def` unless `required`. */
bool dinit_arg_u64(const dinit_call *call, const dinit_ctx *ctx, const char *name, bool required,
                   uint64_t def, uint64_t min, uint64_t max, uint64_t *out, GError **err);
/* A signed or unsigned integer that must fit the element (as either
 * signedness); stored as two's-complement bits in *out, *negative set. */
bool dinit_arg_elem_int(const dinit_call *call, const dinit_ctx *ctx, const char *name,
                        bool required, uint64_t def, uint64_t *out, bool *negative, GError **err);
bool dinit_arg_double(const dinit_call *call, const dinit_ctx *ctx, const char *name,
                      bool required, double def, double min, double max, double *out, GError **err);
/* One word of `choices` (NULL-terminated); *out = its index. */
bool dinit_arg_choice(const dinit_call *call, const dinit_ctx *ctx, const char *name,
                      const char *const *choices, unsigned def, unsigned *out, GError **err);

/* ---- the families (dinit_*.c): prepare d from a checked call ------------- */

bool dinit_setup_basic(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
bool dinit_setup_perm(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
bool dinit_setup_csr(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
bool dinit_setup_keys(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
bool dinit_setup_btree(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
bool dinit_setup_file(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
bool dinit_setup_graph(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err);
/* `path` relative to the folder of the file named by origin ("file:line"). */
char *dinit_resolve_path(const char *origin, const char *path);
/* formula(expr): `expr` is the text between the parentheses (dinit_formula.c). */
bool dinit_setup_formula(dinit *d, const char *expr, const dinit_ctx *ctx, GError **err);

/* a * b + c, false on uint64 overflow */
static inline bool dinit_mul_add(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    if (b != 0 && a > (UINT64_MAX - c) / b) return false;
    *out = a * b + c;
    return true;
}

#endif
