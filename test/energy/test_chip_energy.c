/* The energy block of a real run through the assembled chip, and bad
 * energy.* values refused with file, line and key.
 *
 * The chip (same as test/gpu/test_chip_latency.c): 2 SMs, a 1-set 1-way L1,
 * 2 DRAM channels, crossbar flits of 32 B with an 8 B header (a read
 * request is 1 flit, a 128 B line reply 5). One thread runs
 *     mov r1, 0 / add r2, r1, 0 / ld.global.u32 r1, [r2+@a] / exit
 * : 4 warp instructions of 1 active lane each. The load misses the cold L1
 * (1 access), misses the L2 (1 access), opens one closed DRAM row (1
 * activation) and reads one 128 B line (1 read, 128 bytes): 6 flits.
 * Energies (pJ): issue 1000, lane 100, rf 10, L1 1000, L2 2000, flit 100,
 * activation 5000, byte 10, access 7000; static powers 0. So:
 *   issue 4 x 1000 = 4 nJ; lanes 4 x 100 = 0.4 nJ; rf 0.04 nJ;
 *   L1 1 nJ; L2 2 nJ; crossbar 6 x 100 = 0.6 nJ;
 *   DRAM 5000 + 128 x 10 + 7000 = 13280 pJ = 13.28 nJ; total 21.32 nJ. */
#include <string.h>

#include "../gpu/gpu_test_util.h"

static const char *model = CHIP_TWO_SM_MODEL
    "[energy]\nissue_pj = 1000\nlane_pj = 100\nrf_pj = 10\nl1_access_pj = 1000\n"
    "l2_access_pj = 2000\nicnt_flit_pj = 100\ndram_activate_pj = 5000\ndram_byte_pj = 10\n"
    "dram_access_pj = 7000\nsm_static_mw = 0\nchip_static_mw = 0\n";

static const char *kernel =
    ".kernel one\n.data a u32[64] = zero\n"
    "    mov r1, 0\n    add r2, r1, 0\n    ld.global.u32 r1, [r2+@a]\n    exit\n";

Test(chip_energy, one_load_by_hand)
{
    chip_run cr;
    chip_run_text(&cr, model, kernel, "grid = 1\nblock = 1", NULL);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_float_eq(chip_derived(&cr, "energy", "issue_nj"), 4, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "energy", "lanes_nj"), 0.4, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "energy", "rf_nj"), 0.04, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "energy", "l1_nj"), 1, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "energy", "l2_nj"), 2, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "energy", "icnt_nj"), 0.6, 1e-9);
    cr_expect_float_eq(chip_derived(&cr, "energy", "dram_nj"), 13.28, 1e-9);
    cr_expect_eq(chip_derived(&cr, "energy", "static_nj"), 0);
    cr_expect_float_eq(chip_derived(&cr, "energy", "total_nj"), 21.32, 1e-9);
    chip_run_free(&cr);
}

/* Static energy is power x simulated time: 2 SMs x 300 mW + 400 mW = 1 W;
 * a core cycle at 250 MHz lasts 4 ns, so static energy is 4 nJ per core
 * cycle of the run, on top of the same 21.32 nJ of dynamic energy. */
Test(chip_energy, static_is_power_times_time)
{
    char *sets[] = {"energy.sm_static_mw=300", "energy.chip_static_mw=400", NULL};
    chip_run cr;
    chip_run_text(&cr, model, kernel, "grid = 1\nblock = 1", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_assert_gt(cr.r.core_cycles, 0);
    cr_expect_float_eq(chip_derived(&cr, "energy", "static_nj"), 4.0 * cr.r.core_cycles, 1e-6);
    cr_expect_float_eq(chip_derived(&cr, "energy", "total_nj"), 21.32 + 4.0 * cr.r.core_cycles, 1e-6);
    /* 1 W of static power plus the dynamic part spread over the run. */
    cr_expect_float_eq(chip_derived(&cr, "energy", "avg_power_w"),
                       1 + 21.32 / (cr.r.core_cycles * 4.0), 1e-9);
    chip_run_free(&cr);
}

/* A negative energy in a model file is refused naming the file, the line
 * (line 3 of the file below) and the key. */
Test(chip_energy, bad_value_names_file_line_key)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("simtgrid-energy-XXXXXX", &e);
    cr_assert(dir);
    char *m = chip_write(dir, "model.ini", "[energy]\nissue_pj = 1\nlane_pj = -5\n");
    char *k = chip_write(dir, "k.sasm", kernel);
    char *s = chip_write(dir, "s.ini", "[scenario]\nmodel = model.ini\nname = t\n\n[launch.k]\nkernel = k.sasm\ngrid = 1\nblock = 1\n");
    scenario *scn = scenario_load(s, NULL, &e);
    config *c = scn ? scenario_point(scn, 0, &e) : NULL;
    cr_assert_null(c, "a negative energy was accepted");
    cr_assert(e);
    cr_expect(strstr(e->message, "model.ini:3") != NULL, "%s", e->message);
    cr_expect(strstr(e->message, "energy.lane_pj") != NULL, "%s", e->message);
    g_clear_error(&e);
    if (scn)
        scenario_free(scn);
    g_unlink(m), g_unlink(k), g_unlink(s);
    g_rmdir(dir);
    g_free(m), g_free(k), g_free(s), g_free(dir);
}

/* Register-file reads and writes (smN.rf_reads, rf_writes) feed rf_nj. The
 * kernel above with 8 threads (one warp, 8 active lanes): mov r1, 0 reads
 * no register and writes r1; add r2, r1, 0 reads r1, writes r2; the load
 * reads r2 (its address), writes r1; exit neither. Per lane 2 reads and 3
 * writes: 16 reads, 24 writes over 4 x 8 = 32 thread instructions. With
 * rf 10 pJ per lane, 30 per read, 50 per write:
 * 32 x 10 + 16 x 30 + 24 x 50 = 320 + 480 + 1200 = 2000 pJ = 2 nJ. */
Test(chip_energy, register_file_reads_and_writes_by_hand)
{
    char *sets[] = {"energy.rf_read_pj=30", "energy.rf_write_pj=50", NULL};
    chip_run cr;
    chip_run_text(&cr, model, kernel, "grid = 1\nblock = 8", sets);
    cr_assert(cr.ok, "%s", cr.error);
    cr_expect_eq(chip_counter(&cr, "sm0", "thread_insts"), 32);
    cr_expect_eq(chip_counter(&cr, "sm0", "rf_reads"), 16);
    cr_expect_eq(chip_counter(&cr, "sm0", "rf_writes"), 24);
    cr_expect_float_eq(chip_derived(&cr, "energy", "rf_nj"), 2, 1e-9);
    chip_run_free(&cr);
}
