/* Dynamic warp formation's state (reconv_dwf.c, docs/core.md "Dynamic warp
 * formation"), shared by the pool and issue code (reconv_dwf.c) and the
 * lane placement of a thread group (dwf_place.c). Internal to src/core. */
#ifndef SIMTGRID_CORE_DWF_INTERNAL_H
#define SIMTGRID_CORE_DWF_INTERNAL_H

#include "core/dwf_heap.h"
#include "core/dwf_lut.h"
#include "core/sm_internal.h"

#define NONE UINT32_MAX
#define XLANE_KEY (UINT64_C(1) << 63)   /* cross-lane pool warps: key per hw warp */

enum { E_FREE, E_POOL, E_FLIGHT };

typedef struct dgroup {
    bool used;
    uint64_t key;
    uint32_t head, tail;     /* its pool warps, oldest first */
} dgroup;

typedef struct dwf_state {
    unsigned ws, P;          /* warp size; pipeline cycles per scheduler cycle */
    /* per entity */
    uint8_t *est;
    bool *parked;            /* DMaj: a pool warp outside the Majority Entry, not a scheduler member */
    bool *pfull;             /* a carrier waiting for a free pool entry */
    bool *barw;              /* a carrier whose instruction is a barrier (core.dwf_barrier_lut = bypass) */
    uint16_t (*tid)[ISA_MAX_LANES];   /* thread id (hw * ws + lane) on each lane */
    uint32_t *mask, *gnext, *gprev, *grp, *pdmin;
    uint64_t *seq, *key;
    uint32_t *tpc, *fpc, *sel;   /* a carrier's next pcs: lanes in sel go to tpc, the others to fpc */
    uint32_t *pw, *pocc, *ptake;   /* las placement: a pc's pool warps, their lanes, the lanes taken so far */
    uint64_t nseq;
    /* per thread (hw * ws + original lane) */
    uint8_t *home;
    isa_thread **thr;        /* the thread (s->hw[t / ws].lane[t % ws], set at warp start) */
    uint32_t hlanes[ISA_MAX_LANES];   /* per home lane h: the lanes its threads may take (core.dwf_home_lane) */
    uint32_t *pd;
    unsigned *live;          /* per hw warp: threads not exited */
    /* pc groups */
    dgroup *g;
    uint32_t *cnt;           /* threads in the pool per group (the heap's key) */
    uint32_t *gpc;           /* per group: its pc (the heap's tie key under core.dwf_heap_tie = pc) */
    int *hpos;               /* heap position; -1 none; -2 spilled */
    unsigned ng;
    uint32_t *gfree;
    unsigned ngfree;
    GHashTable *gmap;        /* key + 1 -> group + 1 */
    uint32_t *pool, *flight; /* the pool in no order (ppos: each warp's index), the carriers in issue order */
    uint32_t *ppos;
    unsigned npool, nflight, pool_limit;
    uint32_t *bq;            /* bypass: pool warps a barrier released, arrival order; outside any group */
    unsigned nbq;
    dwf_lut lut;
    uint64_t window;         /* scheduler cycle of the lookup budget */
    unsigned lookups_left;
    /* DMaj */
    dwf_heap heap;
    uint32_t maj;            /* group being drained, NONE */
    uint32_t *spill;
    unsigned nspill;
    unsigned *mset;          /* MHeap LUT: entries per set */
    unsigned msets;
    uint64_t heap_busy;      /* first cycle the heap is balanced again */
    uint64_t hport[DWF_HEAP_PORTS_MAX];   /* first free cycle of each heap port */
    uint64_t heap_counted;   /* heap stall cycles counted up to here */
    unsigned bank_extra;
    sm_subwarp sw;           /* the issuing warp */
    GHashTable *ipdoms;      /* program -> bitmap of reconvergence pcs */
    /* statistics */
    uint64_t lookups, las_conflicts, las_full, las_split, bank_cycles, pool_full, port_waits;
    uint64_t heap_stalls, heap_swaps, heap_spills, issued;
    uint64_t pool_max, heap_max, pcs_max;
    uint64_t last_k, first_k, pool_area, heap_area, pcs_area;
    bool sampled;
} dwf_state;

/* reconv_dwf.c: the pool */
uint32_t dwf_pool_new(sm *s, dwf_state *d, uint64_t key, unsigned hw, uint64_t k);
/* dwf_pool_new for a key whose group g is known (a pool warp of it exists) */
uint32_t dwf_pool_new_in(sm *s, dwf_state *d, uint64_t key, unsigned hw, uint64_t k, uint32_t g);
void dwf_maj_insert(sm *s, dwf_state *d, uint32_t g, uint64_t k, bool count);

/* Thread t joins pool warp e on lane l (per thread: inline in both files). */
static inline void dwf_pool_add(sm *s, dwf_state *d, unsigned e, unsigned l, unsigned t)
{
    d->tid[e][l] = (uint16_t)t;
    d->mask[e] |= UINT32_C(1) << l;
    s->ent[e].active = d->mask[e];
    if (d->grp[e] != NONE)   /* a barrier-queue warp counts in no group */
        d->cnt[d->grp[e]]++;
    if (d->pd[t] < d->pdmin[e])
        d->pdmin[e] = d->pd[t];
}

/* dwf_place.c: lane placement */
/* Carrier e's lanes whose next pc is lane l's, that pc in *pc. */
uint32_t dwf_next_pc_lanes(const dwf_state *d, unsigned e, unsigned l, uint32_t *pc);
/* Carrier e's thread groups into the pool at cycle k, one LUT lookup each
 * while the scheduler cycle's last; true when it is empty. */
bool dwf_write_back(sm *s, dwf_state *d, unsigned e, uint64_t k);
unsigned dwf_bank_stall(const sm *s, const dwf_state *d, unsigned e);

#endif
