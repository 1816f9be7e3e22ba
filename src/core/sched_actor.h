/* The warp-scheduler actor (issue 12, docs/core.md "The scheduler actor"):
 * one lightweight actor (simtgrid/des_lite.h) per scheduler partition of an
 * SM, in one group per SM. It owns its policy (a `sched`, warp_sched.h) and
 * its warps' ready state as the core reports it, and decides the cycle's
 * issues; the core asks through a port and the actor answers within the
 * cycle, in ticks, like the DRAM bank exchange:
 *
 *   the core sends at tick t (at least k * SCHED_TICKS for cycle k),
 *   the actor applies it at t + 1 and replies at t + 1,
 *   the core reads the reply at t + 2.
 *
 * Ready state: the actor keeps its own status and age per entity, changed
 * only by the core's reports (sched_actor_report). Reports do not travel
 * alone: the core batches them into the next message, which the actor
 * applies before acting on it, so every question sees the statuses the
 * core computed before asking. The batch travels by reference (zero copy):
 * the core writes the actor's report box and the message says how many
 * entries are its; the core writes the box again only after the actor has
 * taken the message (the host's exchange runs the group before returning;
 * a scripted peer waits for the reply). A full box goes alone (SA_SYNC). */
#ifndef SIMTGRID_CORE_SCHED_ACTOR_H
#define SIMTGRID_CORE_SCHED_ACTOR_H

#include <stdint.h>

#include "core/warp_sched.h"
#include "simtgrid/des_lite.h"
#include "simtgrid/memfeedback.h"

/* Ticks of the group per core cycle: room for many exchanges a cycle (an
 * exchange takes 2); more push the group's clock on, which never goes back. */
#define SCHED_TICKS 64

enum sched_msg_kind {
    SA_PICK,      /* pick at cycle k and take it as issued: reply with the id (-1: none);
                     with SAF_FORM form the pick too (as SA_FORM) */
    SA_OFFER,     /* pick at cycle k for a slot being packed (`issued` unused): reply
                     with the id; a claimed one is recorded by a report (SCHED_ISSUED) */
    SA_END,       /* end of cycle k (no reply) */
    SA_IDLE,      /* k more cycles like the last, nothing issued (no reply) */
    SA_SYNC,      /* only the reports (a full box; no reply); with `issued` >= 0
                     reply with its prediction (an issue record just reported) */
    SA_FORM,      /* form entity `issued`'s instruction fetched at cycle k (the
                     formation policy's hook, sched_actor.form); with SAF_RECORD
                     record it as issued at k first: reply with the sub-warps */
};

/* An issue the core decided on after a reply (a claimed offer, DWS's
 * resumed pick) is recorded by a report (SCHED_ISSUED), not a message.
 * SAF_OWN (SA_PICK, SA_OFFER): pick with the formation policy's own pick
 * (sched_actor.pick: DWF, DWS's ready queue) instead of the policy's. */
enum { SAF_RECORD = 1, SAF_FORM = 2, SAF_OWN = 4 };   /* sched_msg.flags */

typedef struct sched_msg {
    uint8_t kind;        /* enum sched_msg_kind */
    uint8_t flags;       /* SAF_* */
    uint16_t nrep;       /* the reports of the box that ride on it */
    int32_t issued;
    uint64_t k;
} sched_msg;

typedef struct sched_reply {
    int32_t id;          /* the pick (-1: none); SA_FORM: the entity formed */
    uint8_t nsub;        /* formed: the number of sub-warps */
    uint8_t pred;        /* a recorded issue (pick, SA_SYNC of `issued`): the
                            misses the policy predicts for it (OAWS), else 0 */
    uint16_t threads;    /* formed: the threads that retire the instruction */
    const void *formed;  /* formed: the sub-warps, by reference (the policy's
                            buffer, valid until its next formation), else NULL */
} sched_reply;

/* A formation policy's hook (LWM, TBC, DWF; the SM's reconv_ops.form),
 * called by the actor on SA_FORM: the sub-warps of entity `id` fetched at
 * cycle k, *n of them, *threads retiring the instruction. */
typedef const void *(*sched_form_fn)(void *host, unsigned id, uint64_t k, unsigned *n,
                                     unsigned *threads);

/* A formation policy's own pick (DWF's issue policies, DWS's ready queue;
 * the SM's reconv_ops.pick), called by the actor on a pick flagged SAF_OWN:
 * the entity to issue at cycle k (-1: none) among the READY ones of the
 * actor's `status` (v: the actor's view). */
typedef int (*sched_pick_fn)(void *host, unsigned part, uint64_t k, uint8_t *status,
                             const sched_view *v);

/* One report: entity id (bits 0-31) is now status (bits 32-39, enum
 * warp_status). Flags from bit 40 say what else happened to it; each but
 * SCHED_REMOVE takes the next word, in this order, and the actor applies
 * them in this order after the status:
 *   SCHED_AGED    its age (a new entity: dispatch order, smaller = older)
 *   SCHED_SLOT    its scheduler-local warp slot (a new entity, or changed)
 *   SCHED_ADD     it joins the members after entity (word - 1), or by slot
 *                 when the word is 0 (sched_add)
 *   SCHED_REMOVE  it leaves the members (sched_remove)
 *   SCHED_ISSUED  the policy records its issue at cycle (word) (sched_issued)
 * A plain status change is one word; membership and records are reports
 * rather than messages because they happen between the core's questions
 * and only the next question needs them. */
typedef uint64_t sched_report;
#define SCHED_AGED (UINT64_C(1) << 40)
#define SCHED_SLOT (UINT64_C(1) << 41)
#define SCHED_ADD (UINT64_C(1) << 42)
#define SCHED_REMOVE (UINT64_C(1) << 43)
#define SCHED_ISSUED (UINT64_C(1) << 44)
#define SCHED_FLAGS (~UINT64_C(0) << 40)

typedef struct sched_actor {
    des_lactor *self;
    des_lport *in, *out;   /* from the core, to the core (the group's host) */
    sched *q;
    sched_view v;          /* the core's view, with the actor's own status and age */
    uint8_t *status;       /* per entity id, as reported */
    uint64_t *age;
    uint32_t *slot;        /* per entity id, as reported */
    uint8_t *pred;         /* per entity id: the policy's prediction (the view's
                              pred when the core has one), sent with replies */
    sched_form_fn form;    /* the formation hook, or NULL */
    void *form_host;       /* the host of both hooks (form, pick) */
    sched_pick_fn pick;    /* the formation policy's own pick, or NULL */
    unsigned part;         /* its scheduler partition (for pick) */
    sched_report *box;     /* reports for the next message, written by the core:
                              room for every entity's status and one new entity */
    unsigned nbox, cap;
    /* Memory-aware policies: the LD/ST unit's state as reported (the
     * view's mem), from the SM's report box, of which it is reader mreader */
    mem_feedback *mem;
    mem_report_box *mbox;
    unsigned mreader;
} sched_actor;

/* An actor named `name` in group g driving policy q over `nent` entities
 * (nent + 64 reports fit in a message: nent <= UINT16_MAX - 64);
 * the view's other fields (host, next) are v's (mem: sched_actor_watch_mem); its pred is the
 * actor's own when v has one. Every status starts WS_GONE, every age,
 * slot and prediction 0. Its peer (the core) is `peer`, or
 * NULL for the group's host (sched_actor_ask). */
void sched_actor_init(sched_actor *a, des_lgroup *g, const char *name, sched *q,
                      const sched_view *v, unsigned nent, des_lactor *peer);
void sched_actor_free(sched_actor *a);
/* The actor keeps a copy of fb (the view's mem from now on), changed by
 * the reports of fb's box, which it reads as reader r at each message
 * before acting on it. */
void sched_actor_watch_mem(sched_actor *a, const mem_feedback *fb, unsigned r);

void sched_actor_full(const sched_actor *a);   /* aborts: a port cannot be full */
/* Reports written while the actor ran (by a hook it called) stay for the
 * next message: the first `taken` leave the box. */
void sched_actor_kept(sched_actor *a, unsigned taken);

/* The core's side: one exchange at the group's clock *tick (raised to
 * k * SCHED_TICKS first), carrying the reports of the box; *r is the
 * reply, if any (false for messages without one). Inline: the SM makes
 * one a cycle. */
static inline __attribute__((always_inline)) bool sched_actor_exchange(sched_actor *a, des_lgroup *g,
                                                                       uint64_t *tick, sched_msg m,
                                                                       sched_reply *r)
{
    uint64_t t = m.k * SCHED_TICKS;
    if (m.kind == SA_IDLE || m.kind == SA_SYNC || t < *tick)
        t = *tick;   /* the group's clock never goes back */
    m.nrep = (uint16_t)a->nbox;
    if (!des_lport_send(a->in, &m, t))
        sched_actor_full(a);
    *tick = t + 2;
    des_lgroup_run(g, *tick);
    if (a->nbox == m.nrep)
        a->nbox = 0;   /* taken: the box is the core's again */
    else
        sched_actor_kept(a, m.nrep);
    return des_lport_take(a->out, r, *tick);
}

/* An exchange whose answer is an id: the reply's, or -1 without a reply. */
static inline __attribute__((always_inline)) int sched_actor_ask(sched_actor *a, des_lgroup *g,
                                                                 uint64_t *tick, sched_msg m)
{
    sched_reply r;
    return sched_actor_exchange(a, g, tick, m, &r) ? r.id : -1;
}

/* Sends the box alone (SA_SYNC). */
void sched_actor_flush(sched_actor *a, des_lgroup *g, uint64_t *tick);

/* Room for n more reports in the box, flushing it first if needed. */
static inline void sched_actor_reserve(sched_actor *a, des_lgroup *g, uint64_t *tick, unsigned n)
{
    if (a->nbox + n > a->cap)
        sched_actor_flush(a, g, tick);
}

/* The core reports entity `id` at `status`; it reaches the actor with the
 * next message. */
static inline void sched_actor_report(sched_actor *a, des_lgroup *g, uint64_t *tick, unsigned id,
                                      uint8_t status)
{
    sched_actor_reserve(a, g, tick, 1);
    a->box[a->nbox++] = id | (uint64_t)status << 32;
}

/* A new entity `id`: its status, its age and its slot; it joins the
 * members after `after` (or by slot when after < 0: sched_add). */
static inline void sched_actor_report_new(sched_actor *a, des_lgroup *g, uint64_t *tick,
                                          unsigned id, uint8_t status, uint64_t age,
                                          uint32_t slot, int after)
{
    sched_actor_reserve(a, g, tick, 4);
    a->box[a->nbox++] = id | (uint64_t)status << 32 | SCHED_AGED | SCHED_SLOT | SCHED_ADD;
    a->box[a->nbox++] = age;
    a->box[a->nbox++] = slot;
    a->box[a->nbox++] = (uint64_t)(after + 1);
}

/* Entity `id` (now at `status`) and its flag `f` with the next word `w`
 * (SCHED_SLOT, SCHED_ISSUED), or without one (SCHED_REMOVE). */
static inline void sched_actor_report_flag(sched_actor *a, des_lgroup *g, uint64_t *tick,
                                           unsigned id, uint8_t status, uint64_t f, uint64_t w)
{
    sched_actor_reserve(a, g, tick, 2);
    a->box[a->nbox++] = id | (uint64_t)status << 32 | f;
    if (f != SCHED_REMOVE)
        a->box[a->nbox++] = w;
}

#endif
