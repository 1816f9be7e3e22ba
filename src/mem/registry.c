/* The memory side's policy registries: the rows of src/mem/registry.def,
 * looked up by the parameter's value (simtgrid/policy.h). */
#include <glib.h>

#include "mem/cache.h"
#include "mem/memctrl_internal.h"
#include "mem/registry.def"

#define REPLACE_EXTERN(name, ops, desc) extern const replace_ops ops;
#define INDEX_EXTERN(name, ops, desc) extern const set_index_ops ops;
MEM_REPLACERS(REPLACE_EXTERN)
MEM_SET_INDEXES(INDEX_EXTERN)
/* The DRAM ops are declared in memctrl_internal.h. */

static const policy replacers[] = {MEM_REPLACERS(POLICY_ROW)};
static const policy set_indexes[] = {MEM_SET_INDEXES(POLICY_ROW)};
static const policy dram_scheds[] = {MEM_DRAM_SCHEDULERS(POLICY_ROW)};
static const policy dram_timings[] = {MEM_DRAM_TIMINGS(POLICY_ROW)};

static const policy_kind kinds[] = {
    POLICY_KIND(".replace", replacers),
    POLICY_KIND(".index", set_indexes),
    POLICY_KIND("dram.sched", dram_scheds),
    POLICY_KIND("dram.timing", dram_timings),
};

const policy *mem_policy(const char *param, const char *name)
{
    return policy_lookup(kinds, G_N_ELEMENTS(kinds), param, name);
}
