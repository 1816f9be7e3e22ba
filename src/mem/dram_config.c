/* dram.* parameters from a model (kept apart from dram_params.c so the
 * controller builds and tests from a plain struct, without a config). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "mem/addrmap.h"
#include "mem/dram_params.h"
#include "simtgrid/config.h"

static bool blame(GError **err, const config *c, const char *key, const char *why)
{
    const char *origin = cfg_origin(c, key);
    /* why already starts with the key when it comes from addrmap_init */
    const char *rest = !strncmp(why, key, strlen(key)) ? why + strlen(key) : why;
    if (*rest == ':')
        rest++;
    while (*rest == ' ')
        rest++;
    g_set_error(err, SIMTGRID_ERROR, SIMTGRID_ERROR_INPUT, "%s: %s = '%s': %s",
                origin && *origin ? origin : "default", key, cfg_str(c, key), rest);
    return false;
}

bool dram_params_from_config(dram_params *p, const config *c, GError **err)
{
    dram_params_default(p);
    for (size_t i = 0; i < dram_param_bindings_len; i++) {
        const dram_param_binding *b = &dram_param_bindings[i];
        char *field = (char *)p + b->offset;
        switch (b->kind) {
        case DRAM_FIELD_UINT:
            *(unsigned *)field = (unsigned)cfg_int(c, b->name);
            break;
        case DRAM_FIELD_BOOL:
            *(bool *)field = cfg_bool(c, b->name);
            break;
        case DRAM_FIELD_ENUM:
            *(int *)field = cfg_enum(c, b->name);
            break;
        case DRAM_FIELD_STRING: {
            const char *s = cfg_str(c, b->name);
            if (strlen(s) >= DRAM_ADDR_MAP_MAX) {
                char why[96];
                snprintf(why, sizeof why, "expected at most %d characters", DRAM_ADDR_MAP_MAX - 1);
                return blame(err, c, b->name, why);
            }
            snprintf(field, DRAM_ADDR_MAP_MAX, "%s", s);
            break;
        }
        }
    }
    const char *key = NULL;
    char why[256];
    if (!dram_params_check(p, &key, why, sizeof why))
        return blame(err, c, key, why);
    addrmap m;
    if (!addrmap_init(&m, p, why, sizeof why))
        return blame(err, c, "dram.addr_map", why);
    return true;
}
