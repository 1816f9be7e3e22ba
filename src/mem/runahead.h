/* The wake-up loop shared by the clocked memory blocks that run ahead of
 * their wake-ups (the L2 slice, the DRAM channel, the LD/ST unit; issue
 * 20): each acts on its clock's edges, runs a cycle, asks for its own next
 * one, and may go on at once over the cycles it would have been woken for
 * (des_ahead_next, des_ahead_within). */
#ifndef SIMTGRID_MEM_RUNAHEAD_H
#define SIMTGRID_MEM_RUNAHEAD_H

#include <glib.h>

#include "simtgrid/des.h"

typedef struct runahead {
    uint64_t last;   /* the last cycle run (valid once ran) */
    uint64_t own;    /* the next cycle it asked for, UINT64_MAX: none */
    bool ran;
    /* The deep input and stop bounds (des_ahead_next), computed when
     * needed: a bound stays valid as time passes (nothing sent since
     * reaches it sooner), so it is kept across wake-ups and recomputed only
     * once a cycle reaches it. 0: not yet. */
    des_time far, stop;
} runahead;

#define RUNAHEAD_INIT ((runahead){.last = 0, .own = UINT64_MAX, .ran = false, .far = 0, .stop = 0})

/* Asks for its own next cycle (if any) and blocks; returns the time woken.
 * It replaces the pending wake-up (des_wake_instead): one asked for a
 * cycle the block has run over since would keep its one wake-heap entry
 * and hide a later request (a pop's wake-up of a waiting sender); what its
 * ports still owe, des_block asks for again (docs/des.md, "A stale wake-up
 * no longer hides a later one"). */
static inline des_time runahead_sleep(des_actor *self, const des_clock *clk, const runahead *r)
{
    des_wake_instead(self, r->own != UINT64_MAX ? r->own * clk->period : DES_NEVER);
    return des_block(self);
}

/* Woken at *now: true with *c the cycle to run now, else false after
 * blocking again (*now: the time woken): the wake-up was asked for during
 * a run-ahead, for a cycle already run, or came between two edges (a
 * delivery), and the next edge is asked for. */
static inline bool runahead_due(des_actor *self, const des_clock *clk, const runahead *r, des_time *now,
                                uint64_t *c)
{
    *c = des_edge_at_or_after(clk, *now) / clk->period;
    des_time t = *c * clk->period;
    if (r->ran && *c <= r->last) {
        *now = runahead_sleep(self, clk, r);
        return false;
    }
    if (t > *now) {
        des_wake_at(self, t);
        *now = des_block(self);
        return false;
    }
    return true;
}

/* The cycle at c has run and asks for `own` next. */
static inline void runahead_ran(runahead *r, uint64_t c, uint64_t own)
{
    r->own = own;
    r->last = c;
    r->ran = true;
}

#endif
