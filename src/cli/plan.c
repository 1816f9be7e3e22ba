/* The plan of a run: each sweep point's file stem, label and configuration
 * hash. The hash covers everything a point's result depends on (the program
 * version, the launches with their kernels' text, the dumped arrays, and the
 * whole resolved configuration of the point), so `--resume` reruns a point
 * whenever any of it changed. */
#include <string.h>

#include "cli/runner.h"
#include "simtgrid/input.h"
#include "simtgrid/json.h"

const char *point_state_name(point_state st)
{
    return st == POINT_DONE ? "done" : st == POINT_FAILED ? "failed" : "missing";
}

static void hash_str(GChecksum *h, const char *s)
{
    /* With the terminating NUL, so "ab"+"c" and "a"+"bc" differ. */
    g_checksum_update(h, (const guchar *)(s ? s : ""), (gssize)strlen(s ? s : "") + 1);
}

/* The parts common to every point: launches and kernels. */
static bool hash_launches(GChecksum *h, const scenario *s, GError **err)
{
    hash_str(h, "simtgrid " SIMTGRID_VERSION);
    hash_str(h, s->name);
    for (unsigned i = 0; i < s->nlaunches; i++) {
        const launch *l = &s->launches[i];
        char *text = NULL;
        size_t len = 0;
        if (!input_read(l->kernel, INPUT_MAX_BYTES, &text, &len, err))
            return false;
        g_checksum_update(h, (const guchar *)text, (gssize)len);
        g_free(text);
        GString *d = g_string_new(NULL);
        g_string_append_printf(d, "%s|%u,%u,%u|%u,%u,%u|%" G_GUINT64_FORMAT "|%s|", l->name,
                               l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                               l->block[2], l->start, l->after ? l->after : "");
        for (unsigned k = 0; k < l->nsms; k++)
            g_string_append_printf(d, "%u,", l->sms[k]);
        g_string_append_c(d, '|');
        for (unsigned k = 0; k < l->nargs; k++)
            g_string_append_printf(d, "%" G_GINT64_FORMAT ",", l->args[k]);
        hash_str(h, d->str);
        g_string_free(d, TRUE);
    }
    for (unsigned i = 0; s->dump && s->dump[i]; i++)
        hash_str(h, s->dump[i]);
    /* The outputs asked for: a point resumed must have them all. */
    char *outs = g_strdup_printf("%u|%d%d%d|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT,
                                 s->dump_count, s->out_json, s->out_trace, s->out_timeseries,
                                 s->timeseries_interval, s->trace_start, s->trace_end);
    hash_str(h, outs);
    g_free(outs);
    for (unsigned i = 0; s->trace_blocks && s->trace_blocks[i]; i++)
        hash_str(h, s->trace_blocks[i]);
    return true;
}

static char *hash_config(GChecksum *common, const config *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    json_init(&w, f, 0);
    config_write_json(c, &w);
    json_end(&w);
    fclose(f);
    GChecksum *h = g_checksum_copy(common);
    g_checksum_update(h, (const guchar *)buf, (gssize)len);
    char *hex = g_strdup(g_checksum_get_string(h));
    g_checksum_free(h);
    free(buf);
    return hex;
}

plan *plan_build(const scenario *s, GError **err)
{
    GChecksum *common = g_checksum_new(G_CHECKSUM_SHA256);
    if (!hash_launches(common, s, err)) {
        g_checksum_free(common);
        return NULL;
    }
    plan *pl = g_new0(plan, 1);
    pl->name = g_strdup(s->name);
    pl->json = s->out_json;
    pl->csv = s->out_csv;
    pl->n = scenario_npoints(s);
    pl->p = g_new0(plan_point, pl->n);
    for (unsigned i = 0; i < pl->n; i++) {
        plan_point *p = &pl->p[i];
        p->base = pl->n > 1 ? g_strdup_printf("%s-p%u", s->name, i) : g_strdup(s->name);
        p->label = scenario_point_label(s, i);
        config *c = scenario_point(s, i, err);
        if (!c) {
            plan_free(pl);
            g_checksum_free(common);
            return NULL;
        }
        p->hash = hash_config(common, c);
        config_free(c);
    }
    g_checksum_free(common);
    return pl;
}

void plan_free(plan *pl)
{
    if (!pl)
        return;
    for (unsigned i = 0; i < pl->n; i++) {
        g_free(pl->p[i].base);
        g_free(pl->p[i].label);
        g_free(pl->p[i].hash);
        g_free(pl->p[i].error);
    }
    g_free(pl->p);
    g_free(pl->name);
    g_free(pl);
}
