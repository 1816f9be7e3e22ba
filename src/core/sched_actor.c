/* The warp-scheduler actor (sched_actor.h, docs/core.md): the core's
 * reports and the policy's hooks run here, one message at a time, in the
 * order the core sent them. */
#include "core/sched_actor.h"

#include <glib.h>
#include <string.h>

/* A report with flags (sched_actor.h): its extra words, in order. */
static unsigned apply_flags(sched_actor *a, sched_report r, unsigned i)
{
    uint32_t id = (uint32_t)r;
    if (r & SCHED_AGED)
        a->age[id] = a->box[++i];
    if (r & SCHED_SLOT)
        a->slot[id] = (uint32_t)a->box[++i];
    if (r & SCHED_ADD)
        sched_add(a->q, &a->v, id, (int)a->box[++i] - 1);
    if (r & SCHED_REMOVE)
        sched_remove(a->q, id);
    if (r & SCHED_ISSUED)
        sched_issued(a->q, &a->v, id, a->box[++i]);
    return i;
}

/* A message's reports: the first `n` entries of the box. */
static void apply_reports(sched_actor *a, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        sched_report r = a->box[i];
        a->status[(uint32_t)r] = (uint8_t)(r >> 32);
        if (r & SCHED_FLAGS)
            i = apply_flags(a, r, i);
    }
}

/* The formation hook on entity id at cycle k, into the reply. */
static void form(sched_actor *a, sched_reply *r, unsigned id, uint64_t k)
{
    unsigned n, threads;
    r->formed = a->form(a->form_host, id, k, &n, &threads);
    if (n > UINT8_MAX || threads > UINT16_MAX)
        g_error("warp scheduler %s: %u sub-warps of %u threads do not fit a reply",
                des_lactor_name(a->self), n, threads);
    r->nsub = (uint8_t)n;
    r->threads = (uint16_t)threads;
}

/* A pick: the formation policy's own (SAF_OWN) or the scheduler's. */
static inline int own_pick(sched_actor *a, const sched_msg *c)
{
    if (c->flags & SAF_OWN)
        return a->pick(a->form_host, a->part, c->k, a->status, &a->v);
    return sched_pick(a->q, &a->v, c->k);
}

/* Out of line: only memory-aware policies have a box, and the loop inlined
 * would cost the others' messages registers (bench 1: +1.9 M instructions). */
static __attribute__((noinline)) void read_mem(sched_actor *a)
{
    mem_report_read(a->mbox, a->mreader, a->mem);
}

static void sched_main(des_lactor *self, void *data, des_time now)
{
    (void)self;
    sched_actor *a = data;
    const sched_view *v = &a->v;
    sched_msg c;
    while (des_lport_take(a->in, &c, now)) {
        if (__builtin_expect(a->mbox != NULL, 0))   /* the LD/ST unit's changes first: */
            read_mem(a);                              /* they happened before the question */
        if (c.nrep)
            apply_reports(a, c.nrep);
        sched_reply r = {.id = -1};
        switch ((enum sched_msg_kind)c.kind) {
        case SA_PICK:
            r.id = own_pick(a, &c);
            if (r.id >= 0) {
                sched_issued(a->q, v, (unsigned)r.id, c.k);
                r.pred = a->pred[r.id];
                if (c.flags & SAF_FORM)
                    form(a, &r, (unsigned)r.id, c.k);
            }
            break;
        case SA_OFFER:
            r.id = own_pick(a, &c);
            break;
        case SA_END:
            sched_cycle_end(a->q, v, c.k);
            continue;
        case SA_IDLE:
            sched_idle(a->q, v, c.k);
            continue;
        case SA_SYNC:
            if (c.issued < 0)
                continue;
            r.id = c.issued;
            r.pred = a->pred[c.issued];
            break;
        case SA_FORM:
            if (c.flags & SAF_RECORD)
                sched_issued(a->q, v, (unsigned)c.issued, c.k);
            form(a, &r, (unsigned)c.issued, c.k);
            r.id = c.issued;
            r.pred = a->pred[c.issued];
            break;
        }
        if (!des_lport_send(a->out, &r, now))
            sched_actor_full(a);
    }
}

void sched_actor_init(sched_actor *a, des_lgroup *g, const char *name, sched *q,
                      const sched_view *v, unsigned nent, des_lactor *peer)
{
    *a = (sched_actor){.q = q, .v = *v};
    a->status = g_new(uint8_t, nent);
    memset(a->status, WS_GONE, nent);
    a->age = g_new0(uint64_t, nent);
    a->slot = g_new0(uint32_t, nent);
    a->pred = g_new0(uint8_t, nent);
    a->v.status = a->status;
    a->v.age = a->age;
    a->v.slot = a->slot;
    a->v.mem = NULL;
    if (v->pred)
        a->v.pred = a->pred;
    /* A compute of statuses reports each entity at most once: the core
     * reserves room for all before it (sched_actor_reserve); 64 more hold
     * any other report (a new entity's is 4 words). */
    if (nent > UINT16_MAX - 64)
        g_error("warp scheduler %s: %u entities, more than a message's reports", name, nent);
    a->cap = nent + 64;
    a->box = g_new(sched_report, a->cap);
    a->self = des_lactor_new(g, name, sched_main, a);
    /* One question in flight at a time, answered in the same cycle. */
    char *in = g_strdup_printf("%s.in", name), *out = g_strdup_printf("%s.out", name);
    a->in = des_lport_new(g, in, peer, a->self, sizeof(sched_msg), 2, 1);
    a->out = des_lport_new(g, out, a->self, peer, sizeof(sched_reply), 2, 1);
    g_free(in);
    g_free(out);
}

void sched_actor_free(sched_actor *a)
{
    g_free(a->status);
    g_free(a->age);
    g_free(a->slot);
    g_free(a->pred);
    g_free(a->box);
    g_free(a->mem);
}

void sched_actor_watch_mem(sched_actor *a, const mem_feedback *fb, unsigned r)
{
    a->mem = g_new(mem_feedback, 1);
    *a->mem = *fb;
    a->mem->box = NULL;
    a->mbox = fb->box;
    a->mreader = r;
    a->v.mem = a->mem;
}

void sched_actor_flush(sched_actor *a, des_lgroup *g, uint64_t *tick)
{
    sched_actor_ask(a, g, tick, (sched_msg){.kind = SA_SYNC, .issued = -1});
}

void sched_actor_kept(sched_actor *a, unsigned taken)
{
    a->nbox -= taken;
    memmove(a->box, a->box + taken, a->nbox * sizeof *a->box);
}

void sched_actor_full(const sched_actor *a)
{
    g_error("warp scheduler %s: port full", des_lactor_name(a->self));
}
