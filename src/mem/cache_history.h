/* Eviction history for the miss taxonomy: for every line address ever
 * evicted (or invalidated) from a cache, the warp that caused it, as
 * GPGPU-Sim-based studies classify misses (digest-memdiv 1.1a and 5). A miss
 * to a line with no record is cold; to a line last evicted by the missing
 * warp, intra-warp; by another warp, inter-warp.
 *
 * An open-addressing table of line address -> warp that only grows (at
 * half load it doubles). Touched once per eviction and once per full miss,
 * never per hit; looked up by key only, never iterated. */
#ifndef SIMTGRID_MEM_CACHE_HISTORY_H
#define SIMTGRID_MEM_CACHE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cache_history {
    uint64_t *key;     /* line | 1 (lines are aligned, so bit 0 is free); 0 = empty slot */
    uint16_t *warp;
    size_t cap, len;   /* cap is a power of two */
} cache_history;

bool cache_history_init(cache_history *h, size_t initial_cap);
void cache_history_free(cache_history *h);
/* Remember that `warp` evicted `line` (replacing an older record). If the
 * table cannot grow, the record is dropped (the line will look cold). */
void cache_history_put(cache_history *h, uint64_t line, uint16_t warp);
bool cache_history_get(const cache_history *h, uint64_t line, uint16_t *warp);

#endif
