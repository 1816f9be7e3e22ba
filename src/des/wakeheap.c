/* The engine's wake-up queue: an indexed binary heap so a port send can lower
 * a queued actor's wake time in O(log n). Ties break on actor id, so the
 * release order at equal times never depends on pointers or insertion order. */
#include <glib.h>

#include "des/des_internal.h"

static bool before(const des_actor *x, const des_actor *y)
{
    return x->wake_at < y->wake_at || (x->wake_at == y->wake_at && x->id < y->id);
}

static void place(wakeheap *h, unsigned i, des_actor *a)
{
    h->a[i] = a;
    a->heap_pos = (int)i;
}

static void sift_up(wakeheap *h, unsigned i)
{
    des_actor *a = h->a[i];
    while (i > 0) {
        unsigned p = (i - 1) / 2;
        if (!before(a, h->a[p]))
            break;
        place(h, i, h->a[p]);
        i = p;
    }
    place(h, i, a);
}

static void sift_down(wakeheap *h, unsigned i)
{
    des_actor *a = h->a[i];
    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(h->a[c + 1], h->a[c]))
            c++;
        if (!before(h->a[c], a))
            break;
        place(h, i, h->a[c]);
        i = c;
    }
    place(h, i, a);
}

void wakeheap_init(wakeheap *h)
{
    h->n = 0;
    h->cap = 16;
    h->a = g_new(des_actor *, h->cap);
}

void wakeheap_free(wakeheap *h)
{
    g_free(h->a);
    h->a = NULL;
    h->n = h->cap = 0;
}

void wakeheap_request(wakeheap *h, des_actor *a, des_time t)
{
    if (a->heap_pos >= 0) {
        if (t < a->wake_at) {
            a->wake_at = t;
            sift_up(h, (unsigned)a->heap_pos);
        }
        return;
    }
    if (h->n == h->cap) {
        h->cap *= 2;
        h->a = g_renew(des_actor *, h->a, h->cap);
    }
    a->wake_at = t;
    h->n++;
    place(h, h->n - 1, a);
    sift_up(h, h->n - 1);
}

des_time wakeheap_second_at(const wakeheap *h)
{
    /* In a binary min-heap the runner-up is one of the root's children. */
    des_time t = DES_NEVER;
    for (unsigned i = 1; i <= 2 && i < h->n; i++)
        if (h->a[i]->wake_at < t)
            t = h->a[i]->wake_at;
    return t;
}

des_actor *wakeheap_top(const wakeheap *h)
{
    return h->n ? h->a[0] : NULL;
}

des_actor *wakeheap_pop(wakeheap *h)
{
    if (!h->n)
        return NULL;
    des_actor *top = h->a[0];
    h->n--;
    if (h->n) {
        place(h, 0, h->a[h->n]);
        sift_down(h, 0);
    }
    top->heap_pos = -1;
    return top;
}
