/* Cluster of SMs on shared crossbar ports (see include/simtgrid/cluster.h). */
#include <glib.h>

#include "simtgrid/cluster.h"

struct noc_cluster {
    des_engine *engine;
    des_actor *actor;
    const des_clock *clk;
    char *name;
    unsigned first, n, rr;
    des_port **in, **out;     /* per SM */
    des_port *to_xbar, *from_xbar;
    uint64_t up, down, up_refused, down_refused;
};

static void cluster_main(des_actor *self, void *data);

noc_cluster *noc_cluster_new(des_engine *e, const char *name, unsigned first_sm, unsigned nsms,
                             const des_clock *icnt, stats *st)
{
    noc_cluster *c = g_new0(noc_cluster, 1);
    c->engine = e;
    c->clk = icnt;
    c->name = g_strdup(name);
    c->first = first_sm;
    c->n = nsms;
    c->in = g_new0(des_port *, nsms);
    c->out = g_new0(des_port *, nsms);
    c->actor = des_actor_new(e, name, cluster_main, c);
    if (st) {
        stats_counter(st, name, "requests", "packets", "requests forwarded to the request crossbar", &c->up);
        stats_counter(st, name, "replies", "packets", "replies handed to the cluster's SMs", &c->down);
        stats_counter(st, name, "request_refused", "cycles",
                      "cycles a request waited for the shared crossbar input", &c->up_refused);
        stats_counter(st, name, "reply_refused", "cycles",
                      "cycles a reply waited for room at its SM", &c->down_refused);
    }
    return c;
}

des_actor *noc_cluster_actor(noc_cluster *c) { return c->actor; }

void noc_cluster_connect_sm(noc_cluster *c, unsigned i, des_port *in, des_port *out)
{
    c->in[i] = in;
    c->out[i] = out;
}

void noc_cluster_connect(noc_cluster *c, des_port *to_xbar, des_port *from_xbar)
{
    c->to_xbar = to_xbar;
    c->from_xbar = from_xbar;
}

void noc_cluster_free(noc_cluster *c)
{
    if (!c)
        return;
    g_free(c->in);
    g_free(c->out);
    g_free(c->name);
    g_free(c);
}

/* One request up, round-robin from the SM after the last one served.
 * Returns whether one went (a refusal registers the wake-up for a slot). */
static bool forward_up(noc_cluster *c, des_time t, bool *waiting)
{
    *waiting = false;
    for (unsigned k = 0; k < c->n; k++) {
        unsigned i = (c->rr + k) % c->n;
        mem_pkt *m = des_port_peek(c->in[i], t);
        if (!m)
            continue;
        if (!des_port_try_send(c->to_xbar, m, t)) {
            c->up_refused++;
            *waiting = true;
            return false;
        }
        des_port_pop(c->in[i], t);
        c->rr = (i + 1) % c->n;
        c->up++;
        return true;
    }
    return false;
}

static bool forward_down(noc_cluster *c, des_time t, bool *waiting)
{
    *waiting = false;
    mem_pkt *m = des_port_peek(c->from_xbar, t);
    if (!m)
        return false;
    unsigned i = m->dst >= c->first && m->dst - c->first < c->n ? m->dst - c->first : 0;
    if (!des_port_try_send(c->out[i], m, t)) {
        c->down_refused++;
        *waiting = true;
        return false;
    }
    des_port_pop(c->from_xbar, t);
    c->down++;
    return true;
}

/* Any request or reply delivered by t still waiting here. */
static bool pending(noc_cluster *c, des_time t)
{
    if (des_port_next(c->from_xbar) <= t)
        return true;
    for (unsigned i = 0; i < c->n; i++)
        if (des_port_next(c->in[i]) <= t)
            return true;
    return false;
}

static void cluster_main(des_actor *self, void *data)
{
    noc_cluster *c = data;
    des_time period = c->clk->period;
    des_time now = des_now(c->engine);
    for (;;) {
        des_time t = des_edge_at_or_after(c->clk, now);
        if (t > now) {
            des_wake_at(self, t);
            now = des_block(self);
            continue;
        }
        bool wu, wd;
        bool up = forward_up(c, t, &wu);
        bool down = forward_down(c, t, &wd);
        des_count_events(c->engine, 1);
        /* Something moved and more waits: try again next cycle. A refused
         * send is woken by its port's credit; new packets wake us. */
        if ((up || down) && pending(c, t))
            des_wake_at(self, t + period);
        now = des_block(self);
    }
}
