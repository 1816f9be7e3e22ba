/* The lone SM's run-ahead past its input latency (issue 20; sm_lone.c). */
#ifndef SIMTGRID_CORE_SM_LONE_H
#define SIMTGRID_CORE_SM_LONE_H

#include "core/sm_internal.h"

typedef struct {
    unsigned req, done, resp, cta;
} sm_port_counts;

typedef struct {
    bool on;            /* the SM runs ahead past its input latency: the rest applies */
    bool multi;         /* ... while other SMs are busy: no global access past the plain bound */
    bool tried;         /* the far bound computed this wake-up */
    uint64_t shallow;   /* the horizon from the plain bounds */
    des_time far;       /* the far bound, once computed */
    des_time cap;       /* the earliest loop back from a send or pop so far */
    sm_port_counts was; /* the ports before the cycle (sm_lone_before) */
} sm_lone;

/* At a wake-up: whether the SM runs ahead (alone, or with a full request
 * port), and if so *horizon (the last cycle it may run) raised to
 * des_input_bound's. */
void sm_lone_start(sm_lone *a, const sm *s, des_actor *self, uint64_t *horizon);
/* At the horizon: computes the far bound (once per wake-up); true when it
 * lets the SM go on. */
bool sm_lone_extend(sm_lone *a, const sm *s, des_actor *self, uint64_t *horizon);
/* True when cycle k would pop an input (asked past the plain bound). */
bool sm_lone_pops(const sm *s, uint64_t k);
/* Around cycle k (at t): the loops back its sends and pops start. */
void sm_lone_before(sm_lone *a, const sm *s);
void sm_lone_after(sm_lone *a, const sm *s, uint64_t *horizon, des_time t);

#endif
