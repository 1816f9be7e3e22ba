/* Scenario files: [scenario] (model, name, seed), [set] overrides, launches,
 * [sweep] and [output]; then --set from the command line. Precedence, lowest
 * first: defaults, model includes, model, [scenario] seed, [set], --set; a
 * swept key overrides all of them at its sweep point. */
#include <string.h>

#include "scenario/scenario_internal.h"

static const char *const scenario_groups[] = {"scenario", "set", "sweep", "output", "launch.NAME"};
static const char *const scenario_keys[] = {"model", "name", "seed", "description"};
static const char *const output_keys[] = {"json", "csv", "timeseries", "trace", "dump", "dump_count",
                                          "timeseries_interval", "trace_start", "trace_end", "trace_blocks"};

static bool known(const char *word, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(word, list[i]))
            return true;
    return false;
}

static bool check_layout(const kf_doc *d, GError **err)
{
    for (unsigned i = 0; i < d->ngroups; i++) {
        const kf_group *g = &d->groups[i];
        if (known(g->name, scenario_groups, 4) || g_str_has_prefix(g->name, "launch."))
            continue;
        if (param_group_exists(g->name))   /* a model group pasted into a scenario */
            return input_error_at(err, d->path, g->line,
                                  "unknown group [%s] (parameters go in [set] as '%s.KEY = VALUE')",
                                  g->name, g->name);
        return input_error_at(err, d->path, g->line, "unknown group [%s] (did you mean [%s]?)",
                              g->name, nearest_of(g->name, scenario_groups, G_N_ELEMENTS(scenario_groups)));
    }
    for (unsigned i = 0; i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        const char *const *keys = !strcmp(e->group, "scenario") ? scenario_keys
                                  : !strcmp(e->group, "output") ? output_keys : NULL;
        size_t n = keys == scenario_keys ? G_N_ELEMENTS(scenario_keys) : G_N_ELEMENTS(output_keys);
        if (keys && !known(e->key, keys, n))
            return key_error(err, d->path, e->line, e->group, e->key, "unknown key (did you mean '%s'?)",
                             nearest_of(e->key, keys, n));
    }
    return true;
}

/* [scenario] model, then [scenario] seed (which is sim.seed). */
static bool load_model(scenario *s, const kf_doc *d, GError **err)
{
    const kf_group *g = kf_find_group(d, "scenario");
    if (!g)
        return input_error(err, "%s: missing group [scenario]: expected [scenario] with 'model = FILE'",
                           d->path);
    const kf_entry *m = kf_find(d, "scenario", "model");
    if (!m)
        return input_error_at(err, d->path, g->line,
                              "[scenario] key 'model' is missing: expected the path of a model file");
    char *where = input_key_where(d->path, m->line, "scenario", "model");
    bool ok = *m->value || input_error(err, "%s: expected the path of a model file, got ''", where);
    if (ok) {
        s->model_path = kf_resolve_path(d->path, m->value);
        s->cfg = config_new();
        ok = model_load_named(s->cfg, s->model_path, where, err);
    }
    g_free(where);
    const kf_entry *seed = kf_find(d, "scenario", "seed");
    if (ok && seed) {
        param_value v;
        char *why = param_parse(param_find("sim.seed"), seed->value, &v, NULL);
        if (why) {
            ok = key_error(err, d->path, seed->line, "scenario", "seed", "%s", why);
            g_free(why);
        } else {
            char *origin = input_origin(d->path, seed->line);
            ok = config_set_at(s->cfg, "sim.seed", seed->value, origin, origin, err);
            g_free(origin);
        }
    }
    return ok;
}

static bool apply_sets(scenario *s, const kf_doc *d, char *const *sets, GError **err)
{
    for (unsigned i = 0; i < d->nentries; i++) {
        const kf_entry *e = &d->entries[i];
        if (strcmp(e->group, "set"))
            continue;
        char *origin = input_origin(d->path, e->line);
        char *where = g_strdup_printf("%s: [set]", origin);
        bool ok = config_set_at(s->cfg, e->key, e->value, origin, where, err);
        g_free(origin);
        g_free(where);
        if (!ok)
            return false;
    }
    for (unsigned i = 0; sets && sets[i]; i++) {
        const char *eq = strchr(sets[i], '=');
        char *key = eq ? g_strstrip(g_strndup(sets[i], (size_t)(eq - sets[i]))) : NULL;
        char *value = eq ? g_strdup(eq + 1) : NULL;   /* "KEY = VALUE": blanks around '=' are layout */
        bool ok;
        if (!key || !*key)
            ok = input_error(err, "--set '%s': expected KEY=VALUE", sets[i]);
        else
            ok = config_set_at(s->cfg, key, g_strstrip(value), "--set", "--set", err);
        g_free(key);
        g_free(value);
        if (!ok)
            return false;
    }
    return true;
}

static bool parse_output(scenario *s, const kf_doc *d, GError **err)
{
    bool *flags[] = {&s->out_json, &s->out_csv, &s->out_timeseries, &s->out_trace};
    s->dump_count = 64;
    const kf_entry *e = kf_find(d, "output", "dump");
    if (e) {
        s->dump = kf_split_list(e->value);
        s->dump_origin = input_origin(d->path, e->line);
        if (!s->dump || !s->dump[0])
            return key_error(err, d->path, e->line, "output", "dump",
                             "expected a list of .data array names, got '%s'", e->value);
    }
    e = kf_find(d, "output", "dump_count");
    if (e) {
        int64_t n;
        bool overflow;
        if (!param_parse_int64(e->value, &n, &overflow) || n < 1 || n > 1000000)
            return key_error(err, d->path, e->line, "output", "dump_count",
                             "expected an integer from 1 to 1000000, got '%s'", e->value);
        s->dump_count = (unsigned)n;
    }
    const char *cycle_keys[] = {"timeseries_interval", "trace_start", "trace_end"};
    uint64_t *cycle_vals[] = {&s->timeseries_interval, &s->trace_start, &s->trace_end};
    s->timeseries_interval = 1000;
    for (unsigned k = 0; k < 3; k++) {
        e = kf_find(d, "output", cycle_keys[k]);
        int64_t n;
        bool overflow;
        if (e && (!param_parse_int64(e->value, &n, &overflow) || n < (k == 0 ? 1 : 0) ||
                  n > 9007199254740991LL))
            return key_error(err, d->path, e->line, "output", e->key,
                             "expected a number of core cycles from %d to 9007199254740991, got '%s'",
                             k == 0 ? 1 : 0, e->value);
        if (e)
            *cycle_vals[k] = (uint64_t)n;
    }
    if (s->trace_end && s->trace_end < s->trace_start) {
        e = kf_find(d, "output", "trace_end");
        return key_error(err, d->path, e->line, "output", "trace_end",
                         "expected 0 (the end) or a cycle not before trace_start (%" G_GUINT64_FORMAT
                         "), got '%s'", s->trace_start, e->value);
    }
    e = kf_find(d, "output", "trace_blocks");
    if (e) {
        s->trace_blocks = kf_split_list(e->value);
        if (!s->trace_blocks || !s->trace_blocks[0])
            return key_error(err, d->path, e->line, "output", "trace_blocks",
                             "expected a list of block names or patterns (sm0, sm1*, dram*), got '%s'", e->value);
    }
    for (unsigned k = 0; k < 4; k++) {
        e = kf_find(d, "output", output_keys[k]);
        if (e && !param_parse_bool(e->value, flags[k]))
            return key_error(err, d->path, e->line, "output", e->key,
                             "expected true or false (or yes/no, on/off, 1/0), got '%s'", e->value);
    }
    return true;
}

static bool set_name(scenario *s, const kf_doc *d, GError **err)
{
    const kf_entry *e = kf_find(d, "scenario", "name");
    if (e) {
        if (!*e->value || strchr(e->value, '/') || !strcmp(e->value, ".") || !strcmp(e->value, ".."))
            return key_error(err, d->path, e->line, "scenario", "name",
                             "expected a non-empty name without '/' (it names the results folder), got '%s'",
                             e->value);
        s->name = g_strdup(e->value);
        return true;
    }
    char *base = g_path_get_basename(d->path);
    char *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = '\0';
    s->name = base;
    return true;
}

scenario *scenario_load(const char *path, char *const *sets, GError **err)
{
    kf_doc *d = kf_doc_load(path, NULL, err);
    if (!d)
        return NULL;
    scenario *s = g_new0(scenario, 1);
    s->path = g_strdup(path);
    s->out_json = s->out_csv = true;   /* a result per point and the sweep table */
    bool ok = check_layout(d, err) && set_name(s, d, err) && load_model(s, d, err) &&
              apply_sets(s, d, sets, err) && parse_output(s, d, err) &&
              scenario_parse_launches(s, d, err) && scenario_parse_sweep(s, d, err) &&
              scenario_check_sms(s, d, err) && scenario_expand_kernel_lists(s, d, err);
    kf_doc_free(d);
    if (!ok) {
        scenario_free(s);
        return NULL;
    }
    s->seed = (uint64_t)cfg_int(s->cfg, "sim.seed");
    return s;
}

workload scenario_workload(const scenario *s)
{
    return (workload){.launches = s->launches, .nlaunches = s->nlaunches, .dump = s->dump,
                      .dump_origin = s->dump_origin, .dump_count = s->dump_count};
}

void scenario_free(scenario *s)
{
    if (!s)
        return;
    scenario_free_launches(s);
    scenario_free_sweep(s);
    config_free(s->cfg);
    g_free(s->path);
    g_free(s->name);
    g_free(s->model_path);
    g_strfreev(s->dump);
    g_strfreev(s->trace_blocks);
    g_free(s->dump_origin);
    g_free(s);
}
