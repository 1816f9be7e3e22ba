/* PDOM reconvergence stack (see pdom.h for the discipline). */
#include <glib.h>

#include "core/pdom.h"

void pdom_init(pdom_stack *s, uint32_t pc, uint32_t mask)
{
    s->depth = 1;
    s->e[0] = (pdom_entry){.pc = pc, .rpc = PDOM_NO_RPC, .mask = mask};
}

static void push(pdom_stack *s, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    /* Each divergence adds at most (distinct targets - 1) entries and a
     * thread is on one path at a time, so 2N + 2 entries never overflow for
     * two-way branches; an n-way indirect branch is bounded the same way. */
    if (s->depth == PDOM_MAX_DEPTH)
        g_error("core: PDOM stack overflow (more than %d entries)", PDOM_MAX_DEPTH);
    s->e[s->depth++] = (pdom_entry){.pc = pc, .rpc = rpc, .mask = mask};
}

/* Pop finished entries: empty ones (their threads exited) and those that
 * reached their reconvergence point. */
static void settle(pdom_stack *s)
{
    while (s->depth) {
        const pdom_entry *t = &s->e[s->depth - 1];
        if (t->mask && t->pc != t->rpc)
            break;
        s->depth--;
    }
}

void pdom_advance(pdom_stack *s, uint32_t pc)
{
    s->e[s->depth - 1].pc = pc;
    settle(s);
}

/* The TOS (top) reaches the n distinct next pcs pcs[] (in lane order) with
 * their masks. */
static void diverge(pdom_stack *s, pdom_entry *top, const uint32_t *pcs, const uint32_t *masks,
                    unsigned n, uint32_t fallthrough, uint32_t ipdom)
{
    if (n == 1) {
        top->pc = pcs[0];
    } else if (n > 1) {
        /* The TOS becomes the reconvergence entry; the fall-through path is
         * pushed first and the taken path(s) after it, so taken runs first. */
        top->pc = ipdom;
        for (unsigned i = 0; i < n; i++)
            if (pcs[i] == fallthrough)
                push(s, pcs[i], ipdom, masks[i]);
        for (unsigned i = 0; i < n; i++)
            if (pcs[i] != fallthrough)
                push(s, pcs[i], ipdom, masks[i]);
    }
    settle(s);
}

static void drop_exited(pdom_stack *s, uint32_t exited)
{
    if (exited)
        for (unsigned i = 0; i < s->depth; i++)
            s->e[i].mask &= ~exited;
}

void pdom_update(pdom_stack *s, const uint32_t *next_pc, uint32_t fallthrough, uint32_t ipdom,
                 uint32_t exited)
{
    pdom_entry *top = &s->e[s->depth - 1];
    drop_exited(s, exited);
    uint32_t mask = top->mask;
    /* Distinct next pcs in lane order, with their masks. */
    uint32_t pcs[32], masks[32];
    unsigned n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t pc = next_pc[l];
        unsigned i = 0;
        while (i < n && pcs[i] != pc)
            i++;
        if (i == n) {
            pcs[n] = pc;
            masks[n++] = 0;
        }
        masks[i] |= 1u << l;
    }
    diverge(s, top, pcs, masks, n, fallthrough, ipdom);
}

void pdom_update_two(pdom_stack *s, uint32_t sel, uint32_t pc_sel, uint32_t pc_other,
                     uint32_t fallthrough, uint32_t ipdom, uint32_t exited)
{
    pdom_entry *top = &s->e[s->depth - 1];
    drop_exited(s, exited);
    uint32_t mask = top->mask;
    uint32_t m_sel = mask & sel, m_other = mask & ~sel;
    if (pc_sel == pc_other) {   /* one next pc for every lane */
        m_sel = mask;
        m_other = 0;
    }
    /* pdom_update's distinct pcs: in the order of their lowest lanes */
    uint32_t pcs[2], masks[2];
    unsigned n = 0;
    bool sel_first = m_sel && (!m_other || __builtin_ctz(m_sel) < __builtin_ctz(m_other));
    if (sel_first) {
        pcs[n] = pc_sel;
        masks[n++] = m_sel;
    }
    if (m_other) {
        pcs[n] = pc_other;
        masks[n++] = m_other;
    }
    if (m_sel && !sel_first) {
        pcs[n] = pc_sel;
        masks[n++] = m_sel;
    }
    diverge(s, top, pcs, masks, n, fallthrough, ipdom);
}

void pdom_issue(pdom_stack *s, uint32_t pc, const isa_exec_out *o, uint32_t exited)
{
    const isa_inst *in = o->inst;
    if (in->op != ISA_OP_BRA && in->op != ISA_OP_EXIT) {
        pdom_advance(s, pc + 1);
        return;
    }
    pdom_update_two(s, o->taken | o->exited, isa_next_pc(in, pc, true), isa_next_pc(in, pc, false), pc + 1,
                    in->reconv, exited);
}
