/* DaCache's FCW statistics through the assembled chip (sm0.l1d.dacache_fcw
 * and dacache_mean_fcw) under static and dynamic partitioning.
 *
 * One SM with a 32-set, 8-way L1 of 128-B lines (the thesis's Fermi L1D
 * geometry, Wang's dissertation, chapter 4, linear index) and one warp whose
 * lane l loads word 0 of line l (a 128-B stride, so one line in each set and
 * no bypass): one divergent load of 32 accesses, all cold misses, which
 * retires once at GTO priority 0.
 *
 * The LD/ST unit starts FCW at region x sets / 32 warps. Static partitions
 * keep that region, so they report it: Static0 (0 ways) 0 warps and Static2
 * (4 ways) 4, both at the end and as the mean over the one retired load
 * (before, Static0 printed FCW_min = 2, a clamp its placement never reads,
 * and every static mean printed 0 for lack of samples). Dynamic
 * partitioning from 4 ways starts at FCW 4 with CNT 128; the partially
 * cached load at priority 0 takes CNT to 128 - (4 - 0) = 124, far from 0,
 * so FCW stays 4: 4 at the end and a mean of 4 over one load, with no
 * increment or decrement. */
#include "gpu_test_util.h"

#define DACACHE_MODEL \
    "[clock]\ncore_mhz = 250\nicnt_mhz = 750\nl2_mhz = 500\ndram_mhz = 1000\n" \
    "[gpu]\nsms = 1\nmemory = caches\n" \
    "[l1d]\nsets = 32\nways = 8\nindex = linear\nhit_latency = 20\nreplace = dacache\n" \
    "[l2]\nhit_latency = 30\n" \
    "[icnt]\nflit_bytes = 32\nheader_bytes = 8\nflits_per_cycle = 1\nlatency = 4\n" \
    "[dram]\nchannels = 2\nbanks = 16\nrow_bytes = 4096\nchannel_interleave = 256\n" \
    "addr_map = linear\nrow_hit_latency = 100\nrow_conflict_latency = 300\ntiming = simple\n"

static const char *kernel = ".kernel strided\n.data a u32[32768] = zero\n"
                            "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                            "    ld.global.ca.u32 r3, [r2+@a]\n    add r4, r3, 1\n    exit\n";

static void run_with(const char *partition, const char *locality, double fcw, double mean)
{
    char *sets[] = {g_strdup_printf("l1d.dacache_partition=%s", partition),
                    g_strdup_printf("l1d.dacache_locality=%s", locality), NULL};
    chip_run cr;
    chip_run_text(&cr, DACACHE_MODEL, kernel, "grid = 1\nblock = 32\n", sets);
    cr_assert(cr.ok, "run: %s", cr.error);
    uint64_t misses = chip_counter(&cr, "sm0.l1d", "misses");
    cr_assert_eq(misses, 32, "one divergent load of 32 cold misses, got %lu", (unsigned long)misses);
    cr_expect_eq(chip_derived(&cr, "sm0.l1d", "dacache_fcw"), fcw, "%s, %s ways", partition, locality);
    cr_expect_eq(chip_derived(&cr, "sm0.l1d", "dacache_mean_fcw"), mean, "%s, %s ways", partition, locality);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "dacache_fcw_ups"), 0);
    cr_expect_eq(chip_counter(&cr, "sm0.l1d", "dacache_fcw_downs"), 0);
    chip_run_free(&cr);
    g_free(sets[0]);
    g_free(sets[1]);
}

Test(chip_dacache_fcw, static0_reports_no_locality_warps) { run_with("static", "0", 0, 0); }
Test(chip_dacache_fcw, static2_reports_its_four_warps) { run_with("static", "4", 4, 4); }
Test(chip_dacache_fcw, dynamic_reports_trained_fcw) { run_with("dynamic", "4", 4, 4); }
