/* The papers' simple DRAM timing (Narasiman et al., MICRO 2011, Table 1 and
 * section 2.2; Meng et al., DWS tech report CS-2010-5, Table 3): a request's
 * data is ready H cycles after it starts when its row is open (row hit), C
 * cycles when another row is open or the bank is closed; its data then holds
 * the shared bus for ceil(bytes / bus_bytes) cycles, ending at the completion.
 *
 * Per bank: row hits to the open row pipeline, one every `d` cycles (the
 * bus time of the previous one), while a conflict cannot start before the
 * bank has finished everything it started (the row buffer is in use) and
 * then spends C - H cycles opening the new row, after which hits to it
 * pipeline again. So for a request started at t with bus time d:
 *     done = max(t + latency, t + d, bus_free + d)
 * and a row hit after a conflict started at t0 may start at t0 + C - H + d.
 * There are no command slots: several banks may start in one cycle. */
#include "mem/memctrl_internal.h"

static unsigned bus_cycles(const memctrl *mc, const mc_req *r)
{
    unsigned b = mc->p.bus_bytes;
    return r->bytes ? (r->bytes + b - 1) / b : 1;
}

static uint64_t simple_bank_ready(const memctrl *mc, const mc_bank *b, const mc_req *r,
                                  enum dram_cmd *cmd)
{
    (void)mc;
    *cmd = DRAM_CMD_SERVE;
    return b->open_row == r->row ? b->hit_ready : b->idle_at;
}

/* No shared constraint on when a request starts: the bus only delays its
 * data (in simple_issue). */
static void simple_channel_floors(const memctrl *mc, uint64_t floors[DRAM_CMD_COUNT])
{
    (void)mc;
    for (unsigned i = 0; i < DRAM_CMD_COUNT; i++)
        floors[i] = 0;
}

static bool simple_issue(memctrl *mc, mc_bank *b, mc_req *r, enum dram_cmd cmd, uint64_t t)
{
    (void)cmd;
    const dram_params *p = &mc->p;
    uint64_t d = bus_cycles(mc, r);
    uint64_t latency;
    if (b->open_row == r->row) {
        latency = p->row_hit_latency;
        b->hit_ready = t + d;
    } else {
        latency = p->row_conflict_latency;
        if (b->open_row != ROW_CLOSED)
            mc->st.precharges++;
        mc->st.activations++;
        b->open_row = r->row;
        b->hit_ready = t + (p->row_conflict_latency - p->row_hit_latency) + d;
    }
    uint64_t done = mc_max(mc_max(t + latency, t + d), mc->bus_free + d);
    mc->bus_free = done;
    mc->st.bus_busy_cycles += d;
    mc->st.column_commands++;
    b->idle_at = mc_max(b->idle_at, done);
    r->bursts_left = 0;
    r->done = done;
    return true;
}

static void simple_auto_precharge(memctrl *mc, mc_bank *b, uint64_t t)
{
    (void)t;
    b->open_row = ROW_CLOSED;
    mc->st.precharges++;
}

/* Refresh starts when every bank has finished its work; afterwards every
 * bank is closed until the refresh ends. */
static void simple_refresh(memctrl *mc, uint64_t due)
{
    uint64_t start = due;
    for (unsigned i = 0; i < mc->p.banks; i++)
        start = mc_max(start, mc->banks[i].idle_at);
    uint64_t end = start + mc->p.tRFC;
    for (unsigned i = 0; i < mc->p.banks; i++) {
        mc_bank *b = &mc->banks[i];
        if (b->open_row != ROW_CLOSED)
            mc->st.precharges++;
        b->open_row = ROW_CLOSED;
        b->idle_at = mc_max(b->idle_at, end);
        b->hit_ready = mc_max(b->hit_ready, end);
    }
}

/* A row hit's latency is the shortest. */
static unsigned simple_min_latency(const memctrl *mc)
{
    return mc->p.row_hit_latency;
}

/* The whole request is served at once. */
static uint32_t simple_bursts(const memctrl *mc, uint32_t bytes)
{
    (void)mc, (void)bytes;
    return 1;
}

const dram_timing_ops dram_timing_simple = {
    .name = "simple",
    .bank_ready = simple_bank_ready,
    .channel_floors = simple_channel_floors,
    .issue = simple_issue,
    .auto_precharge = simple_auto_precharge,
    .refresh = simple_refresh,
    .min_latency = simple_min_latency,
    .bursts = simple_bursts,
};
