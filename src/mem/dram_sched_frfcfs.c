/* FR-FCFS (Rixner et al., "Memory access scheduling", ISCA 2000): each bank
 * offers its oldest waiting row hit, else its oldest request; a request for
 * another row waits out a row-hint hold on the bank (Narasiman's
 * dissertation, section 7.2). The controller then takes the earliest
 * command among the banks' offers, row hits first, then the oldest.
 *
 * FR-FCFS+Cap (Mutlu and Moscibroda, "Stall-Time Fair Memory Access
 * Scheduling for Chip Multiprocessors", MICRO 2007, the FR-FCFS+Cap of its evaluation): once
 * dram.frfcfs_cap younger row hits have started ahead of the bank's oldest
 * waiting request, the bank offers that oldest request until it starts, so
 * a stream of row hits cannot hold an older row conflict back unboundedly. */
#include "mem/memctrl_internal.h"

static uint32_t frfcfs_bank_offer(const memctrl *mc, const mc_bank *b, uint64_t *floor)
{
    if (!mc->p.frfcfs_cap || b->bypassed < mc->p.frfcfs_cap) {
        uint32_t i = mc_oldest_hit(mc, b);
        if (i != MC_NONE)
            return i;
    }
    *floor = mc_hold_floor(b);
    return b->head;
}

const dram_sched_ops dram_sched_frfcfs = {
    .name = "frfcfs",
    .bank_offer = frfcfs_bank_offer,
};
