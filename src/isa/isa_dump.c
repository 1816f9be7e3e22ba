/* Text views of a program: one instruction back in .sasm syntax, and the
 * full listing that `simtgrid kernel check` prints (declarations, code by
 * basic block, CFG edges and immediate post-dominators). */
#include <string.h>

#include "isa_internal.h"

const char *isa_program_label_at(const isa_program *p, uint32_t pc)
{
    for (unsigned i = 0; i < p->nlabels; i++)
        if (p->labels[i].pc == pc) return p->labels[i].name;
    return NULL;
}

static void fmt_imm(GString *o, uint64_t v, isa_type t)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    if (t == ISA_T_F32) { /* %.9g and %.17g print values that read back exactly */
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        g_string_append(o, g_ascii_formatd(buf, sizeof buf, "%.9g", (double)f));
    } else if (t == ISA_T_F64) {
        double d;
        memcpy(&d, &v, 8);
        g_string_append(o, g_ascii_formatd(buf, sizeof buf, "%.17g", d));
    } else if (t == ISA_T_S64 || t == ISA_T_S32 || t == ISA_T_S16 || t == ISA_T_S8) {
        g_string_append_printf(o, "%" G_GINT64_FORMAT, (gint64)v);
    } else {
        g_string_append_printf(o, "%" G_GUINT64_FORMAT, (guint64)v);
    }
}

static void fmt_src(GString *o, const isa_operand *s, isa_type t)
{
    if (s->kind == ISA_OPND_REG) g_string_append_printf(o, "r%u", s->reg);
    else if (s->kind == ISA_OPND_PRED) g_string_append_printf(o, "%sp%u", s->neg ? "!" : "", s->reg);
    else fmt_imm(o, s->imm, t);
}

static void fmt_addr(GString *o, const isa_inst *in)
{
    g_string_append_c(o, '[');
    if (in->src[0].kind == ISA_OPND_REG) {
        g_string_append_printf(o, "r%u", in->src[0].reg);
        if (in->addr_off >= 0x1000) g_string_append_printf(o, "+0x%" G_GINT64_MODIFIER "x", (guint64)in->addr_off);
        else if (in->addr_off > 0) g_string_append_printf(o, "+%" G_GINT64_FORMAT, in->addr_off);
        else if (in->addr_off < 0) g_string_append_printf(o, "-%" G_GUINT64_FORMAT, (guint64)0 - (guint64)in->addr_off);
    } else {
        g_string_append_printf(o, "0x%" G_GINT64_MODIFIER "x", (guint64)in->addr_off);
    }
    g_string_append_c(o, ']');
}

static void fmt_regs(GString *o, const uint8_t *r, unsigned n)
{
    if (n == 1) {
        g_string_append_printf(o, "r%u", r[0]);
        return;
    }
    g_string_append_c(o, '{');
    for (unsigned k = 0; k < n; k++) g_string_append_printf(o, "%sr%u", k ? ", " : "", r[k]);
    g_string_append_c(o, '}');
}

static void fmt_mnemonic(GString *o, const isa_inst *in)
{
    const char *ty = isa_type_name((isa_type)in->type);
    const char *sp = isa_space_name(in->space);
    switch (in->op) {
    case ISA_OP_SET: case ISA_OP_SETP:
        g_string_append_printf(o, "%s.%s.%s", isa_op_name(in->op), isa_cmp_name((isa_cmp)in->sub), ty);
        return;
    case ISA_OP_LD:
        g_string_append_printf(o, "ld.%s", sp);
        if (in->cache != ISA_CACHE_CA) g_string_append_printf(o, ".%s", isa_cache_name(in->cache));
        if (in->row_hint) g_string_append(o, ".rowhint");
        if (in->vec > 1) g_string_append_printf(o, ".v%u", in->vec);
        g_string_append_printf(o, ".%s", ty);
        return;
    case ISA_OP_ST:
        g_string_append_printf(o, "st.%s", sp);
        if (in->vec > 1) g_string_append_printf(o, ".v%u", in->vec);
        g_string_append_printf(o, ".%s", ty);
        return;
    case ISA_OP_ATOM:
        g_string_append_printf(o, "atom.%s.%s.%s", sp, isa_atom_name((isa_atom_op)in->sub), ty);
        return;
    case ISA_OP_COND_ACC: g_string_append_printf(o, "cond_acc.%s.%s", sp, ty); return;
    case ISA_OP_SHFL: g_string_append_printf(o, "shfl.%s.%s", isa_shfl_name((isa_shfl_mode)in->sub), ty); return;
    case ISA_OP_VOTE: g_string_append_printf(o, "vote.%s", isa_vote_name((isa_vote_mode)in->sub)); return;
    case ISA_OP_CVT: g_string_append_printf(o, "cvt.%s.%s", ty, isa_type_name((isa_type)in->type2)); return;
    case ISA_OP_BAR: g_string_append(o, "bar.sync"); return;
    case ISA_OP_SREG: g_string_append(o, "mov"); return;
    default: break;
    }
    const isa_opdesc *d = isa_optab_of_op((isa_op)in->op);
    g_string_append(o, d->mnem);
    if (d->allowed & SFX_TYPE) g_string_append_printf(o, ".%s", ty);
}

void isa_inst_format(const isa_program *p, uint32_t pc, GString *o)
{
    if (pc >= p->ninst) {
        g_string_append(o, "<pc out of program>");
        return;
    }
    const isa_inst *in = &p->code[pc];
    if (in->guard != ISA_PRED_NONE) g_string_append_printf(o, "@%sp%u ", in->guard_neg ? "!" : "", in->guard);
    fmt_mnemonic(o, in);
    isa_type st = in->op == ISA_OP_CVT ? (isa_type)in->type2 : (isa_type)in->type;
    unsigned k0 = 0;
    const char *sep = " ";
    if (in->ndst) {
        g_string_append(o, sep);
        fmt_regs(o, in->dst, in->ndst);
        sep = ", ";
    }
    if (in->pdst != ISA_PRED_NONE) {
        g_string_append_printf(o, "%sp%u", sep, in->pdst);
        sep = ", ";
    }
    switch (in->op) {
    case ISA_OP_SREG: g_string_append_printf(o, "%s%%%s", sep, isa_sreg_name((isa_sreg)in->sub)); return;
    case ISA_OP_PARAM: g_string_append_printf(o, "%s%s", sep, p->param_names[in->sub]); return;
    case ISA_OP_BRA: {
        const char *l = isa_program_label_at(p, in->target);
        if (l) g_string_append_printf(o, " %s", l);
        else g_string_append_printf(o, " pc%u", in->target);
        return;
    }
    case ISA_OP_LD: case ISA_OP_ATOM:
        g_string_append(o, sep);
        fmt_addr(o, in);
        sep = ", ";
        k0 = 1;
        break;
    case ISA_OP_ST:
        g_string_append(o, " ");
        fmt_addr(o, in);
        if (in->vec > 1) {
            uint8_t r[4];
            for (unsigned v = 0; v < in->vec; v++) r[v] = in->src[1 + v].reg;
            g_string_append(o, ", ");
            fmt_regs(o, r, in->vec);
            return;
        }
        sep = ", ";
        k0 = 1;
        break;
    default: break;
    }
    for (unsigned k = k0; k < in->nsrc; k++) {
        bool as_u64 = (in->op == ISA_OP_SHL || in->op == ISA_OP_SHR || in->op == ISA_OP_SHFL) && k == 1;
        as_u64 |= (in->op == ISA_OP_COND_ACC && k == 0) || in->op == ISA_OP_TREE_TRAVERSE;
        g_string_append(o, sep);
        fmt_src(o, &in->src[k], as_u64 ? ISA_T_U64 : st);
        sep = ", ";
    }
}

void isa_program_dump(const isa_program *p, GString *o)
{
    g_string_append_printf(o, "kernel %s (%s)\n", p->name, p->file);
    g_string_append_printf(o, "  instructions %u, basic blocks %u, registers %u, shared %u bytes, params %u\n",
                           p->ninst, p->nblocks, p->nregs, p->shared_bytes, p->nparams);
    if (p->ndata) g_string_append(o, "data:\n");
    for (unsigned i = 0; i < p->ndata; i++) {
        const isa_data_decl *d = &p->data[i];
        g_string_append_printf(o, "  @%s %s[%" G_GUINT64_FORMAT "] base 0x%" G_GINT64_MODIFIER "x bytes %"
                               G_GUINT64_FORMAT " = %s  (line %u)\n", d->name, d->type_name, d->count,
                               d->base, d->count * d->elem_bytes, *d->init ? d->init : "zero", d->line);
    }
    if (p->nshared) g_string_append(o, "shared:\n");
    for (unsigned i = 0; i < p->nshared; i++)
        g_string_append_printf(o, "  @%s offset %u bytes %u  (line %u)\n", p->shared[i].name,
                               p->shared[i].offset, p->shared[i].bytes, p->shared[i].line);
    if (p->nparams) g_string_append(o, "params:\n");
    for (unsigned i = 0; i < p->nparams; i++) g_string_append_printf(o, "  %u %s\n", i, p->param_names[i]);
    g_string_append(o, "code:\n");
    for (uint32_t pc = 0; pc < p->ninst; pc++) {
        const isa_inst *in = &p->code[pc];
        if (p->blocks[in->block].start == pc) g_string_append_printf(o, " B%u:\n", in->block);
        const char *l = isa_program_label_at(p, pc);
        if (l) g_string_append_printf(o, " %s:\n", l);
        GString *t = g_string_new(NULL);
        isa_inst_format(p, pc, t);
        g_string_append_printf(o, "  %4u  %-40s ; line %u, %s", pc, t->str, in->line,
                               isa_class_name((isa_class)in->cls));
        g_string_free(t, TRUE);
        if (in->op == ISA_OP_BRA || in->op == ISA_OP_EXIT) {
            if (in->op == ISA_OP_BRA) g_string_append_printf(o, ", target %u", in->target);
            if (in->reconv == ISA_PC_EXIT) g_string_append(o, ", reconverges at exit");
            else g_string_append_printf(o, ", reconverges at %u", in->reconv);
        }
        g_string_append_c(o, '\n');
    }
    g_string_append(o, "cfg:\n");
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const isa_block *bl = &p->blocks[b];
        g_string_append_printf(o, "  B%u [%u..%u] ->", b, bl->start, bl->end - 1);
        for (uint32_t k = 0; k < bl->nsucc; k++) {
            if (bl->succ[k] == ISA_PC_EXIT) g_string_append(o, " exit");
            else g_string_append_printf(o, " B%u", bl->succ[k]);
        }
        if (bl->ipdom == ISA_PC_EXIT) g_string_append(o, "  ipdom exit\n");
        else g_string_append_printf(o, "  ipdom B%u (pc %u)\n", bl->ipdom, p->blocks[bl->ipdom].start);
    }
}
