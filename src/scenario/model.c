/* Model files: [GROUP] key = value sets parameter GROUP.key; [model] include =
 * a.ini, b.ini loads other models first (in order), then this file's values
 * override theirs. Include cycles are refused with the chain, and includes
 * nested deeper than MODEL_MAX_INCLUDE_DEPTH files (docs/models.md). */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

static const char *const model_keys[] = {"include", "name", "description"};

typedef struct load_state {
    GPtrArray *real;    /* canonical paths of the files being loaded */
    GPtrArray *shown;   /* the same, as written, for the message */
    GHashTable *done;   /* canonical path -> its assignments (flat_entry *) */
    GPtrArray *owned;   /* every flat_entry, freed at the end */
} load_state;

static bool check_groups(const kf_doc *d, GError **err)
{
    for (unsigned i = 0; i < d->ngroups; i++) {
        const kf_group *g = &d->groups[i];
        if (!strcmp(g->name, "model") || param_group_exists(g->name))
            continue;
        const char *near = param_nearest_group(g->name);
        if (!near || edit_distance(g->name, "model") < edit_distance(g->name, near))
            near = "model";
        return input_error_at(err, d->path, g->line, "unknown group [%s] (did you mean [%s]?)",
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
            return key_error(err, d->path, e->line, "model", e->key, "unknown key (did you mean '%s'?)",
                             nearest_of(e->key, model_keys, G_N_ELEMENTS(model_keys)));
    }
    return true;
}

/* One assignment of a model file, as the model tree applies it. */
typedef struct flat_entry {
    char *key, *value, *origin, *where;
} flat_entry;

static void flat_entry_free(gpointer p)
{
    flat_entry *e = p;
    g_free(e->key), g_free(e->value), g_free(e->origin), g_free(e->where);
    g_free(e);
}

/* What loading a file amounts to: its includes' assignments, then its own,
 * with only the last assignment of each key kept (the earlier ones are
 * overridden anyway). Computed once per file and run, so an include tree
 * where files include the same file many times costs one load per file,
 * not one per path through the tree. */
static bool load_rec(load_state *ls, const char *path, const char *named_by, GPtrArray **out,
                     GError **err);

static bool load_includes(load_state *ls, const kf_doc *d, GPtrArray *acc, GError **err)
{
    const kf_entry *inc = kf_find(d, "model", "include");
    if (!inc)
        return true;
    char *where = input_key_where(d->path, inc->line, "model", "include");
    char **files = kf_split_list(inc->value);
    bool ok = true;
    if (!files || !files[0])
        ok = input_error(err, "%s: expected one or more comma-separated model files, got '%s'",
                         where, inc->value);
    for (unsigned i = 0; ok && files[i]; i++) {
        char *p = kf_resolve_path(d->path, files[i]);
        GPtrArray *sub = NULL;
        ok = load_rec(ls, p, where, &sub, err);
        for (guint k = 0; ok && k < sub->len; k++)
            g_ptr_array_add(acc, g_ptr_array_index(sub, k));
        g_free(p);
    }
    g_strfreev(files);
    g_free(where);
    return ok;
}

/* The file's own values, checked now (on a scratch configuration) so that a
 * bad value is reported when its file is read, as without the cache. */
static bool own_values(const kf_doc *d, GPtrArray *acc, GPtrArray *owned, GError **err)
{
    config *scratch = config_new();
    bool ok = true;
    for (unsigned i = 0; ok && i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        if (!strcmp(e->group, "model"))
            continue;
        flat_entry *f = g_new0(flat_entry, 1);
        f->key = g_strdup_printf("%s.%s", e->group, e->key);
        f->value = g_strdup(e->value);
        f->origin = input_origin(d->path, e->line);
        f->where = g_strdup_printf("%s: [%s]", f->origin, e->group);
        g_ptr_array_add(owned, f);
        g_ptr_array_add(acc, f);
        ok = config_set_at(scratch, f->key, f->value, f->origin, f->where, err);
    }
    config_free(scratch);
    return ok;
}

/* Keep the last assignment of each key, in order. */
static GPtrArray *last_of_each(GPtrArray *acc)
{
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *rev = g_ptr_array_new();
    for (guint i = acc->len; i-- > 0;) {
        flat_entry *f = g_ptr_array_index(acc, i);
        if (g_hash_table_add(seen, f->key))
            g_ptr_array_add(rev, f);
    }
    GPtrArray *out = g_ptr_array_sized_new(rev->len);
    for (guint i = rev->len; i-- > 0;)
        g_ptr_array_add(out, g_ptr_array_index(rev, i));
    g_ptr_array_free(rev, TRUE);
    g_hash_table_destroy(seen);
    return out;
}

static bool cycle_error(const load_state *ls, guint from, const char *path, const char *named_by,
                        GError **err)
{
    GString *chain = g_string_new(NULL);
    for (guint j = from; j < ls->shown->len; j++)
        g_string_append_printf(chain, "%s -> ", (const char *)ls->shown->pdata[j]);
    g_string_append(chain, path);
    input_error(err, "%s: include cycle: %s", named_by ? named_by : path, chain->str);
    g_string_free(chain, TRUE);
    return false;
}

static bool load_rec(load_state *ls, const char *path, const char *named_by, GPtrArray **out,
                     GError **err)
{
    char *real = realpath(path, NULL);
    char *key = g_strdup(real ? real : path);
    free(real);
    bool ok = true;
    for (guint i = 0; ok && i < ls->real->len; i++)
        if (!strcmp(ls->real->pdata[i], key))
            ok = cycle_error(ls, i, path, named_by, err);
    if (ok && (*out = g_hash_table_lookup(ls->done, key))) {
        g_free(key);
        return true;
    }
    if (ok && ls->real->len >= MODEL_MAX_INCLUDE_DEPTH)
        ok = input_error(err, "%s: includes nested deeper than %d files (the limit) at '%s'",
                         named_by ? named_by : path, MODEL_MAX_INCLUDE_DEPTH, path);
    kf_doc *d = ok ? kf_doc_load(path, named_by, err) : NULL;
    if (!d) {
        g_free(key);
        return false;
    }
    g_ptr_array_add(ls->real, key);
    g_ptr_array_add(ls->shown, g_strdup(path));
    GPtrArray *acc = g_ptr_array_new();
    ok = check_groups(d, err) && load_includes(ls, d, acc, err) && own_values(d, acc, ls->owned, err);
    g_ptr_array_remove_index(ls->shown, ls->shown->len - 1);
    if (ok) {
        *out = last_of_each(acc);
        /* The table takes the key and the list. */
        g_hash_table_insert(ls->done, g_ptr_array_steal_index(ls->real, ls->real->len - 1), *out);
    } else {
        g_ptr_array_remove_index(ls->real, ls->real->len - 1);
    }
    g_ptr_array_free(acc, TRUE);
    kf_doc_free(d);
    return ok;
}

bool model_load(config *c, const char *path, GError **err)
{
    return model_load_named(c, path, NULL, err);
}

bool model_load_named(config *c, const char *path, const char *named_by, GError **err)
{
    load_state ls = {g_ptr_array_new_with_free_func(g_free), g_ptr_array_new_with_free_func(g_free),
                     g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify)g_ptr_array_unref),
                     g_ptr_array_new_with_free_func(flat_entry_free)};
    GPtrArray *flat = NULL;
    bool ok = load_rec(&ls, path, named_by, &flat, err);
    for (guint i = 0; ok && i < flat->len; i++) {
        flat_entry *f = g_ptr_array_index(flat, i);
        ok = config_set_at(c, f->key, f->value, f->origin, f->where, err);
    }
    g_ptr_array_free(ls.real, TRUE);
    g_ptr_array_free(ls.shown, TRUE);
    g_hash_table_destroy(ls.done);
    g_ptr_array_free(ls.owned, TRUE);
    return ok;
}
