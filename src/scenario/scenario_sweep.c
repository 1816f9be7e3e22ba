/* [sweep]: each key lists values; the cross product of the axes runs, axes in
 * file order, the last axis varying fastest (like nested loops written in
 * file order). */
#include <string.h>

#include "scenario/scenario_internal.h"

static bool parse_axis(sweep_axis *a, const kf_doc *d, const kf_entry *e, GError **err)
{
    a->key = g_strdup(e->key);
    a->origin = input_origin(d->path, e->line);
    const param_def *p = param_find(e->key);
    if (!p)
        return key_error(err, a->origin, 0, "sweep", e->key, "unknown parameter (did you mean '%s'?)",
                         param_nearest(e->key));
    char **v = kf_split_list(e->value);
    if (!v)
        return key_error(err, a->origin, 0, "sweep", e->key,
                         "expected a comma-separated list of values, got '%s' (an empty item)", e->value);
    a->nvalues = g_strv_length(v);
    a->values = g_new0(char *, a->nvalues + 1);
    bool ok = a->nvalues > 0 ||
              key_error(err, a->origin, 0, "sweep", e->key, "expected a non-empty comma-separated list of values");
    for (unsigned i = 0; ok && i < a->nvalues; i++) {
        param_value pv;
        char *why = param_parse(p, v[i], &pv, &a->values[i]);
        if (why) {
            ok = key_error(err, a->origin, 0, "sweep", e->key, "value %u of %u: %s", i + 1, a->nvalues, why);
            g_free(why);
        }
    }
    g_strfreev(v);
    return ok;
}

bool scenario_parse_sweep(scenario *s, const kf_doc *d, GError **err)
{
    for (unsigned i = 0; i < d->nentries; i++)
        s->naxes += !strcmp(d->entries[i].group, "sweep");
    s->axes = g_new0(sweep_axis, s->naxes ? s->naxes : 1);
    unsigned n = 0;
    guint64 points = 1;
    for (unsigned i = 0; i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        if (strcmp(e->group, "sweep"))
            continue;
        sweep_axis *a = &s->axes[n++];
        if (!parse_axis(a, d, e, err))
            return false;
        points *= a->nvalues;
        if (points > SCENARIO_MAX_POINTS)
            return key_error(err, a->origin, 0, "sweep", a->key,
                             "the sweep would have more than %u points: expected fewer values", SCENARIO_MAX_POINTS);
    }
    return true;
}

void scenario_free_sweep(scenario *s)
{
    for (unsigned i = 0; i < s->naxes && s->axes; i++) {
        g_free(s->axes[i].key);
        g_strfreev(s->axes[i].values);
        g_free(s->axes[i].origin);
    }
    g_free(s->axes);
    s->axes = NULL;
    s->naxes = 0;
}

unsigned scenario_npoints(const scenario *s)
{
    unsigned n = 1;
    for (unsigned i = 0; i < s->naxes; i++)
        n *= s->axes[i].nvalues;
    return n;
}

/* Value index of every axis at point i: mixed-radix digits, last axis lowest. */
static void point_digits(const scenario *s, unsigned i, unsigned *digit)
{
    for (unsigned k = s->naxes; k-- > 0;) {
        digit[k] = i % s->axes[k].nvalues;
        i /= s->axes[k].nvalues;
    }
}

config *scenario_point(const scenario *s, unsigned i, GError **err)
{
    unsigned n = scenario_npoints(s);
    if (i >= n) {
        input_error(err, "%s: sweep point %u does not exist: expected 0 to %u", s->path, i, n - 1);
        return NULL;
    }
    config *c = config_copy(s->cfg);
    unsigned *digit = g_new0(unsigned, s->naxes + 1);
    point_digits(s, i, digit);
    bool ok = true;
    for (unsigned k = 0; ok && k < s->naxes; k++) {
        const sweep_axis *a = &s->axes[k];
        char *where = g_strdup_printf("%s: [sweep]", a->origin);
        ok = config_set_at(c, a->key, a->values[digit[k]], a->origin, where, err);
        g_free(where);
    }
    g_free(digit);
    if (!ok) {
        config_free(c);
        return NULL;
    }
    return c;
}

char *scenario_point_label(const scenario *s, unsigned i)
{
    GString *l = g_string_new(NULL);
    if (i >= scenario_npoints(s))
        return g_string_free(l, FALSE);
    unsigned *digit = g_new0(unsigned, s->naxes + 1);
    point_digits(s, i, digit);
    for (unsigned k = 0; k < s->naxes; k++)
        g_string_append_printf(l, "%s%s=%s", k ? "," : "", s->axes[k].key, s->axes[k].values[digit[k]]);
    g_free(digit);
    return g_string_free(l, FALSE);
}
