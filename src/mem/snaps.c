/* Statistics saved past the earliest possible end of the run (snaps.h). */
#include "mem/snaps.h"

#include <glib.h>
#include <string.h>

static uint64_t *at(const snaps *s, unsigned i)
{
    return s->buf + (size_t)((s->head + i) % s->cap) * (s->words + 1);
}

void snaps_init(snaps *s, size_t words) { *s = (snaps){.words = words}; }

void snaps_free(snaps *s)
{
    g_free(s->buf);
    *s = (snaps){0};
}

uint64_t *snaps_push(snaps *s, uint64_t cycle)
{
    if (s->n == s->cap) {   /* grow, the copies unrolled from the head */
        unsigned cap = s->cap ? 2 * s->cap : 8;
        uint64_t *b = g_new(uint64_t, (size_t)cap * (s->words + 1));
        for (unsigned i = 0; i < s->n; i++)
            memcpy(b + (size_t)i * (s->words + 1), at(s, i), (s->words + 1) * sizeof *b);
        g_free(s->buf);
        s->buf = b;
        s->cap = cap;
        s->head = 0;
    }
    uint64_t *p = at(s, s->n++);
    p[0] = cycle;
    return p + 1;
}

void snaps_drop(snaps *s, uint64_t cycle)
{
    while (s->n && at(s, 0)[0] <= cycle) {
        s->head = (s->head + 1) % s->cap;
        s->n--;
    }
}

const uint64_t *snaps_after(const snaps *s, uint64_t cycle)
{
    for (unsigned i = 0; i < s->n; i++)
        if (at(s, i)[0] > cycle)
            return at(s, i) + 1;
    return NULL;
}
