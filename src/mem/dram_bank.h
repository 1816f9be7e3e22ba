/* One DRAM bank's own transitions (dram_bank.c) and its candidate for the
 * next command (inline: the controller's hot loop calls it). */
#ifndef SIMTGRID_MEM_DRAM_BANK_H
#define SIMTGRID_MEM_DRAM_BANK_H

#include "mem/memctrl_internal.h"

void dram_bank_init(mc_bank *b, uint32_t group);
void dram_bank_start(memctrl_stats *st, mc_bank *b, const mc_req *r, uint64_t t);
void dram_bank_done(memctrl *mc, mc_bank *b, const mc_req *r, uint64_t t);
void dram_bank_refreshed(memctrl_stats *st, mc_bank *b);

/* Bank b's candidate and the cycle its own state allows (see mc_bank): its
 * bound request, else the scheduler's offer among its waiting ones. */
static inline void dram_bank_candidate(const memctrl *mc, mc_bank *b)
{
    b->dirty = false;
    uint32_t i = MC_NONE;
    uint64_t floor = 0;
    if (b->bound != MC_NONE)
        i = b->bound;
    else if (b->waiting)
        i = mc->sched->bank_offer(mc, b, &floor);
    b->cand = i;
    if (i == MC_NONE)
        return;
    const mc_req *r = &mc->reqs[i];
    enum dram_cmd cmd;
    b->cand_at = mc_max(floor, mc->ops->bank_ready(mc, b, r, &cmd));
    b->cand_cmd = (uint8_t)cmd;
    b->cand_rank = (uint8_t)mc_rank_of(cmd, b, r);
    b->cand_seq = r->seq;
}

#endif
