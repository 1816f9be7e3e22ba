/* The max-heap of the DMaj issue policy (Fung's MASc thesis "Dynamic Warp
 * Formation", section 4.3, Fig. 4.5; Cormen et al. chapter 6): a binary
 * heap of pc groups keyed on their thread count CNT. The counts and each
 * group's heap position (-1: not in the heap; the MHeap LUT's back-pointer)
 * live with the caller; every call returns the swaps it made, which the
 * limited heap turns into rebalancing cycles. Equal counts: the one above
 * stays above, or with a tie key (tie[g], e.g. the pc) the smaller key
 * goes above (core.dwf_heap_tie). Pure, tested alone. */
#ifndef SIMTGRID_CORE_DWF_HEAP_H
#define SIMTGRID_CORE_DWF_HEAP_H

#include <stdint.h>

typedef struct dwf_heap {
    unsigned *h;       /* group ids, h[0] the root */
    unsigned n, cap;
    const uint32_t *tie;   /* NULL: no tie key (set by the caller, read on every compare) */
} dwf_heap;

void dwf_heap_init(dwf_heap *q, unsigned cap);
void dwf_heap_free(dwf_heap *q);
/* Inserts group g (pos[g] set) and sifts it up. */
unsigned dwf_heap_push(dwf_heap *q, unsigned g, const uint32_t *cnt, int *pos);
/* cnt[g] grew: sift g up. */
unsigned dwf_heap_raise(dwf_heap *q, unsigned g, const uint32_t *cnt, int *pos);
/* Removes the root into *g (pos[*g] = -1) and sifts down. */
unsigned dwf_heap_pop(dwf_heap *q, const uint32_t *cnt, int *pos, unsigned *g);

/* Port timing of the limited heap ([T] 4.4.1-4.4.3: "one swap per cycle per
 * warp", 2 read and 2 write ports "to perform 2 swaps in parallel to handle 2
 * warp insertion[s]"): port[i] is the first cycle port i is free. An
 * insertion's swaps run on the earliest-free port, one a cycle, from cycle k
 * on; a pop's sift-down holds every port. Both return the first cycle the
 * heap is balanced again (the latest port). */
uint64_t dwf_heap_ports_insert(uint64_t *port, unsigned n, uint64_t k, unsigned swaps);
uint64_t dwf_heap_ports_pop(uint64_t *port, unsigned n, uint64_t k, unsigned swaps);

#endif
