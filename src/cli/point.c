/* One sweep point, in a child process of the runner: build the chip,
 * simulate, write the result document and the point's CSV row. Each file is
 * written under a temporary name in DIR/.simtgrid and renamed into place when
 * complete, so a point stopped half-way leaves no result that looks whole. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/runner.h"
#include "simtgrid/gpu.h"
#include "simtgrid/json.h"
#include "simtgrid/trace.h"

/* CPU time of this process: on a shared machine it measures the simulation
 * where wall time also counts the other processes' turns. */
static double cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_document(const scenario *s, unsigned i, const config *c, stats *st,
                           const gpu *g, const gpu_result *r, double wall, double cpu,
                           FILE *f)
{
    json_writer w;
    json_init(&w, f, 1);
    json_begin_object(&w);
    json_kv_string(&w, "simtgrid", SIMTGRID_VERSION);
    json_key(&w, "scenario");
    json_begin_object(&w);
    json_kv_string(&w, "name", s->name);
    json_kv_string(&w, "file", s->path);
    json_kv_string(&w, "model", s->model_path);
    json_kv_uint(&w, "point", i);
    json_kv_uint(&w, "points", scenario_npoints(s));
    char *label = scenario_point_label(s, i);
    json_kv_string(&w, "sweep", label);
    g_free(label);
    json_end_object(&w);
    json_key(&w, "config");
    config_write_json(c, &w);
    json_key(&w, "result");
    json_begin_object(&w);
    json_kv_uint(&w, "core_cycles", r->core_cycles);
    json_kv_uint(&w, "warp_instructions", r->warp_insts);
    json_kv_uint(&w, "thread_instructions", r->thread_insts);
    json_kv_double(&w, "warp_ipc", r->core_cycles ? (double)r->warp_insts / r->core_cycles : 0);
    json_kv_double(&w, "thread_ipc", r->core_cycles ? (double)r->thread_insts / r->core_cycles : 0);
    json_kv_double(&w, "simulated_us", r->core_cycles / r->core_mhz);
    /* Stopped by sim.max_cycles with work left: every figure covers only
     * the cycles simulated. */
    json_kv_bool(&w, "truncated", r->truncated);
    json_kv_uint(&w, "unfinished_ctas", r->unfinished_ctas);
    json_end_object(&w);
    if (s->dump) {
        json_key(&w, "arrays");
        gpu_write_arrays(g, &w);
    }
    json_key(&w, "stats");
    stats_write_json_to(st, &w);
    /* The only part that differs between identical runs. */
    json_key(&w, "host");
    json_begin_object(&w);
    json_kv_double(&w, "wall_seconds", wall);
    json_kv_double(&w, "cpu_seconds", cpu);
    json_kv_uint(&w, "simgrid_wakeups", r->des.wakeups);
    json_kv_uint(&w, "simgrid_timestamps", r->des.timestamps);
    json_kv_uint(&w, "block_events", r->des.events);
    json_kv_uint(&w, "inline_runs", r->des.inline_runs);
    json_end_object(&w);
    json_end_object(&w);
    json_end(&w);
}

/* Report a failure on stderr and in DIR/.simtgrid/BASE.err, where the runner
 * picks it up for the manifest. */
static int fail(const point_opts *o, const char *base, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "simtgrid: %s\n", msg);
    if (o->dir) {
        char *p = g_strdup_printf("%s/.simtgrid/%s.err", o->dir, base);
        g_file_set_contents(p, msg, -1, NULL);
        g_free(p);
    }
    g_free(msg);
    return rc;
}

/* Write `tmp` with `emit`, then rename it to `path`. */
typedef void (*emit_fn)(FILE *f, void *ctx);
static bool write_file(const char *tmp, const char *path, emit_fn emit, void *ctx, char **why)
{
    FILE *f = fopen(tmp, "w");
    if (!f) {
        *why = g_strdup_printf("cannot write %s: %s", tmp, g_strerror(errno));
        return false;
    }
    emit(f, ctx);
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok || g_rename(tmp, path) != 0) {
        *why = g_strdup_printf("cannot write %s: %s", path, g_strerror(errno));
        g_unlink(tmp);
        return false;
    }
    return true;
}

typedef struct doc_ctx {
    const scenario *s;
    unsigned i;
    const config *c;
    stats *st;
    const gpu *g;
    const gpu_result *r;
    double wall, cpu;
} doc_ctx;

static void emit_doc(FILE *f, void *p)
{
    doc_ctx *d = p;
    write_document(d->s, d->i, d->c, d->st, d->g, d->r, d->wall, d->cpu, f);
}

static void emit_row(FILE *f, void *p)
{
    stats_write_csv_header(p, f);
    stats_write_csv_row(p, f);
}

static void print_summary(const scenario *s, unsigned i, const gpu *g, const gpu_result *r,
                          double wall, const char *json)
{
    /* One write, so that points running side by side do not interleave. */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char *label = scenario_point_label(s, i);
    fprintf(m, "== %s, point %u of %u%s%s\n", s->name, i + 1, scenario_npoints(s), *label ? ": " : "",
            label);
    g_free(label);
    gpu_print_summary(g, r, m);
    double sim_s = r->core_cycles / r->core_mhz / 1e6;
    fprintf(m, "  simulation rate: %.3g warp-instructions/s, %.3g thread-instructions/s, "
               "%.3g cycles/s; %.3g s wall, slowdown %.3gx vs the modelled silicon\n",
            r->warp_insts / wall, r->thread_insts / wall, r->core_cycles / wall, wall,
            sim_s > 0 ? wall / sim_s : 0);
    if (json)
        fprintf(m, "  results: %s\n", json);
    fclose(m);
    fwrite(buf, 1, len, stdout);
    fflush(stdout);
    free(buf);
}

/* The optional outputs of a point: trace and time series, written under
 * temporary names in DIR/.simtgrid and renamed into DIR when complete. */
typedef struct extras {
    char *trace_tmp, *trace_path, *series_tmp, *series_path;
    trace *tr;
    FILE *series;
} extras;

static bool extras_open(extras *x, const scenario *s, const point_opts *o, const char *base, stats *st,
                        char **why)
{
    memset(x, 0, sizeof *x);
    if (o->check_only || !o->dir)
        return true;
    if (s->out_trace) {
        x->trace_tmp = g_strdup_printf("%s/.simtgrid/%s.trace.json.tmp", o->dir, base);
        x->trace_path = g_strdup_printf("%s/%s.trace.json", o->dir, base);
        GError *err = NULL;
        x->tr = trace_open(x->trace_tmp, &err);
        if (!x->tr) {
            *why = g_strdup(err->message);
            g_error_free(err);
            return false;
        }
        trace_set_blocks(x->tr, s->trace_blocks);
        stats_set_trace(st, x->tr);
    }
    if (s->out_timeseries) {
        x->series_tmp = g_strdup_printf("%s/.simtgrid/%s.series.csv.tmp", o->dir, base);
        x->series_path = g_strdup_printf("%s/%s.series.csv", o->dir, base);
        x->series = fopen(x->series_tmp, "w");
        if (!x->series) {
            *why = g_strdup_printf("cannot write %s: %s", x->series_tmp, g_strerror(errno));
            return false;
        }
    }
    return true;
}

/* Close (and, when `keep`, rename into place) the extras; false with *why
 * when a write failed. */
static bool extras_close(extras *x, bool keep, char **why)
{
    bool ok = true;
    GError *err = NULL;
    if (x->tr && !trace_close(x->tr, &err)) {
        if (keep)
            *why = g_strdup(err->message);
        g_error_free(err);
        ok = false;
    }
    if (x->series) {
        bool bad = ferror(x->series);
        if ((fclose(x->series) != 0 || bad) && ok) {
            if (keep)
                *why = g_strdup_printf("cannot write %s: %s", x->series_tmp, g_strerror(errno));
            ok = false;
        }
    }
    keep = keep && ok;
    if (x->tr && !(keep && g_rename(x->trace_tmp, x->trace_path) == 0))
        g_unlink(x->trace_tmp);
    if (x->series && !(keep && g_rename(x->series_tmp, x->series_path) == 0))
        g_unlink(x->series_tmp);
    g_free(x->trace_tmp), g_free(x->trace_path), g_free(x->series_tmp), g_free(x->series_path);
    return ok;
}

int point_run(const scenario *s, const plan *pl, unsigned i, const point_opts *o)
{
    const char *base = pl->p[i].base;
    GError *err = NULL;
    config *c = scenario_point(s, i, &err);
    if (!c)
        return fail(o, base, 2, "%s", err->message);
    stats *st = stats_new();
    char *why = NULL;
    extras x;
    if (!extras_open(&x, s, o, base, st, &why)) {
        extras_close(&x, false, &why);
        return fail(o, base, 2, "%s", why);
    }
    workload w = scenario_workload(s);
    gpu *g = gpu_build(c, &w, st, &err);
    if (!g) {
        extras_close(&x, false, &why);
        return fail(o, base, 2, "%s", err->message);
    }
    if (o->check_only)
        return 0;
    const des_clock *clk = gpu_core_clock(g);
    double us_per_cycle = (double)clk->period / (double)des_ticks_per_us_of(gpu_engine(g));
    /* Cycles trace_start to trace_end, both included. */
    trace_set_window(x.tr, s->trace_start * us_per_cycle,
                     s->trace_end ? (s->trace_end + 1) * us_per_cycle : G_MAXDOUBLE);
    observer *obs = observe_start(g, st, s, i, x.series, s->timeseries_interval, o->progress);
    gpu_result r;
    gint64 t0 = g_get_monotonic_time();
    double cpu0 = cpu_seconds();
    bool ok = gpu_run(g, &r, &err);
    double wall = (g_get_monotonic_time() - t0) / 1e6;
    double cpu = cpu_seconds() - cpu0;
    observe_finish(obs, des_cycle_of(clk, des_now(gpu_engine(g))));
    if (!ok) {
        extras_close(&x, false, &why);
        return fail(o, base, 1, "%s: %s", s->path, err->message);
    }
    if (r.truncated)
        fprintf(stderr, "simtgrid: warning: %s point %u stopped by sim.max_cycles = %s with %" G_GUINT64_FORMAT
                " CTA(s) unfinished: its results cover %" G_GUINT64_FORMAT " cycles and are marked "
                "\"truncated\"\n", s->name, i, cfg_str(c, "sim.max_cycles"), r.unfinished_ctas,
                r.core_cycles);
    char *json = g_strdup_printf("%s/%s.json", o->dir, base);
    char *tmp = g_strdup_printf("%s/.simtgrid/%s.json.tmp", o->dir, base);
    char *row = g_strdup_printf("%s/.simtgrid/%s.csv", o->dir, base);
    char *rowtmp = g_strdup_printf("%s.tmp", row);
    doc_ctx d = {s, i, c, st, g, &r, wall, cpu};
    /* Extras and the row first: a point counts as done once its document is
     * in place. */
    ok = extras_close(&x, true, &why) && write_file(rowtmp, row, emit_row, st, &why) &&
         (!s->out_json || write_file(tmp, json, emit_doc, &d, &why));
    int rc = ok ? 0 : fail(o, base, 2, "%s", why);
    if (ok && !o->quiet)
        print_summary(s, i, g, &r, wall, s->out_json ? json : NULL);
    g_free(why);
    g_free(json);
    g_free(tmp);
    g_free(row);
    g_free(rowtmp);
    return rc;
}
