/* Wide PDOM stack (pdom_wide.h). */
#include <glib.h>
#include <string.h>

#include "core/pdom.h"
#include "core/pdom_wide.h"

void wpdom_init(wpdom *s, unsigned rows, uint32_t pc, const uint32_t *mask)
{
    if (!s->cap) {
        s->cap = 8;
        s->e = g_new(wpdom_entry, s->cap);
    }
    s->rows = rows;
    s->depth = 1;
    memset(&s->e[0], 0, sizeof s->e[0]);
    s->e[0].pc = pc;
    s->e[0].rpc = PDOM_NO_RPC;
    memcpy(s->e[0].m, mask, rows * sizeof *mask);
}

void wpdom_free(wpdom *s)
{
    g_free(s->e);
    memset(s, 0, sizeof *s);
}

static bool any(const wpdom *s, const uint32_t *m)
{
    uint32_t a = 0;
    for (unsigned r = 0; r < s->rows; r++)
        a |= m[r];
    return a != 0;
}

static void settle(wpdom *s)
{
    while (s->depth) {
        const wpdom_entry *t = &s->e[s->depth - 1];
        if (t->pc != t->rpc && any(s, t->m))
            break;
        s->depth--;
    }
}

static void push(wpdom *s, uint32_t pc, uint32_t rpc, const uint32_t *m)
{
    if (s->depth == s->cap) {
        s->cap *= 2;
        s->e = g_renew(wpdom_entry, s->e, s->cap);
    }
    wpdom_entry *e = &s->e[s->depth++];
    e->pc = pc;
    e->rpc = rpc;
    memcpy(e->m, m, s->rows * sizeof *m);
}

void wpdom_advance(wpdom *s, uint32_t pc)
{
    wpdom_top(s)->pc = pc;
    settle(s);
}

void wpdom_branch(wpdom *s, const uint32_t *taken, const uint32_t *exited, uint32_t target,
                  uint32_t fallthrough, uint32_t ipdom)
{
    for (unsigned i = 0; i < s->depth; i++)
        for (unsigned r = 0; r < s->rows; r++)
            s->e[i].m[r] &= ~exited[r];
    wpdom_entry *top = wpdom_top(s);
    uint32_t t[WPDOM_ROWS], f[WPDOM_ROWS];
    for (unsigned r = 0; r < s->rows; r++) {
        t[r] = top->m[r] & taken[r];
        f[r] = top->m[r] & ~taken[r];
    }
    bool has_t = any(s, t), has_f = any(s, f);
    if (has_t && has_f && target != fallthrough) {
        top->pc = ipdom;
        push(s, fallthrough, ipdom, f);
        push(s, target, ipdom, t);
    } else if (has_t) {
        top->pc = target;
    } else if (has_f) {
        top->pc = fallthrough;
    }
    settle(s);
}
