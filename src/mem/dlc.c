/* The divergent load classifier's training and CCWS's victim tag arrays
 * (dlc.h). */
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
    mem_report_dlc(f, e);
}

void dlc_missed(mem_feedback *f, uint32_t pc)
{
    mem_dlc_entry *e = find(f, pc);
    if (e && e->misses < e->accs) {
        e->misses++;
        mem_report_dlc(f, e);
    }
}

/* Line addresses are non-zero tags: 0 marks an empty way (line 0 is stored as
 * all ones, never a line address of a 128-B line). */
static uint64_t vta_tag(uint64_t line)
{
    return line ? line : UINT64_MAX;
}

void vta_evicted(mem_feedback *f, uint16_t warp, uint64_t line)
{
    if (warp >= MEM_VTA_WARPS)
        return;
    unsigned set = (unsigned)(line >> 7) % MEM_VTA_SETS;
    uint8_t *n = &f->vta_next[warp][set];
    f->vta[warp][set][*n] = vta_tag(line);
    *n = (uint8_t)((*n + 1) % MEM_VTA_WAYS);
}

void vta_missed(mem_feedback *f, uint16_t warp, uint64_t line)
{
    if (warp >= MEM_VTA_WARPS)
        return;
    unsigned set = (unsigned)(line >> 7) % MEM_VTA_SETS;
    for (unsigned w = 0; w < MEM_VTA_WAYS; w++)
        if (f->vta[warp][set][w] == vta_tag(line)) {
            f->vta[warp][set][w] = 0;
            f->vta_hits[warp]++;
            mem_report(f, MR_VTA_HIT, warp);
            return;
        }
}
