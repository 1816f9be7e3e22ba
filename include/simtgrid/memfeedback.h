/* What an SM's LD/ST unit shows the SM's warp schedulers: the L1D's free
 * MSHR entries and memory-port slots, OAWS's count of predicted misses in
 * flight, the divergent load classifier and the trained FCW (B. Wang,
 * "Mitigating GPU Memory Divergence for Data-Intensive Applications",
 * dissertation, Auburn 2015, chapter 5). The chip builder hands one struct
 * to both blocks (sm_set_feedback, ldst_set_feedback), as it hands them a
 * port: the LD/ST unit writes it in its cycle, the SM reads it in its own
 * (and adds the predictions of what it issues); neither calls the other.
 * An SM without one (ideal memory) sees no occlusion. */
#ifndef SIMTGRID_MEMFEEDBACK_H
#define SIMTGRID_MEMFEEDBACK_H

#include <stdbool.h>
#include <stdint.h>

/* The divergent load classifier (DLC), section 5.3: 32 entries of divergent
 * load PCs with their accesses and misses, LRU among them [assumption]. */
#define MEM_DLC_ENTRIES 32

typedef struct mem_dlc_entry {
    uint32_t pc;
    bool valid;
    uint32_t insts, accs, misses;   /* #inst, #acc, #miss (halved together past 1023 accesses) */
    uint64_t used;
} mem_dlc_entry;

/* CCWS's victim tag arrays (Rogers et al., MICRO 2012, as the thesis
 * configures them): per warp slot, 16 entries, 8-way (2 sets), FIFO within
 * a set [assumption]. */
#define MEM_VTA_WARPS 64
#define MEM_VTA_SETS 2
#define MEM_VTA_WAYS 8

typedef struct mem_feedback {
    unsigned mshr_free;        /* Avail_mshr: free L1D MSHR entries */
    unsigned port_free;        /* free memory-port (miss queue) slots */
    int64_t miss_inflight;     /* OAWS: predicted misses of loads issued, not yet through the L1 */
    unsigned fcw;              /* OAWS's fully cached warps (SM-wide, Fig 4.3's training) */
    mem_dlc_entry dlc[MEM_DLC_ENTRIES];
    uint64_t dlc_clock;
    unsigned dlc_launches;     /* launches seen (highest launch index + 1): the DLC's kernel */
    /* CCWS: the lines each warp slot's misses brought in and lost to
     * eviction, and per warp slot the misses that found their line there
     * (lost intra-warp locality) */
    uint64_t vta[MEM_VTA_WARPS][MEM_VTA_SETS][MEM_VTA_WAYS];
    uint8_t vta_next[MEM_VTA_WARPS][MEM_VTA_SETS];
    uint32_t vta_hits[MEM_VTA_WARPS];
} mem_feedback;

/* A CTA of launch `index` arrived at the SM: the DLC is cleared at each
 * kernel launch (Wang, section 5.3), i.e. at the first CTA of a launch
 * later than any seen (a PC of one kernel says nothing of another's). */
static inline void mem_dlc_launch(mem_feedback *f, unsigned index)
{
    if (index < f->dlc_launches)
        return;
    f->dlc_launches = index + 1;
    for (unsigned i = 0; i < MEM_DLC_ENTRIES; i++)
        f->dlc[i].valid = 0;
}

/* The DLC entry of `pc`, or NULL (not a divergent load as far as seen). */
static inline const mem_dlc_entry *mem_dlc_find(const mem_feedback *f, uint32_t pc)
{
    for (unsigned i = 0; i < MEM_DLC_ENTRIES; i++)
        if (f->dlc[i].valid && f->dlc[i].pc == pc)
            return &f->dlc[i];
    return 0;
}

#endif
