/* Lightweight actors (issue 12): several blocks that exchange messages every
 * cycle share one SimGrid actor (their host, a des_actor) instead of paying
 * a context switch per message. Each lightweight actor keeps its own state,
 * its own input ports and its own wake-up time; the group runs them in
 * (time, creation order), like the engine runs blocks, so the order of
 * their messages is a function of the times only. See docs/des.md. */
#ifndef SIMTGRID_DES_LITE_H
#define SIMTGRID_DES_LITE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "simtgrid/des.h"

typedef struct des_lgroup des_lgroup;
typedef struct des_lactor des_lactor;
typedef struct des_lport des_lport;

/* Called when the actor is due (a wake-up it asked for, a message delivered
 * on one of its ports, a slot its blocked sender can see); `now` is its
 * time. It pops what it wants and may ask for a later wake-up. */
typedef void (*des_lactor_fn)(des_lactor *self, void *data, des_time now);

des_lgroup *des_lgroup_new(const char *name);
void des_lgroup_free(des_lgroup *g);

/* Every new actor runs once at the group's current time to set itself up. */
des_lactor *des_lactor_new(des_lgroup *g, const char *name, des_lactor_fn fn, void *data);
const char *des_lactor_name(const des_lactor *a);
unsigned des_lactor_id(const des_lactor *a);
/* Run again at t (after the actor's current time); an earlier request wins. */
void des_lactor_wake_at(des_lactor *a, des_time t);

/* Run every actor due at or before `until`, one at a time in (time, id)
 * order, including those woken by messages sent meanwhile. Returns the
 * group's next due time (DES_NEVER: none). */
des_time des_lgroup_run(des_lgroup *g, des_time until);
des_time des_lgroup_next(const des_lgroup *g);
des_time des_lgroup_now(const des_lgroup *g);
uint64_t des_lgroup_runs(const des_lgroup *g);   /* handler calls (profile) */

/* Hosted in a des_actor: run the group up to the host's time, ask the
 * engine for its next due time, block; never returns. A body for
 * des_actor_new with the group as data. */
void des_lgroup_host_main(des_actor *self, void *group);

/* A one-way bounded FIFO between two actors of a group, with the semantics
 * of des_port: `latency` ticks (at least 1) from send to delivery,
 * `capacity` messages queued or in flight, a slot popped at u reusable by
 * the sender from u + latency. `from` or `to` may be NULL for the group's
 * host (code outside any lightweight actor, which then polls). */
des_lport *des_lport_new(des_lgroup *g, const char *name, des_lactor *from, des_lactor *to,
                         size_t msg_size, unsigned capacity, des_time latency);

/* The port's fields, exposed only for the inline fast paths below (an SM
 * exchanges with its schedulers every cycle: a call per operation was most
 * of the exchange's cost). Nothing else reads or writes them. */
struct des_lport {
    unsigned char *buf;
    des_time *at;          /* delivery time of each queued message */
    des_time *free_at;     /* when each slot is reusable by the sender */
    size_t msg_size;
    unsigned cap, head, n;
    bool sender_waiting;
    des_time latency;
    unsigned *queued;      /* the receiver's count of queued messages */
    unsigned host_queued;  /* that count when the receiver is the host */
    des_lactor *from, *to;
    char *name;
};

/* Slow paths of the inline functions (lite.c). */
bool des_lport_send_slow(des_lport *p, const void *msg, des_time t);
void des_lport_delivered(des_lport *p, des_time at);
void des_lport_pop_slow(des_lport *p, des_time t);

/* A message copy: 16 bytes (the scheduler's and the bank's messages) as two
 * moves rather than a call to memcpy. The branch is dead for a port of
 * smaller messages, which GCC cannot see when it inlines a send of one. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
static inline void des_lport_copy(void *dst, const void *src, size_t n)
{
    if (n == 16)
        memcpy(dst, src, 16);
    else
        memcpy(dst, src, n);
}
#pragma GCC diagnostic pop

static inline unsigned des_lport_tail(const des_lport *p)
{
    unsigned i = p->head + p->n;   /* a compare, not a division */
    return i >= p->cap ? i - p->cap : i;
}

/* Send at t (the sender's time): false when full as seen at t; the sender
 * is then woken when a slot becomes visible to it. */
static inline bool des_lport_send(des_lport *p, const void *msg, des_time t)
{
    unsigned tail = des_lport_tail(p);
    if (p->n == p->cap || p->free_at[tail] > t || p->sender_waiting)
        return des_lport_send_slow(p, msg, t);
    des_lport_copy(p->buf + (size_t)tail * p->msg_size, msg, p->msg_size);
    p->at[tail] = t + p->latency;
    p->n++;
    (*p->queued)++;
    if (p->to)
        des_lport_delivered(p, t + p->latency);
    return true;
}

/* The head message if delivered by t, else NULL; pop removes it at t. */
static inline void *des_lport_peek(des_lport *p, des_time t)
{
    if (!p->n || p->at[p->head] > t)
        return NULL;
    return p->buf + (size_t)p->head * p->msg_size;
}

static inline void des_lport_pop(des_lport *p, des_time t)
{
    if (p->sender_waiting || !p->n || p->at[p->head] > t) {
        des_lport_pop_slow(p, t);
        return;
    }
    p->free_at[p->head] = t + p->latency;
    p->head = p->head + 1 == p->cap ? 0 : p->head + 1;
    p->n--;
    (*p->queued)--;
}

/* Peek and pop in one: copies the head message (msg_size bytes) into msg
 * and pops it if it was delivered by t; false, msg untouched, if not. */
static inline bool des_lport_take(des_lport *p, void *msg, des_time t)
{
    const void *m = des_lport_peek(p, t);
    if (!m)
        return false;
    des_lport_copy(msg, m, p->msg_size);
    des_lport_pop(p, t);
    return true;
}

/* head's delivery time, DES_NEVER if empty; messages queued or in flight */
static inline des_time des_lport_next(const des_lport *p) { return p->n ? p->at[p->head] : DES_NEVER; }
static inline unsigned des_lport_count(const des_lport *p) { return p->n; }

#endif
