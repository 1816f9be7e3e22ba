/* FR-FCFS (Rixner et al., "Memory access scheduling", ISCA 2000): each bank
 * offers its oldest waiting row hit, else its oldest request; a request for
 * another row waits out a row-hint hold on the bank (Narasiman's
 * dissertation, section 7.2). The controller then takes the earliest
 * command among the banks' offers, row hits first, then the oldest. */
#include "mem/memctrl_internal.h"

static uint32_t frfcfs_bank_offer(const memctrl *mc, const mc_bank *b, uint64_t *floor)
{
    uint32_t i = mc_oldest_hit(mc, b);
    if (i != MC_NONE)
        return i;
    *floor = mc_hold_floor(b);
    return b->head;
}

const dram_sched_ops dram_sched_frfcfs = {
    .name = "frfcfs",
    .bank_offer = frfcfs_bank_offer,
};
