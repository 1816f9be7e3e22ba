/* DMaj max-heap (dwf_heap.h). A child replaces its parent only when it is
 * strictly above it: a larger count, or (with a tie key) as large a count
 * and a smaller key; without one, equal counts keep their order of
 * arrival as far as the heap shape allows. */
#include <stdbool.h>

#include <glib.h>

#include "core/dwf_heap.h"

void dwf_heap_init(dwf_heap *q, unsigned cap)
{
    q->cap = cap ? cap : 16;
    q->h = g_new(unsigned, q->cap);
    q->n = 0;
    q->tie = NULL;
}

void dwf_heap_free(dwf_heap *q) { g_free(q->h); }

static void swap(dwf_heap *q, unsigned a, unsigned b, int *pos)
{
    unsigned t = q->h[a];
    q->h[a] = q->h[b];
    q->h[b] = t;
    pos[q->h[a]] = (int)a;
    pos[q->h[b]] = (int)b;
}

/* Group a belongs above group b. */
static bool above(const dwf_heap *q, unsigned a, unsigned b, const uint32_t *cnt)
{
    if (cnt[a] != cnt[b])
        return cnt[a] > cnt[b];
    return q->tie && q->tie[a] < q->tie[b];
}

static unsigned sift_up(dwf_heap *q, unsigned i, const uint32_t *cnt, int *pos)
{
    unsigned swaps = 0;
    while (i > 0) {
        unsigned p = (i - 1) / 2;
        if (!above(q, q->h[i], q->h[p], cnt))
            break;
        swap(q, p, i, pos);
        i = p;
        swaps++;
    }
    return swaps;
}

unsigned dwf_heap_push(dwf_heap *q, unsigned g, const uint32_t *cnt, int *pos)
{
    if (q->n == q->cap) {
        q->cap *= 2;
        q->h = g_renew(unsigned, q->h, q->cap);
    }
    q->h[q->n] = g;
    pos[g] = (int)q->n;
    return sift_up(q, q->n++, cnt, pos);
}

unsigned dwf_heap_raise(dwf_heap *q, unsigned g, const uint32_t *cnt, int *pos)
{
    return sift_up(q, (unsigned)pos[g], cnt, pos);
}

unsigned dwf_heap_pop(dwf_heap *q, const uint32_t *cnt, int *pos, unsigned *g)
{
    *g = q->h[0];
    pos[*g] = -1;
    if (--q->n == 0)
        return 0;
    q->h[0] = q->h[q->n];
    pos[q->h[0]] = 0;
    unsigned i = 0, swaps = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < q->n && above(q, q->h[l], q->h[m], cnt))
            m = l;
        if (r < q->n && above(q, q->h[r], q->h[m], cnt))
            m = r;
        if (m == i)
            break;
        swap(q, i, m, pos);
        i = m;
        swaps++;
    }
    return swaps;
}

static uint64_t latest(const uint64_t *port, unsigned n)
{
    uint64_t m = port[0];
    for (unsigned i = 1; i < n; i++)
        if (port[i] > m)
            m = port[i];
    return m;
}

uint64_t dwf_heap_ports_insert(uint64_t *port, unsigned n, uint64_t k, unsigned swaps)
{
    unsigned best = 0;
    for (unsigned i = 1; i < n; i++)
        if (port[i] < port[best])
            best = i;
    if (port[best] < k)
        port[best] = k;
    port[best] += swaps;
    return latest(port, n);
}

uint64_t dwf_heap_ports_pop(uint64_t *port, unsigned n, uint64_t k, unsigned swaps)
{
    uint64_t start = latest(port, n);
    if (start < k)
        start = k;
    for (unsigned i = 0; i < n; i++)
        port[i] = start + swaps;
    return start + swaps;
}
