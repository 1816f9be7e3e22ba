/* Run-ahead and idle-cycle skipping must not change results: the SM's
 * horizon is the smallest latency of its input ports, so splitting the
 * ideal memory's round trip as 1 + 299 cycles (horizon 10, the CTA port)
 * or 299 + 1 (horizon 1: one cycle per wake-up) must give the same issue
 * log and the same statistics, for every policy. Also: two identical runs
 * give identical results. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *k_mixed =
    ".data in u32[4096] = iota(start=1, step=3)\n"
    ".data out u32[1024]\n"
    ".shared buf u32[256]\n"
    "    mov r0, %tid.x\n"
    "    mov r1, %ctaid.x\n"
    "    mov r2, %ntid.x\n"
    "    mad r3, r1, r2, r0\n"
    "    shl r4, r3, 2\n"
    "    and r5, r0, 7\n"              /* loop trips 1..8 by lane */
    "    add r5, r5, 1\n"
    "    mov r6, 0\n"
    "    mov r7, 0\n"
    "loop:\n"
    "    ld.global.u32 r8, [r4+@in]\n"
    "    add r7, r7, r8\n"
    "    and r9, r7, 1\n"
    "    setp.eq.u32 p0, r9, 0\n"
    "    @p0 bra even\n"
    "    mul r7, r7, 3\n"
    "    bra next\n"
    "even:\n"
    "    shr r7, r7, 1\n"
    "next:\n"
    "    add r4, r4, 128\n"
    "    add r6, r6, 1\n"
    "    setp.lt.u32 p1, r6, r5\n"
    "    @p1 bra loop\n"
    "    shl r10, r0, 2\n"
    "    st.shared.u32 [r10+@buf], r7\n"
    "    bar.sync\n"
    "    xor r11, r0, 1\n"
    "    shl r11, r11, 2\n"
    "    ld.shared.u32 r12, [r11+@buf]\n"
    "    add r7, r7, r12\n"
    "    shl r13, r3, 2\n"
    "    st.global.u32 [r13+@out], r7\n"
    "    exit\n";

typedef struct result {
    uint64_t end, cycles, warp_insts, thread_insts, log_hash, nlog;
    uint64_t stall[5], w0_mem, w0_idle, fu0;
    uint32_t out[64];
} result;

typedef struct args {
    const char *sets[8];
} args;

static void run(void *ctx, void *out)
{
    const args *a = ctx;
    result *r = out;
    memset(r, 0, sizeof *r);
    harness *h = harness_new(a->sets);
    harness_launch(h, k_mixed, 4, 256, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000000));
    r->end = harness_end(h, 0);
    sm_totals t = sm_get_totals(h->sms[0]);
    r->cycles = t.cycles;
    r->warp_insts = t.warp_insts;
    r->thread_insts = t.thread_insts;
    r->fu0 = t.fu_idle_cycles;
    uint64_t x = 1469598103934665603u;
    for (unsigned i = 0; i < h->nlog; i++) {
        const issue_rec *e = &h->log[i];
        uint64_t v[4] = {e->cycle, (uint64_t)e->warp << 32 | e->sched, e->pc, e->active};
        for (int k = 0; k < 4; k++)
            x = (x ^ v[k]) * 1099511628211u;
    }
    r->log_hash = x;
    r->nlog = h->nlog;
    if (getenv("DUMPLOG")) {
        FILE *f = fopen(getenv("DUMPLOG"), "a");
        for (unsigned i = 0; i < h->nlog; i++)
            fprintf(f, "%lu w%u pc%u %x\n", (unsigned long)h->log[i].cycle, h->log[i].warp, h->log[i].pc, h->log[i].active);
        fprintf(f, "----\n");
        fclose(f);
    }
    const char *names[5] = {"stall_pipeline", "stall_dependency", "stall_barrier", "stall_memory", "stall_empty"};
    for (int k = 0; k < 5; k++)
        r->stall[k] = harness_counter(h, "sm0.sched0", names[k]);
    r->w0_mem = harness_counter(h, "sm0.sched0", "w0_mem");
    r->w0_idle = harness_counter(h, "sm0.sched0", "w0_idle");
    for (unsigned i = 0; i < 64; i++)
        r->out[i] = harness_read_u32(h, 0, "out", i * 16);
    harness_free(h);
}

static void compare(const char *a0, const char *a1, const char *a2)
{
    /* a request port that never fills: its credits (one latency back) would
     * otherwise make the two splits different machines */
    args fast = {{"mem.ideal_latency=300", "harness.req_cap=2048", a0, a1, a2, NULL}};
    args slow = {{"mem.ideal_latency=300", "harness.req_cap=2048", "harness.req_lat=299", a0, a1, a2, NULL}};
    /* the NULLs among a0..a2 end the lists early, which is what we want */
    result r0, r1, r2;
    harness_fork(run, &fast, &r0, sizeof r0);
    harness_fork(run, &slow, &r1, sizeof r1);
    harness_fork(run, &fast, &r2, sizeof r2);
    cr_expect_eq(memcmp(&r0, &r2, sizeof r0), 0, "two identical runs differ (%s %s)", a0 ? a0 : "",
                 a1 ? a1 : "");
    cr_expect_eq(r0.end, r1.end, "end %lu vs %lu (%s %s %s)", (unsigned long)r0.end, (unsigned long)r1.end,
                 a0 ? a0 : "", a1 ? a1 : "", a2 ? a2 : "");
    cr_expect_eq(r0.nlog, r1.nlog);
    cr_expect_eq(r0.log_hash, r1.log_hash, "issue logs differ (%s %s %s)", a0 ? a0 : "", a1 ? a1 : "",
                 a2 ? a2 : "");
    cr_expect_eq(memcmp(&r0, &r1, sizeof r0), 0, "statistics differ (%s %s %s)", a0 ? a0 : "",
                 a1 ? a1 : "", a2 ? a2 : "");
}

Test(runahead, barrel_lrr_pdom, .timeout = 60) { compare(NULL, NULL, NULL); }
Test(runahead, barrel_2lev_longlat, .timeout = 60) { compare("core.scheduler=2lev", "core.fetch_group=4", NULL); }
Test(runahead, barrel_2lev_nofetch, .timeout = 60)
{
    compare("core.scheduler=2lev", "core.2lev_trigger=nofetch", "core.fetch_group=2");
}
Test(runahead, scoreboard_gto, .timeout = 60) { compare("core.discipline=scoreboard", "core.scheduler=gto", NULL); }
Test(runahead, scoreboard_simd8_nrec, .timeout = 60)
{
    compare("core.discipline=scoreboard", "core.simd_width=8", "core.reconv=nrec");
}
Test(runahead, barrel_mimd_two_schedulers, .timeout = 60)
{
    compare("core.reconv=mimd", "core.schedulers=2", "core.alu_units=2");
}
Test(runahead, narrow_bandwidth, .timeout = 60)
{
    compare("mem.ideal_lines_per_cycle=0.1", "core.discipline=scoreboard", NULL);
}
