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
/* Send at t (the sender's time): false when full as seen at t; the sender
 * is then woken when a slot becomes visible to it. */
bool des_lport_send(des_lport *p, const void *msg, des_time t);
/* The head message if delivered by t, else NULL; pop removes it at t. */
void *des_lport_peek(des_lport *p, des_time t);
void des_lport_pop(des_lport *p, des_time t);
des_time des_lport_next(const des_lport *p);   /* head's delivery time, DES_NEVER if empty */
unsigned des_lport_count(const des_lport *p);  /* queued or in flight */

#endif
