/* Lookup of the memory side's policies (src/mem/registry.def). */
#ifndef SIMTGRID_MEM_REGISTRY_H
#define SIMTGRID_MEM_REGISTRY_H

#include "simtgrid/policy.h"

/* The row of policy `name` for a memory-side policy parameter (l1d.replace,
 * l2.index, dram.sched, dram.timing, ...): built-in (src/mem/registry.def)
 * or registered with policy_register; NULL if none. */
const policy *mem_policy(const char *param, const char *name);

#endif
