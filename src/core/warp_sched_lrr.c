/* Loose round-robin (LRR): start from the member after the last one issued
 * and take the first READY member (GPGPU-Sim's "loose" round-robin:
 * not-ready warps are skipped, the order is kept). Registered as "lrr" in
 * src/core/registry.def; docs/architecture.md walks through this file. */
#include <glib.h>

#include "core/warp_sched.h"

typedef struct lrr {
    unsigned next;   /* member position to start the next search from */
} lrr;

static void *lrr_create(sched *s, const struct core_params *p, unsigned slots)
{
    (void)s;
    (void)p;
    (void)slots;
    return g_new0(lrr, 1);
}

static int lrr_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    const lrr *r = s->state;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned p = (r->next + i) % s->n;
        if (v->status[s->members[p]] == WS_READY)
            return (int)s->members[p];
    }
    return -1;
}

static void lrr_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)v;
    (void)cycle;
    lrr *r = s->state;
    int pos = sched_position(s, id);
    if (pos >= 0)
        r->next = ((unsigned)pos + 1) % s->n;
}

/* Keep pointing at the same member when others come and go before it. */
static void lrr_added(sched *s, unsigned pos)
{
    lrr *r = s->state;
    sched_rr_added(&r->next, pos);
}

static void lrr_removed(sched *s, unsigned pos, unsigned id)
{
    (void)id;
    lrr *r = s->state;
    sched_rr_removed(s, &r->next, pos);
}

const sched_ops sched_lrr_ops = {
    .takes_lone_ready = true,   /* the first READY from `next`: the only one */
    .create = lrr_create,
    .destroy = g_free,
    .pick = lrr_pick,
    .issued = lrr_issued,
    .added = lrr_added,
    .removed = lrr_removed,
};
