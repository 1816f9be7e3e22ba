/* The warp-scheduler actor (src/core/sched_actor.c) alone: a GTO policy
 * over four warps, driven by a scripted core (a lightweight actor of the
 * same group) and by the group's host, with the times of every message
 * worked out by hand from the protocol in sched_actor.h: a message sent at
 * tick t is applied by the actor at t + 1, whose reply reaches the core at
 * t + 2; cycle k starts at tick 64 k (SCHED_TICKS). */
#include <criterion/criterion.h>
#include <string.h>

#include "simtgrid/core.h"
#include "core/sched_actor.h"

#define OPS(name) ((const sched_ops *)core_policy("core.scheduler", name)->ops)
#define N 4

typedef struct rig {
    sched q;
    uint8_t status[N];
    uint64_t age[N];
    uint32_t slot[N];
    sched_view v;
    des_lgroup *g;
    sched_actor act;
    /* the scripted core */
    des_lactor *core;
    unsigned step;
    des_time got_at[8];
    int got_id[8];
    unsigned ngot;
} rig;

static void rig_init(rig *r, des_lactor_fn core_fn)
{
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < N; i++) {
        r->status[i] = WS_READY;
        r->age[i] = i;   /* warp 0 oldest */
        r->slot[i] = i;
    }
    r->v = (sched_view){.status = r->status, .age = r->age, .slot = r->slot};
    core_params p = {.fetch_group = 1};
    sched_init(&r->q, OPS("gto"), N, N, &p);
    for (unsigned i = 0; i < N; i++)
        sched_add(&r->q, &r->v, i, -1);
    r->g = des_lgroup_new("t");
    if (core_fn)
        r->core = des_lactor_new(r->g, "core", core_fn, r);
    sched_actor_init(&r->act, r->g, "sched0", &r->q, &r->v, r->core);
}

static void rig_free(rig *r)
{
    des_lgroup_free(r->g);
    sched_free(&r->q);
}

static void send(rig *r, uint8_t kind, int issued, uint64_t k, des_time t)
{
    sched_msg m = {.kind = kind, .issued = issued, .k = k};
    cr_assert(des_lport_send(r->act.in, &m, t), "port full at %lu", (unsigned long)t);
}

/* The script, one step per run of the core:
 *   t=0   cycle 0: PICK                     -> GTO takes the oldest ready, 0
 *   t=2   reply 0; warp 0 now waits (DEP); wake at cycle 1 (t=64)
 *   t=64  cycle 1: PICK                     -> last (0) not ready: oldest ready, 1
 *   t=66  reply 1; warp 1 waits, warp 0 ready again; a second slot: OFFER
 *                                           -> last is 1 (not ready): oldest ready, 0
 *   t=68  reply 0; the core claims it: ISSUED(0) (no reply; applied at 69:
 *         last = 0); wake at cycle 2 (t=128), all warps ready
 *   t=128 cycle 2: PICK                     -> greedy: last issued, 0
 *   t=130 reply 0; done. */
static void core_main(des_lactor *self, void *data, des_time now)
{
    rig *r = data;
    const sched_reply *rep;
    while ((rep = des_lport_peek(r->act.out, now))) {
        r->got_at[r->ngot] = now;
        r->got_id[r->ngot++] = rep->id;
        des_lport_pop(r->act.out, now);
    }
    switch (r->step++) {
    case 0: send(r, SA_PICK, -1, 0, now); break;
    case 1: r->status[0] = WS_DEP; des_lactor_wake_at(self, 64); break;
    case 2: send(r, SA_PICK, -1, 1, now); break;
    case 3:
        r->status[1] = WS_DEP;
        r->status[0] = WS_READY;
        send(r, SA_OFFER, -1, 1, now);
        break;
    case 4:
        send(r, SA_ISSUED, 0, 1, now);
        r->status[1] = WS_READY;
        des_lactor_wake_at(self, 128);
        break;
    case 5: send(r, SA_PICK, -1, 2, now); break;
    default: break;
    }
}

Test(sched_actor, scripted_core_message_times)
{
    rig r;
    rig_init(&r, core_main);
    des_lgroup_run(r.g, DES_NEVER);
    des_time want_at[] = {2, 66, 68, 130};
    int want_id[] = {0, 1, 0, 0};
    cr_assert_eq(r.ngot, 4, "replies: %u", r.ngot);
    for (unsigned i = 0; i < 4; i++) {
        cr_expect_eq(r.got_at[i], want_at[i], "reply %u at %lu", i, (unsigned long)r.got_at[i]);
        cr_expect_eq(r.got_id[i], want_id[i], "reply %u: warp %d", i, r.got_id[i]);
    }
    /* ISSUED(0) sent at 68 was applied at 69: GTO's last issued is 0 */
    cr_expect_eq(r.q.last, 0);
    rig_free(&r);
}

/* The host's side (as the SM uses it): each exchange takes two ticks from
 * max(64 k, the group's clock), and the clock never goes back. */
Test(sched_actor, host_exchange_ticks)
{
    rig r;
    rig_init(&r, NULL);
    des_lgroup_run(r.g, 0);
    uint64_t tick = 0;
    /* cycle 3: sent at 192, reply read at 194: the oldest, 0 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 3}), 0);
    cr_expect_eq(tick, 194);
    r.status[0] = WS_DEP;
    /* a second issue in cycle 3: sent at 194, read at 196: warp 1 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 3}), 1);
    cr_expect_eq(tick, 196);
    /* end of cycle 3: no reply, two ticks */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_END, .k = 3}), -1);
    cr_expect_eq(tick, 198);
    /* cycle 4 starts at 256 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 4}), 1);
    cr_expect_eq(tick, 258);
    rig_free(&r);
}
