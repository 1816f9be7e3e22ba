/* A launch whose kernel is an Accel-Sim kernelslist.g (docs/traces.md)
 * stands for the application's kernels in their launch order: it becomes
 * one launch per kernel-N.traceg, NAME-1 ... NAME-n, each after the one
 * before (the first keeps the launch's own `start` or `after`), each with
 * the grid and block of its trace's header and the launch's `sms`. Memcpy
 * lines carry no kernel and are skipped (the tracer records the copies, not
 * their timing; simtgrid models none). A launch `after = NAME` waits for
 * the whole list: for NAME-n. Run after the launches and `sms` are checked,
 * so that every check names the scenario's own groups. */
#include <string.h>

#include "scenario/scenario_internal.h"
#include "simtgrid/atrace.h"
#include "simtgrid/input.h"

bool scenario_is_kernel_list(const char *path)
{
    return g_str_has_suffix(path, "kernelslist.g");
}

static launch copy_launch(const launch *l, const char *name, const char *kernel, const char *after)
{
    launch x = *l;
    x.name = g_strdup(name);
    x.kernel = g_strdup(kernel);
    x.after = g_strdup(after);
    x.start = after ? 0 : l->start;
    x.sms = l->nsms ? g_memdup2(l->sms, l->nsms * sizeof *l->sms) : NULL;
    x.args = g_memdup2(l->args ? l->args : (int64_t[]){0}, (l->nargs ? l->nargs : 1) * sizeof(int64_t));
    x.origin = g_strdup(l->origin);
    return x;
}

static void free_launch(launch *l)
{
    g_free(l->name), g_free(l->kernel), g_free(l->sms), g_free(l->after), g_free(l->args), g_free(l->origin);
}

/* Launch l's kernels appended to `out`; false with *err on a bad list or
 * trace header (file:line), or a name already taken. */
static bool expand(const scenario *s, const launch *l, const kf_doc *d, GArray *out, GError **err)
{
    char *group = g_strdup_printf("launch.%s", l->name);
    const kf_entry *e = kf_find(d, group, "kernel");
    char *where = input_key_where(d->path, e ? e->line : 0, group, "kernel");
    GError *le = NULL;
    char **files = atrace_list_load(l->kernel, &le);
    bool ok = files != NULL;
    if (!ok)
        input_error(err, "%s: %s", where, le->message);
    else if (!files[0])
        ok = input_error(err, "%s: %s lists no kernel", where, l->kernel);
    g_clear_error(&le);
    char *prev = NULL;
    for (unsigned k = 0; ok && files[k]; k++) {
        char *name = g_strdup_printf("%s-%u", l->name, k + 1);
        for (unsigned j = 0; ok && j < s->nlaunches; j++)
            if (!strcmp(s->launches[j].name, name))
                ok = input_error(err, "%s: its kernel %u would be launch '%s', the name of [launch.%s]: "
                                 "rename one", where, k + 1, name, name);
        launch x = copy_launch(l, name, files[k], k ? prev : l->after);
        if (ok && !atrace_is_trace_path(files[k]))
            ok = input_error(err, "%s: %s, kernel %u: '%s' is not a trace (.traceg or .traceg.xz)", where,
                             l->kernel, k + 1, files[k]);
        if (ok && !atrace_read_dims(files[k], x.grid, x.block, &le)) {
            ok = input_error(err, "%s: %s", where, le->message);
            g_clear_error(&le);
        }
        if (ok)
            g_array_append_val(out, x);
        else
            free_launch(&x);
        g_free(prev);
        prev = name;
    }
    g_free(prev);
    g_strfreev(files);
    g_free(where);
    g_free(group);
    return ok;
}

bool scenario_expand_kernel_lists(scenario *s, const kf_doc *d, GError **err)
{
    bool any = false;
    for (unsigned i = 0; i < s->nlaunches; i++)
        any = any || scenario_is_kernel_list(s->launches[i].kernel);
    if (!any)
        return true;
    GArray *out = g_array_new(FALSE, TRUE, sizeof(launch));
    /* a list's name -> its last kernel's launch, for the `after` keys */
    GHashTable *last = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    bool ok = true;
    for (unsigned i = 0; ok && i < s->nlaunches; i++) {
        const launch *l = &s->launches[i];
        if (!scenario_is_kernel_list(l->kernel)) {
            launch x = copy_launch(l, l->name, l->kernel, l->after);
            x.start = l->start;
            g_array_append_val(out, x);
            continue;
        }
        ok = expand(s, l, d, out, err);
        if (ok)
            g_hash_table_insert(last, g_strdup(l->name),
                                g_strdup(g_array_index(out, launch, out->len - 1).name));
    }
    for (unsigned i = 0; ok && i < out->len; i++) {
        launch *x = &g_array_index(out, launch, i);
        const char *to = x->after ? g_hash_table_lookup(last, x->after) : NULL;
        if (to) {
            g_free(x->after);
            x->after = g_strdup(to);
        }
    }
    g_hash_table_destroy(last);
    if (!ok) {
        for (unsigned i = 0; i < out->len; i++)
            free_launch(&g_array_index(out, launch, i));
        g_array_free(out, TRUE);
        return false;
    }
    scenario_free_launches(s);
    s->nlaunches = out->len;
    s->launches = (launch *)(void *)g_array_free(out, FALSE);
    return true;
}
