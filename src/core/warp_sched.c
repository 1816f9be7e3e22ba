/* Scheduler membership, loose round-robin (LRR) and greedy-then-oldest (GTO).
 *
 * LRR: start from the member after the last one issued and take the first
 *      READY member (GPGPU-Sim's "loose" round-robin: not-ready warps are
 *      skipped, the order is kept).
 * GTO: keep issuing the member issued last while it is READY, otherwise the
 *      oldest READY member (digest-memdiv 1.0: age 0 = oldest = highest
 *      priority). Age is the order in which warps were given to the SM;
 *      ties (warps split from one warp) go to the lower slot, then lower id. */
#include <glib.h>
#include <string.h>

#include "core/warp_sched.h"

void sched_init(sched *s, const sched_ops *ops, unsigned max_members, unsigned slots,
                unsigned group_size, bool trigger_nofetch, uint64_t timeout)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    s->cap = max_members;
    s->members = g_new(unsigned, max_members ? max_members : 1);
    s->last = -1;
    s->group_size = group_size ? group_size : 1;
    s->ngroups = (slots + s->group_size - 1) / s->group_size;
    if (s->ngroups == 0)
        s->ngroups = 1;
    s->group_last = g_new(int, s->ngroups);
    for (unsigned g = 0; g < s->ngroups; g++)
        s->group_last[g] = -1;
    s->trigger_nofetch = trigger_nofetch;
    s->timeout = timeout;
    s->pick_cycle = UINT64_MAX;
}

void sched_free(sched *s)
{
    g_free(s->members);
    g_free(s->group_last);
    s->members = NULL;
    s->group_last = NULL;
}

static int position(const sched *s, unsigned id)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->members[i] == id)
            return (int)i;
    return -1;
}

void sched_add(sched *s, const sched_view *v, unsigned id, int after)
{
    if (s->n == s->cap)
        g_error("core: scheduler holds more than %u warps", s->cap);
    int at = after >= 0 ? position(s, (unsigned)after) : -1;
    unsigned pos;
    if (at >= 0) {
        pos = (unsigned)at + 1;
    } else {
        pos = s->n;
        while (pos > 0 && v->slot[s->members[pos - 1]] > v->slot[id])
            pos--;
    }
    memmove(s->members + pos + 1, s->members + pos, (s->n - pos) * sizeof s->members[0]);
    s->members[pos] = id;
    s->n++;
    if (pos < s->rr_next)
        s->rr_next++;
}

void sched_remove(sched *s, unsigned id)
{
    int pos = position(s, id);
    if (pos < 0)
        return;
    memmove(s->members + pos, s->members + pos + 1, (s->n - (unsigned)pos - 1) * sizeof s->members[0]);
    s->n--;
    if ((unsigned)pos < s->rr_next)
        s->rr_next--;
    if (s->rr_next >= s->n)
        s->rr_next = 0;
    if (s->last == (int)id)
        s->last = -1;
    for (unsigned g = 0; g < s->ngroups; g++)
        if (s->group_last[g] == (int)id)
            s->group_last[g] = -1;
}

/* Age order: age, then slot, then id. */
static bool older(const sched_view *v, unsigned a, unsigned b)
{
    if (v->age[a] != v->age[b])
        return v->age[a] < v->age[b];
    if (v->slot[a] != v->slot[b])
        return v->slot[a] < v->slot[b];
    return a < b;
}

int sched_age_rank(const sched *s, const sched_view *v, unsigned id)
{
    if (position(s, id) < 0)
        return -1;
    int rank = 0;
    for (unsigned i = 0; i < s->n; i++)
        if (s->members[i] != id && older(v, s->members[i], id))
            rank++;
    return rank;
}

unsigned sched_top_group(const sched *s) { return s->top; }

/* ---- LRR ------------------------------------------------------------- */

static int lrr_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned p = (s->rr_next + i) % s->n;
        if (v->status[s->members[p]] == WS_READY)
            return (int)s->members[p];
    }
    return -1;
}

static void lrr_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)v;
    (void)cycle;
    int pos = position(s, id);
    if (pos >= 0)
        s->rr_next = ((unsigned)pos + 1) % s->n;
    s->last = (int)id;
}

static void nothing_at_cycle_end(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)s;
    (void)v;
    (void)cycle;
}

static void nothing_when_idle(sched *s, const sched_view *v, uint64_t n)
{
    (void)s;
    (void)v;
    (void)n;
}

const sched_ops sched_lrr_ops = {
    .name = "lrr",
    .pick = lrr_pick,
    .issued = lrr_issued,
    .cycle_end = nothing_at_cycle_end,
    .idle = nothing_when_idle,
};

/* ---- GTO ------------------------------------------------------------- */

static int gto_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    if (s->last >= 0 && v->status[s->last] == WS_READY && position(s, (unsigned)s->last) >= 0)
        return s->last;
    int best = -1;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->status[id] == WS_READY && (best < 0 || older(v, id, (unsigned)best)))
            best = (int)id;
    }
    return best;
}

static void gto_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)v;
    (void)cycle;
    s->last = (int)id;
}

const sched_ops sched_gto_ops = {
    .name = "gto",
    .pick = gto_pick,
    .issued = gto_issued,
    .cycle_end = nothing_at_cycle_end,
    .idle = nothing_when_idle,
};
