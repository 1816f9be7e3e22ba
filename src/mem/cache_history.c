/* Eviction history (cache_history.h). */
#include "mem/cache_history.h"

#include <glib.h>
#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static size_t pow2_at_least(size_t n)
{
    size_t cap = 16;
    while (cap < n)
        cap *= 2;
    return cap;
}

static bool alloc_table(cache_history *h, size_t cap)
{
    h->key = g_new0(uint64_t, cap);
    h->stamp = g_new0(uint32_t, cap);
    h->warp = g_new0(uint16_t, cap);
    h->cap = cap;
    return h->key && h->stamp && h->warp;
}

static void free_table(cache_history *h)
{
    g_free(h->key);
    g_free(h->stamp);
    g_free(h->warp);
    h->key = NULL;
    h->stamp = NULL;
    h->warp = NULL;
}

bool cache_history_init(cache_history *h, size_t initial_cap, size_t max_records)
{
    h->max_len = max_records < 2 ? 2 : max_records;
    h->max_cap = pow2_at_least(2 * h->max_len);
    size_t cap = pow2_at_least(initial_cap);
    h->len = 0;
    h->serial = 0;
    if (!alloc_table(h, cap < h->max_cap ? cap : h->max_cap)) {
        cache_history_free(h);
        return false;
    }
    return true;
}

void cache_history_free(cache_history *h)
{
    free_table(h);
    h->cap = h->len = 0;
}

/* Slot holding `key`, or the empty slot where it belongs. */
static size_t find(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t i = slot_of(key, cap);
    while (keys[i] && keys[i] != key)
        i = (i + 1) & (cap - 1);
    return i;
}

/* Rebuilds the table at `cap` slots keeping only the records put less than
 * `keep` puts ago (all of them when keep is 0). Stamps are distinct (each
 * put gives one record the next serial), so exactly min(len, keep) stay. */
static bool rebuild(cache_history *h, size_t cap, uint32_t keep)
{
    cache_history old = *h;
    if (!alloc_table(h, cap)) {
        free_table(h);
        *h = old;
        return false;
    }
    h->len = 0;
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.key[i] || (keep && (uint32_t)(h->serial - old.stamp[i]) >= keep))
            continue;
        size_t j = find(h->key, cap, old.key[i]);
        h->key[j] = old.key[i];
        h->stamp[j] = old.stamp[i];
        h->warp[j] = old.warp[i];
        h->len++;
    }
    free_table(&old);
    return true;
}

void cache_history_put(cache_history *h, uint64_t line, uint16_t warp)
{
    if (!h->cap)
        return;
    uint64_t key = line | 1;
    h->serial++;
    size_t i = find(h->key, h->cap, key);
    if (!h->key[i]) {
        bool ok = true;
        if (h->len + 1 > h->max_len)   /* full: forget the older half */
            ok = rebuild(h, h->cap, (uint32_t)(h->max_len / 2));
        else if (2 * (h->len + 1) > h->cap)
            ok = rebuild(h, h->cap * 2, 0);
        if (!ok)
            return;
        i = find(h->key, h->cap, key);
        h->key[i] = key;
        h->len++;
    }
    h->stamp[i] = h->serial;
    h->warp[i] = warp;
}

bool cache_history_get(const cache_history *h, uint64_t line, uint16_t *warp)
{
    if (!h->cap)
        return false;
    size_t i = find(h->key, h->cap, line | 1);
    if (!h->key[i])
        return false;
    *warp = h->warp[i];
    return true;
}
