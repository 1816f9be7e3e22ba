/* Model files: [GROUP] key = value sets parameter GROUP.key; [model] include =
 * a.ini, b.ini loads other models first (in order), then this file's values
 * override theirs. Include cycles are refused with the chain. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

static const char *const model_keys[] = {"include", "name", "description"};

typedef struct include_stack {
    GPtrArray *real;    /* canonical paths of the files being loaded */
    GPtrArray *shown;   /* the same, as written, for the message */
} include_stack;

static bool check_groups(const kf_doc *d, GError **err)
{
    for (unsigned i = 0; i < d->ngroups; i++) {
        const kf_group *g = &d->groups[i];
        if (!strcmp(g->name, "model") || param_group_exists(g->name))
            continue;
        const char *near = param_nearest_group(g->name);
        if (!near || edit_distance(g->name, "model") < edit_distance(g->name, near))
            near = "model";
        return input_error(err, "%s:%d: unknown group [%s] (did you mean [%s]?)", d->path, g->line,
                           g->name, near);
    }
    for (unsigned i = 0; i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        if (strcmp(e->group, "model"))
            continue;
        bool known = false;
        for (unsigned k = 0; k < G_N_ELEMENTS(model_keys); k++)
            known |= !strcmp(e->key, model_keys[k]);
        if (!known)
            return input_error(err, "%s:%d: [model] key '%s': unknown key (did you mean '%s'?)",
                               d->path, e->line, e->key,
                               nearest_of(e->key, model_keys, G_N_ELEMENTS(model_keys)));
    }
    return true;
}

static bool load_rec(config *c, const char *path, const char *named_by, include_stack *st,
                     GError **err);

static bool load_includes(config *c, const kf_doc *d, include_stack *st, GError **err)
{
    const kf_entry *inc = kf_find(d, "model", "include");
    if (!inc)
        return true;
    char *where = g_strdup_printf("%s:%d: [model] key 'include'", d->path, inc->line);
    char **files = kf_split_list(inc->value);
    bool ok = true;
    if (!files || !files[0])
        ok = input_error(err, "%s: expected one or more comma-separated model files, got '%s'",
                         where, inc->value);
    for (unsigned i = 0; ok && files[i]; i++) {
        char *p = kf_resolve_path(d->path, files[i]);
        ok = load_rec(c, p, where, st, err);
        g_free(p);
    }
    g_strfreev(files);
    g_free(where);
    return ok;
}

static bool apply_values(config *c, const kf_doc *d, GError **err)
{
    for (unsigned i = 0; i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        if (!strcmp(e->group, "model"))
            continue;
        char *key = g_strdup_printf("%s.%s", e->group, e->key);
        char *origin = g_strdup_printf("%s:%d", d->path, e->line);
        char *where = g_strdup_printf("%s: [%s]", origin, e->group);
        bool ok = config_set_at(c, key, e->value, origin, where, err);
        g_free(key);
        g_free(origin);
        g_free(where);
        if (!ok)
            return false;
    }
    return true;
}

static bool load_rec(config *c, const char *path, const char *named_by, include_stack *st,
                     GError **err)
{
    kf_doc *d = kf_doc_load(path, named_by, err);
    if (!d)
        return false;
    char *real = realpath(path, NULL);
    char *key = g_strdup(real ? real : path);
    free(real);
    for (guint i = 0; i < st->real->len; i++) {
        if (strcmp(st->real->pdata[i], key))
            continue;
        GString *chain = g_string_new(NULL);
        for (guint j = i; j < st->shown->len; j++)
            g_string_append_printf(chain, "%s -> ", (const char *)st->shown->pdata[j]);
        g_string_append(chain, path);
        input_error(err, "%s: include cycle: %s", named_by ? named_by : path, chain->str);
        g_string_free(chain, TRUE);
        g_free(key);
        kf_doc_free(d);
        return false;
    }
    g_ptr_array_add(st->real, key);
    g_ptr_array_add(st->shown, g_strdup(path));
    bool ok = check_groups(d, err) && load_includes(c, d, st, err) && apply_values(c, d, err);
    g_ptr_array_remove_index(st->real, st->real->len - 1);
    g_ptr_array_remove_index(st->shown, st->shown->len - 1);
    kf_doc_free(d);
    return ok;
}

bool model_load(config *c, const char *path, GError **err)
{
    return model_load_named(c, path, NULL, err);
}

bool model_load_named(config *c, const char *path, const char *named_by, GError **err)
{
    include_stack st = {g_ptr_array_new_with_free_func(g_free),
                        g_ptr_array_new_with_free_func(g_free)};
    bool ok = load_rec(c, path, named_by, &st, err);
    g_ptr_array_free(st.real, TRUE);
    g_ptr_array_free(st.shown, TRUE);
    return ok;
}
