/* Crossbar state, private to src/noc. */
#ifndef SIMTGRID_XBAR_INTERNAL_H
#define SIMTGRID_XBAR_INTERNAL_H

#include <glib.h>

#include "simtgrid/xbar.h"

typedef struct xbar_slot {
    mem_pkt pkt;
    uint64_t arrived;   /* interconnect cycle it entered the VOQ */
    int next;           /* next slot in the same VOQ, or in the free list */
} xbar_slot;

typedef struct xbar_in {
    des_port *port;
    xbar_slot *slots;   /* input_buffer slots shared by this input's VOQs */
    int free_head;
    unsigned used;
    uint64_t full_since; /* cycle `used` reached input_buffer */
    int *head, *tail;   /* per output */
    uint64_t busy_until;
    unsigned rr;        /* iSLIP accept pointer */
} xbar_in;

typedef struct xbar_out {
    des_port *port;
    mem_pkt pkt;        /* the packet being transferred */
    bool has_pkt, blocked;
    uint64_t busy_until, blocked_since;
    unsigned pending;   /* packets queued for this output over all inputs */
    unsigned rr;        /* round-robin / iSLIP grant pointer */
    des_time credit_at; /* credit_bound's: valid until reached */
} xbar_out;

/* A statistics update held back: made at `cycle`, after the engine's
 * time (xbar_journal.c). counter NULL: a queue_delay sample v. from: for
 * input_full_cycles, the cycle the input became full, else UINT64_MAX. */
typedef struct xbar_note {
    uint64_t cycle;
    uint64_t *counter;
    uint64_t v, from;
} xbar_note;

struct xbar {
    xbar_params p;
    const des_clock *clk;
    des_engine *engine;
    des_actor *actor;
    char *name;
    stats *st;
    xbar_in *in;
    xbar_out *out;
    int *accept;
    /* Bit sets that let arbitration visit only the requests present:
     * req[o * in_words ..] the inputs with a packet queued for output o,
     * freein the inputs free this cycle, granted[i * out_words ..] the
     * outputs that granted input i in the current iteration. */
    unsigned in_words, out_words;
    uint64_t *req, *freein, *granted;
    unsigned *granted_list;
    uint64_t *nonempty;      /* inputs with a packet queued */
    uint64_t *outact;        /* outputs transferring (has_pkt) or with packets pending */
    int *in_of_port;         /* by des_port_input_index: the input, or -1 */
    unsigned nin_of_port;
    unsigned *busy, nbusy;   /* inputs that started a transfer, until it ends */
    unsigned queued, in_flight;
    uint64_t cur_cycle;
    uint64_t rng;
    uint64_t packets, flits, busy_cycles, out_stall, in_full;
    stats_hist queue_delay;
    GArray *notes;           /* xbar_note, in cycle order, from notes_head */
    unsigned notes_head;
    uint64_t final_cycle;    /* updates at or before it are counted at once */
};

/* Counts v into *counter (or a queue_delay sample) at cycle c, or holds
 * it back when c is after final_cycle. */
void xbar_note_add(xbar *x, uint64_t c, uint64_t *counter, uint64_t v, uint64_t from);
/* The engine's time has reached cycle `final`: counts the notes due. */
void xbar_notes_commit(xbar *x, uint64_t final);
/* The run ended at cycle `end`: counts the notes at or before it, and of
 * the rest the full-input cycles up to it. */
void xbar_notes_close(xbar *x, uint64_t end);

#endif
