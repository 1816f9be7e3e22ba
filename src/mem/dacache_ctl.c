/* DaCache's per-SM controller: FCW training (Fig 4.3), victim cache and
 * coherent load profiler (dacache_ctl.h). */
#include <string.h>

#include "mem/dacache_ctl.h"

void fcw_init(fcw_state *f, unsigned fcw, unsigned min)
{
    min = min < 1 ? 1 : min > FCW_W_MAX ? FCW_W_MAX : min;
    *f = (fcw_state){.cnt = FCW_CNT_INIT, .min = min,
                     .fcw = fcw < min ? min : fcw > FCW_W_MAX ? FCW_W_MAX : fcw};
}

void fcw_retire(fcw_state *f, unsigned prio, bool fully_cached)
{
    if (fully_cached) {
        if (f->cnt < FCW_C_MAX)                     /* (1) */
            f->cnt++;
        if (f->cnt == FCW_C_MAX && f->fcw < FCW_W_MAX) {   /* (2) */
            f->fcw++;
            f->ups++;
            f->cnt = FCW_C_MAX / 2;
        }
        return;                                     /* (7): saturated at W_max */
    }
    /* (3) partially cached: (4) a low-priority warp costs 1, (5) a warp
     * the locality region should have cached costs FCW - prio */
    f->cnt -= prio >= f->fcw ? 1 : (int)(f->fcw - prio);
    if (f->cnt <= 0) {                              /* (6) */
        if (f->fcw > f->min) {
            f->fcw--;
            f->downs++;
            f->cnt = FCW_C_MAX / 2;                 /* reset value [assumption] */
        } else {
            f->cnt = 0;                             /* (7): no underflow at FCW_min */
        }
    }
}

void dacache_ctl_init(dacache_ctl *d, unsigned fcw, unsigned fcw_min, bool dynamic, bool coherent)
{
    memset(d, 0, sizeof *d);
    fcw_init(&d->fcw, fcw, fcw_min);
    d->dynamic = dynamic;
    d->static_fcw = fcw;
    d->coherent = coherent;
}

unsigned dacache_ctl_fcw(const dacache_ctl *d) { return d->dynamic ? d->fcw.fcw : d->static_fcw; }

static dacache_clp_entry *clp_find(const dacache_ctl *d, uint32_t pc)
{
    for (unsigned i = 0; i < DACACHE_CLP_ENTRIES; i++)
        if (d->clp[i].valid && d->clp[i].pc == pc)
            return (dacache_clp_entry *)&d->clp[i];
    return NULL;
}

bool dacache_ctl_locality(const dacache_ctl *d, uint32_t pc)
{
    const dacache_clp_entry *e = clp_find(d, pc);
    return e && e->locality;
}

enum dacache_class dacache_ctl_classify(dacache_ctl *d, uint32_t pc, uint16_t warp, unsigned prio,
                                        unsigned accesses, bool divergent)
{
    if (prio == 0) {
        d->top_warp = warp;
        d->have_top = true;
    }
    if (!d->coherent)
        return DACACHE_DIVERGENT;
    if (divergent)
        return accesses <= DACACHE_MRU_ACCESSES ? DACACHE_MRU : DACACHE_DIVERGENT;
    d->clock++;
    dacache_clp_entry *e = clp_find(d, pc);
    if (!e) {   /* a free entry, else the least recently used */
        e = &d->clp[0];
        for (unsigned i = 0; i < DACACHE_CLP_ENTRIES && e->valid; i++)
            if (!d->clp[i].valid || d->clp[i].used < e->used)
                e = &d->clp[i];
        *e = (dacache_clp_entry){.pc = pc, .valid = true};
    }
    e->used = d->clock;
    return e->locality ? DACACHE_MRU : DACACHE_LRU;
}

void dacache_ctl_evicted(dacache_ctl *d, uint64_t line, uint16_t warp, uint32_t pc)
{
    if (!d->coherent || !d->have_top || warp != d->top_warp)
        return;
    const dacache_clp_entry *e = clp_find(d, pc);
    if (!e || e->locality)   /* not a coherent PC, or settled: skip the victim cache */
        return;
    d->vc[d->vc_next].pc = pc;
    d->vc[d->vc_next].line = line;
    d->vc[d->vc_next].valid = true;
    d->vc_next = (d->vc_next + 1) % DACACHE_VC_ENTRIES;
    d->vc_inserts++;
}

void dacache_ctl_missed(dacache_ctl *d, uint64_t line, uint32_t pc)
{
    dacache_clp_entry *e = clp_find(d, pc);
    if (!e || e->locality)
        return;
    for (unsigned i = 0; i < DACACHE_VC_ENTRIES; i++)
        if (d->vc[i].valid && d->vc[i].pc == pc && d->vc[i].line == line) {
            d->vc[i].valid = false;
            e->locality = true;
            d->vc_hits++;
            return;
        }
}
