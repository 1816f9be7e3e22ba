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
#include "mem/dram_bank.h"

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

/* The channel's part: the data's done cycle, from the bank's view (hit or
 * not) and the shared bus. The bank's part is simple_bank_cmd. */
static bool simple_issue(memctrl *mc, const mc_bank *b, mc_req *r, enum dram_cmd cmd, uint64_t t,
                         dram_bank_msg *m)
{
    (void)cmd;
    const dram_params *p = &mc->p;
    uint64_t d = bus_cycles(mc, r);
    uint64_t latency = b->open_row == r->row ? p->row_hit_latency : p->row_conflict_latency;
    uint64_t done = mc_max(mc_max(t + latency, t + d), mc->bus_free + d);
    mc->bus_free = done;
    mc_count(mc, &mc->st.bus_busy_cycles, d);
    mc_count(mc, &mc->st.column_commands, 1);
    m->a = done;
    m->b = d;
    r->bursts_left = 0;
    r->done = done;
    return true;
}

/* The bank's part: the row opens (a conflict precharges the old one), hits
 * pipeline behind this request's bus time, and the bank is busy until the
 * data is done. */
static void simple_bank_cmd(const dram_params *p, dram_bank_state *s, const dram_bank_msg *m,
                            uint32_t *ev)
{
    uint64_t t = m->t, d = m->b;
    if (s->open_row == m->row) {
        s->hit_ready = t + d;
    } else {
        if (s->open_row != ROW_CLOSED)
            *ev |= DRAM_EV_PRE;
        *ev |= DRAM_EV_ACT;
        s->open_row = m->row;
        s->hit_ready = t + (p->row_conflict_latency - p->row_hit_latency) + d;
    }
    s->idle_at = mc_max(s->idle_at, m->a);
}

static void simple_bank_close(const dram_params *p, dram_bank_state *s, uint64_t t, uint32_t *ev)
{
    (void)p, (void)t;
    s->open_row = ROW_CLOSED;
    *ev |= DRAM_EV_PRE;
}

/* Refresh starts when every bank it refreshes has finished its work;
 * afterwards they are closed until the refresh ends. */
static void simple_bank_refresh(const dram_params *p, dram_bank_state *s, uint64_t due,
                                uint32_t *ev)
{
    (void)p, (void)s, (void)due, (void)ev;
}

static uint64_t simple_refresh(memctrl *mc, uint64_t due, unsigned first, unsigned end,
                               unsigned trfc)
{
    uint64_t start = due;
    for (unsigned i = first; i < end; i++)
        start = mc_max(start, mc->banks[i].idle_at);
    return start + trfc;
}

static void simple_bank_refresh_end(const dram_params *p, dram_bank_state *s, uint64_t end,
                                    uint32_t *ev)
{
    (void)p;
    if (s->open_row != ROW_CLOSED)
        *ev |= DRAM_EV_PRE;
    s->open_row = ROW_CLOSED;
    s->idle_at = mc_max(s->idle_at, end);
    s->hit_ready = mc_max(s->hit_ready, end);
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
    .refresh = simple_refresh,
    .bank_cmd = simple_bank_cmd,
    .bank_close = simple_bank_close,
    .bank_refresh = simple_bank_refresh,
    .bank_refresh_end = simple_bank_refresh_end,
    .min_latency = simple_min_latency,
    .bursts = simple_bursts,
};
