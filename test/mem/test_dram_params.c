/* dram.* parameters: documented defaults, the .def <-> struct binding, every
 * check, and errors from a configuration naming origin, key and the
 * expectation. */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "mem/addrmap.h"
#include "mem/dram_params.h"
#include "simtgrid/config.h"
#include "simtgrid/stats.h"
#include "mem/memctrl.h"

Test(dram_params, defaults_are_the_fermi_gddr5_model)
{
    dram_params p;
    dram_params_default(&p);
    /* Wang's dissertation, Tables 3.1, 4.1, 5.1: 6 partitions, 16 banks,
     * FR-FCFS, queue 32, GDDR5 tCL 12, tRP 12, tRC 40, tRAS 28, tRCD 12,
     * tRRD 6; GTX480 stock tCCD 2, WL 4, 4 bank groups, tCCDL 3, BL 8 at 4
     * transfers per clock; tWTR = tCDLR 5, tWR 12,
     * tRTW = CL + BL/4 + 2 - WL = 12 + 2 + 2 - 4 = 12. */
    cr_assert_eq(p.channels, 6);
    cr_assert_eq(p.banks, 16);
    cr_assert_eq(p.bank_groups, 4);
    cr_assert_str_eq(p.timing->name, "full");
    cr_assert_str_eq(p.sched->name, "frfcfs");
    cr_assert_eq(p.queue_size, 32);
    cr_assert_eq(p.tCL, 12);
    cr_assert_eq(p.tRP, 12);
    cr_assert_eq(p.tRC, 40);
    cr_assert_eq(p.tRAS, 28);
    cr_assert_eq(p.tRCD, 12);
    cr_assert_eq(p.tRRD, 6);
    /* one pseudo-channel, no four-activate window: tRRD spans the channel */
    cr_assert_eq(p.pseudo_channels, 1);
    cr_assert_eq(p.tFAW, 0);
    cr_assert_eq(p.tCCD, 2);
    cr_assert_eq(p.tCCDL, 3);
    cr_assert_eq(p.tWL, 4);
    cr_assert_eq(p.tWTR, 5);
    cr_assert_eq(p.tWR, 12);
    cr_assert_eq(p.tRTW, 12);
    cr_assert_eq(p.burst_length, 8);
    cr_assert_eq(p.data_rate, 4);
    cr_assert_eq(dram_burst_cycles(&p), 2);
    /* the papers' simple model: 100 / 300, hold = 300 - 100 */
    cr_assert_eq(p.row_hit_latency, 100);
    cr_assert_eq(p.row_conflict_latency, 300);
    cr_assert_eq(p.hint_hold_cycles, 200);
    cr_assert_eq(p.page_policy, DRAM_PAGE_OPEN);
    cr_assert_not(p.refresh);
    cr_assert_str_eq(p.addr_map, "linear");
    cr_assert_eq(p.channel_interleave, 256);
    cr_assert(dram_params_check(&p, NULL, NULL, 0));
    addrmap m;
    cr_assert(addrmap_init(&m, &p, NULL, 0));
}

Test(dram_params, every_def_row_is_bound_and_every_binding_has_a_row)
{
    static const char *const names[] = {
#define PARAM(name, type, unit, def, min, max, choices, desc) name,
#include "mem/params_dram.def"
#undef PARAM
    };
    size_t n = sizeof names / sizeof names[0];
    cr_assert_eq(n, dram_param_binds_len);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t j = 0; j < dram_param_binds_len; j++)
            found |= !strcmp(names[i], dram_param_binds[j].key);
        cr_assert(found, "%s has no binding", names[i]);
    }
}

static void expect_check(void (*mutate)(dram_params *), const char *key, const char *needle)
{
    dram_params p;
    dram_params_default(&p);
    mutate(&p);
    const char *k = NULL;
    char why[256] = "";
    cr_assert_not(dram_params_check(&p, &k, why, sizeof why), "expected %s to fail", key);
    cr_assert_str_eq(k, key);
    cr_assert(strstr(why, needle), "%s: '%s' lacks '%s'", key, why, needle);
    cr_assert_not(dram_params_check(&p, NULL, NULL, 0));
}

static void m_channels(dram_params *p) { p->channels = 0; }
static void m_banks(dram_params *p) { p->banks = 6; }
static void m_groups(dram_params *p) { p->bank_groups = 32; }
static void m_row(dram_params *p) { p->row_bytes = 100; }
static void m_bus(dram_params *p) { p->bus_bytes = 0; }
static void m_timing(dram_params *p) { p->timing = NULL; }
static void m_hit(dram_params *p) { p->row_hit_latency = 0; }
static void m_conflict(dram_params *p) { p->row_conflict_latency = 50; }
static void m_burst(dram_params *p) { p->burst_length = 6; }
static void m_ccdl(dram_params *p) { p->tCCDL = 1; }
static void m_refresh(dram_params *p) { p->refresh = true; p->tRFC = 5000; }
static void m_refresh_pb(dram_params *p)
{
    p->refresh = true;
    p->refresh_per_bank = true;
    p->tRFCpb = 3900;
}
static void m_sched(dram_params *p) { p->sched = NULL; }
static void m_queue(dram_params *p) { p->queue_size = 0; }
static void m_page(dram_params *p) { p->page_policy = (enum dram_page_policy)3; }
static void m_interleave(dram_params *p) { p->channel_interleave = 300; }
static void m_pc_pow2(dram_params *p) { p->pseudo_channels = 3; }
static void m_pc_groups(dram_params *p) { p->pseudo_channels = 8; }

Test(dram_params, every_check)
{
    expect_check(m_channels, "dram.channels", "expected 1 to 64 channels, got 0");
    expect_check(m_banks, "dram.banks", "expected a power of two from 1 to 64, got 6");
    expect_check(m_groups, "dram.bank_groups", "no larger than dram.banks (16), got 32");
    expect_check(m_row, "dram.row_bytes", "power of two of at least 16, got 100");
    expect_check(m_bus, "dram.bus_bytes", "at least 1 byte per cycle");
    expect_check(m_timing, "dram.timing", "expected a timing model (simple, full)");
    expect_check(m_hit, "dram.row_hit_latency", "at least 1 cycle");
    expect_check(m_conflict, "dram.row_conflict_latency", "at least dram.row_hit_latency (100), got 50");
    expect_check(m_burst, "dram.burst_length", "multiple of dram.data_rate (4), got 6");
    expect_check(m_ccdl, "dram.tCCDL", "at least dram.tCCD (2)");
    expect_check(m_refresh, "dram.tRFC", "less than dram.tREFI (3900)");
    expect_check(m_refresh_pb, "dram.tRFCpb", "less than dram.tREFI (3900) with per-bank refresh, got 3900");
    expect_check(m_sched, "dram.sched", "expected a scheduler (fcfs, frfcfs)");
    expect_check(m_queue, "dram.queue_size", "expected 1 to 4096 requests, got 0");
    expect_check(m_page, "dram.page_policy", "expected open or close");
    expect_check(m_interleave, "dram.channel_interleave", "expected a power of two, got 300");
    expect_check(m_pc_pow2, "dram.pseudo_channels", "expected a power of two");
    /* 8 pseudo-channels over 4 bank groups: a group would span two */
    expect_check(m_pc_groups, "dram.pseudo_channels", "dividing dram.bank_groups (4), got 8");
}

Test(dram_params, from_config_reads_every_key)
{
    config *c = config_new();
    GError *err = NULL;
    cr_assert(config_set(c, "dram.timing", "simple", "m.ini:3", &err));
    cr_assert(config_set(c, "dram.tRCD", "17", "m.ini:4", &err));
    cr_assert(config_set(c, "dram.refresh", "true", "m.ini:5", &err));
    cr_assert(config_set(c, "dram.sched", "fcfs", "m.ini:6", &err));
    cr_assert(config_set(c, "dram.page_policy", "close", "m.ini:7", &err));
    cr_assert(config_set(c, "dram.addr_map", "hashed:RRRR.BBBB.CCCCCCCCCCCC", "m.ini:8", &err));
    dram_params p;
    cr_assert(dram_params_from_config(&p, c, &err), "%s", err ? err->message : "");
    cr_assert_str_eq(p.timing->name, "simple");
    cr_assert_eq(p.tRCD, 17);
    cr_assert(p.refresh);
    cr_assert_str_eq(p.sched->name, "fcfs");
    cr_assert_eq(p.page_policy, DRAM_PAGE_CLOSE);
    cr_assert_str_eq(p.addr_map, "hashed:RRRR.BBBB.CCCCCCCCCCCC");
    cr_assert_eq(p.banks, 16);
    config_free(c);
}

static void expect_config_error(const char *key, const char *value, const char *needle)
{
    config *c = config_new();
    GError *err = NULL;
    cr_assert(config_set(c, key, value, "model.ini:12", &err), "%s", err ? err->message : "");
    dram_params p;
    cr_assert_not(dram_params_from_config(&p, c, &err));
    cr_assert_not_null(err);
    /* file:line, key and value, then what was expected */
    char *want = g_strdup_printf("model.ini:12: %s = '%s': ", key, value);
    cr_assert(g_str_has_prefix(err->message, want), "'%s' does not start with '%s'", err->message,
              want);
    cr_assert(strstr(err->message, needle), "'%s' lacks '%s'", err->message, needle);
    g_free(want);
    g_error_free(err);
    config_free(c);
}

Test(dram_params, from_config_errors_name_origin_key_and_expectation)
{
    expect_config_error("dram.banks", "6", "expected a power of two from 1 to 64, got 6");
    expect_config_error("dram.addr_map", "RRX", "character 3 'X': expected R (row)");
    expect_config_error("dram.addr_map", "RRRR.BB.CCCCCCCCCCCC", "2 B letters: expected 4");
    expect_config_error("dram.burst_length", "6", "multiple of dram.data_rate");
    char long_map[200];
    memset(long_map, 'R', 170);
    long_map[170] = '\0';
    expect_config_error("dram.addr_map", long_map, "expected at most 159 characters");
}

Test(dram_params, from_config_blames_default_when_unset)
{
    /* A check that fails on a value nobody set is reported as "default". */
    config *c = config_new();
    GError *err = NULL;
    cr_assert(config_set(c, "dram.tCCD", "9", "m.ini:2", &err));
    dram_params p;
    cr_assert_not(dram_params_from_config(&p, c, &err));
    cr_assert(g_str_has_prefix(err->message, "default: dram.tCCDL = '3': "), "%s", err->message);
    g_error_free(err);
    config_free(c);
}

Test(dram_params, stats_registered_and_derived)
{
    dram_params p;
    dram_params_default(&p);
    p.channels = 1;
    addrmap m;
    cr_assert(addrmap_init(&m, &p, NULL, 0));
    memctrl *mc = memctrl_new(&p, &m, 0);
    stats *st = stats_new();
    memctrl_register_stats(mc, st, "dram0");
    /* Two reads to one row of bank 0 at cycle 0 (128 B = 2 bursts each):
     * a miss then a hit; ACT 0, RD 12, 15 (tCCDL), 18, 21: done 29 and 35;
     * bus busy 4 bursts * 2 = 8 cycles. */
    memctrl_req q = {.addr = 0, .bytes = 128};
    cr_assert(memctrl_enqueue(mc, &q, 0));
    q.addr = 128;
    q.id = 1;
    cr_assert(memctrl_enqueue(mc, &q, 0));
    memctrl_done out[2];
    cr_assert_eq(memctrl_advance(mc, 100, out, 2), 2);
    cr_assert_eq(out[0].done, 29);
    cr_assert_eq(out[1].done, 35);
    uint64_t v;
    cr_assert(stats_get_counter(st, "dram0", "row_hits", &v));
    cr_assert_eq(v, 1);
    cr_assert(stats_get_counter(st, "dram0", "row_misses", &v));
    cr_assert_eq(v, 1);
    cr_assert(stats_get_counter(st, "dram0", "bus_busy_cycles", &v));
    cr_assert_eq(v, 8);
    cr_assert(stats_get_counter(st, "dram0", "bytes_read", &v));
    cr_assert_eq(v, 256);
    memctrl_finish(mc, st, "dram0", 100);
    double d;
    cr_assert(stats_get_derived(st, "dram0", "row_hit_rate", &d));
    cr_assert_float_eq(d, 0.5, 1e-12);
    cr_assert(stats_get_derived(st, "dram0", "bus_utilisation", &d));
    cr_assert_float_eq(d, 0.08, 1e-12);
    cr_assert(stats_get_derived(st, "dram0", "bandwidth", &d));
    cr_assert_float_eq(d, 2.56, 1e-12);
    const memctrl_stats *s = memctrl_get_stats(mc);
    /* latency 29 and 35: mean 32; queue delay 0 (ACT at 0) and 18 (first RD) */
    cr_assert_float_eq(stats_hist_mean(&s->latency), 32.0, 1e-12);
    cr_assert_float_eq(stats_hist_mean(&s->queue_delay), 9.0, 1e-12);
    stats_free(st);
    memctrl_free(mc);
}
