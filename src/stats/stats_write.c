/* Results output: the registry as one JSON value, and as CSV for sweeps.
 * Both walk blocks and entries in registration order, never a hash table,
 * so identical runs write identical bytes. */
#include "simtgrid/json.h"
#include "stats_internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static void write_hist(json_writer *w, const stats_hist *h)
{
    char label[STATS_HIST_LABEL_MAX];
    json_begin_object(w);
    json_key(w, "buckets");
    json_begin_array(w);
    for (unsigned i = 0; i < h->n && i < STATS_HIST_MAX; i++) {
        stats_hist_label(h, i, label, sizeof label);
        json_begin_object(w);
        json_kv_string(w, "range", label);
        json_kv_uint(w, "count", h->count[i]);
        json_end_object(w);
    }
    json_end_array(w);
    json_kv_uint(w, "overflow", h->overflow);
    json_kv_uint(w, "samples", h->samples);
    json_kv_double(w, "mean", stats_hist_mean(h));   /* null when empty */
    json_end_object(w);
}

static void write_series(json_writer *w, const stats_series *ts)
{
    json_begin_object(w);
    json_kv_double(w, "interval", ts->interval);
    json_key(w, "values");
    json_begin_array(w);
    for (size_t i = 0; i < ts->len; i++)
        json_double(w, ts->values[i]);
    json_end_array(w);
    json_end_object(w);
}

static void write_value(json_writer *w, const stat_entry *e)
{
    switch (e->kind) {
    case STAT_COUNTER:
        json_uint(w, *e->v.counter);
        break;
    case STAT_HISTOGRAM:
        write_hist(w, e->v.hist);
        break;
    case STAT_DERIVED:
        json_double(w, e->v.derived);
        break;
    case STAT_SERIES:
        write_series(w, e->v.series);
        break;
    }
}

/* An entry's description in the "schema" section. */
static void write_schema(json_writer *w, const stat_entry *e)
{
    json_begin_object(w);
    json_kv_string(w, "unit", e->unit);
    json_kv_string(w, "desc", e->desc);
    json_end_object(w);
}

/* Section `name`: {block: {entry: what(entry)}} over every block. */
static void write_section(const stats *s, json_writer *w, const char *name,
                          void (*what)(json_writer *, const stat_entry *))
{
    json_key(w, name);
    json_begin_object(w);
    for (guint i = 0; s && i < s->blocks->len; i++) {
        const stat_block *b = g_ptr_array_index(s->blocks, i);
        json_key(w, b->path);
        json_begin_object(w);
        for (guint j = 0; j < b->entries->len; j++) {
            const stat_entry *e = g_ptr_array_index(b->entries, j);
            json_key(w, e->name);
            what(w, e);
        }
        json_end_object(w);
    }
    json_end_object(w);
}

void stats_write_json_to(const stats *s, json_writer *w)
{
    json_begin_object(w);
    write_section(s, w, "blocks", write_value);
    write_section(s, w, "schema", write_schema);
    json_end_object(w);
}

void stats_write_json(const stats *s, FILE *f, int indent)
{
    json_writer w;
    json_init(&w, f, indent);
    stats_write_json_to(s, &w);
}

void stats_write_csv_field(FILE *f, const char *field)
{
    if (!field)
        return;
    if (!strpbrk(field, ",\"\r\n")) {
        fputs(field, f);
        return;
    }
    putc('"', f);
    for (const char *p = field; *p; p++) {
        if (*p == '"')
            putc('"', f);
        putc(*p, f);
    }
    putc('"', f);
}

static bool csv_column(const stat_entry *e)
{
    return e->kind == STAT_COUNTER || e->kind == STAT_DERIVED;
}

void stats_write_csv_header(const stats *s, FILE *f)
{
    bool first = true;
    for (guint i = 0; s && i < s->blocks->len; i++) {
        const stat_block *b = g_ptr_array_index(s->blocks, i);
        for (guint j = 0; j < b->entries->len; j++) {
            const stat_entry *e = g_ptr_array_index(b->entries, j);
            if (!csv_column(e))
                continue;
            if (!first)
                putc(',', f);
            first = false;
            char *column = g_strconcat(b->path, ".", e->name, NULL);
            stats_write_csv_field(f, column);
            g_free(column);
        }
    }
    putc('\n', f);
}

void stats_write_csv_row(const stats *s, FILE *f)
{
    bool first = true;
    char buf[JSON_DOUBLE_BUF];
    for (guint i = 0; s && i < s->blocks->len; i++) {
        const stat_block *b = g_ptr_array_index(s->blocks, i);
        for (guint j = 0; j < b->entries->len; j++) {
            const stat_entry *e = g_ptr_array_index(b->entries, j);
            if (!csv_column(e))
                continue;
            if (!first)
                putc(',', f);
            first = false;
            if (e->kind == STAT_COUNTER)
                fprintf(f, "%" PRIu64, *e->v.counter);
            else if (isfinite(e->v.derived)) {
                json_format_double(buf, e->v.derived);
                fputs(buf, f);
            }
        }
    }
    putc('\n', f);
}
