/* Memory controller of one DRAM channel: request queue, scheduler (FCFS or
 * FR-FCFS), row-hint hold, per-bank row buffers, and a timing model (simple
 * row-hit/row-conflict latencies, or command-level GDDR timing). A pure data
 * structure: time is passed in as DRAM-clock cycles and nothing here knows
 * about actors or ports, so a thin actor wrapper puts it on ports:
 *
 *     on wake-up at DRAM cycle `now`:
 *         memctrl_sync(mc, now);
 *         for each request delivered by now, while memctrl_can_accept(mc):
 *             memctrl_enqueue(mc, &req, now);
 *         n = memctrl_advance(mc, now, done, max);   // send these replies
 *         (if advance freed queue room, more requests may be enqueued now;
 *          they take part from now + 1)
 *         sleep until min(memctrl_next_event(mc), next port delivery)
 *
 * Results are exact cycles whatever the wake-up pattern: the controller
 * decides cycle by cycle internally (skipping idle cycles), and a completion
 * carries the cycle its data finished, not the cycle advance was called.
 * A request enqueued at `now` takes part in the decisions of cycle `now`
 * (if enqueued before advance(now); after it, from now + 1).
 *
 * No allocation per request: queue slots are a fixed arena, and the
 * completion heap only grows (rarely) when the wrapper leaves completions
 * uncollected. docs/dram.md describes the models. */
#ifndef SIMTGRID_MEM_MEMCTRL_H
#define SIMTGRID_MEM_MEMCTRL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/addrmap.h"
#include "mem/dram_params.h"
#include "simtgrid/stats.h"

#define MEMCTRL_NEVER UINT64_MAX

typedef struct memctrl_req {
    uint64_t addr;      /* physical byte address */
    uint32_t id;        /* requester's id, echoed in the completion */
    uint32_t bytes;     /* bytes to read or write (0 counts as one burst) */
    bool write;
    bool hint;          /* row-locality hint: hold this row open for a follow-on hit */
} memctrl_req;

typedef struct memctrl_done {
    uint64_t addr;
    uint64_t arrival;   /* cycle the request was enqueued */
    uint64_t done;      /* cycle its last data beat finished on the bus */
    uint32_t id;
    bool write;
} memctrl_done;

/* Counters of one channel (registered with a stats* by memctrl_register_stats). */
typedef struct memctrl_stats {
    uint64_t reads, writes, bytes_read, bytes_written;
    uint64_t row_hits;          /* the row was open when the request started */
    uint64_t row_misses;        /* the bank was closed: ACT only */
    uint64_t row_conflicts;     /* another row was open: PRE then ACT */
    uint64_t activations, precharges, refreshes;
    uint64_t column_commands;   /* bursts (full timing) / requests (simple) */
    uint64_t bus_busy_cycles;   /* cycles the data bus carried data */
    uint64_t refused;           /* enqueue attempts on a full queue */
    uint64_t hint_holds;        /* holds armed by hinted requests */
    uint64_t hint_hold_hits;    /* holds ended by a same-row request in time */
    uint64_t hint_hold_expired; /* holds that ran out before a same-row request */
    uint64_t cap_served;        /* oldest requests served because of dram.frfcfs_cap */
    stats_hist queue_delay;     /* arrival to first command, cycles */
    stats_hist hold_wait;       /* hold start to the awaited hit's first command */
    stats_hist latency;         /* arrival to data done, cycles */
    stats_hist bypasses;        /* younger row hits started ahead of each bank-oldest request */
} memctrl_stats;

typedef struct memctrl memctrl;

/* `p` must pass dram_params_check; `map` (built from the same p) must
 * outlive the controller. `channel` only names it. NULL on bad parameters. */
memctrl *memctrl_new(const dram_params *p, const addrmap *map, unsigned channel);
void memctrl_free(memctrl *mc);

/* Decide every cycle before `now` (requests that start then leave the
 * queue), without returning completions: call it first on a wake-up so that
 * can_accept reflects cycle `now`. */
void memctrl_sync(memctrl *mc, uint64_t now);
/* Room for one more request in the queue (as of the last sync, enqueue or
 * advance). */
bool memctrl_can_accept(const memctrl *mc);
/* Requests the queue can still take (as of the same moments). */
unsigned memctrl_room(const memctrl *mc);
/* Queue a request arriving at DRAM cycle `now` (syncs to `now` first).
 * False (and counted in `refused`) when the queue is full. */
bool memctrl_enqueue(memctrl *mc, const memctrl_req *req, uint64_t now);
/* When the wrapper should call advance next: the earliest cycle a
 * completion can be due (the next command plus the shortest data latency,
 * or an uncollected completion), or, while the queue is full, the next
 * command (it may free a slot). MEMCTRL_NEVER when idle. Waking later is
 * allowed and changes no result. */
uint64_t memctrl_next_event(const memctrl *mc);
/* No request it holds completes before this cycle (the next command plus
 * the shortest data latency, or a completion decided already), queue full
 * or not; MEMCTRL_NEVER when idle. A request enqueued at cycle c completes
 * no sooner than c + memctrl_min_latency. */
uint64_t memctrl_next_done(const memctrl *mc);
unsigned memctrl_min_latency(const memctrl *mc);
/* Issue everything due up to and including cycle `now`, and hand back up to
 * `max` requests whose data finished by `now` (in completion order, ties in
 * arrival order). Returns how many were written to `out`; more may remain
 * (then next_event <= now). */
size_t memctrl_advance(memctrl *mc, uint64_t now, memctrl_done *out, size_t max);
/* Requests held: queued, being serviced, or finished but not yet returned. */
unsigned memctrl_pending(const memctrl *mc);
unsigned memctrl_queued(const memctrl *mc);

const memctrl_stats *memctrl_get_stats(const memctrl *mc);
/* Registers every counter and histogram under `block` ("dram0"). */
/* Statistics held back while the channel's block runs ahead of the
 * engine's time (issue 20, memctrl_stats.c): updates made while running
 * cycle `cycle` (memctrl_stats_at) wait until memctrl_stats_commit says
 * the engine's time has reached that cycle (every cycle <= final), and
 * memctrl_stats_close(end) counts those <= end and drops the rest. A
 * controller nobody commits counts everything at once (the default). */
void memctrl_stats_at(memctrl *mc, uint64_t cycle);
void memctrl_stats_commit(memctrl *mc, uint64_t final);
void memctrl_stats_close(memctrl *mc, uint64_t end);
void memctrl_register_stats(memctrl *mc, stats *st, const char *block);
/* Trace every DRAM command (PRE, ACT, RD, WR; "serve" in the simple model)
 * as a one-cycle span on track BLOCK.cmd; t NULL: none. */
struct trace;
void memctrl_trace(memctrl *mc, struct trace *t, const char *block, double us_per_cycle);
/* After the run: derived values over `elapsed` DRAM cycles (row-buffer hit
 * rate, bus utilisation, bandwidth in bytes per cycle). */
void memctrl_finish(memctrl *mc, stats *st, const char *block, uint64_t elapsed);

#endif
