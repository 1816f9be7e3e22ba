/* dram.* parameters from a model: the one reader, then the checks that
 * relate values (kept apart from dram_params.c so the controller builds and
 * tests from a plain struct). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "mem/addrmap.h"
#include "mem/dram_params.h"
#include "simtgrid/config.h"

static bool blame(GError **err, const config *c, const char *key, const char *why)
{
    /* why already starts with the key when it comes from addrmap_init */
    const char *rest = !strncmp(why, key, strlen(key)) ? why + strlen(key) : why;
    if (*rest == ':')
        rest++;
    while (*rest == ' ')
        rest++;
    return cfg_blame(c, key, rest, err);
}

bool dram_params_from_config(dram_params *p, const config *c, GError **err)
{
    memset(p, 0, sizeof *p);
    if (!params_read(p, dram_param_binds, dram_param_binds_len, NULL, c, err))
        return false;
    const char *key = NULL;
    char why[256];
    if (!dram_params_check(p, &key, why, sizeof why))
        return blame(err, c, key, why);
    addrmap m;
    if (!addrmap_init(&m, p, why, sizeof why))
        return blame(err, c, "dram.addr_map", why);
    return true;
}
