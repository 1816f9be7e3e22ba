/* An SM runs ahead of the engine's time while other SMs are busy only
 * through cycles in which no global access can issue (issue 20,
 * src/core/sm_lone.c): the functional order of global accesses between
 * SMs, and so every result, must be the one of an SM that keeps to its
 * input latency (sm_keep_probe_rows turns the run-ahead off). Two SMs of
 * the small chip race on one array: each thread of CTA 0 (SM 0) stores
 * 1..n into its word, each of CTA 1 (SM 1) loads it n times and sums what
 * it saw, so the sums depend on which store each load follows; four warps
 * a CTA, so that one warp's load can be ready while the SM runs ahead over
 * another's wait. With the SM's check of a ready global access left out,
 * the sums differ (1,165 instead of 1,162 for the first warp). */
#include <stdio.h>

#include "gpu_test_util.h"
#include "simtgrid/json.h"

static const char *race_kernel =
    ".kernel race\n.param n\n.data a u32[256] = zero\n.data out u32[256] = zero\n"
    "    mov r0, %ctaid.x\n    mov r2, %tid.x\n    shl r3, r2, 2\n    param r5, n\n"
    "    mov r6, 0\n    mov r9, 0\n    setp.eq.u32 p1, r0, 0\n    @p1 bra writer\n"
    "loop:\n    setp.ge.u64 p0, r9, r5\n    @p0 bra done\n    ld.global.u32 r8, [r3+@a]\n"
    "    add r6, r6, r8\n    mul r7, r6, r2\n    add r7, r7, r9\n    add r9, r9, 1\n    bra loop\n"
    "writer:\n    setp.ge.u64 p0, r9, r5\n    @p0 bra wdone\n    add r9, r9, 1\n"
    "    st.global.u32 [r3+@a], r9\n    mul r7, r9, r9\n    add r7, r7, r9\n    bra writer\n"
    "wdone:\n    exit\n"
    "done:\n    st.global.u32 [r3+@out], r6\n    exit\n";

typedef struct race_out {
    uint64_t cycles, warp_insts, wakeups;
    char dump[4096];
} race_out;

/* One run in a child process (one simulation per process); `plain`: the
 * SMs keep to their input latency. */
static race_out race(bool plain)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork");
    if (pid == 0) {
        race_out o = {0};
        GError *e = NULL;
        chip_run cr = {0};
        cr.dir = g_dir_make_tmp("simtgrid-gpu-XXXXXX", &e);
        g_free(chip_write(cr.dir, "model.ini", CHIP_TWO_SM_MODEL "timing = simple\n"));
        g_free(chip_write(cr.dir, "k.sasm", race_kernel));
        char *path = chip_write(cr.dir, "s.ini",
                                "[scenario]\nmodel = model.ini\nname = t\n\n[launch.k]\nkernel = k.sasm\n"
                                "grid = 2\nblock = 128\nargs = 40\n\n[output]\ndump = out\n");
        cr.scn = scenario_load(path, NULL, &e);
        cr.cfg = cr.scn ? scenario_point(cr.scn, 0, &e) : NULL;
        cr.st = stats_new();
        workload w = cr.scn ? scenario_workload(cr.scn) : (workload){0};
        cr.g = cr.cfg ? gpu_build(cr.cfg, &w, cr.st, &e) : NULL;
        if (cr.g && plain)
            gpu_keep_probe_rows(cr.g);
        if (cr.g && gpu_run(cr.g, &cr.r, &e)) {
            o.cycles = cr.r.core_cycles;
            o.warp_insts = stats_sum(cr.st, "sm*.sched*", "issued");
            o.wakeups = des_get_counters(gpu_engine(cr.g)).wakeups;
            FILE *f = fmemopen(o.dump, sizeof o.dump - 1, "w");
            json_writer jw;
            json_init(&jw, f, 0);
            gpu_write_arrays(cr.g, &jw);
            fclose(f);
        }
        ssize_t n = write(fd[1], &o, sizeof o);
        _exit(n == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fd[1]);
    race_out o;
    cr_assert_eq(read(fd[0], &o, sizeof o), (ssize_t)sizeof o, "the child's run failed");
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(o.cycles > 0, "the run failed");
    return o;
}

Test(chip_multi_ahead, results_as_without_the_run_ahead)
{
    race_out a = race(false), b = race(true);
    cr_expect_eq(a.cycles, b.cycles);
    cr_expect_eq(a.warp_insts, b.warp_insts);
    cr_expect_str_eq(a.dump, b.dump);
    cr_expect(strstr(a.dump, "\"out\""), "the sums are dumped: %s", a.dump);
    /* The run-ahead took place: fewer wake-ups for the same cycles. */
    cr_expect_lt(a.wakeups, b.wakeups);
}
