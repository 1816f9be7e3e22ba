/* Replacement policies of a set-associative tag array, as an ops struct.
 *
 * The tag array (cache.c) owns the lines; a policy owns only its ordering
 * state and answers three questions: where a new line goes, how a hit moves
 * it, and which line of a set to evict among those the tag array allows.
 *
 *   lru   an LRU stack per set, position 0 = MRU, ways-1 = LRU. New lines go
 *         to position `insert_pos` (or the per-access hint), hits move a line
 *         `promote_by` positions toward MRU (0 = straight to MRU). With
 *         insert_pos = ways-1 this is LIP.
 *   dip   the LRU stack with set dueling (Qureshi ISCA'07) between LRU
 *         insertion (at insert_pos) and BIP (at LRU, one insertion in 32 at
 *         MRU, counted so it is deterministic): 4 leader sets per policy, a
 *         10-bit PSEL counter of leader misses, followers use the winner.
 *   rrip  DRRIP (Jaleel ISCA'10): an M-bit re-reference prediction per line;
 *         SRRIP inserts at 2^M-2, BRRIP at 2^M-1 (one in 32 at 2^M-2), set
 *         dueling picks; hits decrement (frequency priority); the victim is
 *         the lowest-numbered allowed way at 2^M-1, ageing the set until one
 *         is. Position hints and the victim floor do not apply to rrip.
 *
 * Victim choice: an empty allowed line first (the one nearest LRU); else the
 * allowed line nearest LRU whose stack position is >= min_pos (DaCache's
 * constrained replacement: victims only from the thrashing region); -1 when
 * no line qualifies ("every line of the set reserved").
 *   dacache  Wang's DaCache (replace_dacache.c): the LRU stack with gauged
 *         insertion and victim floor from the warp priority, the load's
 *         class and the dynamic region (place hook; dacache_ctl.c).
 * A new policy (DaCache's partitioning, SHiP...) is a replace_ops in its own
 * file plus one line in src/mem/registry.def; docs/cache.md describes the
 * hooks. */
#ifndef SIMTGRID_MEM_REPLACE_H
#define SIMTGRID_MEM_REPLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REPLACE_MAX_WAYS 64  /* ways are bits of a uint64_t mask */

typedef struct replace_ops replace_ops;

typedef struct replace_params {
    const replace_ops *ops;   /* the policy: l1d.replace / l2.replace in src/mem/registry.def */
    unsigned insert_pos;  /* lru/dip: default stack position of a new line (clamped to ways-1) */
    unsigned promote_by;  /* lru/dip: positions a hit moves toward MRU; 0 = to MRU */
    unsigned rrip_bits;   /* rrip: prediction width M (1..8) */
    /* dacache (replace_dacache.c): */
    unsigned locality_ways;   /* ways of the locality region (p+1), never victims */
    unsigned schedulers;      /* warp schedulers per SM (N_sched of Eq 4.1) */
    unsigned dacache_promote; /* positions a hit moves toward MRU (N); 0 = to MRU */
    bool stall;               /* DaCache-Stall: replay instead of bypassing */
    bool constrained;         /* victims only outside the locality region (false: DaCache-Uncon) */
} replace_params;

/* A per-access placement (DaCache): where the line goes and which lines may
 * be its victim, from the issuing warp's priority. */
typedef struct replace_place {
    int pos;             /* insertion stack position */
    unsigned floor;      /* victims only at stack positions >= floor */
    bool bypass;         /* no victim at or below the floor: bypass, shrunk (else replay) */
} replace_place;

/* What a placement is computed from (dacache): the issuing warp's GTO
 * priority in its scheduler, the load's class (enum dacache_class of
 * dacache_ctl.h: 0 = plain Eq 4.1) and the dynamic locality region in ways
 * plus one (0: the parameter's). */
typedef struct replace_hint {
    unsigned prio, cls, region;
} replace_hint;

typedef struct replace replace;

struct replace_ops {
    /* Checks the parameters and sets every line's initial position (NULL:
     * way w at stack position w). False rejects the parameters. */
    bool (*init)(replace *r);
    /* Line `way` was just allocated; pos >= 0 is a per-access position hint. */
    void (*insert)(replace *r, unsigned set, unsigned way, int pos);
    void (*hit)(replace *r, unsigned set, unsigned way);
    /* Line `way` was invalidated: make it the next to be reused. */
    void (*invalidate)(replace *r, unsigned set, unsigned way);
    int (*victim)(replace *r, unsigned set, uint64_t allowed, uint64_t empty, unsigned min_pos);
    /* A miss in `set` (set dueling counts leader-set misses); may be NULL. */
    void (*miss)(replace *r, unsigned set);
    /* The placement of a load (priority 0 = oldest warp of its scheduler);
     * NULL: the access's own hints apply. */
    replace_place (*place)(const replace *r, const replace_hint *h);
};

struct replace {
    const replace_ops *ops;
    replace_params p;
    unsigned sets, ways;
    uint8_t *pos;           /* per line (set*ways + way): stack position, or RRPV for rrip */
    unsigned psel, psel_max; /* set dueling: leader misses, policy A up / policy B down */
    unsigned leader_stride;  /* set % stride == 0: leader of A; == 1: leader of B; 0 = none */
    unsigned bimodal_count;  /* insertions by the bimodal policy, for its 1-in-32 */
};

/* NULL when ways is 0 or above REPLACE_MAX_WAYS, sets is 0, there is no
 * policy, or the policy rejects the parameters (rrip: rrip_bits outside 1..8). */
replace *replace_new(const replace_params *p, unsigned sets, unsigned ways);
void replace_free(replace *r);

static inline void replace_insert(replace *r, unsigned set, unsigned way, int pos)
{
    r->ops->insert(r, set, way, pos);
}
static inline void replace_hit(replace *r, unsigned set, unsigned way)
{
    r->ops->hit(r, set, way);
}
static inline void replace_invalidate(replace *r, unsigned set, unsigned way)
{
    r->ops->invalidate(r, set, way);
}
static inline int replace_victim(replace *r, unsigned set, uint64_t allowed, uint64_t empty,
                                 unsigned min_pos)
{
    return r->ops->victim(r, set, allowed, empty, min_pos);
}
static inline void replace_miss(replace *r, unsigned set)
{
    if (r->ops->miss)
        r->ops->miss(r, set);
}
/* Stack position of a line (0 = MRU) for lru/dip, its RRPV for rrip. */
static inline unsigned replace_position(const replace *r, unsigned set, unsigned way)
{
    return r->pos[set * r->ways + way];
}

/* LRU stack: move `way` of `set` to position `to` (clamped to ways-1),
 * shifting the lines in between by one (lru, dip, dacache). */
void replace_stack_move(replace *r, unsigned set, unsigned way, unsigned to);
/* The LRU stack's hooks, for policies built on it (dacache). */
void replace_lru_insert(replace *r, unsigned set, unsigned way, int pos);
void replace_lru_hit(replace *r, unsigned set, unsigned way);
void replace_lru_invalidate(replace *r, unsigned set, unsigned way);
/* LRU stack victim: an empty allowed line first, else the allowed line
 * nearest LRU at stack position >= min_pos; -1 if none. */
int replace_lru_victim(replace *r, unsigned set, uint64_t allowed, uint64_t empty, unsigned min_pos);

/* Set dueling, shared by dip and rrip: 0 = follower, 1 = leader of the
 * first policy (LRU insertion, SRRIP), 2 = leader of the second (BIP, BRRIP). */
unsigned replace_leader_kind(const replace *r, unsigned set);
/* Whether set `set` uses the second (bimodal) policy now. */
bool replace_uses_second(const replace *r, unsigned set);
/* The 1-in-32 of the bimodal policies: true for insertions 31, 63, ... */
bool replace_bimodal_tick(replace *r);
void replace_duel_miss(replace *r, unsigned set);

#endif
