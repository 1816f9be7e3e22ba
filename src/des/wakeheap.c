/* The engine's wake-up queue: an indexed binary heap so a port send can lower
 * a queued actor's wake time in O(log n). Ties break on actor id, so the
 * release order at equal times never depends on pointers or insertion order.
 *
 * Layout (issue 20): each entry is its key (time, id), 16 bytes; the
 * positions and the actors live in arrays indexed by actor id, so sifting reads and writes only
 * these two arrays and never the actors themselves. With a thousand SMs the
 * actors are spread over a gigabyte; reading one per comparison cost a cache
 * miss per heap level. Same keys, same order. */
#include <glib.h>

#include "des/des_internal.h"

static inline bool before(const wake_ent *x, const wake_ent *y)
{
    return x->at < y->at || (x->at == y->at && x->id < y->id);
}

static inline void place(wakeheap *h, unsigned i, wake_ent v)
{
    h->e[i] = v;
    h->pos[v.id] = (int)i;
}

static void sift_up(wakeheap *h, unsigned i)
{
    wake_ent v = h->e[i];
    while (i > 0) {
        unsigned p = (i - 1) / 2;
        if (!before(&v, &h->e[p]))
            break;
        place(h, i, h->e[p]);
        i = p;
    }
    place(h, i, v);
}

static void sift_down(wakeheap *h, unsigned i)
{
    wake_ent v = h->e[i];
    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c]))
            c++;
        if (!before(&h->e[c], &v))
            break;
        place(h, i, h->e[c]);
        i = c;
    }
    place(h, i, v);
}

void wakeheap_init(wakeheap *h)
{
    h->n = 0;
    h->cap = 16;
    h->e = g_new(wake_ent, h->cap);
    h->npos = 0;
    h->pos = NULL;
    h->by_id = NULL;
}

void wakeheap_free(wakeheap *h)
{
    g_free(h->e);
    g_free(h->pos);
    g_free(h->by_id);
    h->e = NULL;
    h->pos = NULL;
    h->by_id = NULL;
    h->n = h->cap = h->npos = 0;
}

void wakeheap_request(wakeheap *h, des_actor *a, des_time t)
{
    if (a->id >= h->npos) {   /* a new actor: not queued */
        unsigned n = h->npos ? h->npos : 16;
        while (n <= a->id)
            n *= 2;
        h->pos = g_renew(int, h->pos, n);
        h->by_id = g_renew(des_actor *, h->by_id, n);
        for (unsigned i = h->npos; i < n; i++) {
            h->pos[i] = -1;
            h->by_id[i] = NULL;
        }
        h->npos = n;
    }
    h->by_id[a->id] = a;
    int at = h->pos[a->id];
    if (at >= 0) {
        if (t < a->wake_at) {
            a->wake_at = t;
            h->e[at].at = t;
            sift_up(h, (unsigned)at);
        }
        return;
    }
    if (h->n == h->cap) {
        h->cap *= 2;
        h->e = g_renew(wake_ent, h->e, h->cap);
    }
    a->wake_at = t;
    h->n++;
    place(h, h->n - 1, (wake_ent){.at = t, .id = a->id});
    sift_up(h, h->n - 1);
}

des_time wakeheap_second_at(const wakeheap *h)
{
    /* In a binary min-heap the runner-up is one of the root's children. */
    des_time t = DES_NEVER;
    for (unsigned i = 1; i <= 2 && i < h->n; i++)
        if (h->e[i].at < t)
            t = h->e[i].at;
    return t;
}

des_actor *wakeheap_top(const wakeheap *h)
{
    return h->n ? h->by_id[h->e[0].id] : NULL;
}

des_time wakeheap_top_at(const wakeheap *h)
{
    return h->n ? h->e[0].at : DES_NEVER;
}

des_actor *wakeheap_pop(wakeheap *h)
{
    if (!h->n)
        return NULL;
    des_actor *top = h->by_id[h->e[0].id];
    h->pos[h->e[0].id] = -1;
    h->n--;
    if (h->n) {
        place(h, 0, h->e[h->n]);
        sift_down(h, 0);
    }
    return top;
}

void wakeheap_remove(wakeheap *h, des_actor *a)
{
    if (a->id >= h->npos || h->pos[a->id] < 0)
        return;
    unsigned i = (unsigned)h->pos[a->id];
    h->pos[a->id] = -1;
    a->wake_at = DES_NEVER;
    if (i == --h->n)
        return;
    place(h, i, h->e[h->n]);   /* the last entry fills the hole */
    if (i > 0 && before(&h->e[i], &h->e[(i - 1) / 2]))
        sift_up(h, i);
    else
        sift_down(h, i);
}
