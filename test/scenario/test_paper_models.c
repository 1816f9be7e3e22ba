/* The machine models of the four papers (models/lwm*.ini, dwf.ini, dws.ini,
 * fermi-memdiv.ini; docs/models.md) and their example scenarios
 * (workloads/examples/{lwm,dwf,dws,fermi}/).
 *
 * Model tests: each model loads, and a handful of its values and of the
 * quantities derived from them equal what the paper states (worked out in
 * each test's comment from the paper's table, not from the model file).
 *
 * Scenario tests: each example runs end to end and shows numbers that follow
 * by hand from the kernel and the machine. A sweep point runs in a child
 * process (one simulation engine per process), which sends its totals back
 * through a pipe. */
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scen_test_util.h"
#include "simtgrid/gpu.h"
#include "simtgrid/scenario.h"
#include "simtgrid/stats.h"

/* ---------------------------------------------------------------- models */

static config *load_model(const char *name)
{
    char *rel = g_strdup_printf("models/%s", name);
    char *path = src_path(rel);
    config *c = config_new();
    GError *err = NULL;
    bool ok = model_load(c, path, &err);
    cr_assert(ok, "%s: %s", path, err ? err->message : "?");
    g_free(rel);
    g_free(path);
    return c;
}

#define I(key) cfg_int(c, key)
#define S(key) cfg_str(c, key)

/* total bytes of a cache level: sets x ways x line (per slice) */
static int64_t cache_bytes(const config *c, const char *lvl)
{
    char k1[32], k2[32], k3[32];
    snprintf(k1, sizeof k1, "%s.sets", lvl);
    snprintf(k2, sizeof k2, "%s.ways", lvl);
    snprintf(k3, sizeof k3, "%s.line_bytes", lvl);
    return cfg_int(c, k1) * cfg_int(c, k2) * cfg_int(c, k3);
}

/* peak DRAM bandwidth of the chip in MB/s: channels x bytes per DRAM clock x MHz */
static double dram_peak_mbs(const config *c)
{
    return (double)I("dram.channels") * (double)I("dram.bus_bytes") * cfg_float(c, "clock.dram_mhz");
}

/* [P] Table 1: 1 core of 32 warps x 32 threads (1024), 7-stage pipeline,
 * 64 KB register file, 128 KB private memory, 32 KB 4-way L1 with 128 B
 * lines and 1-cycle hits, no L2, 8 banks, 100/300-cycle row hit/conflict,
 * FCFS, 32 GB/s. */
Test(paper_models, lwm_paper_machine)
{
    config *c = load_model("lwm.ini");
    cr_expect_eq(I("gpu.sms"), 1);
    cr_expect_eq(I("core.max_warps") * I("core.warp_size"), 1024);
    cr_expect_eq(I("core.max_threads"), 1024);
    cr_expect_eq(I("core.simd_width"), 32);
    cr_expect_eq(I("core.pipeline_depth"), 7);
    cr_expect_str_eq(S("core.discipline"), "barrel");
    /* 16 registers x 4 B x 1024 threads = 64 KB */
    cr_expect_eq(I("core.regs") * 4, 64 * 1024);
    cr_expect_eq(I("core.regs") / I("core.max_threads"), 16);
    cr_expect_eq(I("core.smem_bytes"), 128 * 1024);
    /* 2Lev: groups of 8 -> 32 / 8 = 4 fetch groups */
    cr_expect_eq(I("core.max_warps") / I("core.fetch_group"), 4);
    /* [P] 3.2: switch when no warp of the group can be scheduled; the next
     * group that can is selected (models/lwm.ini says why) */
    cr_expect_str_eq(S("core.2lev_trigger"), "nofetch");
    cr_expect_str_eq(S("core.2lev_select"), "fetchable");
    /* 64 sets x 4 ways x 128 B = 32 KB */
    cr_expect_eq(cache_bytes(c, "l1d"), 32 * 1024);
    cr_expect_eq(I("l1d.ways"), 4);
    cr_expect_eq(I("l1d.hit_latency"), 1);
    cr_expect_str_eq(S("l2.enabled"), "false");
    cr_expect_str_eq(S("gpu.memory"), "caches");
    cr_expect_eq(I("dram.channels"), 1);
    cr_expect_eq(I("dram.banks"), 8);
    cr_expect_eq(I("dram.row_bytes"), 4096);
    cr_expect_str_eq(S("dram.timing"), "simple");
    cr_expect_eq(I("dram.row_hit_latency"), 100);
    cr_expect_eq(I("dram.row_conflict_latency"), 300);
    /* the hint hold is the break-even conflict - hit = 300 - 100 */
    cr_expect_eq(I("dram.hint_hold_cycles"), 300 - 100);
    cr_expect_str_eq(S("dram.sched"), "fcfs");
    /* 32 GB/s = 32,000 MB/s; with the DRAM at the core clock, a 128 B line
     * holds the bus 128 / 32 = 4 cycles */
    cr_expect(fabs(dram_peak_mbs(c) - 32000.0) < 1e-6, "peak %g MB/s", dram_peak_mbs(c));
    cr_expect_eq(128 / I("dram.bus_bytes"), 4);
    config_free(c);
}

/* [D] Table 5.1: as [P] but a 128 KB 4-way L1; [D] section 4.3: switch on
 * long-latency stalls, 32K-instruction timeout; still FCFS, no L2. */
Test(paper_models, lwm_dissertation_chapter5)
{
    config *c = load_model("lwm-dissertation.ini");
    cr_expect_eq(cache_bytes(c, "l1d"), 128 * 1024);   /* 256 x 4 x 128 */
    cr_expect_eq(I("l1d.ways"), 4);
    cr_expect_str_eq(S("core.2lev_trigger"), "longlat");
    cr_expect_str_eq(S("core.2lev_select"), "next");   /* [D] 4.3: prio[1:] + prio[:1] */
    cr_expect_eq(I("core.2lev_timeout"), 32768);
    cr_expect_str_eq(S("dram.sched"), "fcfs");
    cr_expect_str_eq(S("l2.enabled"), "false");
    /* inherited from lwm.ini */
    cr_expect_eq(I("dram.banks"), 8);
    cr_expect_eq(I("core.max_warps"), 32);
    config_free(c);
}

/* [D] Table 8.1: 32 KB L1, 32 KB scratchpad (1 KB per warp), 1 MB L2,
 * FR-FCFS, one channel of 8 banks, 200-cycle hint hold. */
Test(paper_models, lwm_dissertation_database)
{
    config *c = load_model("lwm-dissertation-db.ini");
    cr_expect_eq(cache_bytes(c, "l1d"), 32 * 1024);
    cr_expect_eq(I("core.smem_bytes"), 32 * 1024);
    cr_expect_eq(I("core.smem_bytes") / I("core.max_warps"), 1024);   /* 1 KB per warp */
    cr_expect_str_eq(S("l2.enabled"), "true");
    /* 1 channel x 1 slice x 512 sets x 16 ways x 128 B = 1 MB */
    cr_expect_eq(I("dram.channels") * I("l2.slices_per_partition") * cache_bytes(c, "l2"), 1024 * 1024);
    cr_expect_str_eq(S("dram.sched"), "frfcfs");
    cr_expect_eq(I("dram.banks"), 8);
    cr_expect_eq(I("dram.hint_hold_cycles"), 200);
    cr_expect_str_eq(S("core.scheduler"), "lrr");
    config_free(c);
}

/* DWF thesis Table 5.2: 16 cores, warp 32 on 8-wide SIMD (4 cycles per warp),
 * 768 threads = 24 warps per core, one block at a time, 512 KB 8-way 64 B-line
 * L1 with 10-cycle hits, no L2, 8 GDDR3 channels at 650 MHz (1:1 with the
 * core) of 8 B/cycle each, FR-FCFS. */
Test(paper_models, dwf_thesis_machine)
{
    config *c = load_model("dwf.ini");
    cr_expect_eq(I("gpu.sms"), 16);
    cr_expect_eq(I("core.warp_size") / I("core.simd_width"), 4);        /* scheduler cycle */
    cr_expect_eq(I("core.max_warps"), 24);
    cr_expect_eq(I("core.max_warps") * I("core.warp_size"), 768);
    cr_expect_eq(I("gpu.sms") * I("core.max_threads"), 12288);          /* threads in all */
    cr_expect_eq(I("gpu.sms") * I("core.simd_width"), 128);             /* peak IPC */
    cr_expect_str_eq(S("core.one_cta_at_a_time"), "true");
    cr_expect_str_eq(S("core.discipline"), "barrel");
    /* lane-aware formation on the 8 register banks of the pipeline lanes
     * (sec. 4.1, ch. 7), swizzled as the thesis's simulator (bank = (tid +
     * warp) mod 8) */
    cr_expect_str_eq(S("core.dwf_home_lane"), "pipe");
    cr_expect_str_eq(S("core.dwf_swizzle_map"), "rotate");
    /* 1024 x 8 x 64 B = 512 KB */
    cr_expect_eq(cache_bytes(c, "l1d"), 512 * 1024);
    cr_expect_eq(I("l1d.line_bytes"), 64);
    cr_expect_eq(I("l1d.hit_latency"), 10);
    /* pre-memory: a queue of (cache latency - 1) = 9 pipeline registers in
     * front of the memory stage (sec. 5.1.1) */
    cr_expect_eq(I("l1d.request_queue"), 10 - 1);
    cr_expect_str_eq(S("l2.enabled"), "false");
    cr_expect_eq(I("dram.channels"), 8);
    cr_expect_str_eq(S("dram.timing"), "full");
    cr_expect_eq(I("dram.tCL"), 9);
    cr_expect_eq(I("dram.tRP"), 13);
    cr_expect_eq(I("dram.tRC"), 34);
    cr_expect_eq(I("dram.tRAS"), 21);
    cr_expect_eq(I("dram.tRCD"), 12);
    cr_expect_eq(I("dram.tRRD"), 8);
    /* "each column command pushes 2 entries": BL / rate = 2 bus cycles */
    cr_expect_eq(I("dram.burst_length") / I("dram.data_rate"), 2);
    cr_expect_str_eq(S("dram.sched"), "frfcfs");
    /* 5.2 GB/s per module, 41.6 GB/s in all, at a 1:1 core:DRAM clock */
    cr_expect(fabs(cfg_float(c, "clock.dram_mhz") - cfg_float(c, "clock.core_mhz")) < 1e-9);
    cr_expect(fabs(dram_peak_mbs(c) - 41600.0) < 1e-6, "peak %g MB/s", dram_peak_mbs(c));
    /* = 4 B per core per core cycle (the 8800GTX ratio the thesis kept) */
    cr_expect_eq(I("dram.channels") * I("dram.bus_bytes") / I("gpu.sms"), 4);
    cr_expect_str_eq(S("icnt.arbiter"), "pim");
    config_free(c);
}

/* DWS Table 3: 4 WPUs of 4 warps x 16 lanes at 1 GHz, 32 KB 8-way L1 with
 * 3-cycle hits and 32 MSHRs of 32 requests, a 4 MB 16-way L2 with 256 MSHRs
 * of 64, 100-cycle DRAM, 16 GB/s memory bus, 57 GB/s crossbar. */
Test(paper_models, dws_machine)
{
    config *c = load_model("dws.ini");
    cr_expect_eq(I("gpu.sms"), 4);
    cr_expect_eq(I("core.max_warps"), 4);
    cr_expect_eq(I("core.warp_size"), 16);
    cr_expect_eq(I("core.simd_width"), 16);
    cr_expect_eq(I("core.max_threads"), 64);                 /* 64 thread contexts */
    cr_expect_eq(I("gpu.sms") * I("core.max_warps") * I("core.warp_size"), 256);
    /* 32 x 8 x 128 = 32 KB */
    cr_expect_eq(cache_bytes(c, "l1d"), 32 * 1024);
    cr_expect_eq(I("l1d.ways"), 8);
    cr_expect_eq(I("l1d.hit_latency"), 3);
    cr_expect_eq(I("l1d.mshr_entries"), 32);
    cr_expect_eq(I("l1d.mshr_merge"), 32);
    cr_expect_str_eq(S("l1d.write"), "back");
    /* 16 lane banks (sec. 3.3), by 4-byte word, a warp's lines per cycle */
    cr_expect_eq(I("core.l1d_banks"), 16);
    cr_expect_eq(I("core.l1d_bank_bytes"), 4);
    cr_expect_eq(I("l1d.accesses_per_cycle"), 16);
    /* 1 partition x 4 slices x 512 x 16 x 128 = 4 MB, 16-way; 4 x 64 = 256 MSHRs */
    int64_t l2 = I("dram.channels") * I("l2.slices_per_partition") * cache_bytes(c, "l2");
    cr_expect_eq(l2, 4 * 1024 * 1024);
    cr_expect_eq(I("l2.ways"), 16);
    cr_expect_eq(I("dram.channels") * I("l2.slices_per_partition") * I("l2.mshr_entries"), 256);
    cr_expect_eq(I("l2.mshr_merge"), 64);
    /* 100-cycle DRAM whether the row is open or not, no reordering */
    cr_expect_str_eq(S("dram.timing"), "simple");
    cr_expect_eq(I("dram.row_hit_latency"), 100);
    cr_expect_eq(I("dram.row_conflict_latency"), 100);
    cr_expect(fabs(cfg_float(c, "clock.dram_mhz") - cfg_float(c, "clock.core_mhz")) < 1e-9);
    cr_expect_str_eq(S("dram.sched"), "fcfs");
    cr_expect(fabs(dram_peak_mbs(c) - 16000.0) < 1e-6, "peak %g MB/s", dram_peak_mbs(c));
    /* crossbar: ports x flit x MHz within 15% of 57 GB/s */
    double xbar = (double)I("gpu.sms") * (double)I("icnt.flit_bytes") * cfg_float(c, "clock.icnt_mhz");
    cr_expect(fabs(xbar - 57000.0) / 57000.0 < 0.15, "crossbar %g MB/s", xbar);
    config_free(c);
}

/* Memory-divergence dissertation Tables 3.1/4.1/5.1: 30 SMs (15 clusters of
 * 2) at 1400 MHz,
 * 48 warps and 2 GTO schedulers per SM, 32 KB 8-way L1 (32 sets, 256 lines)
 * with 32 MSHRs, 768 KB 16-way L2 in 6 partitions of 128 KB, 120-cycle
 * minimum L2 latency (core cycles), GDDR5 timing, 16 banks, FR-FCFS with 32
 * entries, 32 B crossbar channels at 1400 MHz. */
Test(paper_models, fermi_memdiv_machine)
{
    config *c = load_model("fermi-memdiv.ini");
    cr_expect_eq(I("gpu.sms"), 30);
    cr_expect_eq(I("gpu.sms") / I("gpu.sms_per_cluster"), 15);           /* clusters of 2 */
    cr_expect_eq(I("core.max_warps"), 48);
    cr_expect_eq(I("core.max_warps") / I("core.schedulers"), 24);     /* per scheduler */
    cr_expect_eq(I("core.max_threads"), 48 * 32);
    cr_expect_str_eq(S("core.scheduler"), "gto");
    cr_expect_eq(I("core.regs"), 32 * 1024);
    cr_expect_eq(I("core.smem_bytes"), 48 * 1024);
    cr_expect_eq(cache_bytes(c, "l1d"), 32 * 1024);
    cr_expect_eq(I("l1d.sets") * I("l1d.ways"), 256);                /* lines */
    cr_expect_eq(I("l1d.mshr_entries"), 32);
    cr_expect_str_eq(S("l1d.write"), "evict");
    /* 64 x 16 x 128 = 128 KB per partition, x 6 = 768 KB */
    cr_expect_eq(I("l2.slices_per_partition") * cache_bytes(c, "l2"), 128 * 1024);
    cr_expect_eq(I("dram.channels") * I("l2.slices_per_partition") * cache_bytes(c, "l2"), 768 * 1024);
    cr_expect_eq(I("l2.ways"), 16);
    /* 120 core cycles of 1/1400 us = hit_latency L2 cycles of 1/l2_mhz us */
    double l2_core = (double)I("l2.hit_latency") * cfg_float(c, "clock.core_mhz") / cfg_float(c, "clock.l2_mhz");
    cr_expect(fabs(l2_core - 120.0) < 1e-9, "L2 latency %g core cycles", l2_core);
    cr_expect_eq(I("dram.banks"), 16);
    cr_expect_eq(I("dram.tCL"), 12);
    cr_expect_eq(I("dram.tRP"), 12);
    cr_expect_eq(I("dram.tRC"), 40);
    cr_expect_eq(I("dram.tRAS"), 28);
    cr_expect_eq(I("dram.tRCD"), 12);
    cr_expect_eq(I("dram.tRRD"), 6);
    cr_expect_eq(I("dram.tWTR"), 5);
    cr_expect_eq(I("dram.tWR"), 12);
    cr_expect_str_eq(S("dram.sched"), "frfcfs");
    cr_expect_eq(I("dram.queue_size"), 32);
    /* GTX480: 6 x 32 B x 924 MHz = 177,408 MB/s */
    cr_expect(fabs(dram_peak_mbs(c) - 177408.0) < 1e-6, "peak %g MB/s", dram_peak_mbs(c));
    /* a 128 B line is 4 flits of 32 B */
    cr_expect_eq(128 / I("icnt.flit_bytes"), 4);
    cr_expect(fabs(cfg_float(c, "clock.icnt_mhz") - 1400.0) < 1e-9);
    config_free(c);
}

/* ------------------------------------------------------------- scenarios */

typedef struct totals {
    bool ok;
    char msg[512];
    uint64_t cycles, warp_insts, thread_insts;
    uint64_t l1_hits, l1_misses, l1_cold, l1_intra, l1_inter, l1_accesses;
    uint64_t divergent_loads, loads, dram_reads, l2_misses, row_hits, row_misses, row_conflicts;
    uint64_t hint_holds, hint_hold_hits, l2_far;
    uint64_t launch_start[2], launch_end[2];
} totals;

/* In the child: run point `i` of the scenario, fill *t. No assertions here
 * (the parent checks). */
static void run_point_child(const char *path, unsigned i, totals *t)
{
    GError *err = NULL;
    scenario *s = scenario_load(path, NULL, &err);
    config *c = s ? scenario_point(s, i, &err) : NULL;
    stats *st = stats_new();
    workload w = s ? scenario_workload(s) : (workload){0};
    gpu *g = c ? gpu_build(c, &w, st, &err) : NULL;
    gpu_result r;
    if (g && gpu_run(g, &r, &err)) {
        t->ok = true;
        t->cycles = r.core_cycles;
        t->warp_insts = r.warp_insts;
        t->thread_insts = r.thread_insts;
        t->l1_hits = stats_sum(st, "sm*.l1d", "hits");
        t->l1_misses = stats_sum(st, "sm*.l1d", "misses");
        t->l1_cold = stats_sum(st, "sm*.l1d", "misses_cold");
        t->l1_intra = stats_sum(st, "sm*.l1d", "misses_intra_warp");
        t->l1_inter = stats_sum(st, "sm*.l1d", "misses_inter_warp");
        t->l1_accesses = stats_sum(st, "sm*.l1d", "accesses");
        t->divergent_loads = stats_sum(st, "sm*.ldst", "divergent_loads");
        t->loads = stats_sum(st, "sm*.ldst", "loads");
        t->dram_reads = stats_sum(st, "dram*", "reads");
        t->l2_misses = stats_sum(st, "l2s*", "misses");
        t->l2_far = stats_sum(st, "l2s*", "far_requests");
        t->row_hits = stats_sum(st, "dram*", "row_hits");
        t->row_misses = stats_sum(st, "dram*", "row_misses");
        t->row_conflicts = stats_sum(st, "dram*", "row_conflicts");
        t->hint_holds = stats_sum(st, "dram*", "hint_holds");
        t->hint_hold_hits = stats_sum(st, "dram*", "hint_hold_hits");
        for (unsigned k = 0; k < s->nlaunches && k < 2; k++) {
            char *blk = g_strdup_printf("launch.%s", s->launches[k].name);
            double v0 = 0, v1 = 0;   /* launch times are derived values */
            stats_get_derived(st, blk, "start_cycle", &v0);
            stats_get_derived(st, blk, "end_cycle", &v1);
            t->launch_start[k] = (uint64_t)v0;
            t->launch_end[k] = (uint64_t)v1;
            g_free(blk);
        }
    } else {
        snprintf(t->msg, sizeof t->msg, "%s", err ? err->message : "failed");
    }
    g_clear_error(&err);
    if (g)
        gpu_free(g);
    stats_free(st);
    if (c)
        config_free(c);
    if (s)
        scenario_free(s);
}

/* Run point i of the scenario at `path` in a child process. */
static totals run_point_path(const char *path, unsigned i)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        totals t = {0};
        run_point_child(path, i, &t);
        ssize_t n = write(fd[1], &t, sizeof t);
        _exit(n == (ssize_t)sizeof t ? 0 : 1);
    }
    close(fd[1]);
    totals t = {0};
    size_t got = 0;
    while (got < sizeof t) {
        ssize_t n = read(fd[0], (char *)&t + got, sizeof t - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(got == sizeof t && WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s point %u: child died",
              path, i);
    cr_assert(t.ok, "%s point %u: %s", path, i, t.msg);
    return t;
}

/* Run point i of workloads/examples/<rel>. */
static totals run_point(const char *rel, unsigned i)
{
    char *r = g_strdup_printf("workloads/examples/%s", rel);
    char *path = src_path(r);
    totals t = run_point_path(path, i);
    g_free(path);
    g_free(r);
    return t;
}

/* workloads/kernels/bdiv.sasm with d = 1 path of n FMAs on one CTA of
 * `threads` threads, on models/<model>: a pure ALU loop. */
static totals run_alu_loop(const char *model, unsigned threads, unsigned n)
{
    char *dir = tmp_dir();
    char *m = g_strdup_printf("models/%s", model);
    char *mp = src_path(m), *kp = src_path("workloads/kernels/bdiv.sasm");
    char *text = g_strdup_printf("[scenario]\nmodel = %s\n[launch.a]\nkernel = %s\ngrid = 1\nblock = %u\n"
                                 "args = 1, %u\n",
                                 mp, kp, threads, n);
    char *path = write_file(dir, "alu.ini", text);
    totals t = run_point_path(path, 0);
    rm_tree(dir);
    g_free(path);
    g_free(text);
    g_free(kp);
    g_free(mp);
    g_free(m);
    g_free(dir);
    return t;
}

/* bdiv with d = 1: 11 + 5d + 4n = 16 + 4n instructions per thread. The LWM
 * core's strict barrel: one warp issues once per 7-cycle trip through the
 * pipeline; 8 warps (more than the 7 stages) issue every cycle. With n =
 * 100: 416 warp instructions per warp, so about 7 x 416 = 2,912 cycles for
 * one warp and 8 x 416 = 3,328 for eight, plus the CTA launch (10 cycles)
 * and the last instructions' drain: we allow 30. */
Test(paper_examples, lwm_barrel_pipeline, .timeout = 60)
{
    totals one = run_alu_loop("lwm.ini", 32, 100);
    cr_expect_eq(one.warp_insts, 416);
    cr_expect(one.cycles >= 7 * 416 && one.cycles <= 7 * 416 + 30, "%lu cycles", (unsigned long)one.cycles);
    totals eight = run_alu_loop("lwm.ini", 256, 100);
    cr_expect_eq(eight.warp_insts, 8 * 416);
    cr_expect(eight.cycles >= 8 * 416 && eight.cycles <= 8 * 416 + 30, "%lu cycles", (unsigned long)eight.cycles);
}

/* The DWF core issues a warp of 32 over 4 cycles on its 8 lanes: with
 * 8 warps (enough to cover the pipeline), 8 x 416 = 3,328 warp instructions
 * take about 4 x 3,328 = 13,312 cycles, 8 thread instructions per cycle
 * (+ 30 for launch and drain). */
Test(paper_examples, dwf_warp_over_four_cycles, .timeout = 60)
{
    totals t = run_alu_loop("dwf.ini", 256, 100);
    cr_expect_eq(t.warp_insts, 8 * 416);
    cr_expect(t.cycles >= 4 * 8 * 416 && t.cycles <= 4 * 8 * 416 + 30, "%lu cycles", (unsigned long)t.cycles);
}

/* The DWS WPU issues 1 instruction per cycle, every non-memory instruction
 * with latency 1: a single 16-thread warp runs its 16 + 4 x 1000 = 4,016
 * instructions in about 4,016 cycles (+ 30 for launch and drain). */
Test(paper_examples, dws_one_instruction_per_cycle, .timeout = 60)
{
    totals t = run_alu_loop("dws.ini", 16, 1000);
    cr_expect_eq(t.warp_insts, 4016);
    cr_expect_eq(t.thread_insts, 16 * 4016);
    cr_expect(t.cycles >= 4016 && t.cycles <= 4016 + 30, "%lu cycles", (unsigned long)t.cycles);
}

/* Each example's scenario file loads and has the expected number of points. */
Test(paper_examples, scenarios_load)
{
    static const struct {
        const char *rel;
        unsigned points;
    } ex[] = {{"lwm/two-level.ini", 2},   {"lwm/two-level-dissertation.ini", 2},
              {"lwm/index-search.ini", 2}, {"lwm/scan-ballot.ini", 1},
              {"lwm/scan-condacc.ini", 1}, {"dwf/divergent.ini", 3},    {"dws/gather.ini", 1},
              {"dws/l2-latency.ini", 1},   {"fermi/divergent-rows.ini", 2},
              {"h100/stream.ini", 1}};
    for (unsigned k = 0; k < G_N_ELEMENTS(ex); k++) {
        char *r = g_strdup_printf("workloads/examples/%s", ex[k].rel);
        char *path = src_path(r);
        GError *err = NULL;
        scenario *s = scenario_load(path, NULL, &err);
        cr_assert_not_null(s, "%s: %s", path, err ? err->message : "?");
        cr_expect_eq(scenario_npoints(s), ex[k].points, "%s", path);
        scenario_free(s);
        g_free(path);
        g_free(r);
    }
}

/* LWM machine, compute-then-load kernel, 4 CTAs x 256 threads, 16 iterations
 * (compute-load.sasm): every thread runs 10 + 14 x 16 = 234 instructions,
 * 1024 x 234 = 239,616 in all, 32 warps x 234 = 7,488 warp instructions.
 * Each warp load is one line never read before and there is no L2: 32 warps
 * x 16 = 512 cold L1 misses, 512 DRAM reads, no hits. Two-level scheduling
 * ([P] section 3.2) lets one group compute while another waits: fewer
 * cycles than round-robin. */
Test(paper_examples, lwm_two_level, .timeout = 120)
{
    totals rr = run_point("lwm/two-level.ini", 0);    /* core.scheduler = lrr */
    totals two = run_point("lwm/two-level.ini", 1);   /* core.scheduler = 2lev */
    const totals *both[2] = {&rr, &two};
    for (unsigned k = 0; k < 2; k++) {
        const totals *t = both[k];
        cr_expect_eq(t->thread_insts, 1024 * 234);
        cr_expect_eq(t->warp_insts, 32 * 234);
        cr_expect_eq(t->loads, 32 * 16);
        cr_expect_eq(t->l1_cold, 512);
        cr_expect_eq(t->l1_hits, 0);
        cr_expect_eq(t->dram_reads, 512);
    }
    cr_expect_lt(two.cycles, rr.cycles, "2lev %lu cycles, RR %lu", (unsigned long)two.cycles,
                 (unsigned long)rr.cycles);
    /* the 2Lev run cannot beat one warp instruction per cycle */
    cr_expect_geq(two.cycles, 32 * 234);
}

/* The same kernel on [D]'s chapter-5 machine (two-level.ini's counts), whose
 * two-level scheduler switches on long-latency stalls: it too beats
 * round-robin. */
Test(paper_examples, lwm_two_level_dissertation, .timeout = 120)
{
    totals rr = run_point("lwm/two-level-dissertation.ini", 0);
    totals two = run_point("lwm/two-level-dissertation.ini", 1);
    cr_expect_eq(rr.thread_insts, 1024 * 234);
    cr_expect_eq(two.thread_insts, 1024 * 234);
    cr_expect_eq(two.dram_reads, 512);
    cr_expect_lt(two.cycles, rr.cycles, "2lev %lu cycles, RR %lu", (unsigned long)two.cycles,
                 (unsigned long)rr.cycles);
}

/* Database machine ([D] ch. 8), index-search.sasm, the baseline point (row
 * hold 0): 32 warps, one query each, 32 steps of two dependent line loads.
 * Per thread 14 + 20 x 32 = 654 instructions: 1024 x 654 = 669,696 thread
 * and 32 x 654 = 20,928 warp instructions; 32 x 32 x 2 = 2,048 warp loads of
 * one line each, so at most 2,048 DRAM reads. With 32 queries over 8 banks
 * the second load of a step mostly finds its row closed by another warp:
 * [D] section 7.2 measures a row-buffer hit rate under 10%. */
Test(paper_examples, lwm_index_search_baseline, .timeout = 120)
{
    totals t = run_point("lwm/index-search.ini", 0);
    cr_expect_eq(t.thread_insts, 1024 * 654);
    cr_expect_eq(t.warp_insts, 32 * 654);
    cr_expect_eq(t.loads, 2048);
    cr_expect_leq(t.dram_reads, 2048);
    uint64_t acts = t.row_hits + t.row_misses + t.row_conflicts;
    cr_assert_gt(acts, 0);
    double rate = (double)t.row_hits / (double)acts;
    cr_expect_lt(rate, 0.10, "row-buffer hit rate %.3f", rate);
}

/* The same search with the row hold of point 1 (200 cycles) against point 0
 * (0 cycles: a hold that ends as it starts). The first load of each step
 * is ld.rowhint, so its hint must reach the controller through the L1 and
 * L2 miss paths: every hinted load that misses both caches arms a hold,
 * at both points (hint_holds > 0; at most one per hinted load, 32 x 32 =
 * 1,024). Only a non-zero window can be ended by the awaited same-row
 * request (hint_hold_hits: 0 at point 0) and it keeps rows open that
 * another warp's request would have closed, so the row-buffer hit rate
 * rises ([D] section 7.2; the direction only: the size depends on how the
 * window compares with the round trip to the dependent load). */
static double row_hit_rate(const totals *t)
{
    uint64_t acts = t->row_hits + t->row_misses + t->row_conflicts;
    cr_assert_gt(acts, 0);
    return (double)t->row_hits / (double)acts;
}

Test(paper_examples, lwm_index_search_hint_hold, .timeout = 120)
{
    totals off = run_point("lwm/index-search.ini", 0);
    totals on = run_point("lwm/index-search.ini", 1);
    cr_expect_gt(off.hint_holds, 0);
    cr_expect_gt(on.hint_holds, 0);
    cr_expect_leq(on.hint_holds, 32 * 32);
    cr_expect_eq(off.hint_hold_hits, 0);
    cr_expect_gt(on.hint_hold_hits, 0);
    cr_expect_eq(on.loads, 2048);
    cr_expect_gt(row_hit_rate(&on), row_hit_rate(&off), "row-buffer hit rate %.3f with the hold, %.3f without",
                 row_hit_rate(&on), row_hit_rate(&off));
}

/* Database machine, full table scan of 65,536 rows by 32 warps, 64
 * iterations (scan-ballot.sasm, scan-condacc.sasm). Warp instructions are
 * exact (no branch diverges): 32 x (12 + 16 x 64) = 33,152 with the ballot
 * sequence, 32 x (11 + 10 x 64) = 20,832 with COND_ACC. Each warp load is
 * one line of the 256 KB column read once: 32 x 64 = 2,048 cold L1 misses.
 * The scan is issue-bound (16 or 10 instructions per 128 B line at 32 B per
 * cycle), so COND_ACC is faster ([D] Fig. 8.1: +21%). */
Test(paper_examples, lwm_scan_condacc, .timeout = 120)
{
    totals b = run_point("lwm/scan-ballot.ini", 0);
    totals c = run_point("lwm/scan-condacc.ini", 0);
    cr_expect_eq(b.warp_insts, 32 * (12 + 16 * 64));
    cr_expect_eq(c.warp_insts, 32 * (11 + 10 * 64));
    cr_expect_eq(b.loads, 2048);
    cr_expect_eq(c.loads, 2048);
    cr_expect_eq(b.l1_cold, 2048);
    cr_expect_eq(c.l1_cold, 2048);
    cr_expect_lt(c.cycles, b.cycles, "COND_ACC %lu cycles, ballot %lu", (unsigned long)c.cycles,
                 (unsigned long)b.cycles);
}

/* DWF machine, bdiv.sasm with d = 4 paths of n = 8 FMAs, 32 blocks of 128
 * threads. Per thread: 7 before the path loop; per path p: setp + bra (2),
 * then add + setp + bra (3) = 5 x d; its own path: mov + n x (fma, add,
 * setp, bra) = 1 + 4n; after: shl, st, exit = 3. Total 11 + 5d + 4n = 63,
 * x 4096 threads = 258,048 under every scheme (they reorder the same work).
 * PDOM: all 32 lanes run the loop control (5d per warp), each path at 8 of
 * 32 lanes: per warp 7 + 5d + d(1 + 4n) + 3 = 7 + 20 + 132 + 3 = 162 warp
 * instructions, x 128 warps = 20,736. The MIMD bound never issues more
 * warp instructions than PDOM. Cycles are not compared: a run ends only
 * once its stores are performed, and the final store is where MIMD pays:
 * a warp whose path groups reach the store apart stores once per group,
 * each group's lanes (l mod 4 = p) spread over the warp's whole lines, so
 * MIMD writes more lines than PDOM, whose warps reconverge before the
 * store; all 32 blocks write the same 512 B of `sink`, one DRAM channel of
 * the L2-less machine, and that channel's write traffic, not the issue,
 * sets the end. */
Test(paper_examples, dwf_divergent, .timeout = 120)
{
    totals nrec = run_point("dwf/divergent.ini", 0);
    totals pdom = run_point("dwf/divergent.ini", 1);
    totals mimd = run_point("dwf/divergent.ini", 2);
    cr_expect_eq(nrec.thread_insts, 4096 * 63);
    cr_expect_eq(pdom.thread_insts, 4096 * 63);
    cr_expect_eq(mimd.thread_insts, 4096 * 63);
    cr_expect_eq(pdom.warp_insts, 128 * 162);
    cr_expect_leq(mimd.warp_insts, pdom.warp_insts);
    /* NREC never reconverges: after the paths split, the loop control runs
     * once per split, so it issues more warp instructions than PDOM */
    cr_expect_gt(nrec.warp_insts, pdom.warp_insts);
    /* 8-wide SIMD: a warp instruction takes 4 cycles of its core, 16 cores */
    cr_expect_geq(pdom.cycles * 16, pdom.warp_insts * 4);
}

/* DWS machine, gather.sasm: 4 CTAs x 64 threads, 32 loads each. Per thread
 * 11 + 10 x 32 = 331 instructions; no branch diverges, so 16 warps x 331 =
 * 5,296 warp instructions and 256 x 331 = 84,736 thread instructions; 16 x
 * 32 = 512 warp loads. The 256 KB table is 2,048 lines; the 4 MB L2 keeps
 * every line it fetched, so DRAM reads = distinct lines touched, at most
 * 2,048; 8,192 random picks over 2,048 lines touch 2048 x (1 - e^-4) =
 * 2,010 of them on average (the bound 1,950 is many standard deviations
 * below). The L1 (256 lines) holds an eighth of the table: most L1 accesses
 * miss. */
Test(paper_examples, dws_gather, .timeout = 120)
{
    totals t = run_point("dws/gather.ini", 0);
    cr_expect_eq(t.thread_insts, 256 * 331);
    cr_expect_eq(t.warp_insts, 16 * 331);
    cr_expect_eq(t.loads, 512);
    cr_expect_leq(t.dram_reads, 2048);
    cr_expect_geq(t.dram_reads, 1950);
    cr_expect_gt(t.l1_misses, t.l1_hits);
    /* up to 16 lines per 16-lane warp load, at least one */
    cr_expect_leq(t.l1_accesses, 512 * 16 + 4 * 4);
    cr_expect_geq(t.l1_accesses, 512);
}

/* DWS machine, l2-latency.ini: after a warm-up walk, 1000 steps of a chain
 * whose every load misses the L1 and hits the L2. Per step: the load, used
 * by the next step's address, plus 4 one-cycle instructions. The paper's
 * aggregate L2 latency is 30 cycles, so a step takes 34; we accept 30 +- 4
 * for the load (contention-free, so the model should be close). */
Test(paper_examples, dws_l2_latency, .timeout = 120)
{
    totals t = run_point("dws/l2-latency.ini", 0);
    uint64_t span = t.launch_end[1] - t.launch_start[1];
    double per_step = (double)span / 1000.0;
    cr_expect(per_step >= 30.0 && per_step <= 38.0, "%.2f cycles per step", per_step);
    /* 3 + 5 x 64 + 2 and 3 + 5 x 1000 + 2 thread instructions */
    cr_expect_eq(t.thread_insts, 325 + 5005);
    cr_expect_eq(t.l1_hits, 0);
}

/* Fermi machine, atax-rows.sasm: 30 CTAs x 64 threads (2 warps per SM), 8
 * columns. Per thread 11 + 6 x 8 = 59 instructions: 1920 x 59 = 113,280.
 * Every warp load touches 32 rows 32 KB apart: 60 warps x 8 = 480 loads, all
 * divergent (32 > 2 accesses). Each thread reads one line: 1920 cold misses.
 * Fermi hash (point 1): a row's block address is b0 + 256 t, and the hash
 * takes set bits 2, 3, 4 from bits 0, 2, 4 of t (and the rest from b0), so
 * an SM's 64 consecutive rows fill 8 sets with 8 each: exactly the 8 ways.
 * Nothing is evicted: 1920 misses, 1920 x 7 = 13,440 hits. Linear index
 * (point 0): all 64 rows in one set (256 t mod 32 = 0); a warp cycles 32
 * lines through 8 ways under LRU, so every access misses: no hits, 15,360
 * misses, of which 15,360 - 1,920 = 13,440 re-misses, evicted by the warp
 * itself (intra-warp) or by the other warp of its SM (inter-warp). */
Test(paper_examples, fermi_divergent_rows, .timeout = 180)
{
    totals lin = run_point("fermi/divergent-rows.ini", 0);
    totals fermi = run_point("fermi/divergent-rows.ini", 1);
    const totals *both[2] = {&lin, &fermi};
    for (unsigned k = 0; k < 2; k++) {
        cr_expect_eq(both[k]->thread_insts, 1920 * 59);
        cr_expect_eq(both[k]->loads, 480);
        cr_expect_eq(both[k]->divergent_loads, 480);
        cr_expect_eq(both[k]->l1_cold, 1920);
    }
    cr_expect_eq(fermi.l1_misses, 1920);
    cr_expect_eq(fermi.l1_hits, 13440);
    cr_expect_eq(fermi.dram_reads, 1920);
    cr_expect_eq(lin.l1_hits, 0);
    cr_expect_eq(lin.l1_misses, 15360);
    cr_expect_eq(lin.l1_intra + lin.l1_inter, 15360 - 1920);
    cr_expect_gt(lin.l1_intra, 0);
    cr_expect_lt(fermi.cycles, lin.cycles);
}

/* H100 model, h100/stream.ini: 132 CTAs x 1024 threads (135,168 threads,
 * 4,224 warps) over n = 1,081,344 elements, so 8 grid-stride steps each.
 * Per thread: 9 set-up instructions, 8 x 7 per step (setp, bra, shl, ld,
 * add, add, bra), the last setp + bra, then and, shl, st, exit: 9 + 56 + 2
 * + 4 = 71. No lane diverges: 4,224 x 71 = 299,904 warp instructions,
 * 135,168 x 71 thread instructions. Each warp load reads one 128 B line:
 * 4,224 x 8 = 33,792 loads, all to distinct lines, so every one misses the
 * cold L1 and L2 and the DRAM reads 33,792 lines (4.3 MB). The model has two
 * L2 partitions (docs/chip.md): a load whose line is homed in the other
 * partition than its SM's misses the copy in its near slice first, then the
 * home slice, so the L2 misses are 33,792 plus those far requests (SMs of
 * both halves read lines of both halves: some cross). */
Test(paper_examples, h100_stream, .timeout = 120)
{
    totals t = run_point("h100/stream.ini", 0);
    cr_expect_eq(t.warp_insts, 4224 * 71);
    cr_expect_eq(t.thread_insts, 135168ull * 71);
    cr_expect_eq(t.loads, 33792);
    cr_expect_eq(t.l1_hits, 0);
    cr_expect_gt(t.l2_far, 0);
    cr_expect_eq(t.l2_misses, 33792 + t.l2_far);
}
