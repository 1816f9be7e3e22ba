/* l1d.launch_invalidate through the assembled chip: every SM's L1 drops its
 * clean lines when a launch starts.
 *
 * Two launches of one warp on one SM, the second after the first; lane l
 * reads word 0 of line l (32 distinct lines of a 32-way L1, which all fit).
 * The first launch misses 32 times and fills the lines. Kept across
 * launches, the second launch hits all 32; invalidated at its start, it
 * misses all 32 again and the L1 counts 32 invalidations. */
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test_util.h"

static const char *model = CHIP_ONE_SM_L1_MODEL;

static const char *kernel = ".kernel lines\n.data a u32[1024] = zero\n"
                            "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                            "    ld.global.ca.u32 r3, [r2+@a]\n    add r4, r3, 1\n    exit\n";

/* sm0.l1d hits, misses and invalidations of the two launches, in a child
 * process (SimGrid runs one simulation per process). */
static void run_counts(const char *inval, uint64_t out[3])
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork");
    if (pid == 0) {
        char *set = g_strdup_printf("l1d.launch_invalidate=%s", inval);
        char *sets[2] = {set, NULL};
        chip_run cr;
        chip_run_text(&cr, model, kernel,
                      "grid = 1\nblock = 32\n\n[launch.k2]\nkernel = k.sasm\ngrid = 1\nblock = 32\nafter = k",
                      sets);
        uint64_t c[3] = {UINT64_MAX, 0, 0};
        if (cr.ok) {
            c[0] = chip_counter(&cr, "sm0.l1d", "hits");
            c[1] = chip_counter(&cr, "sm0.l1d", "misses");
            c[2] = chip_counter(&cr, "sm0.l1d", "invalidations");
        }
        ssize_t n = write(fd[1], c, sizeof c);
        _exit(n == (ssize_t)sizeof c ? 0 : 1);
    }
    close(fd[1]);
    cr_assert_eq(read(fd[0], out, 3 * sizeof *out), (ssize_t)(3 * sizeof *out), "the child's run failed");
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert_neq(out[0], UINT64_MAX, "the run failed");
}

/* Expected sm0.l1d hits, misses and invalidations with the option given. */
static void expect_counts(const char *inval, uint64_t hits, uint64_t misses, uint64_t invals)
{
    uint64_t c[3];
    run_counts(inval, c);
    cr_expect_eq(c[0], hits, "hits %lu", (unsigned long)c[0]);
    cr_expect_eq(c[1], misses, "misses %lu", (unsigned long)c[1]);
    cr_expect_eq(c[2], invals, "invalidations %lu", (unsigned long)c[2]);
}

Test(chip_launch_invalidate, l1_kept_across_launches_by_default) { expect_counts("false", 32, 32, 0); }
Test(chip_launch_invalidate, second_launch_misses_again) { expect_counts("true", 0, 64, 32); }
