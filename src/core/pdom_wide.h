/* A PDOM reconvergence stack whose masks are K rows of up to 32 threads: the
 * one stack of a large warp (Narasiman et al., MICRO 2011 section 3.1.2) or
 * of a thread block (Fung and Aamodt, thread block compaction). Same
 * discipline as pdom.h, for two-way branches: on divergence the TOS
 * becomes the reconvergence entry (pc = IPDOM), the fall-through path is
 * pushed, then the taken path (which runs first); an entry is popped when
 * its mask is empty or its pc reached its rpc. */
#ifndef SIMTGRID_CORE_PDOM_WIDE_H
#define SIMTGRID_CORE_PDOM_WIDE_H

#include <stdbool.h>
#include <stdint.h>

#define WPDOM_ROWS 16

typedef struct wpdom_entry {
    uint32_t pc, rpc;
    uint32_t m[WPDOM_ROWS];
} wpdom_entry;

typedef struct wpdom {
    wpdom_entry *e;
    unsigned depth, cap, rows;
} wpdom;

void wpdom_init(wpdom *s, unsigned rows, uint32_t pc, const uint32_t *mask);
void wpdom_free(wpdom *s);
static inline wpdom_entry *wpdom_top(const wpdom *s) { return &s->e[s->depth - 1]; }
static inline bool wpdom_empty(const wpdom *s) { return s->depth == 0; }
/* Every thread of the TOS goes to pc. */
void wpdom_advance(wpdom *s, uint32_t pc);
/* A branch or exit of the TOS resolved: `taken` rows go to `target`,
 * `exited` rows left the kernel, the others go to `fallthrough`. */
void wpdom_branch(wpdom *s, const uint32_t *taken, const uint32_t *exited, uint32_t target,
                  uint32_t fallthrough, uint32_t ipdom);

#endif
