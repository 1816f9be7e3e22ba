/* Held sends of the LD/ST unit's miss queue (issue 20, docs/des.md, "Held
 * sends").
 *
 * Without them, a unit whose request port (the crossbar's input buffer) is
 * full is woken by each slot that comes back, to send the miss queue's
 * head and pop it. It hands every request to the port instead
 * (des_port_hold): the port sends each at the cycle the unit would have
 * (the first edge at or after the slot's return, one cycle after the
 * previous send), and the unit pops the request when its own clock
 * reaches that send. The unit is woken for it (des_port_hold_wake) only
 * when the pop can change what it does: its instruction refused for a
 * full miss queue, whose replay may now pass. Otherwise the cycle of the
 * send did only this: the pop, and, with the instruction stalled for
 * another cause (MSHRs full, merge limit, set reserved), a replay that
 * the freed miss-queue slot cannot make pass (the miss queue is the only
 * check it relaxes, and a refused access changes nothing but the
 * refusal counters: cache_access.c), so the refusal is counted as the
 * replay would count it. Results are identical.
 *
 * Only for a unit whose state nothing else reads between its cycles (the
 * conditions of its run-ahead: no scheduler feedback, TLB, load
 * characterisation or timeline trace) and without MASCAR's
 * re-execution queue (its head replays on any L1 change). */
#include <stddef.h>

#include "mem/ldst_internal.h"

static void commit(void *ctx, des_time t) { ldst_hold_catch_up(ctx, t); }

void ldst_hold_start(ldst *u)
{
    u->hold = !u->fb && !u->tlb && !u->lc && !u->rq && !stats_trace(u->st) && !u->tr_miss.t &&
              !u->tr_load.t;
    if (!u->hold)
        return;
    des_port_stamp(u->down, offsetof(mem_pkt, born));
    des_add_journal(u->engine, commit, u);   /* a probe reads the L1 as of its time */
}

/* The send of the miss queue's head at time s: its pop, as the unit's own
 * send would have popped it. */
static void sent(ldst *u)
{
    des_port_take_released(u->down);
    cache_missq_pop(u->l1);
    u->handed--;
    u->changed = true;
    u->epoch++;
}

void ldst_hold_send(ldst *u, des_time t, des_time from)
{
    if (from == t)
        while (des_port_released(u->down) <= t)
            sent(u);
    for (; u->handed < cache_missq_len(u->l1); u->handed++) {
        mem_pkt m = ldst_pkt_of(u, cache_missq_at(u->l1, u->handed), from);   /* born: stamped */
        des_port_hold(u->down, &m, from);
    }
}

void ldst_hold_catch_up(ldst *u, des_time until)
{
    des_time s;
    while ((s = des_port_released(u->down)) <= until) {
        uint64_t c = s / u->clk->period;
        sent(u);
        if (!u->busy || !u->stalled)
            continue;
        /* The replay of that cycle, refused for the same cause. */
        if (c > u->stall_last + 1)
            ldst_count_stall(u, c - u->stall_last - 1);
        cache_count_refusal(u->l1, u->stall_cause);
        u->changed = false;
        u->stall_last = c;
        ldst_count_stall(u, 1);
    }
}

void ldst_hold_wake(ldst *u, uint64_t c)
{
    des_port_hold_wake(u->down, u->busy && u->stalled &&
                                    (u->stall_cause == CACHE_FAIL_MISS_QUEUE_FULL || c + 1 < u->port_free));
}
