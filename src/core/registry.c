/* The SM's policy registries: the rows of src/core/registry.def, looked up
 * by the parameter's value (simtgrid/policy.h). */
#include <glib.h>

#include "simtgrid/core.h"
#include "core/registry.def"
#include "core/sm_internal.h"

#define SCHED_EXTERN(name, ops, desc) extern const sched_ops ops;
#define RECONV_EXTERN(name, ops, desc) extern const reconv_ops ops;
CORE_SCHEDULERS(SCHED_EXTERN)
CORE_RECONVS(RECONV_EXTERN)

static const policy schedulers[] = {CORE_SCHEDULERS(POLICY_ROW)};
static const policy reconvs[] = {CORE_RECONVS(POLICY_ROW)};

static const policy_kind kinds[] = {
    POLICY_KIND("core.scheduler", schedulers),
    POLICY_KIND("core.reconv", reconvs),
};

const policy *core_policy(const char *param, const char *name)
{
    return policy_lookup(kinds, G_N_ELEMENTS(kinds), param, name);
}
