/* dram.* parameters bound to the fields of dram_params (defaults and values
 * through the one reader, params_read), and the checks the controller
 * relies on. */
#include "mem/dram_params.h"

#include <glib.h>

#include "config/param_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const page_names[] = {[DRAM_PAGE_OPEN] = "open", [DRAM_PAGE_CLOSE] = "close", NULL};

#define U(field) PB(dram_params, "dram." #field, field, PF_UNSIGNED)
const param_bind dram_param_binds[] = {
    U(channels), U(banks), U(bank_groups), U(row_bytes), U(bus_bytes),
    PB_POLICY(dram_params, "dram.timing", timing, mem_policy),
    U(row_hit_latency), U(row_conflict_latency),
    U(tRCD), U(tRP), U(tRAS), U(tRC), U(tCL), U(tWL), U(tCCD), U(tCCDL),
    U(tRRD), U(tWTR), U(tRTW), U(tWR), U(burst_length), U(data_rate),
    U(tFAW), U(pseudo_channels),
    PB(dram_params, "dram.refresh", refresh, PF_BOOL),
    PB(dram_params, "dram.refresh_stagger", refresh_stagger, PF_BOOL),
    PB(dram_params, "dram.refresh_per_bank", refresh_per_bank, PF_BOOL),
    U(tREFI), U(tRFC), U(tRFCpb),
    PB_POLICY(dram_params, "dram.sched", sched, mem_policy),
    U(frfcfs_cap),
    U(queue_size),
    PB_ENUM(dram_params, "dram.page_policy", page_policy, page_names),
    U(hint_hold_cycles),
    PB_TEXT(dram_params, "dram.addr_map", addr_map),
    U(channel_interleave),
    PB(dram_params, "dram.channel_mix", channel_mix, PF_BOOL),
    PB(dram_params, "dram.write_mask", write_mask, PF_BOOL),
};
#undef U
const size_t dram_param_binds_len = G_N_ELEMENTS(dram_param_binds);

void dram_params_default(dram_params *p)
{
    memset(p, 0, sizeof *p);
    params_read(p, dram_param_binds, dram_param_binds_len, NULL, NULL, NULL);
}

bool dram_params_check(const dram_params *p, const char **key, char *why, size_t why_len)
{
    CHECK_FRAME();
    if (p->channels < 1 || p->channels > 64)
        CHECK_FAIL("dram.channels", "expected 1 to 64 channels, got %u", p->channels);
    if (!is_pow2(p->banks) || p->banks > 64)
        CHECK_FAIL("dram.banks", "expected a power of two from 1 to 64, got %u", p->banks);
    if (!is_pow2(p->bank_groups) || p->bank_groups > p->banks)
        CHECK_FAIL("dram.bank_groups", "expected a power of two no larger than dram.banks (%u), got %u",
             p->banks, p->bank_groups);
    if (!is_pow2(p->row_bytes) || p->row_bytes < 16)
        CHECK_FAIL("dram.row_bytes", "expected a power of two of at least 16, got %u", p->row_bytes);
    if (p->bus_bytes < 1)
        CHECK_FAIL("dram.bus_bytes", "expected at least 1 byte per cycle, got %u", p->bus_bytes);
    if (!p->timing)
        CHECK_FAIL("dram.timing", "expected a timing model (simple, full)");
    if (p->row_hit_latency < 1)
        CHECK_FAIL("dram.row_hit_latency", "expected at least 1 cycle, got %u", p->row_hit_latency);
    if (p->row_conflict_latency < p->row_hit_latency)
        CHECK_FAIL("dram.row_conflict_latency", "expected at least dram.row_hit_latency (%u), got %u",
             p->row_hit_latency, p->row_conflict_latency);
    if (p->data_rate < 1 || p->burst_length < p->data_rate || p->burst_length % p->data_rate)
        CHECK_FAIL("dram.burst_length", "expected a positive multiple of dram.data_rate (%u), got %u",
             p->data_rate, p->burst_length);
    /* bank b is in group b % G and pseudo-channel b % P: with P dividing G
     * every group lies in one pseudo-channel. */
    if (!is_pow2(p->pseudo_channels) || p->pseudo_channels > p->banks ||
        (p->bank_groups > 1 && p->bank_groups % p->pseudo_channels))
        CHECK_FAIL("dram.pseudo_channels",
             "expected a power of two no larger than dram.banks (%u) dividing dram.bank_groups (%u), got %u",
             p->banks, p->bank_groups, p->pseudo_channels);
    if (p->bank_groups > 1 && p->tCCDL < p->tCCD)
        CHECK_FAIL("dram.tCCDL", "expected at least dram.tCCD (%u) with bank groups, got %u", p->tCCD,
             p->tCCDL);
    if (p->refresh && (p->tREFI < 1 || p->tRFC >= p->tREFI))
        CHECK_FAIL("dram.tRFC", "expected less than dram.tREFI (%u) with refresh on, got %u", p->tREFI,
             p->tRFC);
    /* Each bank is refreshed once per tREFI: its refresh must end first. */
    if (p->refresh && p->refresh_per_bank && p->tRFCpb >= p->tREFI)
        CHECK_FAIL("dram.tRFCpb", "expected less than dram.tREFI (%u) with per-bank refresh, got %u",
             p->tREFI, p->tRFCpb);
    if (!p->sched)
        CHECK_FAIL("dram.sched", "expected a scheduler (fcfs, frfcfs)");
    if (p->queue_size < 1 || p->queue_size > 4096)
        CHECK_FAIL("dram.queue_size", "expected 1 to 4096 requests, got %u", p->queue_size);
    if (p->page_policy != DRAM_PAGE_OPEN && p->page_policy != DRAM_PAGE_CLOSE)
        CHECK_FAIL("dram.page_policy", "expected open or close");
    if (!is_pow2(p->channel_interleave))
        CHECK_FAIL("dram.channel_interleave", "expected a power of two, got %u", p->channel_interleave);
    return true;
}
