/* The warp-scheduler actor (sched_actor.h, docs/core.md): the policy's
 * hooks run here, one message at a time, in the order the core sent them. */
#include "core/sched_actor.h"

#include <glib.h>

static void sched_main(des_lactor *self, void *data, des_time now)
{
    (void)self;
    sched_actor *a = data;
    sched_msg c;
    while (des_lport_take(a->in, &c, now)) {
        sched_reply r = {.id = -1, .k = c.k};
        switch ((enum sched_msg_kind)c.kind) {
        case SA_PICK:
            r.id = sched_pick(a->q, a->v, c.k);
            if (r.id >= 0)
                sched_issued(a->q, a->v, (unsigned)r.id, c.k);
            break;
        case SA_OFFER:
            if (c.issued >= 0)
                sched_issued(a->q, a->v, (unsigned)c.issued, c.k);
            r.id = sched_pick(a->q, a->v, c.k);
            break;
        case SA_ISSUED:
            sched_issued(a->q, a->v, (unsigned)c.issued, c.k);
            continue;
        case SA_END:
            sched_cycle_end(a->q, a->v, c.k);
            continue;
        case SA_IDLE:
            sched_idle(a->q, a->v, c.k);
            continue;
        }
        if (!des_lport_send(a->out, &r, now))
            sched_actor_full(a);
    }
}

void sched_actor_init(sched_actor *a, des_lgroup *g, const char *name, sched *q,
                      const sched_view *v, des_lactor *peer)
{
    *a = (sched_actor){.q = q, .v = v};
    a->self = des_lactor_new(g, name, sched_main, a);
    /* One question in flight at a time, answered in the same cycle. */
    char *in = g_strdup_printf("%s.in", name), *out = g_strdup_printf("%s.out", name);
    a->in = des_lport_new(g, in, peer, a->self, sizeof(sched_msg), 2, 1);
    a->out = des_lport_new(g, out, a->self, peer, sizeof(sched_reply), 2, 1);
    g_free(in);
    g_free(out);
}

void sched_actor_full(const sched_actor *a)
{
    g_error("warp scheduler %s: port full", des_lactor_name(a->self));
}
