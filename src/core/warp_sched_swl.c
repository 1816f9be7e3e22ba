/* Static warp limiting (SWL; Rogers et al., "Cache-Conscious Wavefront
 * Scheduling", MICRO 2012, as Wang's dissertation, chapter 5, compares it:
 * SWL-Best is the best limit per benchmark): GTO among the
 * core.swl_limit oldest members of the scheduler; younger warps wait until
 * older ones finish. */
#include <glib.h>

#include "simtgrid/core.h"
#include "core/warp_sched.h"

typedef struct swl {
    unsigned limit;
} swl;

static void *swl_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s, (void)slots;
    swl *w = g_new0(swl, 1);
    w->limit = p && p->swl_limit ? p->swl_limit : 1;
    return w;
}

static int swl_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    (void)cycle;
    const swl *w = s->state;
    if (s->last >= 0 && v->status[s->last] == WS_READY && sched_position(s, (unsigned)s->last) >= 0 &&
        (unsigned)sched_age_rank(s, v, (unsigned)s->last) < w->limit)
        return s->last;
    int best = -1;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->status[id] == WS_READY && (best < 0 || sched_older(v, id, (unsigned)best)) &&
            (unsigned)sched_age_rank(s, v, id) < w->limit)
            best = (int)id;
    }
    return best;
}

const sched_ops sched_swl_ops = {
    .create = swl_create,
    .destroy = g_free,
    .pick = swl_pick,
};
