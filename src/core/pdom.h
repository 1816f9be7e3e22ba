/* The immediate post-dominator (PDOM) reconvergence stack of one warp, as in
 * Fung's DWF thesis, section 3.2 (Table 3.1), Meng et al.'s DWS report,
 * section 4 (Fig. 3), and Narasiman et al., MICRO 2011, section 2.3.
 *
 * An entry is {pc, rpc, mask}: the top-of-stack (TOS) pc is the warp's next
 * instruction and its mask the active threads. On divergence the TOS becomes
 * the reconvergence entry (pc = the branch's IPDOM), then one entry per
 * distinct next pc is pushed with rpc = IPDOM: the fall-through path first,
 * the taken path last, so the taken path runs first. Whenever the TOS pc
 * equals its rpc the entry is popped (reconvergence).
 *
 * The LWM papers draw the same machine with the current pc/mask held outside
 * the stack and a "join" entry {rec = CFM, mask, exec = CFM}: their stack is
 * this one minus its TOS (see test_pdom.c). */
#ifndef SIMTGRID_CORE_PDOM_H
#define SIMTGRID_CORE_PDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/isa.h"

#define PDOM_NO_RPC UINT32_MAX   /* the bottom entry never reconverges by pc */
#define PDOM_MAX_DEPTH 66        /* 2N + 2 for N = 32 lanes (the DWF bound is 2N) */

typedef struct pdom_entry {
    uint32_t pc;
    uint32_t rpc;
    uint32_t mask;
} pdom_entry;

typedef struct pdom_stack {
    pdom_entry e[PDOM_MAX_DEPTH];
    unsigned depth;
} pdom_stack;

void pdom_init(pdom_stack *s, uint32_t pc, uint32_t mask);

static inline const pdom_entry *pdom_top(const pdom_stack *s) { return &s->e[s->depth - 1]; }

/* The TOS executed one instruction. `next_pc[l]` is lane l's next pc for the
 * lanes in the TOS mask; `fallthrough` is the instruction after it; `ipdom`
 * its immediate post-dominator (PDOM_NO_RPC when the paths only meet at the
 * exit). `exited` lanes left the kernel (their next_pc is ignored). */
void pdom_update(pdom_stack *s, const uint32_t *next_pc, uint32_t fallthrough, uint32_t ipdom,
                 uint32_t exited);

/* pdom_update with two next pcs: the TOS lanes in `sel` go to pc_sel, the
 * others to pc_other (a branch: taken or exited, or not). The same stack
 * without the per-lane search (issue 20). */
void pdom_update_two(pdom_stack *s, uint32_t sel, uint32_t pc_sel, uint32_t pc_other,
                     uint32_t fallthrough, uint32_t ipdom, uint32_t exited);

/* The TOS issued the instruction o->inst at pc: a branch or an exit updates
 * the stack as pdom_update would with isa_lane_next_pc's next pcs (through
 * pdom_update_two: taken or exited lanes go to one pc, the others to pc + 1),
 * anything else advances it. `exited`: the lanes that left (o->exited). */
void pdom_issue(pdom_stack *s, uint32_t pc, const isa_exec_out *o, uint32_t exited);

/* Uniform update: every active lane goes to `pc` (no divergence possible). */
void pdom_advance(pdom_stack *s, uint32_t pc);

/* True when no thread is left. */
static inline bool pdom_empty(const pdom_stack *s) { return s->depth == 0; }

#endif
