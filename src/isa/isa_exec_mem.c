/* Loads, stores, atomics and COND_ACC. Global memory goes through the
 * launch's memimg; shared memory is the CTA's byte buffer, little endian,
 * bounds-checked (an access outside it is reported in out->fault, reads 0 and
 * writes nothing). Lanes apply in increasing lane order, so atomics and
 * conflicting stores resolve deterministically (the highest lane's store wins). */
#include "isa_exec_internal.h"

static inline uint64_t lane_addr(const isa_inst *in, const isa_thread *t)
{
    uint64_t base = in->src[0].kind == ISA_OPND_REG ? t->r[in->src[0].reg] : 0;
    return base + (uint64_t)in->addr_off;
}

static inline bool shared_ok(const isa_cta *c, uint64_t a, unsigned n)
{
    return a <= c->shared_bytes && n <= c->shared_bytes - a;
}

static inline uint64_t shared_read(const uint8_t *s, uint64_t a, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)s[a + i] << (8 * i);
    return v;
}

static inline void shared_write(uint8_t *s, uint64_t a, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++) s[a + i] = (uint8_t)(v >> (8 * i));
}

/* A scalar global load whose lanes share one memory image (those of one
 * launch): the addresses, then one memimg_read_lanes. False, having done
 * nothing, otherwise. A load changes no memory and each lane's registers
 * are its own, so reading every lane before writing any is the per-lane
 * order's result. */
static bool exec_ld_global_lanes(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out)
{
    if (!ex || in->space != ISA_SPACE_GLOBAL || in->vec != 1) return false;
    const isa_cta *c0 = lanes[__builtin_ctz(ex)]->cta;
    memimg *m = c0->launch->mem;
    bool one = true;
    FOR_LANES(ex, l) {
        const isa_thread *t = lanes[l];
        out->addr[l] = lane_addr(in, t);
        one &= t->cta == c0 || t->cta->launch->mem == m;
    }
    if (!one) return false;
    uint64_t val[ISA_MAX_LANES];
    memimg_read_lanes(m, out->addr, ex, in->elem_bytes, val);
    const isa_normer nr = isa_normer_of(in->type);
    const unsigned d = in->dst[0];
    FOR_LANES(ex, l) lanes[l]->r[d] = isa_norm_with(nr, val[l]);
    out->mem_lanes = ex;
    return true;
}

static void exec_ld(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out)
{
    const unsigned eb = in->elem_bytes, ty = in->type, nv = in->vec;
    const bool global = in->space == ISA_SPACE_GLOBAL;
    if (exec_ld_global_lanes(in, lanes, ex, out)) return;
    FOR_LANES(ex, l) {
        isa_thread *t = lanes[l];
        uint64_t a = lane_addr(in, t);
        out->addr[l] = a;
        if (global) {
            memimg *m = t->cta->launch->mem;
            for (unsigned v = 0; v < nv; v++) t->r[in->dst[v]] = isa_norm(memimg_read(m, a + v * eb, eb), ty);
        } else if (shared_ok(t->cta, a, in->mem_bytes)) {
            const uint8_t *s = t->cta->shared;
            for (unsigned v = 0; v < nv; v++) t->r[in->dst[v]] = isa_norm(shared_read(s, a + v * eb, eb), ty);
        } else {
            out->fault |= UINT32_C(1) << l;
            for (unsigned v = 0; v < nv; v++) t->r[in->dst[v]] = 0;
        }
    }
    out->mem_lanes = ex;
}

static void exec_st(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out)
{
    const unsigned eb = in->elem_bytes, nv = in->vec;
    const bool global = in->space == ISA_SPACE_GLOBAL;
    FOR_LANES(ex, l) {
        isa_thread *t = lanes[l];
        uint64_t a = lane_addr(in, t);
        out->addr[l] = a;
        if (global) {
            memimg *m = t->cta->launch->mem;
            for (unsigned v = 0; v < nv; v++) memimg_write(m, a + v * eb, eb, opv(t, &in->src[1 + v]));
        } else if (shared_ok(t->cta, a, in->mem_bytes)) {
            for (unsigned v = 0; v < nv; v++) shared_write(t->cta->shared, a + v * eb, eb, opv(t, &in->src[1 + v]));
        } else {
            out->fault |= UINT32_C(1) << l;
        }
    }
    out->mem_lanes = ex;
}

/* The new value an atomic leaves in memory; old, b, c normalized to ty. */
static uint64_t atom_new(unsigned op, unsigned ty, uint64_t old, uint64_t b, uint64_t c)
{
    bool sgn = isa_type_signed(ty);
    switch (op) {
    case ISA_ATOM_ADD:
        if (ty == ISA_T_F32) return of_f32(f32_of(old) + f32_of(b));
        if (ty == ISA_T_F64) return of_f64(f64_of(old) + f64_of(b));
        return old + b;
    case ISA_ATOM_MIN: return (sgn ? (int64_t)b < (int64_t)old : b < old) ? b : old;
    case ISA_ATOM_MAX: return (sgn ? (int64_t)b > (int64_t)old : b > old) ? b : old;
    case ISA_ATOM_EXCH: return b;
    case ISA_ATOM_CAS: return old == b ? c : old;
    case ISA_ATOM_AND: return old & b;
    case ISA_ATOM_OR: return old | b;
    default: return old ^ b;
    }
}

static void exec_atom(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out)
{
    const unsigned eb = in->elem_bytes, ty = in->type;
    const bool global = in->space == ISA_SPACE_GLOBAL;
    FOR_LANES(ex, l) {
        isa_thread *t = lanes[l];
        uint64_t a = lane_addr(in, t);
        uint64_t b = isa_norm(opv(t, &in->src[1]), ty), c = isa_norm(opv(t, &in->src[2]), ty), old;
        out->addr[l] = a;
        if (global) {
            memimg *m = t->cta->launch->mem;
            old = isa_norm(memimg_read(m, a, eb), ty);
            memimg_write(m, a, eb, atom_new(in->sub, ty, old, b, c));
        } else if (shared_ok(t->cta, a, eb)) {
            old = isa_norm(shared_read(t->cta->shared, a, eb), ty);
            shared_write(t->cta->shared, a, eb, atom_new(in->sub, ty, old, b, c));
        } else {
            out->fault |= UINT32_C(1) << l;
            old = 0;
        }
        t->r[in->dst[0]] = old;
    }
    out->mem_lanes = ex;
}

/* COND_ACC rd, base, p, data (Narasiman's dissertation, section 7.1): the
 * lanes whose p holds store their data contiguously from base, in lane order
 * (exclusive prefix sum of p, scaled by the element size); every executing
 * lane gets the count. */
static void exec_cond_acc(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out)
{
    const unsigned eb = in->elem_bytes, shift = (unsigned)__builtin_ctz(eb);
    const bool global = in->space == ISA_SPACE_GLOBAL;
    uint64_t k = 0;
    FOR_LANES(ex, l) {
        isa_thread *t = lanes[l];
        if (!predv(t, &in->src[1])) continue;
        uint64_t a = opv(t, &in->src[0]) + (k++ << shift), v = opv(t, &in->src[2]);
        out->addr[l] = a;
        out->mem_lanes |= UINT32_C(1) << l;
        if (global) memimg_write(t->cta->launch->mem, a, eb, v);
        else if (shared_ok(t->cta, a, eb)) shared_write(t->cta->shared, a, eb, v);
        else out->fault |= UINT32_C(1) << l;
    }
    FOR_LANES(ex, l) lanes[l]->r[in->dst[0]] = k;
}

void isa_exec_mem(const isa_inst *in, isa_thread *const *lanes, uint32_t ex, isa_exec_out *out)
{
    switch (in->op) {
    case ISA_OP_LD: exec_ld(in, lanes, ex, out); break;
    case ISA_OP_ST: exec_st(in, lanes, ex, out); break;
    case ISA_OP_ATOM: exec_atom(in, lanes, ex, out); break;
    default: exec_cond_acc(in, lanes, ex, out); break;
    }
}
