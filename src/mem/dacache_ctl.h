/* DaCache's per-SM controller (B. Wang, "Mitigating GPU Memory Divergence
 * for Data-Intensive Applications", dissertation, Auburn 2015, chapter 4):
 * the parts of DaCache that watch whole load instructions rather than single
 * lines, kept apart from the LRU stack (replace_dacache.c) so they can be
 * tested on scripted sequences.
 *
 *   dynamic partitioning (section 4.2.4, Fig 4.3): the fully cached warps
 *       FCW (SM-wide, locality region = FCW x Width / N_set ways) trained by
 *       a counter CNT on every retiring divergent load (fcw_retire); FCW
 *       never falls below one warp per scheduler (N_sched);
 *   coherent-load prioritisation (section 4.2.2): a coherent load is
 *       inserted at MRU when its PC is known to have locality, else at LRU;
 *       locality is found by a 16-entry victim cache that samples the lines
 *       of the highest-priority warp and sets the PC's flag in the 32-entry
 *       coherent load profiler (CLP) when that PC misses on a victim;
 *   a divergent load with at most 5 accesses is inserted at MRU. */
#ifndef SIMTGRID_MEM_DACACHE_CTL_H
#define SIMTGRID_MEM_DACACHE_CTL_H

#include <stdbool.h>
#include <stdint.h>

/* Fig 4.3's constants [doc]: an 8-bit CNT (C_max = 256, initially 128), FCW
 * initially 4 (2 per scheduler), at most W_max = 48 (the SM's warps). Its
 * minimum is per scheduler: "each warp scheduler has at least 1 warp in the
 * locality region" (section 4.2.4), so FCW_min = N_sched SM-wide warps (2
 * on the thesis's Fermi SM); fcw_init takes it. */
#define FCW_C_MAX 256
#define FCW_CNT_INIT 128
#define FCW_INIT 4
#define FCW_W_MAX 48

typedef struct fcw_state {
    int cnt;
    unsigned fcw;
    unsigned min;           /* FCW_min: one warp per scheduler */
    uint64_t ups, downs;    /* FCW increments and decrements */
} fcw_state;

/* FCW starts at `fcw` clamped to `min` .. W_max; `min` (the SM's schedulers)
 * is at least 1 and at most W_max. */
void fcw_init(fcw_state *f, unsigned fcw, unsigned min);
/* A divergent load of a warp of SM-wide priority `prio` (0 = highest)
 * retired, fully cached (no miss) or not: Fig 4.3's steps 1-7. */
void fcw_retire(fcw_state *f, unsigned prio, bool fully_cached);

#define DACACHE_VC_ENTRIES 16
#define DACACHE_CLP_ENTRIES 32
#define DACACHE_MRU_ACCESSES 5  /* divergent loads this small insert at MRU [doc] */

typedef struct dacache_clp_entry {
    uint32_t pc;
    bool valid, locality;
    uint64_t used;          /* LRU among the entries [assumption] */
} dacache_clp_entry;

typedef struct dacache_ctl {
    fcw_state fcw;
    bool dynamic;           /* dynamic partitioning (else FCW stays) */
    unsigned static_fcw;    /* a static region's warps, unclamped (StaticN: 2N) */
    bool coherent;          /* coherent-load prioritisation and small-divergent MRU */
    uint16_t top_warp;      /* the sampled warp: last load issued at priority 0 */
    bool have_top;
    struct { uint32_t pc; uint64_t line; bool valid; } vc[DACACHE_VC_ENTRIES];
    unsigned vc_next;       /* FIFO replacement [assumption] */
    dacache_clp_entry clp[DACACHE_CLP_ENTRIES];
    uint64_t clock;
    uint64_t vc_inserts, vc_hits;
} dacache_ctl;

/* Where a load's lines go (replace_hint.cls). */
enum dacache_class { DACACHE_GAUGED = 0, DACACHE_DIVERGENT, DACACHE_MRU, DACACHE_LRU };

void dacache_ctl_init(dacache_ctl *d, unsigned fcw, unsigned fcw_min, bool dynamic, bool coherent);
/* The class of a load at `pc` with `accesses` accesses (`divergent`: more
 * than the coalescer's threshold) of `warp` at scheduler priority `prio`;
 * a coherent PC enters the CLP here. */
enum dacache_class dacache_ctl_classify(dacache_ctl *d, uint32_t pc, uint16_t warp, unsigned prio,
                                        unsigned accesses, bool divergent);
/* A line fetched by (`warp`, `pc`) was evicted: sampled into the victim cache
 * when `warp` is the sampled warp and `pc` a coherent PC without locality. */
void dacache_ctl_evicted(dacache_ctl *d, uint64_t line, uint16_t warp, uint32_t pc);
/* A coherent load at `pc` missed on `line`: a victim-cache hit sets its flag. */
void dacache_ctl_missed(dacache_ctl *d, uint64_t line, uint32_t pc);
/* The warps the locality region holds: FCW under dynamic partitioning, the
 * static region's region x sets / 32 otherwise (0 for Static0, where
 * fcw_init's FCW_min clamp would claim 2 warps the placement never uses). */
unsigned dacache_ctl_fcw(const dacache_ctl *d);
/* Whether the CLP flags `pc` as having locality. */
bool dacache_ctl_locality(const dacache_ctl *d, uint32_t pc);

#endif
