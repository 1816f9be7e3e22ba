/* Trace-driven kernels on the assembled chip: hand-written traces (a
 * coalesced load, a divergent branch, an atomic) give the instruction counts
 * and memory accesses worked out below; the traced vector add of
 * workloads/traces gives the same memory statistics as
 * workloads/kernels/vecadd.sasm; formation policies refuse traces.
 *
 * Model: test_chip_latency.c's chip (2 SMs, 128 B L1 lines of 4 x 32 B
 * sectors, caches on). Counting rules (docs/core.md, docs/cache.md): every
 * trace record is one warp instruction, with popcount(mask) thread
 * instructions; a global access of one warp instruction is coalesced into one
 * access per 128 B line, touching one sector per 32 B. */
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test_util.h"

static const char *model =
    "[clock]\ncore_mhz = 250\nicnt_mhz = 750\nl2_mhz = 500\ndram_mhz = 1000\n"
    "[gpu]\nsms = 2\nmemory = caches\n"
    "[l2]\nhit_latency = 30\n"
    "[icnt]\nflit_bytes = 32\nheader_bytes = 8\nflits_per_cycle = 1\nlatency = 4\n"
    "[dram]\nchannels = 2\nbanks = 16\nrow_bytes = 4096\nchannel_interleave = 256\n"
    "addr_map = linear\nrow_hit_latency = 100\nrow_conflict_latency = 300\ntiming = simple\n";

#define HDR(grid, block)                                                                 \
    "-kernel name = k\n-kernel id = 1\n-grid dim = (" grid ",1,1)\n-block dim = (" block   \
    ",1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 86\n"                               \
    "-shmem base_addr = 0x00007f0000000000\n-accelsim tracer version = 4\n\n"

/* Runs kernel file `kname` (text `ktext`, or an existing path when ktext is
 * NULL) with `launch` on the model; build and run errors land in cr->error. */
static void run_kernel(chip_run *cr, const char *kname, const char *ktext, const char *launch_text,
                       char *const *sets)
{
    GError *e = NULL;
    *cr = (chip_run){0};
    cr->dir = g_dir_make_tmp("simtgrid-trace-XXXXXX", &e);
    cr_assert(cr->dir);
    g_free(chip_write(cr->dir, "model.ini", model));
    char *kpath = ktext ? chip_write(cr->dir, kname, ktext) : g_strdup(kname);
    char *scn = g_strdup_printf("[scenario]\nmodel = model.ini\nname = t\n\n[launch.k]\nkernel = %s\n%s\n",
                                kpath, launch_text);
    char *path = chip_write(cr->dir, "s.ini", scn);
    g_free(scn);
    cr->scn = scenario_load(path, sets, &e);
    cr_assert(cr->scn, "scenario: %s", e ? e->message : "?");
    cr->cfg = scenario_point(cr->scn, 0, &e);
    cr_assert(cr->cfg, "point: %s", e ? e->message : "?");
    cr->st = stats_new();
    workload w = scenario_workload(cr->scn);
    cr->g = gpu_build(cr->cfg, &w, cr->st, &e);
    cr->ok = cr->g && gpu_run(cr->g, &cr->r, &e);
    if (!cr->ok) cr->error = g_strdup(e ? e->message : "?");
    g_clear_error(&e);
    if (ktext) g_unlink(kpath);
    g_unlink(path);
    g_free(path);
    g_free(kpath);
}

static void run_free(chip_run *cr)
{
    gpu_free(cr->g);
    stats_free(cr->st);
    config_free(cr->cfg);
    scenario_free(cr->scn);
    char *p = g_build_filename(cr->dir, "model.ini", NULL);
    g_unlink(p);
    g_free(p);
    g_rmdir(cr->dir);
    g_free(cr->dir);
    g_free(cr->error);
}

static uint64_t sum(const chip_run *cr, const char *glob, const char *name)
{
    return stats_sum(cr->st, glob, name);
}

Test(trace_chip, coalesced_load)
{
    /* 32 lanes load 4 B each from 0x10000000 (base+stride 4): 128 B, one
     * line, 4 sectors, one L1 miss, one request. 4 records x 32 lanes. */
    chip_run cr;
    run_kernel(&cr, "kernel-1.traceg",
               HDR("1", "32") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
               "0000 ffffffff 1 R2 IMAD.WIDE 1 R0 0\n"
               "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x10000000 4\n"
               "0020 ffffffff 1 R5 FADD 2 R4 R4 0\n"
               "0030 ffffffff 0 EXIT 0 0\n#END_TB\n",
               "grid = 1\nblock = 32", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(sum(&cr, "sm?", "warp_insts"), 4);
    cr_expect_eq(sum(&cr, "sm?", "thread_insts"), 128);
    cr_expect_eq(sum(&cr, "sm?", "mem_requests"), 1);
    cr_expect_eq(sum(&cr, "sm?.ldst", "loads"), 1);
    cr_expect_eq(sum(&cr, "sm?.ldst", "accesses"), 1);
    cr_expect_eq(sum(&cr, "sm?.ldst", "sectors"), 4);
    cr_expect_eq(sum(&cr, "sm?.l1d", "misses"), 1);
    cr_expect_eq(sum(&cr, "dram*", "reads"), 1, "one 128 B line from DRAM");
    run_free(&cr);
}

Test(trace_chip, divergent_branch)
{
    /* Lanes 0-15 branch (@P0 BRA), lanes 16-31 run FMUL + STG, then lanes
     * 0-15 FADD + STG, and all reconverge at BSYNC.
     * warp instructions: 10; thread instructions: 5 records of 32 lanes
     * (S2R ISETP BSSY BSYNC EXIT) + 5 of 16 = 160 + 80 = 240.
     * Stores: lanes 16-31 write 0x10000040..0x1000007f (64 B: 1 line, 2
     * sectors), lanes 0-15 0x10000000..0x1000003f (1 line, 2 sectors). */
    chip_run cr;
    run_kernel(&cr, "kernel-1.traceg",
               HDR("1", "32") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 10\n"
               "0000 ffffffff 1 R0 S2R 0 0\n"
               "0010 ffffffff 0 ISETP.GE.AND 1 R0 0\n"
               "0020 ffffffff 0 BSSY 0 0\n"
               "0030 0000ffff 0 BRA 0 0\n"
               "0040 ffff0000 1 R1 FMUL 1 R0 0\n"
               "0050 ffff0000 0 STG.E 2 R2 R1 4 1 0x10000040 4\n"
               "0060 0000ffff 1 R1 FADD 1 R0 0\n"
               "0070 0000ffff 0 STG.E 2 R2 R1 4 1 0x10000000 4\n"
               "0080 ffffffff 0 BSYNC 0 0\n"
               "0090 ffffffff 0 EXIT 0 0\n#END_TB\n",
               "grid = 1\nblock = 32", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(sum(&cr, "sm?", "warp_insts"), 10);
    cr_expect_eq(sum(&cr, "sm?", "thread_insts"), 240);
    cr_expect_eq(sum(&cr, "sm?", "mem_requests"), 2);
    cr_expect_eq(sum(&cr, "sm?.ldst", "stores"), 2);
    cr_expect_eq(sum(&cr, "sm?.ldst", "accesses"), 2);
    cr_expect_eq(sum(&cr, "sm?.ldst", "sectors"), 4);
    cr_expect_eq(sum(&cr, "sm?.ldst", "loads"), 0);
    run_free(&cr);
}

Test(trace_chip, atomic_same_address)
{
    /* 32 lanes add to one word (base+stride 0): one request at the L2 with
     * 32 lane operations (test_chip_atomic.c's rule). 3 records x 32. */
    chip_run cr;
    run_kernel(&cr, "kernel-1.traceg",
               HDR("1", "32") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
               "0000 ffffffff 1 R2 IMAD.WIDE 1 R0 0\n"
               "0010 ffffffff 1 R3 ATOMG.E.ADD.STRONG.GPU 2 R2 R4 4 1 0x10000000 0\n"
               "0020 ffffffff 0 EXIT 0 0\n#END_TB\n",
               "grid = 1\nblock = 32", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(sum(&cr, "sm?", "warp_insts"), 3);
    cr_expect_eq(sum(&cr, "sm?", "thread_insts"), 96);
    cr_expect_eq(sum(&cr, "sm?.ldst", "atomics"), 1);
    cr_expect_eq(sum(&cr, "l2s*", "atomic_requests"), 1);
    cr_expect_eq(sum(&cr, "l2s*", "atomic_lane_ops"), 32);
    run_free(&cr);
}

Test(trace_chip, missing_ctas_and_warps_run_nothing)
{
    /* grid 2, block 64: only CTA 1 warp 1 is traced (2 records, 32 lanes);
     * the rest exits at once, and the launch still completes. */
    chip_run cr;
    run_kernel(&cr, "kernel-1.traceg",
               HDR("2", "64") "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 2\n"
               "0000 ffffffff 1 R2 MOV 0 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n",
               "grid = 2\nblock = 64", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(sum(&cr, "sm?", "warp_insts"), 2);
    cr_expect_eq(sum(&cr, "sm?", "thread_insts"), 64);
    cr_expect_eq(sum(&cr, "sm?", "ctas"), 2);
    run_free(&cr);
}

/* The memory statistics that must agree between a kernel and its trace. */
static const char *const same[][2] = {
    {"sm?", "mem_requests"}, {"sm?.ldst", "loads"},    {"sm?.ldst", "stores"},
    {"sm?.ldst", "accesses"}, {"sm?.ldst", "sectors"}, {"sm?.l1d", "accesses"},
    {"sm?.l1d", "misses"},    {"sm?.l1d", "hits"},     {"l2s*", "accesses"},
    {"l2s*", "misses"},       {"l2s*", "store_requests"}, {"dram*", "reads"},
    {"dram*", "writes"},
};

#define NSAME (sizeof same / sizeof same[0])

/* SimGrid runs one simulation per process: the trace runs in a child, which
 * sends its statistics back through a pipe (no assertions in the child). */
static bool trace_stats_in_child(const char *trace, uint64_t *vals)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        chip_run b;
        run_kernel(&b, trace, NULL, "grid = 4\nblock = 256", NULL);
        uint64_t v[NSAME + 1] = {b.ok};
        for (unsigned i = 0; b.ok && i < NSAME; i++) v[i + 1] = sum(&b, same[i][0], same[i][1]);
        _exit(write(fd[1], v, sizeof v) == (ssize_t)sizeof v ? 0 : 1);
    }
    close(fd[1]);
    uint64_t v[NSAME + 1] = {0};
    ssize_t n = read(fd[0], v, sizeof v);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    memcpy(vals, v + 1, NSAME * sizeof *vals);
    return n == (ssize_t)sizeof v && WIFEXITED(status) && WEXITSTATUS(status) == 0 && v[0];
}

Test(trace_chip, traced_vecadd_matches_the_sasm_kernel)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *sasm = g_strdup_printf("%s/workloads/kernels/vecadd.sasm", root ? root : ".");
    char *trace = g_strdup_printf("%s/workloads/traces/vecadd/kernel-1.traceg", root ? root : ".");
    uint64_t tv[NSAME];
    cr_assert(trace_stats_in_child(trace, tv), "the traced run failed");
    chip_run a;
    run_kernel(&a, sasm, NULL, "grid = 4\nblock = 256\nargs = 1000", NULL);
    cr_assert(a.ok, "%s", a.error);
    /* worked out: 1000 threads load a[i], b[i] and store c[i]; 31 full
     * warps and one of 8 lanes each touch one 128 B line per access:
     * 32 x 2 loads + 32 stores = 96 requests, 64 L1 load misses */
    cr_expect_eq(sum(&a, "sm?", "mem_requests"), 96);
    cr_expect_eq(sum(&a, "sm?.l1d", "misses"), 64);
    for (unsigned i = 0; i < NSAME; i++)
        cr_expect_eq(sum(&a, same[i][0], same[i][1]), tv[i], "%s %s: %lu (sasm) vs %lu (trace)",
                     same[i][0], same[i][1], (unsigned long)sum(&a, same[i][0], same[i][1]),
                     (unsigned long)tv[i]);
    run_free(&a);
    g_free(sasm);
    g_free(trace);
}

static const char *one_warp = HDR("1", "32") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                             "0000 ffffffff 0 EXIT 0 0\n#END_TB\n";

static void expect_refused(const char *launch_text, char *const *sets, const char *ktext, const char *want)
{
    chip_run cr;
    run_kernel(&cr, "kernel-1.traceg", ktext, launch_text, sets);
    cr_assert(!cr.ok);
    cr_expect(strstr(cr.error, want), "'%s' not in: %s", want, cr.error);
    run_free(&cr);
}

Test(trace_chip, nrec_refuses_traces)
{
    char *sets[] = {"core.reconv=nrec", NULL};
    expect_refused("grid = 1\nblock = 32", sets, one_warp,
                   "cannot change their control flow; core.reconv = nrec forms warps "
                   "dynamically and cannot run it (use pdom)");
}

Test(trace_chip, mimd_refuses_traces)
{
    char *sets[] = {"core.reconv=mimd", NULL};
    expect_refused("grid = 1\nblock = 32", sets, one_warp, "core.reconv = mimd forms warps");
}

Test(trace_chip, launch_must_match_the_trace)
{
    expect_refused("grid = 2\nblock = 32", NULL, one_warp,
                   "grid (2,1,1) and block (32,1,1) differ from the trace's (1,1,1) and (32,1,1)");
}

Test(trace_chip, a_bad_trace_is_an_input_error)
{
    expect_refused("grid = 1\nblock = 32", NULL, "-grid dim = (1,1,1)\n#BEGIN_TB\n",
                   "kernel-1.traceg:2: the header lacks '-grid dim' or '-block dim'");
}

Test(trace_chip, traced_divergent_example)
{
    /* workloads/traces/divergent: 2 CTAs x 2 warps, 15 records each = 60
     * warp instructions; per warp 11 records of 32 lanes (S2R S2R IMAD LOP3
     * ISETP BSSY BSYNC MOV IMAD.WIDE STG EXIT) and 4 of 16 (BRA, IMAD.SHL,
     * BRA, IADD3 on the even or odd lanes) = 352 + 64 = 416; 4 x 416 = 1664.
     * Each warp stores 32 consecutive words: 4 stores, 4 lines, 16 sectors. */
    const char *root = getenv("SIMTGRID_SRC");
    char *trace = g_strdup_printf("%s/workloads/traces/divergent/kernel-1.traceg", root ? root : ".");
    chip_run cr;
    run_kernel(&cr, trace, NULL, "grid = 2\nblock = 64", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(sum(&cr, "sm?", "warp_insts"), 60);
    cr_expect_eq(sum(&cr, "sm?", "thread_insts"), 1664);
    cr_expect_eq(sum(&cr, "sm?.ldst", "stores"), 4);
    cr_expect_eq(sum(&cr, "sm?.ldst", "accesses"), 4);
    cr_expect_eq(sum(&cr, "sm?.ldst", "sectors"), 16);
    run_free(&cr);
    g_free(trace);
}

Test(trace_chip, examples_are_the_generators_output)
{
    /* tools/gen-traces writes the committed workloads/traces byte for byte */
    const char *root = getenv("SIMTGRID_SRC");
    GError *e = NULL;
    char *dir = g_dir_make_tmp("simtgrid-gen-XXXXXX", &e);
    cr_assert(dir);
    char *tool = g_strdup_printf("%s/tools/gen-traces", root ? root : ".");
    const char *argv[] = {"python3", tool, dir, NULL};
    int status;
    cr_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                           &status, &e), "%s", e ? e->message : "");
    cr_assert(g_spawn_check_wait_status(status, NULL), "tools/gen-traces failed");
    const char *files[] = {"vecadd/kernel-1.traceg", "vecadd/kernelslist.g", "vecadd/vecadd.ini",
                           "divergent/kernel-1.traceg", "divergent/kernelslist.g",
                           "divergent/divergent.ini"};
    for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *a = g_build_filename(dir, files[i], NULL);
        char *b = g_strdup_printf("%s/workloads/traces/%s", root ? root : ".", files[i]);
        char *ta, *tb;
        cr_assert(g_file_get_contents(a, &ta, NULL, NULL), "%s", a);
        cr_assert(g_file_get_contents(b, &tb, NULL, NULL), "%s", b);
        cr_expect_str_eq(ta, tb, "%s differs from the generator's output", files[i]);
        g_unlink(a);
        g_free(ta), g_free(tb), g_free(a), g_free(b);
    }
    char *sub[] = {g_build_filename(dir, "vecadd", NULL), g_build_filename(dir, "divergent", NULL)};
    for (unsigned i = 0; i < 2; i++) {
        g_rmdir(sub[i]);
        g_free(sub[i]);
    }
    g_rmdir(dir);
    g_free(dir);
    g_free(tool);
}

Test(trace_chip, kernels_list_runs_its_kernels_in_order)
{
    /* kernelslist.g: the coalesced load of coalesced_load (4 records x 32
     * lanes, one 128 B line read from DRAM), then the atomic of
     * atomic_same_address on a grid of 2 whose CTA 1 is not traced (3
     * records x 32 lanes; one request, 32 lane operations at the L2), with
     * the copies between them skipped. The launch gives no grid or block:
     * the chip's check that they equal each trace's header (1 and 2 CTAs)
     * passes only if they were taken from there. Sums: 4 + 3 = 7 warp
     * instructions, 128 + 96 = 224 thread instructions. */
    GError *e = NULL;
    char *d = g_dir_make_tmp("simtgrid-klist-XXXXXX", &e);
    cr_assert(d);
    char *k1 = chip_write(d, "kernel-1.traceg",
                          HDR("1", "32") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
                          "0000 ffffffff 1 R2 IMAD.WIDE 1 R0 0\n"
                          "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x10000000 4\n"
                          "0020 ffffffff 1 R5 FADD 2 R4 R4 0\n"
                          "0030 ffffffff 0 EXIT 0 0\n#END_TB\n");
    char *k2 = chip_write(d, "kernel-2.traceg",
                          HDR("2", "32") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                          "0000 ffffffff 1 R2 IMAD.WIDE 1 R0 0\n"
                          "0010 ffffffff 1 R3 ATOMG.E.ADD.STRONG.GPU 2 R2 R4 4 1 0x20000000 0\n"
                          "0020 ffffffff 0 EXIT 0 0\n#END_TB\n");
    char *list = chip_write(d, "kernelslist.g",
                            "MemcpyHtoD,0x0000000010000000,128\nkernel-1.traceg\n"
                            "MemcpyHtoD,0x0000000020000000,4\nkernel-2.traceg\n");
    chip_run cr;
    run_kernel(&cr, list, NULL, "", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_assert_eq(cr.scn->nlaunches, 2);
    cr_expect_str_eq(cr.scn->launches[1].after, "k-1");
    cr_expect_eq(sum(&cr, "sm?", "warp_insts"), 7);
    cr_expect_eq(sum(&cr, "sm?", "thread_insts"), 224);
    cr_expect_eq(sum(&cr, "sm?.ldst", "loads"), 1);
    cr_expect_eq(sum(&cr, "sm?.ldst", "atomics"), 1);
    cr_expect_eq(sum(&cr, "l2s*", "atomic_lane_ops"), 32);
    run_free(&cr);
    g_unlink(k1), g_unlink(k2), g_unlink(list);
    g_rmdir(d);
    g_free(k1), g_free(k2), g_free(list), g_free(d);
}
