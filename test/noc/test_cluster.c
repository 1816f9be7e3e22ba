/* A cluster of SMs sharing crossbar ports: round-robin on the way up, one
 * packet per cycle; replies handed to the SM named by dst on the way down.
 * Clock 1000 MHz: 1 cycle = 1 tick. Every port has latency 1. */
#include <criterion/criterion.h>

#include "gpu/gpu_ports.h"
#include "simtgrid/cluster.h"

static des_clock clk[1] = {{"icnt", 1000000, 0}};

typedef struct end {
    des_port *out, *in;
    unsigned n, sent, got;
    uint16_t src;
    des_time got_at[16];
    uint32_t got_id[16];
} end;

/* An SM: sends n packets (ids src*100 + k) at time 0, then collects replies. */
static void sm_main(des_actor *self, void *data)
{
    end *s = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        while (s->sent < s->n) {
            mem_pkt m = {.id = s->src * 100u + s->sent, .src = s->src, .dst = 0};
            if (!des_port_try_send(s->out, &m, now))
                break;
            s->sent++;
        }
        mem_pkt *m;
        while ((m = des_port_peek(s->in, now))) {
            cr_assert_eq(m->dst, s->src, "SM %u got a reply for %u", s->src, m->dst);
            s->got_at[s->got] = now;
            s->got_id[s->got++] = m->id;
            des_port_pop(s->in, now);
        }
        now = des_block(self);
    }
}

/* The crossbar side: records requests, answers each at once to its src. */
static void xbar_main(des_actor *self, void *data)
{
    end *x = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        mem_pkt *m;
        while ((m = des_port_peek(x->in, now))) {
            x->got_at[x->got] = now;
            x->got_id[x->got++] = m->id;
            mem_pkt r = *m;
            r.reply = 1;
            r.dst = m->src;
            cr_assert(des_port_try_send(x->out, &r, now));
            des_port_pop(x->in, now);
        }
        now = des_block(self);
    }
}

Test(cluster, round_robin_up_and_replies_to_their_sm)
{
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(e);
    /* SMs 4 and 5 form a cluster (first SM 4); each sends 3 requests at 0. */
    static end smv[2], x;
    noc_cluster *c = noc_cluster_new(e, "cluster2", 4, 2, &clk[0], NULL);
    x = (end){0};
    des_actor *xa = des_actor_new(e, "xbar", xbar_main, &x);
    for (unsigned i = 0; i < 2; i++) {
        smv[i] = (end){.n = 3, .src = (uint16_t)(4 + i)};
        des_actor *a = des_actor_new(e, i ? "sm5" : "sm4", sm_main, &smv[i]);
        gpu_link_cluster_sm(c, i, a, 8, 8, &clk[0], &smv[i].out, &smv[i].in);
    }
    x.in = des_port_new(e, "up", sizeof(mem_pkt), 16, 1, noc_cluster_actor(c), xa);
    x.out = des_port_new(e, "down", sizeof(mem_pkt), 16, 1, xa, noc_cluster_actor(c));
    noc_cluster_connect(c, x.in, x.out);
    des_run(e);
    /* All 6 reach the cluster at 1; it forwards one per cycle from 1,
     * alternating SMs from the first: they reach the crossbar at 2..7. */
    cr_assert_eq(x.got, 6);
    static const uint32_t order[] = {400, 500, 401, 501, 402, 502};
    for (unsigned k = 0; k < 6; k++) {
        cr_expect_eq(x.got_id[k], order[k], "request %u: id %u", k, x.got_id[k]);
        cr_expect_eq(x.got_at[k], 2 + k);
    }
    /* Replies leave the crossbar side at 2..7, reach the cluster at 3..8,
     * leave it the same cycle (one per cycle) and reach their SM at 4..9. */
    cr_assert_eq(smv[0].got, 3);
    cr_assert_eq(smv[1].got, 3);
    for (unsigned k = 0; k < 3; k++) {
        cr_expect_eq(smv[0].got_id[k], 400 + k);
        cr_expect_eq(smv[0].got_at[k], 4 + 2 * k);
        cr_expect_eq(smv[1].got_id[k], 500 + k);
        cr_expect_eq(smv[1].got_at[k], 5 + 2 * k);
    }
    noc_cluster_free(c);
    des_engine_free(e);
}

/* A crossbar side that never reads. */
static void idle_main(des_actor *self, void *data)
{
    (void)data;
    for (;;)
        des_block(self);
}

Test(cluster, a_full_crossbar_input_holds_requests_back)
{
    /* The shared input takes 1 packet (capacity 1, the crossbar side never
     * reads): of 4 requests, one goes up; the rest wait in the SM ports and
     * nothing is lost or duplicated. */
    char *err = NULL;
    des_engine *e = des_engine_new(clk, 1, false, &err);
    static end smv[2];
    noc_cluster *c = noc_cluster_new(e, "cluster0", 0, 2, &clk[0], NULL);
    des_actor *sink = des_actor_new(e, "sink", idle_main, NULL);
    for (unsigned i = 0; i < 2; i++) {
        smv[i] = (end){.n = 2, .src = (uint16_t)i};
        des_actor *a = des_actor_new(e, i ? "sm1" : "sm0", sm_main, &smv[i]);
        gpu_link_cluster_sm(c, i, a, 8, 8, &clk[0], &smv[i].out, &smv[i].in);
    }
    des_port *up = des_port_new(e, "up", sizeof(mem_pkt), 1, 1, noc_cluster_actor(c), sink);
    des_port *down = des_port_new(e, "down", sizeof(mem_pkt), 1, 1, sink, noc_cluster_actor(c));
    noc_cluster_connect(c, up, down);
    des_run(e);
    cr_expect_eq(des_port_count(up), 1);
    cr_expect_eq(des_port_count(smv[0].out) + des_port_count(smv[1].out), 3);
    cr_expect_eq(((mem_pkt *)des_port_peek(up, DES_NEVER - 1))->id, 0);
    noc_cluster_free(c);
    des_engine_free(e);
}
