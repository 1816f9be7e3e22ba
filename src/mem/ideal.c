/* The ideal memory block: fixed latency, a line bandwidth, FIFO (timing in
 * include/simtgrid/ideal_mem.h).
 *
 * It is event driven: it wakes when requests are delivered, computes each
 * one's response time at once (a FIFO pipe makes it depend only on earlier
 * requests) and sends the response stamped with that future time, so it
 * never wakes again for it. Responses that find the port full wait in a
 * per-port ring and are retried when the port frees a slot. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "simtgrid/ideal_mem.h"
#include "simtgrid/memport.h"

#define IDEAL_MAX_PORTS 1024
#define LINE_SHIFT 7   /* 128 B lines */

typedef struct pending_resp {
    warp_mem_resp msg;
    des_time at;        /* the earliest time it may be sent */
} pending_resp;

typedef struct ideal_port {
    des_port *req_in, *resp_out;
    uint64_t req_cycles, resp_cycles;
    pending_resp *ring;   /* responses refused by a full port, oldest first */
    unsigned head, count, cap;
} ideal_port;

struct ideal_mem {
    des_actor *actor;
    const des_clock *clk;
    uint64_t latency;
    double lines_per_cycle;
    ideal_port *ports;
    unsigned nports;
    uint64_t pipe_free;   /* first cycle the pipe is free */
    /* statistics */
    uint64_t requests, lines, replies, busy_cycles, queue_cycles;
};

void ideal_mem_port_latency(unsigned latency, unsigned *req_cycles, unsigned *resp_cycles)
{
    *req_cycles = 1;
    *resp_cycles = latency > 1 ? latency - 1 : 1;
}

unsigned ideal_mem_resp_capacity(unsigned resp_cycles) { return 2 * resp_cycles + 2; }

/* Distinct 128 B lines touched by the active lanes (a lane whose access
 * straddles a line boundary touches two). At most 64 line numbers. */
static unsigned count_lines(const warp_mem_req *r)
{
    uint64_t line[2 * MEMPORT_LANES];
    unsigned n = 0;
    unsigned size = r->size ? r->size : 1;
    for (unsigned l = 0; l < MEMPORT_LANES; l++) {
        if (!(r->active >> l & 1))
            continue;
        uint64_t first = r->addr[l] >> LINE_SHIFT, last = (r->addr[l] + size - 1) >> LINE_SHIFT;
        for (uint64_t x = first; x <= last && n < 2 * MEMPORT_LANES; x++) {
            /* insertion into a sorted array, skipping duplicates */
            unsigned i = n;
            bool dup = false;
            while (i > 0 && line[i - 1] >= x) {
                if (line[i - 1] == x) {
                    dup = true;
                    break;
                }
                i--;
            }
            if (dup)
                continue;
            memmove(line + i + 1, line + i, (n - i) * sizeof line[0]);
            line[i] = x;
            n++;
        }
    }
    return n;
}

static void ring_push(ideal_port *p, const pending_resp *r)
{
    if (p->count == p->cap) {
        unsigned ncap = p->cap ? 2 * p->cap : 16;
        pending_resp *nr = g_new(pending_resp, ncap);
        for (unsigned i = 0; i < p->count; i++)
            nr[i] = p->ring[(p->head + i) % p->cap];
        g_free(p->ring);
        p->ring = nr;
        p->head = 0;
        p->cap = ncap;
    }
    p->ring[(p->head + p->count) % p->cap] = *r;
    p->count++;
}

/* Send what the port accepts, oldest first; keep the rest. */
static void flush_port(ideal_port *p, des_time now)
{
    while (p->count) {
        pending_resp *r = &p->ring[p->head];
        des_time t = r->at > now ? r->at : now;
        if (!des_port_try_send(p->resp_out, &r->msg, t))
            return;   /* the port wakes us when a slot frees */
        p->head = (p->head + 1) % p->cap;
        p->count--;
    }
}

static void serve(ideal_mem *m, ideal_port *p, const warp_mem_req *r, des_time delivered, des_time now)
{
    const des_clock *c = m->clk;
    uint64_t arrival = des_edge_at_or_after(c, delivered) / c->period;
    unsigned k = count_lines(r);
    /* the epsilon keeps exact quotients (k / 0.25 = 4k) from rounding up */
    uint64_t hold = (uint64_t)ceil((double)k / m->lines_per_cycle - 1e-9);
    if (hold < 1)
        hold = 1;
    uint64_t start = arrival > m->pipe_free ? arrival : m->pipe_free;
    m->pipe_free = start + hold;
    m->requests++;
    m->lines += k;
    m->busy_cycles += hold;
    m->queue_cycles += start - arrival;
    if (r->flags & MEM_NO_REPLY)
        return;
    uint64_t inner = m->latency - p->req_cycles - p->resp_cycles;
    uint64_t send_cycle = start + (hold - 1) + inner;
    pending_resp pr = {
        .msg = {.tag = r->tag, .warp = r->warp, .op = r->op, .accesses = k > 255 ? 255 : (uint8_t)k},
        .at = des_cycles(c, send_cycle),
    };
    m->replies++;
    if (p->count == 0) {
        des_time t = pr.at > now ? pr.at : now;
        if (des_port_try_send(p->resp_out, &pr.msg, t))
            return;
    }
    ring_push(p, &pr);
}

static void ideal_main(des_actor *self, void *data)
{
    ideal_mem *m = data;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        for (unsigned i = 0; i < m->nports; i++)
            flush_port(&m->ports[i], now);
        /* Arrivals in (delivery time, port index) order: the FIFO order. */
        for (;;) {
            int best = -1;
            des_time best_t = DES_NEVER;
            for (unsigned i = 0; i < m->nports; i++) {
                des_time t = des_port_next(m->ports[i].req_in);
                if (t <= now && t < best_t) {
                    best_t = t;
                    best = (int)i;
                }
            }
            if (best < 0)
                break;
            ideal_port *p = &m->ports[best];
            const warp_mem_req *r = des_port_peek(p->req_in, now);
            warp_mem_req copy = *r;
            des_port_pop(p->req_in, now);
            serve(m, p, &copy, best_t, now);
        }
        des_count_events(des_actor_engine(self), 1);
        now = des_block(self);
    }
}

ideal_mem *ideal_mem_new(des_engine *e, const char *name, const des_clock *core,
                         unsigned latency, double lines_per_cycle, stats *st)
{
    if (latency < 2 || !(lines_per_cycle > 0))
        return NULL;
    ideal_mem *m = g_new0(ideal_mem, 1);
    m->clk = core;
    m->latency = latency;
    m->lines_per_cycle = lines_per_cycle;
    m->ports = g_new0(ideal_port, IDEAL_MAX_PORTS);
    m->actor = des_actor_new(e, name, ideal_main, m);
    if (st) {
        stats_counter(st, name, "requests", "requests", "warp memory instructions served", &m->requests);
        stats_counter(st, name, "lines", "lines", "distinct 128 B lines touched by the requests", &m->lines);
        stats_counter(st, name, "replies", "responses", "responses sent (requests without MEM_NO_REPLY)", &m->replies);
        stats_counter(st, name, "busy_cycles", "cycles", "cycles the pipe was busy (bandwidth use)", &m->busy_cycles);
        stats_counter(st, name, "queue_cycles", "cycles", "cycles requests waited for the pipe, summed", &m->queue_cycles);
    }
    return m;
}

des_actor *ideal_mem_actor(ideal_mem *m) { return m->actor; }

bool ideal_mem_connect(ideal_mem *m, des_port *req_in, des_port *resp_out)
{
    if (m->nports == IDEAL_MAX_PORTS || !req_in || !resp_out)
        return false;
    des_time period = m->clk->period;
    des_time lq = des_port_latency(req_in), lr = des_port_latency(resp_out);
    if (lq % period || lr % period || (lq + lr) / period > m->latency)
        return false;
    ideal_port *p = &m->ports[m->nports++];
    p->req_in = req_in;
    p->resp_out = resp_out;
    p->req_cycles = lq / period;
    p->resp_cycles = lr / period;
    return true;
}

void ideal_mem_free(ideal_mem *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nports; i++)
        g_free(m->ports[i].ring);
    g_free(m->ports);
    g_free(m);
}
