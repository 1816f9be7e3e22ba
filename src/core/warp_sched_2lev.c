/* Two-level round-robin warp fetch scheduling (digest-lwm section 1.3).
 *
 * The scheduler's warp slots are split into fetch groups of G consecutive
 * slots (group = slot / G). Groups are kept in a cyclic priority order
 * (`top` = the highest). Each fetch cycle the highest-priority group with a
 * READY warp supplies it, round-robin inside the group (strict priority
 * between groups, [D] section 4.3). At the end of a fetch cycle the top
 * group goes to the bottom of the order when:
 *   (a) `longlat`: every warp of the top group waits on a long-latency
 *       operation (global memory, or a barrier: [inferred], the wait depends
 *       on other warps and lasts as long) or has finished; or
 *   (b) `nofetch`: no warp of the top group was fetchable this cycle ([P]
 *       section 3.2; a warp in flight in the barrel pipeline is not
 *       fetchable, so groups smaller than the pipeline switch early);
 *   or the timeout: `timeout` instructions were fetched from the top group
 *       since it became top ([D] section 4.4, 32K for LWM + 2Lev1).
 * Groups without warps (finished warps leave their group; slots not in
 * use) are skipped: a rotation goes to the next group that has warps.
 * One rotation at most per cycle; cycles in which the scheduler's issue
 * port is still busy with an earlier warp are not fetch cycles. */
#include "core/warp_sched.h"

/* Member positions [lo[g], hi[g]) of every group: members are in slot order. */
static void group_ranges(const sched *s, const sched_view *v, unsigned *lo, unsigned *hi)
{
    for (unsigned g = 0; g < s->ngroups; g++)
        lo[g] = hi[g] = 0;
    unsigned i = 0;
    for (unsigned g = 0; g < s->ngroups; g++) {
        lo[g] = i;
        while (i < s->n && v->slot[s->members[i]] / s->group_size == g)
            i++;
        hi[g] = i;
    }
}

static int pick_in_group(const sched *s, const sched_view *v, unsigned g, unsigned lo, unsigned hi)
{
    unsigned n = hi - lo;
    if (!n)
        return -1;
    unsigned start = 0;
    for (unsigned i = lo; i < hi; i++)
        if ((int)s->members[i] == s->group_last[g]) {
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
    if (s->pick_cycle != cycle) {
        s->pick_cycle = cycle;
        s->top_had_ready = false;
    }
    unsigned lo[s->ngroups], hi[s->ngroups];
    group_ranges(s, v, lo, hi);
    for (unsigned i = 0; i < s->ngroups; i++) {
        unsigned g = (s->top + i) % s->ngroups;
        int id = pick_in_group(s, v, g, lo[g], hi[g]);
        if (id >= 0) {
            if (i == 0)
                s->top_had_ready = true;
            return id;
        }
    }
    return -1;
}

static void twolev_issued(sched *s, const sched_view *v, unsigned id, uint64_t cycle)
{
    (void)cycle;
    unsigned g = v->slot[id] / s->group_size;
    if (g < s->ngroups)
        s->group_last[g] = (int)id;
    if (g == s->top)
        s->top_issued++;
    s->last = (int)id;
}

/* Trigger (a): every member of group g waits on memory or a barrier. */
static bool group_long_stalled(const sched *s, const sched_view *v, unsigned g)
{
    for (unsigned i = 0; i < s->n; i++) {
        unsigned id = s->members[i];
        if (v->slot[id] / s->group_size != g)
            continue;
        uint8_t st = v->status[id];
        if (st != WS_MEM && st != WS_BARRIER && st != WS_GONE)
            return false;
    }
    return true;
}

static bool group_has_members(const sched *s, const sched_view *v, unsigned g)
{
    for (unsigned i = 0; i < s->n; i++)
        if (v->slot[s->members[i]] / s->group_size == g)
            return true;
    return false;
}

static unsigned nonempty_groups(const sched *s, const sched_view *v)
{
    unsigned m = 0;
    for (unsigned g = 0; g < s->ngroups; g++)
        m += group_has_members(s, v, g);
    return m;
}

/* The old top group goes to the bottom; the next group with warps is top. */
static void rotate(sched *s, const sched_view *v)
{
    for (unsigned i = 1; i <= s->ngroups; i++) {
        unsigned g = (s->top + i) % s->ngroups;
        if (group_has_members(s, v, g) || i == s->ngroups) {
            s->top = g;
            break;
        }
    }
    s->top_issued = 0;
    s->switches++;
}

static void twolev_cycle_end(sched *s, const sched_view *v, uint64_t cycle)
{
    if (s->pick_cycle != cycle)
        return;   /* not a fetch cycle */
    if (s->timeout && s->top_issued >= s->timeout) {
        s->timeouts++;
        rotate(s, v);
        return;
    }
    bool trig = s->trigger_nofetch ? !s->top_had_ready : group_long_stalled(s, v, s->top);
    if (trig)
        rotate(s, v);
}

/* n idle fetch cycles with constant statuses: nothing is READY (else it
 * would have issued), so (b) rotates every cycle and (a) rotates while the
 * top group is long-stalled. */
static void twolev_idle(sched *s, const sched_view *v, uint64_t n)
{
    if (s->pick_cycle == UINT64_MAX)
        return;
    unsigned m = nonempty_groups(s, v);
    if (m == 0)
        m = 1;
    uint64_t done = 0;
    while (done < n && (s->trigger_nofetch || group_long_stalled(s, v, s->top))) {
        rotate(s, v);
        done++;
        if (done == m) {
            /* a full circle of groups that all trigger: one rotation per
             * cycle for the rest, m cycles per circle */
            for (uint64_t r = (n - done) % m; r; r--)
                rotate(s, v);
            s->switches += (n - done) - (n - done) % m;
            break;
        }
    }
}

const sched_ops sched_2lev_ops = {
    .name = "2lev",
    .pick = twolev_pick,
    .issued = twolev_issued,
    .cycle_end = twolev_cycle_end,
    .idle = twolev_idle,
};
