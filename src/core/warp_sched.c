/* Scheduler membership and helpers shared by the policies. The policies
 * live in warp_sched_<name>.c, one file each, listed in src/core/registry.def. */
#include <glib.h>
#include <string.h>

#include "core/warp_sched.h"
#include "simtgrid/stats.h"

void sched_init(sched *s, const sched_ops *ops, unsigned max_members, unsigned slots,
                const struct core_params *p)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    s->cap = max_members;
    s->members = g_new(unsigned, max_members ? max_members : 1);
    s->last = -1;
    s->state = ops->create ? ops->create(s, p, slots) : NULL;
}

void sched_free(sched *s)
{
    if (s->ops && s->ops->destroy)
        s->ops->destroy(s->state);
    g_free(s->members);
    s->members = NULL;
    s->state = NULL;
}

void sched_add(sched *s, const sched_view *v, unsigned id, int after)
{
    if (s->n == s->cap)
        g_error("core: scheduler holds more than %u warps", s->cap);
    int at = after >= 0 ? sched_position(s, (unsigned)after) : -1;
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
    if (s->ops->added)
        s->ops->added(s, pos);
}

void sched_remove(sched *s, unsigned id)
{
    int pos = sched_position(s, id);
    if (pos < 0)
        return;
    memmove(s->members + pos, s->members + pos + 1, (s->n - (unsigned)pos - 1) * sizeof s->members[0]);
    s->n--;
    if (s->last == (int)id)
        s->last = -1;
    if (s->ops->removed)
        s->ops->removed(s, (unsigned)pos, id);
}

void sched_register_stats(sched *s, stats *st, const char *blk)
{
    if (s->ops->stats)
        s->ops->stats(s, st, blk);
}

int sched_age_rank(const sched *s, const sched_view *v, unsigned id)
{
    if (sched_position(s, id) < 0)
        return -1;
    int rank = 0;
    for (unsigned i = 0; i < s->n; i++)
        if (s->members[i] != id && sched_older(v, s->members[i], id))
            rank++;
    return rank;
}

void sched_count_rank(sched *s, const sched_view *v, unsigned id)
{
    int rank = sched_age_rank(s, v, id);
    unsigned top = s->rank_hist->n - 1;   /* older ranks share the last bucket */
    if (rank >= 0)
        stats_hist_add(s->rank_hist, (unsigned)rank < top ? (unsigned)rank : top);
}
