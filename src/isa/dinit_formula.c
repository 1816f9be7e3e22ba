/* formula(expr): element i is an integer expression of i, compiled once into
 * a short postfix program and evaluated per element in O(length of the
 * expression). Arithmetic is unsigned and wraps at the evaluation width (32
 * bits for elements of 1, 2 or 4 bytes, 64 bits for 8-byte and float
 * elements), like C on uint32_t / uint64_t. Grammar, precedence and the
 * mixers: docs/data-initializers.md. */
#include <string.h>

#include "dinit.h"

typedef enum {
    F_PUSH, F_I, F_N,
    F_NEG, F_NOT, F_LNOT,
    F_MUL, F_DIV, F_MOD, F_ADD, F_SUB, F_SHL, F_SHR,
    F_LT, F_LE, F_GT, F_GE, F_EQ, F_NE,
    F_AND, F_XOR, F_OR, F_LAND, F_LOR,
    F_SEL, /* c ? a : b, operands pushed c, a, b */
    F_MIN, F_MAX, F_FMIX32, F_FMIX64, F_MIX64, F_LOWBIAS32,
} f_op;

#define F_MAX_OPS 256
#define F_MAX_DEPTH 32

typedef struct f_inst {
    uint8_t op;
    uint64_t imm;
} f_inst;

typedef struct f_prog {
    unsigned n;
    uint64_t mask; /* the evaluation width's all-ones */
    f_inst code[F_MAX_OPS];
} f_prog;

/* ---- the mixers (public reference versions are cited in the docs) -------- */

static uint32_t dinit_fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

static uint64_t dinit_fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    return k ^ (k >> 33);
}

static uint32_t dinit_lowbias32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* ---- evaluation ----------------------------------------------------------- */

static uint64_t eval(const f_prog *p, uint64_t i, uint64_t n)
{
    uint64_t s[F_MAX_DEPTH];
    unsigned sp = 0;
    uint64_t m = p->mask, w = m == UINT64_MAX ? 64 : 32;
    for (unsigned k = 0; k < p->n; k++) {
        const f_inst *in = &p->code[k];
        uint64_t a = sp >= 2 ? s[sp - 2] : 0, b = sp >= 1 ? s[sp - 1] : 0, r;
        switch ((f_op)in->op) {
        case F_PUSH: s[sp++] = in->imm & m; continue;
        case F_I: s[sp++] = i & m; continue;
        case F_N: s[sp++] = n & m; continue;
        case F_NEG: s[sp - 1] = (0 - b) & m; continue;
        case F_NOT: s[sp - 1] = ~b & m; continue;
        case F_LNOT: s[sp - 1] = b == 0; continue;
        case F_FMIX32: s[sp - 1] = dinit_fmix32((uint32_t)b); continue;
        case F_LOWBIAS32: s[sp - 1] = dinit_lowbias32((uint32_t)b); continue;
        case F_FMIX64: s[sp - 1] = dinit_fmix64(b) & m; continue;
        case F_MIX64: s[sp - 1] = dinit_mix64(b) & m; continue;
        case F_SEL: s[sp - 3] = s[sp - 3] ? a : b; sp -= 2; continue;
        case F_MUL: r = a * b; break;
        case F_DIV: r = b ? a / b : 0; break; /* documented: x/0 = 0 */
        case F_MOD: r = b ? a % b : a;  break; /* x%0 = x, so x == (x/y)*y + x%y */
        case F_ADD: r = a + b; break;
        case F_SUB: r = a - b; break;
        case F_SHL: r = a << (b % w); break;
        case F_SHR: r = a >> (b % w); break;
        case F_LT: r = a < b; break;
        case F_LE: r = a <= b; break;
        case F_GT: r = a > b; break;
        case F_GE: r = a >= b; break;
        case F_EQ: r = a == b; break;
        case F_NE: r = a != b; break;
        case F_AND: r = a & b; break;
        case F_XOR: r = a ^ b; break;
        case F_OR: r = a | b; break;
        case F_LAND: r = a && b; break;
        case F_LOR: r = a || b; break;
        case F_MIN: r = a < b ? a : b; break;
        case F_MAX: r = a > b ? a : b; break;
        default: r = 0; break;
        }
        s[sp - 2] = r & m;
        sp--;
    }
    return s[0];
}

static uint64_t value_formula(const dinit *d, uint64_t i)
{
    const f_prog *p = d->owned;
    uint64_t v = eval(p, i, d->count);
    if (!d->is_float) return v & d->elem_mask;
    double x = (double)(int64_t)v; /* 64-bit evaluation, read as signed */
    if (d->elem_bytes == 4) {
        float f = (float)x;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* ---- the compiler: recursive descent, C precedence ------------------------ */

typedef struct f_parser {
    const char *text, *p;
    f_prog *prog;
    unsigned depth, max_depth;
    const dinit_ctx *ctx;
    GError **err;
    bool failed;
} f_parser;

static void ws(f_parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t') ps->p++;
}

static bool fail(f_parser *ps, const char *expected)
{
    if (ps->failed) return false;
    ps->failed = true;
    const char *got = *ps->p ? ps->p : "the end";
    dinit_error(ps->err, ps->ctx, MEMIMG_ERROR_SYNTAX, "'%s': column %zu: expected %s, got '%.12s'",
                ps->text, (size_t)(ps->p - ps->text) + 1, expected, got);
    return false;
}

/* Emits one instruction and tracks the stack depth it leaves. */
static bool emit(f_parser *ps, f_op op, uint64_t imm, int pops, int pushes)
{
    if (ps->prog->n == F_MAX_OPS) {
        ps->failed = true;
        dinit_error(ps->err, ps->ctx, MEMIMG_ERROR_RANGE, "'%s': more than %d operations", ps->text,
                    F_MAX_OPS);
        return false;
    }
    ps->prog->code[ps->prog->n++] = (f_inst){(uint8_t)op, imm};
    ps->depth = ps->depth - (unsigned)pops + (unsigned)pushes;
    if (ps->depth > ps->max_depth) ps->max_depth = ps->depth;
    if (ps->max_depth > F_MAX_DEPTH) {
        ps->failed = true;
        dinit_error(ps->err, ps->ctx, MEMIMG_ERROR_RANGE, "'%s': nested more than %d deep",
                    ps->text, F_MAX_DEPTH);
        return false;
    }
    return true;
}

static bool accept(f_parser *ps, const char *tok)
{
    ws(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0) return false;
    if (n == 1) { /* '<' must not eat half of '<<' or '<=', '&' half of '&&', '!' of '!=' */
        char c = tok[0], next = ps->p[1];
        if (strchr("<>&|", c) && next == c) return false;
        if (strchr("<>!", c) && next == '=') return false;
    }
    ps->p += n;
    return true;
}

static bool ternary(f_parser *ps);

typedef struct f_func {
    const char *name;
    unsigned nargs;
    f_op op;
} f_func;

static const f_func funcs[] = {
    {"min", 2, F_MIN},       {"max", 2, F_MAX},         {"fmix32", 1, F_FMIX32},
    {"fmix64", 1, F_FMIX64}, {"mix64", 1, F_MIX64},     {"lowbias32", 1, F_LOWBIAS32},
};
static const char *const ident_names[] = {"i", "n", "min", "max", "fmix32", "fmix64",
                                          "mix64", "lowbias32", NULL};

static bool number(f_parser *ps)
{
    const char *s = ps->p;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    if (base == 16) s += 2;
    uint64_t v = 0;
    const char *d = s;
    for (; g_ascii_isxdigit(*d) && (base == 16 || g_ascii_isdigit(*d)); d++) {
        unsigned dig = (unsigned)g_ascii_xdigit_value(*d);
        if (v > (UINT64_MAX - dig) / (uint64_t)base) {
            ps->failed = true;
            dinit_error(ps->err, ps->ctx, MEMIMG_ERROR_RANGE,
                        "'%s': column %zu: the number does not fit 64 bits", ps->text,
                        (size_t)(ps->p - ps->text) + 1);
            return false;
        }
        v = v * (uint64_t)base + dig;
    }
    if (d == s || g_ascii_isalnum(*d) || *d == '_') return fail(ps, "a number (decimal or 0x hex)");
    ps->p = d;
    return emit(ps, F_PUSH, v, 0, 1);
}

static bool primary(f_parser *ps)
{
    ws(ps);
    if (accept(ps, "(")) {
        if (!ternary(ps)) return false;
        return accept(ps, ")") || fail(ps, "')'");
    }
    if (g_ascii_isdigit(*ps->p)) return number(ps);
    if (!(g_ascii_isalpha(*ps->p) || *ps->p == '_')) return fail(ps, "a number, i, n, a function or '('");
    const char *start = ps->p;
    while (g_ascii_isalnum(*ps->p) || *ps->p == '_') ps->p++;
    char name[32];
    g_strlcpy(name, start, MIN(sizeof name, (size_t)(ps->p - start) + 1));
    if (strcmp(name, "i") == 0) return emit(ps, F_I, 0, 0, 1);
    if (strcmp(name, "n") == 0) return emit(ps, F_N, 0, 0, 1);
    for (unsigned k = 0; k < G_N_ELEMENTS(funcs); k++) {
        if (strcmp(name, funcs[k].name) != 0) continue;
        if (!accept(ps, "(")) return fail(ps, "'(' after the function name");
        for (unsigned a = 0; a < funcs[k].nargs; a++) {
            if (a && !accept(ps, ",")) return fail(ps, "',' between the function's arguments");
            if (!ternary(ps)) return false;
        }
        if (!accept(ps, ")")) return fail(ps, funcs[k].nargs == 1 ? "')' (one argument)" : "')' (two arguments)");
        return emit(ps, funcs[k].op, 0, (int)funcs[k].nargs, 1);
    }
    ps->failed = true;
    const char *near = dinit_nearest(name, ident_names);
    dinit_error(ps->err, ps->ctx, MEMIMG_ERROR_SYNTAX,
                "'%s': column %zu: unknown name '%s'%s%s%s (names: i, n, min, max, fmix32, fmix64, "
                "mix64, lowbias32)", ps->text, (size_t)(start - ps->text) + 1, name,
                near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return false;
}

static bool unary(f_parser *ps)
{
    f_op op;
    if (accept(ps, "-")) op = F_NEG;
    else if (accept(ps, "~")) op = F_NOT;
    else if (accept(ps, "!")) op = F_LNOT;
    else if (accept(ps, "+")) return unary(ps);
    else return primary(ps);
    return unary(ps) && emit(ps, op, 0, 1, 1);
}

/* One binary precedence level: operators tok[k] compile to ops[k]. */
typedef struct f_level {
    const char *tok[4];
    f_op op[4];
} f_level;

static const f_level levels[] = {
    {{"||"}, {F_LOR}},
    {{"&&"}, {F_LAND}},
    {{"|"}, {F_OR}},
    {{"^"}, {F_XOR}},
    {{"&"}, {F_AND}},
    {{"==", "!="}, {F_EQ, F_NE}},
    {{"<=", ">=", "<", ">"}, {F_LE, F_GE, F_LT, F_GT}},
    {{"<<", ">>"}, {F_SHL, F_SHR}},
    {{"+", "-"}, {F_ADD, F_SUB}},
    {{"*", "/", "%"}, {F_MUL, F_DIV, F_MOD}},
};

static bool binary(f_parser *ps, unsigned level)
{
    if (level == G_N_ELEMENTS(levels)) return unary(ps);
    if (!binary(ps, level + 1)) return false;
    for (;;) {
        const f_level *l = &levels[level];
        unsigned k = 0;
        while (k < 4 && l->tok[k] && !accept(ps, l->tok[k])) k++;
        if (k == 4 || !l->tok[k]) return true;
        if (!binary(ps, level + 1)) return false;
        f_op op = l->op[k];
        const f_inst *rhs = &ps->prog->code[ps->prog->n - 1];
        if ((op == F_DIV || op == F_MOD) && rhs->op == F_PUSH && rhs->imm == 0) {
            ps->failed = true;
            dinit_error(ps->err, ps->ctx, MEMIMG_ERROR_RANGE, "'%s': division by the constant 0",
                        ps->text);
            return false;
        }
        if (!emit(ps, op, 0, 2, 1)) return false;
    }
}

static bool ternary(f_parser *ps)
{
    if (!binary(ps, 0)) return false;
    if (!accept(ps, "?")) return true;
    if (!ternary(ps)) return false;
    if (!accept(ps, ":")) return fail(ps, "':' of 'c ? a : b'");
    return ternary(ps) && emit(ps, F_SEL, 0, 3, 1);
}

static void prog_free(void *p) { g_free(p); }

bool dinit_setup_formula(dinit *d, const char *expr, const dinit_ctx *ctx, GError **err)
{
    f_prog *prog = g_new0(f_prog, 1);
    prog->mask = (ctx->elem_bytes == 8 || ctx->is_float) ? UINT64_MAX : UINT32_MAX;
    f_parser ps = {.text = expr, .p = expr, .prog = prog, .ctx = ctx, .err = err};
    bool ok = ternary(&ps);
    ws(&ps);
    if (ok && *ps.p) ok = fail(&ps, "an operator or the end");
    if (!ok) {
        g_free(prog);
        return false;
    }
    d->owned = prog;
    d->owned_free = prog_free;
    d->value = value_formula;
    return true;
}
