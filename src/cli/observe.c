/* Watching a point while it runs, through engine probes (des_add_probe),
 * which read counters and change nothing simulated:
 *  - the time series: every N core cycles, one CSV row of the key counters'
 *    increments over the interval ([output] timeseries, docs/statistics.md);
 *  - the progress line: on a terminal, one line updated in place with the
 *    simulated cycles, warp instructions, simulation rate, elapsed time and
 *    the share of the launches' CTAs finished. It goes to stderr and never
 *    into a result file. */
#include <stdio.h>
#include <unistd.h>

#include "cli/runner.h"
#include "simtgrid/gpu.h"

/* The key counters: column, blocks (glob), counter. */
static const struct {
    const char *column, *blocks, *name;
} series_cols[] = {
    {"warp_instructions", "sm*.sched*", "issued"},
    {"stall_memory_cycles", "sm*.sched*", "stall_memory"},
    {"l1d_accesses", "sm*.l1d", "accesses"},
    {"l1d_misses", "sm*.l1d", "misses"},
    {"l2_accesses", "l2s*", "accesses"},
    {"l2_misses", "l2s*", "misses"},
    {"dram_reads", "dram*", "reads"},
    {"dram_writes", "dram*", "writes"},
    {"dram_row_hits", "dram*", "row_hits"},
    {"ideal_mem_requests", "mem", "requests"},
};
#define NCOLS G_N_ELEMENTS(series_cols)

struct observer {
    gpu *g;
    const stats *st;
    const des_clock *clk;
    FILE *series;
    uint64_t last[NCOLS];
    uint64_t last_cycle;
    /* progress */
    bool progress;
    unsigned point, npoints;
    uint64_t total_ctas;
    gint64 t0, last_print;
};

static void series_row(observer *o, uint64_t cycle)
{
    if (cycle <= o->last_cycle && cycle)
        return;
    fprintf(o->series, "%" G_GUINT64_FORMAT, cycle);
    for (unsigned i = 0; i < NCOLS; i++) {
        uint64_t v = stats_sum(o->st, series_cols[i].blocks, series_cols[i].name);
        fprintf(o->series, ",%" G_GUINT64_FORMAT, v - o->last[i]);
        o->last[i] = v;
    }
    fputc('\n', o->series);
    o->last_cycle = cycle;
}

static void on_interval(void *ctx, des_time t)
{
    observer *o = ctx;
    series_row(o, des_cycle_of(o->clk, t));
}

static void print_progress(observer *o, uint64_t cycle, bool last)
{
    gint64 now = g_get_monotonic_time();
    double el = (now - o->t0) / 1e6;
    uint64_t wi = stats_sum(o->st, "sm*.sched*", "issued");
    uint64_t left = gpu_unfinished_ctas(o->g);
    double pct = o->total_ctas ? 100.0 * (double)(o->total_ctas - left) / (double)o->total_ctas : 0;
    fprintf(stderr, "\r\033[Kpoint %u/%u: %" G_GUINT64_FORMAT " cycles, %" G_GUINT64_FORMAT
            " warp instructions, %.3g cycles/s, %.1f s, %.1f%% of CTAs done%s", o->point + 1, o->npoints,
            cycle, wi, el > 0 ? cycle / el : 0, el, pct, last ? "\r\033[K" : "");
    fflush(stderr);
    o->last_print = now;
}

static void on_tick(void *ctx, des_time t)
{
    observer *o = ctx;
    /* At most four updates a second: the terminal is not the bottleneck. */
    if (g_get_monotonic_time() - o->last_print >= 250000)
        print_progress(o, des_cycle_of(o->clk, t), false);
}

observer *observe_start(gpu *g, const stats *st, const scenario *s, unsigned point, FILE *series,
                        uint64_t interval, bool progress)
{
    observer *o = g_new0(observer, 1);
    o->g = g;
    o->st = st;
    o->clk = gpu_core_clock(g);
    o->series = series;
    o->point = point;
    o->npoints = scenario_npoints(s);
    o->progress = progress;
    for (unsigned i = 0; i < s->nlaunches; i++) {
        const launch *l = &s->launches[i];
        o->total_ctas += (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    }
    if (series) {
        fputs("cycle", series);
        for (unsigned i = 0; i < NCOLS; i++)
            fprintf(series, ",%s", series_cols[i].column);
        fputc('\n', series);
        des_add_probe(gpu_engine(g), des_cycles(o->clk, interval), on_interval, o);
        gpu_keep_probe_rows(g);
    }
    if (progress) {
        o->t0 = o->last_print = g_get_monotonic_time();
        /* Checked every 2^16 core cycles: a clock read per probe, no more. */
        des_add_probe(gpu_engine(g), des_cycles(o->clk, 1u << 16), on_tick, o);
    }
    return o;
}

void observe_finish(observer *o, uint64_t end_cycle)
{
    if (!o)
        return;
    if (o->series)
        series_row(o, end_cycle);   /* the last, partial interval */
    if (o->progress)
        print_progress(o, end_cycle, true);
    g_free(o);
}

bool observe_progress_wanted(bool quiet)
{
    return !quiet && isatty(STDERR_FILENO);
}
