/* The reference runner: executes a launch functionally with static warps and a
 * PDOM reconvergence stack per warp (Fung's DWF thesis, section 3.2, Table
 * 3.1), so tests, tools and the generator can check what a kernel computes
 * without the timing model. Warps of a CTA take turns of at most RUN_QUANTUM
 * issues, in warp order; a barrier holds a warp until every unfinished warp of
 * its CTA waits at one (counting warps, as pre-Volta hardware does). */
#include "isa_internal.h"
#include "simtgrid/bits.h"

#define RUN_STACK_MAX (2 * ISA_MAX_LANES + 2)
#define RUN_QUANTUM 256

typedef struct run_entry {
    uint32_t pc, rpc, mask;
} run_entry;

typedef struct run_warp {
    run_entry e[RUN_STACK_MAX];
    unsigned depth;
    bool at_barrier;
    isa_thread *lanes[ISA_MAX_LANES];
} run_warp;

static void push(run_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    /* Each nested divergence splits the TOS mask into two non-empty parts, so
     * nesting is at most N - 1 deep and 2N + 2 entries always suffice; the
     * check only guards memory safety. */
    if (w->depth < RUN_STACK_MAX) w->e[w->depth++] = (run_entry){pc, rpc, mask};
}

/* Applies one issue's outcome to the warp's stack. */
static void update_stack(run_warp *w, const isa_exec_out *o, uint32_t pc)
{
    run_entry *top = &w->e[w->depth - 1];
    const isa_inst *in = o->inst;
    uint32_t mask = top->mask;
    if (in->op == ISA_OP_BRA && o->taken) {
        uint32_t nt = mask & ~o->taken;
        if (!nt) {
            top->pc = in->target;
        } else {
            top->pc = in->reconv; /* the entry now waits at the reconvergence point */
            push(w, pc + 1, in->reconv, nt);
            push(w, in->target, in->reconv, o->taken); /* taken path first */
        }
    } else if (o->exited) {
        for (unsigned i = 0; i < w->depth; i++) w->e[i].mask &= ~o->exited;
        top->pc = pc + 1;
    } else {
        top->pc = pc + 1;
    }
    while (w->depth) {
        run_entry *t = &w->e[w->depth - 1];
        if (t->mask != 0 && t->pc != t->rpc && t->pc != ISA_PC_EXIT) break;
        w->depth--;
    }
}

static bool fault_error(const isa_cta *c, const isa_exec_out *o, GError **err)
{
    const isa_program *p = c->launch->prog;
    unsigned l = (unsigned)__builtin_ctz(o->fault);
    return input_error_in(err, ISA_ERROR, ISA_ERROR_RUN, p->file, o->inst->line,
                          "shared memory access out of bounds: offset %" G_GUINT64_FORMAT
                          " size %u, the CTA has %u bytes (CTA %u,%u,%u, lane %u)",
                          o->addr[l], o->access_size, c->shared_bytes, c->ctaid[0], c->ctaid[1],
                          c->ctaid[2], l);
}

static bool run_cta(isa_cta *c, uint64_t max_warp_insts, isa_run_stats *st, isa_run_hook hook,
                    void *ctx, GError **err)
{
    const isa_launch *L = c->launch;
    const unsigned ws = L->warp_size, nw = (c->nthreads + ws - 1) / ws;
    run_warp *warps = g_new0(run_warp, nw);
    for (unsigned w = 0; w < nw; w++) {
        unsigned n = MIN(ws, c->nthreads - w * ws);
        for (unsigned l = 0; l < n; l++) warps[w].lanes[l] = isa_cta_thread(c, w * ws + l);
        push(&warps[w], 0, ISA_PC_EXIT, n == 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1);
    }
    bool ok = true;
    isa_exec_out out;
    for (unsigned live = nw; ok && live;) {
        unsigned waiting = 0;
        live = 0;
        for (unsigned i = 0; ok && i < nw; i++) {
            run_warp *w = &warps[i];
            for (unsigned q = 0; w->depth && !w->at_barrier && q < RUN_QUANTUM; q++) {
                if (st->warp_insts >= max_warp_insts) {
                    g_set_error(err, ISA_ERROR, ISA_ERROR_RUN,
                                "kernel %s: stopped after %" G_GUINT64_FORMAT " warp-instructions (the limit): endless loop?",
                                L->prog->name, st->warp_insts);
                    ok = false;
                    break;
                }
                uint32_t pc = w->e[w->depth - 1].pc, mask = w->e[w->depth - 1].mask;
                isa_exec(L->prog, pc, w->lanes, mask, &out);
                if (hook) hook(ctx, i, pc, mask, &out);
                st->warp_insts++;
                st->thread_insts += (uint64_t)sg_popcount32(out.executed);
                if (out.fault) {
                    ok = fault_error(c, &out, err);
                    break;
                }
                if (out.inst->op == ISA_OP_BAR && out.executed) w->at_barrier = true;
                update_stack(w, &out, pc);
            }
            if (w->depth) live++;
            if (w->depth && w->at_barrier) waiting++;
        }
        if (ok && live && waiting == live)
            for (unsigned i = 0; i < nw; i++) warps[i].at_barrier = false;
    }
    g_free(warps);
    return ok;
}

bool isa_run_launch(const isa_launch *l, uint64_t max_warp_insts, isa_run_stats *st, GError **err)
{
    isa_run_stats local;
    if (!st) st = &local;
    *st = (isa_run_stats){0};   /* the caller's struct is an output, never an accumulator */
    uint64_t n = isa_launch_ncta(l);
    isa_cta *c = isa_cta_new(l, 0);
    bool ok = true;
    for (uint64_t i = 0; ok && i < n; i++) {
        if (i) isa_cta_reset(c, i);
        ok = run_cta(c, max_warp_insts, st, NULL, NULL, err);
        st->ctas += ok;
    }
    isa_cta_free(c);
    return ok;
}

bool isa_run_cta(isa_cta *c, uint64_t max_warp_insts, isa_run_stats *st, isa_run_hook hook,
                 void *ctx, GError **err)
{
    isa_run_stats local;
    if (!st) st = &local;
    *st = (isa_run_stats){0};
    return run_cta(c, max_warp_insts, st, hook, ctx, err);
}
