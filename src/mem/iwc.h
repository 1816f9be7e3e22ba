/* Intra-warp concentration (Wang's dissertation, section 3.1, Eq 3.1): for
 * one load, IWC = accesses / distinct cache sets they map to. 1 is ideal; 32
 * means a fully divergent load lands in one set and conflicts with itself. */
#ifndef SIMTGRID_MEM_IWC_H
#define SIMTGRID_MEM_IWC_H

#include "mem/cache.h"
#include "mem/coalesce.h"

/* Distinct sets of `c` that the n accesses map to (0 when n is 0). */
unsigned iwc_sets_touched(const cache *c, const coalesce_access *acc, unsigned n);
/* Balance of the n accesses over the sets of `c` (Kharbutli, as Wang's
 * Eq 3.2): sum_j b_j (b_j + 1) / 2 over (m / (2 n_set)) (m + 2 n_set - 1),
 * b_j the accesses to set j, m = n; 0 when n is 0. Lower is better: the
 * denominator is the value of uniformly random placement. */
double iwc_balance(const cache *c, const coalesce_access *acc, unsigned n);

#endif
