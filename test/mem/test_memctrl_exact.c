/* Completions are exact cycles, not quantised by how often the wrapper
 * calls advance: a pseudo-random stream played with wake-ups at every event,
 * at every cycle, and late by a few or many cycles gives the same
 * completion cycle for every request and the same statistics. Also checks
 * invariants of the full model on that stream (bursts never share the bus,
 * no read beats tCL + burst). */
#include <stdlib.h>

#include "test_dram_util.h"

#define N 400

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static void make_stream(script_req *s, unsigned n, unsigned banks, uint64_t seed)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++) {
        t += lcg(&seed) % 24;
        static const uint32_t sizes[] = {32, 64, 128, 128};
        s[i] = (script_req){.at = t, .bank = (uint32_t)(lcg(&seed) % banks),
                            .row = lcg(&seed) % 4, .col = (uint32_t)(lcg(&seed) % 16) * 128,
                            .bytes = sizes[lcg(&seed) % 4], .write = lcg(&seed) % 4 == 0,
                            .hint = lcg(&seed) % 10 == 0};
    }
}

static void counters(const memctrl_stats *st, uint64_t *v)
{
    const uint64_t c[] = {st->reads, st->writes, st->bytes_read, st->bytes_written, st->row_hits,
                          st->row_misses, st->row_conflicts, st->activations, st->precharges,
                          st->refreshes, st->column_commands, st->bus_busy_cycles,
                          st->hint_holds, st->hint_hold_hits, st->hint_hold_expired,
                          st->latency.samples, st->queue_delay.samples,
                          (uint64_t)st->latency.sum, (uint64_t)st->queue_delay.sum};
    memcpy(v, c, sizeof c);
}
#define NCOUNTERS 19

/* Run every controller to the same end cycle, so refreshes (which go on
 * while idle) are counted over the same time. */
static void settle(dram_rig *r)
{
    memctrl_done out[1];
    cr_assert_eq(memctrl_advance(r->mc, 1000000, out, 1), 0);
}

static void check_modes(const dram_params *p)
{
    static script_req s[N];
    make_stream(s, N, p->banks, 12345);
    static uint64_t ref[N], got[N];
    uint64_t ref_c[NCOUNTERS], got_c[NCOUNTERS];
    dram_rig r;
    rig_init(&r, p);
    cr_assert_eq(rig_play(&r, s, N, ref, NULL, DRIVE_EVENTS, 0), N);
    settle(&r);
    counters(memctrl_get_stats(r.mc), ref_c);
    rig_free(&r);
    const struct {
        enum drive_mode mode;
        uint64_t late;
    } modes[] = {{DRIVE_EVERY_CYCLE, 0}, {DRIVE_LATE, 1}, {DRIVE_LATE, 7}, {DRIVE_LATE, 5000},
                 {DRIVE_EVENTS, 0}};
    for (unsigned m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        rig_init(&r, p);
        cr_assert_eq(rig_play(&r, s, N, got, NULL, modes[m].mode, modes[m].late), N);
        settle(&r);
        counters(memctrl_get_stats(r.mc), got_c);
        rig_free(&r);
        for (unsigned i = 0; i < N; i++)
            cr_assert_eq(got[i], ref[i], "mode %u late %lu: request %u done %lu, expected %lu", m,
                         (unsigned long)modes[m].late, i, (unsigned long)got[i],
                         (unsigned long)ref[i]);
        for (unsigned i = 0; i < NCOUNTERS; i++)
            cr_assert_eq(got_c[i], ref_c[i], "mode %u: counter %u differs", m, i);
    }
    /* Invariants of both models: every request is done after it arrived. */
    for (unsigned i = 0; i < N; i++)
        cr_assert_gt(ref[i], s[i].at);
    if (strcmp(p->timing->name, "full"))
        return;
    /* Full model: the last bursts of two requests never end on the same
     * cycle (the bus carries one burst at a time), and a read is never
     * faster than tCL + one burst. */
    static uint64_t sorted[N];
    memcpy(sorted, ref, sizeof sorted);
    for (unsigned i = 1; i < N; i++)
        for (unsigned j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            uint64_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    for (unsigned i = 1; i < N; i++)
        cr_assert_lt(sorted[i - 1], sorted[i]);
    for (unsigned i = 0; i < N; i++)
        if (!s[i].write)
            cr_assert_geq(ref[i], s[i].at + p->tCL + dram_burst_cycles(p));
}

Test(memctrl_exact, full_gddr5_defaults)
{
    dram_params p;
    dram_params_default(&p);
    p.channels = 1;
    p.queue_size = 4096;
    check_modes(&p);
}

Test(memctrl_exact, full_with_refresh_and_close_page)
{
    dram_params p;
    full_params(&p);
    p.queue_size = 4096;
    p.refresh = true;
    p.tREFI = 500;
    p.tRFC = 60;
    p.page_policy = DRAM_PAGE_CLOSE;
    check_modes(&p);
}

Test(memctrl_exact, full_fcfs)
{
    dram_params p;
    full_params(&p);
    p.queue_size = 4096;
    p.sched = mem_policy("dram.sched", "fcfs");
    p.bank_groups = 4;
    check_modes(&p);
}

Test(memctrl_exact, simple_frfcfs)
{
    dram_params p;
    simple_params(&p);
    p.queue_size = 4096;
    p.row_hit_latency = 20;
    p.row_conflict_latency = 60;
    check_modes(&p);
}

Test(memctrl_exact, simple_fcfs_refresh)
{
    dram_params p;
    simple_params(&p);
    p.queue_size = 4096;
    p.sched = mem_policy("dram.sched", "fcfs");
    p.row_hit_latency = 20;
    p.row_conflict_latency = 60;
    p.refresh = true;
    p.tREFI = 700;
    p.tRFC = 40;
    check_modes(&p);
}

Test(memctrl_exact, small_queue_back_pressure_completes)
{
    dram_params p;
    dram_params_default(&p);
    p.channels = 1;
    p.queue_size = 4;
    static script_req s[N];
    make_stream(s, N, p.banks, 777);
    for (unsigned i = 0; i < N; i++)
        s[i].at /= 8;   /* arrive faster than served: the queue fills */
    static uint64_t done[N];
    dram_rig r;
    rig_init(&r, &p);
    cr_assert_eq(rig_play(&r, s, N, done, NULL, DRIVE_EVENTS, 0), N);
    const memctrl_stats *st = memctrl_get_stats(r.mc);
    cr_assert_eq(st->reads + st->writes, N);
    cr_assert_eq(st->row_hits + st->row_misses + st->row_conflicts, N);
    rig_free(&r);
    /* With a full queue next_event is the next command (it may free a
     * slot), so waking only at events accepts requests as early as waking
     * every cycle does, and every completion is the same. */
    static uint64_t every[N];
    rig_init(&r, &p);
    cr_assert_eq(rig_play(&r, s, N, every, NULL, DRIVE_EVERY_CYCLE, 0), N);
    rig_free(&r);
    for (unsigned i = 0; i < N; i++)
        cr_assert_eq(every[i], done[i], "request %u", i);
}
