/* The warp-scheduler actor (src/core/sched_actor.c) alone: a GTO policy
 * over four warps, driven by a scripted core (a lightweight actor of the
 * same group) and by the group's host, with the times of every message
 * worked out by hand from the protocol in sched_actor.h: a message sent at
 * tick t is applied by the actor at t + 1, whose reply reaches the core at
 * t + 2; cycle k starts at tick 64 k (SCHED_TICKS). The warps' statuses and
 * ages, its members and the issue records the core makes reach the actor
 * only as reports riding on the core's messages. */
#include <criterion/criterion.h>
#include <string.h>

#include "simtgrid/core.h"
#include "core/sched_actor.h"

#define OPS(name) ((const sched_ops *)core_policy("core.scheduler", name)->ops)
#define N 4

typedef struct rig {
    sched q;
    uint32_t slot[N];
    sched_view v;
    des_lgroup *g;
    sched_actor act;
    uint64_t tick;   /* the host's clock of the group (sched_actor_ask) */
    /* the scripted core */
    des_lactor *core;
    unsigned step;
    des_time got_at[8];
    int got_id[8];
    unsigned ngot;
} rig;

static void report(rig *r, unsigned id, uint8_t st)
{
    sched_actor_report(&r->act, r->g, &r->tick, id, st);
}

static void rig_init(rig *r, des_lactor_fn core_fn)
{
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < N; i++)
        r->slot[i] = i;
    r->v = (sched_view){.slot = r->slot};
    core_params p = {.fetch_group = 1};
    sched_init(&r->q, OPS("gto"), N, N, &p);
    r->g = des_lgroup_new("t");
    if (core_fn)
        r->core = des_lactor_new(r->g, "core", core_fn, r);
    sched_actor_init(&r->act, r->g, "sched0", &r->q, &r->v, N, r->core);
    /* every warp ready, warp i in slot i, warp 0 oldest, each joining the
     * members by slot: reported, riding on the first message */
    for (unsigned i = 0; i < N; i++)
        sched_actor_report_new(&r->act, r->g, &r->tick, i, WS_READY, i, r->slot[i], -1);
}
static void rig_free(rig *r)
{
    des_lgroup_free(r->g);
    sched_actor_free(&r->act);
    sched_free(&r->q);
}

/* The scripted core's send: the box's reports ride on the message; the
 * core writes the box again only in a later run, after the actor took it. */
static void send_flags(rig *r, uint8_t kind, uint8_t flags, int issued, uint64_t k, des_time t)
{
    sched_msg m = {.kind = kind, .flags = flags, .nrep = (uint16_t)r->act.nbox, .issued = issued, .k = k};
    cr_assert(des_lport_send(r->act.in, &m, t), "port full at %lu", (unsigned long)t);
    r->act.nbox = 0;
}

static void send(rig *r, uint8_t kind, int issued, uint64_t k, des_time t)
{
    send_flags(r, kind, 0, issued, k, t);
}

/* The scripted core takes the replies that reached it by `now`. */
static void collect(rig *r, des_time now)
{
    const sched_reply *rep;
    while ((rep = des_lport_peek(r->act.out, now))) {
        r->got_at[r->ngot] = now;
        r->got_id[r->ngot++] = rep->id;
        des_lport_pop(r->act.out, now);
    }
}

/* The script, one step per run of the core:
 *   t=0   cycle 0: PICK                     -> GTO takes the oldest ready, 0
 *   t=2   reply 0; warp 0 now waits (DEP); wake at cycle 1 (t=64)
 *   t=64  cycle 1: PICK                     -> last (0) not ready: oldest ready, 1
 *   t=66  reply 1; warp 1 waits, warp 0 ready again; a second slot: OFFER
 *                                           -> last is 1 (not ready): oldest ready, 0
 *   t=68  reply 0; the core claims it: a record of 0's issue in the box
 *         (no message); wake at cycle 2 (t=128), all warps ready
 *   t=128 cycle 2: PICK, the record riding on it (applied at 129 before
 *         the pick: last = 0)       -> greedy: last issued, 0
 *   t=130 reply 0; done. */
static void core_main(des_lactor *self, void *data, des_time now)
{
    rig *r = data;
    collect(r, now);
    switch (r->step++) {
    case 0: send(r, SA_PICK, -1, 0, now); break;
    case 1: report(r, 0, WS_DEP); des_lactor_wake_at(self, 64); break;
    case 2: send(r, SA_PICK, -1, 1, now); break;
    case 3:
        report(r, 1, WS_DEP);
        report(r, 0, WS_READY);
        send(r, SA_OFFER, -1, 1, now);
        break;
    case 4:
        sched_actor_report_flag(&r->act, r->g, &r->tick, 0, WS_READY, SCHED_ISSUED, 1);
        des_lactor_wake_at(self, 128);
        break;
    case 5:
        report(r, 1, WS_READY);   /* rides on the next PICK */
        send(r, SA_PICK, -1, 2, now);
        break;
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
    /* the record of 0 applied at 129, then GTO's pick of 0: last is 0 */
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
    uint64_t tick = 0;   /* r.tick only counts flushes, none here */
    /* cycle 3: sent at 192, reply read at 194: the oldest, 0 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 3}), 0);
    cr_expect_eq(tick, 194);
    report(&r, 0, WS_DEP);
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

/* The actor's statuses and ages are its own: a report changes them only
 * when a message carries it, and an age report reorders GTO. */
Test(sched_actor, reports_ride_on_the_next_message)
{
    rig r;
    rig_init(&r, NULL);
    des_lgroup_run(r.g, 0);
    uint64_t tick = 0;
    /* nothing sent yet: the initial reports wait in the box */
    cr_expect_eq(r.act.status[0], WS_GONE);
    cr_expect_eq(r.act.nbox, 4 * N, "a status, an age, a slot and a place each");
    cr_expect_eq(r.q.n, 0, "no member before the first message");
    /* cycle 0, sent at 0: the reports apply first, then GTO picks the oldest, 0 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 0}), 0);
    cr_expect_eq(r.act.status[3], WS_READY);
    cr_expect_eq(r.act.age[3], 3);
    cr_expect_eq(r.q.n, N);
    cr_expect_eq(r.act.nbox, 0);
    /* warp 0 waits on memory; warps 1, 2, 3 are re-dated 10, 11, 5 */
    report(&r, 0, WS_MEM);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 1, WS_READY, SCHED_AGED, 10);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 2, WS_READY, SCHED_AGED, 11);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 3, WS_READY, SCHED_AGED, 5);
    cr_expect_eq(r.act.status[0], WS_READY, "a report alone changes nothing");
    /* cycle 1 (tick 64): last issued (0) waits on memory; the oldest ready is 3 (age 5) */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 1}), 3);
    cr_expect_eq(tick, 66);
    cr_expect_eq(r.act.status[0], WS_MEM);
    rig_free(&r);
}

/* A full box (N + 64 = 68 words, sched_actor.h) goes alone as SA_SYNC at
 * the group's clock: two ticks, no reply; the report that did not fit
 * waits for the next message. */
Test(sched_actor, full_box_flushes_alone)
{
    rig r;
    rig_init(&r, NULL);
    des_lgroup_run(r.g, 0);
    r.tick = 100;
    cr_expect_eq(r.act.cap, 68);
    /* 4 initial new-entity reports (16 words) + 52 = 68: full, not yet sent */
    for (unsigned i = 0; i < 52; i++)
        report(&r, i % N, i % 2 ? WS_READY : WS_DEP);
    cr_expect_eq(r.act.nbox, 68);
    cr_expect_eq(r.tick, 100);
    report(&r, 2, WS_BARRIER);   /* the flush: sent at 100, taken by 102 */
    cr_expect_eq(r.tick, 102);
    cr_expect_eq(r.act.nbox, 1);
    /* the last of the 52 were i = 51 (warp 3, READY) and i = 50 (warp 2, DEP) */
    cr_expect_eq(r.act.status[3], WS_READY);
    cr_expect_eq(r.act.status[2], WS_DEP, "the last report is still in the box");
    cr_expect_eq(r.act.age[3], 3);
    rig_free(&r);
}

/* SA_FORM: the actor calls the formation hook with the entity and the
 * cycle and replies with what it formed, by reference; with SAF_RECORD it
 * records the issue first (GTO's last issued is set before the hook runs). */
typedef struct form_rig {
    rig *r;
    unsigned calls, id;
    uint64_t k;
    int last_seen;
    int subwarps[3];
} form_rig;

static const void *fake_form(void *host, unsigned id, uint64_t k, unsigned *n, unsigned *threads)
{
    form_rig *f = host;
    f->calls++;
    f->id = id;
    f->k = k;
    f->last_seen = f->r->q.last;
    *n = 3;
    *threads = 40;
    return f->subwarps;
}

Test(sched_actor, form_calls_the_hook_and_replies_by_reference)
{
    rig r;
    rig_init(&r, NULL);
    form_rig f = {.r = &r};
    r.act.form = fake_form;
    r.act.form_host = &f;
    des_lgroup_run(r.g, 0);
    uint64_t tick = 0;
    sched_reply rep;
    /* cycle 2 (tick 128): form warp 3, no record; reply read at 130 */
    cr_assert(sched_actor_exchange(&r.act, r.g, &tick,
                                   (sched_msg){.kind = SA_FORM, .issued = 3, .k = 2}, &rep));
    cr_expect_eq(tick, 130);
    cr_expect_eq(f.calls, 1);
    cr_expect_eq(f.id, 3);
    cr_expect_eq(f.k, 2);
    cr_expect_eq(f.last_seen, -1, "nothing issued yet");
    cr_expect_eq(rep.id, 3);
    cr_expect_eq(rep.nsub, 3);
    cr_expect_eq(rep.threads, 40);
    cr_expect_eq(rep.formed, (const void *)f.subwarps);
    /* cycle 3 (tick 192): form warp 1 and record it issued first */
    cr_assert(sched_actor_exchange(&r.act, r.g, &tick,
                                   (sched_msg){.kind = SA_FORM, .flags = SAF_RECORD, .issued = 1, .k = 3},
                                   &rep));
    cr_expect_eq(tick, 194);
    cr_expect_eq(f.last_seen, 1);
    cr_expect_eq(r.q.last, 1);
    /* cycle 4 (tick 256): PICK with SAF_FORM: GTO keeps the last issued
     * (1, ready), records it, then forms it, all in one exchange (258) */
    cr_assert(sched_actor_exchange(&r.act, r.g, &tick,
                                   (sched_msg){.kind = SA_PICK, .flags = SAF_FORM, .k = 4}, &rep));
    cr_expect_eq(tick, 258);
    cr_expect_eq(rep.id, 1);
    cr_expect_eq(f.calls, 3);
    cr_expect_eq(f.id, 1);
    cr_expect_eq(f.k, 4);
    cr_expect_eq(f.last_seen, 1);
    cr_expect_eq(rep.formed, (const void *)f.subwarps);
    rig_free(&r);
}

/* SAF_OWN: a formation policy's own pick (DWF's issue policies, DWS's ready
 * queue) runs in the actor, on the actor's copies of the statuses and ages,
 * instead of the scheduler's. The fake policy picks the youngest READY warp
 * (largest age), which GTO (oldest first) never would. Script of the
 * scripted core, times from the protocol (sent at t, applied at t + 1,
 * reply read at t + 2):
 *   t=0   warp 3 DEP (report), cycle 0: OFFER|OWN -> youngest ready: 2,
 *         not recorded (GTO's last stays -1)
 *   t=2   reply 2; the core claims it: a record of 2's issue in the box,
 *         no message (DWS: one exchange per issue); wake at cycle 1 (t=64)
 *   t=64  warp 2 DEP (report), cycle 1: PICK|OWN, the record riding on
 *         it (applied at 65 before the pick: last = 2) -> youngest ready: 1,
 *         recorded (last = 1)
 *   t=66  reply 1; done. */
typedef struct own_rig {
    rig r;
    unsigned calls, part;
    uint64_t k[4];
    uint8_t seen3;   /* warp 3's status in the actor's copy, first call */
    int last_seen[4];   /* GTO's last issued at each call */
} own_rig;

static int fake_pick(void *host, unsigned part, uint64_t k, uint8_t *status, const sched_view *v)
{
    own_rig *o = host;
    if (!o->calls)
        o->seen3 = status[3];
    o->part = part;
    o->last_seen[o->calls] = o->r.q.last;
    o->k[o->calls++] = k;
    cr_expect_eq(v->status, status, "the view reads the actor's copy");
    int best = -1;
    for (unsigned i = 0; i < N; i++)
        if (status[i] == WS_READY && (best < 0 || v->age[i] > v->age[best]))
            best = (int)i;
    return best;
}

static void own_core_main(des_lactor *self, void *data, des_time now)
{
    rig *r = data;
    collect(r, now);
    switch (r->step++) {
    case 0:
        report(r, 3, WS_DEP);
        send_flags(r, SA_OFFER, SAF_OWN, -1, 0, now);
        break;
    case 1:
        cr_expect_eq(r->q.last, -1, "an offer is not an issue");
        sched_actor_report_flag(&r->act, r->g, &r->tick, (unsigned)r->got_id[0], WS_READY,
                                SCHED_ISSUED, 0);
        des_lactor_wake_at(self, 64);
        break;
    case 2:
        cr_expect_eq(r->q.last, -1, "the record waits for the next message");
        report(r, 2, WS_DEP);
        send_flags(r, SA_PICK, SAF_OWN, -1, 1, now);
        break;
    default: break;
    }
}

Test(sched_actor, own_pick_in_the_actor_message_times)
{
    own_rig o = {0};
    rig_init(&o.r, own_core_main);   /* the rig is own_rig's first member */
    o.r.act.pick = fake_pick;
    o.r.act.form_host = &o;
    o.r.act.part = 7;
    des_lgroup_run(o.r.g, DES_NEVER);
    des_time want_at[] = {2, 66};
    int want_id[] = {2, 1};
    cr_assert_eq(o.r.ngot, 2, "replies: %u", o.r.ngot);
    for (unsigned i = 0; i < 2; i++) {
        cr_expect_eq(o.r.got_at[i], want_at[i], "reply %u at %lu", i, (unsigned long)o.r.got_at[i]);
        cr_expect_eq(o.r.got_id[i], want_id[i], "reply %u: warp %d", i, o.r.got_id[i]);
    }
    cr_expect_eq(o.calls, 2);
    cr_expect_eq(o.part, 7);
    cr_expect_eq(o.k[0], 0);
    cr_expect_eq(o.k[1], 1);
    cr_expect_eq(o.seen3, WS_DEP, "the report rode on the offer, applied first");
    cr_expect_eq(o.last_seen[1], 2, "the record of 2 applied before the second pick");
    cr_expect_eq(o.r.q.last, 1, "PICK|OWN records its pick");
    rig_free(&o.r);
}

/* Membership and slots are the actor's, changed by reports riding on the
 * next message: a warp that leaves (SCHED_REMOVE) and an entity that joins
 * after its parent (SCHED_ADD, as a split joins after the warp it split
 * from), and a slot change (SCHED_SLOT, LWM's and TBC's fetch groups).
 * Host exchanges: sent at max(64 k, clock), read 2 ticks later. */
Test(sched_actor, membership_reports_ride_on_the_next_message)
{
    rig r;
    rig_init(&r, NULL);
    des_lgroup_run(r.g, 0);
    uint64_t tick = 0;
    /* cycle 0 (tick 0): members 0 1 2 3 by slot; GTO picks the oldest, 0 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 0}), 0);
    cr_expect_eq(tick, 2);
    cr_expect_eq(r.q.last, 0);
    /* warp 0 leaves; entity 0 comes back at once (the id reused) as a split
     * of warp 3: age 7, slot 3, joining right after 3 */
    sched_actor_report_flag(&r.act, r.g, &r.tick, 0, WS_GONE, SCHED_REMOVE, 0);
    sched_actor_report_new(&r.act, r.g, &r.tick, 0, WS_READY, 7, 3, 3);
    cr_expect_eq(r.act.nbox, 1 + 4, "a removal is one word, an entity four");
    cr_expect_eq(r.q.n, N, "nothing applied before the next message");
    cr_expect_eq(r.q.members[0], 0);
    /* cycle 1 (tick 64, read at 66): removed (last forgotten), re-added
     * after 3; GTO has no last, the oldest ready is 1 (age 1) */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 1}), 1);
    cr_expect_eq(tick, 66);
    unsigned want[N] = {1, 2, 3, 0};
    cr_assert_eq(r.q.n, N);
    for (unsigned i = 0; i < N; i++)
        cr_expect_eq(r.q.members[i], want[i], "member %u: %u", i, r.q.members[i]);
    cr_expect_eq(r.act.age[0], 7);
    cr_expect_eq(r.act.slot[0], 3);
    /* warp 2 moves to slot 0 (members unchanged: 1 2 3 0), then leaves
     * (1 3 0) and re-joins by slot: after every member whose slot is <= 0,
     * none (slots 1, 3, 3), so first: 2 1 3 0 */
    sched_actor_report_flag(&r.act, r.g, &r.tick, 2, WS_READY, SCHED_SLOT, 0);
    cr_expect_eq(r.act.slot[2], 2, "the slot waits for the next message");
    sched_actor_flush(&r.act, r.g, &tick);   /* SA_SYNC at the clock, 66 -> 68 */
    cr_expect_eq(tick, 68);
    cr_expect_eq(r.act.slot[2], 0);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 2, WS_GONE, SCHED_REMOVE, 0);
    sched_actor_report_new(&r.act, r.g, &r.tick, 2, WS_READY, 2, 0, -1);
    sched_actor_flush(&r.act, r.g, &tick);   /* 68 -> 70 */
    cr_expect_eq(tick, 70);
    unsigned want2[N] = {2, 1, 3, 0};
    for (unsigned i = 0; i < N; i++)
        cr_expect_eq(r.q.members[i], want2[i], "member %u: %u", i, r.q.members[i]);
    rig_free(&r);
}

/* An issue record (SCHED_ISSUED) is applied in its place among the
 * reports: a record of 1 then 1's removal leaves GTO with no last issued
 * (the removal forgets it); the other order would leave 1. */
Test(sched_actor, issue_record_in_report_order)
{
    rig r;
    rig_init(&r, NULL);
    des_lgroup_run(r.g, 0);
    uint64_t tick = 0;
    sched_actor_flush(&r.act, r.g, &tick);   /* the initial reports, 0 -> 2 */
    cr_expect_eq(tick, 2);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 3, WS_READY, SCHED_ISSUED, 0);
    cr_expect_eq(r.q.last, -1, "not applied yet");
    sched_actor_flush(&r.act, r.g, &tick);   /* 2 -> 4 */
    cr_expect_eq(tick, 4);
    cr_expect_eq(r.q.last, 3);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 1, WS_READY, SCHED_ISSUED, 0);
    sched_actor_report_flag(&r.act, r.g, &r.tick, 1, WS_GONE, SCHED_REMOVE, 0);
    sched_actor_flush(&r.act, r.g, &tick);   /* 4 -> 6 */
    cr_expect_eq(tick, 6);
    cr_expect_eq(r.q.last, -1, "recorded, then forgotten by the removal");
    /* cycle 1 (tick 64, read at 66): GTO without a last: the oldest ready, 0 */
    cr_expect_eq(sched_actor_ask(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 1}), 0);
    cr_expect_eq(tick, 66);
    cr_expect_eq(r.q.n, N - 1);
    cr_expect_eq(r.act.status[1], WS_GONE);
    rig_free(&r);
}

/* A policy's prediction for an issue (OAWS's, which the request carries)
 * comes back in the reply that reports the issue: a pick's, or a sync of
 * an issue record the core reported (SA_SYNC with `issued`). The fake
 * policy picks the first READY member and predicts id + 5 misses for
 * what it records. Host exchanges: sent at max(64 k, clock), read 2 later. */
static int first_ready(sched *q, const sched_view *v, uint64_t k)
{
    (void)k;
    for (unsigned i = 0; i < q->n; i++)
        if (v->status[q->members[i]] == WS_READY)
            return (int)q->members[i];
    return -1;
}
static void predict_issued(sched *q, const sched_view *v, unsigned id, uint64_t k)
{
    (void)q, (void)k;
    v->pred[id] = (uint8_t)(id + 5);
}

Test(sched_actor, prediction_rides_on_the_issue_reply)
{
    static const sched_ops ops = {.pick = first_ready, .issued = predict_issued};
    uint8_t core_pred[N] = {0};   /* the core's copy: never written by the actor */
    rig r;
    memset(&r, 0, sizeof r);
    for (unsigned i = 0; i < N; i++)
        r.slot[i] = i;
    r.v = (sched_view){.slot = r.slot, .pred = core_pred};
    sched_init(&r.q, &ops, N, N, NULL);
    r.g = des_lgroup_new("t");
    sched_actor_init(&r.act, r.g, "sched0", &r.q, &r.v, N, NULL);
    for (unsigned i = 0; i < N; i++)
        sched_actor_report_new(&r.act, r.g, &r.tick, i, WS_READY, i, i, -1);
    des_lgroup_run(r.g, 0);
    uint64_t tick = 0;
    sched_reply rep;
    /* cycle 0 (tick 0, read at 2): pick 0, recorded: 0 + 5 */
    cr_assert(sched_actor_exchange(&r.act, r.g, &tick, (sched_msg){.kind = SA_PICK, .k = 0}, &rep));
    cr_expect_eq(tick, 2);
    cr_expect_eq(rep.id, 0);
    cr_expect_eq(rep.pred, 5);
    /* the core records warp 2's issue and syncs it at once (tick 2, read at 4) */
    sched_actor_report_flag(&r.act, r.g, &r.tick, 2, WS_READY, SCHED_ISSUED, 0);
    cr_assert(sched_actor_exchange(&r.act, r.g, &tick,
                                   (sched_msg){.kind = SA_SYNC, .issued = 2}, &rep));
    cr_expect_eq(tick, 4);
    cr_expect_eq(rep.id, 2);
    cr_expect_eq(rep.pred, 7);
    cr_expect_eq(r.q.last, 2);
    /* a plain sync (issued -1): no reply */
    cr_expect_not(sched_actor_exchange(&r.act, r.g, &tick,
                                       (sched_msg){.kind = SA_SYNC, .issued = -1}, &rep));
    cr_expect_eq(tick, 6);
    for (unsigned i = 0; i < N; i++)
        cr_expect_eq(core_pred[i], 0, "the actor writes its own copy only");
    rig_free(&r);
}

/* ---- The LD/ST unit's state as reports (simtgrid/memfeedback.h) ---- */

/* An OAWS (static, SMR 50%) actor over four READY warps, 0 the oldest;
 * warp 0's next instruction is a divergent load of 32 threads at pc 100,
 * the others ALU instructions. A scripted core of the same group plays
 * the SM and, between its messages, the LD/ST unit writing the state the
 * policy reads (the writer's struct `fb`, whose box the actor reads as
 * its only reader). */
typedef struct mrig {
    sched q;
    uint32_t slot[N];
    uint8_t pred[N];
    sched_next next[N];
    sched_view v;
    des_lgroup *g;
    sched_actor act;
    uint64_t tick;
    mem_feedback fb;
    mem_report_box box;
    unsigned seen[1];
    des_lactor *core;
    unsigned step;
    des_time got_at[4];
    int got_id[4];
    uint8_t got_pred[4];
    unsigned ngot;
} mrig;

static void mrig_next(const void *host, unsigned id, sched_next *out)
{
    *out = ((const mrig *)host)->next[id];
}

static void mrig_init(mrig *r, des_lactor_fn core_fn)
{
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < N; i++) {
        r->slot[i] = i;
        r->next[i] = (sched_next){.sm_rank = i};
    }
    r->next[0] = (sched_next){.load = true, .pc = 100, .threads = 32};
    r->v = (sched_view){.slot = r->slot, .host = r, .next = mrig_next, .pred = r->pred};
    core_params p = {.oaws_smr = 50};
    sched_init(&r->q, OPS("oaws-static"), N, N, &p);
    r->g = des_lgroup_new("t");
    r->core = des_lactor_new(r->g, "core", core_fn, r);
    sched_actor_init(&r->act, r->g, "sched0", &r->q, &r->v, N, r->core);
    r->box = (mem_report_box){.nreaders = 1, .seen = r->seen};
    r->fb.box = &r->box;
    sched_actor_watch_mem(&r->act, &r->fb, 0);
    for (unsigned i = 0; i < N; i++)
        sched_actor_report_new(&r->act, r->g, &r->tick, i, WS_READY, i, r->slot[i], -1);
}

static void mrig_free(mrig *r)
{
    des_lgroup_free(r->g);
    sched_actor_free(&r->act);
    sched_free(&r->q);
    g_free(r->box.w);
}

static void mrig_send(mrig *r, uint64_t k, des_time t)
{
    sched_msg m = {.kind = SA_PICK, .nrep = (uint16_t)r->act.nbox, .issued = -1, .k = k};
    cr_assert(des_lport_send(r->act.in, &m, t), "port full at %lu", (unsigned long)t);
    r->act.nbox = 0;
}

static void mrig_collect(mrig *r, des_time now)
{
    const sched_reply *rep;
    while ((rep = des_lport_peek(r->act.out, now))) {
        r->got_at[r->ngot] = now;
        r->got_pred[r->ngot] = rep->pred;
        r->got_id[r->ngot++] = rep->id;
        des_lport_pop(r->act.out, now);
    }
}

/* The script (OAWS static: warp 0's load predicts 32 x 50 / 100 = 16
 * misses and issues only if 16 <= free MSHRs - misses in flight):
 *   t=0   the unit reports pc 100's DLC entry and 15 free MSHRs; PICK k=0
 *         -> at 1 the actor applies both: 16 > 15, warp 0 occluded, the
 *         next oldest, 1 (ALU)
 *   t=2   reply 1 (pred 0); warp 1 waits (DEP); the unit frees an MSHR
 *         (16): not the actor's yet (no message); wake at 64
 *   t=64  PICK k=1 -> at 65: 16 <= 16 - 0: warp 0, pred 16
 *   t=66  reply 0 (16); the SM puts 16 misses in flight; wake at 128
 *   t=128 PICK k=2 -> at 129: 16 > 16 - 16: warp 0 (last) occluded, 1
 *         waits: warp 2
 *   t=130 reply 2 (0); warp 2 waits; the load leaves the L1 (in flight
 *         -16); wake at 192
 *   t=192 PICK k=3 -> at 193: 16 <= 16 - 0: warp 0, pred 16
 *   t=194 reply 0 (16). */
static void mem_core_main(des_lactor *self, void *data, des_time now)
{
    mrig *r = data;
    mrig_collect(r, now);
    switch (r->step++) {
    case 0:
        r->fb.dlc[0] = (mem_dlc_entry){.pc = 100, .valid = true, .insts = 4, .accs = 32, .misses = 8};
        mem_report_dlc(&r->fb, &r->fb.dlc[0]);
        mem_set_mshr_free(&r->fb, 15);
        mrig_send(r, 0, now);
        break;
    case 1:
        sched_actor_report(&r->act, r->g, &r->tick, 1, WS_DEP);
        mem_set_mshr_free(&r->fb, 16);
        cr_expect_eq(r->act.mem->mshr_free, 15, "a write reaches the actor only with a message");
        des_lactor_wake_at(self, 64);
        break;
    case 2: mrig_send(r, 1, now); break;
    case 3:
        mem_add_inflight(&r->fb, 16);
        des_lactor_wake_at(self, 128);
        break;
    case 4: mrig_send(r, 2, now); break;
    case 5:
        sched_actor_report(&r->act, r->g, &r->tick, 2, WS_DEP);
        mem_add_inflight(&r->fb, -16);
        des_lactor_wake_at(self, 192);
        break;
    case 6: mrig_send(r, 3, now); break;
    default: break;
    }
}

Test(sched_actor, mem_state_reports_reach_the_decision_at_the_next_message)
{
    mrig r;
    mrig_init(&r, mem_core_main);
    des_lgroup_run(r.g, DES_NEVER);
    des_time want_at[] = {2, 66, 130, 194};
    int want_id[] = {1, 0, 2, 0};
    uint8_t want_pred[] = {0, 16, 0, 16};
    cr_assert_eq(r.ngot, 4, "replies: %u", r.ngot);
    for (unsigned i = 0; i < 4; i++) {
        cr_expect_eq(r.got_at[i], want_at[i], "reply %u at %lu", i, (unsigned long)r.got_at[i]);
        cr_expect_eq(r.got_id[i], want_id[i], "reply %u: warp %d", i, r.got_id[i]);
        cr_expect_eq(r.got_pred[i], want_pred[i], "reply %u: pred %u", i, r.got_pred[i]);
    }
    /* the actor's copy as the unit left it; the box emptied by its reader */
    cr_expect_eq(r.act.mem->mshr_free, 16);
    cr_expect_eq(r.act.mem->miss_inflight, 0);
    cr_expect_eq(r.box.n, 0);
    cr_expect(r.act.v.mem == r.act.mem, "the policy reads the actor's copy");
    mrig_free(&r);
}

/* The box: one word per change of a value a policy reads, none for a
 * write of the same value; each kind lands in a reader's copy; the words
 * stay until every reader has applied them. */
Test(sched_actor, mem_report_box_two_readers)
{
    unsigned seen[2] = {0};
    mem_report_box b = {.nreaders = 2, .seen = seen};
    mem_feedback fb = {.box = &b};
    mem_feedback c0 = {0}, c1 = {0};
    mem_set_mshr_free(&fb, 0);   /* unchanged: no report */
    mem_set_mshr_free(&fb, 7);
    mem_set_port_free(&fb, 3);
    mem_set_fcw(&fb, 5);
    mem_add_inflight(&fb, 9);
    mem_add_inflight(&fb, -4);
    fb.dlc[2] = (mem_dlc_entry){.pc = 0xdeadbeef, .valid = true, .insts = 3, .accs = 1023, .misses = 1000};
    mem_report_dlc(&fb, &fb.dlc[2]);
    fb.vta_hits[63]++;
    mem_report(&fb, MR_VTA_HIT, 63);
    cr_expect_eq(b.n, 7, "7 changes, 7 words");
    mem_report_read(&b, 0, &c0);
    cr_expect_eq(b.n, 7, "kept for reader 1");
    cr_expect_eq(c0.mshr_free, 7);
    cr_expect_eq(c0.port_free, 3);
    cr_expect_eq(c0.fcw, 5);
    cr_expect_eq(c0.miss_inflight, 5);
    cr_expect(c0.dlc[2].valid);
    cr_expect_eq(c0.dlc[2].pc, 0xdeadbeef);
    cr_expect_eq(c0.dlc[2].accs, 1023);
    cr_expect_eq(c0.dlc[2].misses, 1000);
    cr_expect_eq(c0.vta_hits[63], 1);
    cr_expect_eq(mem_dlc_find(&c0, 0xdeadbeef), &c0.dlc[2]);
    mem_dlc_launch(&fb, 0);   /* a new kernel: every entry invalid, one word */
    cr_expect_eq(b.n, 8);
    mem_report_read(&b, 1, &c1);
    cr_expect_eq(b.n, 8, "reader 0 has not seen the clear");
    cr_expect_eq(c1.miss_inflight, 5);
    cr_expect_null(mem_dlc_find(&c1, 0xdeadbeef));
    mem_report_read(&b, 0, &c0);
    cr_expect_eq(b.n, 0, "both have all: emptied");
    cr_expect_null(mem_dlc_find(&c0, 0xdeadbeef));
    cr_expect_eq(seen[0] + seen[1], 0);
    g_free(b.w);
}
