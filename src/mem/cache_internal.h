/* The cache's state, shared by cache.c (tag array, fills, queue) and
 * cache_access.c (the access paths). Not for other blocks: use cache.h. */
#ifndef SIMTGRID_MEM_CACHE_INTERNAL_H
#define SIMTGRID_MEM_CACHE_INTERNAL_H

#include "mem/cache.h"
#include "mem/cache_history.h"

#define CACHE_NO_TAG UINT64_MAX  /* tag of an invalid line (never line aligned) */

struct cache {
    cache_params p;
    set_index index;
    unsigned line_shift;
    uint32_t full_mask;      /* every sector of a line */
    /* the tag array, one element per line (set * ways + way) */
    uint64_t *tag;           /* line address, CACHE_NO_TAG when invalid */
    uint32_t *valid, *dirty; /* sector masks */
    uint32_t *partial;       /* 32-B segments holding only some of their bytes (partial stores) */
    uint32_t *words;         /* byte enables: 4-B words partial stores wrote; NULL when off */
    uint8_t *reserved;       /* allocate-on-miss: awaiting a fill, never a victim */
    /* per set, bit w for way w: reserved, and holding no line (tag
     * CACHE_NO_TAG): cache_choose_victim's masks without a pass over the
     * ways (issue 20). Kept by cache_set_tag and cache_set_reserved. */
    uint64_t *set_reserved, *set_empty;
    uint16_t *fetch_warp;    /* warp whose miss brought the line in */
    uint32_t *fetch_pc;
    replace *repl;
    mshr_table *mshr;
    cache_req *q;            /* miss queue: a ring of p.miss_queue */
    unsigned q_head, q_len;
    cache_history hist;
    cache_stats st;
};

static inline size_t cache_line_index(const cache *c, unsigned set, unsigned way)
{
    return (size_t)set * c->p.ways + way;
}

/* The only writers of tag[] and reserved[] after construction. */
static inline void cache_set_tag(cache *c, unsigned set, unsigned way, uint64_t line)
{
    c->tag[cache_line_index(c, set, way)] = line;
    if (line == CACHE_NO_TAG)
        c->set_empty[set] |= UINT64_C(1) << way;
    else
        c->set_empty[set] &= ~(UINT64_C(1) << way);
}

static inline void cache_set_reserved(cache *c, unsigned set, unsigned way, bool on)
{
    c->reserved[cache_line_index(c, set, way)] = on;
    if (on)
        c->set_reserved[set] |= UINT64_C(1) << way;
    else
        c->set_reserved[set] &= ~(UINT64_C(1) << way);
}

/* Way of `line` in `set` (present: valid or reserved), or -1. */
int cache_lookup(const cache *c, unsigned set, uint64_t line);
/* A victim way for a new line in `set` per the replacement policy (empty
 * lines first, reserved lines never, stack floor `floor`); -1 when none. */
int cache_choose_victim(cache *c, unsigned set, unsigned floor);
/* Evict whatever `way` holds (recording `evictor` in the history and
 * queueing a write-back when dirty; the caller checked the room), then make
 * it hold `line`, empty, at stack position `pos` (-1: the policy's). */
void cache_replace_line(cache *c, unsigned set, unsigned way, uint64_t line, uint16_t warp,
                        uint32_t pc, int pos, cache_result *r);
/* Append to the miss queue (the caller checked the room). */
void cache_missq_push(cache *c, const cache_req *rq);

#endif
