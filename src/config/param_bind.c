/* The one reader of block parameters (simtgrid/config.h, params_read): each
 * block lists its parameters once, bound to the fields of its struct, and
 * this fills the struct from a configuration or from the table's defaults. */
#include <stdio.h>
#include <string.h>

#include "config/config_lib.h"

bool cfg_blame(const config *c, const char *key, const char *why, GError **err)
{
    const char *origin = cfg_origin(c, key);
    return input_error(err, "%s: %s = '%s': %s", origin && *origin ? origin : "default", key,
                       cfg_str(c, key), why);
}

static void store_enum(void *field, const param_bind *b, const char *key, const char *word)
{
    for (int v = 0; b->names[v]; v++)
        if (!strcmp(b->names[v], word)) {
            *(int *)field = v;
            return;
        }
    g_error("simtgrid: params_read(\"%s\"): '%s' has no value in the block's enum", key, word);
}

static bool read_one(char *dst, const param_bind *b, const char *key, const config *c, GError **err)
{
    void *field = dst + b->offset;
    switch (b->field) {
    case PF_UNSIGNED: *(unsigned *)field = (unsigned)cfg_int(c, key); return true;
    case PF_U64: *(uint64_t *)field = (uint64_t)cfg_int(c, key); return true;
    case PF_BOOL: *(bool *)field = cfg_bool(c, key); return true;
    case PF_DOUBLE: *(double *)field = cfg_float(c, key); return true;
    case PF_ENUM:
        cfg_is(c, key, cfg_str(c, key));   /* aborts unless the key is an enum */
        store_enum(field, b, key, cfg_str(c, key));
        return true;
    case PF_POLICY: {
        cfg_is(c, key, cfg_str(c, key));
        const policy *p = b->find(key, cfg_str(c, key));
        if (!p)
            g_error("simtgrid: params_read(\"%s\"): no policy '%s' in the block's registry", key,
                    cfg_str(c, key));
        *(const policy **)field = p;
        return true;
    }
    case PF_TEXT: {
        const char *s = cfg_str(c, key);
        if (strlen(s) >= b->size) {
            char why[64];
            snprintf(why, sizeof why, "expected at most %zu characters", b->size - 1);
            return cfg_blame(c, key, why, err);
        }
        memcpy(field, s, strlen(s) + 1);
        return true;
    }
    }
    return true;
}

bool params_read(void *dst, const param_bind *b, size_t n, const char *prefix, const config *c,
                 GError **err)
{
    config *defaults = c ? NULL : config_new();
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        char *key = prefix ? g_strdup_printf("%s.%s", prefix, b[i].key) : NULL;
        ok = read_one(dst, &b[i], key ? key : b[i].key, c ? c : defaults, err);
        g_free(key);
    }
    config_free(defaults);
    return ok;
}
