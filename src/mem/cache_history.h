/* Eviction history for the miss taxonomy: for the line addresses evicted
 * (or invalidated) from a cache, the warp that caused it, as GPGPU-Sim-based
 * studies classify misses (Wang's memory-divergence dissertation, section
 * 2.1.1). A miss to a line with no record is cold; to a line last evicted by
 * the missing warp, intra-warp; by another warp, inter-warp.
 *
 * Bounded (issue 20: peak memory must not grow with run length): it holds
 * the `window` lines evicted most recently, each with its latest evictor:
 * a ring of (line, warp) records in eviction order, indexed by an
 * open-addressing table; a line evicted again moves to the newest end.
 * Both are allocated and touched once, at the first eviction, so memory
 * is the same at any run length that evicts at all. A miss to a line after whose last eviction fewer than
 * `window` other distinct lines were evicted is classified exactly as with
 * an unbounded history; an older one counts as cold (see docs/cache.md).
 * Touched once per eviction and once per full miss, never per hit. */
#ifndef SIMTGRID_MEM_CACHE_HISTORY_H
#define SIMTGRID_MEM_CACHE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cache_history {
    uint64_t *line;    /* ring: line | 1 (lines are aligned, bit 0 is free); 0 = moved on */
    uint16_t *warp;
    uint32_t *index;   /* hash of line -> ring position + 1; 0 = empty */
    size_t window;     /* lines held at most */
    size_t ring;       /* ring slots (> window: room for moved-on records) */
    size_t tail, used; /* the oldest slot; slots in use from it, moved-on ones included */
    size_t live;       /* lines held */
    size_t cap;        /* index slots: a power of two >= 2 x window */
} cache_history;

/* A history of the last `window` (>= 1) distinct lines evicted. */
bool cache_history_init(cache_history *h, size_t window);
void cache_history_free(cache_history *h);
/* Remember that `warp` evicted `line` (replacing an older record of it). */
void cache_history_put(cache_history *h, uint64_t line, uint16_t warp);
bool cache_history_get(const cache_history *h, uint64_t line, uint16_t *warp);

#endif
