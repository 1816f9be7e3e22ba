/* [launch.NAME] groups: which kernel, grid and block, on which SMs, and when
 * (a start cycle or after another launch). `after` chains are checked for
 * unknown names and cycles here, so the chip builder can trust them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scenario_internal.h"
#include "simtgrid/input.h"

static const char *const launch_keys[] = {"kernel", "grid", "block", "sms", "start", "after", "args"};

#define MAX_SM_ID 65535u

static bool parse_uint(const char *text, guint64 min, guint64 max, guint64 *out)
{
    return g_ascii_string_to_unsigned(text, 10, min, max, out, NULL);
}

/* "4" or "4,2" or "4,2,1": 1 to 3 positive integers, missing ones are 1. */
static bool parse_dims(const char *text, uint32_t dims[3])
{
    char **v = kf_split_list(text);
    bool ok = v && v[0] && g_strv_length(v) <= 3;
    guint64 total = 1;
    dims[0] = dims[1] = dims[2] = 1;
    for (unsigned i = 0; ok && v[i]; i++) {
        guint64 x = 0;
        ok = parse_uint(v[i], 1, G_MAXUINT32, &x);
        total *= ok ? x : 1;
        ok = ok && total <= G_MAXUINT32;   /* ids must fit 32 bits */
        dims[i] = (uint32_t)x;
    }
    g_strfreev(v);
    return ok;
}

/* "all" or "0-3,7": sorted unique list. */
static bool parse_sms(const char *text, launch *l)
{
    l->sm_first = l->sm_last = -1;
    if (!g_ascii_strcasecmp(text, "all"))
        return true;
    char **v = kf_split_list(text);
    bool ok = v && v[0];
    bool *used = g_new0(bool, MAX_SM_ID + 1);
    for (unsigned i = 0; ok && v[i]; i++) {
        guint64 a = 0, b = 0;
        char *dash = strchr(v[i], '-');
        if (dash) {
            *dash = '\0';
            ok = parse_uint(g_strstrip(v[i]), 0, MAX_SM_ID, &a) &&
                 parse_uint(g_strstrip(dash + 1), 0, MAX_SM_ID, &b) && a <= b;
        } else {
            ok = parse_uint(v[i], 0, MAX_SM_ID, &a);
            b = a;
        }
        for (guint64 k = a; ok && k <= b; k++)
            used[k] = true;
    }
    if (ok) {
        for (unsigned k = 0; k <= MAX_SM_ID; k++)
            l->nsms += used[k];
        l->sms = g_new(unsigned, l->nsms);
        unsigned n = 0;
        for (unsigned k = 0; k <= MAX_SM_ID; k++)
            if (used[k])
                l->sms[n++] = k;
        l->sm_first = (int)l->sms[0];
        l->sm_last = (int)l->sms[n - 1];
    }
    g_free(used);
    g_strfreev(v);
    return ok;
}

static bool parse_args(const char *text, launch *l)
{
    char **v = kf_split_list(text);
    if (!v)
        return false;
    l->nargs = g_strv_length(v);
    l->args = g_new0(int64_t, l->nargs ? l->nargs : 1);
    bool ok = true, overflow;
    for (unsigned i = 0; ok && i < l->nargs; i++)
        ok = param_parse_int64(v[i], &l->args[i], &overflow);
    g_strfreev(v);
    return ok;
}

/* NULL when `path` is a readable regular file within the input size limit,
 * else why not (g_free it). */
static char *kernel_unreadable(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    char *why = input_read_why(path, INPUT_MAX_BYTES, &text, &len);
    g_free(text);
    return why;
}

/* One key of a launch; `where` is "file:line: [launch.NAME] key 'k'". */
static bool parse_key(launch *l, const kf_doc *d, const kf_entry *e, const char *where, GError **err)
{
    const char *v = e->value;
    if (!strcmp(e->key, "kernel")) {
        if (!*v)
            return input_error(err, "%s: expected the path of a kernel file, got ''", where);
        l->kernel = kf_resolve_path(d->path, v);
        char *why = kernel_unreadable(l->kernel);
        if (why) {
            input_error(err, "%s: cannot read '%s' (%s)", where, l->kernel, why);
            g_free(why);
            return false;
        }
    } else if (!strcmp(e->key, "grid") || !strcmp(e->key, "block")) {
        if (!parse_dims(v, e->key[0] == 'g' ? l->grid : l->block))
            return input_error(err, "%s: expected 1 to 3 positive integers (x[,y[,z]], %u in all at most), got '%s'",
                               where, G_MAXUINT32, v);
    } else if (!strcmp(e->key, "sms")) {
        if (!parse_sms(v, l))
            return input_error(err, "%s: expected 'all' or SM numbers and ranges from 0 to %u like '0-3,7', got '%s'",
                               where, MAX_SM_ID, v);
    } else if (!strcmp(e->key, "start")) {
        guint64 t;
        if (!parse_uint(v, 0, G_MAXUINT64, &t))
            return input_error(err, "%s: expected a non-negative integer (core cycles), got '%s'", where, v);
        l->start = t;
    } else if (!strcmp(e->key, "after")) {
        if (!*v)
            return input_error(err, "%s: expected the name of another launch, got ''", where);
        l->after = g_strdup(v);
    } else if (!strcmp(e->key, "args")) {
        if (!parse_args(v, l))
            return input_error(err, "%s: expected comma-separated integers, got '%s'", where, v);
    } else {
        return input_error(err, "%s: unknown key (did you mean '%s'?)", where,
                           nearest_of(e->key, launch_keys, G_N_ELEMENTS(launch_keys)));
    }
    return true;
}

static bool valid_launch_name(const char *n)
{
    if (!*n)
        return false;
    for (; *n; n++)
        if (!g_ascii_isalnum(*n) && *n != '_' && *n != '-')
            return false;
    return true;
}

static bool parse_one(launch *l, const kf_doc *d, const kf_group *g, GError **err)
{
    l->name = g_strdup(g->name + strlen("launch."));
    l->origin = input_origin(d->path, g->line);
    l->grid[0] = l->grid[1] = l->grid[2] = 1;
    l->block[0] = l->block[1] = l->block[2] = 1;
    l->sm_first = l->sm_last = -1;
    if (!valid_launch_name(l->name))
        return input_error(err, "%s: group [%s]: expected a launch name of letters, digits, '_' or '-' after 'launch.'",
                           l->origin, g->name);
    const kf_entry *start = NULL, *after = NULL;
    for (unsigned i = 0; i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        if (e->group != g->name)
            continue;
        char *where = input_key_where(d->path, e->line, g->name, e->key);
        bool ok = parse_key(l, d, e, where, err);
        g_free(where);
        if (!ok)
            return false;
        start = !strcmp(e->key, "start") ? e : start;
        after = !strcmp(e->key, "after") ? e : after;
    }
    static const char *const required[] = {"kernel", "grid", "block"};
    static const char *const what[] = {"the path of a kernel file", "1 to 3 positive integers (CTAs)",
                                       "1 to 3 positive integers (threads per CTA)"};
    /* A kernelslist.g: each kernel's grid and block are its trace's. */
    bool list = l->kernel && scenario_is_kernel_list(l->kernel);
    for (unsigned k = 1; list && k < G_N_ELEMENTS(required); k++) {
        const kf_entry *e = kf_find(d, g->name, required[k]);
        if (e)
            return key_error(err, d->path, e->line, g->name, required[k],
                             "a kernelslist.g launch takes each kernel's grid and block from its trace's "
                             "header: leave '%s' out", required[k]);
    }
    for (unsigned k = 0; k < (list ? 1u : G_N_ELEMENTS(required)); k++)
        if (!kf_find(d, g->name, required[k]))
            return input_error(err, "%s: [%s] key '%s' is missing: expected %s", l->origin, g->name,
                               required[k], what[k]);
    if (start && after)
        return input_error_at(err, d->path, MAX(start->line, after->line),
                              "[%s] keys 'start' (line %d) and 'after' (line %d) are both given: "
                              "expected one of them", g->name, start->line, after->line);
    return true;
}

static int launch_index(const scenario *s, const char *name)
{
    for (unsigned i = 0; i < s->nlaunches; i++)
        if (!strcmp(s->launches[i].name, name))
            return (int)i;
    return -1;
}

/* Every `after` names a launch, and following them never loops. */
static bool check_after(const scenario *s, const kf_doc *d, GError **err)
{
    unsigned n = s->nlaunches;
    int *next = g_new(int, n);
    const char **names = g_new(const char *, n);
    bool ok = true;
    for (unsigned i = 0; i < n; i++)
        names[i] = s->launches[i].name;
    for (unsigned i = 0; ok && i < n; i++) {
        const launch *l = &s->launches[i];
        next[i] = l->after ? launch_index(s, l->after) : -1;
        if (l->after && next[i] < 0) {
            char *g = g_strdup_printf("launch.%s", l->name);
            ok = key_error(err, d->path, kf_find(d, g, "after")->line, g, "after",
                           "no launch named '%s' (did you mean '%s'?)", l->after, nearest_of(l->after, names, n));
            g_free(g);
        }
    }
    for (unsigned i = 0; ok && i < n; i++) {
        int j = next[i];
        for (unsigned steps = 0; j >= 0 && j != (int)i && steps < n; steps++)
            j = next[j];
        if (j != (int)i)
            continue;
        GString *chain = g_string_new(s->launches[i].name);
        j = next[i];
        do {
            g_string_append_printf(chain, " -> %s", s->launches[j].name);
            j = j == (int)i ? -1 : next[j];
        } while (j >= 0);
        char *g = g_strdup_printf("launch.%s", s->launches[i].name);
        ok = key_error(err, d->path, kf_find(d, g, "after")->line, g, "after",
                       "launches wait for each other in a cycle: %s", chain->str);
        g_free(g);
        g_string_free(chain, TRUE);
    }
    g_free(next);
    g_free(names);
    return ok;
}

bool scenario_parse_launches(scenario *s, const kf_doc *d, GError **err)
{
    for (unsigned i = 0; i < d->ngroups; i++)
        s->nlaunches += g_str_has_prefix(d->groups[i].name, "launch.");
    s->launches = g_new0(launch, s->nlaunches ? s->nlaunches : 1);
    unsigned n = 0;
    for (unsigned i = 0; i < d->ngroups; i++)
        if (g_str_has_prefix(d->groups[i].name, "launch.") &&
            !parse_one(&s->launches[n++], d, &d->groups[i], err))
            return false;
    if (!n)
        return input_error(err, "%s: no [launch.NAME] group: expected at least one kernel launch", d->path);
    return check_after(s, d, err);
}

void scenario_free_launches(scenario *s)
{
    for (unsigned i = 0; i < s->nlaunches && s->launches; i++) {
        launch *l = &s->launches[i];
        g_free(l->name);
        g_free(l->kernel);
        g_free(l->sms);
        g_free(l->after);
        g_free(l->args);
        g_free(l->origin);
    }
    g_free(s->launches);
    s->launches = NULL;
    s->nlaunches = 0;
}

/* The SMs a launch names must exist on the chip: gpu.sms in the base
 * configuration, or the smallest value a sweep gives it. Skipped while the
 * table has no gpu.sms (the chip builder checks again in any case). */
bool scenario_check_sms(const scenario *s, const kf_doc *d, GError **err)
{
    const param_def *p = param_find("gpu.sms");
    if (!p || p->type != PT_INT)
        return true;
    int64_t nsms = cfg_int(s->cfg, "gpu.sms");
    char *from = g_strdup_printf("gpu.sms, from %s", cfg_origin(s->cfg, "gpu.sms"));
    for (unsigned k = 0; k < s->naxes; k++) {
        if (strcmp(s->axes[k].key, "gpu.sms"))
            continue;
        /* a swept gpu.sms replaces the base value at every point */
        nsms = INT64_MAX;
        for (unsigned i = 0; i < s->axes[k].nvalues; i++)
            nsms = MIN(nsms, g_ascii_strtoll(s->axes[k].values[i], NULL, 10));
        g_free(from);
        from = g_strdup_printf("the smallest gpu.sms of the sweep at %s", s->axes[k].origin);
    }
    bool ok = true;
    for (unsigned i = 0; ok && i < s->nlaunches; i++) {
        const launch *l = &s->launches[i];
        if (l->nsms == 0 || l->sm_last < nsms)
            continue;
        char *g = g_strdup_printf("launch.%s", l->name);
        ok = key_error(err, d->path, kf_find(d, g, "sms")->line, g, "sms",
                       "SM %d does not exist: expected SMs 0 to %" G_GINT64_FORMAT " (%s)", l->sm_last,
                       nsms - 1, from);
        g_free(g);
    }
    g_free(from);
    return ok;
}
