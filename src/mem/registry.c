/* The memory side's policy registries: the rows of src/mem/registry.def,
 * looked up by the parameter's value (simtgrid/policy.h). */
#include <glib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/registry.def"

#define REPLACE_EXTERN(name, ops, desc) extern const replace_ops ops;
#define INDEX_EXTERN(name, ops, desc) extern const set_index_ops ops;
MEM_REPLACERS(REPLACE_EXTERN)
MEM_SET_INDEXES(INDEX_EXTERN)

static const policy replacers[] = {MEM_REPLACERS(POLICY_ROW)};
static const policy set_indexes[] = {MEM_SET_INDEXES(POLICY_ROW)};

const policy *mem_policy(const char *param, const char *name)
{
    const char *kind = param ? strrchr(param, '.') : NULL;
    if (!kind)
        return NULL;
    if (!strcmp(kind, ".replace"))
        return policy_find(replacers, G_N_ELEMENTS(replacers), param, name);
    if (!strcmp(kind, ".index"))
        return policy_find(set_indexes, G_N_ELEMENTS(set_indexes), param, name);
    return NULL;
}
