/* Operand decoding: registers, predicates, immediates (numbers, floats,
 * @symbols and sums of them), addresses, register lists, labels, params and
 * special registers, driven by the opcode's signature (isa_optab.c). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "isa_exec_internal.h"
#include "isa_internal.h"

static bool is_reg_token(const char *s)
{
    if (s[0] != 'r' || !s[1]) return false;
    for (const char *c = s + 1; *c; c++)
        if (!g_ascii_isdigit(*c)) return false;
    return true;
}

/* "r12" -> 12. Identifiers that are not registers are "unknown register". */
static bool parse_reg(isa_parser *ps, const char *s, uint8_t *out)
{
    if (!is_reg_token(s)) {
        if (isa_is_ident(s)) return isa_perr(ps, "unknown register '%s' (expected r0..r%d)", s, ISA_MAX_REGS - 1);
        return isa_perr(ps, "expected a register r0..r%d, got '%s'", ISA_MAX_REGS - 1, s);
    }
    uint64_t n = 0;
    if (!isa_parse_u64(s + 1, &n) || n >= ISA_MAX_REGS)
        return isa_perr(ps, "register '%s' out of range (r0..r%d)", s, ISA_MAX_REGS - 1);
    *out = (uint8_t)n;
    return true;
}

static bool parse_pred(isa_parser *ps, const char *s, bool allow_neg, uint8_t *out, uint8_t *neg)
{
    const char *orig = s;
    *neg = 0;
    if (*s == '!') {
        if (!allow_neg) return isa_perr(ps, "a destination predicate cannot be negated: '%s'", orig);
        *neg = 1;
        s++;
    }
    if (s[0] != 'p' || !g_ascii_isdigit(s[1]) || s[2])
        return isa_perr(ps, "expected a predicate p0..p%d, got '%s'", ISA_NUM_PREDS - 1, orig);
    if (s[1] - '0' >= ISA_NUM_PREDS)
        return isa_perr(ps, "predicate '%s' out of range (p0..p%d)", orig, ISA_NUM_PREDS - 1);
    *out = (uint8_t)(s[1] - '0');
    return true;
}

/* A sum of terms: numbers, @symbols and (when reg != NULL) at most one
 * register, joined by + and -. Wraps modulo 2^64; `*single_big` is set when
 * the whole expression is one literal above INT64_MAX. */
static bool parse_sum(isa_parser *ps, const char *text, uint8_t *reg, int64_t *out,
                      bool *single_big)
{
    const char *p = text;
    uint64_t acc = 0;
    unsigned terms = 0;
    bool big = false;
    if (reg) *reg = ISA_REG_NONE;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        bool minus = false;
        if (*p == '+' || *p == '-') {
            minus = *p == '-';
            p++;
            while (*p == ' ' || *p == '\t') p++;
        } else if (terms > 0) {
            return isa_perr(ps, "bad immediate '%s' (expected '+' or '-' after the register)", text);
        }
        const char *t0 = p;
        if (*p == '@') p++;
        while (g_ascii_isalnum(*p) || *p == '_' || *p == '$' || *p == '.') p++;
        char *term = g_strndup(t0, (gsize)(p - t0));
        bool ok = true;
        uint64_t v = 0;
        if (!*term) {
            ok = isa_perr(ps, "bad immediate '%s' (missing a term)", text);
        } else if (term[0] == '@') {
            uint64_t *sym = g_hash_table_lookup(ps->symbols, term + 1);
            if (!sym) ok = isa_perr(ps, "undefined symbol '%s' (declare it with .data or .shared)", term);
            else v = *sym;
        } else if (is_reg_token(term)) {
            if (!reg) ok = isa_perr(ps, "bad immediate '%s' (a register is not allowed here)", text);
            else if (*reg != ISA_REG_NONE || minus)
                ok = isa_perr(ps, "bad address '[%s]' (at most one register, added)", text);
            else ok = parse_reg(ps, term, reg);
            terms++;
            g_free(term);
            if (!ok) return false;
            if (!*p) break;
            continue;
        } else if (!isa_parse_u64(term, &v)) {
            ok = isa_perr(ps, "bad immediate '%s' (expected an integer such as 42, -3, 0x1f or an @symbol)", term);
        }
        g_free(term);
        if (!ok) return false;
        big = v > (uint64_t)INT64_MAX;
        acc = minus ? acc - v : acc + v;
        terms++;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        if (*p != '+' && *p != '-')
            return isa_perr(ps, "bad immediate '%s' (unexpected '%c': expected '+' or '-' between terms)", text, *p);
    }
    *out = (int64_t)acc;
    if (single_big) *single_big = big && terms == 1;
    return true;
}

static bool parse_imm(isa_parser *ps, const char *s, isa_type t, uint64_t *out)
{
    if (isa_type_is_float(t)) {
        uint64_t bits;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { /* raw IEEE bits */
            if (!isa_parse_u64(s, &bits) || (t == ISA_T_F32 && bits > 0xffffffffu))
                return isa_perr(ps, "bad immediate '%s' (raw .%s bits out of range)", s, isa_type_name(t));
            *out = bits;
            return true;
        }
        char *end = NULL;
        double d = g_ascii_strtod(s, &end);
        if (!*s || !end || *end)
            return isa_perr(ps, "bad immediate '%s' (expected a float such as 1.5, -2e-3 or 0x3f800000)", s);
        if (t == ISA_T_F32) {
            if (isfinite(d) && fabs(d) > FLT_MAX)
                return isa_perr(ps, "bad immediate '%s' (out of range for .f32)", s);
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *out = u;
        } else {
            memcpy(out, &d, 8);
        }
        return true;
    }
    int64_t v;
    bool big = false;
    if (!parse_sum(ps, s, NULL, &v, &big)) return false;
    unsigned bits = isa_type_bytes(t) * 8;
    if (bits < 64 && !big) {
        int64_t lo = -((int64_t)1 << (bits - 1)), hi = (int64_t)(((uint64_t)1 << bits) - 1);
        if (v < lo || v > hi)
            return isa_perr(ps, "bad immediate '%s' (out of range for .%s)", s, isa_type_name(t));
    } else if (bits < 64) {
        return isa_perr(ps, "bad immediate '%s' (out of range for .%s)", s, isa_type_name(t));
    }
    *out = isa_norm((uint64_t)v, t);
    return true;
}

static bool parse_src(isa_parser *ps, const char *s, isa_type t, isa_operand *o)
{
    memset(o, 0, sizeof *o);
    if (is_reg_token(s)) {
        o->kind = ISA_OPND_REG;
        return parse_reg(ps, s, &o->reg);
    }
    if (isa_is_ident(s) && g_ascii_strcasecmp(s, "inf") && g_ascii_strcasecmp(s, "nan") &&
        g_ascii_strcasecmp(s, "infinity"))
        return parse_reg(ps, s, &o->reg); /* an identifier: report it as a register */
    if (s[0] == '%') return isa_perr(ps, "special register '%s' can only be read by mov", s);
    if (s[0] == '[' || s[0] == '{') return isa_perr(ps, "expected a register or an immediate, got '%s'", s);
    o->kind = ISA_OPND_IMM;
    return parse_imm(ps, s, t, &o->imm);
}

static bool parse_addr(isa_parser *ps, const char *s, isa_inst *in)
{
    size_t n = strlen(s);
    if (n < 2 || s[0] != '[' || s[n - 1] != ']')
        return isa_perr(ps, "expected an address [reg+offset], got '%s'", s);
    char *inner = g_strndup(s + 1, n - 2);
    int64_t off = 0;
    uint8_t reg;
    bool ok = parse_sum(ps, isa_strip(inner), &reg, &off, NULL);
    g_free(inner);
    if (!ok) return false;
    in->src[0].kind = reg == ISA_REG_NONE ? ISA_OPND_NONE : ISA_OPND_REG;
    in->src[0].reg = reg;
    in->addr_off = off;
    return true;
}

/* A register list {ra, rb, ...} of exactly `n` registers (n > 1), or one register. */
static bool parse_reglist(isa_parser *ps, const char *s, unsigned n, uint8_t *regs)
{
    size_t len = strlen(s);
    if (n == 1) {
        if (s[0] == '{') return isa_perr(ps, "a register list needs .v2 or .v4, got '%s'", s);
        return parse_reg(ps, s, &regs[0]);
    }
    if (len < 2 || s[0] != '{' || s[len - 1] != '}')
        return isa_perr(ps, "expected a list of %u registers {ra, rb, ...} for .v%u, got '%s'", n, n, s);
    char *inner = g_strndup(s + 1, len - 2);
    GPtrArray *items = isa_split_commas(inner);
    g_free(inner);
    bool ok = true;
    if (items->len != n)
        ok = isa_perr(ps, "expected %u registers in '%s' for .v%u, got %u", n, s, n, items->len);
    for (unsigned i = 0; ok && i < n; i++) ok = parse_reg(ps, g_ptr_array_index(items, i), &regs[i]);
    g_ptr_array_unref(items);
    return ok;
}

static bool parse_sreg(isa_parser *ps, const char *s, isa_inst *in)
{
    int r = isa_sreg_parse(s + 1);
    if (r < 0) {
        const char *best = "tid.x";
        unsigned bd = UINT32_MAX;
        for (int i = 0; i < ISA_SREG_COUNT; i++) {
            unsigned d = (unsigned)edit_distance(s + 1, isa_sreg_name((isa_sreg)i));
            if (d < bd) bd = d, best = isa_sreg_name((isa_sreg)i);
        }
        return isa_perr(ps, "unknown special register '%s' (did you mean '%%%s'?)", s, best);
    }
    in->op = ISA_OP_SREG;
    in->sub = (uint8_t)r;
    return true;
}

static bool parse_param(isa_parser *ps, const char *s, isa_inst *in)
{
    uint64_t idx;
    if (isa_parse_u64(s, &idx)) {
        if (idx >= ps->params->len)
            return isa_perr(ps, "param index %s out of range (the kernel declares %u .param)", s, ps->params->len);
        in->sub = (uint8_t)idx;
        return true;
    }
    for (unsigned i = 0; i < ps->params->len; i++)
        if (!strcmp(g_ptr_array_index(ps->params, i), s)) {
            in->sub = (uint8_t)i;
            return true;
        }
    return isa_perr(ps, "undefined param '%s' (declare it with .param)", s);
}

static void usage(const char *sig, const char *mnem, GString *u)
{
    static const char *const src_names[] = {"a", "b", "c", "d"};
    unsigned nsrc = 0;
    g_string_append(u, mnem);
    for (const char *c = sig; *c; c++) {
        const char *n;
        switch (*c) {
        case 'd': n = "rd"; break;
        case 'D': n = "rd|{rd,..}"; break;
        case 'P': n = "pd"; break;
        case 'p': n = "p|!p"; break;
        case 'a': n = "[addr]"; break;
        case 'S': n = "value"; break;
        case 'l': n = "label"; break;
        case 'm': n = "param"; break;
        case 'v': n = "a|%sreg"; break;
        default: n = src_names[nsrc++ % 4]; break; /* 's', 'i' */
        }
        g_string_append_printf(u, "%s %s", c == sig ? "" : ",", n);
    }
}

bool isa_parse_operands(isa_parser *ps, const isa_opdesc *d, const char *mnem, GPtrArray *ops,
                        isa_inst *in)
{
    const char *sig = d->sig;
    if (in->op == ISA_OP_ATOM && in->sub == ISA_ATOM_CAS) sig = "dass";
    if (ops->len != strlen(sig)) {
        GString *u = g_string_new(NULL);
        usage(sig, mnem, u);
        isa_perr(ps, "'%s' takes %zu operand%s, got %u (usage: %s)", mnem, strlen(sig),
                 strlen(sig) == 1 ? "" : "s", ops->len, u->str);
        g_string_free(u, TRUE);
        return false;
    }
    unsigned nsrc = in->op == ISA_OP_LD || in->op == ISA_OP_ST || in->op == ISA_OP_ATOM ? 1 : 0;
    isa_type st = in->op == ISA_OP_CVT ? (isa_type)in->type2 : (isa_type)in->type;
    for (unsigned k = 0; sig[k]; k++) {
        const char *s = g_ptr_array_index(ops, k);
        if (!*s) return isa_perr(ps, "operand %u of '%s' is empty", k + 1, mnem);
        bool ok = true;
        switch (sig[k]) {
        case 'd':
            ok = parse_reg(ps, s, &in->dst[0]);
            in->ndst = 1;
            break;
        case 'D':
            ok = parse_reglist(ps, s, in->vec, in->dst);
            in->ndst = in->vec;
            break;
        case 'P': {
            uint8_t neg;
            ok = parse_pred(ps, s, false, &in->pdst, &neg);
            break;
        }
        case 'p':
            in->src[nsrc].kind = ISA_OPND_PRED;
            ok = parse_pred(ps, s, true, &in->src[nsrc].reg, &in->src[nsrc].neg);
            nsrc++;
            break;
        case 's':
            ok = parse_src(ps, s, st, &in->src[nsrc++]);
            break;
        case 'i':
            ok = parse_src(ps, s, ISA_T_U64, &in->src[nsrc++]);
            break;
        case 'v':
            if (s[0] == '%') ok = parse_sreg(ps, s, in);
            else ok = parse_src(ps, s, st, &in->src[nsrc++]);
            break;
        case 'a':
            ok = parse_addr(ps, s, in);
            break;
        case 'S':
            if (in->vec == 1) {
                if (s[0] == '{') ok = isa_perr(ps, "a register list needs .v2 or .v4, got '%s'", s);
                else ok = parse_src(ps, s, st, &in->src[nsrc++]);
            } else {
                uint8_t regs[4];
                ok = parse_reglist(ps, s, in->vec, regs);
                for (unsigned v = 0; ok && v < in->vec; v++) {
                    in->src[nsrc].kind = ISA_OPND_REG;
                    in->src[nsrc++].reg = regs[v];
                }
            }
            break;
        case 'l': {
            if (!isa_is_ident(s)) return isa_perr(ps, "expected a label, got '%s'", s);
            isa_fixup f = {ps->code->len, g_strdup(s), ps->line};
            g_array_append_val(ps->fixups, f);
            break;
        }
        case 'm':
            ok = parse_param(ps, s, in);
            break;
        default:
            ok = isa_perr(ps, "internal: bad signature letter '%c'", sig[k]);
        }
        if (!ok) return false;
    }
    in->nsrc = (uint8_t)nsrc;
    return true;
}
