/* Formation policies change timing, never results: the memory image after
 * each LWM/2Lev paper kernel (workloads/papers/lwm, the MICRO machine), the
 * DWF thesis set's own kernels (bitonic, Black-Scholes; matrix is the LWM
 * set's) and two shipped kernels with barriers and shuffles is the same
 * under PDOM and under every formation variant: large warps, thread block
 * compaction, dynamic warp subdivision and dynamic warp formation with each
 * issue policy and register-file model (bfs is
 * left out: threads race to store
 * different levels to one vertex, so its result depends on the
 * interleaving under any policy change; so is the DWF set's FFT, whose
 * stages run without a grid barrier). Each run is a child process (one SimGrid
 * engine per process). test_dwf_functional.c compiles this file again
 * with FUNCTIONAL_DWF for the DWF variants (one test executable each keeps
 * each within its time limit). */
#include <string.h>

#include "harness.h"
#include "simtgrid/scenario.h"

typedef struct run_arg {
    const char *bench;        /* papers/lwm/micro/<bench>.ini, or NULL */
    const char *kernel;       /* workloads/<kernel> when bench is NULL */
    uint32_t grid, block;
    uint64_t args[4];         /* the kernel's .param values (kernel launches) */
    unsigned nargs;
    const char *sets[14];
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
        char *sets[15] = {0};
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
        harness_launch(h, text, a->grid, a->block, a->args, a->nargs, 0, -1);
        g_free(text);
    }
    cr_assert(harness_run(h, 200000000));
    r->hash = image_hash(h->img[0]);
    r->thread_insts = harness_counter(h, "sm0", "thread_insts");
    harness_free(h);
}

#ifndef FUNCTIONAL_DWF
/* Variants: the MICRO defaults, the dissertation's relaxed re-fetch with
 * 2Lev G = 1 and the timeout, perfRF without the optimisations or
 * predicated packing, 64-thread large warps, and thread block compaction. */
static const char *const variants[][5] = {
    {"core.reconv=lwm", NULL},
    {"core.reconv=lwm", "core.lwm_refetch=relaxed", "core.scheduler=2lev", "core.fetch_group=1", NULL},
    {"core.reconv=lwm", "core.lwm_pack=any", "core.lwm_jump_opt=false", "core.lwm_memdiv_opt=false", NULL},
    {"core.reconv=lwm", "core.large_warp_threads=64", "core.lwm_pred_pack=false", NULL},
    /* thread block compaction: the dissertation's 256-thread blocks with
     * SRR, and 64-thread blocks (more, smaller blocks) */
    {"core.reconv=tbc", "core.scheduler=srr", NULL},
    {"core.reconv=tbc", "core.tbc_block_threads=64", NULL},
    /* dynamic warp subdivision: PC-based merging, and stack-only with a
     * small WST (subdivision and pushes mixed); memory subdivision needs
     * the cache hierarchy (test/gpu/test_chip_dws.c) */
    {"core.reconv=dws", NULL},
    {"core.reconv=dws", "core.dws_pc_merge=false", "core.dws_wst_entries=4", NULL},
};
#define NVAR (sizeof variants / sizeof variants[0])
#else

/* Dynamic warp formation: the thesis's configuration (DMaj, lane-aware,
 * swizzled, limited heap), each other issue policy (DTime with conflicting
 * threads filling older warps, core.dwf_las_merge = any, and DTime and
 * DPdPri with home lanes on the pipeline, DPdPri also with the rotation
 * swizzle), the ideal and the bank-conflict register files (home lanes
 * first) with the infinite heap and no swizzling,
 * and tiny structures that make every overflow path run: a 4-warp pool, a
 * 4-entry 2-way LUT with one lookup per scheduler cycle, a 1-entry heap;
 * the thesis's simulator's barrier queue and heap ties (DPdPri, the tiny
 * structures: a released barrier's carriers wait for pool entries);
 * and ORACLE reconvergence. */
static const char *const dwf_variants[][13] = {
    {"core.reconv=dwf", NULL},
    {"core.reconv=dwf", "core.dwf_policy=min", NULL},
    {"core.reconv=dwf", "core.dwf_policy=time", "core.dwf_las_merge=any", "core.dwf_home_lane=pipe", NULL},
    {"core.reconv=dwf", "core.dwf_policy=pc", NULL},
    {"core.reconv=dwf", "core.dwf_policy=pdpri", "core.dwf_home_lane=pipe", "core.dwf_swizzle_map=rotate",
     "core.dwf_barrier_lut=bypass", NULL},
    {"core.reconv=dwf", "core.dwf_rf=ideal", "core.dwf_heap=infinite", "core.dwf_swizzle=false",
     "core.dwf_pool_entries=0", "core.dwf_lut_entries=0", "core.dwf_lut_lookups=0", NULL},
    {"core.reconv=dwf", "core.dwf_rf=banks", "core.dwf_pool_entries=4", "core.dwf_lut_entries=4",
     "core.dwf_lut_assoc=2", "core.dwf_lut_lookups=1", "core.dwf_heap_entries=1", "core.dwf_mheap_lut_entries=1",
     "core.dwf_mheap_lut_assoc=1", "core.dwf_bank_place=home", "core.dwf_barrier_lut=bypass",
     "core.dwf_heap_tie=pc", NULL},
    /* the ORACLE limit study (thesis 3.3), beside DWF in the thesis's set */
    {"core.reconv=oracle", NULL},
};
#define NDWF (sizeof dwf_variants / sizeof dwf_variants[0])
#endif

#ifdef FUNCTIONAL_DWF
#define SUITE dwf_functional
#define TABLE dwf_variants
#define NTAB NDWF
#else
#define SUITE lwm_functional
#define TABLE variants
#define NTAB NVAR
#endif
/* Test() pastes its arguments: expand SUITE first */
#define TEST_IN(suite, name, ...) Test(suite, name, __VA_ARGS__)

static void check(run_arg base)
{
    run_out ref, got;
    base.sets[0] = "core.reconv=pdom";
    base.sets[1] = NULL;
    harness_fork(run_one, &base, &ref, sizeof ref);
    for (unsigned v = 0; v < NTAB; v++) {
        run_arg a = base;
        for (unsigned i = 0; i < G_N_ELEMENTS(TABLE[v]); i++)
            a.sets[i] = TABLE[v][i];
        harness_fork(run_one, &a, &got, sizeof got);
        cr_expect_eq(got.hash, ref.hash, "%s: variant %u changed the memory image",
                     base.bench ? base.bench : base.kernel, v);
        /* every thread retires the same instructions */
        cr_expect_eq(got.thread_insts, ref.thread_insts, "%s: variant %u", base.bench ? base.bench : base.kernel, v);
    }
}

#define PAPER(name) \
    TEST_IN(SUITE, name, .timeout = 300) { check((run_arg){.bench = #name}); }
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

TEST_IN(SUITE, barriers_and_shared_memory, .timeout = 120)
{
    check((run_arg){.kernel = "kernels/reduce_shared.sasm", .grid = 4, .block = 256});
}

TEST_IN(SUITE, dwf_bitonic, .timeout = 300)
{
    check((run_arg){.kernel = "profiles/kernels/bitonic.sasm", .grid = 16, .block = 256});
}

TEST_IN(SUITE, dwf_blackscholes, .timeout = 300)
{
    check((run_arg){.kernel = "profiles/kernels/blackscholes.sasm", .grid = 16, .block = 256});
}

#ifdef FUNCTIONAL_DWF
/* The DWF thesis set's HMMer and LU (workloads/papers/dwf/kernels) with
 * main/hmmer.ini's arguments (HMMer's 12 states), on 2 CTAs of 256 where
 * the main scenarios launch 16 of 768: each thread's work depends on its
 * thread index only, not on the grid or the CTA size, and the full grid x
 * 9 variants would not fit the time limit. */
TEST_IN(SUITE, dwf_hmmer, .timeout = 600)
{
    check((run_arg){.kernel = "papers/dwf/kernels/hmmer.sasm", .grid = 2, .block = 256, .args = {12}, .nargs = 1});
}

TEST_IN(SUITE, dwf_lu, .timeout = 600)
{
    check((run_arg){.kernel = "papers/dwf/kernels/lu.sasm", .grid = 2, .block = 256});
}

/* The thesis-faithful Bitonic (the SDK's sort of CTA segments in global
 * memory, barriers each step) and Black-Scholes (software expf, logf,
 * sqrtf and CND with divergent branches) of workloads/papers/dwf/kernels,
 * with the main scenarios' work per thread: Bitonic on 2 CTAs of 768 with
 * segments of 1024; Black-Scholes two options per thread, on 6 CTAs of
 * 256 (its 64 registers a thread fill the harness's 16,384 with 256). */
TEST_IN(SUITE, dwf_bitonic_global, .timeout = 600)
{
    check((run_arg){.kernel = "papers/dwf/kernels/bitonic.sasm", .grid = 2, .block = 768, .args = {1024}, .nargs = 1});
}

TEST_IN(SUITE, dwf_blackscholes_software_math, .timeout = 600)
{
    check((run_arg){.kernel = "papers/dwf/kernels/blackscholes.sasm", .grid = 6, .block = 256, .args = {3072},
                    .nargs = 1});
}
#endif

TEST_IN(SUITE, shuffles_per_row, .timeout = 120)
{
    check((run_arg){.kernel = "kernels/warp_scan.sasm", .grid = 1, .block = 256});
}

/* The rest of workloads/kernels: a lane-divergent path per lane (bdiv), an
 * if/else (ifelse), a bounds check that leaves the last warp partial
 * (vecadd, n = 1000), a grid-stride loop (stream_f4) and a one-thread
 * chase. select_cond_acc is left out: its warps reserve output room with an
 * atomic, so the row order depends on which warp gets there first. */
TEST_IN(SUITE, shipped_kernels, .timeout = 300)
{
    check((run_arg){.kernel = "kernels/bdiv.sasm", .grid = 1, .block = 256, .args = {4, 16}, .nargs = 2});
    check((run_arg){.kernel = "kernels/ifelse.sasm", .grid = 1, .block = 64});
    check((run_arg){.kernel = "kernels/vecadd.sasm", .grid = 4, .block = 256, .args = {1000}, .nargs = 1});
    check((run_arg){.kernel = "kernels/stream_f4.sasm", .grid = 2, .block = 64, .args = {256}, .nargs = 1});
    check((run_arg){.kernel = "kernels/chase.sasm", .grid = 1, .block = 1, .args = {200}, .nargs = 1});
}
