/* An L2 slice runs ahead past the earliest possible end of the run and
 * saves its statistics before each such cycle (issue 20, docs/des.md "The
 * L2 slice holds its statistics back"): every statistic must hold its value
 * as of the end, as if it had stepped. A lone slice (l2slice_bench.h:
 * 1 tick per cycle, ports of latency 1, a DRAM side that never answers,
 * requests sent at 0 and delivered at 1, one taken per cycle: cycles 1 to
 * 8) and a dispatcher that ends the run at 4. Nothing else can send to
 * the slice, so it runs all eight cycles in its first wake-up; stepping,
 * it would have run cycles 1 to 4 (the blocks due at the end still run). */
#include <stdio.h>
#include <string.h>

#include "l2slice_bench.h"

/* Ends the run at its wake-up `at` (the dispatcher's part). */
static void ender_main(des_actor *self, void *data)
{
    des_wake_at(self, *(des_time *)data);
    des_block(self);
    des_stop(des_actor_engine(self));
}

/* Runs the slice with eight requests `m` until 4, then closes it. */
static stats *run_to_4(unsigned hit_latency, bool write_back, const mem_pkt m[8])
{
    static l2_bench b;
    static des_time end_at = 4;
    stats *st = stats_new();
    l2_bench_init_stats(&b, hit_latency, write_back, st);
    des_actor *ender = des_actor_new(b.e, "dispatcher", ender_main, &end_at);
    des_actor_may_end_run(ender);
    for (unsigned i = 0; i < 8; i++)
        cr_assert(des_port_try_send(b.in, &m[i], 0));
    des_time end = des_run(b.e);
    cr_assert_eq(end, 4);
    l2slice_finish(b.l, end);
    return st;
}

/* A histogram's "samples" and "mean" as written in the results. */
static void hist_of(const stats *st, const char *name, uint64_t *samples, double *mean)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    stats_write_json(st, f, 0);
    fclose(f);
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", name);
    const char *h = strstr(text, key);
    cr_assert(h, "no histogram %s", name);
    const char *s = strstr(h, "\"samples\":"), *m = strstr(h, "\"mean\":");
    cr_assert(s && m);
    *samples = strtoull(s + strlen("\"samples\":"), NULL, 10);
    *mean = strtod(m + strlen("\"mean\":"), NULL);
    free(text);
}

static uint64_t counter(const stats *st, const char *name)
{
    uint64_t v = 0;
    cr_assert(stats_get_counter(st, "l2s0", name, &v), "no counter %s", name);
    return v;
}

/* Eight loads of eight lines, each a miss taking an MSHR entry as it is
 * accepted (1, 2, 3, 4 by the end): 4 accesses and misses, the MSHRs at
 * 0, 1, 2, 3 entries one cycle each (mean 1.5 over 4 cycles). */
Test(l2_hold, cache_statistics_as_of_the_end)
{
    mem_pkt m[8];
    for (uint32_t i = 0; i < 8; i++)
        m[i] = (mem_pkt){.addr = 0x1000 + 128 * i, .id = i, .op = MEM_LOAD, .bytes = 32, .sectors = 0x1};
    stats *st = run_to_4(1, false, m);
    cr_expect_eq(counter(st, "accesses"), 4);
    cr_expect_eq(counter(st, "misses"), 4);
    uint64_t samples;
    double mean;
    hist_of(st, "mshr_occupancy", &samples, &mean);
    cr_expect_eq(samples, 4);
    cr_expect_float_eq(mean, 1.5, 1e-12);
    stats_free(st);
}

/* Eight whole-line stores under write-back, acknowledged 2 cycles after
 * acceptance: 4 accepted (1..4), 2 acknowledged (at 3 and 4). */
Test(l2_hold, slice_counters_as_of_the_end)
{
    mem_pkt m[8];
    for (uint32_t i = 0; i < 8; i++)
        m[i] = (mem_pkt){.addr = 0x1000 + 128 * i, .id = i, .op = MEM_STORE, .bytes = 128, .sectors = 0xF};
    stats *st = run_to_4(2, true, m);
    cr_expect_eq(counter(st, "store_requests"), 4);
    cr_expect_eq(counter(st, "store_acks"), 2);
    stats_free(st);
}

/* Two whole-line stores (1, 2) then six loads of the first line, hits
 * answered 1 cycle after acceptance (3..8, answered 4..9): by the end, one
 * load answered (at 4), its latency 1. */
Test(l2_hold, slice_histograms_as_of_the_end)
{
    mem_pkt m[8];
    for (uint32_t i = 0; i < 8; i++)
        m[i] = i < 2 ? (mem_pkt){.addr = 0x1000 + 128 * i, .id = i, .op = MEM_STORE, .bytes = 128, .sectors = 0xF}
                     : (mem_pkt){.addr = 0x1000, .id = i, .op = MEM_LOAD, .bytes = 32, .sectors = 0x1};
    stats *st = run_to_4(1, true, m);
    cr_expect_eq(counter(st, "replies"), 1);
    uint64_t samples;
    double mean;
    hist_of(st, "load_latency", &samples, &mean);
    cr_expect_eq(samples, 1);
    cr_expect_float_eq(mean, 1.0, 1e-12);
    stats_free(st);
}
