/* The energy estimate alone, on a registry filled by hand: the numbers are
 * the parameters times counts chosen here, worked out in each comment. */
#include <criterion/criterion.h>
#include <math.h>

#include "energy/energy.h"

static double get(const stats *st, const char *name)
{
    double v = NAN;
    cr_assert(stats_get_derived(st, "energy", name, &v), "no energy.%s", name);
    return v;
}

/* Zero activity (no block counted anything): only static energy. 4 SMs x
 * 250 mW + 500 mW = 1.5 W over 1000 cycles at 500 MHz = 2 us: 3000 nJ,
 * average power 1.5 W; every dynamic component 0. */
Test(energy, zero_activity_is_static_only)
{
    stats *st = stats_new();
    energy_params p;
    energy_params_read(&p, NULL);
    p.sm_static_mw = 250;
    p.chip_static_mw = 500;
    energy_report(&p, st, 4, 1000, 500);
    const char *dyn[] = {"issue_nj", "lanes_nj", "rf_nj", "l1_nj", "l2_nj", "icnt_nj", "dram_nj"};
    for (unsigned i = 0; i < 7; i++)
        cr_assert_eq(get(st, dyn[i]), 0, "%s", dyn[i]);
    cr_assert_float_eq(get(st, "static_nj"), 3000, 1e-9);
    cr_assert_float_eq(get(st, "total_nj"), 3000, 1e-9);
    cr_assert_float_eq(get(st, "avg_power_w"), 1.5, 1e-12);
    stats_free(st);
}

/* Counters of two SMs and their sub-blocks: sm0 10 warp / 200 thread
 * instructions, sm1 5 / 60; sm0.l1d 7 accesses, sm0.ldst 100 "accesses"
 * (not an L1: must not count), l2s0 3, icnt.req 4 flits, dram0 2
 * activations, 256 + 64 bytes, 3 reads + 1 write. With issue 100 pJ, lane
 * 20, rf 10, L1 50, L2 300, flit 25, act 1000, byte 2, access 500:
 * issue 15 x 100 = 1.5 nJ; lanes 260 x 20 = 5.2 nJ; rf 2.6 nJ;
 * L1 7 x 50 = 0.35 nJ; L2 0.9 nJ; icnt 0.1 nJ;
 * DRAM 2000 + 320 x 2 + 4 x 500 = 4640 pJ = 4.64 nJ; static 0 (powers 0).
 * Total 15.29 nJ. */
Test(energy, counts_times_energies)
{
    stats *st = stats_new();
    uint64_t w0 = 10, t0 = 200, w1 = 5, t1 = 60, l1 = 7, ldst = 100, l2 = 3, fl = 4;
    uint64_t act = 2, br = 256, bw = 64, rd = 3, wr = 1;
    stats_counter(st, "sm0", "warp_insts", NULL, NULL, &w0);
    stats_counter(st, "sm0", "thread_insts", NULL, NULL, &t0);
    stats_counter(st, "sm1", "warp_insts", NULL, NULL, &w1);
    stats_counter(st, "sm1", "thread_insts", NULL, NULL, &t1);
    stats_counter(st, "sm0.l1d", "accesses", NULL, NULL, &l1);
    stats_counter(st, "sm0.ldst", "accesses", NULL, NULL, &ldst);
    stats_counter(st, "l2s0", "accesses", NULL, NULL, &l2);
    stats_counter(st, "icnt.req", "flits", NULL, NULL, &fl);
    stats_counter(st, "dram0", "activations", NULL, NULL, &act);
    stats_counter(st, "dram0", "bytes_read", NULL, NULL, &br);
    stats_counter(st, "dram0", "bytes_written", NULL, NULL, &bw);
    stats_counter(st, "dram0", "reads", NULL, NULL, &rd);
    stats_counter(st, "dram0", "writes", NULL, NULL, &wr);
    energy_params p = {.issue_pj = 100, .lane_pj = 20, .rf_pj = 10, .l1_access_pj = 50,
                       .l2_access_pj = 300, .icnt_flit_pj = 25, .dram_activate_pj = 1000,
                       .dram_byte_pj = 2, .dram_access_pj = 500};
    energy_report(&p, st, 2, 1000, 1000);
    cr_assert_float_eq(get(st, "issue_nj"), 1.5, 1e-12);
    cr_assert_float_eq(get(st, "lanes_nj"), 5.2, 1e-12);
    cr_assert_float_eq(get(st, "rf_nj"), 2.6, 1e-12);
    cr_assert_float_eq(get(st, "l1_nj"), 0.35, 1e-12);
    cr_assert_float_eq(get(st, "l2_nj"), 0.9, 1e-12);
    cr_assert_float_eq(get(st, "icnt_nj"), 0.1, 1e-12);
    cr_assert_float_eq(get(st, "dram_nj"), 4.64, 1e-12);
    cr_assert_eq(get(st, "static_nj"), 0);
    cr_assert_float_eq(get(st, "total_nj"), 15.29, 1e-9);
    stats_free(st);
}

/* The defaults come from the parameter table (the one default path). */
Test(energy, defaults_from_the_table)
{
    energy_params p;
    energy_params_read(&p, NULL);
    cr_assert_eq(p.lane_pj, 20);
    cr_assert_eq(p.dram_byte_pj, 112);
    cr_assert_eq(p.dram_access_pj, 0);
}

/* Register-file energy per access, summed over the SMs: sm0 300 reads and
 * 100 writes, sm1 200 and 50; sm0.l1d has no such counters. With rf 0 per
 * lane, 4 pJ per read, 10 per write: 500 x 4 + 150 x 10 = 3500 pJ = 3.5 nJ,
 * the whole dynamic energy (every other count is 0). */
Test(energy, register_file_per_access)
{
    stats *st = stats_new();
    uint64_t r0 = 300, w0 = 100, r1 = 200, w1 = 50;
    stats_counter(st, "sm0", "rf_reads", NULL, NULL, &r0);
    stats_counter(st, "sm0", "rf_writes", NULL, NULL, &w0);
    stats_counter(st, "sm1", "rf_reads", NULL, NULL, &r1);
    stats_counter(st, "sm1", "rf_writes", NULL, NULL, &w1);
    energy_params p = {.issue_pj = 100, .lane_pj = 20, .rf_pj = 0, .rf_read_pj = 4, .rf_write_pj = 10};
    energy_report(&p, st, 2, 1000, 1000);
    cr_assert_float_eq(get(st, "rf_nj"), 3.5, 1e-12);
    cr_assert_float_eq(get(st, "total_nj"), 3.5, 1e-12);
    stats_free(st);
}
