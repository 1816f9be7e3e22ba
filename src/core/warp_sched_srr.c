/* Sticky round-robin (SRR): the scheduler Narasiman's dissertation (section
 * 5.2.1) runs thread block compaction with, which did slightly better than
 * round-robin there. [inferred] "Sticky" keeps fetching from the group of
 * the warp issued last -- the members sharing its scheduler slot, which
 * are the compacted warps of one block under core.reconv = tbc, and the
 * warp alone otherwise -- round-robin inside it while one is READY, so a
 * block's warps advance together and reach the next synchronisation point
 * close in time; then it goes on round-robin from the last issued member,
 * as LRR. Registered as "srr" in src/core/registry.def. */
#include <glib.h>

#include "core/warp_sched.h"

typedef struct srr {
    unsigned next;     /* member position after the last issued one */
    bool sticky;       /* a slot to stick to: the last issued member's */
    uint32_t slot;
} srr;

static void *srr_create(sched *s, const struct core_params *p, unsigned slots)
{
    (void)s;
    (void)p;
    (void)slots;
    return g_new0(srr, 1);
}

static int srr_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    const srr *r = s->state;
    int other = -1;   /* first READY member of another slot */
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[(r->next + i) % s->n];
        if (v->status[id] != WS_READY)
            continue;
        if (!r->sticky || v->slot[id] == r->slot)
            return (int)id;
        if (other < 0)
            other = (int)id;
    }
    return other;
}

static void srr_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)cycle;
    srr *r = s->state;
    int pos = sched_position(s, id);
    if (pos >= 0)
        r->next = ((unsigned)pos + 1) % s->n;
    r->sticky = true;
    r->slot = v->slot[id];
}

static void srr_added(sched *s, unsigned pos)
{
    srr *r = s->state;
    sched_rr_added(&r->next, pos);
}

static void srr_removed(sched *s, unsigned pos, unsigned id)
{
    (void)id;
    srr *r = s->state;
    sched_rr_removed(s, &r->next, pos);
}

const sched_ops sched_srr_ops = {
    .create = srr_create,
    .destroy = g_free,
    .pick = srr_pick,
    .issued = srr_issued,
    .added = srr_added,
    .removed = srr_removed,
};
