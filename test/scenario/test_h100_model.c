/* The H100 SXM model (models/h100.ini) and the ground-truth scenarios that
 * tools/correlate runs on it (workloads/groundtruth/).
 *
 * The model values are checked against NVIDIA's public numbers, worked out
 * in each test's comment (H100 whitepaper, CUDA programming guide, and the
 * cudaGetDeviceProperties line of the measured board that heads every
 * ground-truth CSV), never copied from the model file. The correlation itself
 * (errors against the measurements) is a report, not a test: tools/correlate. */
#include "scen_test_util.h"
#include "simtgrid/isa.h"
#include "simtgrid/scenario.h"

static config *load_h100(void)
{
    char *path = src_path("models/h100.ini");
    config *c = config_new();
    GError *err = NULL;
    bool ok = model_load(c, path, &err);
    cr_assert(ok, "%s: %s", path, err ? err->message : "?");
    g_free(path);
    return c;
}

#define I(key) cfg_int(c, key)

/* Device query: sms=132, max_threads_per_sm=2048 (64 warps of 32),
 * regs_per_sm=65536, smem_per_sm=233472 (228 KiB), clock_khz=1980000;
 * whitepaper: four sub-partitions (one scheduler each) per SM. */
Test(h100_model, sm_resources)
{
    config *c = load_h100();
    cr_expect_eq(I("gpu.sms"), 132);
    cr_expect_eq(I("core.max_warps") * I("core.warp_size"), 2048);
    cr_expect_eq(I("core.max_threads"), 2048);
    cr_expect_eq(I("core.regs"), 65536);
    cr_expect_eq(I("core.smem_bytes"), 228 * 1024);
    cr_expect_eq(I("core.schedulers"), 4);
    cr_expect_float_eq(cfg_float(c, "clock.core_mhz"), 1980.0, 1e-9);
    config_free(c);
}

/* Peak DRAM bandwidth: a 5120-bit bus at 2619 MHz, double data rate:
 * 5120 / 8 x 2 x 2619 = 3,352,320 MB/s (the whitepaper's 3.35 TB/s). The
 * model moves channels x bus_bytes per DRAM cycle. */
Test(h100_model, dram_peak)
{
    config *c = load_h100();
    double model = (double)I("dram.channels") * (double)I("dram.bus_bytes") *
                   cfg_float(c, "clock.dram_mhz");
    cr_expect_float_eq(model, 5120.0 / 8 * 2 * 2619, 1e-6);
    config_free(c);
}

/* Store path: store.csv (ubench2.cu k_store, one block of 1024 threads)
 * measures 63.4 GB/s from one SM. The model's request network moves
 * icnt.req_data_bytes_per_cycle of store data per crossbar cycle
 * (clock.icnt_mhz): 32 B x 1980 MHz = 63,360 MB/s, within 0.1% of 63.4 GB/s. */
Test(h100_model, store_path_per_sm)
{
    config *c = load_h100();
    double model = (double)I("icnt.req_data_bytes_per_cycle") * cfg_float(c, "clock.icnt_mhz");
    cr_expect(model > 63400.0 * 0.999 && model < 63400.0 * 1.001, "%.0f MB/s", model);
    config_free(c);
}

/* L2: the device query reports 52428800 bytes in two partitions, which the
 * model keeps (channels x slices x sets x ways x line), as two L2
 * partitions of 25 MiB = 26214400 bytes each: what one SM sees before its
 * chain falls out of its near partition (latency.csv cg past 24 MiB). */
Test(h100_model, l2_capacity)
{
    config *c = load_h100();
    int64_t bytes = I("dram.channels") * I("l2.slices_per_partition") * I("l2.sets") *
                    I("l2.ways") * I("l2.line_bytes");
    cr_expect_eq(bytes, 52428800);
    cr_expect_eq(I("l2.partitions"), 2);
    cr_expect_eq(bytes / I("l2.partitions"), 26214400);
    cr_expect_eq(I("l2.sector_bytes"), 32);
    config_free(c);
}

/* L1: at most the 256 KB of the combined L1/shared array, and enough for the
 * 192 KiB chain that latency.csv shows all-hit (43 cycles). */
Test(h100_model, l1_capacity)
{
    config *c = load_h100();
    int64_t bytes = I("l1d.sets") * I("l1d.ways") * I("l1d.line_bytes");
    cr_expect_leq(bytes, 256 * 1024);
    cr_expect_geq(bytes, 192 * 1024);
    config_free(c);
}

/* Throughputs per SM: 16 SFU lanes -> 16 / 32 = 0.5 warp SFU op per cycle
 * (ubench3 sfu saturates at 0.499); 128 FP32 lanes -> 4 warp FMAs per cycle
 * (alu.csv saturates at 3.8 with the loop overhead); 32 shared-memory banks
 * of 4 bytes, one warp access per cycle (smem.csv stride 1: 1.01). */
Test(h100_model, unit_throughputs)
{
    config *c = load_h100();
    cr_expect_eq(I("core.sfu_units") * I("core.sfu_lanes"), 16);
    cr_expect_eq(I("core.alu_units") * I("core.alu_lanes"), 128);
    cr_expect_eq(I("core.smem_banks"), 32);
    cr_expect_eq(I("core.smem_bank_bytes"), 4);
    cr_expect_eq(I("core.smem_units") * I("core.smem_lanes") / I("core.smem_ii"), 32);
    /* CUDA guide throughput table, cc 9.0: 16 int<->float conversions per SM
     * per cycle; four sub-partitions, each with its own units, one per
     * scheduler; two register-file banks per sub-partition */
    cr_expect_eq(I("core.cvt_units") * I("core.cvt_lanes"), 16);
    cr_expect_eq(I("core.cvt_units"), I("core.schedulers"));
    cr_expect(cfg_bool(c, "core.units_per_scheduler"));
    cr_expect_eq(I("core.rf_banks"), 2);
    config_free(c);
}

/* Every committed ground-truth scenario loads (its model, launches and
 * arguments are valid) and every kernel parses: the files tools/correlate
 * writes with --write-scenarios stay runnable. */
Test(h100_model, groundtruth_scenarios_and_kernels_load)
{
    const char *sub[] = {"workloads/groundtruth/scenarios", "workloads/groundtruth/kernels"};
    unsigned found[2] = {0, 0};
    for (unsigned k = 0; k < 2; k++) {
        char *dir = src_path(sub[k]);
        GError *err = NULL;
        GDir *d = g_dir_open(dir, 0, &err);
        cr_assert(d, "%s: %s", dir, err ? err->message : "?");
        const char *name;
        while ((name = g_dir_read_name(d))) {
            char *path = g_build_filename(dir, name, NULL);
            if (k == 0 && g_str_has_suffix(name, ".ini")) {
                scenario *s = scenario_load(path, NULL, &err);
                cr_expect(s, "%s: %s", path, err ? err->message : "?");
                g_clear_error(&err);
                if (s)
                    scenario_free(s);
                found[k]++;
            } else if (k == 1 && g_str_has_suffix(name, ".sasm")) {
                isa_program *p = isa_program_load_file(path, &err);
                cr_expect(p, "%s: %s", path, err ? err->message : "?");
                g_clear_error(&err);
                if (p)
                    isa_program_free(p);
                found[k]++;
            }
            g_free(path);
        }
        g_dir_close(d);
        g_free(dir);
    }
    /* an empty folder would pass the loop above: the files must be there */
    cr_expect_gt(found[0], 0);
    cr_expect_gt(found[1], 0);
}
