/* coalesce.* parameters: defaults from params.def and reading a config. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "mem/coalesce.h"
#include "simtgrid/config.h"

static unsigned def_of(const char *name)
{
    static const struct { const char *name, *def; } rows[] = {
#define PARAM(name, type, unit, def, min, max, choices, desc) {name, def},
#include "mem/params.def"
#undef PARAM
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(rows[i].name, name))
            return (unsigned)strtoul(rows[i].def, NULL, 10);
    return 0;
}

void coalesce_params_default(coalesce_params *p)
{
    p->line_bytes = def_of("coalesce.line_bytes");
    p->sector_bytes = def_of("coalesce.sector_bytes");
    p->divergent_after = def_of("coalesce.divergent_after");
}

bool coalesce_params_from_config(coalesce_params *p, const config *c, GError **err)
{
    p->line_bytes = (unsigned)cfg_int(c, "coalesce.line_bytes");
    p->sector_bytes = (unsigned)cfg_int(c, "coalesce.sector_bytes");
    p->divergent_after = (unsigned)cfg_int(c, "coalesce.divergent_after");
    char why[160];
    if (coalesce_params_check(p, why, sizeof why))
        return true;
    /* A bad line size is blamed on line_bytes, anything else on sector_bytes. */
    const char *key = !(p->line_bytes >= 4 && !(p->line_bytes & (p->line_bytes - 1)))
                          ? "coalesce.line_bytes"
                          : "coalesce.sector_bytes";
    const char *origin = cfg_origin(c, key);
    g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT, "%s: %s = '%s': %s",
                origin && *origin ? origin : "default", key, cfg_str(c, key), why);
    return false;
}
