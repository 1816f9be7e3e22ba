/* The MIMD bound's memory instructions (core.reconv = mimd,
 * core.mimd_pack_memory = N > 1; docs/core.md "Reconvergence").
 *
 * Fung's DWF thesis defines its MIMD machine as the SIMD one whose
 * scheduler "can schedule any available thread to any free processing
 * elements" (sec. 2.1.4, modelled "regardless of their PC values", sec.
 * 5.1.1), and its memory stage takes the accesses of all the threads of an
 * issue after stalling for their data-cache bank conflicts (sec. 5.1.1). So
 * a slot whose first entity is a global load, store or atomic takes more
 * entities at other pcs (at most N in all) whose instruction has the same
 * class and access size, while the slot's accesses together need no more
 * LD/ST passes than the first entity booked (sm_ldst_passes: its lane
 * passes, its lines with core.ldst_line_bytes, its L1 bank-conflict degree
 * with core.l1d_banks): an entity never gets more lines through the unit
 * than it accepts in the slot's cycles. Each entity still sends its own
 * request (its own tag and warp), which the L1 takes in turn. */
#include "core/sm_internal.h"
#include "simtgrid/bits.h"

static bool packable(const isa_inst *in)
{
    return in->op == ISA_OP_LD || in->op == ISA_OP_ST || in->op == ISA_OP_ATOM;
}

/* Appends the addresses of `lanes` of access o to the slot's pseudo-lanes
 * (the slot's threads are at most warp_size, so they fit). */
static void append(isa_exec_out *m, const isa_exec_out *o, uint32_t lanes)
{
    unsigned n = (unsigned)sg_popcount32(m->mem_lanes);
    for (uint32_t x = lanes; x && n < ISA_MAX_LANES; x &= x - 1, n++) {
        m->addr[n] = o->addr[__builtin_ctz(x)];
        m->mem_lanes |= UINT32_C(1) << n;
    }
}

/* Records an entity's executed access o in the slot: the first opens it
 * (another memory op, cond_acc, closes it to further entities). MIMD runs
 * no traces (its entities need threads' registers). */
void sm_pack_mem_add(sm *s, slot_timing *t, const isa_exec_out *o, bool first)
{
    if (first) {
        t->mem = (isa_exec_out){.inst = o->inst, .access_size = o->access_size};
        t->mem_entities = packable(o->inst) ? 1 : s->p.mimd_pack_memory;
    } else {
        t->mem_entities++;
    }
    append(&t->mem, o, o->mem_lanes);
}

/* Whether READY entity e (instruction `in`, on the LD/ST unit) may join the
 * slot: room for one more entity and one more request, and the slot's
 * accesses with e's (computed from its registers, without executing it)
 * within the passes booked. */
bool sm_pack_mem_fits(sm *s, const slot_timing *t, unsigned e, const isa_inst *in)
{
    const sm_entity *w = &s->ent[e];
    if (t->mem_entities >= s->p.mimd_pack_memory || !packable(in) ||
        in->cls != t->mem.inst->cls || in->mem_bytes != t->mem.access_size || !sm_request_room(s))
        return false;
    const sm_hw *h = &s->hw[w->hw];
    if (s->p.discipline == CORE_SCOREBOARD && sm_needs_reply(s, in) &&
        h->mem_pending >= s->p.mem_pending_per_warp)
        return false;
    /* e's lanes whose guard holds, and their addresses (as isa_exec) */
    isa_exec_out own = {.inst = in, .access_size = in->mem_bytes};
    for (uint32_t x = w->active; x; x &= x - 1) {
        unsigned l = (unsigned)__builtin_ctz(x);
        const isa_thread *th = h->lane[l];
        if (in->guard != ISA_PRED_NONE && ((th->preds >> in->guard) & 1u) == in->guard_neg)
            continue;
        uint64_t base = in->src[0].kind == ISA_OPND_REG ? th->r[in->src[0].reg] : 0;
        own.addr[l] = base + (uint64_t)in->addr_off;
        own.mem_lanes |= UINT32_C(1) << l;
    }
    isa_exec_out all = t->mem;
    append(&all, &own, own.mem_lanes);
    unsigned conflict;
    return sm_ldst_passes(s, &all, in, &conflict) <= t->passes;
}
