/* Formation policies change timing, never results: the memory image after
 * each LWM/2Lev paper kernel (workloads/papers/lwm, the MICRO machine) and
 * two shipped kernels with barriers and shuffles is the same under PDOM and
 * under every formation variant (large warps and dynamic warp subdivision) (bfs is left out: threads race to store
 * different levels to one vertex, so its result depends on the
 * interleaving under any policy change). Each run is a child process (one SimGrid
 * engine per process). */
#include <string.h>

#include "harness.h"
#include "simtgrid/scenario.h"

typedef struct run_arg {
    const char *bench;        /* papers/lwm/micro/<bench>.ini, or NULL */
    const char *kernel;       /* workloads/<kernel> when bench is NULL */
    uint32_t grid, block;
    const char *sets[6];
} run_arg;

typedef struct run_out {
    uint64_t hash, thread_insts;
} run_out;

static uint64_t image_hash(memimg *m)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned a = 0; a < memimg_array_count(m); a++) {
        memimg_array_info in = memimg_array_at(m, a);
        for (uint64_t i = 0; i < in.count; i++) {
            uint64_t v = memimg_read(m, in.base + i * in.elem_bytes, in.elem_bytes);
            h = (h ^ v) * 1099511628211ull;
        }
    }
    return h;
}

static void run_one(void *ctx, void *out)
{
    const run_arg *a = ctx;
    run_out *r = out;
    const char *root = getenv("SIMTGRID_SRC");
    harness *h;
    if (a->bench) {
        char *path = g_strdup_printf("%s/workloads/papers/lwm/micro/%s.ini", root ? root : ".", a->bench);
        GError *err = NULL;
        char *sets[7] = {0};
        for (unsigned i = 0; a->sets[i]; i++)
            sets[i] = (char *)a->sets[i];
        scenario *s = scenario_load(path, sets, &err);
        cr_assert_not_null(s, "%s", err ? err->message : path);
        config *c = scenario_point(s, 0, &err);
        cr_assert_not_null(c, "%s", err ? err->message : "");
        h = harness_new_config(c);
        const launch *l = &s->launches[0];
        harness_launch_file(h, l->kernel, l->grid, l->block, l->args, l->nargs);
        config_free(c);
        scenario_free(s);
        g_free(path);
    } else {
        h = harness_new(a->sets);
        char *text = harness_workload_text(a->kernel);
        harness_launch(h, text, a->grid, a->block, NULL, 0, 0, -1);
        g_free(text);
    }
    cr_assert(harness_run(h, 200000000));
    r->hash = image_hash(h->img[0]);
    r->thread_insts = harness_counter(h, "sm0", "thread_insts");
    harness_free(h);
}

/* Variants: the MICRO defaults, the dissertation's relaxed re-fetch with
 * 2Lev G = 1 and the timeout, perfRF without the optimisations or
 * predicated packing, and 64-thread large warps. */
static const char *const variants[][5] = {
    {"core.reconv=lwm", NULL},
    {"core.reconv=lwm", "core.lwm_refetch=relaxed", "core.scheduler=2lev", "core.fetch_group=1", NULL},
    {"core.reconv=lwm", "core.lwm_pack=any", "core.lwm_jump_opt=false", "core.lwm_memdiv_opt=false", NULL},
    {"core.reconv=lwm", "core.large_warp_threads=64", "core.lwm_pred_pack=false", NULL},
    /* dynamic warp subdivision: PC-based merging, and stack-only with a
     * small WST (subdivision and pushes mixed); memory subdivision needs
     * the cache hierarchy (test/gpu/test_chip_dws.c) */
    {"core.reconv=dws", NULL},
    {"core.reconv=dws", "core.dws_pc_merge=false", "core.dws_wst_entries=4", NULL},
};
#define NVAR (sizeof variants / sizeof variants[0])

static void check(run_arg base)
{
    run_out ref, got;
    base.sets[0] = "core.reconv=pdom";
    base.sets[1] = NULL;
    harness_fork(run_one, &base, &ref, sizeof ref);
    for (unsigned v = 0; v < NVAR; v++) {
        run_arg a = base;
        for (unsigned i = 0; i < 5; i++)
            a.sets[i] = variants[v][i];
        harness_fork(run_one, &a, &got, sizeof got);
        cr_expect_eq(got.hash, ref.hash, "%s: variant %u changed the memory image",
                     base.bench ? base.bench : base.kernel, v);
        /* every thread retires the same instructions */
        cr_expect_eq(got.thread_insts, ref.thread_insts, "%s: variant %u", base.bench ? base.bench : base.kernel, v);
    }
}

#define PAPER(name) \
    Test(lwm_functional, name, .timeout = 300) { check((run_arg){.bench = #name}); }
PAPER(blackjack)
PAPER(sort)
PAPER(viterbi)
PAPER(kmeans)
PAPER(decrypt)
PAPER(blackscholes)
PAPER(matrixmul)
PAPER(hotspot)
PAPER(reduction)
PAPER(histogram)

Test(lwm_functional, barriers_and_shared_memory, .timeout = 120)
{
    check((run_arg){.kernel = "kernels/reduce_shared.sasm", .grid = 4, .block = 256});
}

Test(lwm_functional, shuffles_per_row, .timeout = 120)
{
    check((run_arg){.kernel = "kernels/warp_scan.sasm", .grid = 1, .block = 256});
}
