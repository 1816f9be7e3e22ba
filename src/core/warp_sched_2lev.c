/* Two-level round-robin warp fetch scheduling (Narasiman et al.,
 * MICRO 2011, section 3.2; Narasiman's dissertation, section 4.3).
 *
 * The scheduler's warp slots are split into fetch groups of G consecutive
 * slots (group = slot / G). Groups are kept in a cyclic priority order
 * (`top` = the highest). Each fetch cycle the highest-priority group with a
 * READY warp supplies it, round-robin inside the group (strict priority
 * between groups, [D] section 4.3). At the end of a fetch cycle the top
 * group gives up the top when:
 *   (a) `longlat`: every warp of the top group waits on a long-latency
 *       operation (global memory, or a barrier: not stated in the papers,
 *       we assume so since the wait depends on other warps and lasts as
 *       long) or has finished; or
 *   (b) `nofetch`: no warp of the top group was fetchable this cycle ([P]
 *       section 3.2: "until no warp from that fetch group can be
 *       scheduled"), unless some of its warps wait on long latency while
 *       the others are in flight in the pipeline. A group whose warps are
 *       all in flight switches ([P] 3.2.1: groups smaller than the pipeline
 *       switch prematurely); a group that is reaching its stall, or whose
 *       data is still coming back, keeps the top, "so that a fetch group
 *       switch only occurs once those warps are actually stalled" ([P]
 *       3.2.1) - the bubbles go to lower groups by the strict priority;
 *   or the timeout: `timeout` instructions were fetched from the top group
 *       since it became top ([D] section 4.4, 32K for LWM + 2Lev1).
 * Which group becomes top ([P]: "the next fetch group is selected"; the
 * papers do not say what happens when that one cannot fetch either):
 *   `next`: the next group in the cyclic order that has warps, so the top
 *       moves by one group every fetch cycle while nothing can be fetched;
 *   `fetchable`: the group this cycle's warp was fetched from (the first in
 *       priority order with a fetchable warp; the groups passed over go to
 *       the bottom in order); nothing fetched, no switch. The timeout
 *       always moves to the next group.
 * Groups without warps (finished warps leave their group; slots not in
 * use) are skipped. One switch at most per cycle; cycles in which the
 * scheduler's issue port is still busy with an earlier warp are not fetch
 * cycles. */
#include <glib.h>

#include "simtgrid/core.h"
#include "simtgrid/stats.h"
#include "core/warp_sched.h"

extern const sched_ops sched_2lev_ops;

typedef struct twolev {
    unsigned group_size;      /* G warps per fetch group */
    unsigned ngroups;
    unsigned top;             /* index in the cyclic priority order of the top group */
    int *group_last;          /* per group: entity issued last in it, -1 */
    bool trigger_nofetch;     /* (b) instead of (a) */
    bool select_fetchable;    /* `fetchable` instead of `next` */
    uint64_t timeout;         /* 0 = off */
    uint64_t top_issued;      /* instructions from the top group since it became top */
    bool top_had_ready;       /* the top group had a READY member this cycle */
    uint64_t pick_cycle;      /* cycle of the first pick call of the current cycle */
    int picked_group;         /* group of the first warp picked this cycle, -1 */
    uint64_t switches;        /* statistics: group switches, of which by timeout */
    uint64_t timeouts;
} twolev;

static void *twolev_create(sched *s, const core_params *p, unsigned slots)
{
    (void)s;
    twolev *t = g_new0(twolev, 1);
    t->group_size = p->fetch_group ? p->fetch_group : 1;
    t->ngroups = (slots + t->group_size - 1) / t->group_size;
    if (t->ngroups == 0)
        t->ngroups = 1;
    t->group_last = g_new(int, t->ngroups);
    for (unsigned g = 0; g < t->ngroups; g++)
        t->group_last[g] = -1;
    t->trigger_nofetch = p->two_level_trigger == CORE_2LEV_NOFETCH;
    t->select_fetchable = p->two_level_select == CORE_2LEV_FETCHABLE;
    t->picked_group = -1;
    t->timeout = p->two_level_timeout;
    t->pick_cycle = UINT64_MAX;
    return t;
}

static void twolev_destroy(void *state)
{
    twolev *t = state;
    g_free(t->group_last);
    g_free(t);
}

static void twolev_removed(sched *s, unsigned pos, unsigned id)
{
    (void)pos;
    twolev *t = s->state;
    for (unsigned g = 0; g < t->ngroups; g++)
        if (t->group_last[g] == (int)id)
            t->group_last[g] = -1;
}

unsigned sched_top_group(const sched *s)
{
    return s->ops == &sched_2lev_ops ? ((const twolev *)s->state)->top : 0;
}

/* Member positions [lo[g], hi[g]) of every group: members are in slot order. */
static void group_ranges(const sched *s, const sched_view *v, unsigned *lo, unsigned *hi)
{
    const twolev *t = s->state;
    for (unsigned g = 0; g < t->ngroups; g++)
        lo[g] = hi[g] = 0;
    unsigned i = 0;
    for (unsigned g = 0; g < t->ngroups; g++) {
        lo[g] = i;
        while (i < s->n && v->slot[s->members[i]] / t->group_size == g)
            i++;
        hi[g] = i;
    }
}

static int pick_in_group(const sched *s, const sched_view *v, unsigned g, unsigned lo, unsigned hi)
{
    const twolev *t = s->state;
    unsigned n = hi - lo;
    if (!n)
        return -1;
    unsigned start = 0;
    for (unsigned i = lo; i < hi; i++)
        if ((int)s->members[i] == t->group_last[g]) {
            start = i - lo + 1;
            break;
        }
    for (unsigned k = 0; k < n; k++) {
        unsigned id = s->members[lo + (start + k) % n];
        if (v->status[id] == WS_READY)
            return (int)id;
    }
    return -1;
}

static int twolev_pick(sched *s, const sched_view *v, uint64_t cycle)
{
    twolev *t = s->state;
    if (t->pick_cycle != cycle) {
        t->pick_cycle = cycle;
        t->top_had_ready = false;
        t->picked_group = -1;
    }
    unsigned lo[t->ngroups], hi[t->ngroups];
    group_ranges(s, v, lo, hi);
    for (unsigned i = 0; i < t->ngroups; i++) {
        unsigned g = (t->top + i) % t->ngroups;
        int id = pick_in_group(s, v, g, lo[g], hi[g]);
        if (id >= 0) {
            if (i == 0)
                t->top_had_ready = true;
            if (t->picked_group < 0)
                t->picked_group = (int)g;
            return id;
        }
    }
    return -1;
}

static void twolev_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    twolev *t = s->state;
    (void)cycle;
    unsigned g = v->slot[id] / t->group_size;
    if (g < t->ngroups)
        t->group_last[g] = (int)id;
    if (g == t->top)
        t->top_issued++;
}

/* Trigger (a): every member of group g waits on memory or a barrier. */
static bool group_long_stalled(const sched *s, const sched_view *v, unsigned g)
{
    const twolev *t = s->state;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->slot[id] / t->group_size != g)
            continue;
        uint8_t st = v->status[id];
        if (st != WS_MEM && st != WS_BARRIER && st != WS_GONE)
            return false;
    }
    return true;
}

/* Trigger (b) for group g with no fetchable warp: not while some of its
 * warps wait on long latency and the others are in flight. */
static bool group_nofetch_switches(const sched *s, const sched_view *v, unsigned g)
{
    const twolev *t = s->state;
    bool waiting = false, in_flight = false;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->slot[id] / t->group_size != g)
            continue;
        uint8_t st = v->status[id];
        if (st == WS_MEM || st == WS_BARRIER)
            waiting = true;
        else if (st != WS_GONE)
            in_flight = true;
    }
    return !(waiting && in_flight);
}

static bool group_has_members(const sched *s, const sched_view *v, unsigned g)
{
    const twolev *t = s->state;
    for (unsigned i = 0; i < s->n; i++)
        if (v->slot[s->members[i]] / t->group_size == g)
            return true;
    return false;
}

static unsigned nonempty_groups(const sched *s, const sched_view *v)
{
    const twolev *t = s->state;
    unsigned m = 0;
    for (unsigned g = 0; g < t->ngroups; g++)
        m += group_has_members(s, v, g);
    return m;
}

/* The old top group goes to the bottom; the next group with warps is top. */
static void rotate(sched *s, const sched_view *v)
{
    twolev *t = s->state;
    for (unsigned i = 1; i <= t->ngroups; i++) {
        unsigned g = (t->top + i) % t->ngroups;
        if (group_has_members(s, v, g) || i == t->ngroups) {
            t->top = g;
            break;
        }
    }
    t->top_issued = 0;
    t->switches++;
}

static void twolev_cycle_end(sched *s, const sched_view *v, uint64_t cycle)
{
    twolev *t = s->state;
    if (t->pick_cycle != cycle)
        return;   /* not a fetch cycle */
    if (t->timeout && t->top_issued >= t->timeout) {
        t->timeouts++;
        rotate(s, v);
        return;
    }
    bool trig = t->trigger_nofetch ? !t->top_had_ready && group_nofetch_switches(s, v, t->top)
                                   : group_long_stalled(s, v, t->top);
    if (!trig)
        return;
    if (!t->select_fetchable) {
        rotate(s, v);
    } else if (t->picked_group >= 0 && (unsigned)t->picked_group != t->top) {
        t->top = (unsigned)t->picked_group;
        t->top_issued = 0;
        t->switches++;
    }
}

/* Whether the top group triggers in an idle fetch cycle (nothing READY). */
static bool idle_triggers(const sched *s, const sched_view *v)
{
    const twolev *t = s->state;
    return t->trigger_nofetch ? group_nofetch_switches(s, v, t->top) : group_long_stalled(s, v, t->top);
}

/* n idle fetch cycles with constant statuses: nothing is READY (else it
 * would have issued), so nothing is fetched: `fetchable` never switches;
 * `next` rotates while the top group triggers. */
static void twolev_idle(sched *s, const sched_view *v, uint64_t n)
{
    twolev *t = s->state;
    if (t->pick_cycle == UINT64_MAX || t->select_fetchable)
        return;
    unsigned m = nonempty_groups(s, v);
    if (m == 0)
        m = 1;
    uint64_t done = 0;
    while (done < n && idle_triggers(s, v)) {
        rotate(s, v);
        done++;
        if (done == m) {
            /* a full circle of groups that all trigger: one rotation per
             * cycle for the rest, m cycles per circle */
            for (uint64_t r = (n - done) % m; r; r--)
                rotate(s, v);
            t->switches += (n - done) - (n - done) % m;
            break;
        }
    }
}

static void twolev_stats(sched *s, stats *st, const char *blk)
{
    twolev *t = s->state;
    stats_counter(st, blk, "group_switches", "switches", "two-level fetch-group switches", &t->switches);
    stats_counter(st, blk, "group_timeouts", "switches", "two-level switches forced by the timeout",
                  &t->timeouts);
}

const sched_ops sched_2lev_ops = {
    .create = twolev_create,
    .destroy = twolev_destroy,
    .pick_every_cycle = true,
    .pick = twolev_pick,
    .issued = twolev_issued,
    .cycle_end = twolev_cycle_end,
    .idle = twolev_idle,
    .removed = twolev_removed,
    .stats = twolev_stats,
};
