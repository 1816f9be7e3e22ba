/* Cache-conscious wavefront scheduling (CCWS; Rogers, O'Connor and Aamodt,
 * MICRO 2012), as the memory-divergence dissertation configures it
 * (chapter 5, Table 5.3): K_THROTTLE = 8, base score 100, a victim tag
 * array of 16 entries (8-way) per warp, which the LD/ST unit keeps
 * (simtgrid/memfeedback.h: vta_hits counts the misses of each warp slot on a
 * line it lost to eviction: lost intra-warp locality).
 *
 * Each warp has a lost-locality score (LLS), at least the base score. A
 * VTA hit of the warp adds LLDS = K_THROTTLE x (VTA hits / instructions
 * issued, of this scheduler so far) x cutoff, cutoff = members x base
 * score; every cycle each score above the base loses 1. Warps in
 * decreasing score order (GTO order among equals) stack their scores; a
 * warp whose stack top exceeds the cutoff may not issue loads (the first
 * always may). Among the warps that may issue, the highest score goes first
 * (the largest locality loss, prioritised exclusively), then GTO.
 * [assumption]s: the scores' per-cycle decay of 1 and the LLDS formula are
 * the CCWS paper's; which instructions count as issued (all of this
 * scheduler's) is not stated. */
#include <glib.h>

#include "simtgrid/core.h"
#include "simtgrid/memfeedback.h"
#include "simtgrid/stats.h"
#include "core/warp_sched.h"

#define CCWS_K_THROTTLE 8
#define CCWS_BASE 100

typedef struct ccws {
    unsigned cap;
    uint64_t *score;            /* per entity */
    uint32_t seen[MEM_VTA_WARPS]; /* vta_hits already scored, per warp slot */
    uint64_t hits, issued;
    uint64_t throttled;         /* READY loads held back */
} ccws;

static void *ccws_create(sched *s, const core_params *p, unsigned slots)
{
    (void)p, (void)slots;
    ccws *c = g_new0(ccws, 1);
    c->cap = s->cap;
    c->score = g_new0(uint64_t, c->cap);
    return c;
}

static void ccws_destroy(void *state)
{
    ccws *c = state;
    g_free(c->score);
    g_free(c);
}

static uint64_t score_of(const ccws *c, unsigned id)
{
    return c->score[id] > CCWS_BASE ? c->score[id] : CCWS_BASE;
}

/* Higher score first, then GTO age. */
static bool before(const ccws *c, const sched_view *v, unsigned a, unsigned b)
{
    if (score_of(c, a) != score_of(c, b))
        return score_of(c, a) > score_of(c, b);
    return sched_older(v, a, b);
}

/* Pick order: higher score, then the warp issued last (greedy), then older. */
static bool preferred(const sched *s, const ccws *c, const sched_view *v, unsigned a, unsigned b)
{
    if (score_of(c, a) != score_of(c, b))
        return score_of(c, a) > score_of(c, b);
    if ((int)a == s->last || (int)b == s->last)
        return (int)a == s->last;
    return sched_older(v, a, b);
}

/* New VTA hits of the members raise their scores. */
static void absorb(sched *s, ccws *c, const sched_view *v)
{
    uint64_t cutoff = (uint64_t)s->n * CCWS_BASE;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        sched_next n;
        v->next(v->host, id, &n);
        if (n.warp >= MEM_VTA_WARPS || v->mem->vta_hits[n.warp] == c->seen[n.warp])
            continue;
        uint32_t d = v->mem->vta_hits[n.warp] - c->seen[n.warp];
        c->seen[n.warp] = v->mem->vta_hits[n.warp];
        c->hits += d;
        uint64_t llds = c->issued ? CCWS_K_THROTTLE * c->hits * cutoff / c->issued : 0;
        c->score[id] = score_of(c, id) + d * llds;
    }
}

/* Whether member `id` may issue a load: the stacked scores of the members
 * before it and its own stay within the cutoff, or it is the first. */
static bool may_load(const sched *s, const ccws *c, const sched_view *v, unsigned id)
{
    uint64_t cutoff = (uint64_t)s->n * CCWS_BASE, above = 0;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned o = s->members[i];
        if (o != id && before(c, v, o, id))
            above += score_of(c, o);
    }
    return above == 0 || above + score_of(c, id) <= cutoff;
}

static int ccws_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    ccws *c = s->state;
    bool mem = v->next && v->mem;
    if (mem)
        absorb(s, c, v);
    int best = -1;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->status[id] != WS_READY)
            continue;
        if (mem) {
            sched_next n;
            v->next(v->host, id, &n);
            if (n.load && !may_load(s, c, v, id)) {
                c->throttled++;
                continue;
            }
        }
        if (best < 0 || preferred(s, c, v, id, (unsigned)best))
            best = (int)id;
    }
    return best;
}

static void ccws_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)v, (void)id, (void)cycle;
    ((ccws *)s->state)->issued++;
}

static void decay(sched *s, uint64_t n)
{
    ccws *c = s->state;
    for (unsigned i = 0; i < s->n; i++) {
        uint64_t *sc = &c->score[s->members[i]];
        *sc = *sc > CCWS_BASE + n ? *sc - n : CCWS_BASE;
    }
}

static void ccws_cycle_end(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)v, (void)cycle;
    decay(s, 1);
}

static void ccws_idle(sched *s, const sched_view *v, uint64_t n)
{
    (void)v;
    decay(s, n);
}

/* A new member starts at the base score. */
static void ccws_added(sched *s, unsigned pos)
{
    ((ccws *)s->state)->score[s->members[pos]] = CCWS_BASE;
}

static void ccws_stats(sched *s, stats *st, const char *blk)
{
    ccws *c = s->state;
    stats_counter(st, blk, "vta_hits", "misses", "CCWS: misses on a line the warp had lost (victim tag array hits)",
                  &c->hits);
    stats_counter(st, blk, "throttled", "warps", "CCWS: READY loads held back by the score cutoff",
                  &c->throttled);
}

const sched_ops sched_ccws_ops = {
    .mem_state = true,
    .create = ccws_create,
    .destroy = ccws_destroy,
    .pick_every_cycle = true,
    .pick = ccws_pick,
    .issued = ccws_issued,
    .cycle_end = ccws_cycle_end,
    .idle = ccws_idle,
    .added = ccws_added,
    .stats = ccws_stats,
};
