/* Eviction history (cache_history.h). */
#include "mem/cache_history.h"

#include <glib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

bool cache_history_init(cache_history *h, size_t window)
{
    memset(h, 0, sizeof *h);
    if (window < 1 || window > UINT32_MAX / 4)
        return false;
    size_t cap = 16;
    while (cap < 2 * window)
        cap *= 2;
    h->window = window;
    /* A quarter more slots than lines: the ring is compacted when its slots
     * run out, which then frees at least window / 4 (amortised O(1)). */
    h->ring = window + window / 4 + 1;
    h->cap = cap;
    return true;
}

/* The arrays, at the first eviction (issue 20: with 1,024 SMs, building and
 * clearing every L1's window at construction was a quarter of the process,
 * for caches that may never evict). g_new then memset rather than g_new0:
 * the pages are resident from then on, so peak memory does not creep up
 * as the history fills. No history and an empty one answer the same. */
static void allocate(cache_history *h)
{
    h->line = g_new(uint64_t, h->ring);
    h->warp = g_new(uint16_t, h->ring);
    h->index = g_new(uint32_t, h->cap);
    memset(h->line, 0, h->ring * sizeof *h->line);
    memset(h->warp, 0, h->ring * sizeof *h->warp);
    memset(h->index, 0, h->cap * sizeof *h->index);
}

void cache_history_free(cache_history *h)
{
    g_free(h->line);
    g_free(h->warp);
    g_free(h->index);
    memset(h, 0, sizeof *h);
}

/* Index slot holding `key`, or the empty slot where it belongs. */
static size_t find(const cache_history *h, uint64_t key)
{
    size_t i = slot_of(key, h->cap);
    while (h->index[i] && h->line[h->index[i] - 1] != key)
        i = (i + 1) & (h->cap - 1);
    return i;
}

/* Empties index slot i, moving later entries of its probe run back so that
 * every key stays reachable from its home slot (backward-shift deletion). */
static void index_delete(cache_history *h, size_t i)
{
    size_t mask = h->cap - 1;
    for (size_t j = (i + 1) & mask; h->index[j]; j = (j + 1) & mask) {
        size_t home = slot_of(h->line[h->index[j] - 1], h->cap);
        /* The entry at j may move to i when its home is not in (i, j]. */
        bool in_between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!in_between) {
            h->index[i] = h->index[j];
            i = j;
        }
    }
    h->index[i] = 0;
}

/* Forgets the oldest line held. */
static void drop_oldest(cache_history *h)
{
    while (!h->line[h->tail]) {   /* records of lines evicted again since */
        h->tail = (h->tail + 1) % h->ring;
        h->used--;
    }
    index_delete(h, find(h, h->line[h->tail]));
    h->line[h->tail] = 0;
    h->tail = (h->tail + 1) % h->ring;
    h->used--;
    h->live--;
}

/* Packs the live records at the oldest end, in order, dropping the
 * moved-on ones (the index keeps its shape: only positions change). */
static void compact(cache_history *h)
{
    size_t w = h->tail;
    for (size_t k = 0, r = h->tail; k < h->used; k++, r = (r + 1) % h->ring) {
        uint64_t key = h->line[r];
        if (!key)
            continue;
        if (w != r) {
            size_t i = find(h, key);
            h->line[w] = key;
            h->warp[w] = h->warp[r];
            h->line[r] = 0;
            h->index[i] = (uint32_t)w + 1;
        }
        w = (w + 1) % h->ring;
    }
    h->used = h->live;
}

void cache_history_put(cache_history *h, uint64_t line, uint16_t warp)
{
    if (!h->window)
        return;
    if (!h->index)
        allocate(h);
    uint64_t key = line | 1;
    size_t i = find(h, key);
    if (h->index[i]) {   /* held: its record moves to the newest end */
        h->line[h->index[i] - 1] = 0;
        h->live--;
    } else if (h->live == h->window) {
        drop_oldest(h);
        i = find(h, key);   /* the deletion may have shifted the probe run */
    }
    if (h->used == h->ring)
        compact(h);
    size_t head = (h->tail + h->used) % h->ring;
    h->line[head] = key;
    h->warp[head] = warp;
    h->index[i] = (uint32_t)head + 1;
    h->used++;
    h->live++;
}

bool cache_history_get(const cache_history *h, uint64_t line, uint16_t *warp)
{
    if (!h->index)
        return false;   /* nothing evicted yet (or no history) */
    size_t i = find(h, line | 1);
    if (!h->index[i])
        return false;
    *warp = h->warp[h->index[i] - 1];
    return true;
}
