/* Helpers for the chip tests: write a model, kernel and scenario into a
 * temporary folder, build the chip with gpu_build, run it, read statistics. */
#ifndef GPU_TEST_UTIL_H
#define GPU_TEST_UTIL_H

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include "simtgrid/gpu.h"
#include "simtgrid/scenario.h"

/* The small chip of the hand-worked chip tests (test_chip_latency.c has
 * its timings): 2 SMs at 250 MHz, a 1-set 1-way L1 (hit 20), L2 hit 30,
 * 32-B flits with an 8-B header and 4 cycles of crossbar, 2 DRAM channels
 * of 16 banks with 4 KB rows, row hit 100 / conflict 300. Its [dram] group
 * comes last, so a test may append dram keys or further groups. */
#define CHIP_TWO_SM_MODEL \
    "[clock]\ncore_mhz = 250\nicnt_mhz = 750\nl2_mhz = 500\ndram_mhz = 1000\n" \
    "[gpu]\nsms = 2\nmemory = caches\n" \
    "[l1d]\nsets = 1\nways = 1\nindex = linear\nhit_latency = 20\n" \
    "[l2]\nhit_latency = 30\n" \
    "[icnt]\nflit_bytes = 32\nheader_bytes = 8\nflits_per_cycle = 1\nlatency = 4\n" \
    "[dram]\nchannels = 2\nbanks = 16\nrow_bytes = 4096\nchannel_interleave = 256\n" \
    "addr_map = linear\nrow_hit_latency = 100\nrow_conflict_latency = 300\n"

/* A kernel of one thread loading a + off[i], i = 0..n-1, each after the
 * previous (its address depends on the value the previous one returned, 0):
 * one load at a time. `a` is the first .data array (0x10000000). */
static inline char *chip_chain_kernel(const unsigned *off, unsigned n)
{
    GString *s = g_string_new(".kernel lat\n.data a u32[65536] = zero\n    mov r1, 0\n");
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(s, "    add r2, r1, %u\n    ld.global.u32 r1, [r2+@a]\n", off[i]);
    g_string_append(s, "    exit\n");
    return g_string_free(s, FALSE);
}

/* One SM with a one-set, 32-way L1 (hit 20 core cycles at 250 MHz), a
 * 30-cycle L2 and simple DRAM timing: the L1 tests' small chip. */
#define CHIP_ONE_SM_L1_MODEL                                                                       \
    "[clock]\ncore_mhz = 250\nicnt_mhz = 750\nl2_mhz = 500\ndram_mhz = 1000\n"                          \
    "[gpu]\nsms = 1\nmemory = caches\n"                                                            \
    "[l1d]\nsets = 1\nways = 32\nindex = linear\nhit_latency = 20\n"                               \
    "[l2]\nhit_latency = 30\n"                                                                      \
    "[icnt]\nflit_bytes = 32\nheader_bytes = 8\nflits_per_cycle = 1\nlatency = 4\n"                \
    "[dram]\nchannels = 2\nbanks = 16\nrow_bytes = 4096\nchannel_interleave = 256\n"              \
    "addr_map = linear\nrow_hit_latency = 100\nrow_conflict_latency = 300\ntiming = simple\n"

typedef struct chip_run {
    char *dir;
    scenario *scn;
    config *cfg;
    stats *st;
    gpu *g;
    gpu_result r;
    bool ok;
    char *error;
} chip_run;

static inline char *chip_write(const char *dir, const char *name, const char *text)
{
    char *p = g_build_filename(dir, name, NULL);
    cr_assert(g_file_set_contents(p, text, -1, NULL), "cannot write %s", p);
    return p;
}

/* Builds and runs: `model` (INI text), one kernel `sasm` launched as
 * `launch` (the [launch.k] group's body: grid, block, args...), with
 * `sets` (NULL-terminated KEY=VALUE overrides). */
static inline void chip_run_text(chip_run *cr, const char *model, const char *sasm,
                                 const char *launch_text, char *const *sets)
{
    GError *e = NULL;
    *cr = (chip_run){0};
    cr->dir = g_dir_make_tmp("simtgrid-gpu-XXXXXX", &e);
    cr_assert(cr->dir, "tmp dir");
    g_free(chip_write(cr->dir, "model.ini", model));
    g_free(chip_write(cr->dir, "k.sasm", sasm));
    char *scn = g_strdup_printf("[scenario]\nmodel = model.ini\nname = t\n\n[launch.k]\nkernel = k.sasm\n%s\n",
                                launch_text);
    char *path = chip_write(cr->dir, "s.ini", scn);
    g_free(scn);
    cr->scn = scenario_load(path, sets, &e);
    g_free(path);
    cr_assert(cr->scn, "scenario: %s", e ? e->message : "?");
    cr->cfg = scenario_point(cr->scn, 0, &e);
    cr_assert(cr->cfg, "point: %s", e ? e->message : "?");
    cr->st = stats_new();
    workload w = scenario_workload(cr->scn);
    cr->g = gpu_build(cr->cfg, &w, cr->st, &e);
    cr_assert(cr->g, "build: %s", e ? e->message : "?");
    cr->ok = gpu_run(cr->g, &cr->r, &e);
    if (!cr->ok)
        cr->error = g_strdup(e ? e->message : "?");
    g_clear_error(&e);
}

static inline void chip_run_free(chip_run *cr)
{
    gpu_free(cr->g);
    stats_free(cr->st);
    config_free(cr->cfg);
    scenario_free(cr->scn);
    const char *names[] = {"model.ini", "k.sasm", "s.ini"};
    for (unsigned i = 0; i < 3; i++) {
        char *p = g_build_filename(cr->dir, names[i], NULL);
        g_unlink(p);
        g_free(p);
    }
    g_rmdir(cr->dir);
    g_free(cr->dir);
    g_free(cr->error);
}

static inline double chip_derived(const chip_run *cr, const char *block, const char *name)
{
    double v = NAN;
    cr_assert(stats_get_derived(cr->st, block, name, &v), "no statistic %s/%s", block, name);
    return v;
}

static inline uint64_t chip_counter(const chip_run *cr, const char *block, const char *name)
{
    uint64_t v = 0;
    cr_assert(stats_get_counter(cr->st, block, name, &v), "no statistic %s/%s", block, name);
    return v;
}

/* What a child run must show for its cycles to count (NULL: nothing). */
typedef bool (*chip_check_fn)(const chip_run *cr, const void *arg);

/* Core cycles of one run of `kernel` (one block of 32 threads) with one
 * KEY=VALUE override, in a child process (SimGrid runs one simulation per
 * process); 0 is never returned: a failed run, or one `check` refuses,
 * fails the test. */
static inline uint64_t chip_cycles_in_child(const char *model, const char *kernel, const char *set,
                                            chip_check_fn check, const void *arg)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork");
    if (pid == 0) {
        char *sets[2] = {(char *)set, NULL};
        chip_run cr;
        chip_run_text(&cr, model, kernel, "grid = 1\nblock = 32", sets);
        uint64_t c = 0;
        if (cr.ok && (!check || check(&cr, arg)))
            c = cr.r.core_cycles;
        ssize_t n = write(fd[1], &c, sizeof c);
        _exit(n == (ssize_t)sizeof c ? 0 : 1);
    }
    close(fd[1]);
    uint64_t c = 0;
    cr_assert_eq(read(fd[0], &c, sizeof c), (ssize_t)sizeof c, "the child's run failed");
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(c > 0, "the run failed or its check (statistics) did not hold");
    return c;
}

#endif
