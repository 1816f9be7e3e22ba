/* Float ALU, SFU and conversions. f32 arithmetic is done in single precision
 * (C float with FLT_EVAL_METHOD 0, fmaf for the fused multiply-add), f64 in
 * double, so results match an IEEE GPU bit for bit on + - * and fma. SFU
 * functions use libm, which is deterministic on one host. */
#include <float.h>
#include <math.h>

#include "isa_exec_internal.h"

static inline bool cmp_f(unsigned c, double a, double b)
{
    switch (c) { /* ordered comparisons: false on NaN except ne */
    case ISA_CMP_EQ: return a == b;
    case ISA_CMP_NE: return !(a == b);
    case ISA_CMP_LT: return a < b;
    case ISA_CMP_LE: return a <= b;
    case ISA_CMP_GT: return a > b;
    default: return a >= b;
    }
}

#define F32_LOOP(expr)                                  \
    FOR_LANES(ex, l) {                                  \
        isa_thread *t = lanes[l];                       \
        float a = f32_of(opv(t, &in->src[0]));          \
        float b = f32_of(opv(t, &in->src[1]));          \
        float c = f32_of(opv(t, &in->src[2]));          \
        (void)b, (void)c;                               \
        t->r[d] = of_f32(expr);                         \
    }                                                   \
    break

#define F64_LOOP(expr)                                  \
    FOR_LANES(ex, l) {                                  \
        isa_thread *t = lanes[l];                       \
        double a = f64_of(opv(t, &in->src[0]));         \
        double b = f64_of(opv(t, &in->src[1]));         \
        double c = f64_of(opv(t, &in->src[2]));         \
        (void)b, (void)c;                               \
        t->r[d] = of_f64(expr);                         \
    }                                                   \
    break

static void exec_f32(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    const unsigned d = in->dst[0];
    switch (in->op) {
    case ISA_OP_ADD: F32_LOOP(a + b);
    case ISA_OP_SUB: F32_LOOP(a - b);
    case ISA_OP_MUL: F32_LOOP(a * b);
    case ISA_OP_MAD: F32_LOOP(fmaf(a, b, c));
    case ISA_OP_DIV: F32_LOOP(a / b);
    case ISA_OP_MIN: F32_LOOP(fminf(a, b));
    case ISA_OP_MAX: F32_LOOP(fmaxf(a, b));
    case ISA_OP_ABS: F32_LOOP(fabsf(a));
    case ISA_OP_NEG: F32_LOOP(-a);
    case ISA_OP_SIN: F32_LOOP(sinf(a));
    case ISA_OP_COS: F32_LOOP(cosf(a));
    case ISA_OP_EX2: F32_LOOP(exp2f(a));
    case ISA_OP_LG2: F32_LOOP(log2f(a));
    case ISA_OP_EXP: F32_LOOP(expf(a));
    case ISA_OP_LOG: F32_LOOP(logf(a));
    case ISA_OP_RSQRT: F32_LOOP(1.0f / sqrtf(a));
    case ISA_OP_RCP: F32_LOOP(1.0f / a);
    case ISA_OP_SQRT: F32_LOOP(sqrtf(a));
    case ISA_OP_SET:
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            t->r[d] = cmp_f(in->sub, f32_of(opv(t, &in->src[0])), f32_of(opv(t, &in->src[1])));
        }
        break;
    case ISA_OP_SETP:
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            set_pred(t, in->pdst, cmp_f(in->sub, f32_of(opv(t, &in->src[0])), f32_of(opv(t, &in->src[1]))));
        }
        break;
    default: break;
    }
}

static void exec_f64(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    const unsigned d = in->dst[0];
    switch (in->op) {
    case ISA_OP_ADD: F64_LOOP(a + b);
    case ISA_OP_SUB: F64_LOOP(a - b);
    case ISA_OP_MUL: F64_LOOP(a * b);
    case ISA_OP_MAD: F64_LOOP(fma(a, b, c));
    case ISA_OP_DIV: F64_LOOP(a / b);
    case ISA_OP_MIN: F64_LOOP(fmin(a, b));
    case ISA_OP_MAX: F64_LOOP(fmax(a, b));
    case ISA_OP_ABS: F64_LOOP(fabs(a));
    case ISA_OP_NEG: F64_LOOP(-a);
    case ISA_OP_SIN: F64_LOOP(sin(a));
    case ISA_OP_COS: F64_LOOP(cos(a));
    case ISA_OP_EX2: F64_LOOP(exp2(a));
    case ISA_OP_LG2: F64_LOOP(log2(a));
    case ISA_OP_EXP: F64_LOOP(exp(a));
    case ISA_OP_LOG: F64_LOOP(log(a));
    case ISA_OP_RSQRT: F64_LOOP(1.0 / sqrt(a));
    case ISA_OP_RCP: F64_LOOP(1.0 / a);
    case ISA_OP_SQRT: F64_LOOP(sqrt(a));
    case ISA_OP_SET:
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            t->r[d] = cmp_f(in->sub, f64_of(opv(t, &in->src[0])), f64_of(opv(t, &in->src[1])));
        }
        break;
    case ISA_OP_SETP:
        FOR_LANES(ex, l) {
            isa_thread *t = lanes[l];
            set_pred(t, in->pdst, cmp_f(in->sub, f64_of(opv(t, &in->src[0])), f64_of(opv(t, &in->src[1]))));
        }
        break;
    default: break;
    }
}

void isa_exec_fp(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    if (in->type == ISA_T_F64) exec_f64(in, lanes, ex);
    else exec_f32(in, lanes, ex);
}

/* Double to f32 with IEEE overflow to infinity (a plain cast of an
 * out-of-range value is undefined in C). */
static float to_f32(double v)
{
    if (isfinite(v) && fabs(v) > (double)FLT_MAX) {
        if (fabs(v) >= 0x1.ffffffp127) return v > 0 ? INFINITY : -INFINITY; /* rounds away */
        return v > 0 ? FLT_MAX : -FLT_MAX;
    }
    return (float)v;
}

/* Float to integer: round toward zero, saturate, NaN -> 0 (as PTX cvt.rzi.sat). */
static uint64_t float_to_int(double v, unsigned ty)
{
    unsigned bits = isa_type_bits(ty);
    if (isnan(v)) return 0;
    v = trunc(v);
    if (isa_type_signed(ty)) {
        double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1); /* hi exclusive */
        if (v < lo) return isa_norm(UINT64_C(0) - (UINT64_C(1) << (bits - 1)), ty);
        if (v >= hi) return isa_norm(bits == 64 ? (uint64_t)INT64_MAX : (UINT64_C(1) << (bits - 1)) - 1, ty);
        return isa_norm((uint64_t)(int64_t)v, ty);
    }
    if (v <= 0) return 0;
    if (v >= ldexp(1.0, (int)bits)) return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    return (uint64_t)v;
}

void isa_exec_cvt(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    const unsigned dt = in->type, sty = in->type2, d = in->dst[0];
    FOR_LANES(ex, l) {
        isa_thread *t = lanes[l];
        uint64_t raw = opv(t, &in->src[0]), r;
        if (sty == ISA_T_F32 || sty == ISA_T_F64) {
            double v = sty == ISA_T_F32 ? (double)f32_of(raw) : f64_of(raw);
            if (dt == ISA_T_F32) r = of_f32(to_f32(v));
            else if (dt == ISA_T_F64) r = of_f64(v);
            else r = float_to_int(v, dt);
        } else {
            uint64_t iv = isa_norm(raw, sty);
            bool sgn = isa_type_signed(sty);
            if (dt == ISA_T_F32) r = of_f32(sgn ? (float)(int64_t)iv : (float)iv);
            else if (dt == ISA_T_F64) r = of_f64(sgn ? (double)(int64_t)iv : (double)iv);
            else r = isa_norm(iv, dt);
        }
        t->r[d] = r;
    }
}
