/* Builds a whole chip from a configuration and a workload's launches, runs
 * it, and reports. The memory side is either the ideal block (gpu.memory =
 * ideal) or the hierarchy of L1s, crossbars, L2 slices and DRAM channels
 * (gpu.memory = caches, gpu_hier.c). */
#include <math.h>
#include <string.h>

#include "config/config_lib.h"
#include "energy/energy.h"
#include "gpu/gpu_internal.h"
#include "gpu/gpu_ports.h"
#include "simtgrid/json.h"
#include "simtgrid/memport.h"


/* "FILE:LINE: key 'clock.core_mhz'" (or "--set: ..."), as every other key's
 * errors name where the value came from. */
static char *clock_where(const config *c, const char *key)
{
    const char *origin = cfg_origin(c, key);
    if (!strcmp(origin, "default"))
        return g_strdup_printf("key '%s' (default)", key);
    return g_strdup_printf("%s: key '%s'", origin, key);
}

static bool setup_clocks(gpu *g, GError **err)
{
    static const char *const keys[CLK_COUNT] = {"clock.core_mhz", "clock.icnt_mhz", "clock.l2_mhz",
                                                "clock.dram_mhz"};
    static const char *const names[CLK_COUNT] = {"core", "icnt", "l2", "dram"};
    uint64_t khz_of[CLK_COUNT];
    for (unsigned i = 0; i < CLK_COUNT; i++) {
        double mhz = cfg_float(g->cfg, keys[i]);
        double khz = mhz * 1000.0;
        if (fabs(khz - round(khz)) > 1e-6) {
            /* The value as written (its canonical text), never rounded by %g. */
            char *where = clock_where(g->cfg, keys[i]);
            input_error(err, "%s: expected a frequency with at most 3 decimals (kHz resolution), got '%s'",
                      where, cfg_str(g->cfg, keys[i]));
            g_free(where);
            return false;
        }
        g->clk[i] = (des_clock){names[i], (uint64_t)llround(khz), 0};
        khz_of[i] = g->clk[i].khz;
    }
    if (!des_ticks_per_us(khz_of, CLK_COUNT)) {
        /* Name the clock with the finest resolution: rounding it is the fix. */
        unsigned worst = 0;
        for (unsigned i = 1; i < CLK_COUNT; i++)
            if ((khz_of[i] & -khz_of[i]) < (khz_of[worst] & -khz_of[worst]))
                worst = i;
        char *where = clock_where(g->cfg, keys[worst]);
        input_error(err, "%s: got '%s': the clock frequencies (core %s, icnt %s, l2 %s, dram %s MHz) have no "
                       "common time base fine enough to keep one simulated second exact in 2^53 ticks; "
                       "round them (e.g. to whole MHz)", where, cfg_str(g->cfg, keys[worst]),
                  cfg_str(g->cfg, keys[0]), cfg_str(g->cfg, keys[1]), cfg_str(g->cfg, keys[2]),
                  cfg_str(g->cfg, keys[3]));
        g_free(where);
        return false;
    }
    char *msg = NULL;
    g->engine = des_engine_new(g->clk, CLK_COUNT, cfg_bool(g->cfg, "sim.verbose"), &msg);
    if (!g->engine) {
        input_error(err, "clock.*: %s", msg);
        g_free(msg);
        return false;
    }
    des_set_lazy_clock(g->engine, cfg_is(g->cfg, "sim.simgrid_clock", "lazy"));
    return true;
}

static gpu_kernel *kernel_for(gpu *g, const char *path, GError **err)
{
    for (unsigned i = 0; i < g->kernels->len; i++) {
        gpu_kernel *k = g_ptr_array_index(g->kernels, i);
        if (!strcmp(k->path, path))
            return k;
    }
    /* a trace's warps replay it (docs/traces.md): its image holds no arrays */
    bool traced = atrace_is_trace_path(path);
    atrace_kernel *trace = traced ? atrace_load(path, err) : NULL;
    if (traced && !trace)
        return NULL;
    isa_program *prog = trace ? trace->stub : isa_program_load_file(path, err);
    if (!prog)
        return NULL;
    /* Launches of the same kernel file share its arrays, so a later launch
     * sees what an earlier one wrote. */
    memimg *mem = isa_program_new_memimg(prog, (uint64_t)cfg_int(g->cfg, "sim.seed"), err);
    if (!mem) {
        if (trace)
            atrace_free(trace);
        else
            isa_program_free(prog);
        return NULL;
    }
    gpu_kernel *k = g_new0(gpu_kernel, 1);
    k->path = g_strdup(path);
    k->prog = prog;
    k->mem = mem;
    k->trace = trace;
    g_ptr_array_add(g->kernels, k);
    return k;
}

static bool add_launches(gpu *g, GError **err)
{
    const workload *s = &g->w;
    g->params = g_new0(uint64_t *, s->nlaunches + 1);
    for (unsigned i = 0; i < s->nlaunches; i++) {
        const launch *l = &s->launches[i];
        gpu_kernel *k = kernel_for(g, l->kernel, err);
        if (!k)
            return false;
        if (l->sm_last >= 0 && (unsigned)l->sm_last >= g->nsms) {
            g_autofree char *group = g_strdup_printf("launch.%s", l->name);
            return key_error(err, l->origin, 0, group, "sms", "SM %d does not exist (gpu.sms = %u)", l->sm_last,
                             g->nsms);
        }
        g->params[i] = g_new0(uint64_t, l->nargs + 1);
        for (unsigned a = 0; a < l->nargs; a++)
            g->params[i][a] = (uint64_t)l->args[a];
        int after = -1;
        if (l->after)
            for (unsigned j = 0; j < s->nlaunches; j++)
                if (!strcmp(s->launches[j].name, l->after))
                    after = (int)j;
        core_launch cl = {.name = l->name, .prog = k->prog, .mem = k->mem,
                          .sm_first = l->sm_first, .sm_last = l->sm_last, .sms = l->sms, .nsms = l->nsms,
                          .start = l->start,
                          .after = after, .params = g->params[i], .nparams = l->nargs,
                          .trace = k->trace};
        memcpy(cl.grid, l->grid, sizeof cl.grid);
        memcpy(cl.block, l->block, sizeof cl.block);
        GError *e = NULL;
        if (dispatcher_add_launch(g->disp, &cl, &e) < 0) {
            input_error(err, "%s: [launch.%s]: %s", l->origin, l->name, e->message);
            g_error_free(e);
            return false;
        }
    }
    return true;
}

/* The kernel image holding array `name`, or NULL. */
static memimg *array_image(const gpu *g, const char *name, memimg_array_info *info)
{
    for (unsigned i = 0; i < g->kernels->len; i++) {
        gpu_kernel *k = g_ptr_array_index(g->kernels, i);
        if (memimg_find_array(k->mem, name, info))
            return k->mem;
    }
    return NULL;
}

static bool check_dumps(gpu *g, GError **err)
{
    for (char *const *d = g->w.dump; d && *d; d++) {
        memimg_array_info info;
        if (!array_image(g, *d, &info))
            return key_error(err, g->w.dump_origin, 0, "output", "dump",
                             "no .data array '%s' in the launched kernels", *d);
    }
    return true;
}

void gpu_write_arrays(const gpu *g, struct json_writer *w)
{
    json_begin_object(w);
    for (char *const *d = g->w.dump; d && *d; d++) {
        memimg_array_info info;
        memimg *m = array_image(g, *d, &info);
        json_key(w, *d);
        json_begin_array(w);
        uint64_t n = MIN(info.count, (uint64_t)g->w.dump_count);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = memimg_read(m, info.base + i * info.elem_bytes, info.elem_bytes);
            if (info.is_float && info.elem_bytes == 4) {
                uint32_t b = (uint32_t)v;
                float fv;
                memcpy(&fv, &b, 4);
                json_double(w, fv);
            } else if (info.is_float) {
                double dv;
                memcpy(&dv, &v, 8);
                json_double(w, dv);
            } else {
                json_uint(w, v);
            }
        }
        json_end_array(w);
    }
    json_end_object(w);
}

static bool connect_ideal(gpu *g, GError **err)
{
    unsigned lat = (unsigned)cfg_int(g->cfg, "mem.ideal_latency");
    g->ideal = ideal_mem_new(g->engine, "mem", &g->clk[CLK_CORE], lat,
                             cfg_float(g->cfg, "mem.ideal_lines_per_cycle"), g->st);
    if (!g->ideal)
        return key_error(err, cfg_origin(g->cfg, "mem.ideal_latency"), 0, NULL, "mem.ideal_latency",
                         "expected at least 2 cycles");
    unsigned req, resp;
    ideal_mem_port_latency(lat, &req, &resp);
    for (unsigned i = 0; i < g->nsms; i++) {
        char name[64];
        snprintf(name, sizeof name, "sm%u.memreq", i);
        des_port *q = des_port_new(g->engine, name, sizeof(warp_mem_req), 4,
                                   des_cycles(&g->clk[CLK_CORE], req), sm_actor(g->sms[i]),
                                   ideal_mem_actor(g->ideal));
        snprintf(name, sizeof name, "sm%u.memresp", i);
        des_port *r = des_port_new(g->engine, name, sizeof(warp_mem_resp),
                                   sm_max_outstanding(g->sms[i]),
                                   des_cycles(&g->clk[CLK_CORE], resp), ideal_mem_actor(g->ideal),
                                   sm_actor(g->sms[i]));
        if (!ideal_mem_connect(g->ideal, q, r))
            return input_error(err, "gpu.sms: the ideal memory serves at most its port limit "
                                  "(%u SMs asked)", g->nsms);
        sm_connect_mem(g->sms[i], q, r);
    }
    return true;
}

gpu *gpu_build(const config *c, const workload *w, stats *st, GError **err)
{
    gpu *g = g_new0(gpu, 1);
    g->cfg = c;
    g->w = *w;
    g->st = st;
    g->kernels = g_ptr_array_new();
    if (!setup_clocks(g, err) || !core_params_from_config(c, &g->cp, err))
        goto fail;
    g->nsms = (unsigned)cfg_int(c, "gpu.sms");
    g->sms = g_new0(sm *, g->nsms);
    for (unsigned i = 0; i < g->nsms; i++)
        g->sms[i] = sm_new(g->engine, &g->cp, i, &g->clk[CLK_CORE], st);
    bool ok = cfg_is(c, "gpu.memory", "ideal") ? connect_ideal(g, err)
                                              : (g->hier = gpu_hier_build(g, err)) != NULL;
    if (!ok)
        goto fail;
    g->disp = dispatcher_new(g->engine, &g->cp, &g->clk[CLK_CORE], g->sms, g->nsms, st);
    for (unsigned i = 0; i < g->nsms; i++)
        gpu_link_dispatch(g->disp, g->sms[i], i, &g->cp, &g->clk[CLK_CORE]);
    if (g->hier && cfg_bool(c, "l1d.launch_invalidate"))
        dispatcher_on_launch_start(g->disp, gpu_hier_invalidate_l1s, g->hier);
    if (!add_launches(g, err) || !check_dumps(g, err))
        goto fail;
    int64_t max_cycles = cfg_int(c, "sim.max_cycles");
    if (max_cycles > 0)
        des_set_limit(g->engine, des_cycles(&g->clk[CLK_CORE], (uint64_t)max_cycles));
    return g;
fail:
    /* SimGrid cannot be torn down mid-way; the process exits on this error. */
    return NULL;
}

bool gpu_run(gpu *g, gpu_result *r, GError **err)
{
    memset(r, 0, sizeof *r);
    g->end = des_run(g->engine);
    r->core_mhz = g->clk[CLK_CORE].khz / 1000.0;
    r->des = des_get_counters(g->engine);
    uint64_t last = 0;
    for (unsigned i = 0; i < dispatcher_nlaunches(g->disp); i++) {
        core_launch_result lr = dispatcher_launch_result(g->disp, i);
        if (lr.finished && lr.end_cycle > last)
            last = lr.end_cycle;
    }
    int64_t cap = cfg_int(g->cfg, "sim.max_cycles");
    uint64_t end_cycle = des_cycle_of(&g->clk[CLK_CORE], g->end);
    uint64_t left = dispatcher_unfinished(g->disp);
    bool limit = cap > 0 && end_cycle >= (uint64_t)cap;
    /* A run cut by the limit simulated up to the limit: its cycles are those,
     * not the end of the last launch that finished (0 if none did). */
    r->truncated = left && limit;
    r->unfinished_ctas = left;
    r->core_cycles = r->truncated ? end_cycle : last;
    for (unsigned i = 0; i < g->nsms; i++) {
        if (limit)
            sm_finish_at_limit(g->sms[i], end_cycle);
        sm_totals t = sm_get_totals(g->sms[i]);
        r->warp_insts += t.warp_insts;
        r->thread_insts += t.thread_insts;
        sm_finalize_stats(g->sms[i], g->st);
    }
    dispatcher_finalize_stats(g->disp, g->st);
    if (g->hier)
        gpu_hier_finish(g->hier, g->end);
    stats_derived(g->st, "chip", "core_cycles", "cycles", "core cycles until the last CTA ended",
                  (double)r->core_cycles);
    stats_derived(g->st, "chip", "warp_ipc", "warp-instructions/cycle", "warp instructions per core cycle, all SMs",
                  r->core_cycles ? (double)r->warp_insts / r->core_cycles : 0);
    stats_derived(g->st, "chip", "thread_ipc", "thread-instructions/cycle",
                  "thread instructions per core cycle, all SMs",
                  r->core_cycles ? (double)r->thread_insts / r->core_cycles : 0);
    energy_params ep;
    energy_params_read(&ep, g->cfg);
    energy_report(&ep, g->st, g->nsms, r->core_cycles, r->core_mhz);
    for (unsigned i = 0; i < g->nsms; i++)
        if (sm_error(g->sms[i])) {
            g_set_error(err, SIMTGRID_ERROR, 1, "sm%u: %s", i, sm_error(g->sms[i]));
            return false;
        }
    if (left) {
        if (limit && cfg_is(g->cfg, "sim.on_limit", "stop"))
            return true;   /* stop: results up to the limit are what was asked */
        g_set_error(err, SIMTGRID_ERROR, 1,
                    "%s at core cycle %" G_GUINT64_FORMAT " with %" G_GUINT64_FORMAT
                    " CTA(s) unfinished", limit ? "stopped by sim.max_cycles" : "deadlock: the run ended",
                    des_cycle_of(&g->clk[CLK_CORE], g->end), left);
        return false;
    }
    return true;
}

void gpu_print_summary(const gpu *g, const gpu_result *r, FILE *f)
{
    for (unsigned i = 0; i < dispatcher_nlaunches(g->disp); i++) {
        const launch *l = &g->w.launches[i];
        core_launch_result lr = dispatcher_launch_result(g->disp, i);
        fprintf(f, "  launch %-12s %s: grid %ux%ux%u, block %ux%ux%u; cycles %" G_GUINT64_FORMAT
                   " to %" G_GUINT64_FORMAT "\n",
                l->name, l->kernel, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                l->block[2], lr.start_cycle, lr.end_cycle);
    }
    double cyc = (double)r->core_cycles;
    fprintf(f, "  %" G_GUINT64_FORMAT " core cycles (%.3f us at %.0f MHz) on %u SM%s\n", r->core_cycles,
            cyc / r->core_mhz, r->core_mhz, g->nsms, g->nsms == 1 ? "" : "s");
    fprintf(f, "  %" G_GUINT64_FORMAT " warp instructions, %" G_GUINT64_FORMAT
               " thread instructions: warp IPC %.3f, thread IPC %.2f, %.1f active threads per warp instruction\n",
            r->warp_insts, r->thread_insts, cyc ? r->warp_insts / cyc : 0, cyc ? r->thread_insts / cyc : 0,
            r->warp_insts ? (double)r->thread_insts / r->warp_insts : 0);
    if (g->hier)
        gpu_hier_summary(g, f);
    else {
        uint64_t reqs = 0, lines = 0;
        stats_get_counter(g->st, "mem", "requests", &reqs);
        stats_get_counter(g->st, "mem", "lines", &lines);
        fprintf(f, "  ideal memory: %" G_GUINT64_FORMAT " warp requests, %" G_GUINT64_FORMAT " lines\n", reqs,
                lines);
    }
}

des_engine *gpu_engine(const gpu *g) { return g->engine; }
const des_clock *gpu_core_clock(const gpu *g) { return &g->clk[CLK_CORE]; }
uint64_t gpu_unfinished_ctas(const gpu *g) { return dispatcher_unfinished(g->disp); }

void gpu_keep_probe_rows(gpu *g)
{
    for (unsigned i = 0; i < g->nsms; i++)
        sm_keep_probe_rows(g->sms[i]);
}

void gpu_free(gpu *g)
{
    if (!g)
        return;
    dispatcher_free(g->disp);
    for (unsigned i = 0; i < g->nsms; i++)
        sm_free(g->sms[i]);
    g_free(g->sms);
    ideal_mem_free(g->ideal);
    gpu_hier_free(g->hier);
    for (unsigned i = 0; i < g->kernels->len; i++) {
        gpu_kernel *k = g_ptr_array_index(g->kernels, i);
        memimg_free(k->mem);
        if (k->trace)
            atrace_free(k->trace);
        else
            isa_program_free(k->prog);
        g_free(k->path);
        g_free(k);
    }
    g_ptr_array_free(g->kernels, TRUE);
    if (g->params)
        for (unsigned i = 0; g->params[i]; i++)
            g_free(g->params[i]);
    g_free(g->params);
    des_engine_free(g->engine);
    g_free(g);
}
