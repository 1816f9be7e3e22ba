/* The .sasm parser: two passes over the lines (directives first, then labels
 * and instructions), each instruction decoded once into an isa_inst. The
 * first error stops the parse with "file:line: reason". Grammar: docs/sasm.md. */
#include <stdarg.h>
#include <string.h>

#include "isa_internal.h"

bool isa_perr(isa_parser *ps, const char *fmt, ...)
{
    if (ps->err) return false;
    va_list ap;
    va_start(ap, fmt);
    input_error_v(&ps->err, ISA_ERROR, ISA_ERROR_INPUT, ps->file, ps->line, fmt, ap);
    va_end(ap);
    return false;
}

/* Comments run from //, # or ; to the end of the line. */
static void strip_comment(char *s)
{
    for (char *c = s; *c; c++)
        if (*c == '#' || *c == ';' || (c[0] == '/' && c[1] == '/')) {
            *c = '\0';
            return;
        }
}

static const char *const space_names[] = {"", "global", "shared"};
static const char *const cache_names[] = {"ca", "cg", "cs"};

static bool sfx_not_allowed(isa_parser *ps, const char *w, const char *mnem)
{
    return isa_perr(ps, "suffix '.%s' is not allowed on '%s'", w, mnem);
}

/* Applies one suffix word to `in`; *seen collects SFX_* categories. */
static bool apply_suffix(isa_parser *ps, const isa_opdesc *d, const char *mnem, const char *w,
                         isa_inst *in, unsigned *seen)
{
    int v;
    unsigned cat = 0;
    if ((v = isa_type_parse(w)) >= 0) {
        cat = (*seen & SFX_TYPE) && (d->allowed & SFX_TYPE2) ? SFX_TYPE2 : SFX_TYPE;
        if (!(d->allowed & cat)) return sfx_not_allowed(ps, w, mnem);
        if (*seen & cat) return isa_perr(ps, "'%s' has more than one type suffix ('.%s')", mnem, w);
        bool is_f = isa_type_is_float((unsigned)v);
        if (cat == SFX_TYPE && !(d->types & (is_f ? TS_FLOAT : TS_INT)))
            return isa_perr(ps, "type '.%s' is not allowed on '%s' (%s types only)", w, mnem,
                            is_f ? "integer" : "float");
        if (cat == SFX_TYPE) in->type = (uint8_t)v;
        else in->type2 = (uint8_t)v;
    } else if ((v = isa_cmp_parse(w)) >= 0) {
        cat = SFX_CMP;
        in->sub = (uint8_t)v;
    } else if (!strcmp(w, "global") || !strcmp(w, "shared")) {
        cat = SFX_SPACE;
        in->space = !strcmp(w, "global") ? ISA_SPACE_GLOBAL : ISA_SPACE_SHARED;
    } else if (!strcmp(w, "ca") || !strcmp(w, "cg") || !strcmp(w, "cs")) {
        cat = SFX_CACHE;
        in->cache = w[1] == 'a' ? ISA_CACHE_CA : w[1] == 'g' ? ISA_CACHE_CG : ISA_CACHE_CS;
    } else if (!strcmp(w, "rowhint")) {
        cat = SFX_ROWHINT;
        in->row_hint = 1;
    } else if (!strcmp(w, "v2") || !strcmp(w, "v4")) {
        cat = SFX_VEC;
        in->vec = (uint8_t)(w[1] - '0');
    } else if ((v = isa_atom_parse(w)) >= 0 && (d->allowed & SFX_ATOM)) {
        cat = SFX_ATOM;
        in->sub = (uint8_t)v;
    } else if ((v = isa_shfl_parse(w)) >= 0) {
        cat = SFX_SHFL;
        in->sub = (uint8_t)v;
    } else if ((v = isa_vote_parse(w)) >= 0) {
        cat = SFX_VOTE;
        in->sub = (uint8_t)v;
    } else if (!strcmp(w, "sync")) {
        cat = SFX_SYNC;
    } else {
        return isa_perr(ps, "unknown suffix '.%s' on '%s'", w, mnem);
    }
    if (!(d->allowed & cat)) return sfx_not_allowed(ps, w, mnem);
    if ((*seen & cat) && cat != SFX_TYPE && cat != SFX_TYPE2)
        return isa_perr(ps, "'%s' has more than one '.%s'-kind suffix", mnem, w);
    *seen |= cat;
    return true;
}

static bool check_required(isa_parser *ps, const isa_opdesc *d, unsigned seen, isa_inst *in)
{
    /* ld.ca / ld.cg / ld.rowhint: the hints only exist for global loads */
    if (!(seen & SFX_SPACE) && (seen & (SFX_CACHE | SFX_ROWHINT))) {
        in->space = ISA_SPACE_GLOBAL;
        seen |= SFX_SPACE;
    }
    unsigned miss = d->required & ~seen;
    if (!miss) return true;
    if (miss & SFX_CMP) return isa_perr(ps, "'%s' needs a comparison suffix (.eq .ne .lt .le .gt .ge)", d->mnem);
    if (miss & SFX_SPACE) return isa_perr(ps, "'%s' needs a state space (.global or .shared)", d->mnem);
    if (miss & SFX_ATOM)
        return isa_perr(ps, "'%s' needs an operation (.add .min .max .exch .cas .and .or .xor)", d->mnem);
    if (miss & SFX_SHFL) return isa_perr(ps, "'%s' needs a mode (.idx .up .down .bfly)", d->mnem);
    if (miss & SFX_VOTE) return isa_perr(ps, "'%s' needs a mode (.any .all .uni)", d->mnem);
    if (miss & SFX_TYPE2) return isa_perr(ps, "'%s' needs two types, destination then source (e.g. cvt.f32.s32)", d->mnem);
    return isa_perr(ps, "'%s' needs a type (.u8 .s8 .u16 .s16 .u32 .s32 .u64 .s64 .f32 .f64)", d->mnem);
}

/* Class, memory sizes and checks that depend on several suffixes. */
static bool check_and_classify(isa_parser *ps, const char *mnem, isa_inst *in)
{
    bool fp = isa_type_is_float(in->type);
    unsigned eb = isa_type_bytes((isa_type)in->type);
    switch (in->op) {
    case ISA_OP_NOP: in->cls = ISA_CLASS_NOP; break;
    case ISA_OP_DIV: in->cls = fp ? ISA_CLASS_SFU : ISA_CLASS_ALU_INT; break;
    case ISA_OP_CVT: in->cls = fp || isa_type_is_float(in->type2) ? ISA_CLASS_ALU_FP : ISA_CLASS_ALU_INT; break;
    case ISA_OP_SIN: case ISA_OP_COS: case ISA_OP_EX2: case ISA_OP_LG2: case ISA_OP_EXP:
    case ISA_OP_LOG: case ISA_OP_RSQRT: case ISA_OP_RCP: case ISA_OP_SQRT:
        in->cls = ISA_CLASS_SFU;
        break;
    case ISA_OP_LD: case ISA_OP_ST: case ISA_OP_COND_ACC: {
        bool g = in->space == ISA_SPACE_GLOBAL;
        if (in->op == ISA_OP_LD) in->cls = g ? ISA_CLASS_LD_GLOBAL : ISA_CLASS_LD_SHARED;
        else in->cls = g ? ISA_CLASS_ST_GLOBAL : ISA_CLASS_ST_SHARED;
        if (!g && (in->cache != ISA_CACHE_CA || in->row_hint))
            return isa_perr(ps, "'%s': cache and row hints apply to global loads only", mnem);
        in->elem_bytes = (uint8_t)eb;
        if (in->vec * eb > 16)
            return isa_perr(ps, "'%s': .v%u of .%s is %u bytes per lane (at most 16)", mnem, in->vec,
                            isa_type_name((isa_type)in->type), in->vec * eb);
        in->mem_bytes = (uint8_t)(in->vec * eb);
        break;
    }
    case ISA_OP_ATOM:
        in->cls = ISA_CLASS_ATOMIC;
        if (eb != 4 && eb != 8)
            return isa_perr(ps, "'%s': atomics take 32- or 64-bit types, not .%s", mnem, isa_type_name((isa_type)in->type));
        if (fp && in->sub != ISA_ATOM_ADD && in->sub != ISA_ATOM_EXCH && in->sub != ISA_ATOM_CAS)
            return isa_perr(ps, "'%s': .%s is not defined on float types (use add, exch or cas)", mnem,
                            isa_atom_name((isa_atom_op)in->sub));
        in->elem_bytes = in->mem_bytes = (uint8_t)eb;
        break;
    case ISA_OP_BALLOT: case ISA_OP_VOTE: case ISA_OP_SHFL: case ISA_OP_TREE_TRAVERSE:
        in->cls = ISA_CLASS_INTRINSIC;
        break;
    case ISA_OP_BRA: in->cls = ISA_CLASS_BRANCH; break;
    case ISA_OP_BAR: in->cls = ISA_CLASS_BARRIER; break;
    case ISA_OP_EXIT: in->cls = ISA_CLASS_EXIT; break;
    case ISA_OP_SELP: case ISA_OP_MOV: case ISA_OP_SREG: case ISA_OP_PARAM:
    case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR: case ISA_OP_PNOT:
        in->cls = ISA_CLASS_ALU_INT;
        break;
    default: in->cls = fp ? ISA_CLASS_ALU_FP : ISA_CLASS_ALU_INT; break;
    }
    return true;
}

/* Registers and predicates read and written, for the timing model's scoreboard. */
static void collect_regs(isa_inst *in)
{
    if (in->guard != ISA_PRED_NONE) in->pred_reads |= (uint8_t)(1u << in->guard);
    if (in->pdst != ISA_PRED_NONE) in->pred_writes |= (uint8_t)(1u << in->pdst);
    for (unsigned k = 0; k < in->nsrc; k++) {
        const isa_operand *o = &in->src[k];
        if (o->kind == ISA_OPND_PRED) in->pred_reads |= (uint8_t)(1u << o->reg);
        if (o->kind != ISA_OPND_REG) continue;
        bool dup = false;
        for (unsigned j = 0; j < in->nreads; j++) dup |= in->reads[j] == o->reg;
        if (!dup) in->reads[in->nreads++] = o->reg;
    }
}

static bool parse_instruction(isa_parser *ps, char *text)
{
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.guard = in.pdst = ISA_PRED_NONE;
    in.target = in.reconv = ISA_PC_EXIT;
    in.line = ps->line;
    in.vec = 1;
    char *s = text;
    if (*s == '@') { /* guard: @p0 or @!p0 */
        char *g = s + 1;
        while (*s && *s != ' ' && *s != '\t') s++;
        if (*s) *s++ = '\0';
        bool neg = *g == '!';
        if (neg) g++;
        if (g[0] != 'p' || !g_ascii_isdigit(g[1]) || g[2] || g[1] - '0' >= ISA_NUM_PREDS)
            return isa_perr(ps, "bad guard '@%s%s' (expected @p0..@p%d or @!p0..@!p%d)", neg ? "!" : "",
                            g, ISA_NUM_PREDS - 1, ISA_NUM_PREDS - 1);
        in.guard = (uint8_t)(g[1] - '0');
        in.guard_neg = neg;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) return isa_perr(ps, "guard '@%s%s' without an instruction", neg ? "!" : "", g);
        if (*s == '.') return isa_perr(ps, "a directive cannot be predicated");
    }
    char *mn = s;
    while (*s && *s != ' ' && *s != '\t') s++;
    if (*s) *s++ = '\0';
    char **words = g_strsplit(mn, ".", -1);
    bool ok = true;
    const isa_opdesc *d = isa_optab_find(words[0]);
    if (!d) {
        ok = isa_perr(ps, "unknown opcode '%s' (did you mean '%s'?)", words[0], isa_optab_nearest(words[0]));
    } else {
        in.op = d->op;
        in.sub = d->sub;
        unsigned seen = 0;
        for (unsigned i = 1; ok && words[i]; i++) {
            if (!*words[i]) ok = isa_perr(ps, "empty suffix in '%s'", mn);
            else ok = apply_suffix(ps, d, words[0], words[i], &in, &seen);
        }
        ok = ok && check_required(ps, d, seen, &in);
        if (ok && !(seen & SFX_TYPE)) in.type = d->def_type;
        ok = ok && check_and_classify(ps, words[0], &in);
        GPtrArray *ops = NULL;
        if (ok) {
            char *rest = isa_strip(s);
            ops = *rest ? isa_split_commas(rest) : g_ptr_array_new_with_free_func(g_free);
            ok = isa_parse_operands(ps, d, words[0], ops, &in);
            g_ptr_array_unref(ops);
        }
    }
    g_strfreev(words);
    if (!ok) return false;
    if (in.op == ISA_OP_SREG || in.op == ISA_OP_PARAM) in.cls = ISA_CLASS_ALU_INT;
    collect_regs(&in);
    g_array_append_val(ps->code, in);
    return true;
}

/* Peels "name:" labels off the front of s. Returns the rest. */
static char *take_labels(isa_parser *ps, char *s, bool record, bool *ok)
{
    *ok = true;
    for (;;) {
        char *c = s;
        while (g_ascii_isalnum(*c) || *c == '_' || *c == '$' || *c == '.') c++;
        char *e = c;
        while (*c == ' ' || *c == '\t') c++;
        if (e == s || *c != ':') return s;
        *e = '\0';
        if (!isa_is_ident(s)) {
            *ok = isa_perr(ps, "bad label '%s' (letters, digits, _ and $; not starting with a digit)", s);
            return s;
        }
        if (record) {
            gpointer prev = g_hash_table_lookup(ps->label_idx, s);
            if (prev) {
                isa_label *l = &g_array_index(ps->labels, isa_label, GPOINTER_TO_UINT(prev) - 1);
                *ok = isa_perr(ps, "duplicate label '%s' (first defined at line %u)", s, l->line);
                return s;
            }
            isa_label l = {g_strdup(s), ps->code->len, ps->line};
            g_array_append_val(ps->labels, l);
            g_hash_table_insert(ps->label_idx, l.name, GUINT_TO_POINTER(ps->labels->len));
        }
        s = c + 1;
        while (*s == ' ' || *s == '\t') s++;
    }
}

/* pass 1: directives; pass 2: labels and instructions. */
bool isa_parse_line(isa_parser *ps, char *line, int pass, memimg *check)
{
    strip_comment(line);
    char *s = isa_strip(line);
    if (!*s) return true;
    bool ok;
    const char *start = s;
    s = take_labels(ps, s, pass == 2, &ok);
    if (!ok) return false;
    if (!*s) return true;
    if (*s == '.') {
        if (s != start) return isa_perr(ps, "a label cannot be attached to a directive");
        return pass == 1 ? isa_parse_directive(ps, s, check) : true;
    }
    return pass == 2 ? parse_instruction(ps, s) : true;
}

const char *isa_space_name(unsigned s) { return s < 3 ? space_names[s] : "?"; }
const char *isa_cache_name(unsigned c) { return c < 3 ? cache_names[c] : "?"; }
