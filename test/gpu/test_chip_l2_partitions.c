/* Two L2 partitions (l2.partitions = 2), worked by hand on the small chip
 * of test_chip_latency.c (its comment has every tick of the one-partition
 * paths; simple DRAM timing, row hit 100 / closed 300 DRAM cycles).
 *
 * The chip has 2 DRAM channels, one slice each: slice l2s0 (channel 0) is
 * partition 0, l2s1 (channel 1) partition 1; SM 0 is near partition 0,
 * SM 1 near partition 1. Channels interleave every 256 B, so A = a (the
 * first .data array, 0x10000000) is homed in channel 0 (l2s0) and D =
 * a + 0x100 in channel 1 (l2s1), both bank 0, row 0x800 of their channel
 * (a closed bank at first). l2.far_latency = 20 L2 cycles: the link to the
 * other partition takes 10 L2 cycles (60 ticks) each way.
 *
 * One-partition reference (test_chip_latency.c): a DRAM access to a closed
 * bank 83 core cycles (L2 fill at tick 948, the load done at the core edge
 * at or after fill + 40), an L2 hit 22 (L2 reply at 216).
 *
 * SM 0 loads D (far-homed): its request reaches its near slice l2s0 at 36
 * (a miss of the copy), leaves on the far link at the next L2 cycle, 42,
 * reaches l2s1 at 102: a miss there too, which leaves for DRAM at 108 as a
 * one-partition miss leaves at 42, so l2s1 fills at 102 + 912 = 1014 and
 * sends the data back on the far link: at l2s0 at 1074, which fills its
 * copy and replies; done at the core edge at or after 1114 = 1116: 93
 * cycles, the DRAM access plus far_latency (83 + 20 L2 cycles = 10 core
 * cycles).
 * A far hit (the copy gone, the home slice holding the line): l2s0 sends at
 * 42, l2s1 hits at 102 and replies 30 L2 cycles later, at 282; at l2s0 at
 * 342, done at 384: 32 cycles, an L2 hit plus far_latency (22 + 10). */
#include "gpu_test_util.h"

/* `text` (the small chip by default) with `from` replaced by `to`. */
static char *edit_text(const char *text, const char *from, const char *to)
{
    char **cut = g_strsplit(text, from, 2);
    cr_assert(cut[1], "model has no '%s'", from);
    char *m = g_strjoinv(to, cut);
    g_strfreev(cut);
    return m;
}

static char *edit(const char *from, const char *to) { return edit_text(CHIP_TWO_SM_MODEL, from, to); }

#define PARTS "[l2]\npartitions = 2\nfar_latency = 20\n"

enum { A = 0, B = 0x80, D = 0x100 };

/* Runs the loads on SM `sm` (one block) with `sets`; checks the mean LD/ST
 * load latency is `sum` / n core cycles. The run is left in `cr`. */
static void run_loads(chip_run *cr, unsigned sm, const unsigned *off, unsigned n, unsigned sum, char *const *sets)
{
    char *k = chip_chain_kernel(off, n);
    char *lt = g_strdup_printf("grid = 1\nblock = 1\nsms = %u", sm);
    char *model = edit("[l2]\n", PARTS);
    char *all[4] = {"dram.timing=simple", NULL, NULL, NULL};   /* the timings above */
    for (unsigned i = 0; sets && sets[i]; i++)
        all[i + 1] = sets[i];
    chip_run_text(cr, model, k, lt, all);
    g_free(model);
    cr_assert(cr->ok, "%s", cr->error);
    char block[16];
    snprintf(block, sizeof block, "sm%u.ldst", sm);
    cr_expect_eq(chip_counter(cr, block, "loads"), n);
    double mean = chip_derived(cr, block, "mean_load_latency");
    cr_expect_float_eq(mean * n, (double)sum, 1e-9, "mean load latency %g, expected %u/%u", mean, sum, n);
    g_free(k);
    g_free(lt);
}

Test(chip_l2_partitions, near_homed_loads_as_with_one_partition)
{
    /* A, B, A on SM 0: all homed in its near partition, so the paths of
     * test_chip_latency.c: closed bank 83, row hit 33, L2 hit 22; nothing
     * crosses to the other partition. */
    chip_run cr;
    run_loads(&cr, 0, (unsigned[]){A, B, A}, 3, 83 + 33 + 22, NULL);
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_requests"), 0);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_served"), 0);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, far_homed_miss_then_near_copy_hit)
{
    /* D (far: 93), A (near-homed, its bank closed: 83; it evicts D from the
     * 1-line L1), D again: the copy in l2s0 hits, 22. One request crossed
     * (l2s0 -> l2s1); l2s1 holds D too (one miss, to DRAM). */
    chip_run cr;
    run_loads(&cr, 0, (unsigned[]){D, A, D}, 3, 93 + 83 + 22, NULL);
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_served"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s1", "misses"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "hits"), 1);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, copy_evicted_far_hit)
{
    /* Each slice holds one line (1 set, 1 way): A evicts the copy of D from
     * l2s0, so the second D misses its copy and hits at home in l2s1: 32.
     * The near partition's capacity is shared by its own lines and the
     * copies. */
    char *sets[] = {"l2.sets=1", "l2.ways=1", NULL};
    chip_run cr;
    run_loads(&cr, 0, (unsigned[]){D, A, D}, 3, 93 + 83 + 32, sets);
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_requests"), 2);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_served"), 2);
    cr_expect_eq(chip_counter(&cr, "l2s1", "hits"), 1);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, other_sm_sees_the_mirror_image)
{
    /* SM 1 is near partition 1: for it A is the far line (93) and D the
     * near one (83, closed bank of channel 1); A again hits its copy in
     * l2s1 (22). */
    chip_run cr;
    run_loads(&cr, 1, (unsigned[]){A, D, A}, 3, 93 + 83 + 22, NULL);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_served"), 1);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, stores_go_home)
{
    /* A store by SM 0 to D goes to D's home slice l2s1, not to a copy. */
    const char *k = ".kernel st\n.data a u32[65536] = zero\n    mov r1, 7\n    mov r2, 256\n    st.global.u32 [r2+@a], r1\n    exit\n";
    chip_run cr;
    char *model = edit("[l2]\n", PARTS);
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1\nsms = 0", NULL);
    g_free(model);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "l2s1", "store_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "store_requests"), 0);
    chip_run_free(&cr);
}

/* Launch k (mode 0) stores 4 B to D (far-homed for SM 0: l2s1) and to A
 * (near-homed: l2s0), a part of one 32-B sector each: the home slices
 * allocate the lines without fetching (write-back). Launch k2 (mode 1,
 * after it) loads D then A, dependent. */
static const char PARTIAL_KERNEL[] = ".kernel k\n.param mode\n.data a u32[65536] = zero\n"
                                     "    param r3, mode\n    mov r1, 0\n"
                                     "    setp.ne.u64 p0, r3, 0\n    @p0 bra loads\n"
                                     "    mov r2, 256\n    st.global.u32 [r2+@a], r1\n"
                                     "    st.global.u32 [r1+@a], r1\n    exit\n"
                                     "loads:\n    add r2, r1, 256\n    ld.global.u32 r1, [r2+@a]\n"
                                     "    add r2, r1, 0\n    ld.global.u32 r1, [r2+@a]\n    exit\n";

static void run_partial(const char *mode, unsigned sum)
{
    char set[64];
    snprintf(set, sizeof set, "l2.partial_fetch=%s", mode);
    char *model = edit("[l2]\n", PARTS);
    chip_run cr;
    chip_run_text(&cr, model, PARTIAL_KERNEL,
                  "grid = 1\nblock = 1\nsms = 0\nargs = 0\n\n[launch.k2]\nkernel = k.sasm\ngrid = 1\n"
                  "block = 1\nsms = 0\nargs = 1\nafter = k\n",
                  (char *[]){"dram.timing=simple", set, NULL});
    g_free(model);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "loads"), 2);
    double mean = chip_derived(&cr, "sm0.ldst", "mean_load_latency");
    cr_expect_float_eq(mean * 2, (double)sum, 1e-9, "%s: mean load latency %g, expected %u/2", mode, mean, sum);
    chip_run_free(&cr);
}

/* The paths of this file's header (l2.partial_fetch). none: D a far hit
 * (32: its home holds the written bytes), A a near hit (22). copies: D's
 * copy fill needs the whole sector, so its home fetches it from DRAM
 * (closed bank: a far miss, 93); A, read at home, is still served (22).
 * all: A is fetched too (channel 0's bank closed: 83). */
Test(chip_l2_partitions, partly_written_sectors_served) { run_partial("none", 32 + 22); }
Test(chip_l2_partitions, partly_written_sectors_fetched_by_copies) { run_partial("copies", 93 + 22); }
Test(chip_l2_partitions, partly_written_sectors_fetched_by_all_loads) { run_partial("all", 93 + 83); }

/* l2.byte_enables: launch k writes all of D's first sector in eight 4-B
 * stores (each partial) and 4 B of A; k2 loads them as above with
 * partial_fetch = all. Without byte enables D's sector stays partial and
 * both loads fetch (93 + 83, as partly_written_sectors_fetched_by_all_loads);
 * with them D's sector is whole, a far hit (32), and only A fetches (83). */
static const char EIGHT_STORES_KERNEL[] = ".kernel k\n.param mode\n.data a u32[65536] = zero\n"
                                          "    param r3, mode\n    mov r1, 0\n"
                                          "    setp.ne.u64 p0, r3, 0\n    @p0 bra loads\n"
                                          "    mov r2, 256\n    mov r4, 0\n"
                                          "more:\n    st.global.u32 [r2+@a], r1\n    add r2, r2, 4\n"
                                          "    add r4, r4, 1\n    setp.lt.u64 p1, r4, 8\n    @p1 bra more\n"
                                          "    st.global.u32 [r1+@a], r1\n    exit\n"
                                          "loads:\n    add r2, r1, 256\n    ld.global.u32 r1, [r2+@a]\n"
                                          "    add r2, r1, 0\n    ld.global.u32 r1, [r2+@a]\n    exit\n";

static void run_eight_stores(const char *byte_enables, unsigned sum)
{
    char set[64];
    snprintf(set, sizeof set, "l2.byte_enables=%s", byte_enables);
    char *model = edit("[l2]\n", PARTS);
    chip_run cr;
    chip_run_text(&cr, model, EIGHT_STORES_KERNEL,
                  "grid = 1\nblock = 1\nsms = 0\nargs = 0\n\n[launch.k2]\nkernel = k.sasm\ngrid = 1\n"
                  "block = 1\nsms = 0\nargs = 1\nafter = k\n",
                  (char *[]){"dram.timing=simple", "l2.partial_fetch=all", set, NULL});
    g_free(model);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "l2s1", "store_requests"), 8);
    double mean = chip_derived(&cr, "sm0.ldst", "mean_load_latency");
    cr_expect_float_eq(mean * 2, (double)sum, 1e-9, "byte_enables %s: mean load latency %g, expected %u/2",
                       byte_enables, mean, sum);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, eight_partial_stores_stay_partial) { run_eight_stores("false", 93 + 83); }
Test(chip_l2_partitions, eight_partial_stores_complete_the_sector) { run_eight_stores("true", 32 + 83); }

/* Building the chip of model text `model` fails with an error naming
 * `key` and the model file. */
static void expect_build_error(const char *model, const char *key)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("simtgrid-gpu-XXXXXX", &e);
    cr_assert(dir);
    g_free(chip_write(dir, "model.ini", model));
    g_free(chip_write(dir, "k.sasm", ".kernel k\n    exit\n"));
    char *path = chip_write(dir, "s.ini", "[scenario]\nmodel = model.ini\nname = t\n\n[launch.k]\nkernel = k.sasm\n"
                                          "grid = 1\nblock = 1\n");
    scenario *scn = scenario_load(path, NULL, &e);
    cr_assert(scn, "scenario: %s", e ? e->message : "?");
    config *cfg = scenario_point(scn, 0, &e);
    cr_assert(cfg, "point: %s", e ? e->message : "?");
    stats *st = stats_new();
    workload w = scenario_workload(scn);
    gpu *g = gpu_build(cfg, &w, st, &e);
    cr_expect_null(g);
    cr_assert(e);
    cr_expect(strstr(e->message, key) && strstr(e->message, "model.ini"), "%s", e->message);
    g_clear_error(&e);
    stats_free(st);
    config_free(cfg);
    scenario_free(scn);
    const char *names[] = {"model.ini", "k.sasm", "s.ini"};
    for (unsigned i = 0; i < 3; i++) {
        char *p = g_build_filename(dir, names[i], NULL);
        g_unlink(p);
        g_free(p);
    }
    g_free(path);
    g_rmdir(dir);
    g_free(dir);
}

Test(chip_l2_partitions, odd_channel_count_is_an_error)
{
    /* Two partitions split the channels in halves: 3 channels cannot. */
    char *parts = edit("[l2]\n", PARTS);
    char *fixed = edit_text(parts, "channels = 2", "channels = 3");
    g_free(parts);
    expect_build_error(fixed, "l2.partitions");
    g_free(fixed);
}

/* One thread's L1-bypassing (.cg) load of a + off. */
static const char ONE_LOAD_KERNEL[] = ".kernel one\n.param off\n.data a u32[65536] = zero\n"
                                      "    param r3, off\n"
                                      "    ld.global.cg.u32 r1, [r3+@a]\n"
                                      "    exit\n";

Test(chip_l2_partitions, refused_crossbar_request_does_not_hold_peer_requests)
{
    /* Four SMs (0, 1 near partition 0; 2, 3 near partition 1), l2.mshr_merge
     * = 1. SMs 0 and 1 each load D (homed in l2s1), SMs 2 and 3 each load A
     * (homed in l2s0), all at once, L1-bypassing (.cg). At l2s0 the first D
     * load allocates the copy's MSHR and crosses to l2s1; the second finds
     * that MSHR at its merge limit and is refused, so l2s0's crossbar input
     * waits for the copy's fill; l2s1 likewise with A. Both refusals come
     * within a few dozen ticks, long before any fill (>= 900 ticks, header).
     * Each fill needs the other slice to take the peer request sitting in its
     * peer input: held behind the refused crossbar request, neither fill
     * would ever come (a deadlock: the run ends with four CTAs unfinished).
     * Served on its own input, every load completes: one far request each
     * way, each served once, at least one refusal per slice. */
    GString *lt = g_string_new("grid = 1\nblock = 1\nsms = 0\nargs = 256\n");
    for (unsigned i = 1; i < 4; i++)
        g_string_append_printf(lt, "\n[launch.k%u]\nkernel = k.sasm\ngrid = 1\nblock = 1\nsms = %u\nargs = %u\n", i, i,
                               i < 2 ? (unsigned)D : (unsigned)A);
    char *model = edit("[l2]\n", PARTS "mshr_merge = 1\n");
    chip_run cr;
    chip_run_text(&cr, model, ONE_LOAD_KERNEL, lt->str, (char *[]){"dram.timing=simple", "gpu.sms=4", NULL});
    g_free(model);
    g_string_free(lt, TRUE);
    cr_assert(cr.ok, "%s", cr.error);
    for (unsigned i = 0; i < 4; i++) {
        char b[16];
        snprintf(b, sizeof b, "sm%u.ldst", i);
        cr_expect_eq(chip_counter(&cr, b, "loads"), 1, "%s", b);
    }
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_served"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_served"), 1);
    cr_expect_geq(chip_counter(&cr, "l2s0", "fail_mshr_merge_limit"), 1);
    cr_expect_geq(chip_counter(&cr, "l2s1", "fail_mshr_merge_limit"), 1);
    chip_run_free(&cr);
}

/* Two CTAs of two threads on the small chip with two partitions and `l2`
 * appended to its [l2] group: on SM 0 thread t loads D + 0x200 t (both
 * homed in l2s1: channels interleave every 256 B), on SM 1 A + 0x200 t
 * (homed in l2s0); each warp's two lines leave in one L1-bypassing (.cg)
 * load, so both reach the near slice within a cycle or two. */
static void run_crossing_pairs(chip_run *cr, const char *l2)
{
    const char *k = ".kernel two\n.param off\n.data a u32[65536] = zero\n"
                    "    param r3, off\n"
                    "    mov r5, %tid.x\n"
                    "    shl.u32 r5, r5, 9\n"
                    "    add r3, r3, r5\n"
                    "    ld.global.cg.u32 r1, [r3+@a]\n"
                    "    exit\n";
    char *lt = g_strdup_printf("grid = 1\nblock = 2\nsms = 0\nargs = %u\n"
                               "\n[launch.k1]\nkernel = k.sasm\ngrid = 1\nblock = 2\nsms = 1\nargs = %u\n",
                               (unsigned)D, (unsigned)A);
    char *parts = g_strconcat(PARTS, l2, NULL);
    char *model = edit("[l2]\n", parts);
    chip_run_text(cr, model, k, lt, (char *[]){"dram.timing=simple", NULL});
    g_free(model);
    g_free(parts);
    g_free(lt);
}

/* run_crossing_pairs with `l2` completes: each SM's two line accesses, two
 * far requests sent and two served by each slice, `uncached` of them
 * served uncached; with none uncached, each slice refused a copy for want
 * of an MSHR at least once. */
static void expect_crossing_pairs_complete(const char *l2, unsigned uncached)
{
    chip_run cr;
    run_crossing_pairs(&cr, l2);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "accesses"), 2);
    cr_expect_eq(chip_counter(&cr, "sm1.ldst", "accesses"), 2);
    for (unsigned i = 0; i < 2; i++) {
        char b[8];
        snprintf(b, sizeof b, "l2s%u", i);
        cr_expect_eq(chip_counter(&cr, b, "far_requests"), 2, "%s", b);
        cr_expect_eq(chip_counter(&cr, b, "far_served"), 2, "%s", b);
        cr_expect_eq(chip_counter(&cr, b, "bypassed"), uncached, "%s", b);
        if (!uncached)
            cr_expect_geq(chip_counter(&cr, b, "fail_mshr_full"), 1, "%s", b);
    }
    chip_run_free(&cr);
}

Test(chip_l2_partitions, copies_holding_every_mshr_deadlock_without_reserve)
{
    /* l2.mshr_entries = 2, no reserve. Both lines of each SM miss their
     * near copies and reach their near slice within a few L2 cycles of each
     * other, long before their far requests reach the home slice (60 ticks
     * of link each way, header). Each slice's two MSHRs
     * then hold its two copies, so neither home slice can take the other's
     * far request (its home miss needs an MSHR): every fill waits on the
     * other slice, and the run ends with both CTAs unfinished. (The case
     * the reserve below exists for: docs/chip.md.) */
    chip_run cr;
    run_crossing_pairs(&cr, "mshr_entries = 2\n");
    cr_expect_not(cr.ok, "completed without the reserve");
    cr_expect(cr.error && strstr(cr.error, "deadlock") && strstr(cr.error, "2 CTA(s) unfinished"), "%s",
              cr.error ? cr.error : "no error");
    cr_expect_geq(chip_counter(&cr, "l2s0", "fail_mshr_full"), 1);
    cr_expect_geq(chip_counter(&cr, "l2s1", "fail_mshr_full"), 1);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, reserved_mshrs_keep_copies_from_deadlocking)
{
    /* The run above with l2.home_mshr_reserve = 1: a copy's miss needs more
     * than one free entry. The first copy of each slice takes one (2 free),
     * the second is refused (1 free) and waits; the home miss of the other
     * partition's far request takes the kept entry, fills from DRAM and
     * answers, the first copy fills, and the second copy then goes the same
     * way. Every load completes: two far requests sent and served by each
     * slice, at least one MSHR refusal in each, nothing served uncached. */
    expect_crossing_pairs_complete("mshr_entries = 2\nhome_mshr_reserve = 1\n", 0);
}

Test(chip_l2_partitions, far_request_to_a_reserved_set_is_served_uncached)
{
    /* As above with a one-set, one-way L2 slice and the reserve: each
     * slice's only line is reserved by its first copy (D at l2s0, A at
     * l2s1) until that copy's fill, so the other partition's far request
     * finds no way to allocate (set all reserved) in its home slice, and
     * the MSHR reserve alone would leave both waiting. The home slice
     * serves it uncached (to DRAM and back without a line): the first copy
     * of each slice fills, then the second. Each slice: two far requests
     * sent, two served, two of them uncached (both of the other's misses
     * found the set reserved by a copy). */
    expect_crossing_pairs_complete("sets = 1\nways = 1\nmshr_entries = 2\nhome_mshr_reserve = 1\n", 2);
}

Test(chip_l2_partitions, far_request_waits_for_a_set_reserved_by_a_home_miss)
{
    /* One-set, one-way slices, two MSHR entries, the reserve. SM 0 loads
     * A + 0x200 (homed in l2s0: channel 0, see header) and SM 1 loads A
     * (homed in l2s0, near partition 1), both at once, L1-bypassing. SM 0's
     * request reaches l2s0 at tick 36 (header) and reserves its only way for
     * a home miss to DRAM; SM 1's reaches l2s1 at 36, misses its copy and
     * crosses to l2s0, arriving at 102: the set is all reserved, but by a
     * home line, whose fill comes from DRAM (tick 948) and frees it. So the
     * far request waits for that fill instead of being served uncached, then
     * misses and fills A in l2s0 (evicting A + 0x200). l2s0: one far
     * request served, two misses (A + 0x200, then A), nothing uncached.
     * (Served uncached, as before the bypass was limited to sets of copies,
     * l2s0 would count one bypass and one miss.) */
    const char *lt = "grid = 1\nblock = 1\nsms = 0\nargs = 512\n"
                     "\n[launch.k1]\nkernel = k.sasm\ngrid = 1\nblock = 1\nsms = 1\nargs = 0\n";
    char *model = edit("[l2]\n", PARTS "sets = 1\nways = 1\nmshr_entries = 2\nhome_mshr_reserve = 1\n");
    chip_run cr;
    chip_run_text(&cr, model, ONE_LOAD_KERNEL, lt, (char *[]){"dram.timing=simple", NULL});
    g_free(model);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "loads"), 1);
    cr_expect_eq(chip_counter(&cr, "sm1.ldst", "loads"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s1", "far_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "far_served"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "bypassed"), 0);
    cr_expect_eq(chip_counter(&cr, "l2s0", "misses"), 2);
    chip_run_free(&cr);
}

Test(chip_l2_partitions, reserve_not_below_mshr_entries_refused)
{
    /* A reserve of every MSHR entry leaves a copy none: refused, naming the key. */
    char *model = edit("[l2]\n", PARTS "mshr_entries = 2\nhome_mshr_reserve = 2\n");
    expect_build_error(model, "l2.home_mshr_reserve");
    g_free(model);
}
