/* The statistics registry: blocks register pointers to their counters once,
 * with a name, unit and description; nothing here runs while simulating
 * except stats_series_push. */
#include "stats_internal.h"

#include <math.h>
#include <string.h>

static void entry_free(gpointer p)
{
    stat_entry *e = p;
    g_free(e->name);
    g_free(e->unit);
    g_free(e->desc);
    g_free(e);
}

static void block_free(gpointer p)
{
    stat_block *b = p;
    g_hash_table_destroy(b->by_name);
    g_ptr_array_free(b->entries, TRUE);
    g_free(b->path);
    g_free(b);
}

static void series_free(gpointer p)
{
    stats_series *ts = p;
    g_free(ts->values);
    g_free(ts);
}

stats *stats_new(void)
{
    stats *s = g_new0(stats, 1);
    s->blocks = g_ptr_array_new_with_free_func(block_free);
    s->by_path = g_hash_table_new(g_str_hash, g_str_equal);
    s->series = g_ptr_array_new_with_free_func(series_free);
    return s;
}

void stats_free(stats *s)
{
    if (!s)
        return;
    g_hash_table_destroy(s->by_path);
    g_ptr_array_free(s->blocks, TRUE);
    g_ptr_array_free(s->series, TRUE);
    g_free(s);
}

static stat_block *block_find(const stats *s, const char *path)
{
    return g_hash_table_lookup(s->by_path, path);
}

static stat_entry *entry_find(const stats *s, const char *path, const char *name)
{
    if (!s || !path || !name)
        return NULL;
    stat_block *b = block_find(s, path);
    return b ? g_hash_table_lookup(b->by_name, name) : NULL;
}

/* The entry for block/name with fresh unit and description: an existing one
 * (kept at its position, so replacing never reorders output) or a new one at
 * the end of its block. The caller sets kind and value. */
static stat_entry *entry_put(stats *s, const char *path, const char *name, const char *unit,
                             const char *desc)
{
    stat_block *b = block_find(s, path);
    if (!b) {
        b = g_new0(stat_block, 1);
        b->path = g_strdup(path);
        b->entries = g_ptr_array_new_with_free_func(entry_free);
        b->by_name = g_hash_table_new(g_str_hash, g_str_equal);
        g_ptr_array_add(s->blocks, b);
        g_hash_table_insert(s->by_path, b->path, b);
    }
    stat_entry *e = g_hash_table_lookup(b->by_name, name);
    if (!e) {
        e = g_new0(stat_entry, 1);
        e->name = g_strdup(name);
        g_ptr_array_add(b->entries, e);
        g_hash_table_insert(b->by_name, e->name, e);
    }
    g_free(e->unit);
    g_free(e->desc);
    e->unit = g_strdup(unit ? unit : "");
    e->desc = g_strdup(desc ? desc : "");
    return e;
}

void stats_counter(stats *s, const char *block, const char *name, const char *unit,
                   const char *desc, const uint64_t *value)
{
    g_return_if_fail(s && block && name && value);
    stat_entry *e = entry_put(s, block, name, unit, desc);
    e->kind = STAT_COUNTER;
    e->v.counter = value;
}

void stats_histogram(stats *s, const char *block, const char *name, const char *unit,
                     const char *desc, const stats_hist *h)
{
    g_return_if_fail(s && block && name && h);
    stat_entry *e = entry_put(s, block, name, unit, desc);
    e->kind = STAT_HISTOGRAM;
    e->v.hist = h;
}

void stats_derived(stats *s, const char *block, const char *name, const char *unit,
                   const char *desc, double value)
{
    g_return_if_fail(s && block && name);
    stat_entry *e = entry_put(s, block, name, unit, desc);
    e->kind = STAT_DERIVED;
    e->v.derived = value;
}

/* A series replaced by a later registration stays allocated until
 * stats_free, so a block still holding its pointer never writes freed
 * memory. */
stats_series *stats_series_new(stats *s, const char *block, const char *name, const char *unit,
                               const char *desc, double interval)
{
    g_return_val_if_fail(s && block && name, NULL);
    stats_series *ts = g_new0(stats_series, 1);
    ts->interval = interval;
    g_ptr_array_add(s->series, ts);
    stat_entry *e = entry_put(s, block, name, unit, desc);
    e->kind = STAT_SERIES;
    e->v.series = ts;
    return ts;
}

void stats_series_push(stats_series *ts, double value)
{
    if (!ts)
        return;
    if (ts->len == ts->cap) {          /* doubling: amortised O(1) per sample */
        ts->cap = ts->cap ? 2 * ts->cap : 64;
        ts->values = g_renew(double, ts->values, ts->cap);
    }
    ts->values[ts->len++] = value;
}

size_t stats_series_len(const stats_series *ts)
{
    return ts ? ts->len : 0;
}

const double *stats_series_values(const stats_series *ts)
{
    return ts ? ts->values : NULL;
}

bool stats_get_counter(const stats *s, const char *block, const char *name, uint64_t *out)
{
    const stat_entry *e = entry_find(s, block, name);
    if (!e || e->kind != STAT_COUNTER)
        return false;
    if (out)
        *out = *e->v.counter;
    return true;
}

bool stats_get_derived(const stats *s, const char *block, const char *name, double *out)
{
    const stat_entry *e = entry_find(s, block, name);
    if (!e || e->kind != STAT_DERIVED)
        return false;
    if (out)
        *out = e->v.derived;
    return true;
}

uint64_t stats_sum(const stats *s, const char *block_glob, const char *name)
{
    if (!s || !block_glob || !name)
        return 0;
    GPatternSpec *glob = g_pattern_spec_new(block_glob);
    uint64_t sum = 0;
    for (guint i = 0; i < s->blocks->len; i++) {
        const stat_block *b = g_ptr_array_index(s->blocks, i);
        if (!g_pattern_spec_match_string(glob, b->path))
            continue;
        const stat_entry *e = g_hash_table_lookup(b->by_name, name);
        if (e && e->kind == STAT_COUNTER)
            sum += *e->v.counter;
    }
    g_pattern_spec_free(glob);
    return sum;
}

void stats_set_trace(stats *s, struct trace *t) { s->trace = t; }
struct trace *stats_trace(const stats *s) { return s ? s->trace : NULL; }
