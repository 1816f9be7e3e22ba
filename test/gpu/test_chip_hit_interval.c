/* l1d.warp_hit_interval through the assembled chip: one warp's L1 hits come
 * back at most one line per that many core cycles.
 *
 * One warp, lane l reads word 0 of line l (32 distinct lines of a 32-way
 * L1). The first load misses and fills all 32 lines; the second, dependent
 * on it (its address adds the loaded zero), hits all 32. The LD/ST unit
 * passes one access per cycle, so the second load's accesses enter the L1
 * at cycles c .. c+31. With the interval off every hit is ready
 * hit_latency (20) later: the last at c+51. With interval 2 the k-th hit is
 * ready at max(c+k+20, c+20+2k) = c+20+2k: the last at c+82, 31 cycles
 * later; nothing after it depends on the memory side, so the whole run is
 * 31 core cycles longer. With interval 1 the unit's own rate already
 * spaces the hits a cycle apart: no change. */
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test_util.h"

static const char *model = CHIP_ONE_SM_L1_MODEL;

static const char *kernel = ".kernel hits\n.data a u32[1024] = zero\n"
                            "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                            "    ld.global.ca.u32 r3, [r2+@a]\n    add r2, r2, r3\n"
                            "    ld.global.ca.u32 r4, [r2+@a]\n    add r5, r4, 1\n    exit\n";

/* Core cycles of the run, in a child process (SimGrid runs one simulation
 * per process); the child also checks that the second load hit 32 times. */
static uint64_t run_cycles(const char *interval)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork");
    if (pid == 0) {
        char *set = interval ? g_strdup_printf("l1d.warp_hit_interval=%s", interval) : NULL;
        char *sets[2] = {set, NULL};
        chip_run cr;
        chip_run_text(&cr, model, kernel, "grid = 1\nblock = 32", sets);
        uint64_t c = 0;
        if (cr.ok && chip_counter(&cr, "sm0.l1d", "hits") == 32)
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
    cr_assert(c > 0, "the run failed or the second load did not hit 32 lines");
    return c;
}

Test(chip_hit_interval, one_warp_hits_return_every_other_cycle)
{
    uint64_t off = run_cycles(NULL), two = run_cycles("2");
    cr_expect_eq(two - off, 31, "interval 2 adds 31 cycles: %lu vs %lu", (unsigned long)two,
                 (unsigned long)off);
}

Test(chip_hit_interval, interval_one_is_the_port_rate)
{
    uint64_t off = run_cycles(NULL), one = run_cycles("1");
    cr_expect_eq(one, off, "%lu vs %lu", (unsigned long)one, (unsigned long)off);
}
