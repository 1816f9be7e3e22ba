/* Private helpers of the functional executor (isa_exec*.c): lane loops,
 * operand reads and value normalization. Everything here is inline and
 * allocation-free: it runs once per lane per instruction. */
#ifndef SIMTGRID_ISA_EXEC_INTERNAL_H
#define SIMTGRID_ISA_EXEC_INTERNAL_H

#include <string.h>

#include "simtgrid/isa.h"

/* Visits the set bits of `mask` in increasing order as `l`. */
#define FOR_LANES(mask, l)                                                                   \
    for (uint32_t l##_m = (mask), l = 0; l##_m && (l = (uint32_t)__builtin_ctz(l##_m), 1); \
         l##_m &= l##_m - 1)

static inline uint64_t opv(const isa_thread *t, const isa_operand *o)
{
    return o->kind == ISA_OPND_REG ? t->r[o->reg] : o->imm;
}

/* An operand read in a lane loop: its kind, register and immediate copied
 * into locals first (a store to a lane's register may, for the compiler,
 * change the instruction's bytes, so opv would reload them every lane). */
typedef struct isa_opnd_h {
    bool reg;
    uint8_t r;
    uint64_t imm;
} isa_opnd_h;
static inline isa_opnd_h isa_opnd_of(const isa_operand *o)
{
    return (isa_opnd_h){o->kind == ISA_OPND_REG, o->reg, o->imm};
}
static inline uint64_t opv_h(const isa_thread *t, isa_opnd_h o) { return o.reg ? t->r[o.r] : o.imm; }

static inline unsigned predv(const isa_thread *t, const isa_operand *o)
{
    return ((t->preds >> o->reg) & 1u) ^ o->neg;
}

static inline void set_pred(isa_thread *t, unsigned p, unsigned v)
{
    t->preds = (uint8_t)((t->preds & ~(1u << p)) | ((v & 1u) << p));
}

/* A value as held in a register for type t: integers sign- or zero-extended
 * from their width, f32 in the low 32 bits with the high bits clear. Without
 * a branch: keep the type's bits, then ((v ^ s) - s) with s its sign bit
 * (0 for unsigned and float types) extends the sign; the tables are
 * read-only (issue 20: the switch ran once per lane and operand). */
static const uint64_t isa_norm_mask[ISA_T_COUNT] = {
    UINT64_MAX, UINT64_MAX, 0xffffffffu, 0xffffffffu, 0xffffu, 0xffffu, 0xffu, 0xffu, 0xffffffffu, UINT64_MAX};
static const uint64_t isa_norm_sign[ISA_T_COUNT] = {0, 0, 0, UINT64_C(1) << 31, 0, UINT64_C(1) << 15, 0,
                                                    UINT64_C(1) << 7, 0, 0};
typedef struct isa_normer {
    uint64_t mask, sign;
} isa_normer;
static inline isa_normer isa_normer_of(unsigned t)
{
    if (t >= ISA_T_COUNT) return (isa_normer){UINT64_MAX, 0};
    return (isa_normer){isa_norm_mask[t], isa_norm_sign[t]};
}
/* isa_norm with the type's pair taken before a lane loop (the compiler does
 * not keep the tables' entries in registers across the loop's stores). */
static inline uint64_t isa_norm_with(isa_normer n, uint64_t v) { return ((v & n.mask) ^ n.sign) - n.sign; }
static inline uint64_t isa_norm(uint64_t v, unsigned t) { return isa_norm_with(isa_normer_of(t), v); }

static inline bool isa_type_signed(unsigned t)
{
    return t == ISA_T_S64 || t == ISA_T_S32 || t == ISA_T_S16 || t == ISA_T_S8;
}

static inline unsigned isa_type_bits(unsigned t)
{
    static const uint8_t bits[ISA_T_COUNT] = {64, 64, 32, 32, 16, 16, 8, 8, 32, 64};
    return bits[t];
}

static inline float f32_of(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t of_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t of_f64(double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    return v;
}

/* Per-op-family executors (isa_exec_fp.c, isa_exec_mem.c, isa_exec_warp.c). */
void isa_exec_fp(const isa_inst *in, isa_thread *const *lanes, uint32_t ex);
void isa_exec_cvt(const isa_inst *in, isa_thread *const *lanes, uint32_t ex);
void isa_exec_mem(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out);
void isa_exec_warp(const isa_inst *in, isa_thread *const *lanes, uint32_t ex);

#endif
