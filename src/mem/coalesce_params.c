/* coalesce.* parameters bound to their fields (the one reader, params_read). */
#include <glib.h>

#include "mem/coalesce.h"
#include "simtgrid/config.h"

static const param_bind binds[] = {
    PB(coalesce_params, "coalesce.line_bytes", line_bytes, PF_UNSIGNED),
    PB(coalesce_params, "coalesce.sector_bytes", sector_bytes, PF_UNSIGNED),
    PB(coalesce_params, "coalesce.divergent_after", divergent_after, PF_UNSIGNED),
};

void coalesce_params_default(coalesce_params *p)
{
    params_read(p, binds, G_N_ELEMENTS(binds), NULL, NULL, NULL);
}

bool coalesce_params_from_config(coalesce_params *p, const config *c, GError **err)
{
    params_read(p, binds, G_N_ELEMENTS(binds), NULL, c, NULL);
    char why[160];
    if (coalesce_params_check(p, why, sizeof why))
        return true;
    /* A bad line size is blamed on line_bytes, anything else on sector_bytes. */
    const char *key = !(p->line_bytes >= 4 && !(p->line_bytes & (p->line_bytes - 1)))
                          ? "coalesce.line_bytes"
                          : "coalesce.sector_bytes";
    return cfg_blame(c, key, why, err);
}
