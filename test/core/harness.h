/* A small test harness for the SM: builds an engine, N SMs on the ideal
 * memory and the dispatcher from "key=value" settings, launches kernels
 * given as text, runs, and records every issue. One simulation per process
 * (SimGrid): Criterion forks per test; harness_fork runs more in children. */
#ifndef CORE_TEST_HARNESS_H
#define CORE_TEST_HARNESS_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/config.h"
#include "simtgrid/core.h"
#include "simtgrid/ideal_mem.h"
#include "simtgrid/stats.h"

typedef struct issue_rec {
    uint64_t cycle;
    unsigned sm, sched, warp;
    uint32_t pc, active;
} issue_rec;

typedef struct harness {
    des_clock clk[1];
    des_engine *e;
    config *cfg;
    core_params p;
    stats *st;
    sm **sms;
    unsigned nsms;
    ideal_mem *mem;
    dispatcher *d;
    isa_program *prog[16];
    memimg *img[16];
    unsigned nprog;
    issue_rec *log;
    unsigned nlog, caplog;
    unsigned req_cap;
    unsigned req_lat;   /* 0: ideal_mem_port_latency's split */
} harness;

/* `sets`: NULL-terminated "key=value" overrides of the defaults, plus
 * "harness.req_cap=N" (request port capacity, default 64) and
 * "harness.req_lat=N" (request port latency; the response port gets the rest
 * of mem.ideal_latency). Asserts on error. */
harness *harness_new(const char *const *sets);
/* Same, but returns NULL and the message in *msg on a bad setting. */
harness *harness_try_new(const char *const *sets, char **msg);
/* Built from a whole configuration (copied), e.g. a scenario's sweep point. */
harness *harness_new_config(const config *c);
/* A launch of a kernel file with 64-bit arguments (scenario launches). */
int harness_launch_file(harness *h, const char *path, const uint32_t grid[3], const uint32_t block[3],
                        const int64_t *args, unsigned nargs);
/* A 1-D launch of `text`; returns the launch index. */
int harness_launch(harness *h, const char *text, uint32_t grid, uint32_t block, const uint64_t *params,
                   unsigned nparams, uint64_t start, int after);
/* Same, returning -1 and *msg (g_free) on error. */
int harness_try_launch(harness *h, const char *text, const uint32_t grid[3], const uint32_t block[3],
                       int sm_first, int sm_last, int after, char **msg);
/* Runs with a cycle limit; returns true when every CTA finished. */
bool harness_run(harness *h, uint64_t max_cycles);
uint64_t harness_counter(harness *h, const char *block, const char *name);
uint64_t harness_end(harness *h, unsigned launch);   /* end cycle of a launch */
/* Reads a u32 element of a data array of launch `l`. */
uint32_t harness_read_u32(harness *h, unsigned l, const char *array, uint64_t i);
void harness_free(harness *h);
/* One warp of 32 threads runs `kernel`, four instructions whose third
 * issues at cycle 24 (the memory-unit tests' mov, address, access, exit);
 * checks that the exit issues at `exit_at` and the launch ends 6 cycles
 * later. Returns the harness, for its counters. */
harness *harness_one_warp_four(const char *const *sets, const char *kernel, uint64_t exit_at);

/* Runs fn(ctx, out) in a child process and copies `size` bytes of *out back
 * (a second simulation in one test). Asserts the child succeeded. */
void harness_fork(void (*fn)(void *ctx, void *out), void *ctx, void *out, size_t size);

/* Text of workloads/<rel> (g_free). */
char *harness_workload_text(const char *rel);

/* The if/else kernel of the reconvergence tests (after a ".data out" line):
 * even threads take the branch at pc 3 (pcs 6, 7), odd ones fall through
 * (pcs 4, 5); both paths meet at pc 8 ("join"), the branch's IPDOM, then
 * store r2 to out[tid]. HARNESS_IFELSE_HEAD is pcs 0-7 and the label. */
#define HARNESS_IFELSE_HEAD \
    "    mov r0, %tid.x\n"            /* 0 */      \
    "    and r1, r0, 1\n"             /* 1 */      \
    "    setp.eq.u32 p0, r1, 0\n"     /* 2 */      \
    "    @p0 bra even\n"              /* 3 */      \
    "    add r2, r0, 100\n"           /* 4: odd */ \
    "    bra join\n"                  /* 5 */      \
    "even:\n"                                      \
    "    mul r2, r0, 2\n"             /* 6 */      \
    "    bra join\n"                  /* 7 */      \
    "join:\n"
#define HARNESS_IFELSE \
    HARNESS_IFELSE_HEAD                              \
    "    shl r3, r0, 2\n"             /* 8 */      \
    "    st.global.u32 [r3+@out], r2\n" /* 9 */    \
    "    exit\n"                      /* 10 */

#endif
