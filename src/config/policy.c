/* Policies registered at run time, per parameter (see simtgrid/policy.h).
 * Built-in policies need no registration: their names are the parameter's
 * choices in the table. Registration happens before any configuration is
 * read (a test's setup, a plug-in's start), on one thread. */
#include <string.h>

#include "simtgrid/policy.h"
#include "config/config_lib.h"

static GHashTable *registered;   /* param name -> GPtrArray of const policy * */

static GPtrArray *rows_of(const char *param)
{
    return registered ? g_hash_table_lookup(registered, param) : NULL;
}

bool policy_register(const char *param, const policy *p, GError **err)
{
    const param_def *d = param_find(param);
    if (!d || d->type != PT_ENUM)
        return input_error(err, "policy_register: '%s' is not an enum parameter", param ? param : "");
    if (!p || !p->name || !*p->name || !p->ops || strchr(p->name, '|'))
        return input_error(err, "policy_register(%s): a policy needs a plain name and ops", param);
    for (const char *c = p->name; *c; c++)
        if (g_ascii_isspace(*c))
            return input_error(err, "policy_register(%s): name '%s' has blanks", param, p->name);
    if (policy_choice_index(d, p->name) >= 0)
        return input_error(err, "policy_register(%s): '%s' is already a choice", param, p->name);
    if (!registered)
        registered = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *rows = rows_of(d->name);
    if (!rows) {
        rows = g_ptr_array_new();
        g_hash_table_insert(registered, (gpointer)d->name, rows);
    }
    g_ptr_array_add(rows, (gpointer)p);
    return true;
}

int policy_choice_index(const param_def *d, const char *word)
{
    int i = param_choice_index(d->choices, word);
    if (i >= 0)
        return i;
    GPtrArray *rows = rows_of(d->name);
    if (!rows)
        return -1;
    int builtin = 1;
    for (const char *c = d->choices; *c; c++)
        builtin += *c == '|';
    for (unsigned k = 0; k < rows->len; k++)
        if (!strcmp(((const policy *)rows->pdata[k])->name, word))
            return builtin + (int)k;
    return -1;
}

char *policy_choices_text(const param_def *d, const char *sep)
{
    GString *s = g_string_new(NULL);
    char **v = g_strsplit(d->choices ? d->choices : "", "|", -1);
    for (unsigned k = 0; v[k]; k++)
        g_string_append_printf(s, "%s%s", k ? sep : "", v[k]);
    g_strfreev(v);
    GPtrArray *rows = rows_of(d->name);
    for (unsigned k = 0; rows && k < rows->len; k++)
        g_string_append_printf(s, "%s%s", sep, ((const policy *)rows->pdata[k])->name);
    return g_string_free(s, FALSE);
}

const policy *policy_find(const policy *builtin, size_t n, const char *param, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(builtin[i].name, name))
            return &builtin[i];
    GPtrArray *rows = rows_of(param);
    for (unsigned k = 0; rows && k < rows->len; k++)
        if (!strcmp(((const policy *)rows->pdata[k])->name, name))
            return rows->pdata[k];
    return NULL;
}

const policy *policy_lookup(const policy_kind *kinds, size_t nkinds, const char *param,
                            const char *name)
{
    if (!param)
        return NULL;
    size_t len = strlen(param);
    for (size_t i = 0; i < nkinds; i++) {
        const char *k = kinds[i].param;
        size_t klen = strlen(k);
        bool match = k[0] == '.' ? len > klen && !strcmp(param + len - klen, k) : !strcmp(param, k);
        if (match)
            return policy_find(kinds[i].rows, kinds[i].n, param, name);
    }
    return NULL;
}
