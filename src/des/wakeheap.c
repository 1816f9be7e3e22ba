/* The engine's wake-up queue: actors in (wake time, actor id) order, with
 * a port send able to lower a queued actor's wake time. Ties break on
 * actor id, so the release order at equal times never depends on pointers
 * or insertion order.
 *
 * Layout (issue 20): most blocks wake on a few clocks' next edges, so many
 * share each wake time (the 132 SMs of the H100 at every SM cycle). The
 * actors due at one time are a bucket, a bit set by actor id; the buckets
 * are an array sorted by time, mostly appended at the end (a later time)
 * and taken from the front. A request is a binary search among the
 * distinct times pending (a few dozen) and a bit set; a pop is a bit scan.
 * A binary heap of actors (until speed20) sifted every request and pop
 * through log2 of the queued actors. Same keys, same order. */
#include <string.h>
#include <glib.h>

#include "des/des_internal.h"

void wakeheap_init(wakeheap *h)
{
    memset(h, 0, sizeof *h);
}

void wakeheap_free(wakeheap *h)
{
    for (unsigned i = 0; i < h->nb; i++)
        g_free(h->b[i].bits);
    g_free(h->b);
    g_free(h->free_b);
    g_free(h->order);
    g_free(h->in);
    g_free(h->by_id);
    memset(h, 0, sizeof *h);
}

/* Room for actor id `id`: the per-id arrays and every bucket's bit set. */
static void grow_ids(wakeheap *h, unsigned id)
{
    unsigned n = h->npos ? h->npos : 64;
    while (n <= id)
        n *= 2;
    h->in = g_renew(int, h->in, n);
    h->by_id = g_renew(des_actor *, h->by_id, n);
    for (unsigned i = h->npos; i < n; i++) {
        h->in[i] = -1;
        h->by_id[i] = NULL;
    }
    unsigned words = n / 64;
    for (unsigned i = 0; i < h->nb; i++) {
        h->b[i].bits = g_renew(uint64_t, h->b[i].bits, words);
        memset(h->b[i].bits + h->words, 0, (words - h->words) * sizeof(uint64_t));
    }
    h->npos = n;
    h->words = words;
}

/* Position in order[head..end) of the first bucket at or after t. */
static unsigned find(const wakeheap *h, des_time t)
{
    unsigned lo = h->head, hi = h->end;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (h->b[h->order[mid]].at < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The bucket for time t, made (empty) when none is pending. */
static unsigned bucket_at(wakeheap *h, des_time t)
{
    /* The buckets used last, by time: requests go to a few clocks' next
     * edges in turn (the SMs', the L2's, the DRAM's), so a binary search
     * is rarely needed. A freed bucket has no actor (n = 0). */
    unsigned *hint = &h->hint[(t ^ t >> 9) % WAKE_HINTS];
    if (*hint < h->nb && h->b[*hint].n && h->b[*hint].at == t)
        return *hint;
    unsigned k = h->end;
    if (k == h->head || h->b[h->order[k - 1]].at < t) {
        /* the latest time so far: appended (the common case) */
    } else {
        k = find(h, t);
        if (h->b[h->order[k]].at == t)
            return h->order[k];
    }
    unsigned bi;
    if (h->nfree)
        bi = h->free_b[--h->nfree];
    else {
        bi = h->nb++;
        h->b = g_renew(wake_bucket, h->b, h->nb);
        h->free_b = g_renew(unsigned, h->free_b, h->nb);
        h->b[bi].bits = g_new0(uint64_t, h->words);
    }
    h->b[bi].at = t;
    h->b[bi].n = 0;
    h->b[bi].lo = h->words;
    if (h->end == h->cap) {
        if (h->head > h->cap / 2) {   /* taken from the front: slide down */
            memmove(h->order, h->order + h->head, (h->end - h->head) * sizeof *h->order);
            k -= h->head;
            h->end -= h->head;
            h->head = 0;
        } else {
            h->cap = h->cap ? 2 * h->cap : 16;
            h->order = g_renew(unsigned, h->order, h->cap);
        }
    }
    memmove(h->order + k + 1, h->order + k, (h->end - k) * sizeof *h->order);
    h->order[k] = bi;
    h->end++;
    return bi;
}

static void add(wakeheap *h, unsigned id, des_time t)
{
    unsigned bi = bucket_at(h, t);
    wake_bucket *b = &h->b[bi];
    h->hint[(t ^ t >> 9) % WAKE_HINTS] = bi;
    b->bits[id / 64] |= 1ull << (id % 64);
    b->n++;
    if (id / 64 < b->lo)
        b->lo = id / 64;
    h->in[id] = (int)bi;
}

/* Takes actor id out of its bucket; an emptied bucket leaves the order. */
static void take(wakeheap *h, unsigned id)
{
    unsigned bi = (unsigned)h->in[id];
    wake_bucket *b = &h->b[bi];
    h->in[id] = -1;
    b->bits[id / 64] &= ~(1ull << (id % 64));
    if (--b->n)
        return;
    if (h->order[h->head] == bi)
        h->head++;
    else {
        unsigned k = find(h, b->at);
        memmove(h->order + k, h->order + k + 1, (h->end - k - 1) * sizeof *h->order);
        h->end--;
    }
    if (h->head == h->end)
        h->head = h->end = 0;
    h->free_b[h->nfree++] = bi;
}

void wakeheap_request(wakeheap *h, des_actor *a, des_time t)
{
    if (a->id >= h->npos)
        grow_ids(h, a->id);
    if (h->in[a->id] >= 0) {
        if (t >= a->wake_at)
            return;   /* a later time is ignored (most requests) */
        take(h, a->id);
    }
    h->by_id[a->id] = a;
    a->wake_at = t;
    add(h, a->id, t);
}

/* The lowest id in the earliest bucket (the queue is not empty). */
static unsigned top_id(const wakeheap *h)
{
    wake_bucket *b = &h->b[h->order[h->head]];
    while (!b->bits[b->lo])
        b->lo++;   /* words below lo are empty: it only moves up here */
    return b->lo * 64 + (unsigned)__builtin_ctzll(b->bits[b->lo]);
}

des_time wakeheap_second_at(const wakeheap *h)
{
    if (h->head == h->end)
        return DES_NEVER;
    const wake_bucket *b = &h->b[h->order[h->head]];
    if (b->n > 1)
        return b->at;
    return h->head + 1 < h->end ? h->b[h->order[h->head + 1]].at : DES_NEVER;
}

des_actor *wakeheap_top(const wakeheap *h)
{
    return h->head < h->end ? h->by_id[top_id(h)] : NULL;
}

des_time wakeheap_top_at(const wakeheap *h)
{
    return h->head < h->end ? h->b[h->order[h->head]].at : DES_NEVER;
}

des_actor *wakeheap_pop(wakeheap *h)
{
    if (h->head == h->end)
        return NULL;
    unsigned id = top_id(h);
    take(h, id);
    return h->by_id[id];
}

void wakeheap_remove(wakeheap *h, des_actor *a)
{
    if (a->id >= h->npos || h->in[a->id] < 0)
        return;
    take(h, a->id);
    a->wake_at = DES_NEVER;
}
