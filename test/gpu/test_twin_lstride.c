/* The lstride twin (workloads/groundtruth/kernels/lstride.sasm) keeps two
 * loads in flight per warp, as nvcc's SASS of ubench.cu's k_lstride does
 * (a loop unrolled by 4 as two pairs LDG, LDG, IADD3 of both), and runs
 * exactly per_warp loads whatever its parity (an odd count enters the pair
 * loop at its second half).
 *
 * One warp (grid 1, block 32) on the two-SM test chip (gpu_test_util.h)
 * with simple DRAM timing: a load to a closed bank takes 83 core cycles
 * (test_chip_latency.c works it out). nlines = 2^25 - 1 and a stride of 32
 * lines (4 KiB): the warp's loads read lines 0 and 32, i.e. a + 0 and
 * a + 0x1000; with 2 channels interleaved every 256 B, both are in channel
 * 0 at channel-local addresses 0 and 0x800: banks 0 and 8, both closed, so
 * each load takes L = 83 cycles and neither waits for the other's bank.
 *
 * Let T be the issue time of one load's index arithmetic and E the
 * per_warp = 0 run. per_warp = 1 adds the odd entry, one body, the load's
 * latency and the loop end: c1 - c0 = T + L + (entry, loop end). per_warp
 * = 2 runs the second load's body while the first is in flight, then waits
 * for both: c2 - c1 = T (+ a few instructions), the first load's latency
 * hidden. So (c1 - c0) - (c2 - c1) is about L = 83 cycles; a twin that
 * waits for each load before the next one (one in flight) gives about 0
 * (c2 - c1 = T + L). Expected: at least 83 - 10 (a few instructions of
 * the entry and the branch differ between the two differences). */
#include "gpu_test_util.h"

#define TWIN_MODEL CHIP_TWO_SM_MODEL "timing = simple\n"

typedef struct twin_out {
    uint64_t cycles, loads;
} twin_out;

/* One run of the twin with per_warp loads, in a child process (SimGrid
 * runs one simulation per process): its core cycles and global loads. */
static twin_out run_twin(unsigned per)
{
    const char *root = g_getenv("SIMTGRID_SRC");
    cr_assert(root, "SIMTGRID_SRC is not set (meson test sets it)");
    char *path = g_build_filename(root, "workloads", "groundtruth", "kernels", "lstride.sasm", NULL);
    char *sasm = NULL;
    cr_assert(g_file_get_contents(path, &sasm, NULL, NULL), "cannot read %s", path);
    g_free(path);
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork");
    if (pid == 0) {
        char *ltext = g_strdup_printf("grid = 1\nblock = 32\nargs = 33554431, 32, %u", per);
        chip_run cr;
        chip_run_text(&cr, TWIN_MODEL, sasm, ltext, NULL);
        twin_out o = {0, 0};
        if (cr.ok) {
            o.cycles = cr.r.core_cycles;
            o.loads = chip_counter(&cr, "sm0", "inst_ld_global");
        }
        ssize_t n = write(fd[1], &o, sizeof o);
        _exit(n == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fd[1]);
    twin_out o = {0, 0};
    cr_assert_eq(read(fd[0], &o, sizeof o), (ssize_t)sizeof o, "the child's run failed");
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    g_free(sasm);
    cr_assert(o.cycles > 0, "the twin's run failed");
    return o;
}

/* One warp, per_warp loads: per_warp warp-level global loads, odd or even. */
Test(twin_lstride, runs_exactly_per_warp_loads)
{
    for (unsigned per = 0; per <= 5; per++)
        cr_expect_eq(run_twin(per).loads, per, "per_warp %u", per);
}

Test(twin_lstride, keeps_two_loads_in_flight)
{
    twin_out r0 = run_twin(0), r1 = run_twin(1), r2 = run_twin(2);
    int64_t d10 = (int64_t)r1.cycles - (int64_t)r0.cycles;
    int64_t d21 = (int64_t)r2.cycles - (int64_t)r1.cycles;
    cr_expect_geq(d10 - d21, 83 - 10, "c0 %lu c1 %lu c2 %lu", (unsigned long)r0.cycles,
                  (unsigned long)r1.cycles, (unsigned long)r2.cycles);
}
