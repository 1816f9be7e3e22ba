/* The divergent load classifier's training (dlc.h). */
#include "mem/dlc.h"

#define DLC_ACC_MAX 1023   /* the 10-bit #acc field */

static mem_dlc_entry *find(mem_feedback *f, uint32_t pc)
{
    return (mem_dlc_entry *)mem_dlc_find(f, pc);
}

void dlc_coalesced(mem_feedback *f, uint32_t pc, unsigned accesses)
{
    mem_dlc_entry *e = find(f, pc);
    if (!e) {   /* a free entry, else the least recently used */
        e = &f->dlc[0];
        for (unsigned i = 0; i < MEM_DLC_ENTRIES && e->valid; i++)
            if (!f->dlc[i].valid || f->dlc[i].used < e->used)
                e = &f->dlc[i];
        *e = (mem_dlc_entry){.pc = pc, .valid = true};
    }
    e->used = ++f->dlc_clock;
    e->insts++;
    e->accs += accesses;
    if (e->accs > DLC_ACC_MAX) {   /* keep the hit/miss ratio of the recent accesses [assumption] */
        e->accs /= 2;
        e->misses /= 2;
        e->insts = (e->insts + 1) / 2;
    }
}

void dlc_missed(mem_feedback *f, uint32_t pc)
{
    mem_dlc_entry *e = find(f, pc);
    if (e && e->misses < e->accs)
        e->misses++;
}
