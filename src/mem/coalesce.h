/* The coalescer (the MACU of Wang's dissertation, section 1.1.2): one warp
 * memory instruction becomes one access per distinct line its active lanes
 * touch, each with the sectors and the lanes that touch it.
 *
 * Order: accesses come out in the order of the first active lane (lowest
 * lane number) that touches each line; a lane whose bytes straddle two lines
 * creates the lower line first. The order is a pure function of the input,
 * so replays and statistics are deterministic, and lane 0's line is served
 * first as in GPGPU-Sim's coalescer.
 *
 * No allocation: the caller passes an array of COALESCE_MAX_ACCESSES. */
#ifndef SIMTGRID_MEM_COALESCE_H
#define SIMTGRID_MEM_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/stats.h"

#define COALESCE_LANES 32
/* 32 lanes, each touching at most two lines (a misaligned access). */
#define COALESCE_MAX_ACCESSES (2 * COALESCE_LANES)

typedef struct coalesce_params {
    unsigned line_bytes;       /* power of two: 128 */
    unsigned sector_bytes;     /* power of two dividing line_bytes, at most 32 per line: 32 */
    unsigned divergent_after;  /* a load with more accesses than this is divergent: 2 */
} coalesce_params;

typedef struct coalesce_access {
    uint64_t line;      /* line-aligned byte address */
    uint32_t sectors;   /* bit i: sector i of the line (bytes i*sector .. ) is touched */
    uint32_t lanes;     /* bit l: lane l touches the line */
} coalesce_access;

/* Coalesce the lanes of `active` (bit l = lane l, lanes 0..31), each
 * accessing `size` bytes from addr[l] (size 0 counts as 1; a size above
 * line_bytes is clamped to line_bytes). Returns the number of accesses
 * written to out[]. `p` must pass coalesce_params_check. */
unsigned coalesce_warp(const coalesce_params *p, const uint64_t addr[COALESCE_LANES],
                       uint32_t active, unsigned size, coalesce_access out[COALESCE_MAX_ACCESSES]);

/* The 32-B segments of access `a` (one output of coalesce_warp for the same
 * addr, size and active lanes) that its lanes touch without covering every
 * byte: a store that leaves them partly written (bit i: bytes 32i..32i+31 of
 * the line). Lines above 1024 bytes are not tracked (0). */
uint32_t coalesce_partial32(const coalesce_params *p, const uint64_t addr[COALESCE_LANES],
                            unsigned size, const coalesce_access *a);

/* The 4-B words of a's line (bit w: bytes 4w..4w+3) that its lanes write
 * whole: what an L2 keeping byte enables learns from a store (l2.byte_enables,
 * docs/dram.md). Lines above 128 bytes are not tracked (0). */
uint32_t coalesce_words32(const coalesce_params *p, const uint64_t addr[COALESCE_LANES], unsigned size,
                          const coalesce_access *a);

/* False with the reason in why when sizes are not powers of two, the sector
 * does not divide the line, or a line holds more than 32 sectors. */
bool coalesce_params_check(const coalesce_params *p, char *why, unsigned long why_len);
/* The coalesce.* defaults of params.def. */
void coalesce_params_default(coalesce_params *p);
/* Reads coalesce.* and checks them; the error names the value's origin
 * (file:line), the key and what was expected. */
typedef struct config config;
typedef struct _GError GError;
bool coalesce_params_from_config(coalesce_params *p, const config *c, GError **err);

static inline bool coalesce_is_divergent(const coalesce_params *p, unsigned accesses)
{
    return accesses > p->divergent_after;
}

/* A sector mask in units of `from_bytes` re-expressed in units of
 * `to_bytes` (both powers of two dividing line_bytes): every target sector
 * that overlaps a set source sector is set. Converts the coalescer's 32-B
 * sectors into a cache's sectors (an unsectored cache has one). */
uint32_t sector_mask_regroup(uint32_t mask, unsigned from_bytes, unsigned to_bytes,
                             unsigned line_bytes);

/* Per-SM statistics of the memory instructions (the LD/ST unit counts them;
 * registered under e.g. "sm0.ldst"). MPLI (misses per load instruction, Wang's
 * dissertation, section 2.2.1): the L1 misses of one dynamic load once all of
 * its accesses are accepted, bucketed 0 / 1 / 2 / 3-31 / 32+, separately for
 * coherent and divergent loads. */
typedef struct coalesce_stats {
    uint64_t loads, stores, atomics;   /* warp instructions */
    uint64_t accesses;                 /* line accesses they produced */
    uint64_t sectors;                  /* sectors they touched */
    uint64_t divergent_loads;          /* loads with more than divergent_after accesses */
    uint64_t fully_cached_coherent, fully_cached_divergent;  /* loads with MPLI 0 */
    stats_hist accesses_per_load;      /* 1, 2, ..., 31, 32-64 */
    stats_hist mpli_coherent, mpli_divergent;
    stats_hist load_iwc;               /* loads by floor(IWC): 1, 2, 3-4, ..., 17-32, 33+ */
    double iwc_sum;                    /* sum of the loads' exact IWC (Eq 3.1) */
} coalesce_stats;

void coalesce_stats_init(coalesce_stats *s);
/* One coalesced instruction: op is enum mem_op (memport.h). */
void coalesce_count(coalesce_stats *s, const coalesce_params *p, unsigned op,
                    const coalesce_access *acc, unsigned n);
/* One load retired from the LD/ST unit with `misses` of its `accesses` not
 * served by the L1 (misses and pending hits). */
void coalesce_count_mpli(coalesce_stats *s, const coalesce_params *p, unsigned accesses,
                         unsigned misses);
/* One load's intra-warp concentration: its `accesses` over `sets` distinct
 * L1 sets (iwc.h); loads without accesses are not counted. */
void coalesce_count_iwc(coalesce_stats *s, unsigned accesses, unsigned sets);
void coalesce_register_stats(coalesce_stats *s, stats *st, const char *block);

#endif
