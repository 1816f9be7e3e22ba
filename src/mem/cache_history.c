/* Eviction history (cache_history.h). */
#include "mem/cache_history.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

bool cache_history_init(cache_history *h, size_t initial_cap)
{
    size_t cap = 16;
    while (cap < initial_cap)
        cap *= 2;
    h->key = calloc(cap, sizeof *h->key);
    h->warp = calloc(cap, sizeof *h->warp);
    h->cap = cap;
    h->len = 0;
    if (!h->key || !h->warp) {
        cache_history_free(h);
        return false;
    }
    return true;
}

void cache_history_free(cache_history *h)
{
    free(h->key);
    free(h->warp);
    h->key = NULL;
    h->warp = NULL;
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

static bool grow(cache_history *h)
{
    size_t cap = h->cap * 2;
    uint64_t *key = calloc(cap, sizeof *key);
    uint16_t *warp = calloc(cap, sizeof *warp);
    if (!key || !warp) {
        free(key);
        free(warp);
        return false;
    }
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->key[i])
            continue;
        size_t j = find(key, cap, h->key[i]);
        key[j] = h->key[i];
        warp[j] = h->warp[i];
    }
    free(h->key);
    free(h->warp);
    h->key = key;
    h->warp = warp;
    h->cap = cap;
    return true;
}

void cache_history_put(cache_history *h, uint64_t line, uint16_t warp)
{
    if (!h->cap)
        return;
    uint64_t key = line | 1;
    size_t i = find(h->key, h->cap, key);
    if (!h->key[i]) {
        if (2 * (h->len + 1) > h->cap) {
            if (!grow(h))
                return;
            i = find(h->key, h->cap, key);
        }
        h->key[i] = key;
        h->len++;
    }
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
