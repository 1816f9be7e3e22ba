/* Exact load latencies through the assembled chip (gpu_build: SM -> LD/ST +
 * L1D -> request crossbar -> L2 slice -> DRAM channel -> L2 -> reply
 * crossbar -> L1D -> LD/ST), in four different clock domains, for an L1
 * hit, an L1 miss that hits the L2, a DRAM access to a closed bank, a row
 * hit and a row conflict, under the simple and the full DRAM timing.
 *
 * Clocks: core 250 MHz, interconnect 750, L2 500, DRAM 1000. The tick is
 * 1/3000 us, so the periods are core 12 ticks, icnt 4, L2 6, DRAM 3: every
 * core edge is an edge of every domain, which makes the latency below the
 * same whichever core cycle c0 the load enters the LD/ST unit (times are
 * ticks after 12*c0). One thread; each load's address depends on the value
 * the previous one returned (0), so loads go one at a time and each
 * latency sample is one load.
 *
 * Addresses: the array a starts at 0x10000000 (the first .data base).
 * A = a, B = a + 0x80 (next line, same DRAM row), C = a + 0x20000. With 2
 * channels interleaved every 256 B and 16 banks of 4 KiB rows (linear map),
 * the channel-local address is L = (addr >> 9 << 8) | (addr & 255); bank
 * = L[11:8], row = L >> 16. A and B: channel 0, bank 0, row 0x800; C:
 * channel 0, bank 0, row 0x801. So all go to partition 0 (slice l2s0);
 * B after A is a row hit, C after A a row conflict.
 *
 * The L1 has 1 set of 1 way (linear index), so B evicts A from the L1 and
 * a later A misses the L1 but hits the L2. L1 hit latency 20 core cycles,
 * L2 hit latency 30 L2 cycles. Crossbar: 8 B header, 32 B flits, 1 flit
 * per cycle, latency 4 cycles: a read request is 1 flit, a 128 B reply 5.
 *
 * Miss path of a load entering the LD/ST at tick 0 (the unit issues the
 * access at once; the miss queue is drained from the next core cycle):
 *    12  miss request leaves the LD/ST (port: 1 icnt cycle = 4 ticks)
 *    16  at the request crossbar: granted, 1 flit, done at 20; + 4 cycles
 *    36  at the L2 slice (36 is an L2 edge): miss, queued for DRAM
 *    42  next L2 cycle: request leaves for DRAM (port: 1 DRAM cycle = 3)
 *    45  at the DRAM channel (DRAM cycle 15): commands from this cycle
 *  45+D  data done after D DRAM ticks; the reply leaves (3 ticks)
 *  48+D  at the L2 (rounded up to an L2 edge, a multiple of 6): fill,
 *        reply to the reply crossbar (4 ticks), which takes it at the
 *        next icnt edge, moves 5 flits (20 ticks) and delivers 16 ticks
 *        later; the LD/ST takes it at the next core edge and completes.
 * L2 hit: at 36 + 30*6 = 216 the L2 replies: crossbar 220..240, LD/ST at
 *   256 -> core edge 264 = 22 core cycles.
 * Simple timing (row hit 100, conflict/closed 300 DRAM cycles): D = 900
 *   (closed or conflict): L2 at 948, crossbar 952..972, LD/ST at 988 ->
 *   996 = 83 cycles; D = 300 (row hit): L2 348, crossbar 352..372, LD/ST
 *   388 -> 396 = 33 cycles.
 * Full timing (GDDR5 defaults: a 128 B line is 2 bursts of BL 8 at 4
 *   transfers per clock, 2 bus cycles each, tCCDL 3, tCL 12, tRCD 12,
 *   tRP 12): closed bank ACT 15, RD 27, RD 30, done 30+12+2 = 44 -> D = 87
 *   (29 cycles): L2 at 135 -> 138, crossbar 142 -> 144..164, LD/ST at
 *   180 = 15 cycles. Row hit: RD 15, RD 18, done 32 -> D = 51: L2 at 99 ->
 *   102, crossbar 106 -> 108..128, LD/ST 144 = 12 cycles. Row conflict:
 *   PRE 15, ACT 27, RD 39, RD 42, done 56 -> D = 123: L2 at 171 -> 174,
 *   crossbar 178 -> 180..200, LD/ST 216 = 18 cycles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test_util.h"

static const char *model = CHIP_TWO_SM_MODEL;

enum { A = 0, B = 0x80, C = 0x20000 };

/* Runs the loads; checks the mean LD/ST load latency is `sum` / n core
 * cycles. */
static void expect_loads(const char *timing, const unsigned *off, unsigned n, unsigned sum)
{
    char *k = chip_chain_kernel(off, n);
    char *set = g_strdup_printf("dram.timing=%s", timing);
    char *sets[] = {set, NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "loads"), n);
    double mean = chip_derived(&cr, "sm0.ldst", "mean_load_latency");
    cr_expect_float_eq(mean * n, (double)sum, 1e-9, "%s: mean load latency %g, expected %u/%u", timing, mean,
                       sum, n);
    chip_run_free(&cr);
    g_free(k);
    g_free(set);
}

Test(chip_latency, simple_closed_bank)
{
    expect_loads("simple", (unsigned[]){A}, 1, 83);
}

Test(chip_latency, simple_l1_hit)
{
    expect_loads("simple", (unsigned[]){A, A}, 2, 83 + 20);
}

Test(chip_latency, simple_row_hit)
{
    expect_loads("simple", (unsigned[]){A, B}, 2, 83 + 33);
}

Test(chip_latency, simple_l1_miss_l2_hit)
{
    expect_loads("simple", (unsigned[]){A, B, A}, 3, 83 + 33 + 22);
}

Test(chip_latency, simple_row_conflict)
{
    expect_loads("simple", (unsigned[]){A, C}, 2, 83 + 83);
}

Test(chip_latency, full_closed_bank)
{
    expect_loads("full", (unsigned[]){A}, 1, 15);
}

Test(chip_latency, full_l1_hit)
{
    expect_loads("full", (unsigned[]){A, A}, 2, 15 + 20);
}

Test(chip_latency, full_row_hit)
{
    expect_loads("full", (unsigned[]){A, B}, 2, 15 + 12);
}

Test(chip_latency, full_l1_miss_l2_hit)
{
    expect_loads("full", (unsigned[]){A, B, A}, 3, 15 + 12 + 22);
}

Test(chip_latency, full_row_conflict)
{
    expect_loads("full", (unsigned[]){A, C}, 2, 15 + 18);
}

Test(chip_latency, atomic_executes_at_the_l2)
{
    /* An atomic always goes down uncached; at the L2 it misses like the
     * load A (DRAM closed bank, simple: fill at 948 = L2 cycle 158), then
     * takes l2.atomic_latency = 4 L2 cycles: replied at 162 * 6 = 972. Its
     * sector mask is the L1's (one 128 B sector), so the reply is a whole
     * line, 5 flits: crossbar 976..996, LD/ST at 1012 -> core edge 1020 =
     * cycle 85 after it entered the unit. */
    static const char *k = ".kernel at\n.data a u32[16] = zero\n"
                           "    atom.global.add.u32 r1, [@a], 1\n    exit\n";
    char *sets[] = {"dram.timing=simple", NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "atomics"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "atomic_requests"), 1);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "bypassed"), 1);
    /* load_latency samples loads only; the atomic's is its miss latency:
     * request left at core cycle 1, reply taken at 85. */
    cr_expect_float_eq(chip_derived(&cr, "sm0.ldst", "mean_miss_latency"), 84, 1e-9);
    /* at the L2: accepted at 36, replied at 972: (972 - 36) / 6 = 156 */
    cr_expect_float_eq(chip_derived(&cr, "l2s0", "mean_load_latency"), 156, 1e-9);
    chip_run_free(&cr);
}

Test(chip_latency, per_level_latencies_simple)
{
    /* A (closed bank), B (row hit), A again (an L2 hit: B evicted it from
     * the L1), in L2 cycles (6 ticks) and core cycles (12 ticks):
     * At the L2 slice, acceptance to reply: A 36 -> 948: 152; B 36 -> 348:
     *   52; the L2 hit 30. Below the L2 (request to DRAM at 42, data back):
     *   A 151, B 51.
     * Below the L1 (request left the LD/ST at core cycle 1): A's reply
     *   taken at cycle 83: 82; B's at 33: 32; the L2 hit's at 22: 21. */
    char *k = chip_chain_kernel((unsigned[]){A, B, A}, 3);
    char *sets[] = {"dram.timing=simple", NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_float_eq(chip_derived(&cr, "l2s0", "mean_load_latency") * 3, 152 + 52 + 30, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "l2s0", "mean_miss_latency") * 2, 151 + 51, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "sm0.ldst", "mean_miss_latency") * 3, 82 + 32 + 21, 1e-9);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "misses"), 3);
    cr_expect_eq(chip_counter(&cr, "l2s0", "hits"), 1);
    cr_expect_eq(chip_counter(&cr, "l2s0", "misses"), 2);
    cr_expect_eq(chip_counter(&cr, "dram0", "row_hits"), 1);
    chip_run_free(&cr);
    g_free(k);
}

Test(chip_latency, cluster_adds_a_cycle_each_way)
{
    /* Both SMs in one cluster (gpu.sms_per_cluster = 2): the load A goes
     * LD/ST -> cluster (1 icnt cycle) -> crossbar input (1 more): at 12
     * it leaves, cluster at 16, crossbar at 20, 1 flit to 24, L2 at 40 ->
     * L2 edge 42; to DRAM at 48, there at 51; closed bank (simple, 900
     * ticks) done 951, L2 at 954 (an edge): reply to the crossbar at 958 ->
     * icnt edge 960, 5 flits to 980, cluster at 996, LD/ST at 1000 -> core
     * edge 1008 = 84 cycles (83 without the cluster). */
    char *k = chip_chain_kernel((unsigned[]){A}, 1);
    char *sets[] = {"dram.timing=simple", "gpu.sms_per_cluster=2", NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_float_eq(chip_derived(&cr, "sm0.ldst", "mean_load_latency"), 84, 1e-9);
    cr_expect_eq(chip_counter(&cr, "cluster0", "requests"), 1);
    cr_expect_eq(chip_counter(&cr, "cluster0", "replies"), 1);
    chip_run_free(&cr);
    g_free(k);
}

Test(chip_latency, clustered_sms_all_get_their_data)
{
    /* 8 CTAs on 4 SMs in clusters of 3 (cluster0: SMs 0-2, cluster1: SM 3),
     * each thread loading its own word: every load answered, to the right
     * SM (a reply sent to the wrong SM would leave a warp waiting: the run
     * would end in a deadlock error). */
    static const char *k = ".kernel st\n.data a u32[4096] = iota(start=0, step=1)\n.data o u32[4096]\n"
                           "    mov r0, %ctaid.x\n    mov r1, %ntid.x\n    mov r2, %tid.x\n"
                           "    mad r3, r0, r1, r2\n    shl r3, r3, 2\n    ld.global.u32 r4, [r3+@a]\n"
                           "    st.global.u32 [r3+@o], r4\n    exit\n";
    char *sets[] = {"gpu.sms=4", "gpu.sms_per_cluster=3", NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 8\nblock = 128", sets);
    cr_assert(cr.ok, "%s", cr.error);
    /* 8 CTAs x 4 warps, one 128 B line per warp load, and one per warp
     * store, which the L2 acknowledges: 32 data replies + 32 acks */
    cr_expect_eq(stats_sum(cr.st, "sm*.ldst", "loads"), 32);
    cr_expect_eq(chip_counter(&cr, "cluster0", "replies") + chip_counter(&cr, "cluster1", "replies"), 64);
    cr_expect_gt(chip_counter(&cr, "cluster0", "replies"), chip_counter(&cr, "cluster1", "replies"));
    chip_run_free(&cr);
}

Test(chip_latency, the_issue_statistics_are_all_reported)
{
    /* Every statistic the memory-hierarchy issue lists, in the JSON of a
     * chip run: per level accesses, hits, misses, pending hits; the L1 miss
     * taxonomy; MSHR occupancy; reservation failures by cause; LD/ST stall
     * categories; MPLI; crossbar utilisation and queueing; row-buffer hit
     * rate; DRAM bandwidth use; load latency per level (mean and histogram). */
    char *k = chip_chain_kernel((unsigned[]){A, B, A}, 3);
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(cr.st, f, 0);
    fclose(f);
    static const char *const want[][2] = {
        {"sm0.l1d", "hits"}, {"sm0.l1d", "misses"}, {"sm0.l1d", "hits_reserved"},
        {"sm0.l1d", "misses_cold"}, {"sm0.l1d", "misses_intra_warp"}, {"sm0.l1d", "misses_inter_warp"},
        {"sm0.l1d", "mshr_occupancy"}, {"sm0.l1d", "fail_mshr_full"}, {"sm0.l1d", "fail_mshr_merge_limit"},
        {"sm0.l1d", "fail_miss_queue_full"}, {"sm0.l1d", "fail_set_all_reserved"},
        {"sm0.ldst", "stall_coal"}, {"sm0.ldst", "stall_mshr"}, {"sm0.ldst", "stall_icnt"},
        {"sm0.ldst", "refused_mshr_full"}, {"sm0.ldst", "mpli_coherent"}, {"sm0.ldst", "mpli_divergent"}, {"sm0.ldst", "load_latency"},
        {"sm0.ldst", "mean_load_latency"}, {"sm0.ldst", "miss_latency"},
        {"l2s0", "hits"}, {"l2s0", "misses"}, {"l2s0", "hits_reserved"}, {"l2s0", "mshr_occupancy"},
        {"l2s0", "load_latency"}, {"l2s0", "mean_miss_latency"},
        {"icnt.req", "utilisation"}, {"icnt.req", "queue_delay"}, {"icnt.reply", "mean_queue_delay"},
        {"dram0", "row_hit_rate"}, {"dram0", "bus_utilisation"}, {"dram0", "bandwidth"}, {"dram0", "latency"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        /* the block object, then the name inside it */
        char *b = g_strdup_printf("\"%s\":", want[i][0]);
        char *n = g_strdup_printf("\"%s\":", want[i][1]);
        /* the first occurrence is under "blocks" (the schema comes after) */
        const char *at = strstr(buf, b);
        char *obj = NULL;
        if (at && (at = strchr(at, '{'))) {
            const char *e = at;
            for (int depth = 0; *e; e++) {
                depth += (*e == '{') - (*e == '}');
                if (depth == 0)
                    break;
            }
            obj = g_strndup(at, (size_t)(e - at) + 1);
        }
        cr_expect(obj && strstr(obj, n), "no %s/%s in the statistics", want[i][0], want[i][1]);
        g_free(obj);
        g_free(b);
        g_free(n);
    }
    free(buf);
    chip_run_free(&cr);
    g_free(k);
}

/* The row hint of ld.rowhint goes through the L1 and L2 miss paths to the
 * DRAM controller. Close-page policy: a row is precharged as soon as its
 * access is done, unless the access was hinted, which keeps it open (and
 * arms a hold; the window is made long enough for any later request).
 * Load A, then B (same row, next line; B's address depends on A's data):
 *   hinted A: A is a closed-bank access (83 cycles, as simple_closed_bank),
 *     its row stays open, so B is a row hit (33, as simple_row_hit): 116;
 *     one hold armed, ended by B: hint_holds = hint_hold_hits = 1.
 *   plain A: the row closes after A, B finds the bank closed: 83 + 83. */
static void expect_hint(bool hinted, unsigned sum, uint64_t holds)
{
    char *k = g_strdup_printf(".kernel hint\n.data a u32[65536] = zero\n    mov r1, 0\n"
                              "    ld.global%s.u32 r1, [r1+@a]\n    add r2, r1, %u\n"
                              "    ld.global.u32 r1, [r2+@a]\n    exit\n",
                              hinted ? ".rowhint" : "", (unsigned)B);
    char *sets[] = {"dram.timing=simple", "dram.page_policy=close", "dram.hint_hold_cycles=100000", NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.ldst", "loads"), 2);
    cr_expect_float_eq(chip_derived(&cr, "sm0.ldst", "mean_load_latency") * 2, (double)sum, 1e-9,
                       "hinted %d: mean load latency %g, expected %u/2", hinted,
                       chip_derived(&cr, "sm0.ldst", "mean_load_latency"), sum);
    cr_expect_eq(chip_counter(&cr, "dram0", "hint_holds"), holds);
    cr_expect_eq(chip_counter(&cr, "dram0", "hint_hold_hits"), holds);
    cr_expect_eq(chip_counter(&cr, "dram0", "row_hits"), holds);
    chip_run_free(&cr);
    g_free(k);
}

Test(chip_latency, row_hint_reaches_the_controller)
{
    expect_hint(true, 83 + 33, 1);
}

Test(chip_latency, no_row_hint_closes_the_row)
{
    expect_hint(false, 83 + 83, 0);
}

/* Stores are fire-and-forget for the warp, but a CTA (and so the launch and
 * the run) ends only once its stores are performed: the L2 acknowledges
 * each one after its pipeline (l2.hit_latency), and the CTA's end is the
 * core cycle the SM receives the last acknowledgement (GPGPU-Sim: a warp is
 * not done before stores_done).
 * One thread stores a word and exits. The store (write-evict, so it goes
 * down, carrying only the 32-B segment it writes though the L1 line is an
 * unsectored 128 B) enters the LD/ST at core cycle c0 (tick 12*c0 = 0
 * below): it leaves at 12, is at the request crossbar at 16, 32 B + 8 B
 * header = 2 flits until 24, at the L2 at 40 -> L2 edge 42, accepted
 * (write-back L2: allocated, dirty) and acked at 42 + 6H (H =
 * l2.hit_latency); the ack (header only, 1 flit) is at the
 * reply crossbar 4 ticks later, at the LD/ST 4 + 4 + 16 ticks after that,
 * rounded up to a core edge, and at the SM one core cycle later. The exit
 * issued right after the store is long done by then (H >= 130: the ack
 * comes 70+ core cycles after c0), so the run ends with the ack. From H =
 * 130 to H = 230, 100 L2 cycles = 600 ticks = exactly 50 core cycles (every
 * edge is a core edge), so the run is 50 core cycles longer; were stores
 * not waited for, it would not move at all.
 * Absolute: the CTA's warp is fetchable at 10 (core.cta_launch_latency);
 * mov issues at 10, its r1 is readable at 10 + 7 (pipeline_depth) = 17,
 * when st issues; the request leaves at once (ldst_latency 1) and the
 * LD/ST takes it one core cycle later: c0 = 18. H = 130: ack at 42 + 780
 * = 822, reply crossbar 826 -> icnt edge 828, 1 flit to 832, at the LD/ST
 * at 848 -> core edge 852 = c0 + 71 = 89; the SM has it at 90: the run
 * ends at core cycle 90 (140 with H = 230). (A whole-line write, 5 flits,
 * ended at 91.) */
typedef struct store_totals {
    bool ok;
    uint64_t cycles, store_requests, store_acks, replies, reply_flits;
} store_totals;

/* In a child process: no assertions here (the parent checks). */
static store_totals store_run(const char *h)
{
    static const char *k = ".kernel st\n.data a u32[64] = zero\n    mov r1, 7\n"
                           "    st.global.u32 [@a], r1\n    exit\n";
    char *set = g_strdup_printf("l2.hit_latency=%s", h);
    char *sets[] = {set, NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    store_totals t = {.ok = cr.ok, .cycles = cr.r.core_cycles};
    stats_get_counter(cr.st, "l2s0", "store_requests", &t.store_requests);
    stats_get_counter(cr.st, "l2s0", "store_acks", &t.store_acks);
    stats_get_counter(cr.st, "l2s0", "replies", &t.replies);
    stats_get_counter(cr.st, "icnt.reply", "flits", &t.reply_flits);
    chip_run_free(&cr);
    g_free(set);
    return t;
}

/* One simulation per process (SimGrid): run store_run in a child. */
static store_totals store_run_child(const char *h)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        store_totals c = store_run(h);
        _exit(write(fd[1], &c, sizeof c) == (ssize_t)sizeof c ? 0 : 1);
    }
    close(fd[1]);
    store_totals c = {0};
    ssize_t n = read(fd[0], &c, sizeof c);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(n == (ssize_t)sizeof c && WIFEXITED(status) && WEXITSTATUS(status) == 0, "H = %s: child failed", h);
    cr_assert(c.ok, "H = %s: the run failed", h);
    cr_expect_eq(c.store_requests, 1);
    cr_expect_eq(c.store_acks, 1);
    cr_expect_eq(c.replies, 0);       /* an ack is not a data reply */
    cr_expect_eq(c.reply_flits, 1);   /* header only */
    return c;
}

Test(chip_latency, a_cta_ends_when_its_store_is_acknowledged)
{
    uint64_t fast = store_run_child("130").cycles, slow = store_run_child("230").cycles;
    cr_expect_eq(fast, 90);
    cr_expect_eq(slow, 140);
    cr_expect_eq(slow - fast, 50, "run ends at %lu (H = 130) and %lu (H = 230)", (unsigned long)fast,
                 (unsigned long)slow);
}

Test(chip_latency, every_store_reaches_the_l2_before_the_run_ends)
{
    /* 32 threads store to 32 different lines (128 B apart): 32 L1 writes,
     * all of which must be in the L2 slices and acknowledged when the run
     * ends (before the fix the run stopped with most of them still queued
     * in the L1 and the crossbar). Lines alternate between the two slices
     * (256 B channel interleave): 16 each. */
    static const char *k = ".kernel st\n.data a u32[65536] = zero\n    mov r1, %tid.x\n"
                           "    shl r2, r1, 7\n    st.global.u32 [r2+@a], r1\n    exit\n";
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 32", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "store_misses"), 32);
    cr_expect_eq(chip_counter(&cr, "l2s0", "store_requests"), 16);
    cr_expect_eq(chip_counter(&cr, "l2s1", "store_requests"), 16);
    cr_expect_eq(chip_counter(&cr, "l2s0", "store_acks") + chip_counter(&cr, "l2s1", "store_acks"), 32);
    chip_run_free(&cr);
}

/* Merging (docs/cache.md, "Row hint"): two independent loads of the same
 * line issued back to back by one warp (scoreboard: the second does not
 * wait for the first's data); the second finds the first's miss
 * in flight and merges into its MSHR entry (a pending hit), sending
 * nothing below. One DRAM read either way; it carries the hint only when
 * the first load, whose request goes down, was the hinted one. */
static void expect_merged_hint(bool first_hinted)
{
    char *k = g_strdup_printf(".kernel m\n.data a u32[64] = zero\n"
                              "    ld.global%s.u32 r1, [@a]\n    ld.global%s.u32 r2, [@a+4]\n"
                              "    add r3, r1, r2\n    exit\n",
                              first_hinted ? ".rowhint" : "", first_hinted ? "" : ".rowhint");
    char *sets[] = {"dram.timing=simple", "core.discipline=scoreboard", NULL};
    chip_run cr;
    chip_run_text(&cr, model, k, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "misses"), 1);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "hits_reserved"), 1);
    cr_expect_eq(chip_counter(&cr, "dram0", "reads"), 1);
    cr_expect_eq(chip_counter(&cr, "dram0", "hint_holds"), first_hinted ? 1 : 0);
    chip_run_free(&cr);
    g_free(k);
}

Test(chip_latency, row_hint_of_the_request_that_goes_down)
{
    expect_merged_hint(true);
}

Test(chip_latency, row_hint_of_a_merged_access_stays_behind)
{
    expect_merged_hint(false);
}
