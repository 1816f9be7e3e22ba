/* Eviction history for the miss taxonomy: for every line address ever evicted
 * (or invalidated) from a cache, the warp that caused it, as GPGPU-Sim-based
 * studies classify misses (Wang's memory-divergence dissertation, section
 * 2.1.1). A miss to a line with no record is cold; to a line last evicted by
 * the missing warp, intra-warp; by another warp, inter-warp.
 *
 * An open-addressing table of line address -> warp, touched once per
 * eviction and once per full miss, never per hit. Bounded (issue 20: the
 * history of every line ever evicted made peak memory grow with run
 * length): it grows (doubling at half load) up to max_records records;
 * when full it forgets all but the max_records / 2 newest. So a miss to a
 * line evicted fewer than max_records / 2 evictions ago is classified
 * exactly as with an unbounded history; a line evicted longer ago may have
 * been forgotten and then counts as cold (see docs/cache.md). */
#ifndef SIMTGRID_MEM_CACHE_HISTORY_H
#define SIMTGRID_MEM_CACHE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cache_history {
    uint64_t *key;     /* line | 1 (lines are aligned, so bit 0 is free); 0 = empty slot */
    uint32_t *stamp;   /* serial of the put that last wrote the record */
    uint16_t *warp;
    size_t cap, len;   /* cap is a power of two */
    size_t max_len, max_cap;
    uint32_t serial;   /* puts so far (wraps; only differences are used) */
} cache_history;

bool cache_history_init(cache_history *h, size_t initial_cap, size_t max_records);
void cache_history_free(cache_history *h);
/* Remember that `warp` evicted `line` (replacing an older record). If the
 * table cannot grow, the record is dropped (the line will look cold). */
void cache_history_put(cache_history *h, uint64_t line, uint16_t warp);
bool cache_history_get(const cache_history *h, uint64_t line, uint16_t *warp);

#endif
