/* A resolved configuration: one value for every parameter of the table, with
 * its canonical text and where it came from. Lookups by name go through the
 * table's hash index; blocks read their parameters once, at build time. */
#include <string.h>

#include "config/config_lib.h"

G_DEFINE_QUARK(simtgrid-error-quark, simtgrid_error)

struct config {
    param_value *vals;
    char **text;      /* canonical text of each value */
    char **origin;    /* "default", "file:line", "--set" */
};

config *config_new(void)
{
    config *c = g_new0(config, 1);
    size_t n = param_table_len;
    c->vals = g_new0(param_value, n);
    c->text = g_new0(char *, n);
    c->origin = g_new0(char *, n);
    param_index("");   /* validate the table before trusting its defaults */
    for (size_t i = 0; i < n; i++) {
        char *why = param_parse(&param_table[i], param_table[i].def, &c->vals[i], &c->text[i]);
        if (why)   /* cannot happen: param_table_check parsed every default */
            g_error("simtgrid: default of '%s': %s", param_table[i].name, why);
        c->origin[i] = g_strdup("default");
    }
    return c;
}

config *config_copy(const config *src)
{
    config *c = g_new0(config, 1);
    size_t n = param_table_len;
    c->vals = g_memdup2(src->vals, n * sizeof *c->vals);
    c->text = g_new0(char *, n);
    c->origin = g_new0(char *, n);
    for (size_t i = 0; i < n; i++) {
        c->text[i] = g_strdup(src->text[i]);
        c->origin[i] = g_strdup(src->origin[i]);
    }
    return c;
}

void config_free(config *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < param_table_len; i++) {
        g_free(c->text[i]);
        g_free(c->origin[i]);
    }
    g_free(c->vals);
    g_free(c->text);
    g_free(c->origin);
    g_free(c);
}

bool config_set_at(config *c, const char *key, const char *value, const char *origin,
                   const char *where, GError **err)
{
    int i = param_index(key);
    if (i < 0)
        return input_error(err, "%s key '%s': unknown parameter (did you mean '%s'?)", where, key,
                           param_nearest(key));
    param_value v;
    char *canon = NULL;
    char *why = param_parse(&param_table[i], value, &v, &canon);
    if (why) {
        input_error(err, "%s key '%s': %s", where, key, why);
        g_free(why);
        return false;
    }
    c->vals[i] = v;
    g_free(c->text[i]);
    c->text[i] = canon;
    g_free(c->origin[i]);
    c->origin[i] = g_strdup(origin ? origin : "");
    return true;
}

bool config_set(config *c, const char *key, const char *value, const char *origin, GError **err)
{
    char *where = g_strdup_printf("%s:", origin ? origin : "");
    bool ok = config_set_at(c, key, value, origin, where, err);
    g_free(where);
    return ok;
}

/* The index of `key`, which must be of type `want` (or any type if want < 0). */
static int lookup(const char *key, int want, const char *reader)
{
    int i = param_index(key);
    if (i < 0)
        g_error("simtgrid: %s(\"%s\"): no such parameter in the table (nearest: '%s')", reader,
                key, param_nearest(key ? key : ""));
    if (want >= 0 && param_table[i].type != (param_type)want)
        g_error("simtgrid: %s(\"%s\"): parameter is of type %s, not %s", reader, key,
                param_type_name(param_table[i].type), param_type_name((param_type)want));
    return i;
}

int64_t cfg_int(const config *c, const char *key)
{
    return c->vals[lookup(key, PT_INT, "cfg_int")].i;
}

double cfg_float(const config *c, const char *key)
{
    return c->vals[lookup(key, PT_FLOAT, "cfg_float")].f;
}

bool cfg_bool(const config *c, const char *key)
{
    return c->vals[lookup(key, PT_BOOL, "cfg_bool")].b;
}

bool cfg_is(const config *c, const char *key, const char *word)
{
    int i = lookup(key, PT_ENUM, "cfg_is");
    int w = policy_choice_index(&param_table[i], word);
    if (w < 0)
        g_error("simtgrid: cfg_is(\"%s\", \"%s\"): not one of its choices", key, word);
    return c->vals[i].e == w;
}

const char *cfg_str(const config *c, const char *key)
{
    return c->text[lookup(key, -1, "cfg_str")];
}

const char *cfg_origin(const config *c, const char *key)
{
    return c->origin[lookup(key, -1, "cfg_origin")];
}
