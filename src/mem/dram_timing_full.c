/* Command-level DRAM timing, after the GDDR model of GPGPU-Sim (Fung's DWF
 * thesis, section 5.1.3, Table 5.1) with the GDDR5 additions of the Fermi
 * model (Wang's memory-divergence dissertation, Tables 3.1, 4.1, 5.1): ACT,
 * PRE and column (RD/WR) commands, one per cycle on the command bus, each
 * allowed once every constraint holds. Constraints are kept as "earliest cycle
 * the next command of this kind may issue", so finding the next command is a
 * max() over a few fields:
 *
 *   per bank   ACT  >= PRE + tRP, ACT + tRC
 *              PRE  >= ACT + tRAS, RD + burst, end of write data + tWR
 *              RD/WR >= ACT + tRCD
 *   per group  RD/WR >= RD/WR in the group + tCCDL     (bank_groups > 1)
 *   per pseudo-channel (all banks when pseudo_channels = 1)
 *              ACT  >= ACT of any of its banks + tRRD
 *              ACT  >= its fourth-last ACT + tFAW          (tFAW > 0)
 *   channel    RD/WR >= RD/WR + tCCD
 *              RD   >= end of write data + tWTR
 *              WR   >= RD + tRTW
 *              data bus: a burst holds it burst_length / data_rate cycles,
 *              from tCL (read) or tWL (write) after its command; bursts
 *              never overlap.
 *
 * A request of `bytes` needs ceil(bytes / (bus_bytes * burst cycles))
 * bursts; its data is done when its last burst leaves the bus. */
#include "mem/dram_bank.h"

static uint64_t full_bank_ready(const memctrl *mc, const mc_bank *b, const mc_req *r,
                                enum dram_cmd *cmd)
{
    (void)mc;
    if (b->open_row == r->row) {
        *cmd = r->write ? DRAM_CMD_WR : DRAM_CMD_RD;
        return b->next_col;
    }
    if (b->open_row == ROW_CLOSED) {
        *cmd = DRAM_CMD_ACT;
        return b->next_act;
    }
    *cmd = DRAM_CMD_PRE;
    return b->next_pre;
}

/* Data must not start before the bus is free: a RD at t puts data on the
 * bus at t + tCL, a WR at t + tWL. */
static void full_channel_floors(const memctrl *mc, uint64_t floors[DRAM_CMD_COUNT])
{
    const dram_params *p = &mc->p;
    uint64_t base = mc->cmd_free;
    floors[DRAM_CMD_PRE] = base;
    floors[DRAM_CMD_ACT] = base;   /* tRRD, tFAW: pc_next_act */
    floors[DRAM_CMD_RD] = mc_max(mc_max(base, mc->next_rd),
                                 mc->bus_free > p->tCL ? mc->bus_free - p->tCL : 0);
    floors[DRAM_CMD_WR] = mc_max(mc_max(base, mc->next_wr),
                                 mc->bus_free > p->tWL ? mc->bus_free - p->tWL : 0);
    floors[DRAM_CMD_SERVE] = base;
}

static void precharge(const dram_params *p, dram_bank_state *s, uint64_t t, uint32_t *ev)
{
    s->open_row = ROW_CLOSED;
    s->next_act = mc_max(s->next_act, t + p->tRP);
    *ev |= DRAM_EV_PRE;
}

/* An ACT at t on pseudo-channel pc: the next one waits tRRD and, with
 * tFAW, until the oldest of the last four (this one included) is tFAW old.
 * ACTs of a channel issue in time order, so after this one is written the
 * ring's next slot holds the oldest of the four. HBM counts both per
 * pseudo-channel (JESD235 and JESD238, "array access timings counted
 * individually per pseudo channel"). */
static void full_act(memctrl *mc, unsigned pc, uint64_t t)
{
    const dram_params *p = &mc->p;
    uint64_t next = t + p->tRRD;
    if (p->tFAW) {
        uint64_t *ring = &mc->pc_faw[4 * pc];
        uint32_t k = mc->pc_faw_pos[pc];
        ring[k] = t + p->tFAW;
        k = (k + 1) & 3;
        mc->pc_faw_pos[pc] = k;
        next = mc_max(next, ring[k]);
    }
    mc->pc_next_act[pc] = mc_max(mc->pc_next_act[pc], next);
}

/* The channel's part: the command bus, the data bus, tRRD and tFAW (per
 * pseudo-channel), tCCD(L), tWTR, tRTW. The bank's part is full_bank_cmd. */
static bool full_issue(memctrl *mc, const mc_bank *b, mc_req *r, enum dram_cmd cmd, uint64_t t,
                       dram_bank_msg *m)
{
    const dram_params *p = &mc->p;
    mc->cmd_free = t + 1;
    switch (cmd) {
    case DRAM_CMD_PRE:
        return false;
    case DRAM_CMD_ACT:
        full_act(mc, b->pc, t);
        return false;
    case DRAM_CMD_RD:
    case DRAM_CMD_WR:
    case DRAM_CMD_SERVE:
    case DRAM_CMD_COUNT:
        break;
    }
    uint64_t burst = mc->burst_cycles;
    uint64_t start = t + (r->write ? p->tWL : p->tCL), end = start + burst;
    m->a = end;
    m->b = burst;
    mc->bus_free = end;
    mc_count(mc, &mc->st.bus_busy_cycles, burst);
    mc_count(mc, &mc->st.column_commands, 1);
    mc->next_rd = mc_max(mc->next_rd, t + p->tCCD);
    mc->next_wr = mc_max(mc->next_wr, t + p->tCCD);
    if (p->bank_groups > 1)
        mc->group_next_col[b->group] = mc_max(mc->group_next_col[b->group], t + p->tCCDL);
    if (r->write)
        mc->next_rd = mc_max(mc->next_rd, end + p->tWTR);
    else
        mc->next_wr = mc_max(mc->next_wr, t + p->tRTW);
    if (--r->bursts_left > 0)
        return false;
    r->done = end;
    return true;
}

/* The bank's part of a command at m->t: tRP, tRCD, tRAS, tRC, tWR and the
 * read burst leaving the row buffer before a precharge. */
static void full_bank_cmd(const dram_params *p, dram_bank_state *s, const dram_bank_msg *m,
                          uint32_t *ev)
{
    uint64_t t = m->t;
    switch ((enum dram_cmd)m->cmd) {
    case DRAM_CMD_PRE:
        precharge(p, s, t, ev);
        return;
    case DRAM_CMD_ACT:
        s->open_row = m->row;
        s->next_col = t + p->tRCD;
        s->next_pre = mc_max(s->next_pre, t + p->tRAS);
        s->next_act = mc_max(s->next_act, t + p->tRC);
        *ev |= DRAM_EV_ACT;
        return;
    case DRAM_CMD_RD:
    case DRAM_CMD_WR:
    case DRAM_CMD_SERVE:
    case DRAM_CMD_COUNT:
        break;
    }
    if (m->write)
        s->next_pre = mc_max(s->next_pre, m->a + p->tWR);
    else /* read to precharge: the burst must leave the row buffer first */
        s->next_pre = mc_max(s->next_pre, t + m->b);
}

/* Close page: an auto-precharge (RDA/WRA) at the first cycle PRE is legal,
 * without a command slot of its own. */
static void full_bank_close(const dram_params *p, dram_bank_state *s, uint64_t t, uint32_t *ev)
{
    precharge(p, s, mc_max(t, s->next_pre), ev);
}

/* Refresh due at `due`: each open bank of it precharges as soon as it may
 * (from `due`), REF (REFpb for one bank) goes once every such bank could
 * take an ACT, and none may activate until trfc after it. */
static void full_bank_refresh(const dram_params *p, dram_bank_state *s, uint64_t due, uint32_t *ev)
{
    if (s->open_row != ROW_CLOSED)
        precharge(p, s, mc_max(due, s->next_pre), ev);
}

static uint64_t full_refresh(memctrl *mc, uint64_t due, unsigned first, unsigned end,
                             unsigned trfc)
{
    uint64_t start = due;
    for (unsigned i = first; i < end; i++)
        start = mc_max(start, mc->banks[i].next_act);
    /* REFab holds the command bus to its slot (nothing can go meanwhile);
     * REFpb's one slot is not modelled: the other banks' commands must not
     * wait for the refreshed bank to close. */
    if (end - first == mc->p.banks)
        mc->cmd_free = mc_max(mc->cmd_free, start + 1);
    return start + trfc;
}

static void full_bank_refresh_end(const dram_params *p, dram_bank_state *s, uint64_t end,
                                  uint32_t *ev)
{
    (void)p, (void)ev;
    s->next_act = mc_max(s->next_act, end);
}

/* The first data of a request: its column command, then CL (or WL) and one
 * burst. */
static unsigned full_min_latency(const memctrl *mc)
{
    const dram_params *p = &mc->p;
    return (p->tCL < p->tWL ? p->tCL : p->tWL) + mc->burst_cycles;
}

/* One column command per atom (bus width x burst). */
static uint32_t full_bursts(const memctrl *mc, uint32_t bytes)
{
    return bytes > mc->atom_bytes ? (bytes + mc->atom_bytes - 1) / mc->atom_bytes : 1;
}

const dram_timing_ops dram_timing_full = {
    .name = "full",
    .bank_ready = full_bank_ready,
    .channel_floors = full_channel_floors,
    .issue = full_issue,
    .refresh = full_refresh,
    .bank_cmd = full_bank_cmd,
    .bank_close = full_bank_close,
    .bank_refresh = full_bank_refresh,
    .bank_refresh_end = full_bank_refresh_end,
    .min_latency = full_min_latency,
    .bursts = full_bursts,
};
