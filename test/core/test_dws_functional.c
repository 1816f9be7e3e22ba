/* Dynamic warp subdivision changes timing, never results (Meng, Tarjan,
 * Skadron, DWS tech report CS-2010-5, section 1.6: splits only reorder
 * threads of one warp): the dumped results of the DWS set's kernels on the
 * DWS machine (models/dws.ini, its caches: memory subdivision and slip need
 * the per-lane reports) are the same under Conv (the PDOM stack) and under
 * every named configuration with MV5's ready-queue issue order. FFT runs
 * one butterfly stage: its stages run without a grid barrier, so with more
 * than one its result depends on the interleaving under any policy change
 * (as in test_lwm_functional); within one stage every butterfly reads and
 * writes its own pair of points only.
 * Each run is a child process (one SimGrid engine per process). */
#include <stdio.h>

#include "../gpu/gpu_test_util.h"
#include "harness.h"
#include "simtgrid/json.h"

typedef struct bench {
    const char *kernel;   /* under workloads/ */
    const char *launch;   /* grid, block, args and the arrays to dump */
} bench;

typedef struct run_arg {
    const bench *b;
    const char *const *sets;
} run_arg;

typedef struct run_out {
    uint64_t hash, thread_insts;
} run_out;

static char *src_path(const char *rel)
{
    const char *root = getenv("SIMTGRID_SRC");
    return g_build_filename(root ? root : ".", rel, NULL);
}

static void run_one(void *ctx, void *out)
{
    const run_arg *a = ctx;
    run_out *r = out;
    char *model_path = src_path("models/dws.ini");
    char *model = g_strdup_printf("[model]\nname = t\ninclude = %s\n", model_path);
    char *kpath = g_build_filename("workloads", a->b->kernel, NULL);
    char *kfile = src_path(kpath);
    char *kernel = NULL;
    cr_assert(g_file_get_contents(kfile, &kernel, NULL, NULL), "cannot read %s", kfile);
    chip_run cr;
    chip_run_text(&cr, model, kernel, a->b->launch, (char *const *)a->sets);
    cr_assert(cr.ok, "run: %s", cr.error);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    json_init(&w, f, 0);
    gpu_write_arrays(cr.g, &w);
    fclose(f);
    cr_assert_gt(len, 100, "nothing dumped");
    uint64_t h = 1469598103934665603ull;   /* FNV-1a over the dumped text */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
    r->hash = h;
    r->thread_insts = chip_counter(&cr, "sm0", "thread_insts");
    free(buf);
    chip_run_free(&cr);
    g_free(kernel);
    g_free(kfile);
    g_free(kpath);
    g_free(model);
    g_free(model_path);
}

/* The named configurations ([M] section 6; models/dws-*.ini), all with the
 * ready-queue order, plus stack-only re-convergence with a small WST. */
#define RQ "core.reconv=dws", "core.dws_ready_queue=true"
static const char *const variants[][6] = {
    {RQ, "core.dws_mem_split=off", "core.dws_branch_split=true", NULL},
    {RQ, "core.dws_mem_split=revive", "core.dws_branch_split=true", NULL},
    {RQ, "core.dws_mem_split=revive", "core.dws_branch_split=false", NULL},
    {RQ, "core.dws_mem_split=aggress", "core.dws_branch_split=true", NULL},
    {RQ, "core.dws_mem_split=lazy", "core.dws_branch_split=false", "core.dws_branch_limited=true", NULL},
    {RQ, "core.dws_mem_split=slip", "core.dws_branch_split=false", "core.dws_slip_interval=2000", NULL},
    {RQ, "core.dws_mem_split=slip", "core.dws_branch_split=true", "core.dws_slip_interval=2000", NULL},
    {RQ, "core.dws_pc_merge=false", "core.dws_wst_entries=4", NULL},
};

static void check(const bench *b)
{
    static const char *const conv[] = {"core.reconv=pdom", NULL};
    run_out ref, got;
    run_arg a = {b, conv};
    harness_fork(run_one, &a, &ref, sizeof ref);
    for (unsigned v = 0; v < G_N_ELEMENTS(variants); v++) {
        a.sets = variants[v];
        harness_fork(run_one, &a, &got, sizeof got);
        cr_expect_eq(got.hash, ref.hash, "%s: variant %u changed the results", b->kernel, v);
        cr_expect_eq(got.thread_insts, ref.thread_insts, "%s: variant %u", b->kernel, v);
    }
}

#define DUMP "\n[output]\ndump_count = 20000\ndump = "
#define BENCH(name, kernel, launch) \
    Test(dws_functional, name, .timeout = 300) { check(&(bench){kernel, launch}); }
BENCH(merge, "papers/dws/kernels/merge.sasm", "grid = 4\nblock = 64\nargs = 64\n" DUMP "dst\n")
BENCH(short_, "papers/dws/kernels/short.sasm", "grid = 4\nblock = 64\nargs = 6, 39\n" DUMP "rows, path\n")
BENCH(svm, "papers/dws/kernels/svm.sasm", "grid = 4\nblock = 64\nargs = 16, 2, 520\n" DUMP "out\n")
BENCH(kmeans, "papers/dws/kernels/kmeans.sasm", "grid = 4\nblock = 64\nargs = 2, 8\n" DUMP "member\n")
BENCH(kmeans_lwm, "papers/lwm/kernels/kmeans.sasm", "grid = 4\nblock = 64\nargs = 8, 16\n" DUMP "member\n")
BENCH(hotspot, "papers/lwm/kernels/hotspot.sasm", "grid = 4\nblock = 64\nargs = 16\n" DUMP "out\n")
BENCH(filter, "papers/dws/kernels/filter.sasm", "grid = 4\nblock = 64\nargs = 500, 500, 40\n" DUMP "out\n")
BENCH(fft, "papers/dwf/kernels/fft.sasm", "grid = 4\nblock = 64\nargs = 10, 1\n" DUMP "x\n")
BENCH(lu, "papers/dws/kernels/lu.sasm", "grid = 4\nblock = 64\nargs = 150, 3\n" DUMP "a\n")
