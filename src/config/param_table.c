/* The one parameter table, assembled from every block's params.def, and its
 * lookups. The name index is built once, on first use, from constant data:
 * a read-only cache, not mutable state (g_once makes it thread safe). */
#include <stdio.h>
#include <string.h>

#include "simtgrid/policy.h"
#include "config/config_lib.h"

/* Policy registries: their lists make the choices of policy parameters. */
#include "core/registry.def"
#include "mem/registry.def"

const param_def param_table[] = {
#define PARAM(name, type, unit, def, min, max, choices, desc) \
    {name, type, unit, def, min, max, choices, desc},
#include "des/params.def"
#include "isa/params.def"
#include "gen/params.def"
#include "core/params.def"
#include "mem/params.def"
#include "mem/params_dram.def"
#include "noc/params.def"
#include "gpu/params.def"
#include "stats/params.def"
#include "energy/params.def"
#include "scenario/params.def"
#undef PARAM
};
const size_t param_table_len = G_N_ELEMENTS(param_table);

/* Groups that key files use for themselves, so no parameter may live there. */
static const char *const reserved_groups[] = {"model", "scenario", "set", "sweep", "output", "launch"};

static bool name_is_well_formed(const char *n)
{
    if (!n || !*n || n[0] == '.' || n[strlen(n) - 1] == '.' || strstr(n, "..") || !strchr(n, '.'))
        return false;
    for (const char *p = n; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '_' && *p != '.')
            return false;
    return true;
}

static bool row_error(GError **err, size_t i, const param_def *p, const char *what)
{
    return input_error(err, "parameter table row %zu ('%s'): %s", i + 1,
                       p->name ? p->name : "(null)", what);
}

static bool choices_ok(const char *choices)
{
    if (!choices || !*choices)
        return false;
    char **v = g_strsplit(choices, "|", -1);
    bool ok = true;
    for (unsigned i = 0; v[i] && ok; i++) {
        ok = *v[i] != '\0';
        for (unsigned j = 0; j < i && ok; j++)
            ok = strcmp(v[i], v[j]) != 0;
    }
    g_strfreev(v);
    return ok;
}

bool param_table_check(const param_def *t, size_t n, GError **err)
{
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        const param_def *p = &t[i];
        if (!name_is_well_formed(p->name)) {
            ok = row_error(err, i, p, "name must be dotted words of [A-Za-z0-9_] (e.g. 'l1d.sets')");
            break;
        }
        if (g_hash_table_contains(seen, p->name)) {
            ok = row_error(err, i, p, "duplicate name");
            break;
        }
        g_hash_table_add(seen, (gpointer)p->name);
        char *group = g_strndup(p->name, (size_t)(strrchr(p->name, '.') - p->name));
        for (unsigned r = 0; r < G_N_ELEMENTS(reserved_groups) && ok; r++)
            if (!strcmp(group, reserved_groups[r]) || g_str_has_prefix(group, "launch."))
                ok = row_error(err, i, p, "group is reserved for model/scenario files");
        g_free(group);
        if (!ok)
            break;
        if ((unsigned)p->type > PT_STRING) {
            ok = row_error(err, i, p, "unknown type");
            break;
        }
        if (!p->unit || !p->desc || !*p->desc || !p->def) {
            ok = row_error(err, i, p, "unit, default and description must be given");
            break;
        }
        if ((p->type == PT_INT || p->type == PT_FLOAT) && !(p->min <= p->max)) {
            ok = row_error(err, i, p, "min must not exceed max");
            break;
        }
        if (p->type == PT_ENUM && !choices_ok(p->choices)) {
            ok = row_error(err, i, p, "enum choices must be non-empty distinct words separated by '|'");
            break;
        }
        param_value v;
        char *why = param_parse(p, p->def, &v, NULL);
        if (why) {
            char *m = g_strdup_printf("bad default: %s", why);
            ok = row_error(err, i, p, m);
            g_free(m);
            g_free(why);
        }
    }
    g_hash_table_destroy(seen);
    return ok;
}

typedef struct param_index_cache {
    GHashTable *by_name;   /* name -> index + 1 */
    GHashTable *groups;    /* every prefix before the last dot */
    const char **group_list; /* groups in table order, for suggestions */
    size_t ngroups;
} param_index_cache;

static gpointer build_index(gpointer unused)
{
    (void)unused;
    GError *err = NULL;
    if (!param_table_check(param_table, param_table_len, &err))
        g_error("simtgrid: malformed parameter table (a programming error): %s", err->message);
    param_index_cache *c = g_new0(param_index_cache, 1);
    c->by_name = g_hash_table_new(g_str_hash, g_str_equal);
    c->groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    c->group_list = g_new0(const char *, param_table_len + 1);
    for (size_t i = 0; i < param_table_len; i++) {
        g_hash_table_insert(c->by_name, (gpointer)param_table[i].name, GSIZE_TO_POINTER(i + 1));
        const char *name = param_table[i].name;
        char *group = g_strndup(name, (size_t)(strrchr(name, '.') - name));
        if (g_hash_table_contains(c->groups, group)) {
            g_free(group);
            continue;
        }
        g_hash_table_add(c->groups, group);
        c->group_list[c->ngroups++] = group;
    }
    return c;
}

static const param_index_cache *index_cache(void)
{
    static GOnce once = G_ONCE_INIT;
    return g_once(&once, build_index, NULL);
}

int param_index(const char *name)
{
    if (!name)
        return -1;
    gpointer v = g_hash_table_lookup(index_cache()->by_name, name);
    return v ? (int)GPOINTER_TO_SIZE(v) - 1 : -1;
}

const param_def *param_find(const char *name)
{
    int i = param_index(name);
    return i < 0 ? NULL : &param_table[i];
}

const char *param_nearest(const char *name)
{
    index_cache();   /* validates the table */
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < param_table_len; i++) {
        size_t d = edit_distance(name, param_table[i].name);
        if (d < best_d) {
            best_d = d;
            best = param_table[i].name;
        }
    }
    return best;
}

bool param_group_exists(const char *group)
{
    return g_hash_table_contains(index_cache()->groups, group);
}

const char *param_nearest_group(const char *group)
{
    const param_index_cache *c = index_cache();
    return nearest_of(group, c->group_list, c->ngroups);
}
