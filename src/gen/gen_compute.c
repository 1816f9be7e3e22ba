/* The instruction mix and the branch regions. Each mix instruction is drawn
 * from the seed: first its class by the compute.int/fp/sfu weights, then a
 * variant and accumulator registers. Integer ops work on the integer
 * accumulators, float and SFU ops on the f32 ones (compute.chains of each),
 * so the mix forms dependence chains the timing model sees. */
#include "gen/gen_internal.h"

static const char *const int_ops[] = {
    "add.u32 r%u, r%u, r%u", "xor r%u, r%u, r%u", "sub.u32 r%u, r%u, r%u", "max.u32 r%u, r%u, r%u",
};
static const char *const int_imm_ops[] = {
    "mul.u32 r%u, r%u, 2654435761", "shr.u32 r%u, r%u, 3", "mad.u32 r%u, r%u, 5, 7", "shl.u32 r%u, r%u, 1",
};
static const char *const fp_ops[] = {"add.f32 r%u, r%u, r%u", "max.f32 r%u, r%u, r%u",
                                     "mul.f32 r%u, r%u, r%u"};
static const char *const fp_imm_ops[] = {"fma.f32 r%u, r%u, 0.5, 0.25", "mul.f32 r%u, r%u, 0.75"};
static const char *const sfu_ops[] = {"sin", "cos", "ex2", "lg2", "rsqrt", "sqrt"};

static void one_op(gen_ctx *c, const char *guard)
{
    const gen_profile *p = c->p;
    double wi = gp_float(p, K_W_INT), wf = gp_float(p, K_W_FP), ws = gp_float(p, K_W_SFU);
    double u = (double)(gen_rand(c) >> 11) * 0x1p-53 * (wi + wf + ws);
    unsigned variant = (unsigned)gen_below(c, 8);
    unsigned a = (unsigned)gen_below(c, c->chains), b = (unsigned)gen_below(c, c->chains);
    GString *o = c->out;
    g_string_append_printf(o, "    %s", guard);
    /* xor and sub of an accumulator with itself would just zero it: use
     * another accumulator, or an immediate form when there is only one. */
    if (a == b && c->chains > 1)
        b = (a + 1 + (unsigned)gen_below(c, c->chains - 1)) % c->chains;
    if (u < wi) {
        if (a == b && (variant == 1 || variant == 2))
            variant += 4;
        if (variant < 4)
            g_string_append_printf(o, int_ops[variant], R_IACC + a, R_IACC + a, R_IACC + b);
        else
            g_string_append_printf(o, int_imm_ops[variant - 4], R_IACC + a, R_IACC + b);
    } else if (u < wi + wf || ws <= 0) {
        if (variant < 6)
            g_string_append_printf(o, fp_ops[variant % 3], c->facc + a, c->facc + a, c->facc + b);
        else
            g_string_append_printf(o, fp_imm_ops[variant - 6], c->facc + a, c->facc + b);
    } else {
        g_string_append_printf(o, "%s r%u, r%u", sfu_ops[variant % 6], c->facc + a, c->facc + b);
    }
    g_string_append_c(o, '\n');
}

void gen_compute_ops(gen_ctx *c, int64_t n, const char *guard)
{
    for (int64_t i = 0; i < n; i++)
        one_op(c, guard);
}

void gen_consume(gen_ctx *c, unsigned reg, unsigned k)
{
    gen_line(c, "add r%u, r%u, r%u            // use the loaded value", R_IACC + k % c->chains, R_IACC + k % c->chains, reg);
}

/* Sets predicate `pred` to the condition; `inner` picks the second hash or
 * lane bit for the inner branch of a nested region. */
static void condition(gen_ctx *c, unsigned pred, bool inner)
{
    const gen_profile *p = c->p;
    unsigned thresh = (unsigned)(gp_float(p, K_BR_BIAS) * 1024.0 + 0.5);
    switch (gp_int(p, K_BR_COND)) {
    case COND_LANE_PARITY:
        gen_line(c, "and r%d, r%d, %d", R_HASH, R_LANE, inner ? 2 : 1);
        gen_line(c, "setp.ne.u32 p%u, r%d, 0        // lane bit %d", pred, R_HASH, inner ? 1 : 0);
        break;
    case COND_BIASED:
        gen_line(c, "mul.u32 r%d, r%d, %u", R_HASH, R_GID, inner ? c->k3 : c->k1);
        gen_line(c, "mad.u32 r%d, r%d, %u, r%d", R_HASH, R_ITER, inner ? c->k4 : c->k2, R_HASH);
        gen_line(c, "shr.u32 r%d, r%d, 22             // hash of (gid, iteration) in [0, 1024)", R_HASH,
                 R_HASH);
        gen_line(c, "setp.lt.u32 p%u, r%d, %u         // then with probability %u/1024", pred, R_HASH,
                 thresh, thresh);
        break;
    default:
        gen_line(c, "mul.u32 r%d, r%u, %u", R_HASH, c->val, inner ? c->k3 : c->k1);
        gen_line(c, "shr.u32 r%d, r%d, 22             // hash of the loaded value in [0, 1024)", R_HASH,
                 R_HASH);
        gen_line(c, "setp.lt.u32 p%u, r%d, %u", pred, R_HASH, thresh);
        break;
    }
}

/* if (p) { then } else { else }, with labels numbered n. */
static void if_else(gen_ctx *c, unsigned pred, const char *tag, unsigned n, int64_t then_ops,
                    int64_t else_ops)
{
    gen_line(c, "@!p%u bra %selse_%u", pred, tag, n);
    gen_compute_ops(c, then_ops, "");
    gen_line(c, "bra %sendif_%u", tag, n);
    g_string_append_printf(c->out, "%selse_%u:\n", tag, n);
    gen_compute_ops(c, else_ops, "");
    g_string_append_printf(c->out, "%sendif_%u:\n", tag, n);
}

void gen_branch_region(gen_ctx *c)
{
    const gen_profile *p = c->p;
    int64_t then_ops = gp_int(p, K_BR_THEN), else_ops = gp_int(p, K_BR_ELSE);
    switch (gp_int(p, K_BR_SHAPE)) {
    case BR_IFELSE: {
        unsigned n = ++c->labels;
        gen_comment(c, "if/else: %" G_GINT64_FORMAT " then, %" G_GINT64_FORMAT " else", then_ops, else_ops);
        condition(c, 0, false);
        if_else(c, 0, "", n, then_ops, else_ops);
        break;
    }
    case BR_NESTED: {
        unsigned n = ++c->labels;
        gen_comment(c, "nested: if (p0) { if (p1) then else } else");
        condition(c, 0, false);
        gen_line(c, "@!p0 bra else_%u", n);
        condition(c, 1, true);
        if_else(c, 1, "inner_", n, then_ops, else_ops);
        gen_line(c, "bra endif_%u", n);
        gen_label(c, "else", n);
        gen_compute_ops(c, else_ops, "");
        gen_label(c, "endif", n);
        break;
    }
    case BR_PREDICATED:
        gen_comment(c, "predicated: no branch");
        condition(c, 0, false);
        gen_compute_ops(c, then_ops, "@p0 ");
        gen_compute_ops(c, else_ops, "@!p0 ");
        break;
    default:
        break;
    }
}
