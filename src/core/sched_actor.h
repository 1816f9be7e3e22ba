/* The warp-scheduler actor (issue 12, docs/core.md "The scheduler actor"):
 * one lightweight actor (simtgrid/des_lite.h) per scheduler partition of an
 * SM, in one group per SM. It owns its policy (a `sched`, warp_sched.h) and
 * decides the cycle's issues; the core asks through a port and the actor
 * answers within the cycle, in ticks, like the DRAM bank exchange:
 *
 *   the core sends at tick t (at least k * SCHED_TICKS for cycle k),
 *   the actor applies it at t + 1 and replies at t + 1,
 *   the core reads the reply at t + 2.
 *
 * The warps' statuses and ages are the SM's view (sched_view), written by
 * the core before it asks, read by the policy. */
#ifndef SIMTGRID_CORE_SCHED_ACTOR_H
#define SIMTGRID_CORE_SCHED_ACTOR_H

#include <stdint.h>

#include "core/warp_sched.h"
#include "simtgrid/des_lite.h"

/* Ticks of the group per core cycle: room for many exchanges a cycle (an
 * exchange takes 2); more push the group's clock on, which never goes back. */
#define SCHED_TICKS 64

enum sched_msg_kind {
    SA_PICK,      /* pick at cycle k and take it as issued: reply with the id (-1: none) */
    SA_OFFER,     /* pick at cycle k for a slot being packed, `issued` (if >= 0) issued
                        first: reply with the id; the core claims it by sending it back */
    SA_ISSUED,    /* `issued` issued at cycle k (no reply) */
    SA_END,       /* end of cycle k (no reply) */
    SA_IDLE,      /* k more cycles like the last, nothing issued (no reply) */
};

typedef struct sched_msg {
    uint8_t kind;        /* enum sched_msg_kind */
    int32_t issued;
    uint64_t k;
} sched_msg;

typedef struct sched_reply {
    int32_t id;
    uint64_t k;
} sched_reply;

typedef struct sched_actor {
    des_lactor *self;
    des_lport *in, *out;   /* from the core, to the core (the group's host) */
    sched *q;
    const sched_view *v;
} sched_actor;

/* An actor named `name` in group g driving policy q over view v; its peer
 * (the core) is `peer`, or NULL for the group's host (sched_actor_ask). */
void sched_actor_init(sched_actor *a, des_lgroup *g, const char *name, sched *q,
                      const sched_view *v, des_lactor *peer);

void sched_actor_full(const sched_actor *a);   /* aborts: a port cannot be full */

/* The core's side: one exchange at the group's clock *tick (raised to
 * k * SCHED_TICKS first); returns the reply's id, or -1 for messages without
 * a reply. Inline: the SM makes one a cycle. */
static inline int sched_actor_ask(sched_actor *a, des_lgroup *g, uint64_t *tick, sched_msg m)
{
    uint64_t t = m.k * SCHED_TICKS;
    if (m.kind == SA_IDLE || t < *tick)
        t = *tick;   /* the group's clock never goes back */
    if (!des_lport_send(a->in, &m, t))
        sched_actor_full(a);
    *tick = t + 2;
    des_lgroup_run(g, *tick);
    sched_reply r;
    return des_lport_take(a->out, &r, *tick) ? r.id : -1;
}

#endif
