/* FCFS: only the oldest waiting request of the whole channel may start, once
 * its bank is free, so service starts in arrival order (the MICRO 2011 LWM
 * paper's controller, Table 1). A row-hint hold on its bank ends as soon as
 * a same-row request is waiting there. */
#include "mem/memctrl_internal.h"

/* No bank offers a request of its own. */
static uint32_t fcfs_bank_offer(const memctrl *mc, const mc_bank *b, uint64_t *floor)
{
    (void)mc, (void)b, (void)floor;
    return MC_NONE;
}

static void fcfs_channel_offer(memctrl *mc, const uint64_t *floors, mc_pick *best)
{
    if (mc->ghead == MC_NONE)
        return;
    const mc_req *r = &mc->reqs[mc->ghead];
    const mc_bank *b = &mc->banks[r->bank];
    if (b->bound != MC_NONE)
        return;
    enum dram_cmd cmd;
    uint64_t at = mc->ops->bank_ready(mc, b, r, &cmd);
    if (mc_oldest_hit(mc, b) == MC_NONE)
        at = mc_max(at, mc_hold_floor(b));
    uint64_t t = mc_with_channel(mc, floors, b, at, cmd);
    int rank = mc_rank_of(cmd, b, r);
    if (mc_earlier(best, t, rank, r->seq))
        *best = (mc_pick){t, r->seq, mc->ghead, cmd, rank, true};
}

const dram_sched_ops dram_sched_fcfs = {
    .name = "fcfs",
    .bank_offer = fcfs_bank_offer,
    .channel_offer = fcfs_channel_offer,
};
