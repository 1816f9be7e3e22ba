/* Lightweight actors (include/simtgrid/des_lite.h, docs/des.md): a group of
 * actors run by plain calls from one host, in (time, id) order, with their
 * own wake-up heap and ports. The engine's rules hold inside the group: a
 * message takes at least one tick, a slot popped at u is seen by the sender
 * at u + latency, and after each run an actor's next wake-up is re-derived
 * from its ports, so a wake request merged into an earlier one is never
 * lost. What the group saves is the SimGrid context switch per message:
 * blocks that talk every cycle (a channel and its banks, an SM and its
 * warp schedulers) run as calls in their host's context. */
#include <string.h>
#include <glib.h>

#include "simtgrid/des_lite.h"

struct des_lactor {
    des_lgroup *g;
    char *name;
    unsigned id;
    des_lactor_fn fn;
    void *data;
    des_time wake_at;      /* DES_NEVER: not queued */
    int heap_pos;
    GPtrArray *inputs, *outputs;
    /* Messages queued on its inputs, and its outputs whose sender waits:
     * while both are 0 its ports need nothing (port_due is skipped). */
    unsigned queued, blocked;
};


struct des_lgroup {
    char *name;
    des_time now;
    bool running;          /* inside des_lgroup_run */
    uint64_t runs;
    GPtrArray *actors, *ports;
    des_lactor **heap;
    unsigned hn, hcap;
};

/* Ring position i + n (both < cap). */
static inline unsigned ring(unsigned i, unsigned n, unsigned cap)
{
    i += n;
    return i >= cap ? i - cap : i;
}

/* ---- indexed min-heap on (wake_at, id) --------------------------------- */

static bool before(const des_lactor *a, const des_lactor *b)
{
    return a->wake_at < b->wake_at || (a->wake_at == b->wake_at && a->id < b->id);
}

static void heap_set(des_lgroup *g, unsigned i, des_lactor *a)
{
    g->heap[i] = a;
    a->heap_pos = (int)i;
}

static void sift_up(des_lgroup *g, unsigned i)
{
    des_lactor *a = g->heap[i];
    while (i > 0 && before(a, g->heap[(i - 1) / 2])) {
        heap_set(g, i, g->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_set(g, i, a);
}

static void sift_down(des_lgroup *g, unsigned i)
{
    des_lactor *a = g->heap[i];
    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= g->hn)
            break;
        if (c + 1 < g->hn && before(g->heap[c + 1], g->heap[c]))
            c++;
        if (!before(g->heap[c], a))
            break;
        heap_set(g, i, g->heap[c]);
        i = c;
    }
    heap_set(g, i, a);
}

static inline void request(des_lactor *a, des_time t)
{
    des_lgroup *g = a->g;
    if (t >= a->wake_at)
        return;
    a->wake_at = t;
    if (a->heap_pos < 0) {
        if (g->hn == 0) {   /* the usual case: the only actor due */
            g->heap[0] = a;
            a->heap_pos = 0;
            g->hn = 1;
            return;
        }
        if (g->hn == g->hcap) {
            g->hcap *= 2;
            g->heap = g_renew(des_lactor *, g->heap, g->hcap);
        }
        g->heap[g->hn] = a;
        a->heap_pos = (int)g->hn++;
    }
    sift_up(g, (unsigned)a->heap_pos);
}

static inline des_lactor *heap_pop(des_lgroup *g)
{
    des_lactor *top = g->heap[0];
    top->heap_pos = -1;
    if (--g->hn) {
        g->heap[0] = g->heap[g->hn];
        sift_down(g, 0);
    }
    return top;
}

/* ---- groups and actors ------------------------------------------------- */

des_lgroup *des_lgroup_new(const char *name)
{
    des_lgroup *g = g_new0(des_lgroup, 1);
    g->name = g_strdup(name);
    g->actors = g_ptr_array_new();
    g->ports = g_ptr_array_new();
    g->hcap = 16;
    g->heap = g_new(des_lactor *, g->hcap);
    return g;
}

void des_lgroup_free(des_lgroup *g)
{
    if (!g)
        return;
    for (unsigned i = 0; i < g->ports->len; i++) {
        des_lport *p = g_ptr_array_index(g->ports, i);
        g_free(p->name);
        g_free(p->buf);
        g_free(p->at);
        g_free(p->free_at);
        g_free(p);
    }
    for (unsigned i = 0; i < g->actors->len; i++) {
        des_lactor *a = g_ptr_array_index(g->actors, i);
        g_ptr_array_free(a->inputs, TRUE);
        g_ptr_array_free(a->outputs, TRUE);
        g_free(a->name);
        g_free(a);
    }
    g_ptr_array_free(g->ports, TRUE);
    g_ptr_array_free(g->actors, TRUE);
    g_free(g->heap);
    g_free(g->name);
    g_free(g);
}

des_lactor *des_lactor_new(des_lgroup *g, const char *name, des_lactor_fn fn, void *data)
{
    des_lactor *a = g_new0(des_lactor, 1);
    a->g = g;
    a->name = g_strdup(name);
    a->id = g->actors->len;
    a->fn = fn;
    a->data = data;
    a->wake_at = DES_NEVER;
    a->heap_pos = -1;
    a->inputs = g_ptr_array_new();
    a->outputs = g_ptr_array_new();
    g_ptr_array_add(g->actors, a);
    request(a, g->now);
    return a;
}

const char *des_lactor_name(const des_lactor *a) { return a->name; }
unsigned des_lactor_id(const des_lactor *a) { return a->id; }
des_time des_lgroup_next(const des_lgroup *g) { return g->hn ? g->heap[0]->wake_at : DES_NEVER; }
des_time des_lgroup_now(const des_lgroup *g) { return g->now; }
uint64_t des_lgroup_runs(const des_lgroup *g) { return g->runs; }

void des_lactor_wake_at(des_lactor *a, des_time t)
{
    if (t == DES_NEVER)
        return;
    if (a->g->running && t <= a->g->now)
        g_error("des: lightweight actor %s/%s asked to run at tick %" G_GUINT64_FORMAT
                ", not after the current tick %" G_GUINT64_FORMAT, a->g->name, a->name, t,
                a->g->now);
    request(a, t);
}

/* The earliest time after `now` at which a's ports need it: a message not
 * yet delivered, or a slot its blocked send will see. */
static des_time port_due(const des_lactor *a, des_time now)
{
    des_time due = DES_NEVER;
    for (unsigned i = 0; i < a->inputs->len; i++) {
        const des_lport *p = g_ptr_array_index(a->inputs, i);
        for (unsigned k = 0; k < p->n; k++) {
            des_time t = p->at[ring(p->head, k, p->cap)];
            if (t > now) {
                due = MIN(due, t);   /* delivery times grow along the FIFO */
                break;
            }
        }
    }
    for (unsigned i = 0; i < a->outputs->len; i++) {
        const des_lport *p = g_ptr_array_index(a->outputs, i);
        if (p->sender_waiting && p->n < p->cap) {
            des_time t = p->free_at[des_lport_tail(p)];
            if (t > now)
                due = MIN(due, t);
        }
    }
    return due;
}

des_time des_lgroup_run(des_lgroup *g, des_time until)
{
    g_assert(!g->running);
    g->running = true;
    while (g->hn && g->heap[0]->wake_at <= until) {
        des_lactor *a = heap_pop(g);
        if (a->wake_at > g->now)
            g->now = a->wake_at;
        a->wake_at = DES_NEVER;
        g->runs++;
        a->fn(a, a->data, g->now);
        if (a->queued || a->blocked) {   /* else its ports need nothing */
            des_time due = port_due(a, g->now);
            if (due != DES_NEVER)
                request(a, due);
        }
    }
    g->running = false;
    if (until != DES_NEVER && until > g->now)
        g->now = until;
    return g->hn ? g->heap[0]->wake_at : DES_NEVER;
}

void des_lgroup_host_main(des_actor *self, void *group)
{
    des_lgroup *g = group;
    des_time now = des_now(des_actor_engine(self));
    for (;;) {
        des_time next = des_lgroup_run(g, now);
        if (next != DES_NEVER)
            des_wake_at(self, next);
        now = des_block(self);
    }
}

/* ---- ports ------------------------------------------------------------- */

des_lport *des_lport_new(des_lgroup *g, const char *name, des_lactor *from, des_lactor *to,
                         size_t msg_size, unsigned capacity, des_time latency)
{
    g_assert(capacity > 0 && latency >= 1 && msg_size > 0);
    des_lport *p = g_new0(des_lport, 1);
    p->name = g_strdup(name);
    p->from = from;
    p->to = to;
    p->msg_size = msg_size;
    p->cap = capacity;
    p->latency = latency;
    p->buf = g_malloc0(msg_size * capacity);
    p->at = g_new0(des_time, capacity);
    p->free_at = g_new0(des_time, capacity);
    p->queued = to ? &to->queued : &p->host_queued;
    if (from)
        g_ptr_array_add(from->outputs, p);
    if (to)
        g_ptr_array_add(to->inputs, p);
    g_ptr_array_add(g->ports, p);
    return p;
}

/* The sender's wait on p starts or ends (its actor's `blocked` count). */
static void set_waiting(des_lport *p, bool w)
{
    if (p->sender_waiting == w)
        return;
    p->sender_waiting = w;
    if (p->from) {
        if (w)
            p->from->blocked++;
        else
            p->from->blocked--;
    }
}

/* des_lport_send when full, or when the sender was waiting. */
bool des_lport_send_slow(des_lport *p, const void *msg, des_time t)
{
    unsigned tail = des_lport_tail(p);
    if (p->n == p->cap || p->free_at[tail] > t) {
        set_waiting(p, true);
        if (p->from && p->n < p->cap)
            request(p->from, p->free_at[tail]);
        return false;
    }
    set_waiting(p, false);
    memcpy(p->buf + (size_t)tail * p->msg_size, msg, p->msg_size);
    p->at[tail] = t + p->latency;
    p->n++;
    (*p->queued)++;
    if (p->to)
        request(p->to, t + p->latency);
    return true;
}

/* A message for actor p->to arrives at `at`. */
void des_lport_delivered(des_lport *p, des_time at)
{
    request(p->to, at);
}

/* des_lport_pop when the sender waits (or misused: nothing delivered). */
void des_lport_pop_slow(des_lport *p, des_time t)
{
    g_assert(p->n && p->at[p->head] <= t);
    p->free_at[p->head] = t + p->latency;
    p->head = ring(p->head, 1, p->cap);
    p->n--;
    (*p->queued)--;
    if (p->sender_waiting) {
        set_waiting(p, false);
        if (p->from)
            request(p->from, t + p->latency);
    }
}
