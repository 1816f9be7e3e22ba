/* The functional executor: guard evaluation, dispatch, integer ALU, moves,
 * predicates and control. One switch on the opcode per issue, then a tight
 * loop over the executing lanes; no allocation, no strings. */
#include "isa_exec_internal.h"
#include "isa_internal.h"
#include "simtgrid/bits.h"

static inline uint64_t sdiv(uint64_t a, uint64_t b)
{
    int64_t x = (int64_t)a, y = (int64_t)b;
    if (y == 0) return UINT64_MAX;                    /* -1, as PTX leaves it undefined */
    if (x == INT64_MIN && y == -1) return (uint64_t)x; /* wraps */
    return (uint64_t)(x / y);
}
static inline uint64_t srem(uint64_t a, uint64_t b)
{
    int64_t x = (int64_t)a, y = (int64_t)b;
    if (y == 0) return a;
    if (y == -1) return 0;
    return (uint64_t)(x % y);
}
static inline uint64_t sar(uint64_t a, uint64_t n)
{
    if (n >= 64) return (int64_t)a < 0 ? UINT64_MAX : 0;
    return (int64_t)a < 0 ? ~(~a >> n) : a >> n; /* arithmetic shift without implementation-defined >> */
}

/* Without a branch per lane: the comparison code picks the outcomes it
 * holds for among (a > b, a == b, a < b) as bits of cmp_holds (index
 * lt << 1 | eq; codes past GE compare as GE), and a signed compare is the
 * unsigned one with the sign bits flipped. */
static const uint8_t cmp_holds[6] = {
    [ISA_CMP_EQ] = 2, [ISA_CMP_NE] = 5, [ISA_CMP_LT] = 4, [ISA_CMP_LE] = 6, [ISA_CMP_GT] = 1, [ISA_CMP_GE] = 3};
static inline bool cmp_int(unsigned c, uint64_t a, uint64_t b, bool sgn)
{
    uint64_t flip = sgn ? UINT64_C(1) << 63 : 0;
    unsigned lt = (a ^ flip) < (b ^ flip), eq = a == b;
    return (((c < 6 ? cmp_holds[c] : 3u) >> (lt << 1 | eq)) & 1u) != 0;
}

/* dst = f(a, b, c) on integers normalized to the instruction's type; a
 * 64-bit type's normalization is the identity, so its loop has none. */
#define NORM_WIDE(v) (v)
#define NORM_NARROW(v) isa_norm_with(nr, (v))
#define INT_LANES(expr, NORM)                                                   \
    FOR_LANES(ex, l) {                                                          \
        isa_thread *t = lanes[l];                                               \
        uint64_t a = NORM(opv_h(t, o0));                                        \
        uint64_t b = NORM(opv_h(t, o1));                                        \
        uint64_t c = NORM(opv_h(t, o2));                                        \
        (void)b, (void)c;                                                       \
        t->r[d] = NORM((expr));                                                 \
    }
#define INT_LOOP(expr)                                                          \
    if (wide) {                                                                 \
        INT_LANES(expr, NORM_WIDE)                                              \
    } else {                                                                    \
        INT_LANES(expr, NORM_NARROW)                                            \
    }                                                                           \
    break

static void exec_int(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    const unsigned ty = in->type, d = in->dst[0], bits = isa_type_bits(ty);
    const bool sgn = isa_type_signed(ty);
    const isa_normer nr = isa_normer_of(ty);
    const bool wide = nr.mask == UINT64_MAX && nr.sign == 0;
    const isa_opnd_h o0 = isa_opnd_of(&in->src[0]), o1 = isa_opnd_of(&in->src[1]), o2 = isa_opnd_of(&in->src[2]);
    const unsigned op = in->op, sub = in->sub;
    const uint64_t wmask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    switch (in->op) {
    case ISA_OP_ADD: INT_LOOP(a + b);
    case ISA_OP_SUB: INT_LOOP(a - b);
    case ISA_OP_MUL: INT_LOOP(a * b);
    case ISA_OP_MAD: INT_LOOP(a * b + c);
    case ISA_OP_DIV: INT_LOOP(sgn ? sdiv(a, b) : b ? a / b : UINT64_MAX);
    case ISA_OP_REM: INT_LOOP(sgn ? srem(a, b) : b ? a % b : a);
    case ISA_OP_MIN: INT_LOOP(cmp_int(ISA_CMP_LT, a, b, sgn) ? a : b);
    case ISA_OP_MAX: INT_LOOP(cmp_int(ISA_CMP_GT, a, b, sgn) ? a : b);
    case ISA_OP_ABS: INT_LOOP(sgn && (int64_t)a < 0 ? 0 - a : a);
    case ISA_OP_NEG: INT_LOOP(0 - a);
    case ISA_OP_AND: INT_LOOP(a & b);
    case ISA_OP_OR: INT_LOOP(a | b);
    case ISA_OP_XOR: INT_LOOP(a ^ b);
    case ISA_OP_NOT: INT_LOOP(~a);
    case ISA_OP_POPC: INT_LOOP((uint64_t)sg_popcount64(a & wmask));
    case ISA_OP_CLZ: INT_LOOP((a & wmask) ? (uint64_t)(__builtin_clzll(a & wmask) - (64 - (int)bits)) : bits);
    case ISA_OP_SET: INT_LOOP((uint64_t)cmp_int(sub, a, b, sgn));
    case ISA_OP_SHL:
    case ISA_OP_SHR:
        /* the shift amount is a u64 operand; amounts >= the width shift everything out */
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            uint64_t a = isa_norm_with(nr, opv_h(t, o0)), n = opv_h(t, o1), r;
            if (op == ISA_OP_SHL) r = n >= bits ? 0 : a << n;
            else if (sgn) r = sar(a, n); /* a is sign-extended to 64 bits */
            else r = n >= bits ? 0 : a >> n;
            t->r[d] = isa_norm_with(nr, r);
        }
        break;
    case ISA_OP_SETP: {
        const unsigned pdst = in->pdst;
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            uint64_t a = isa_norm_with(nr, opv_h(t, o0)), b = isa_norm_with(nr, opv_h(t, o1));
            set_pred(t, pdst, cmp_int(sub, a, b, sgn));
        }
        break;
    }
    default: break;
    }
}

static uint64_t sreg_value(const isa_thread *t, unsigned s)
{
    const isa_cta *c = t->cta;
    const isa_launch *L = c->launch;
    unsigned ws = L->warp_size;
    switch (s) {
    case ISA_SREG_TID_X: case ISA_SREG_TID_Y: case ISA_SREG_TID_Z: return t->tid[s - ISA_SREG_TID_X];
    case ISA_SREG_NTID_X: case ISA_SREG_NTID_Y: case ISA_SREG_NTID_Z: return L->block[s - ISA_SREG_NTID_X];
    case ISA_SREG_CTAID_X: case ISA_SREG_CTAID_Y: case ISA_SREG_CTAID_Z: return c->ctaid[s - ISA_SREG_CTAID_X];
    case ISA_SREG_NCTAID_X: case ISA_SREG_NCTAID_Y: case ISA_SREG_NCTAID_Z: return L->grid[s - ISA_SREG_NCTAID_X];
    case ISA_SREG_LANEID: return t->tid_linear % ws;
    case ISA_SREG_WARPID: return t->tid_linear / ws;
    case ISA_SREG_NWARPID: return (c->nthreads + ws - 1) / ws;
    case ISA_SREG_LANEMASK_LT: return (UINT64_C(1) << (t->tid_linear % ws)) - 1;
    default: return c->clock;
    }
}

static void exec_move(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    const unsigned d = in->dst[0];
    const isa_normer nr = isa_normer_of(in->type);
    const isa_opnd_h o0 = isa_opnd_of(&in->src[0]);
    switch (in->op) {
    case ISA_OP_MOV:
        FOR_LANES(ex, l) lanes[l]->r[d] = isa_norm_with(nr, opv_h(lanes[l], o0));
        break;
    case ISA_OP_SREG:
        FOR_LANES(ex, l) lanes[l]->r[d] = sreg_value(lanes[l], in->sub);
        break;
    case ISA_OP_PARAM:
        FOR_LANES(ex, l) lanes[l]->r[d] = lanes[l]->cta->launch->params[in->sub];
        break;
    case ISA_OP_SELP:
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            t->r[d] = isa_norm_with(nr, opv(t, &in->src[predv(t, &in->src[2]) ? 0 : 1]));
        }
        break;
    case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR: case ISA_OP_PNOT:
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            unsigned a = predv(t, &in->src[0]), b = in->op == ISA_OP_PNOT ? 0 : predv(t, &in->src[1]);
            unsigned v = in->op == ISA_OP_PAND ? a & b : in->op == ISA_OP_POR ? a | b
                       : in->op == ISA_OP_PXOR ? a ^ b : !a;
            set_pred(t, in->pdst, v);
        }
        break;
    default: break;
    }
}

void isa_exec(const isa_program *p, uint32_t pc, isa_thread *const *lanes, uint32_t active,
              isa_exec_out *out)
{
    const isa_inst *in = &p->code[pc];
    uint32_t ex = active;
    if (in->guard != ISA_PRED_NONE) {
        ex = 0;
        FOR_LANES(active, l)
            if (((lanes[l]->preds >> in->guard) & 1u) != in->guard_neg) ex |= UINT32_C(1) << l;
    }
    out->inst = in;
    out->executed = ex;
    out->taken = out->exited = out->mem_lanes = out->fault = 0;
    out->access_size = in->mem_bytes;
    if (!ex) return;
    switch (in->op) {
    case ISA_OP_NOP: case ISA_OP_BAR: break;
    case ISA_OP_BRA: out->taken = ex; break;
    case ISA_OP_EXIT:
        out->exited = ex;
        FOR_LANES(ex, l) lanes[l]->exited = true;
        break;
    case ISA_OP_MOV: case ISA_OP_SREG: case ISA_OP_PARAM: case ISA_OP_SELP:
    case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR: case ISA_OP_PNOT:
        exec_move(in, lanes, ex);
        break;
    case ISA_OP_CVT: isa_exec_cvt(in, lanes, ex); break;
    case ISA_OP_LD: case ISA_OP_ST: case ISA_OP_ATOM: case ISA_OP_COND_ACC:
        isa_exec_mem(in, lanes, ex, out);
        break;
    case ISA_OP_BALLOT: case ISA_OP_VOTE: case ISA_OP_SHFL: case ISA_OP_TREE_TRAVERSE:
        isa_exec_warp(in, lanes, ex);
        break;
    default:
        if (in->cls == ISA_CLASS_ALU_INT) exec_int(in, lanes, ex);
        else isa_exec_fp(in, lanes, ex);
        break;
    }
}
