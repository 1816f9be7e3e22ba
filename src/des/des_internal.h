/* Private structures of the DES layer, shared by engine.c, wakeheap.c and port.c. */
#ifndef SIMTGRID_DES_INTERNAL_H
#define SIMTGRID_DES_INTERNAL_H

#include <glib.h>
#include <simgrid/actor.h>

#include "simtgrid/des.h"

struct des_actor {
    des_engine *engine;
    char *name;
    unsigned id;            /* creation order; breaks ties at equal wake times */
    des_actor_fn fn;
    void *data;
    sg_actor_t sg;          /* its SimGrid actor: suspended between turns */
    des_time wake_at;       /* pending wake request, DES_NEVER if none */
    des_time lookahead;     /* min input latency / output credit delay */
    const des_clock *edges; /* des_actor_wake_on_edges, or NULL */
    des_time batch_at;      /* the last time it was due (joined a batch) */
    bool ends_run;          /* des_actor_may_end_run */
    bool finished;
    uint64_t wakeups;       /* times the engine released it (profile) */
    GPtrArray *inputs, *outputs;   /* des_port*, to re-derive wake-ups */
    /* Bit k of in_busy: inputs[k] holds a message (queued or in flight);
     * of out_wait: outputs[k] has a sender waiting for a slot. Kept by the
     * ports, so des_block and a receiver with many inputs (a crossbar)
     * visit only the ports that can need them (issue 20). */
    uint64_t *in_busy, *out_wait;
    unsigned in_words, out_words;
    bool plain_in_bound;    /* des_actor_plain_input_bound */
    bool in_marked;         /* an input has been muted or promised: the deep bounds look (port.c) */
};

static inline void des_bit_set(uint64_t *s, unsigned k) { s[k / 64] |= 1ull << (k % 64); }
static inline void des_bit_clear(uint64_t *s, unsigned k) { s[k / 64] &= ~(1ull << (k % 64)); }

/* The wake-up queue, in (wake_at, id) order: the actors due at one time
 * are a bucket, a bit set by actor id, and the buckets are kept sorted by
 * time (wakeheap.c). */
enum { WAKE_HINTS = 8 };
typedef struct wake_bucket {
    des_time at;
    unsigned n;             /* actors in it */
    unsigned lo;            /* no member below word lo of bits */
    uint64_t *bits;         /* by actor id, npos bits */
} wake_bucket;
typedef struct wakeheap {
    wake_bucket *b;         /* the buckets, used and free */
    unsigned nb, *free_b, nfree;
    unsigned hint[WAKE_HINTS];   /* the buckets added to last, by time */
    unsigned *order;        /* bucket indices by time: order[head..end) */
    unsigned head, end, cap;
    int *in;                /* by actor id: its bucket, -1 when not queued */
    des_actor **by_id;      /* by actor id: the actor (once it has asked to wake) */
    unsigned npos, words;   /* ids that fit, words of a bucket's bit set */
} wakeheap;

void wakeheap_init(wakeheap *h);
void wakeheap_free(wakeheap *h);
/* Insert, or lower the key of an actor already queued; a later time is ignored. */
void wakeheap_request(wakeheap *h, des_actor *a, des_time t);
des_actor *wakeheap_top(const wakeheap *h);
/* Wake time of the top (DES_NEVER if empty), without reading the actor. */
des_time wakeheap_top_at(const wakeheap *h);
/* Wake time of the earliest actor after the top (DES_NEVER if none). */
des_time wakeheap_second_at(const wakeheap *h);
des_actor *wakeheap_pop(wakeheap *h);
/* Takes an actor out of the heap, if queued. */
void wakeheap_remove(wakeheap *h, des_actor *a);

struct des_engine {
    des_clock *clocks;
    unsigned nclocks;
    uint64_t ticks_per_us;
    des_time now;
    des_time limit;          /* stop before running any time beyond this */
    wakeheap heap;
    GPtrArray *actors;       /* des_actor*, in id order */
    GPtrArray *ports;
    GPtrArray *enders;       /* des_actor* that may call des_stop (des_actor_may_end_run) */
    des_time stop_deep_at, stop_deep;   /* des_stop_bound_deep's answer, and at which now + 1 (0: none) */
    sg_actor_t *batch;       /* the blocks due at `now`, in id order */
    unsigned batch_len, batch_cap;
    unsigned batch_pos;      /* how many of them have ended their turn */
    unsigned parked;         /* blocks suspended for their first turn */
    bool stopped;
    bool started;
    bool lazy_clock;         /* SimGrid's clock catches up only at the end */
    des_counters counters;
    /* Observers called as time passes each multiple of their period (the
     * time series, the progress line); probe_next is the earliest due. */
    struct des_probe {
        des_time period, next;
        des_probe_fn fn;
        void *ctx;
    } probes[DES_MAX_PROBES];
    unsigned nprobes;
    des_time probe_next;
    /* Blocks holding statistics back past the engine's time
     * (des_add_journal): committed before each probe. */
    GArray *journals;        /* struct des_journal */
};

struct des_journal {
    des_journal_fn fn;
    void *ctx;
};

void des_port_free(des_port *p);
/* The earliest time after `now` at which this port needs its receiver (an
 * undelivered message) or its waiting sender (a slot becoming reusable). */
des_time des_port_receiver_due(const des_port *p, des_time now);
des_time des_port_sender_due(const des_port *p, des_time now);
/* Called by des_port_new: the port lowers the lookahead of both its ends. */
void des_actor_note_lookahead(des_actor *a, des_time t);

#endif
