/* Basic blocks, the control-flow graph and immediate post-dominators.
 *
 * Post-dominators are dominators of the reverse CFG rooted at a virtual exit
 * node that every exit instruction flows to, so kernels with several exits
 * (or a predicated exit) are handled. The algorithm is Cooper, Harvey and
 * Kennedy's "A Simple, Fast Dominance Algorithm" (2001): iterate
 * idom(b) = intersect of the processed successors in reverse postorder of the
 * reverse graph until nothing changes. Blocks that cannot reach the exit
 * (an endless loop) get the exit as IPDOM: their paths never meet. */
#include <string.h>

#include "isa_internal.h"

#define UNDEF UINT32_MAX

static bool falls_through(const isa_inst *in)
{
    if (in->guard != ISA_PRED_NONE) return true;
    return in->op != ISA_OP_BRA && in->op != ISA_OP_EXIT;
}

static bool cfg_error(const isa_program *p, GError **err, unsigned line, const char *msg)
{
    return input_error_in(err, ISA_ERROR, ISA_ERROR_INPUT, p->file, line, "%s", msg);
}

static void make_blocks(isa_program *p)
{
    uint32_t n = p->ninst;
    bool *leader = g_new0(bool, n + 1);
    leader[0] = true;
    for (uint32_t pc = 0; pc < n; pc++) {
        const isa_inst *in = &p->code[pc];
        if (in->op == ISA_OP_BRA) leader[in->target] = true;
        if (in->op == ISA_OP_BRA || in->op == ISA_OP_EXIT) leader[pc + 1] = true;
    }
    uint32_t nb = 0;
    for (uint32_t pc = 0; pc < n; pc++) nb += leader[pc];
    p->blocks = g_new0(isa_block, nb);
    p->nblocks = nb;
    uint32_t b = UINT32_MAX;
    for (uint32_t pc = 0; pc < n; pc++) {
        if (leader[pc]) {
            b++;
            p->blocks[b].start = pc;
        }
        p->blocks[b].end = pc + 1;
        p->code[pc].block = b;
    }
    g_free(leader);
    for (b = 0; b < nb; b++) {
        isa_block *bl = &p->blocks[b];
        const isa_inst *last = &p->code[bl->end - 1];
        uint32_t s[2], ns = 0;
        if (last->op == ISA_OP_BRA) s[ns++] = p->code[last->target].block;
        if (last->op == ISA_OP_EXIT) s[ns++] = ISA_PC_EXIT;
        if (falls_through(last) && (ns == 0 || s[0] != p->code[bl->end].block)) s[ns++] = p->code[bl->end].block;
        bl->nsucc = ns;
        memcpy(bl->succ, s, sizeof s);
    }
}

/* Index of a successor in the node numbering: blocks 0..nb-1, exit = nb. */
static uint32_t node_of(uint32_t succ, uint32_t nb) { return succ == ISA_PC_EXIT ? nb : succ; }

static uint32_t intersect(const uint32_t *idom, const uint32_t *po, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (po[a] < po[b]) a = idom[a];
        while (po[b] < po[a]) b = idom[b];
    }
    return a;
}

static void compute_ipdom(isa_program *p)
{
    uint32_t nb = p->nblocks, nn = nb + 1, exit = nb;
    /* predecessor lists of the forward CFG = successors in the reverse graph */
    uint32_t *pstart = g_new0(uint32_t, nn + 1), *preds = g_new(uint32_t, 2 * nb + 1);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < p->blocks[b].nsucc; k++) pstart[node_of(p->blocks[b].succ[k], nb) + 1]++;
    for (uint32_t v = 0; v < nn; v++) pstart[v + 1] += pstart[v];
    uint32_t *fill = g_memdup2(pstart, sizeof(uint32_t) * nn);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < p->blocks[b].nsucc; k++) preds[fill[node_of(p->blocks[b].succ[k], nb)]++] = b;
    g_free(fill);

    /* postorder of the reverse graph from the exit (iterative DFS) */
    uint32_t *po = g_new(uint32_t, nn), *order = g_new(uint32_t, nn), *stack = g_new(uint32_t, nn);
    uint32_t *next = g_new0(uint32_t, nn);
    bool *seen = g_new0(bool, nn);
    uint32_t sp = 0, count = 0;
    for (uint32_t v = 0; v < nn; v++) po[v] = UNDEF;
    stack[sp++] = exit;
    seen[exit] = true;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (pstart[v] + next[v] < pstart[v + 1]) {
            uint32_t w = preds[pstart[v] + next[v]++];
            if (!seen[w]) seen[w] = true, stack[sp++] = w;
        } else {
            sp--;
            po[v] = count;
            order[count++] = v;
        }
    }

    uint32_t *idom = g_new(uint32_t, nn);
    for (uint32_t v = 0; v < nn; v++) idom[v] = UNDEF;
    idom[exit] = exit;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = count - 1; i-- > 0;) { /* reverse postorder, exit (last) skipped */
            uint32_t v = order[i], nw = UNDEF;
            const isa_block *bl = &p->blocks[v];
            for (uint32_t k = 0; k < bl->nsucc; k++) {
                uint32_t s = node_of(bl->succ[k], nb);
                if (idom[s] == UNDEF) continue;
                nw = nw == UNDEF ? s : intersect(idom, po, s, nw);
            }
            if (nw != idom[v]) idom[v] = nw, changed = true;
        }
    }
    for (uint32_t b = 0; b < nb; b++)
        p->blocks[b].ipdom = idom[b] == UNDEF || idom[b] == exit ? ISA_PC_EXIT : idom[b];
    g_free(pstart), g_free(preds), g_free(po), g_free(order), g_free(stack), g_free(next);
    g_free(seen), g_free(idom);
}

bool isa_cfg_build(isa_program *p, GError **err)
{
    uint32_t n = p->ninst;
    bool has_exit = false;
    for (uint32_t pc = 0; pc < n; pc++) has_exit |= p->code[pc].op == ISA_OP_EXIT;
    if (!has_exit) return cfg_error(p, err, p->code[n - 1].line, "missing exit: the kernel has no exit instruction");
    if (falls_through(&p->code[n - 1]))
        return cfg_error(p, err, p->code[n - 1].line,
                         "control runs off the end of the kernel (end with an unpredicated exit or bra)");
    make_blocks(p);
    compute_ipdom(p);
    for (uint32_t pc = 0; pc < n; pc++) {
        isa_inst *in = &p->code[pc];
        const isa_block *bl = &p->blocks[in->block];
        bool ends = pc == bl->end - 1 && (in->op == ISA_OP_BRA || in->op == ISA_OP_EXIT);
        if (ends) in->reconv = bl->ipdom == ISA_PC_EXIT ? ISA_PC_EXIT : p->blocks[bl->ipdom].start;
        else in->reconv = pc + 1;
    }
    return true;
}
