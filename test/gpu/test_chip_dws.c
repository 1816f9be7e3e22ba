/* Memory subdivision of dynamic warp subdivision (Meng, Tarjan, Skadron,
 * DWS tech report CS-2010-5, section 5) on the DWS machine (models/dws.ini,
 * one WPU): the L1 reports each access's lanes when its data is ready
 * (MEM_LANE_REPORT), and its first report is the load's hit mask.
 *
 * Every kernel first loads line A (a[0..15], one access for the warp) so
 * that A is in the L1, then a load whose lanes 0-7 read line A (hits) and
 * lanes 8-15 line B = a[40..47] (a miss to DRAM): hit mask 0x00FF on 16
 * lanes. Each thread stores %clock taken just before that load (t0) and
 * just after it (t). The DRAM alone takes 100 cycles (dws.ini), an L1 hit
 * 3, so a thread served by the fill reads a clock at least 100 cycles after
 * one served by the hit. */
#include <stdio.h>

#include "gpu_test_util.h"
#include "simtgrid/json.h"

#define PROLOGUE                                                            \
    ".data a u32[64]\n"                                                     \
    ".data t0 u32[32]\n"                                                    \
    ".data t u32[32]\n"                                                     \
    "    mov r0, %tid.x\n"                                                  \
    "    and r9, r0, 15\n"                                                  \
    "    shl r1, r9, 2\n"                                                   \
    "    ld.global.u32 r2, [r1+@a]\n"   /* 3: line A into the L1 */

/* idx = lane + 4 * (lane & 8): lanes 0-7 -> a[0..7], 8-15 -> a[40..47] */
#define DIVERGENT_LOAD                                                      \
    "    and r3, r9, 8\n"                                                   \
    "    shl r3, r3, 2\n"                                                   \
    "    add r3, r3, r9\n"                                                  \
    "    shl r3, r3, 2\n"                                                   \
    "    shl r6, r0, 2\n"                                                   \
    "    mov r8, %clock\n"                                                  \
    "    st.global.u32 [r6+@t0], r8\n"                                      \
    "    ld.global.u32 r4, [r3+@a]\n"                                       \
    "    mov r5, %clock\n"

/* One warp: the divergent load, then its clock stored and exit. */
static const char *k_one = PROLOGUE DIVERGENT_LOAD
    "    st.global.u32 [r6+@t], r5\n"
    "    exit\n";

/* Two warps: warp 1 (threads 16-31) spins 20 iterations of 3 instructions
 * while warp 0 waits on its divergent load. */
static const char *k_two = PROLOGUE
    "    setp.ge.u32 p0, r0, 16\n"
    "    @p0 bra spin\n"
    DIVERGENT_LOAD
    "    st.global.u32 [r6+@t], r5\n"
    "    exit\n"
    "spin:\n"
    "    mov r7, 0\n"
    "loop:\n"
    "    add r7, r7, 1\n"
    "    setp.lt.u32 p1, r7, 20\n"
    "    @p1 bra loop\n"
    "    exit\n";

/* One warp with an unconditional branch after the load (BranchLimited). */
static const char *k_branch = PROLOGUE DIVERGENT_LOAD
    "    bra next\n"
    "next:\n"
    "    st.global.u32 [r6+@t], r5\n"
    "    exit\n";

typedef struct dws_run {
    chip_run cr;
    uint64_t t0[32], t[32];
} dws_run;

/* The values of `name` in the dumped arrays' JSON. */
static void parse_array(const char *json, const char *name, uint64_t *out, unsigned n)
{
    char key[32];
    snprintf(key, sizeof key, "\"%s\": [", name);
    const char *p = strstr(json, key);
    if (!p) {
        snprintf(key, sizeof key, "\"%s\":[", name);
        p = strstr(json, key);
    }
    cr_assert(p, "no array %s in %s", name, json);
    p += strlen(key);
    for (unsigned i = 0; i < n; i++) {
        char *end;
        out[i] = g_ascii_strtoull(p, &end, 10);
        cr_assert(end != p, "array %s: element %u", name, i);
        p = end;
        while (*p == ',' || *p == ' ' || *p == '\n')
            p++;
    }
}

static void run(dws_run *r, const char *kernel, unsigned threads, char *const *sets)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_build_filename(root ? root : ".", "models", "dws.ini", NULL);
    char *model = NULL;
    cr_assert(g_file_get_contents(path, &model, NULL, NULL), "cannot read %s", path);
    char *launch_txt = g_strdup_printf("grid = 1\nblock = %u\n\n[output]\ndump = t0, t\n", threads);
    char *all[16] = {"gpu.sms=1"};
    unsigned n = 1;
    for (unsigned i = 0; sets && sets[i]; i++)
        all[n++] = sets[i];
    all[n] = NULL;
    chip_run_text(&r->cr, model, kernel, launch_txt, all);
    cr_assert(r->cr.ok, "run: %s", r->cr.error);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    json_init(&w, f, 0);
    gpu_write_arrays(r->cr.g, &w);
    fclose(f);
    /* t0 and t have 32 elements (PROLOGUE), all dumped */
    parse_array(buf, "t0", r->t0, 32);
    parse_array(buf, "t", r->t, 32);
    free(buf);
    g_free(launch_txt);
    g_free(model);
    g_free(path);
}

static void expect_same(const uint64_t *v, unsigned from, unsigned to, const char *what)
{
    for (unsigned i = from + 1; i < to; i++)
        cr_expect_eq(v[i], v[from], "%s[%u] = %lu, [%u] = %lu", what, i, (unsigned long)v[i], from,
                     (unsigned long)v[from]);
}

Test(chip_dws, conv_waits_for_the_whole_warp)
{
    dws_run r;
    run(&r, k_one, 16, NULL);
    expect_same(r.t, 0, 16, "t");   /* every thread leaves the load with the last one */
    cr_expect_geq(r.t[0] - r.t0[0], 100);
    chip_run_free(&r.cr);
}

Test(chip_dws, hit_mask_0x00ff_makes_an_8_thread_run_ahead_split)
{
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=aggress", NULL};
    dws_run r;
    run(&r, k_one, 16, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 1);
    /* run-ahead: lanes 0-7 go on after the hit (3-cycle L1 plus the ports) */
    expect_same(r.t, 0, 8, "t");
    cr_expect_leq(r.t[0] - r.t0[0], 20);
    /* fall-behind: lanes 8-15 resume alone when the fill of B arrives */
    expect_same(r.t, 8, 16, "t");
    cr_expect_geq(r.t[8] - r.t[0], 100);
    /* 12 issues up to the load (pcs 0-11), then pcs 12-14 by each split;
     * no PC merge: the run-ahead split is gone before the fill */
    cr_expect_eq(chip_counter(&r.cr, "sm0", "warp_insts"), 12 + 2 * 3);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_merges_pc"), 0);
    chip_run_free(&r.cr);
}

Test(chip_dws, lazy_split_waits_whole_while_another_group_is_ready)
{
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=lazy", "core.scheduler=lrr", NULL};
    dws_run r;
    run(&r, k_two, 32, sets);
    /* warp 1 spins (always ready under LRR) when warp 0's hit mask comes:
     * LazySplit keeps warp 0 whole */
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 0);
    expect_same(r.t, 0, 16, "t");
    chip_run_free(&r.cr);
}

Test(chip_dws, aggress_split_splits_even_while_another_group_is_ready)
{
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=aggress", "core.scheduler=lrr", NULL};
    dws_run r;
    run(&r, k_two, 32, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 1);
    /* the run-ahead split shares the pipeline with warp 1 (LRR): at most
     * every other cycle, so within 20 + a few cycles of the hit */
    cr_expect_leq(r.t[0] - r.t0[0], 25);
    cr_expect_geq(r.t[8] - r.t[0], 100);
    chip_run_free(&r.cr);
}

Test(chip_dws, revive_split_splits_the_suspended_group_when_the_pipeline_idles)
{
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=revive", "core.scheduler=lrr", NULL};
    dws_run r;
    run(&r, k_two, 32, sets);
    /* at the hit mask warp 1 is ready: no split (as Lazy); once warp 1 has
     * run the rest of its 60-instruction loop and exited, nothing is ready
     * and warp 0 is split: its run-ahead lanes read the clock after that
     * (at least ~50 of the 60 loop cycles remain after the hit), still
     * before the fill of B (the DRAM's 100 cycles) */
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 1);
    expect_same(r.t, 0, 8, "t");
    expect_same(r.t, 8, 16, "t");
    cr_expect_geq(r.t[0] - r.t0[0], 50);
    cr_expect_gt(r.t[8], r.t[0]);
    cr_expect_geq(r.t[8] - r.t0[8], 100);
    chip_run_free(&r.cr);
}

Test(chip_dws, branch_limited_merges_the_splits_at_the_next_branch)
{
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=aggress", "core.dws_branch_limited=true", NULL};
    dws_run r;
    run(&r, k_branch, 16, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 1);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_merges_bl"), 1);
    cr_expect_leq(r.t[0] - r.t0[0], 20);   /* the run-ahead split read its clock early */
    cr_expect_geq(r.t[8] - r.t[0], 100);
    /* pcs 0-11 once, the clock (12) by each split, then the merged warp:
     * bra, store, exit (13-15) once */
    cr_expect_eq(chip_counter(&r.cr, "sm0", "warp_insts"), 12 + 2 + 3);
    chip_run_free(&r.cr);
}

Test(chip_dws, branch_bypass_lets_the_splits_pass_the_branch)
{
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=aggress", NULL};
    dws_run r;
    run(&r, k_branch, 16, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_merges_bl"), 0);
    /* each split runs 12-15 alone */
    cr_expect_eq(chip_counter(&r.cr, "sm0", "warp_insts"), 12 + 2 * 4);
    chip_run_free(&r.cr);
}

/* Recursive subdivision down to one thread ([M] 5.2: a split may be
 * subdivided again at its own later misses). After line A (a[0..31]) is in
 * the L1, four loads; at load k (k = 1..4) the lanes l with
 * l >> (4 - k) == 1 read a cold line k (a[32 k + l]: lanes 8-15, then 4-7,
 * then 2-3, then lane 1) and every other lane reads a[l & 7] in line A (a
 * hit). So each load's hit mask halves the run-ahead split: {0-7} runs
 * ahead of {8-15}, then {0-3} of {4-7}, {0,1} of {2,3}, {0} of {1}. A
 * fall-behind split later hits on every lane (its lanes read line A at the
 * later loads), so it never splits again. t = the clock after the fourth
 * load. */
#define LEVEL(shift, byte_off)                                              \
    "    shr r11, r9, " #shift "\n"                                         \
    "    setp.eq.u32 p1, r11, 1\n"                                          \
    "    shl r12, r9, 2\n"                                                  \
    "    add r12, r12, " #byte_off "\n"                                     \
    "    selp r12, r12, r3, p1\n"                                           \
    "    ld.global.u32 r4, [r12+@a]\n"

static const char *k_recursive =
    ".data a u32[160]\n"
    ".data t0 u32[32]\n"
    ".data t u32[32]\n"
    "    mov r0, %tid.x\n"
    "    and r9, r0, 15\n"
    "    shl r1, r9, 2\n"
    "    ld.global.u32 r2, [r1+@a]\n"   /* line A into the L1 */
    "    and r3, r9, 7\n"
    "    shl r3, r3, 2\n"               /* the hit: a[lane & 7] */
    "    shl r6, r0, 2\n"
    "    mov r8, %clock\n"
    "    st.global.u32 [r6+@t0], r8\n"
    LEVEL(3, 128) LEVEL(2, 256) LEVEL(1, 384) LEVEL(0, 512)
    "    mov r5, %clock\n"
    "    st.global.u32 [r6+@t], r5\n"
    "    exit\n";

Test(chip_dws, memory_splits_subdivide_again_down_to_one_thread)
{
    /* AggressSplit, PC-based merge off so that no split rejoins: four
     * memory splits (one per load), and five groups at once in the WST
     * ({8-15}, {4-7}, {2,3}, {1}, {0}). Lane 0 hits on all four loads and
     * reads its clock alone; each other group reads it together, after
     * its own fill (the DRAM alone takes 100 cycles): lane 1 at least 100
     * cycles after lane 0 (both issued the fourth load at once, lane 0
     * went on after the 3-cycle hit); lanes 0-1 still ahead of 2-3, 0-3
     * of 4-7 and 0-7 of 8-15. Lane 0 never waits on the DRAM: four hits
     * and 24 instructions, under the DRAM's 100 cycles. */
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=aggress", "core.dws_pc_merge=false",
                    "core.dws_pc_merge_resume=false", NULL};
    dws_run r;
    run(&r, k_recursive, 16, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 4);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_wst_max"), 5);
    /* issues: 9 before the loads and 6 per load, 3 after (clock, store,
     * exit). The warp runs pcs 0-14 (through load 1); after load k the
     * run-ahead split runs load k + 1 (6) and the fall-behind split the
     * loads after k and the tail: {8-15} 21, {4-7} 15, {2,3} 9, {1} 3;
     * {0-7}, {0-3}, {0,1} 6 each, {0} 3: 15 + 21 + 15 + 9 + 3 + 18 + 3 */
    cr_expect_eq(chip_counter(&r.cr, "sm0", "warp_insts"), 84);
    expect_same(r.t, 2, 4, "t");
    expect_same(r.t, 4, 8, "t");
    expect_same(r.t, 8, 16, "t");
    cr_expect_lt(r.t[0] - r.t0[0], 100);
    cr_expect_geq(r.t[1] - r.t[0], 100);
    cr_expect_lt(r.t[0], r.t[2]);
    cr_expect_lt(r.t[0], r.t[4]);
    cr_expect_lt(r.t[0], r.t[8]);
    chip_run_free(&r.cr);
}

/* Two trips of a loop around the divergent load; each trip stores the
 * clock after the load in t[16 x trip + thread], then spins 50 x 3 = 150
 * cycles (longer than the fill of B, 100 cycles of DRAM alone). */
static const char *k_loop = PROLOGUE
    "    mov r10, 0\n"
    "trip:\n"
    DIVERGENT_LOAD
    "    shl r11, r10, 6\n"
    "    add r11, r11, r6\n"
    "    st.global.u32 [r11+@t], r5\n"
    "    mov r7, 0\n"
    "spin:\n"
    "    add r7, r7, 1\n"
    "    setp.lt.u32 p1, r7, 50\n"
    "    @p1 bra spin\n"
    "    add r10, r10, 1\n"
    "    setp.lt.u32 p0, r10, 2\n"
    "    @p0 bra trip\n"
    "    exit\n";

Test(chip_dws, slip_fall_behind_waits_for_the_run_ahead_to_revisit_the_load)
{
    /* Adaptive slip ([M] 5.7), limit 2 (one fall-behind group): at the
     * first trip's hit mask 0x00FF lanes 0-7 run ahead; lanes 8-15 get
     * their line after ~100 cycles but stay suspended: they do not resume
     * on the fill (as DWS's fall-behind split does) but when lanes 0-7
     * issue the same load again, one trip and 150 spin cycles later. They
     * then merge into that group and read the clock with it: lanes 8-15's
     * first-trip clock equals lanes 0-7's second-trip clock. Backward
     * branches only (the spin and trip loops): nothing waits at a branch. */
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=slip", "core.dws_branch_split=false", NULL};
    dws_run r;
    run(&r, k_loop, 16, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 1);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_merges_slip"), 1);
    expect_same(r.t, 0, 8, "t");
    expect_same(r.t, 8, 16, "t");
    for (unsigned i = 8; i < 16; i++)
        cr_expect_eq(r.t[i], r.t[16 + i - 8], "t[%u] (trip 1, fall-behind) = t[%u] (trip 2, run-ahead)", i,
                     16 + i - 8);
    /* the run-ahead lanes' first trip: right after the hit */
    cr_expect_lt(r.t[0], r.t[8]);
    cr_expect_geq(r.t[8] - r.t[0], 150);
    chip_run_free(&r.cr);
}

Test(chip_dws, slip_limit_one_never_slips)
{
    /* Divergence limit 1: a warp may not be divided; the whole warp waits
     * for the fill, as Conv. */
    char *sets[] = {"core.reconv=dws", "core.dws_mem_split=slip", "core.dws_branch_split=false",
                    "core.dws_slip_limit=1", NULL};
    dws_run r;
    run(&r, k_loop, 16, sets);
    cr_expect_eq(chip_counter(&r.cr, "sm0", "dws_splits_mem"), 0);
    expect_same(r.t, 0, 16, "t");
    chip_run_free(&r.cr);
}
