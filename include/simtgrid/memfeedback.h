/* What an SM's LD/ST unit shows the SM's warp schedulers: the L1D's free
 * MSHR entries and memory-port slots, OAWS's count of predicted misses in
 * flight, the divergent load classifier and the trained FCW (B. Wang,
 * "Mitigating GPU Memory Divergence for Data-Intensive Applications",
 * dissertation, Auburn 2015, chapter 5). The chip builder hands one struct
 * to both blocks (sm_set_feedback, ldst_set_feedback), as it hands them a
 * port: the LD/ST unit writes it in its cycle, the SM reads it in its own
 * (and adds the predictions of what it issues); neither calls the other.
 * An SM without one (ideal memory) sees no occlusion.
 *
 * The schedulers do not read this struct: each scheduler actor keeps its
 * own copy, changed only by reports (issue 12, docs/des.md "Reports from
 * another block"). Every write of a value a policy reads appends a report
 * word to the struct's box (mem_report_*, below), in the order the writes
 * happen; each actor applies the reports it has not seen to its copy when
 * it takes its next message, before deciding. */
#ifndef SIMTGRID_MEMFEEDBACK_H
#define SIMTGRID_MEMFEEDBACK_H

#include <glib.h>
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

/* The reports of one SM's struct, read by its scheduler actors: `n`
 * words, of which reader r has applied the first seen[r]; emptied when
 * every reader has applied them all. */
typedef struct mem_report_box {
    uint64_t *w;
    unsigned n, cap;
    unsigned nreaders;
    unsigned *seen;
} mem_report_box;

typedef struct mem_feedback {
    mem_report_box *box;       /* the reports of the writes, or NULL (no reader) */
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

/* A report word: its kind in bits 60-63, its value below. */
enum mem_report_kind {
    MR_MSHR = 1,      /* mshr_free = bits 0-31 */
    MR_PORT,          /* port_free = bits 0-31 */
    MR_FCW,           /* fcw = bits 0-31 */
    MR_INFLIGHT,      /* miss_inflight += (int32_t) bits 0-31 */
    MR_DLC,           /* dlc[bits 55-59] = {pc bits 0-31, misses 32-42, accs 43-53,
                         valid 54}: what the policies read of an entry */
    MR_DLC_CLEAR,     /* every DLC entry invalid (a new kernel) */
    MR_VTA_HIT,       /* vta_hits[bits 0-31]++ */
};
#define MR_KIND(w) ((unsigned)((w) >> 60))

static inline void mem_report(mem_feedback *f, unsigned kind, uint64_t v)
{
    mem_report_box *b = f->box;
    if (!b)
        return;
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->w = g_renew(uint64_t, b->w, b->cap);
    }
    b->w[b->n++] = (uint64_t)kind << 60 | v;
}

/* The writes that report (the LD/ST unit's and the SM's). */
static inline void mem_set_mshr_free(mem_feedback *f, unsigned v)
{
    if (f->mshr_free != v)
        mem_report(f, MR_MSHR, f->mshr_free = v);
}
static inline void mem_set_port_free(mem_feedback *f, unsigned v)
{
    if (f->port_free != v)
        mem_report(f, MR_PORT, f->port_free = v);
}
static inline void mem_set_fcw(mem_feedback *f, unsigned v)
{
    if (f->fcw != v)
        mem_report(f, MR_FCW, f->fcw = v);
}
static inline void mem_add_inflight(mem_feedback *f, int32_t d)
{
    f->miss_inflight += d;
    if (d)
        mem_report(f, MR_INFLIGHT, (uint32_t)d);
}
/* Entry e of f's DLC changed (accs and misses fit 11 bits: accs stays
 * within 1023 + a warp's accesses, halved past 1023). */
static inline void mem_report_dlc(mem_feedback *f, const mem_dlc_entry *e)
{
    uint64_t i = (uint64_t)(e - f->dlc);
    mem_report(f, MR_DLC, i << 55 | (uint64_t)e->valid << 54 | (uint64_t)(e->accs & 0x7ff) << 43 |
                              (uint64_t)(e->misses & 0x7ff) << 32 | e->pc);
}

/* A reader's copy takes report w. */
static inline void mem_report_apply(mem_feedback *c, uint64_t w)
{
    uint32_t v = (uint32_t)w;
    switch ((enum mem_report_kind)MR_KIND(w)) {
    case MR_MSHR: c->mshr_free = v; break;
    case MR_PORT: c->port_free = v; break;
    case MR_FCW: c->fcw = v; break;
    case MR_INFLIGHT: c->miss_inflight += (int32_t)v; break;
    case MR_DLC: {
        mem_dlc_entry *e = &c->dlc[(w >> 55) & 31];
        e->pc = v;
        e->misses = (uint32_t)(w >> 32) & 0x7ff;
        e->accs = (uint32_t)(w >> 43) & 0x7ff;
        e->valid = (w >> 54) & 1;
        break;
    }
    case MR_DLC_CLEAR:
        for (unsigned i = 0; i < MEM_DLC_ENTRIES; i++)
            c->dlc[i].valid = 0;
        break;
    case MR_VTA_HIT: c->vta_hits[v]++; break;
    }
}

/* Reader r applies the reports it has not seen to its copy c. */
static inline void mem_report_read(mem_report_box *b, unsigned r, mem_feedback *c)
{
    for (unsigned i = b->seen[r]; i < b->n; i++)
        mem_report_apply(c, b->w[i]);
    b->seen[r] = b->n;
    for (unsigned i = 0; i < b->nreaders; i++)
        if (b->seen[i] != b->n)
            return;
    b->n = 0;   /* every reader has them all */
    for (unsigned i = 0; i < b->nreaders; i++)
        b->seen[i] = 0;
}

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
    mem_report(f, MR_DLC_CLEAR, 0);
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
